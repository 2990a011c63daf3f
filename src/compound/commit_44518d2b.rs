//! ca641514 plus 44518d2b "mm: tail page refcounting optimization for slab and hugetlbfs"
//! (Andrea Arcangeli; patch 5/8 of "mm: hugetlbfs: fix hugetlbfs optimization v3", 20 Nov
//! 2013; mainline 44518d2b3264, committed 22 Jan 2014, the 3.14 merge window): "This skips the
//! _mapcount mangling for slab and hugetlbfs pages." A tail pin on a slab or hugetlbfs page
//! raises only the head's `_count`: `__get_page_tail_foll()` and gup_fast's
//! `get_huge_page_tail()` raise the tail's `_mapcount` only if
//! `compound_tail_refcounted(head)`, and `put_compound_page()`'s unpinned slab/hugetlbfs path
//! (`!__compound_tail_refcounted(page_head)`, ebf360f9's `PageSlab || PageHeadHuge`) no longer
//! decrements it, checking `VM_BUG_ON(page_mapcount(page) != 0)` instead, and
//! `VM_BUG_ON(PageSlab(page_head))` when the tail's put was the last reference. The message
//! names what this needs: "PageSlab and PageHeadHuge remains constant for all get_page/put_page
//! run on the tail of slab or hugetlbfs compound pages. Otherwise if they're set during
//! get_page but not set during put_page, the _mapcount of the tail page would underflow."
//! `__get_page_tail()` is ebf360f9's (3bfcd13e, the next mainline commit, rewrites its test as
//! `!__compound_tail_refcounted()`), `compound_trans_head()` ca641514's. The parent is
//! ca641514, the parent line of 44518d2b's commit page.

use crate::mm::hugetlb::PageHeadHuge;
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_inc, atomic_read, smp_rmb};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

use super::commit_27c73ae7::out_put_single;

