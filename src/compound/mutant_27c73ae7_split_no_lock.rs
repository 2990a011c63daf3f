//! Mutant `27c73ae7-split-no-lock`: 27c73ae7 whose `__split_huge_page_refcount()` (shared
//! mm/huge_memory.c code, here overridden with a copy) does not take `compound_lock(page)`
//! around the tail loop. A THP tail get or put that pinned the head and took `compound_lock()`
//! then re-checks PG_tail and moves the tail's pin in `_mapcount` while split moves the same
//! `_mapcount` into the tail's `_count`: the lock is what makes "tail_page->_mapcount cannot
//! change" true (claim compound.1-split-no-lock).

use crate::mm::huge_memory::{compound_lock, compound_unlock};
use crate::mm::hugetlb::PageHeadHuge;
use crate::mm::page_alloc::{call_compound_dtor, get_compound_page_dtor};
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{
    atomic_add, atomic_dec, atomic_read, atomic_set, atomic_sub, smp_mb, smp_wmb, spin_lock,
    spin_unlock, READ_ONCE, WRITE_ONCE,
};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, BUG_ON, VM_BUG_ON};

/// 7cb2ef56 fixed by 27c73ae7.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "27c73ae7-split-no-lock",
        area: Area::Compound,
        kind: Kind::Mutant {
            removes: "compound_lock(page) around __split_huge_page_refcount's tail loop",
        },
        parent: Some("27c73ae7"),
        source: "27c73ae7 with its shared __split_huge_page_refcount (mm/huge_memory.c, 3.9-3.12) copied and its compound_lock()/compound_unlock() removed.",
    };

    /// `__split_huge_page_refcount(page)` (mm/huge_memory.c, 3.9–3.12) without its
    /// `compound_lock(page)`.
    fn __split_huge_page_refcount(m: &Mem, page: PagePtr) {
        let head = m.pg(page);
        let mut tail_count = 0;
        let hpage_pmd_nr = m.hpage_pmd_nr();

        // prevent PageLRU to go away from under us, and freeze lru stats
        let lru_lock = spin_lock(&m.zone.lru_lock);
        // MUTANT(27c73ae7-split-no-lock): no compound_lock(page) here.

        for i in (1..hpage_pmd_nr).rev() {
            let tail_ptr = page + i;
            let page_tail = m.pg(tail_ptr);

            // tail_page->_mapcount cannot change
            BUG_ON!("__split_huge_page_refcount", page_mapcount(page_tail) < 0);
            tail_count += page_mapcount(page_tail);
            // check for overflow
            BUG_ON!("__split_huge_page_refcount", tail_count < 0);
            BUG_ON!("__split_huge_page_refcount", page_count_raw(page_tail) != 0);
            // tail_page->_count is zero and not changing from under us, but
            // get_page_unless_zero() may be running on it: atomic_add, not atomic_set.
            let (head_maps, tail_pins) = (page_mapcount(head), page_mapcount(page_tail));
            let add = head_maps + tail_pins + 1;
            let old = atomic_add(add, &page_tail._count);
            ghost_count_op(
                page_tail,
                tail_ptr,
                "__split_huge_page_refcount",
                old,
                old + add,
            );
            ktrace!(
                "__split_huge_page_refcount",
                "{tail_ptr:?}._count {old} -> {} (mapcount(head) {head_maps} + tail pins {tail_pins} + 1)",
                old + add
            );

            // after clearing PageTail the gup refcount can be released
            smp_mb();

            // page_tail->flags &= ~PAGE_FLAGS_CHECK_AT_PREP; |= head's referenced, swapbacked,
            // mlocked, uptodate; |= PG_dirty. Non-atomic, as in the kernel.
            let keep = READ_ONCE(&head.flags)
                & (bit(PG_REFERENCED) | bit(PG_SWAPBACKED) | bit(PG_MLOCKED) | bit(PG_UPTODATE));
            let f = READ_ONCE(&page_tail.flags);
            WRITE_ONCE(
                &page_tail.flags,
                (f & !PAGE_FLAGS_CHECK_AT_PREP) | keep | bit(PG_DIRTY),
            );
            ktrace!("__split_huge_page_refcount", "ClearPageTail({tail_ptr:?})");

            // clear PageTail before overwriting first_page
            smp_wmb();

            // The mapcount is only accounted in the head page; it is transferred to the tails.
            atomic_set(&page_tail._mapcount, atomic_read(&head._mapcount));
        }
        let old = atomic_sub(tail_count, &head._count);
        ghost_count_op(
            head,
            page,
            "__split_huge_page_refcount",
            old,
            old - tail_count,
        );
        ktrace!(
            "__split_huge_page_refcount",
            "{page:?}._count {old} -> {} (tail pins moved)",
            old - tail_count
        );
        BUG_ON!("__split_huge_page_refcount", atomic_read(&head._count) <= 0);

        // ClearPageCompound(page): BUG_ON(!PageHead(page)); ClearPageHead(page);
        BUG_ON!("__split_huge_page_refcount", !PageHead(head));
        ClearPageHead(head);
        ktrace!("__split_huge_page_refcount", "ClearPageCompound({page:?})");
        // MUTANT(27c73ae7-split-no-lock): no compound_unlock(page) here.
        spin_unlock(lru_lock);

        for i in 1..hpage_pmd_nr {
            let tail_ptr = page + i;
            BUG_ON!(
                "__split_huge_page_refcount",
                page_count_raw(m.pg(tail_ptr)) <= 0
            );
            // Tail pages may be freed if there wasn't any mapping; freeing takes the lru_lock,
            // so the put of the tails comes after the split is complete.
            put_page::<Self>(m, tail_ptr);
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

    /// `put_compound_page(page)` (mm/swap.c, 27c73ae7).
    fn put_compound_page(m: &Mem, page: PagePtr) {
        const F: &str = "put_compound_page";
        if PageTail(m.pg(page)) {
            // __split_huge_page_refcount can run under us
            let page_head = Self::compound_trans_head(m, page);

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

    /// `__get_page_tail(page)` (mm/swap.c, 27c73ae7).
    ///
    /// This takes care of get_page() if run on a tail page returned by one of the
    /// get_user_pages/follow_page variants. get_user_pages/follow_page itself doesn't need
    /// the compound lock because it runs __get_page_tail_foll() under the proper PT lock that
    /// already serializes against split_huge_page().
    fn __get_page_tail(m: &Mem, page: PagePtr) -> bool {
        let mut got = false;
        let page_head = Self::compound_trans_head(m, page);

        if page != page_head && get_page_unless_zero(m, page_head) {
            // Ref to put_compound_page() comment.
            if PageSlab(m.pg(page_head)) || PageHeadHuge(m, page_head) {
                if PageTail(m.pg(page)) {
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
