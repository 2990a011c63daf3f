//! The parts of mm/swap.c, include/linux/mm.h and include/linux/huge_mm.h (Linux 3.4–3.13)
//! that every compound-refcounting variant shares, and the trait the variants implement
//! (`crate::compound` holds one file per version of `__get_page_tail`, `put_compound_page`,
//! `__put_compound_page`).

use super::page_alloc::free_hot_cold_page;
use super::Mem;
use crate::page::*;
use crate::sync::{__atomic_add_unless, atomic_dec_return, atomic_inc, atomic_read, smp_rmb};
use crate::variant::VariantMeta;
use crate::{ktrace, VM_BUG_ON};

/// One version of the compound refcounting code of mm/swap.c.
///
/// The three required functions are what every patch of the area changed. The provided ones
/// are shared mm code that some versions changed too (include/linux/mm.h, huge_mm.h,
/// mm/internal.h, mm/page_alloc.c, mm/huge_memory.c, mm/slub.c): their default is the 3.4–3.13
/// text, a variant with another text overrides it (668f9abb's `compound_head`, 5bf5f03c's
/// `compound_lock`, 44518d2b's `__get_page_tail_foll`), and a
/// mutant of shared code overrides one with a copy minus its safeguard.
///
/// **A variant file holds what its version changed.** Each function a version wrote is a
/// generic function of its file (`pub fn put_compound_page<V: Compound>(m, page)`, calling
/// `V::compound_lock`, so a later version's own `compound_lock` is the one that runs); the
/// variant's `impl` names where each of its functions comes from with [`compound_fns!`]: its
/// own file (`self`) or the file of the version that last changed it (`super::commit_27c73ae7`).
/// So `src/compound/commit_ca641514.rs` holds only `compound_trans_head()`, as the commit does.
pub trait Compound: 'static + Send + Sync {
    /// What the variant is (`crate::variant`).
    const META: VariantMeta;
    /// Whether the variant's code reads `PageAnon()` (8d63d99a and c761471b's
    /// `__compound_tail_refcounted()`): only then do the models set and clear `page->mapping`
    /// ([`Mem::models_mapping`]).
    const READS_PAGE_ANON: bool = false;
    /// `__get_page_tail(page)`: the slow path of `get_page()` on a tail page.
    fn __get_page_tail(m: &Mem, page: PagePtr) -> bool;
    /// `put_compound_page(page)`: `put_page()` of a head or tail page.
    fn put_compound_page(m: &Mem, page: PagePtr);
    /// `__put_compound_page(page)`: the last reference to a compound page went away.
    fn __put_compound_page(m: &Mem, page: PagePtr);

    /// `compound_head(page)` (include/linux/mm.h): 3.13's, no barrier, no re-check.
    fn compound_head(m: &Mem, page: PagePtr) -> PagePtr {
        compound_head(m, page)
    }
    /// `compound_trans_head(page)` (include/linux/huge_mm.h, 3.2–3.13): `smp_rmb()` and the
    /// PG_tail re-check.
    fn compound_trans_head(m: &Mem, page: PagePtr) -> PagePtr {
        compound_trans_head(m, page)
    }
    /// `compound_lock(page)` (include/linux/mm.h, 2.6.38–3.4).
    fn compound_lock(m: &Mem, page: PagePtr) {
        super::huge_memory::compound_lock(m, page)
    }
    /// `compound_unlock(page)` (include/linux/mm.h, 2.6.38–3.4).
    fn compound_unlock(m: &Mem, page: PagePtr) {
        super::huge_memory::compound_unlock(m, page)
    }
    /// `prep_compound_page(page, order)` (mm/page_alloc.c, 3.10–3.13).
    fn prep_compound_page(m: &Mem, page: PagePtr, order: u32) {
        super::page_alloc::prep_compound_page(m, page, order)
    }
    /// `prep_new_page(page, order, gfp_flags)` (mm/page_alloc.c, 3.10–3.13): refcounted before
    /// `prep_compound_page()`.
    fn prep_new_page(m: &Mem, page: PagePtr, order: u32, gfp_comp: bool) {
        super::page_alloc::prep_new_page(m, page, order, gfp_comp, Self::prep_compound_page)
    }
    /// `__cmpxchg_double_slab()` (mm/slub.c, 3.4–3.13): the `slab_lock()` fallback stores the
    /// whole `page->counters` word (a03208652dad, 3.14, stores only its SLUB fields).
    fn __cmpxchg_double_slab(
        m: &Mem,
        page: PagePtr,
        counters_old: super::slab::Counters,
        counters_new: super::slab::Counters,
    ) -> bool {
        super::slab::__cmpxchg_double_slab(m, page, counters_old, counters_new)
    }
    /// `__get_page_tail_foll(page, get_page_head)` (mm/internal.h, 3.4–3.13): every tail pin
    /// raises the tail's `_mapcount` (44518d2b, 3.14: only the tails of a refcounted head).
    fn __get_page_tail_foll(m: &Mem, page: PagePtr, get_page_head: bool) {
        __get_page_tail_foll(m, page, get_page_head)
    }
    /// `get_huge_page_tail(page)` (include/linux/mm.h, 3.2–3.13): gup_fast's tail pin raises the
    /// tail's `_mapcount` (44518d2b, 3.14: only the tails of a refcounted head).
    fn get_huge_page_tail(m: &Mem, page: PagePtr) {
        super::gup::get_huge_page_tail(m, page)
    }
    /// `__compound_tail_refcounted(page)` (include/linux/mm.h, 44518d2b, 3.14): whether a
    /// compound head's tails carry `_mapcount` pins. Before 44518d2b the function does not
    /// exist and nothing calls it; every variant from 44518d2b on names its text in
    /// `compound_fns!` (44518d2b's, or 8d63d99a's with `PageAnon()`).
    fn __compound_tail_refcounted(m: &Mem, page: PagePtr) -> bool {
        let _ = (m, page);
        crate::trace::harness_fail(
            "__compound_tail_refcounted",
            format!(
                "{}: no __compound_tail_refcounted() before 44518d2b (the variant must name one)",
                Self::META.id
            ),
        )
    }
    /// `put_unrefcounted_compound_page(page_head, page)` (mm/swap.c, c747ce79, 3.16): the tail
    /// put of a head whose tails carry no `_mapcount` pin. Before c747ce79 the code stands
    /// inline in `put_compound_page()`; every variant from c747ce79 on names its text.
    fn put_unrefcounted_compound_page(m: &Mem, page_head: PagePtr, page: PagePtr) {
        let _ = (m, page_head, page);
        crate::trace::harness_fail(
            "put_unrefcounted_compound_page",
            format!(
                "{}: no put_unrefcounted_compound_page() before c747ce79",
                Self::META.id
            ),
        )
    }
    /// `put_refcounted_compound_page(page_head, page)` (mm/swap.c, c747ce79, 3.16): the tail
    /// put of a THP tail, under `compound_lock`. Named by every variant from c747ce79 on.
    fn put_refcounted_compound_page(m: &Mem, page_head: PagePtr, page: PagePtr) {
        let _ = (m, page_head, page);
        crate::trace::harness_fail(
            "put_refcounted_compound_page",
            format!(
                "{}: no put_refcounted_compound_page() before c747ce79",
                Self::META.id
            ),
        )
    }
    /// `__split_huge_page_refcount(page)` (mm/huge_memory.c, 3.9–3.12).
    fn __split_huge_page_refcount(m: &Mem, page: PagePtr)
    where
        Self: Sized,
    {
        super::huge_memory::__split_huge_page_refcount::<Self>(m, page)
    }
}

