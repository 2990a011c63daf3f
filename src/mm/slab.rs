//! mm/slub.c (SLUB, Linux 3.4–3.12), reduced to what writes a slab page's `flags` word:
//! `new_slab()` sets PG_slab, the `slab_lock()` fallback of `__cmpxchg_double_slab()` takes and
//! drops PG_locked, `__free_slab()` clears PG_slab. All but the lock itself are non-atomic
//! ("Slab performs non-atomic bit ops on page->flags for better performance", 5bf5f03c): a
//! concurrent `compound_lock()` on the same head page can lose its update, or have it undone.
//!
//! SLUB allocates slabs of order > 0 with `__GFP_COMP` (`calculate_sizes()`: `if (order)
//! s->allocflags |= __GFP_COMP`), so a slab page of order 1 is a compound page whose tail a
//! driver can pin with `get_page()` (network buffers in kmalloc memory: the 5bf5f03c report).
//! Left out: the freelist and `counters` (SLUB's object bookkeeping; on 64-bit `counters`
//! overlaps `_count`, a separate bug fixed later, see proofs/compound.9.md), `inc_slabs_node`,
//! statistics, debug checks.

use super::page_alloc::{__free_pages, alloc_pages_for, compound_order};
use super::swap::Compound;
use super::Mem;
use crate::ktrace;
use crate::page::*;
use crate::sync::{__bit_spin_unlock, atomic_set, bit_spin_lock, READ_ONCE, WRITE_ONCE};

/// `slab_lock(page)` (mm/slub.c, 3.4): `bit_spin_lock(PG_locked, &page->flags)`.
pub fn slab_lock(m: &Mem, page: PagePtr) {
    bit_spin_lock(PG_LOCKED, &m.pg(page).flags);
    ktrace!("slab_lock", "locked {page:?} (PG_locked)");
}

/// `slab_unlock(page)` (mm/slub.c, 3.4): `__bit_spin_unlock(PG_locked, &page->flags)`, the
/// non-atomic unlock: a load and a store of the whole flags word.
pub fn slab_unlock(m: &Mem, page: PagePtr) {
    let old = __bit_spin_unlock(PG_LOCKED, &m.pg(page).flags);
    ktrace!(
        "slab_unlock",
        "__bit_spin_unlock {page:?}: read flags {old:#x}, wrote {:#x} (non-atomic)",
        old & !bit(PG_LOCKED)
    );
}

/// `new_slab(s, flags, node)` (mm/slub.c, 3.4), reduced to `allocate_slab()` (an order-`order`
/// `__GFP_COMP` allocation) and `page->flags |= 1 << PG_slab` (non-atomic).
pub fn new_slab<V: Compound>(m: &Mem, order: u32) -> Option<PagePtr> {
    let page = alloc_pages_for::<V>(m, order, order > 0)?;
    let p = m.pg(page);
    let flags = READ_ONCE(&p.flags);
    WRITE_ONCE(&p.flags, flags | bit(PG_SLAB)); // page->flags |= 1 << PG_slab;
    ktrace!(
        "new_slab",
        "{page:?} order {order}: page->flags |= PG_slab: read {flags:#x}, wrote {:#x} (non-atomic)",
        flags | bit(PG_SLAB)
    );
    Some(page)
}

/// `__cmpxchg_double_slab(s, page, ...)` (mm/slub.c, 3.4) on an arch without
/// `this_cpu_cmpxchg_double()` (or with a debug cache): the fallback that updates
/// `page->freelist` and `page->counters` under `slab_lock(page)`. The compare and the two
/// stores are not modelled (no model reads them); the lock and the non-atomic unlock are.
pub fn __cmpxchg_double_slab(m: &Mem, page: PagePtr) {
    slab_lock(m, page);
    // if (page->freelist == freelist_old && page->counters == counters_old) { ... }
    slab_unlock(m, page);
}

/// `__free_slab(s, page)` (mm/slub.c, 3.4): `__ClearPageSlab(page)` (non-atomic),
/// `reset_page_mapcount(page)` and `__free_pages(page, order)`: the slab's own reference goes.
pub fn __free_slab(m: &Mem, page: PagePtr) {
    let order = compound_order(m, page);
    let p = m.pg(page);
    __ClearPageSlab(p);
    atomic_set(&p._mapcount, -1); // reset_page_mapcount(page)
    ktrace!("__free_slab", "{page:?} order {order}");
    __free_pages(m, page, order);
}
