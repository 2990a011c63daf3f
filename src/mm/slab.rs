//! mm/slub.c (SLUB, Linux 3.4–3.12), reduced to what writes a slab page's `flags` word:
//! `new_slab()` sets PG_slab, the `slab_lock()` fallback of `__cmpxchg_double_slab()` takes and
//! drops PG_locked, `__free_slab()` clears PG_slab. All but the lock itself are non-atomic
//! ("Slab performs non-atomic bit ops on page->flags for better performance", 5bf5f03c): a
//! concurrent `compound_lock()` on the same head page can lose its update, or have it undone.
//!
//! SLUB allocates slabs of order > 0 with `__GFP_COMP` (`calculate_sizes()`: `if (order)
//! s->allocflags |= __GFP_COMP`), so a slab page of order 1 is a compound page whose tail a
//! driver can pin with `get_page()` (network buffers in kmalloc memory: the 5bf5f03c report).
//! `__cmpxchg_double_slab()` also compares and stores `page->counters`, SLUB's word over the
//! head's `_mapcount` and, on x86-64, its `_count` ([`Counters`]; claim compound.11, Dave
//! Hansen's a03208652dad in `crate::compound::commit_a0320865`). Left out: the freelist and the
//! objects (no model allocates an object), `inc_slabs_node`, statistics, debug checks.

use super::page_alloc::{__free_pages, alloc_pages_for, compound_order};
use super::swap::Compound;
use super::Mem;
use crate::ktrace;
use crate::page::*;
use crate::sync::{
    __bit_spin_unlock, atomic_read, atomic_set, bit_spin_lock, cpu_relax, READ_ONCE, WRITE_ONCE,
};
use crate::trace;

/// `slab_lock(page)` (mm/slub.c, 3.4): `bit_spin_lock(PG_locked, &page->flags)`.
pub fn slab_lock(m: &Mem, page: PagePtr) {
    bit_spin_lock(PG_LOCKED, &m.pg(page).flags);
    trace::record_lock(
        "slab_lock",
        || format!("{page:?} PG_locked"),
        true,
        || format!("locked {page:?} (PG_locked)"),
    );
}

/// `slab_unlock(page)` (mm/slub.c, 3.4): `__bit_spin_unlock(PG_locked, &page->flags)`, the
/// non-atomic unlock: a load and a store of the whole flags word.
pub fn slab_unlock(m: &Mem, page: PagePtr) {
    let old = __bit_spin_unlock(PG_LOCKED, &m.pg(page).flags);
    trace::record_lock(
        "slab_unlock",
        || format!("{page:?} PG_locked"),
        false,
        || {
            format!(
                "__bit_spin_unlock {page:?}: read flags {:#x}, wrote {:#x} (non-atomic)",
                *old,
                *old & !bit(PG_LOCKED)
            )
        },
    );
    // MODEL: the waiters wake after the event is recorded (src/sync `BitUnlocked`).
    drop(old);
}

/// `new_slab(s, flags, node)` (mm/slub.c, 3.4), reduced to `allocate_slab()` (an order-`order`
/// `__GFP_COMP` allocation) and `page->flags |= 1 << PG_slab` (non-atomic).
pub fn new_slab<V: Compound>(m: &Mem, order: u32) -> Option<PagePtr> {
    // LEFT OUT: `BUG_ON(flags & GFP_SLAB_BUG_MASK)` (no gfp flags); `page = allocate_slab(s,
    // ..., node)`, `if (!page) goto out;` and (3.8+) `order = compound_order(page)` are
    // MODEL: this allocation of an order-`order` page, __GFP_COMP when order > 0 (SLUB's
    // calculate_sizes()), None when no block is free
    let page = alloc_pages_for::<V>(m, order, order > 0)?;
    let p = m.pg(page);
    let flags = READ_ONCE(&p.flags);
    // LEFT OUT: inc_slabs_node() (statistics), `page->slab = s` (3.8+: `page->slab_cache = s`;
    // no kmem_cache is modelled), (3.8+) memcg_bind_pages() and the pfmemalloc flag
    // MODEL: `page->flags |= 1 << PG_slab` (3.6+: `__SetPageSlab(page)`): one plain load and
    // store of the flags word
    WRITE_ONCE(&p.flags, flags | bit(PG_SLAB)); // page->flags |= 1 << PG_slab;

    // LEFT OUT: the objects' setup (page_address, SLAB_POISON, for_each_object, setup_object,
    // set_freepointer), `page->freelist = start`, and `page->inuse = page->objects;
    // page->frozen = 1;`, bitfields of the word that overlays the head's `_mapcount`: no
    // modelled path reads a slab head's _mapcount (__free_slab() resets it before the free)
    ktrace!(
        "new_slab",
        "{page:?} order {order}: page->flags |= PG_slab: read {flags:#x}, wrote {:#x} (non-atomic)",
        flags | bit(PG_SLAB)
    );
    Some(page)
}

/// `page->counters` (include/linux/mm_types.h, 3.4 to 3.13) as the model lays it out: SLUB's
/// word over the head's `_mapcount` (`inuse:16, objects:15, frozen:1`, the low half) and, where
/// `counters` is an 8-byte `unsigned long`, the head's `_count` (the high half on x86-64).
/// [`MemConfig::counters_cover_count`](super::MemConfig) says which. Not a kernel function:
/// the kernel reads and writes the union member directly.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Counters {
    /// The `_mapcount` word: `inuse`, `objects`, `frozen`.
    pub word: u32,
    /// `_count`, when `counters` covers it (`None` on a 4-byte `counters`).
    pub count: Option<i32>,
}

