//! 668f9abb "mm: close PageTail race" (David Rientjes; mainline 3.14) as backported to
//! 3.10-stable ("[patch stable-3.10] mm: close PageTail race", 28 Mar 2014): this file mirrors
//! the backport's text (kernel/linux-3.10.36/), with the folded prerequisite "mm, page_alloc:
//! make first_page visible before PageTail": `compound_head()` becomes Andrea's
//! `compound_trans_head()` (read `first_page`, `smp_rmb()`, re-check PG_tail),
//! `compound_trans_head()` goes (its callers use `compound_head()`), and `prep_compound_page()`
//! writes `first_page`, then `smp_wmb()`, then sets PG_tail. The race it closes: compaction's
//! `page_count()` on an unpinned pfn racing `prep_compound_page()` (claim compound.7).
//!
//! Backport and mainline: `compound_head()` and `prep_compound_page()` are the same lines in
//! both. `put_compound_page()` and `__get_page_tail()` here are 3.10-stable's (27c73ae7's
//! shape: the head pinned first, `PageSlab || PageHeadHuge` tested on the pinned head, the tail
//! `_mapcount` kept for slab and hugetlbfs tails, the `skip_lock` label); mainline's are 3.14's
//! reorganised functions (`__compound_tail_refcounted()` tested on the unpinned head), in which
//! 668f9abb changes the same two `compound_trans_head()` calls. The backport deletes 3.10's
//! `compound_trans_head()` (with `smp_rmb()` and the re-check); mainline deletes ca641514's
//! `#if 0` block and its `#define`. The parent in META (ca641514) is the variant the model chain
//! applies 668f9abb to, not its mainline parent: in mainline 44518d2b (whose parent is
//! ca641514) and the rest of the 3.14 series lie between (kernel/668f9abb/ names 44518d2b);
//! 3.10-stable never had ca641514. `cargo xtask fidelity` aligns this file with mainline's text
//! (kernel/668f9abb/): the differences are its DISCREPANCY markers.

use crate::mm::hugetlb::PageHeadHuge;
use crate::mm::page_alloc::{set_compound_order, set_compound_page_dtor};
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read, smp_rmb, smp_wmb};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