/// The functions of a compound variant and where they come from:
/// `compound_fns! { self: put_compound_page, __get_page_tail; super::commit_5bf5f03c: compound_lock, compound_unlock; }`
/// inside `impl Compound for Variant` defines each named trait function as the generic
/// function of that name in that module, instantiated for this variant (`Self`).
#[macro_export]
macro_rules! compound_fns {
    ($($($m:ident)::+ : $($f:ident),+ ;)+) => {
        $( $crate::compound_fns!(@group [$($m)::+] $($f)+); )+
    };
    (@group $mp:tt $($f:ident)+) => {
        $( $crate::compound_fns!(@fn $mp $f); )+
    };
    (@fn [$($m:ident)::+] __get_page_tail) => {
        fn __get_page_tail(m: &$crate::mm::Mem, page: $crate::page::PagePtr) -> bool {
            $($m)::+::__get_page_tail::<Self>(m, page)
        }
    };
    (@fn [$($m:ident)::+] $f:ident) => {
        $crate::compound_fns!(@unit [$($m)::+] $f);
    };
    (@unit [$($m:ident)::+] __get_page_tail_foll) => {
        fn __get_page_tail_foll(m: &$crate::mm::Mem, page: $crate::page::PagePtr, get_page_head: bool) {
            $($m)::+::__get_page_tail_foll::<Self>(m, page, get_page_head)
        }
    };
    (@unit [$($m:ident)::+] get_huge_page_tail) => {
        fn get_huge_page_tail(m: &$crate::mm::Mem, page: $crate::page::PagePtr) {
            $($m)::+::get_huge_page_tail::<Self>(m, page)
        }
    };
    (@unit [$($m:ident)::+] put_compound_page) => {
        fn put_compound_page(m: &$crate::mm::Mem, page: $crate::page::PagePtr) {
            $($m)::+::put_compound_page::<Self>(m, page)
        }
    };
    (@unit [$($m:ident)::+] __put_compound_page) => {
        fn __put_compound_page(m: &$crate::mm::Mem, page: $crate::page::PagePtr) {
            $($m)::+::__put_compound_page::<Self>(m, page)
        }
    };
    (@unit [$($m:ident)::+] compound_lock) => {
        fn compound_lock(m: &$crate::mm::Mem, page: $crate::page::PagePtr) {
            $($m)::+::compound_lock::<Self>(m, page)
        }
    };
    (@unit [$($m:ident)::+] compound_unlock) => {
        fn compound_unlock(m: &$crate::mm::Mem, page: $crate::page::PagePtr) {
            $($m)::+::compound_unlock::<Self>(m, page)
        }
    };
    (@unit [$($m:ident)::+] put_unrefcounted_compound_page) => {
        fn put_unrefcounted_compound_page(
            m: &$crate::mm::Mem,
            page_head: $crate::page::PagePtr,
            page: $crate::page::PagePtr,
        ) {
            $($m)::+::put_unrefcounted_compound_page::<Self>(m, page_head, page)
        }
    };
    (@unit [$($m:ident)::+] put_refcounted_compound_page) => {
        fn put_refcounted_compound_page(
            m: &$crate::mm::Mem,
            page_head: $crate::page::PagePtr,
            page: $crate::page::PagePtr,
        ) {
            $($m)::+::put_refcounted_compound_page::<Self>(m, page_head, page)
        }
    };
    (@unit [$($m:ident)::+] __compound_tail_refcounted) => {
        fn __compound_tail_refcounted(m: &$crate::mm::Mem, page: $crate::page::PagePtr) -> bool {
            $($m)::+::__compound_tail_refcounted::<Self>(m, page)
        }
    };
    (@unit [$($m:ident)::+] compound_head) => {
        fn compound_head(m: &$crate::mm::Mem, page: $crate::page::PagePtr) -> $crate::page::PagePtr {
            $($m)::+::compound_head::<Self>(m, page)
        }
    };
    (@unit [$($m:ident)::+] compound_trans_head) => {
        fn compound_trans_head(m: &$crate::mm::Mem, page: $crate::page::PagePtr) -> $crate::page::PagePtr {
            $($m)::+::compound_trans_head::<Self>(m, page)
        }
    };
    (@unit [$($m:ident)::+] prep_compound_page) => {
        fn prep_compound_page(m: &$crate::mm::Mem, page: $crate::page::PagePtr, order: u32) {
            $($m)::+::prep_compound_page::<Self>(m, page, order)
        }
    };
    (@unit [$($m:ident)::+] __cmpxchg_double_slab) => {
        fn __cmpxchg_double_slab(
            m: &$crate::mm::Mem,
            page: $crate::page::PagePtr,
            counters_old: $crate::mm::slab::Counters,
            counters_new: $crate::mm::slab::Counters,
        ) -> bool {
            $($m)::+::__cmpxchg_double_slab::<Self>(m, page, counters_old, counters_new)
        }
    };
    (@unit [$($m:ident)::+] prep_new_page) => {
        fn prep_new_page(m: &$crate::mm::Mem, page: $crate::page::PagePtr, order: u32, gfp_comp: bool) {
            $($m)::+::prep_new_page::<Self>(m, page, order, gfp_comp)
        }
    };
}