impl Counters {
    /// `new.inuse--` (`__slab_free()`'s update of the snapshot).
    pub fn dec_inuse(self) -> Counters {
        let inuse = (self.word & 0xffff).wrapping_sub(1) & 0xffff;
        Counters {
            word: (self.word & !0xffff) | inuse,
            ..self
        }
    }
}

impl std::fmt::Display for Counters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.count {
            Some(c) => write!(f, "{{word {:#x}, _count {c}}}", self.word),
            None => write!(f, "{{word {:#x}}}", self.word),
        }
    }
}

/// A load of `page->counters`: the `_mapcount` word, then `_count` when the machine's
/// `counters` covers it (one 8-byte load on x86-64, two 4-byte loads here: no other CPU writes
/// the head's `_mapcount` word in any model, so the split cannot show a value the 8-byte load
/// could not read; proofs/compound.11.md, "The counters word").
pub fn page_counters(m: &Mem, page: PagePtr) -> Counters {
    let p = m.pg(page);
    let word = atomic_read(&p._mapcount) as u32;
    let count = m.cfg.counters_cover_count.then(|| atomic_read(&p._count));
    Counters { word, count }
}

/// A store of `page->counters`: the `_mapcount` word, then `_count` when `counters` covers it
/// (one plain 8-byte store on x86-64).
pub fn set_page_counters(m: &Mem, page: PagePtr, v: Counters) {
    let p = m.pg(page);
    atomic_set(&p._mapcount, v.word as i32);
    if let Some(count) = v.count {
        atomic_set(&p._count, count);
        ktrace!(
            "set counters",
            "{page:?}->counters = {v}: {page:?}._count = {count} (a plain store)"
        );
    } else {
        ktrace!("set counters", "{page:?}->counters = {v}");
    }
}

/// `__cmpxchg_double_slab(s, page, freelist_old, counters_old, freelist_new, counters_new, n)`
/// (mm/slub.c, 3.4) on an arch without `cmpxchg_double()` or for a debug cache (no
/// `__CMPXCHG_DOUBLE`): the fallback that compares and stores `page->freelist` and
/// `page->counters` under `slab_lock(page)`. `page->counters = counters_new` stores the whole
/// word: on x86-64 (`unsigned long counters`, 8 bytes, over `_mapcount` and `_count`) it
/// writes back the `_count` the caller read, undoing a `get_page()`/`put_page()` of the head
/// that ran between the compare and the store (claim compound.11). The freelist is left out:
/// no model has objects (`freelist_old == freelist_new == NULL`).
pub fn __cmpxchg_double_slab(
    m: &Mem,
    page: PagePtr,
    counters_old: Counters,
    counters_new: Counters,
) -> bool {
    // LEFT OUT: `VM_BUG_ON(!irqs_disabled())` (no interrupts) and the cmpxchg_double() branch:
    // this is the fallback (no __CMPXCHG_DOUBLE: an arch without it, or a debug cache)
    slab_lock(m, page);
    // MODEL: `page->freelist == freelist_old` is left out (no objects: both NULL), the
    // compare is of `page->counters` alone
    let counters = page_counters(m, page);
    if counters == counters_old {
        ktrace!(
            "__cmpxchg_double_slab",
            "{page:?}->counters = {counters} == counters_old"
        );
        // LEFT OUT: `page->freelist = freelist_new;` (no objects)
        set_page_counters(m, page, counters_new); // page->counters = counters_new;
        slab_unlock(m, page);
        return true;
    }
    ktrace!(
        "__cmpxchg_double_slab",
        "{page:?}->counters = {counters} != counters_old {counters_old}"
    );
    slab_unlock(m, page);

    cpu_relax();
    // LEFT OUT: stat(s, CMPXCHG_DOUBLE_FAIL) and the SLUB_DEBUG_CMPXCHG printk (no statistics
    // or log)
    false
}

/// `__free_slab(s, page)` (mm/slub.c, 3.4): `__ClearPageSlab(page)` (non-atomic),
/// `reset_page_mapcount(page)` and `__free_pages(page, order)`: the slab's own reference goes.
pub fn __free_slab(m: &Mem, page: PagePtr) {
    let order = compound_order(m, page);
    // LEFT OUT: `pages = 1 << order`, the debug checks (kmem_cache_debug: slab_pad_check,
    // check_object), kmemcheck_free_shadow(), the NR_SLAB_* statistics and (3.6+)
    // __ClearPageSlabPfmemalloc(): no objects, statistics or pfmemalloc in the model
    let p = m.pg(page);
    __ClearPageSlab(p);
    // LEFT OUT: (3.8+) memcg_release_pages(); `reset_page_mapcount(page)` (3.10+:
    // `page_mapcount_reset(page)`) is
    // MODEL: its body `atomic_set(&page->_mapcount, -1)`, written out
    atomic_set(&p._mapcount, -1); // reset_page_mapcount(page)

    // LEFT OUT: the reclaim_state accounting (no reclaim in the model); (3.8+) the memcg
    // uncharge of __free_memcg_kmem_pages(), which then calls __free_pages()
    ktrace!("__free_slab", "{page:?} order {order}");
    __free_pages(m, page, order);
}
