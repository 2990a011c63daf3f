//! a0320865 plus 668f9abb "mm: close PageTail race" (David Rientjes; mainline
//! 668f9abbd433, 3.14, committed between v3.14-rc5 and -rc6, inferred from its date), with
//! the folded prerequisite "mm, page_alloc: make first_page visible before PageTail":
//! `compound_head()` becomes the re-checking `compound_trans_head()` of 3.13 (read
//! `first_page`, `smp_rmb()`, re-check PG_tail), ca641514's `compound_trans_head()` (`#if 0`
//! block and `#define` to `compound_head()`) goes, its two callers in mm/swap.c use
//! `compound_head()`, and `prep_compound_page()` writes `first_page`, then `smp_wmb()`, then
//! sets PG_tail. It closes the window ca641514 opened (compound.3-ca641514, still open on
//! v3.14-rc1's text: compound.3-5eaf1a9e) and compaction's `page_count()` on an unpinned pfn
//! racing `prep_compound_page()` (compound.7). `put_compound_page()` and `__get_page_tail()`
//! are 26296ad2's and 3bfcd13e's with `compound_head()`; at this commit their checks are
//! 309381fe's `VM_BUG_ON_PAGE()` (the same checks plus a page dump; the fidelity tool reads
//! it as `VM_BUG_ON()`). SLUB's `__cmpxchg_double_slab()` is a0320865's (posted 28 Jan 2014,
//! before this commit; until 6 Dec 2026 this variant sat on 5eaf1a9e and ran the fallback from
//! before that fix). The 3.10-stable backport is the variant linux-3.10.36.

use crate::mm::page_alloc::{set_compound_order, set_compound_page_dtor};
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read, smp_rmb, smp_wmb};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

use super::commit_27c73ae7::out_put_single;

/// a0320865 + 668f9abb: the re-checking compound_head(), first_page published before PG_tail.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "668f9abb",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: close PageTail race",
        },
        parent: Some("a0320865"),
        source: "mainline 668f9abbd4334e6c29fa8acd71635c4f9101caa7 (David Rientjes, 'mm: close PageTail race'; commit page https://git.zx2c4.com/linux-dev/commit/include?id=668f9abbd4334e6c29fa8acd71635c4f9101caa7: author date 2014-03-03 15:38:18 -0800, committed by Linus Torvalds 2014-03-04 07:55:47 -0800, parent 'MAINTAINERS: EDAC: add Mauro and Borislav as interim patch collectors' (its id UNVERIFIED); in 3.14, after v3.14-rc5 by the date: -rc6 inferred). Verified against kernel/668f9abb/: include/linux/mm.h and mm/page_alloc.c (verbatim from torvalds/linux stored at the commit: compound_head, prep_compound_page; get_huge_page_tail, compound_tail_refcounted and get_page there are 5eaf1a9e's with 309381fe's VM_BUG_ON_PAGE), mm/swap.c (partial: put_compound_page and __get_page_tail from 3.15-rc and 3.19 postings, equal line by line to 26296ad2's and 3bfcd13e's verbatim texts with 309381fe's VM_BUG_ON_PAGE and this commit's two compound_trans_head -> compound_head hunks, posted on linux-mm, 12 Feb 2014, '[patch -mm] mm: close PageTail race', <alpine.DEB.2.02.1402120058370.31209@chino.kir.corp.google.com>; their statements checked on 6 Dec 2026 against mm/swap.c of tzanussi/linux-yocto-micro-3.14, a v3.14 derivative, at ef0c3f4d40598c21fd71897193ebb4e6666f8e5f) and include/linux/huge_mm.h (partial: the deletion of ca641514's block). The META parent is a0320865 (Dave Hansen's SLUB fix, posted 28 Jan 2014: in 3.14 by inference from that date; whether in -rc1, and its committer date, UNVERIFIED), the last commit before it that changes a modelled function but for 309381fe (VM_BUG_ON -> VM_BUG_ON_PAGE, the same checks), inferred from the commit dates; until 6 Dec 2026 it was 5eaf1a9e, which left 3.14's SLUB fix out of this variant and every later one. Not modelled: the other callers it converts (ksm, memory-failure, vfio, kvm, aoe, fs/proc/page.c).",
    };
    crate::compound_fns! {
        self: compound_head, prep_compound_page, put_compound_page, __get_page_tail;
        super::commit_5eaf1a9e: get_huge_page_tail;
        super::commit_c728852f: __get_page_tail_foll;
        super::commit_44518d2b: __compound_tail_refcounted;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::commit_a0320865: __cmpxchg_double_slab;
        super::linux_3_4: __put_compound_page;
    }
}

/// `compound_head(page)` (include/linux/mm.h, 668f9abb).
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

/// `prep_compound_page(page, order)` (mm/page_alloc.c, 668f9abb).
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

