//! mm/swap.c, mm/page_alloc.c and include/linux/mm.h of 3.10-stable after the backport of
//! 668f9abb "mm: close PageTail race" (David Rientjes; "[patch stable-3.10] mm: close PageTail
//! race", 28 Mar 2014, applied by Greg KH on 31 Mar 2014; first in 3.10.36, inferred, the id is
//! the release that carried it), with the folded prerequisite "mm, page_alloc: make first_page
//! visible before PageTail": `compound_head()` becomes Andrea's `compound_trans_head()` (read
//! `first_page`, `smp_rmb()`, re-check PG_tail), `compound_trans_head()` goes (its two callers
//! here use `compound_head()`), and `prep_compound_page()` writes `first_page`, then `smp_wmb()`,
//! then sets PG_tail. The race it closes: compaction's `page_count()` on an unpinned pfn racing
//! `prep_compound_page()` (claim compound.7). 3.10-stable carried 27c73ae7's backport and none
//! of the 3.14 series (ebf360f9, ca641514, 44518d2b, ...): the parent is 27c73ae7, and
//! `put_compound_page()`/`__get_page_tail()` are its text with `compound_head()`. The new
//! `compound_head()` and `prep_compound_page()` are the lines of mainline 668f9abb
//! (commit_668f9abb.rs), which changes the same two lines of 3.14's reorganised functions: this
//! variant names them from there.

use crate::mm::hugetlb::PageHeadHuge;
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

/// 27c73ae7 with the 3.10-stable backport of 668f9abb: the re-checking compound_head().
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "linux-3.10.36",
        area: Area::Compound,
        kind: Kind::Release { version: "3.10.36" },
        parent: Some("27c73ae7"),
        source: "the 3.10-stable backport of 668f9abb 'mm: close PageTail race': linux-mm/stable, David Rientjes, 28 Mar 2014, '[patch stable-3.10] mm: close PageTail race' ('commit 668f9abbd4334e6c29fa8acd71635c4f9101caa7 upstream'), Message-ID <alpine.DEB.2.02.1403281333290.18841@chino.kir.corp.google.com>, applied by Greg KH on 31 Mar 2014 (<20140331235543.GB20979@kroah.com>); the 3.10.y release that first carried it (3.10.36) is inferred, UNVERIFIED. Verified against kernel/linux-3.10.36/: mm/swap.c (verbatim, AndreiLux/ref-3.10 commit 45da1f3dda0bfc190f717887054118ef079bf279: put_compound_page, __get_page_tail), mm/page_alloc.c (verbatim, AndreiLux/ref-3.10 commit 018bce42ef4a2d7ccfe48c05df22591d61f33c38: prep_compound_page), include/linux/mm.h (partial: compound_head, whole in the posting's hunk) and include/linux/huge_mm.h (partial: the deletion of 3.10's compound_trans_head). Parent 27c73ae7: 3.10-stable carried its backport and none of the 3.14 series. Until 6 Dec 2026 this text was the variant named 668f9abb; mainline 668f9abb is now its own variant on a0320865 (5eaf1a9e with SLUB's fix). Not modelled: the other callers it converts (ksm, memory-failure, vfio, kvm, aoe, fs/proc/page.c).",
    };
    crate::compound_fns! {
        self: put_compound_page, __get_page_tail;
        super::commit_668f9abb: compound_head, prep_compound_page;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `put_compound_page(page)` (mm/swap.c, linux-3.10.36).
pub fn put_compound_page<V: Compound>(m: &Mem, page: PagePtr) {
    const F: &str = "put_compound_page";
    if PageTail(m.pg(page)) {
        // __split_huge_page_refcount can run under us
        let page_head = V::compound_head(m, page);

        if page != page_head && get_page_unless_zero(m, page_head) {
            // THP can not break up slab pages so avoid taking compound_lock().  Slab
            // performs non-atomic bit ops on page->flags for better performance.  In
            // particular slab_unlock() in slub used to be a hot path.  It is still hot on
            // arches that do not support this_cpu_cmpxchg_double().
            if PageSlab(m.pg(page_head)) || PageHeadHuge(m, page_head) {
                if PageTail(m.pg(page)) {
                    // __split_huge_page_refcount cannot race here.
                    VM_BUG_ON!(F, !PageHead(m.pg(page_head)));
                    let p = m.pg(page);
                    let old = atomic_dec(&p._mapcount);
                    ktrace!(F, "{page:?}._mapcount {old} -> {}", old - 1);
                    if put_page_testzero(m, page_head) {
                        VM_BUG_ON!(F, true);
                    }
                    if put_page_testzero(m, page_head) {
                        V::__put_compound_page(m, page_head);
                    }
                    return;
                } else {
                    // __split_huge_page_refcount run before us, "page" was a THP tail.
                    // The split page_head has been freed and reallocated as slab or
                    // hugetlbfs page of smaller order (only possible if reallocated as
                    // slab on x86).
                    skip_lock::<V>(m, page_head, page);
                    // MODEL: `goto skip_lock;`: the label's code (skip_lock(), falling through to
                    // out_put_single:) ends the function
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
                return;
            }
            VM_BUG_ON!(F, page_head != first_page(m.pg(page)));
            // We can release the refcount taken by get_page_unless_zero() now that
            // __split_huge_page_refcount() is blocked on the compound_lock.
            if put_page_testzero(m, page_head) {
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
            VM_BUG_ON!(F, PageTail(m.pg(page)));
            out_put_single(m, page);
        }
    } else if put_page_testzero(m, page) {
        if PageHead(m.pg(page)) {
            V::__put_compound_page(m, page);
        } else {
            __put_single_page(m, page);
        }
    }
}

/// `__get_page_tail(page)` (mm/swap.c, linux-3.10.36).
///
/// This takes care of get_page() if run on a tail page returned by one of the
/// get_user_pages/follow_page variants. get_user_pages/follow_page itself doesn't need
/// the compound lock because it runs __get_page_tail_foll() under the proper PT lock that
/// already serializes against split_huge_page().
pub fn __get_page_tail<V: Compound>(m: &Mem, page: PagePtr) -> bool {
    let mut got = false;
    let page_head = V::compound_head(m, page);

    if page != page_head && get_page_unless_zero(m, page_head) {
        // Ref to put_compound_page() comment.
        if PageSlab(m.pg(page_head)) || PageHeadHuge(m, page_head) {
            if PageTail(m.pg(page)) {
                // This is a hugetlbfs page or a slab page. __split_huge_page_refcount
                // cannot race here.
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
pub fn out_put_single(m: &Mem, page: PagePtr) {
    if put_page_testzero(m, page) {
        __put_single_page(m, page);
    }
}
