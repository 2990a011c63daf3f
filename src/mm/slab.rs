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
//! overlaps the head's `_count`, the separate bug of Pravin B Shelar's "mm: Fix slab->page
//! _count corruption." (abca7c496584), see `__cmpxchg_double_slab()` and
//! proofs/compound.9.md#left-out), `inc_slabs_node`, statistics, debug checks.

use super::page_alloc::{__free_pages, alloc_pages_for, compound_order};
use super::swap::Compound;
use super::Mem;
use crate::ktrace;
use crate::page::*;
use crate::sync::{__bit_spin_unlock, atomic_set, bit_spin_lock, READ_ONCE, WRITE_ONCE};
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

/// `__cmpxchg_double_slab(s, page, ...)` (mm/slub.c, 3.4) on an arch without
/// `this_cpu_cmpxchg_double()` (or with a debug cache): the fallback that updates
/// `page->freelist` and `page->counters` under `slab_lock(page)`. The compare and the two
/// stores are not modelled (no model reads them); the lock and the non-atomic unlock are.
pub fn __cmpxchg_double_slab(m: &Mem, page: PagePtr) {
    // LEFT OUT: `VM_BUG_ON(!irqs_disabled())` (no interrupts) and the cmpxchg_double() branch:
    // this is the fallback (no __CMPXCHG_DOUBLE: an arch without it, or a debug cache)
    slab_lock(m, page);
    // if (page->freelist == freelist_old && page->counters == counters_old) { ... }
    // LEFT OUT: the compare, the stores `page->freelist = freelist_new; page->counters =
    // counters_new;` and the success path's own `slab_unlock(page); return 1;` (the same
    // unlock as below). `page->counters = counters_new` overlaps the head's `_count` on 64-bit
    // (3.4: `counters` is an `unsigned long` on every configuration; after abca7c496584 still
    // with CONFIG_HAVE_CMPXCHG_DOUBLE && CONFIG_HAVE_ALIGNED_STRUCT_PAGE), so this store can
    // undo a concurrent get_page()/put_page() of the head: the bug of Pravin B Shelar's "mm:
    // Fix slab->page _count corruption." (linux-mm, 30 May 2012, Message-Id
    // <1338405610-1788-1-git-send-email-pshelar@nicira.com>; abca7c496584) and, for that
    // configuration, of Dave Hansen's "mm: slub: fix page->_count corruption (again)" (28 Jan
    // 2014). Not modelled: the claims are about the flags word, and their SAFE verdicts say
    // nothing about `_count` on those configurations (proofs/compound.9.md#left-out)
    slab_unlock(m, page);
    // LEFT OUT: the failure path's cpu_relax(), stat(), printk and `return 0;`: one attempt,
    // no result (the callers' retry loops are not modelled)
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