/// `put_compound_page(page)` (mm/swap.c, 668f9abb).
pub fn put_compound_page<V: Compound>(m: &Mem, page: PagePtr) {
    const F: &str = "put_compound_page";
    if !PageTail(m.pg(page)) {
        if put_page_testzero(m, page) {
            // By the time all refcounts have been released split_huge_page cannot run anymore
            // from under us.
            if PageHead(m.pg(page)) {
                V::__put_compound_page(m, page);
            } else {
                __put_single_page(m, page);
            }
        }
        return;
    }

    // __split_huge_page_refcount can run under us
    let page_head = V::compound_head(m, page);

    // THP can not break up slab pages so avoid taking compound_lock() and skip the tail page
    // refcounting (in _mapcount) too. Slab performs non-atomic bit ops on page->flags for
    // better performance. In particular slab_unlock() in slub used to be a hot path. It is
    // still hot on arches that do not support this_cpu_cmpxchg_double().
    //
    // If "page" is part of a slab or hugetlbfs page it cannot be splitted and the head page
    // cannot change from under us. And if "page" is part of a THP page under splitting, if the
    // head page pointed by the THP tail isn't a THP head anymore, we'll find PageTail clear
    // after smp_rmb() and we'll treat it as a single page.
    if !V::__compound_tail_refcounted(m, page_head) {
        // If "page" is a THP tail, we must read the tail page flags after the head page flags.
        // The split_huge_page side enforces write memory barriers between clearing PageTail
        // and before the head page can be freed and reallocated.
        smp_rmb();
        if PageTail(m.pg(page)) {
            // __split_huge_page_refcount cannot race here.
            VM_BUG_ON!(F, !PageHead(m.pg(page_head)));
            VM_BUG_ON!(F, page_mapcount(m.pg(page)) != 0);
            if put_page_testzero(m, page_head) {
                // If this is the tail of a slab compound page, the tail pin must not be the
                // last reference held on the page, because the PG_slab cannot be cleared
                // before all tail pins (which skips the _mapcount tail refcounting) have been
                // released. For hugetlbfs the tail pin may be the last reference on the page
                // instead, because PageHeadHuge will not go away until the compound page
                // enters the buddy allocator.
                VM_BUG_ON!(F, PageSlab(m.pg(page_head)));
                V::__put_compound_page(m, page_head);
            }
            return;
        } else {
            // __split_huge_page_refcount run before us, "page" was a THP tail. The split
            // page_head has been freed and reallocated as slab or hugetlbfs page of smaller
            // order (only possible if reallocated as slab on x86).
            out_put_single(m, page);
            // MODEL: `goto out_put_single;`: the label's code (out_put_single()) ends the
            // function
            return;
        }
    }

    if page != page_head && get_page_unless_zero(m, page_head) {
        // page_head wasn't a dangling pointer but it may not be a head page anymore by the
        // time we obtain the lock. That is ok as long as it can't be freed from under us.
        V::compound_lock(m, page_head);
        if !PageTail(m.pg(page)) {
            // __split_huge_page_refcount run before us
            ktrace!(F, "{page:?} was split before we took the lock");
            V::compound_unlock(m, page_head);
            if put_page_testzero(m, page_head) {
                // The head page may have been freed and reallocated as a compound page of
                // smaller order and then freed again. All we know is that it cannot have
                // become: a THP page, a compound page of higher order, a tail page. That is
                // because we still hold the refcount of the split THP tail and page_head was
                // the THP head before the split.
                if PageHead(m.pg(page_head)) {
                    V::__put_compound_page(m, page_head);
                } else {
                    __put_single_page(m, page_head);
                }
            }
            // LEFT OUT: the label `out_put_single:` (the two gotos call out_put_single(),
            // which holds the two lines below)
            if put_page_testzero(m, page) {
                __put_single_page(m, page);
            }
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
        // MODEL: `goto out_put_single;`: the label's code (out_put_single()) ends the function
    }
}

/// `__get_page_tail(page)` (mm/swap.c, 668f9abb).
///
/// This takes care of get_page() if run on a tail page returned by one of the
/// get_user_pages/follow_page variants. get_user_pages/follow_page itself doesn't need
/// the compound lock because it runs __get_page_tail_foll() under the proper PT lock that
/// already serializes against split_huge_page().
pub fn __get_page_tail<V: Compound>(m: &Mem, page: PagePtr) -> bool {
    let page_head = V::compound_head(m, page);

    // Ref to put_compound_page() comment.
    if !V::__compound_tail_refcounted(m, page_head) {
        smp_rmb();
        if PageTail(m.pg(page)) {
            // This is a hugetlbfs page or a slab page. __split_huge_page_refcount cannot
            // race here.
            VM_BUG_ON!("__get_page_tail", !PageHead(m.pg(page_head)));
            V::__get_page_tail_foll(m, page, true);
            // LEFT OUT: `return true;` is the next line (the table reads Rust's
            // MODEL: `true` as 1, C's as a name)
            return true;
        } else {
            // __split_huge_page_refcount run before us, "page" was a THP tail. The split
            // page_head has been freed and reallocated as slab or hugetlbfs page of smaller
            // order (only possible if reallocated as slab on x86).
            // LEFT OUT: `return false;` is the next line (the table reads Rust's
            // MODEL: `false` as 0, C's as a name)
            return false;
        }
    }

    let mut got = false;
    if page != page_head && get_page_unless_zero(m, page_head) {
        // page_head wasn't a dangling pointer but it may not be a head page anymore by the
        // time we obtain the lock. That is ok as long as it can't be freed from under us.
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
