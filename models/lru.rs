//! S2 scenarios: batched activate_page through per-CPU pagevecs (744ed144, eb709b0d).
//!
//! Pages are order-0 file pages in the page cache, on the zone's inactive file LRU. The page
//! cache's reference is held by the main thread (setup and teardown); every CPU that calls
//! `mark_page_accessed` → `activate_page` holds its own reference, as a reader of the page
//! does.

use super::{invariants, join};
use crate::compound::PageRef;
use crate::lru::{lru_add_drain, Lru};
use crate::mm::list::{list_add, walk, ListId};
use crate::mm::lru::{add_page_to_lru_list, isolate_lru_page, lru_lock, Order0};
use crate::mm::page_alloc::alloc_pages;
use crate::mm::{Mem, MemConfig, NR_CPUS};
use crate::page::*;
use crate::sync::spawn_cpu;
use crate::trace::{fail, Invariant};
use std::sync::Arc;

/// An S2 machine of `nr_pages` frames whose per-CPU pagevecs hold `pagevec_size` pages.
pub fn machine(nr_pages: usize, pagevec_size: usize) -> Arc<Mem> {
    Arc::new(Mem::with_pagevec_size(
        MemConfig::small(nr_pages),
        pagevec_size,
    ))
}

/// `add_to_page_cache_lru(page, ...)` reduced: a new page-cache page (refcount 1, held by the
/// page cache) put on the inactive file LRU (`lru_cache_add_file`, drained at once).
pub fn add_to_page_cache_lru(m: &Mem) -> (PagePtr, PageRef) {
    let Some(page) = alloc_pages(m, 0, false) else {
        fail(
            "add_to_page_cache_lru",
            Invariant::VmBugOn,
            "out of pages".to_string(),
        )
    };
    let pc = PageRef::adopt(m, page);
    let _lru = lru_lock(m);
    SetPageLRU(m.pg(page));
    add_page_to_lru_list(m, page, ListId::InactiveFile);
    (page, pc)
}

/// Reclaim or migration on this CPU: isolate the page, hold it on the CPU's private list, put
/// it back with `putback_lru_pages`, and flush this CPU's pagevec.
pub fn isolate_and_putback<V: Lru>(m: &Mem, page: PagePtr, cpu: usize) {
    if isolate_lru_page(m, page) {
        list_add(m, page, ListId::Private(cpu));
        crate::ktrace!("reclaim", "list_add({page:?}, private list of CPU{cpu})");
        V::putback_lru_pages(m, ListId::Private(cpu));
    }
    lru_add_drain::<V>(m);
}

/// The S2 end-of-scenario invariants, after every CPU's pagevec was drained:
/// every page is on exactly one list (an LRU list, a private isolation list) or free;
/// PG_lru iff on an LRU list; PG_active iff on the active list; no page queued in a pagevec;
/// `_count` equals the references the scenario's holders still have.
pub fn check_lru_state(m: &Mem) {
    let mut seen: Vec<Option<ListId>> = vec![None; m.map.nr_pages()];
    for i in 0..ListId::COUNT {
        let l = ListId::from_index(i);
        for page in walk(m, l) {
            let pfn = m.map.pfn(page);
            if let Some(other) = seen[pfn] {
                fail(
                    "end of scenario",
                    Invariant::ListCorruption,
                    format!("{page:?} is on {other:?} and on {l:?}"),
                );
            }
            seen[pfn] = Some(l);
        }
    }
    for (page, p) in m.map.iter() {
        let pfn = m.map.pfn(page);
        let on = seen[pfn];
        if p.ghost.on_list.get() != on {
            fail(
                "end of scenario",
                Invariant::ListCorruption,
                format!(
                    "{page:?} is linked on {on:?} but was last added to {:?}",
                    p.ghost.on_list.get()
                ),
            );
        }
        let on_lru = on.is_some_and(|l| l.is_lru());
        if PageLRU(p) != on_lru {
            fail(
                "end of scenario",
                Invariant::FlagsMismatch,
                format!("{page:?}: PG_lru {} but on {on:?}", PageLRU(p)),
            );
        }
        if on_lru && PageActive(p) != (on == Some(ListId::ActiveFile)) {
            fail(
                "end of scenario",
                Invariant::FlagsMismatch,
                format!("{page:?}: PG_active {} but on {on:?}", PageActive(p)),
            );
        }
        crate::mm::lru::assert_not_queued(m, page, "end of scenario");
        if p.ghost_allocated() && page_count_raw(p) != p.ghost_pins() {
            fail(
                "end of scenario",
                Invariant::RefcountBalance,
                format!(
                    "{page:?}: _count {} but its holders have {} reference(s)",
                    page_count_raw(p),
                    p.ghost_pins()
                ),
            );
        }
        if !p.ghost_allocated() && on.is_some() {
            fail(
                "end of scenario",
                Invariant::FreedWhileReferenced,
                format!("{page:?} is free but on {on:?}"),
            );
        }
    }
}

/// Drain every CPU's pagevec (`lru_add_drain_all()`: the drain runs as each CPU; here the
/// main thread does it after every CPU has stopped).
pub fn drain_all<V: Lru>(m: &Mem) {
    for cpu in 0..NR_CPUS {
        V::activate_page_drain(m, cpu);
    }
}

/// S2.1–S2.4 — two CPUs activate the same page while a third isolates and puts it back.
///
/// * setup: one page-cache page P on the inactive file LRU.
/// * CPU0, CPU1: `activate_page(P)`, `lru_add_drain()`.
/// * CPU2: `isolate_lru_page(P)` onto its private list, `putback_lru_pages`, `lru_add_drain()`.
/// * then: drain every CPU, check the LRU state, remove P from the page cache (its last
///   reference; it is freed off the LRU) and check every frame is free.
pub fn activate_vs_isolate<V: Lru>() {
    let m = machine(2, 14);
    let (page, pc) = add_to_page_cache_lru(&m);

    let cpus: Vec<_> = (0..2)
        .map(|cpu| {
            let m = m.clone();
            spawn_cpu(cpu, move || {
                V::activate_page(&m, page);
                lru_add_drain::<V>(&m);
            })
        })
        .collect();
    let m2 = m.clone();
    let reclaim = spawn_cpu(2, move || isolate_and_putback::<V>(&m2, page, 2));
    for h in cpus {
        join(h);
    }
    join(reclaim);
    drain_all::<V>(&m);
    check_lru_state(&m);
    pc.put::<Order0>(&m); // truncate: the page cache's reference
    invariants::all_pages_freed(&m);
}