/// ca641514 + 44518d2b: no tail `_mapcount` pin on slab and hugetlbfs tails.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "44518d2b",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: tail page refcounting optimization for slab and hugetlbfs",
        },
        parent: Some("ca641514"),
        source: "mainline 44518d2b32646e37b4b7a0813bbbe98dc21c7f8f (Andrea Arcangeli, 'mm: tail page refcounting optimization for slab and hugetlbfs'; commit pages on git.lede-project.org openwrt/staging/blogic, lab.nexedi.cn and gerrit-public.fairphone.software kernel/msm-4.9, '4 files changed'; committed by Linus Torvalds on 22 Jan 2014, after v3.13: the 3.14 merge window; parent ca641514 per the commit page on git.cascardo.info), posted as '[PATCH 5/8] mm: tail page refcounting optimization for slab and hugetlbfs', linux-mm, 20 Nov 2013, <1384969876-6374-6-git-send-email-aarcange@redhat.com> (diffstat: include/linux/hugetlb.h, include/linux/mm.h, mm/internal.h, mm/swap.c). Verified against kernel/44518d2b/ (verbatim from torvalds/linux stored at the commit): mm/swap.c (put_compound_page), mm/internal.h (__get_page_tail_foll), include/linux/mm.h (__compound_tail_refcounted, compound_tail_refcounted, get_huge_page_tail). The hugetlb.h hunk only moves PageHeadHuge()'s declaration into mm.h (not modelled). __get_page_tail is ebf360f9's, unchanged at the commit (the header of kernel/44518d2b/mm/swap.c).",
    };
    crate::compound_fns! {
        self: put_compound_page, __get_page_tail_foll, get_huge_page_tail, __compound_tail_refcounted;
        super::commit_ca641514: compound_trans_head;
        super::commit_ebf360f9: __get_page_tail;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `__compound_tail_refcounted(page)` (include/linux/mm.h, 44518d2b).
pub fn __compound_tail_refcounted<V: Compound>(m: &Mem, page: PagePtr) -> bool {
    !PageSlab(m.pg(page)) && !PageHeadHuge(m, page)
}

/// `compound_tail_refcounted(page)` (include/linux/mm.h, 44518d2b).
///
/// This takes a head page as parameter and tells if the tail page reference counting can be
/// skipped.
///
/// For this to be safe, PageSlab and PageHeadHuge must remain true on any given page where
/// they return true here, until all tail pins have been released.
pub fn compound_tail_refcounted<V: Compound>(m: &Mem, page: PagePtr) -> bool {
    VM_BUG_ON!("compound_tail_refcounted", !PageHead(m.pg(page)));
    V::__compound_tail_refcounted(m, page)
}

/// `get_huge_page_tail(page)` (include/linux/mm.h, 44518d2b; called by arch/x86/mm/gup.c).
pub fn get_huge_page_tail<V: Compound>(m: &Mem, page: PagePtr) {
    const F: &str = "get_huge_page_tail";
    // __split_huge_page_refcount() cannot run from under us.
    // In turn no need of compound_trans_head here.
    let p = m.pg(page);
    VM_BUG_ON!(F, page_mapcount(p) < 0);
    VM_BUG_ON!(F, atomic_read(&p._count) != 0);
    if compound_tail_refcounted::<V>(m, V::compound_head(m, page)) {
        let old = atomic_inc(&p._mapcount);
        ktrace!(F, "{page:?}._mapcount {old} -> {}", old + 1);
    } else {
        // MODEL: the C has no else: the event says the tail pin skipped _mapcount
        ktrace!(F, "{page:?}: head not tail-refcounted, _mapcount untouched");
    }
}

/// `__get_page_tail_foll(page, get_page_head)` (mm/internal.h, 44518d2b).
///
/// If we're getting a tail page, the elevated page->_count is required only in the head page
/// and we will elevate the head page->_count and tail page->_mapcount.
///
/// We elevate page_tail->_mapcount for tail pages to force page_tail->_count to be zero at all
/// times to avoid getting false positives from get_page_unless_zero() with speculative page
/// access (like in page_cache_get_speculative()) on tail pages.
pub fn __get_page_tail_foll<V: Compound>(m: &Mem, page: PagePtr, get_page_head: bool) {
    const F: &str = "__get_page_tail_foll";
    let p = m.pg(page);
    // MODEL: `page->first_page` read once into `head`; the C reads it here and at the two uses
    // below: the caller holds the PT lock, the compound_lock or a pin on a head split cannot
    // touch, so every read sees the same word
    let head = first_page(p);
    VM_BUG_ON!(F, atomic_read(&m.pg(head)._count) <= 0);
    VM_BUG_ON!(F, atomic_read(&p._count) != 0);
    VM_BUG_ON!(F, page_mapcount(p) < 0);
    if get_page_head {
        // LEFT OUT: `atomic_inc(&page->first_page->_count);` is the next line, with
        // MODEL: `first_page` read once into `head` (above) and the old count kept for the trace
        let old = atomic_inc(&m.pg(head)._count);
        ghost_count_op(m.pg(head), head, F, old, old + 1);
        ktrace!(F, "{head:?}._count {old} -> {}", old + 1);
    }
    if compound_tail_refcounted::<V>(m, head) {
        let old = atomic_inc(&p._mapcount);
        ktrace!(F, "{page:?}._mapcount {old} -> {}", old + 1);
    } else {
        // MODEL: the C has no else: the event says the tail pin skipped _mapcount
        ktrace!(F, "{page:?}: head not tail-refcounted, _mapcount untouched");
    }
}

/// `put_compound_page(page)` (mm/swap.c, 44518d2b).
pub fn put_compound_page<V: Compound>(m: &Mem, page: PagePtr) {
    const F: &str = "put_compound_page";
    if PageTail(m.pg(page)) {
        // __split_huge_page_refcount can run under us
        let page_head = V::compound_trans_head(m, page);

        // THP can not break up slab pages so avoid taking compound_lock() and skip the tail
        // page refcounting (in _mapcount) too. Slab performs non-atomic bit ops on page->flags
        // for better performance. In particular slab_unlock() in slub used to be a hot path.
        // It is still hot on arches that do not support this_cpu_cmpxchg_double().
        //
        // If "page" is part of a slab or hugetlbfs page it cannot be splitted and the head
        // page cannot change from under us. And if "page" is part of a THP page under
        // splitting, if the head page pointed by the THP tail isn't a THP head anymore, we'll
        // find PageTail clear after smp_rmb() and we'll treat it as a single page.
        if !V::__compound_tail_refcounted(m, page_head) {
            // If "page" is a THP tail, we must read the tail page flags after the head page
            // flags. The split_huge_page side enforces write memory barriers between clearing
            // PageTail and before the head page can be freed and reallocated.
            smp_rmb();
            if PageTail(m.pg(page)) {
                // __split_huge_page_refcount cannot race here.
                VM_BUG_ON!(F, !PageHead(m.pg(page_head)));
                VM_BUG_ON!(F, page_mapcount(m.pg(page)) != 0);
                if put_page_testzero(m, page_head) {
                    // If this is the tail of a slab compound page, the tail pin must not be
                    // the last reference held on the page, because the PG_slab cannot be
                    // cleared before all tail pins (which skips the _mapcount tail
                    // refcounting) have been released. For hugetlbfs the tail pin may be the
                    // last reference on the page instead, because PageHeadHuge will not go
                    // away until the compound page enters the buddy allocator.
                    VM_BUG_ON!(F, PageSlab(m.pg(page_head)));
                    V::__put_compound_page(m, page_head);
                }
                return;
            } else {
                // __split_huge_page_refcount run before us, "page" was a THP tail. The split
                // page_head has been freed and reallocated as slab or hugetlbfs page of
                // smaller order (only possible if reallocated as slab on x86).
                out_put_single(m, page);
                // MODEL: `goto out_put_single;`: the label's code (out_put_single()) ends the
                // function
                return;
            }
        }

        if page != page_head && get_page_unless_zero(m, page_head) {
            // page_head wasn't a dangling pointer but it may not be a head page anymore by
            // the time we obtain the lock. That is ok as long as it can't be freed from
            // under us.
            V::compound_lock(m, page_head);
            if !PageTail(m.pg(page)) {
                // __split_huge_page_refcount run before us
                ktrace!(F, "{page:?} was split before we took the lock");
                V::compound_unlock(m, page_head);
                if put_page_testzero(m, page_head) {
                    // The head page may have been freed and reallocated as a compound page
                    // of smaller order and then freed again. All we know is that it cannot
                    // have become: a THP page, a compound page of higher order, a tail page.
                    // That is because we still hold the refcount of the split THP tail and
                    // page_head was the THP head before the split.
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
            // MODEL: `goto out_put_single;`: the label's code (out_put_single()) ends the
            // function
        }
    } else if put_page_testzero(m, page) {
        if PageHead(m.pg(page)) {
            V::__put_compound_page(m, page);
        } else {
            __put_single_page(m, page);
        }
    }
}