/// `get_page_unless_zero(page)` (include/linux/mm.h, 3.10): `atomic_inc_not_zero(&page->_count)`,
/// which is `__atomic_add_unless(&page->_count, 1, 0) != 0` (written out so the trace shows
/// the count).
pub fn get_page_unless_zero(m: &Mem, page: PagePtr) -> bool {
    let p = m.pg(page);
    // LEFT OUT: `return atomic_inc_not_zero(&page->_count);` as one call: it is the
    // MODEL: `__atomic_add_unless(&_count, 1, 0) != 0` below (the same RMW), old value kept
    // for the trace
    let old = __atomic_add_unless(&p._count, 1, 0);
    ktrace!(
        "get_page_unless_zero",
        "{page:?}._count {old} -> {}",
        if old == 0 { 0 } else { old + 1 }
    );
    if old != 0 {
        ghost_count_op(p, page, "get_page_unless_zero", old, old + 1);
    }
    old != 0
}

/// `put_page_testzero(page)` (include/linux/mm.h, 3.10):
/// `VM_BUG_ON(atomic_read(&page->_count) == 0); return atomic_dec_and_test(&page->_count);`
/// (written as `atomic_dec_return() == 0`, the same fully ordered RMW, so the trace shows the
/// count).
pub fn put_page_testzero(m: &Mem, page: PagePtr) -> bool {
    let p = m.pg(page);
    VM_BUG_ON!("put_page_testzero", atomic_read(&p._count) == 0);
    // LEFT OUT: `return atomic_dec_and_test(&page->_count);` as one call: it is the
    // MODEL: `atomic_dec_return() == 0` below (the same fully ordered RMW), new value kept for
    // the trace
    let new = atomic_dec_return(&p._count);
    ktrace!("put_page_testzero", "{page:?}._count {} -> {new}", new + 1);
    ghost_count_op(p, page, "put_page_testzero", new + 1, new);
    new == 0
}

