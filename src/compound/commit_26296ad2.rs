//! 3bfcd13e plus 26296ad2 "mm/swap.c: reorganize put_compound_page()" (Andrew Morton; mainline
//! 26296ad2dfb4, committed 2014-01-21 16:19:43 -0800, 22 Jan UTC, with the rest of the series;
//! in v3.14-rc1, inferred from the date): "Tweak it so save a tab stop, make code layout
//! slightly less nutty." The put of a page that is not a tail comes first and returns; the tail
//! code loses a level of indentation. The statements and their order are 44518d2b's. Mainline's
//! parent is 758f66a29ccc "mm/hugetlb.c: simplify PageHeadHuge() and PageHuge()" (the `dtor`
//! local dropped from both, the same test: kernel/26296ad2/mm/hugetlb.c holds its text; the
//! model's shared `PageHeadHuge()` keeps 27c73ae7's form, which its MODEL note says), whose
//! parent is 3bfcd13e: the META parent is 3bfcd13e.

use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read, smp_rmb};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

use super::commit_27c73ae7::out_put_single;

/// 3bfcd13e + 26296ad2: `put_compound_page()` reorganised.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "26296ad2",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm/swap.c: reorganize put_compound_page()",
        },
        parent: Some("3bfcd13e"),
        source: "mainline 26296ad2dfb4059f840e46cd7af38d0025a9d8d7 (Andrew Morton, 'mm/swap.c: reorganize put_compound_page()'; commit page https://git.zx2c4.com/linux-dev/commit/include?id=26296ad2dfb4059f840e46cd7af38d0025a9d8d7: author date 2014-01-21 15:48:59 -0800, committed 16:19:43 -0800, parent 758f66a29ccc 'mm/hugetlb.c: simplify PageHeadHuge() and PageHuge()' (whose parent is 3bfcd13e); in v3.14-rc1, inferred from the date). Verified against kernel/26296ad2/mm/swap.c (verbatim from torvalds/linux stored at the commit: put_compound_page; __get_page_tail there is byte-identical to 3bfcd13e's). The META parent is 3bfcd13e: 758f66a2 changes only PageHuge()/PageHeadHuge()'s form (no variant).",
    };
    crate::compound_fns! {
        self: put_compound_page;
        super::commit_3bfcd13e: __get_page_tail;
        super::commit_44518d2b: __get_page_tail_foll, get_huge_page_tail, __compound_tail_refcounted;
        super::commit_ca641514: compound_trans_head;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `put_compound_page(page)` (mm/swap.c, 26296ad2).
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
    let page_head = V::compound_trans_head(m, page);

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