/// 668f9abb as backported to 3.10-stable: the re-checking compound_head().
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "668f9abb",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: close PageTail race",
        },
        parent: Some("ca641514"),
        source: "the 3.10-stable backport of 668f9abb, not the mainline commit: linux-mm/stable, David Rientjes, 28 Mar 2014, '[patch stable-3.10] mm: close PageTail race' ('commit 668f9abbd4334e6c29fa8acd71635c4f9101caa7 upstream'), Message-ID <alpine.DEB.2.02.1403281333290.18841@chino.kir.corp.google.com>, applied by Greg KH on 31 Mar 2014 (<20140331235543.GB20979@kroah.com>); the 3.10.y release that first carried it (3.10.36) is inferred, UNVERIFIED. Verified against kernel/linux-3.10.36/: mm/swap.c (verbatim, AndreiLux/ref-3.10 commit 45da1f3dda0bfc190f717887054118ef079bf279: put_compound_page, __get_page_tail), mm/page_alloc.c (verbatim, AndreiLux/ref-3.10 commit 018bce42ef4a2d7ccfe48c05df22591d61f33c38: prep_compound_page), include/linux/mm.h (partial: compound_head, whole in the posting's hunk) and include/linux/huge_mm.h (partial: the deletion). Mainline 668f9abb (kernel/668f9abb/: include/linux/mm.h and mm/page_alloc.c verbatim from torvalds/linux stored at the commit since 4 Dec 2026, the rest assembled from postings) has the same compound_head() hunk (linux-mm, 12 Feb 2014, '[patch -mm] mm: close PageTail race', <alpine.DEB.2.02.1402120058370.31209@chino.kir.corp.google.com>) and the same prep_compound_page() lines (folded from 'mm, page_alloc: make first_page visible before PageTail' v2, linux-mm, 4 Feb 2014, <alpine.DEB.2.02.1402041621350.14962@chino.kir.corp.google.com>), but its two mm/swap.c hunks change 3.14's reorganised put_compound_page()/__get_page_tail(), which this variant does not run, and its huge_mm.h hunk deletes ca641514's #if 0 block where the backport deletes 3.10's smp_rmb() compound_trans_head(). Parent ca641514 is the model chain's, a mainline ancestor, not 668f9abb's mainline parent (44518d2b and the rest of the 3.14 series lie between; 3.10-stable never had ca641514). Not modelled: the other callers it converts (ksm, memory-failure, vfio, kvm, aoe, fs/proc/page.c).",
    };
    crate::compound_fns! {
        self: compound_head, prep_compound_page, put_compound_page, __get_page_tail;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `compound_head(page)` (include/linux/mm.h, 668f9abb: the same hunk in mainline and
/// 3.10-stable).
pub fn compound_head<V: Compound>(m: &Mem, page: PagePtr) -> PagePtr {
    let p = m.pg(page);
    let tail = PageTail(p);
    ktrace!("compound_head", "PageTail({page:?}) = {tail}");
    // MODEL: the C's `if (unlikely(PageTail(page)))`, PageTail() read into `tail` for the trace
    if tail {
        let head = first_page(p);
        ktrace!("compound_head", "{page:?}->first_page = {head:?}");

        // page->first_page may be a dangling pointer to an old compound page, so recheck
        // that it is still a tail page before returning.
        smp_rmb();
        if PageTail(p) {
            ktrace!("compound_head", "{page:?} still a tail: head = {head:?}");
            return head;
        }
        ktrace!("compound_head", "{page:?} stopped being a tail");
    }
    page
}

/// `prep_compound_page(page, order)` (mm/page_alloc.c, 668f9abb: the same lines in mainline
/// and 3.10-stable).
pub fn prep_compound_page<V: Compound>(m: &Mem, page: PagePtr, order: u32) {
    let nr_pages = 1usize << order;
    set_compound_page_dtor(m, page, DTOR_FREE_COMPOUND_PAGE);
    set_compound_order(m, page, order);
    __SetPageHead(m.pg(page));
    ktrace!("prep_compound_page", "__SetPageHead({page:?}) (non-atomic)");
    for i in 1..nr_pages {
        let p = m.pg(page + i);
        set_page_count(p, 0);
        set_first_page(p, page);
        ktrace!(
            "prep_compound_page",
            "{:?}->first_page = {page:?}",
            page + i
        );
        // Make sure p->first_page is always valid for PageTail()
        smp_wmb();
        __SetPageTail(p);
        ktrace!("prep_compound_page", "__SetPageTail({:?})", page + i);
    }
}

/// `put_compound_page(page)` (mm/swap.c, 668f9abb as backported to 3.10-stable).
pub fn put_compound_page<V: Compound>(m: &Mem, page: PagePtr) {
    const F: &str = "put_compound_page";
    // (This is the 3.10-stable backport's text, kernel/linux-3.10.36/mm/swap.c: 27c73ae7's
    // shape with compound_head(). The alignment below is against kernel/668f9abb/, mainline
    // 3.14's reorganised function; the differences are marked DISCREPANCY.)
    if PageTail(m.pg(page)) {
        // LEFT OUT: DISCREPANCY (reported): mainline tests `likely(!PageTail(page))` first and
        // puts a non-tail page there (`put_page_testzero`, `__put_compound_page` or
        // `__put_single_page`, `return`); here that is the final else branch
        // __split_huge_page_refcount can run under us
        let page_head = V::compound_head(m, page);

        // LEFT OUT: DISCREPANCY (reported): mainline's
        // `if (!__compound_tail_refcounted(page_head)) { smp_rmb(); ...`: the slab/hugetlbfs test
        // runs on the unpinned head, then a read barrier before the PageTail re-check
        // MODEL: DISCREPANCY (reported): the head is pinned first (get_page_unless_zero), then
        // `PageSlab(page_head) || PageHeadHuge(page_head)` is tested, with no smp_rmb()
        if page != page_head && get_page_unless_zero(m, page_head) {
            // THP can not break up slab pages so avoid taking compound_lock().  Slab
            // performs non-atomic bit ops on page->flags for better performance.  In
            // particular slab_unlock() in slub used to be a hot path.  It is still hot on
            // arches that do not support this_cpu_cmpxchg_double().
            if PageSlab(m.pg(page_head)) || PageHeadHuge(m, page_head) {
                if PageTail(m.pg(page)) {
                    // __split_huge_page_refcount cannot race here.
                    // LEFT OUT: `VM_BUG_ON_PAGE(!PageHead(page_head), page_head)` is the
                    // VM_BUG_ON below; DISCREPANCY (reported): mainline's
                    // `VM_BUG_ON_PAGE(page_mapcount(page) != 0, page)`: its slab and hugetlbfs
                    // tails carry no _mapcount pin (Oleg Nesterov's get_huge_page_tail())
                    // MODEL: DISCREPANCY (reported): the tail's `_mapcount` decrement and the put
                    // of the head pin under VM_BUG_ON(1): mainline has neither
                    VM_BUG_ON!(F, !PageHead(m.pg(page_head)));
                    let p = m.pg(page);
                    let old = atomic_dec(&p._mapcount);
                    ktrace!(F, "{page:?}._mapcount {old} -> {}", old - 1);
                    if put_page_testzero(m, page_head) {
                        VM_BUG_ON!(F, true);
                    }
                    if put_page_testzero(m, page_head) {
                        // LEFT OUT: DISCREPANCY (reported): mainline's
                        // `VM_BUG_ON_PAGE(PageSlab(page_head), page_head)` here
                        V::__put_compound_page(m, page_head);
                    }
                    return;
                } else {
                    // __split_huge_page_refcount run before us, "page" was a THP tail.
                    // The split page_head has been freed and reallocated as slab or
                    // hugetlbfs page of smaller order (only possible if reallocated as
                    // slab on x86).
                    // LEFT OUT: DISCREPANCY (reported): mainline's `goto out_put_single;` (only
                    // the tail is put: no head pin was taken), then its
                    // `if (likely(page != page_head && get_page_unless_zero(page_head)))` for a
                    // refcounted (THP) head, which here was the first test
                    skip_lock::<V>(m, page_head, page);
                    // MODEL: DISCREPANCY (reported): `goto skip_lock;` (27c73ae7): skip_lock()
                    // puts the head pin, then falls through to out_put_single:
                    return;
                }
            }
            // page_head wasn't a dangling pointer but it may not be a head page anymore
            // by the time we obtain the lock. That is ok as long as it can't be freed
            // from under us.
            V::compound_lock(m, page_head);
            if !PageTail(m.pg(page)) {
                // __split_huge_page_refcount run before us
                ktrace!(F, "{page:?} was split before we took the lock");
                V::compound_unlock(m, page_head);
                skip_lock::<V>(m, page_head, page);
                // LEFT OUT: the code of the `skip_lock:` and `out_put_single:` labels stands here
                // in the C: skip_lock() above, which falls through to out_put_single()
                // MODEL: the call of skip_lock(), whose code mainline 3.14 has inline here (it has
                // no skip_lock: label)
                return;
            }
            VM_BUG_ON!(F, page_head != first_page(m.pg(page)));
            // We can release the refcount taken by get_page_unless_zero() now that
            // __split_huge_page_refcount() is blocked on the compound_lock.
            if put_page_testzero(m, page_head) {
                // LEFT OUT: `VM_BUG_ON_PAGE(1, page_head)` (3.14) is
                // MODEL: this VM_BUG_ON (VM_BUG_ON_PAGE(c, page) = VM_BUG_ON(c) + a page dump)
                VM_BUG_ON!(F, true);
            }
            // __split_huge_page_refcount will wait now
            let p = m.pg(page);
            VM_BUG_ON!(F, page_mapcount(p) <= 0);
            let old = atomic_dec(&p._mapcount);
            ktrace!(F, "{page:?}._mapcount {old} -> {}", old - 1);
            VM_BUG_ON!(F, atomic_read(&m.pg(page_head)._count) <= 0);
            VM_BUG_ON!(F, atomic_read(&p._count) != 0);
            V::compound_unlock(m, page_head);

            if put_page_testzero(m, page_head) {
                if PageHead(m.pg(page_head)) {
                    V::__put_compound_page(m, page_head);
                } else {
                    __put_single_page(m, page_head);
                }
            }
        } else {
            // page_head is a dangling pointer
            // LEFT OUT: `VM_BUG_ON_PAGE(PageTail(page), page)` (3.14) is
            // MODEL: this VM_BUG_ON (VM_BUG_ON_PAGE(c, page) = VM_BUG_ON(c) + a page dump)
            VM_BUG_ON!(F, PageTail(m.pg(page)));
            out_put_single(m, page);
        }
    } else if put_page_testzero(m, page) {
        // MODEL: DISCREPANCY (reported): the non-tail put, which mainline does first (above)
        if PageHead(m.pg(page)) {
            V::__put_compound_page(m, page);
        } else {
            __put_single_page(m, page);
        }
    }
}

/// `__get_page_tail(page)` (mm/swap.c, 668f9abb as backported to 3.10-stable).
///
/// This takes care of get_page() if run on a tail page returned by one of the
/// get_user_pages/follow_page variants. get_user_pages/follow_page itself doesn't need
/// the compound lock because it runs __get_page_tail_foll() under the proper PT lock that
/// already serializes against split_huge_page().
pub fn __get_page_tail<V: Compound>(m: &Mem, page: PagePtr) -> bool {
    // (Aligned against mainline 3.14; this Rust is the 3.10-stable backport's text,
    // kernel/linux-3.10.36/mm/swap.c: see put_compound_page() above.)
    // MODEL: `got = false` here (3.10-stable); mainline assigns it after its unpinned branch
    let mut got = false;
    let page_head = V::compound_head(m, page);

    // LEFT OUT: DISCREPANCY (reported): mainline's `if (!__compound_tail_refcounted(page_head))
    // { smp_rmb(); ...`: no head pin on the slab/hugetlbfs path, and a read barrier before
    // the PageTail re-check; its `__get_page_tail_foll(page, true)` then takes the head ref
    // MODEL: DISCREPANCY (reported): the head is pinned first, then `PageSlab(page_head) ||
    // PageHeadHuge(page_head)` is tested (no smp_rmb()), and the pin is the head ref
    // (`__get_page_tail_foll(page, false)` below)
    if page != page_head && get_page_unless_zero(m, page_head) {
        // Ref to put_compound_page() comment.
        if PageSlab(m.pg(page_head)) || PageHeadHuge(m, page_head) {
            if PageTail(m.pg(page)) {
                // This is a hugetlbfs page or a slab page. __split_huge_page_refcount
                // cannot race here.
                // LEFT OUT: `VM_BUG_ON_PAGE(!PageHead(page_head), page_head)` (3.14) is
                // MODEL: this VM_BUG_ON (VM_BUG_ON_PAGE(c, page) = VM_BUG_ON(c) + a page dump)
                VM_BUG_ON!("__get_page_tail", !PageHead(m.pg(page_head)));
                V::__get_page_tail_foll(m, page, false);
                // LEFT OUT: `return true;` is the next line (the table reads Rust's
                // MODEL: `true` as 1, C's as a name)
                return true;
            } else {
                // __split_huge_page_refcount run before us, "page" was a THP tail. The
                // split page_head has been freed and reallocated as slab or hugetlbfs page
                // of smaller order (only possible if reallocated as slab on x86).
                put_page::<V>(m, page_head);
                // LEFT OUT: `return false;` is the next line (the table reads Rust's
                // MODEL: `false` as 0, C's as a name)
                // LEFT OUT: DISCREPANCY (reported): then mainline's `got = false;` and its
                // `if (likely(page != page_head && get_page_unless_zero(page_head)))`, the pin
                // for a refcounted (THP) head, which here was the first test
                // MODEL: DISCREPANCY (reported): the put_page() above drops the early pin
                return false;
            }
        }

        // page_head wasn't a dangling pointer but it may not be a head page anymore by
        // the time we obtain the lock. That is ok as long as it can't be freed from
        // under us.
        V::compound_lock(m, page_head);
        // here __split_huge_page_refcount won't run anymore
        if PageTail(m.pg(page)) {
            V::__get_page_tail_foll(m, page, false);
            got = true;
        }
        V::compound_unlock(m, page_head);
        if !got {
            put_page::<V>(m, page_head);
        }
    }
    got
}

/// The code at the `skip_lock:` label of put_compound_page() (27c73ae7), falling through to
/// `out_put_single:`.
/// (Not a label mirror in kernel/README.md's sense: the fidelity tool takes a label's C up to
/// the next label, and this label sits inside a block that the function's own code follows;
/// `put_compound_page()` marks where this code stands in its C.)
fn skip_lock<V: Compound>(m: &Mem, page_head: PagePtr, page: PagePtr) {
    if put_page_testzero(m, page_head) {
        // The head page may have been freed and reallocated as a compound page of smaller
        // order and then freed again. All we know is that it cannot have become: a THP page, a
        // compound page of higher order, a tail page. That is because we still hold the
        // refcount of the split THP tail and page_head was the THP head before the split.
        if PageHead(m.pg(page_head)) {
            V::__put_compound_page(m, page_head);
        } else {
            __put_single_page(m, page_head);
        }
    }
    out_put_single(m, page);
}

/// The code at the `out_put_single:` label of put_compound_page().
/// (Not a label mirror in kernel/README.md's sense: the fidelity tool takes a label's C up to
/// the next label, and this label sits inside a block that the function's own code follows;
/// `put_compound_page()` marks where this code stands in its C.)
fn out_put_single(m: &Mem, page: PagePtr) {
    if put_page_testzero(m, page) {
        __put_single_page(m, page);
    }
}
