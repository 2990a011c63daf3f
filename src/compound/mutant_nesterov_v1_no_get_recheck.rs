//! Mutant `nesterov-v1-no-get-recheck`: the described fix (over 668f9abb) whose
//! `__get_page_tail()` takes the slab/hugetlbfs path without re-checking PG_tail (27c73ae7's
//! re-check removed): a THP tail whose old head came back as a hugetlbfs head is pinned as
//! that page's tail.
use crate::mm::huge_memory::{compound_lock, compound_unlock};
use crate::mm::hugetlb::PageHeadHuge;
use crate::mm::page_alloc::{
    call_compound_dtor, check_new_page, get_compound_page_dtor, set_compound_order,
    set_compound_page_dtor, set_page_refcounted,
};
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read, smp_rmb, smp_wmb};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

/// nesterov-v1 without the get-side PG_tail re-check.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "nesterov-v1-no-get-recheck",
        area: Area::Compound,
        kind: Kind::Mutant {
            removes: "the PG_tail re-check after PageSlab(page_head) || PageHeadHuge(page_head) in __get_page_tail() (27c73ae7's)",
        },
        parent: Some("nesterov-v1"),
        source: "mutant of nesterov-v1 (issue #9: every safeguard earns its place).",
    };

    /// `compound_head(page)` (include/linux/mm.h, 668f9abb).
    fn compound_head(m: &Mem, page: PagePtr) -> PagePtr {
        let p = m.pg(page);
        let tail = PageTail(p);
        ktrace!("compound_head", "PageTail({page:?}) = {tail}");
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

    /// `prep_new_page(page, order, gfp_flags)` (mm/page_alloc.c) with the described fix:
    /// `set_page_refcounted()` moved after `prep_compound_page()`, behind `smp_wmb()`.
    /// UNVERIFIED text (see META).
    fn prep_new_page(m: &Mem, page: PagePtr, order: u32, gfp_comp: bool) {
        for i in 0..(1usize << order) {
            check_new_page(m, page + i);
        }

        set_page_private(m.pg(page), 0);

        if order > 0 && gfp_comp {
            Self::prep_compound_page(m, page, order);
        }

        // get_page_unless_zero() on a stale pointer to this page may succeed from here on:
        // make every change above visible before _count != 0.
        smp_wmb();
        set_page_refcounted(m, page);
    }

    /// `prep_compound_page(page, order)` (mm/page_alloc.c, 668f9abb).
    fn prep_compound_page(m: &Mem, page: PagePtr, order: u32) {
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

    /// `compound_lock(page)` (include/linux/mm.h, 3.5–3.13).
    fn compound_lock(m: &Mem, page: PagePtr) {
        VM_BUG_ON!("compound_lock", PageSlab(m.pg(page)));
        compound_lock(m, page);
    }

    /// `compound_unlock(page)` (include/linux/mm.h, 3.5–3.13).
    fn compound_unlock(m: &Mem, page: PagePtr) {
        VM_BUG_ON!("compound_unlock", PageSlab(m.pg(page)));
        compound_unlock(m, page);
    }

    /// `__put_compound_page(page)` (mm/swap.c, 3.4–3.13).
    fn __put_compound_page(m: &Mem, page: PagePtr) {
        __page_cache_release(m, page);
        let dtor = get_compound_page_dtor(m, page);
        call_compound_dtor(m, dtor, page);
    }

    /// `put_compound_page(page)` (mm/swap.c, 3.14: 668f9abb).
    fn put_compound_page(m: &Mem, page: PagePtr) {
        const F: &str = "put_compound_page";
        if PageTail(m.pg(page)) {
            // __split_huge_page_refcount can run under us
            let page_head = Self::compound_head(m, page);

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
                            Self::__put_compound_page(m, page_head);
                        }
                        return;
                    } else {
                        // __split_huge_page_refcount run before us, "page" was a THP tail.
                        // The split page_head has been freed and reallocated as slab or
                        // hugetlbfs page of smaller order (only possible if reallocated as
                        // slab on x86).
                        skip_lock::<Self>(m, page_head, page);
                        return;
                    }
                }
                // page_head wasn't a dangling pointer but it may not be a head page anymore
                // by the time we obtain the lock. That is ok as long as it can't be freed
                // from under us.
                Self::compound_lock(m, page_head);
                if !PageTail(m.pg(page)) {
                    // __split_huge_page_refcount run before us
                    ktrace!(F, "{page:?} was split before we took the lock");
                    Self::compound_unlock(m, page_head);
                    skip_lock::<Self>(m, page_head, page);
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
                Self::compound_unlock(m, page_head);

                if put_page_testzero(m, page_head) {
                    if PageHead(m.pg(page_head)) {
                        Self::__put_compound_page(m, page_head);
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
                Self::__put_compound_page(m, page);
            } else {
                __put_single_page(m, page);
            }
        }
    }

    /// `__get_page_tail(page)` (mm/swap.c, 3.14: 668f9abb).
    ///
    /// This takes care of get_page() if run on a tail page returned by one of the
    /// get_user_pages/follow_page variants. get_user_pages/follow_page itself doesn't need
    /// the compound lock because it runs __get_page_tail_foll() under the proper PT lock that
    /// already serializes against split_huge_page().
    fn __get_page_tail(m: &Mem, page: PagePtr) -> bool {
        let mut got = false;
        let page_head = Self::compound_head(m, page);

        if page != page_head && get_page_unless_zero(m, page_head) {
            // Ref to put_compound_page() comment.
            if PageSlab(m.pg(page_head)) || PageHeadHuge(m, page_head) {
                // MUTANT(nesterov-v1-no-get-recheck): `if (likely(PageTail(page)))` assumed.
                if true {
                    // This is a hugetlbfs page or a slab page. __split_huge_page_refcount
                    // cannot race here.
                    VM_BUG_ON!("__get_page_tail", !PageHead(m.pg(page_head)));
                    __get_page_tail_foll(m, page, false);
                    return true;
                } else {
                    // __split_huge_page_refcount run before us, "page" was a THP tail. The
                    // split page_head has been freed and reallocated as slab or hugetlbfs page
                    // of smaller order (only possible if reallocated as slab on x86).
                    put_page::<Self>(m, page_head);
                    return false;
                }
            }

            // page_head wasn't a dangling pointer but it may not be a head page anymore by
            // the time we obtain the lock. That is ok as long as it can't be freed from
            // under us.
            Self::compound_lock(m, page_head);
            // here __split_huge_page_refcount won't run anymore
            if PageTail(m.pg(page)) {
                __get_page_tail_foll(m, page, false);
                got = true;
            }
            Self::compound_unlock(m, page_head);
            if !got {
                put_page::<Self>(m, page_head);
            }
        }
        got
    }
}

/// The `skip_lock:` label of `put_compound_page()` (27c73ae7), falling through to
/// `out_put_single:`.
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

/// The `out_put_single:` label of `put_compound_page()`.
fn out_put_single(m: &Mem, page: PagePtr) {
    if put_page_testzero(m, page) {
        __put_single_page(m, page);
    }
}
