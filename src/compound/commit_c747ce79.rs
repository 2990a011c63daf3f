//! 668f9abb plus c747ce79 "mm/swap.c: introduce put_[un]refcounted_compound_page helpers for
//! splitting put_compound_page()" (Jianyu Zhan; committed 4 Jun 2014, merged for 3.16: see META):
//! the two halves of `put_compound_page()`'s tail path as functions of their own, "almost copied
//! verbatim (except one place, a "goto out_put_single" is expanded)". Nothing calls them yet: the
//! next commit, 4bd3e8f7 "mm/swap.c: split put_compound_page()", makes `put_compound_page()` call
//! them. This variant runs 668f9abb's code (it names the helpers as its own, and nothing calls
//! them); it is here so that the next commit's diff is the call.

use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read, smp_rmb};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

use super::commit_27c73ae7::out_put_single;

/// 668f9abb + c747ce79: the put helpers, not yet called.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "c747ce79",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm/swap.c: introduce put_[un]refcounted_compound_page helpers for splitting put_compound_page()",
        },
        parent: Some("668f9abb"),
        source: "mainline c747ce7907ab11be53d65ef55c53821558720d8f (Jianyu Zhan, 'mm/swap.c: introduce put_[un]refcounted_compound_page helpers for splitting put_compound_page()'; commit page https://git.zx2c4.com/linux-dev/commit/include?id=c747ce7907ab11be53d65ef55c53821558720d8f: author date 2014-06-04 16:07:59 -0700, committed by Linus Torvalds 16:54:03 -0700, parent 'mm: constify nmask argument to set_mempolicy()'; merged for 3.16, inferred: committed four days before v3.15's release, in the 3.16 work Linus merged early, which was not checked against a v3.15 tree, UNVERIFIED). Verified against kernel/c747ce79/mm/swap.c (verbatim from torvalds/linux stored at the commit: put_unrefcounted_compound_page, put_refcounted_compound_page). The META parent is 668f9abb, the model chain's, not the mainline parent: no change to a modelled function was found between 668f9abb and this commit (kernel/c747ce79 header; the commits between were not read in full).",
    };
    crate::compound_fns! {
        self: put_unrefcounted_compound_page, put_refcounted_compound_page;
        super::commit_668f9abb: compound_head, prep_compound_page, put_compound_page, __get_page_tail;
        super::commit_5eaf1a9e: get_huge_page_tail;
        super::commit_c728852f: __get_page_tail_foll;
        super::commit_44518d2b: __compound_tail_refcounted;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::commit_a0320865: __cmpxchg_double_slab;
        super::linux_3_4: __put_compound_page;
    }
}

/// `put_unrefcounted_compound_page(page_head, page)` (mm/swap.c, c747ce79).
///
/// Two special cases here: we could avoid taking compound_lock_irqsave and could skip the tail
/// refcounting(in _mapcount).
///
/// 1. Hugetlbfs page: PageHeadHuge will remain true until the compound page is released and
///    enters the buddy allocator, and it could not be split by __split_huge_page_refcount().
///    So if we see PageHeadHuge set, and we have the tail page pin, then we could safely put
///    head page.
///
/// 2. Slab THP page: PG_slab is cleared before the slab frees the head page, and tail pin
///    cannot be the last reference left on the head page, because the slab code is free to
///    reuse the compound page after a kfree/kmem_cache_free without having to check if there's
///    any tail pin left. In turn all tail pinsmust be always released while the head is still
///    pinned by the slab code and so we know PG_slab will be still set too. So if we see
///    PageSlab set, and we have the tail page pin, then we could safely put head page.
pub fn put_unrefcounted_compound_page<V: Compound>(m: &Mem, page_head: PagePtr, page: PagePtr) {
    const F: &str = "put_unrefcounted_compound_page";
    // If @page is a THP tail, we must read the tail page flags after the head page flags. The
    // __split_huge_page_refcount side enforces write memory barriers between clearing PageTail
    // and before the head page can be freed and reallocated.
    smp_rmb();
    if PageTail(m.pg(page)) {
        // __split_huge_page_refcount cannot race here, see the comment above this function.
        VM_BUG_ON!(F, !PageHead(m.pg(page_head)));
        VM_BUG_ON!(F, page_mapcount(m.pg(page)) != 0);
        if put_page_testzero(m, page_head) {
            // If this is the tail of a slab THP page, the tail pin must not be the last
            // reference held on the page, because the PG_slab cannot be cleared before all tail
            // pins (which skips the _mapcount tail refcounting) have been released.
            //
            // If this is the tail of a hugetlbfs page, the tail pin may be the last reference on
            // the page instead, because PageHeadHuge will not go away until the compound page
            // enters the buddy allocator.
            VM_BUG_ON!(F, PageSlab(m.pg(page_head)));
            V::__put_compound_page(m, page_head);
        }
    } else if put_page_testzero(m, page) {
        // __split_huge_page_refcount run before us, @page was a THP tail. The split @page_head
        // has been freed and reallocated as slab or hugetlbfs page of smaller order (only
        // possible if reallocated as slab on x86).
        // MODEL: the C's `else if (put_page_testzero(page))` (an if nested in the else, no
        // braces) read as one `else if`
        __put_single_page(m, page);
    }
}

/// `put_refcounted_compound_page(page_head, page)` (mm/swap.c, c747ce79).
pub fn put_refcounted_compound_page<V: Compound>(m: &Mem, page_head: PagePtr, page: PagePtr) {
    const F: &str = "put_refcounted_compound_page";
    if page != page_head && get_page_unless_zero(m, page_head) {
        // @page_head wasn't a dangling pointer but it may not be a head page anymore by the
        // time we obtain the lock. That is ok as long as it can't be freed from under us.
        V::compound_lock(m, page_head);
        if !PageTail(m.pg(page)) {
            // __split_huge_page_refcount run before us
            ktrace!(F, "{page:?} was split before we took the lock");
            V::compound_unlock(m, page_head);
            if put_page_testzero(m, page_head) {
                // The @page_head may have been freed and reallocated as a compound page of
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
            // LEFT OUT: the label `out_put_single:` (the goto below calls out_put_single(),
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
        // @page_head is a dangling pointer
        VM_BUG_ON!(F, PageTail(m.pg(page)));
        out_put_single(m, page);
        // MODEL: `goto out_put_single;`: the label's code (out_put_single()) ends the function
    }
}