/// `compound_head(page)` (include/linux/mm.h, 3.10).
pub fn compound_head(m: &Mem, page: PagePtr) -> PagePtr {
    let p = m.pg(page);
    let tail = PageTail(p);
    ktrace!("compound_head", "PageTail({page:?}) = {tail}");
    // MODEL: the C's `if (unlikely(PageTail(page)))`, PageTail() read into `tail` for the trace
    if tail {
        let head = first_page(p);
        ktrace!("compound_head", "{page:?} is a tail: first_page = {head:?}");
        // MODEL: `return page->first_page;` with the load above kept in `head` for the trace
        return head;
    }
    page
}

/// `compound_trans_head(page)` (include/linux/huge_mm.h, 3.10).
///
/// `head` may be a dangling pointer: `__split_huge_page_refcount` clears PG_tail before the
/// tail's fields can be overwritten (its `smp_wmb()`), so if PG_tail is still set after the
/// `smp_rmb()` the head pointer read before it was not dangling.
pub fn compound_trans_head(m: &Mem, page: PagePtr) -> PagePtr {
    let p = m.pg(page);
    let tail = PageTail(p);
    ktrace!("compound_trans_head", "PageTail({page:?}) = {tail}");
    // MODEL: the C's `if (PageTail(page))`, PageTail() read into `tail` for the trace
    if tail {
        let head = first_page(p);
        // pairs with the smp_wmb() in __split_huge_page_refcount
        smp_rmb();
        if PageTail(p) {
            ktrace!(
                "compound_trans_head",
                "{page:?} still a tail: head = {head:?}"
            );
            return head;
        }
        ktrace!(
            "compound_trans_head",
            "{page:?} stopped being a tail (read first_page {head:?})"
        );
    }
    page
}

/// `__get_page_tail_foll(page, get_page_head)` (mm/internal.h, 3.10): the tail pin scheme.
/// The head's `_count` carries the pin; the tail's `_mapcount` counts it so split can hand it
/// to the tail.
pub fn __get_page_tail_foll(m: &Mem, page: PagePtr, get_page_head: bool) {
    let p = m.pg(page);
    // MODEL: `page->first_page` read once into `head`; the C reads it here and again at the
    // atomic_inc below: the caller holds the PT lock, the compound_lock or a pin on a head
    // split cannot touch, so both reads see the same word
    let head = first_page(p);
    VM_BUG_ON!("__get_page_tail_foll", atomic_read(&m.pg(head)._count) <= 0);
    VM_BUG_ON!("__get_page_tail_foll", atomic_read(&p._count) != 0);
    VM_BUG_ON!("__get_page_tail_foll", page_mapcount(p) < 0);
    if get_page_head {
        // LEFT OUT: `atomic_inc(&page->first_page->_count);` is the next line, with
        // MODEL: `first_page` read once into `head` (above) and the old count kept for the trace
        let old = atomic_inc(&m.pg(head)._count);
        ghost_count_op(m.pg(head), head, "__get_page_tail_foll", old, old + 1);
        ktrace!(
            "__get_page_tail_foll",
            "{head:?}._count {old} -> {}",
            old + 1
        );
    }
    let old = atomic_inc(&p._mapcount);
    ktrace!(
        "__get_page_tail_foll",
        "{page:?}._mapcount {old} -> {}",
        old + 1
    );
}

