//! Mutant `5bf5f03c-slab-lock`: 5bf5f03c whose `put_compound_page()` does not test
//! `PageSlab(page_head)`: a slab tail put takes `compound_lock()` on the slab head again, as
//! 3.4 did.
use crate::mm::huge_memory::{compound_lock, compound_unlock};
use crate::mm::page_alloc::{call_compound_dtor, get_compound_page_dtor};
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

/// 5bf5f03c without the PageSlab test in put_compound_page().
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "5bf5f03c-slab-lock",
        area: Area::Compound,
        kind: Kind::Mutant {
            removes: "the PageSlab(page_head) test that keeps put_compound_page() off compound_lock() for slab pages",
        },
        parent: Some("5bf5f03c"),
        source: "mutant of 5bf5f03c (issue #9: every safeguard earns its place).",
    };

    /// `compound_lock(page)` (include/linux/mm.h, 5bf5f03c).
    fn compound_lock(m: &Mem, page: PagePtr) {
        VM_BUG_ON!("compound_lock", PageSlab(m.pg(page)));
        compound_lock(m, page);
    }

    /// `compound_unlock(page)` (include/linux/mm.h, 5bf5f03c).
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

    /// `put_compound_page(page)` (mm/swap.c, 5bf5f03c).
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
                // MUTANT(5bf5f03c-slab-lock): `if (PageSlab(page_head))` never taken.
                if false {
                    if PageTail(m.pg(page)) {
                        if put_page_testzero(m, page_head) {
                            VM_BUG_ON!(F, true);
                        }

                        let p = m.pg(page);
                        let old = atomic_dec(&p._mapcount);
                        ktrace!(F, "slab tail {page:?}._mapcount {old} -> {}", old - 1);
                        skip_lock_tail::<Self>(m, page_head);
                        return;
                    } else {
                        skip_lock(m, page_head, page);
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
                    skip_lock(m, page_head, page);
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

                skip_lock_tail::<Self>(m, page_head);
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

    /// `__get_page_tail(page)` (mm/swap.c, 5bf5f03c).
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
            if PageSlab(m.pg(page_head)) {
                if PageTail(m.pg(page)) {
                    __get_page_tail_foll(m, page, false);
                    return true;
                } else {
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

/// The `skip_lock:` label of `put_compound_page()` (5bf5f03c), falling through to
/// `out_put_single:`.
fn skip_lock(m: &Mem, page_head: PagePtr, page: PagePtr) {
    if put_page_testzero(m, page_head) {
        __put_single_page(m, page_head);
    }
    out_put_single(m, page);
}

/// The `skip_lock_tail:` label of `put_compound_page()` (5bf5f03c).
fn skip_lock_tail<V: Compound>(m: &Mem, page_head: PagePtr) {
    if put_page_testzero(m, page_head) {
        if PageHead(m.pg(page_head)) {
            V::__put_compound_page(m, page_head);
        } else {
            __put_single_page(m, page_head);
        }
    }
}

/// The `out_put_single:` label of `put_compound_page()`.
fn out_put_single(m: &Mem, page: PagePtr) {
    if put_page_testzero(m, page) {
        __put_single_page(m, page);
    }
}