/// `get_page_foll(page)` (mm/internal.h, 3.10): FOLL_GET under the page-table lock, which
/// already serializes against split; the variant's `__get_page_tail_foll()`.
pub fn get_page_foll<V: Compound>(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    if PageTail(p) {
        V::__get_page_tail_foll(m, page, true);
    } else {
        VM_BUG_ON!("get_page_foll", atomic_read(&p._count) <= 0);
        let old = atomic_inc(&p._count);
        ghost_count_op(p, page, "get_page_foll", old, old + 1);
    }
}

/// `get_page(page)` (include/linux/mm.h, 3.10).
pub fn get_page<V: Compound>(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    let tail = PageTail(p);
    ktrace!("get_page", "{page:?} [{}] PageTail = {tail}", V::META.id);
    if tail && V::__get_page_tail(m, page) {
        return;
    }
    // Getting a normal page or the head of a compound page requires to already have an
    // elevated page->_count.
    VM_BUG_ON!("get_page", atomic_read(&p._count) <= 0);
    let old = atomic_inc(&p._count);
    ktrace!("get_page", "{page:?}._count {old} -> {}", old + 1);
    ghost_count_op(p, page, "get_page", old, old + 1);
}

/// `page_count(page)` (include/linux/mm.h, 3.x): `atomic_read(&compound_head(page)->_count)`,
/// with the variant's `compound_head()`.
pub fn page_count<V: Compound>(m: &Mem, page: PagePtr) -> i32 {
    // LEFT OUT: `return atomic_read(&compound_head(page)->_count);` as one expression: it is
    // MODEL: the two steps below (the same calls in the same order), values kept for the trace
    let head = V::compound_head(m, page);
    let count = atomic_read(&m.pg(head)._count);
    ktrace!("page_count", "{page:?}: head {head:?} _count {count}");
    count
}

/// `put_page(page)` (mm/swap.c, 3.10).
pub fn put_page<V: Compound>(m: &Mem, page: PagePtr) {
    let compound = PageCompound(m.pg(page));
    ktrace!(
        "put_page",
        "{page:?} [{}] PageCompound = {compound}",
        V::META.id
    );
    // MODEL: the C's `if (unlikely(PageCompound(page)))`, read into `compound` for the trace
    if compound {
        V::put_compound_page(m, page);
    } else if put_page_testzero(m, page) {
        __put_single_page(m, page);
    }
}

/// `__page_cache_release(page)` (mm/swap.c, 2.6.38–3.10): a page freed while on the LRU is
/// taken off it under `lru_lock`. (The compound models keep their pages off the LRU.)
pub fn __page_cache_release(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    if PageLRU(p) {
        // LEFT OUT: `zone = page_zone(page)` and (3.7+) `lruvec = mem_cgroup_page_lruvec()`:
        // one zone, no memcg in the model
        // MODEL: lru_lock_irqsave(m) is `spin_lock_irqsave(&zone->lru_lock, flags)` of the one
        // zone
        let lru_lock = super::lru::lru_lock_irqsave(m);
        VM_BUG_ON!("__page_cache_release", !PageLRU(p));
        __ClearPageLRU(p);
        // LEFT OUT: `del_page_from_lru_list(.., page_off_lru(page))` + `spin_unlock_irqrestore`
        // MODEL: as del_page_from_lru() (the list its flags name, PG_active cleared) and the
        // guard's drop; unreached here: the compound models keep their pages off the LRU
        super::lru::del_page_from_lru(m, page);
        // LEFT OUT: UNPAIRED: `spin_unlock_irqrestore(&zone->lru_lock, flags)` is the drop below.
        // MODEL: UNPAIRED: dropping the guard is that unlock.
        drop(lru_lock);
    }
    // LEFT OUT: 2.6.37's `free_hot_cold_page(page, 0)` at this point: 2.6.38 moved it to
    // `__put_single_page`, which the model runs for every version (it frees right after this).
}

/// `__put_single_page(page)` (mm/swap.c, 3.10).
pub fn __put_single_page(m: &Mem, page: PagePtr) {
    ktrace!("__put_single_page", "{page:?}");
    __page_cache_release(m, page);
    free_hot_cold_page(m, page);
}
