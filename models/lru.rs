//! Area `lru` (S2): batched activate_page through per-CPU pagevecs (744ed144, eb709b0d).
//!
//! Pages are order-0 file pages in the page cache, on the zone's inactive file LRU. The page
//! cache's reference is held by the main thread (setup and teardown); every CPU that calls
//! `mark_page_accessed` → `activate_page` holds its own reference, as a reader of the page
//! does.

use crate::sequential::{self, Settings};
use crate::{invariants, scenario, Model, Runner};
use mmcheck::checker::Exploration;
use mmcheck::ktrace;
use mmcheck::mm::list::{ghost_on_list, list_add, list_empty, walk, ListId};
use mmcheck::mm::lru::{
    add_page_to_lru_list, assert_not_queued, isolate_lru_page, lru_add_drain, lru_lock,
    mark_page_accessed, Lru, PAGEVEC_SIZE,
};
use mmcheck::mm::page_alloc::alloc_pages;
use mmcheck::mm::page_ref::PageRef;
use mmcheck::mm::{Mem, MemConfig, NR_CPUS};
use mmcheck::page::*;
use mmcheck::sync::{join, run_as_cpu, spawn_cpu};
use mmcheck::trace::{fail, harness_fail, Invariant};
use proptest::prelude::*;
use std::sync::Arc;

/// Every model of the area, for variant `V`.
pub fn models<V: Lru>() -> Vec<Model> {
    vec![
        scenario!(activate_vs_isolate::<V>, 3, "two CPUs activate the same page while a third isolates and puts it back"),
        scenario!(lru_soak::<V>, 4, "4 CPUs, 6 pages, pagevecs of 4: activation, reclaim, truncation (shuttle soak)"),
        Model {
            name: "sequential",
            cpus: 0,
            about: "random activate/drain/isolate/putback sequences against a reference model of each page's place",
            run: Runner::Sequential(sequential_proptest::<V>),
        },
    ]
}

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
        harness_fail("add_to_page_cache_lru", "out of pages".to_string())
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
        ktrace!("reclaim", "list_add({page:?}, private list of CPU{cpu})");
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
        let ghost = ghost_on_list(m, page);
        if ghost != on {
            fail(
                "end of scenario",
                Invariant::ListCorruption,
                format!("{page:?} is linked on {on:?} but was last added to {ghost:?}"),
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
        assert_not_queued(m, page, "end of scenario");
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

/// lru.1–lru.4 — two CPUs activate the same page while a third isolates and puts it back.
///
/// * setup: one page-cache page P on the inactive file LRU.
/// * CPU0, CPU1: `activate_page(P)`, `lru_add_drain()`.
/// * CPU2: `isolate_lru_page(P)` onto its private list, `putback_lru_pages`, `lru_add_drain()`.
/// * then: drain every CPU, check the LRU state, remove P from the page cache (its last
///   reference; it is freed off the LRU) and check every frame is free.
pub fn activate_vs_isolate<V: Lru>() {
    let m = machine(2, PAGEVEC_SIZE);
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
    pc.release(&m); // truncate: the page cache's reference
    invariants::all_pages_freed(&m);
}

/// The S2 soak (shuttle): 4 CPUs, 6 pages, pagevecs of 4 (so they fill and flush).
///
/// * setup: 6 page-cache pages on the inactive LRU.
/// * CPU0, CPU1: `mark_page_accessed` twice on pages 0–4 (the second call activates), then
///   `lru_add_drain()`.
/// * CPU2: reclaim: isolates pages 0–2 onto its private list, `putback_lru_pages`,
///   `lru_add_drain()`.
/// * CPU3: activates pages 3–5, truncates page 5 (drops its page-cache reference: the page is
///   freed, off the LRU, when the pagevec lets go of it), `lru_add_drain()`.
/// * then: drain every CPU, check the LRU state, truncate the rest, every frame free.
pub fn lru_soak<V: Lru>() {
    let m = machine(6, 4);
    let mut pages = Vec::new();
    let mut pcs = Vec::new();
    for _ in 0..6 {
        let (p, pc) = add_to_page_cache_lru(&m);
        pages.push(p);
        pcs.push(pc);
    }
    let truncated = pcs.pop().expect("six pages");
    let mut hs = Vec::new();
    for cpu in 0..2 {
        let (m, pages) = (m.clone(), pages.clone());
        hs.push(spawn_cpu(cpu, move || {
            for _ in 0..2 {
                for &p in &pages[..5] {
                    mark_page_accessed::<V>(&m, p);
                }
            }
            lru_add_drain::<V>(&m);
        }));
    }
    {
        let (m, pages) = (m.clone(), pages.clone());
        hs.push(spawn_cpu(2, move || {
            for &p in &pages[..3] {
                if isolate_lru_page(&m, p) {
                    list_add(&m, p, ListId::Private(2));
                }
            }
            V::putback_lru_pages(&m, ListId::Private(2));
            lru_add_drain::<V>(&m);
        }));
    }
    {
        let (m, pages) = (m.clone(), pages.clone());
        hs.push(spawn_cpu(3, move || {
            for &p in &pages[3..6] {
                V::activate_page(&m, p);
            }
            truncated.release(&m);
            lru_add_drain::<V>(&m);
        }));
    }
    for h in hs {
        join(h);
    }
    drain_all::<V>(&m);
    check_lru_state(&m);
    for pc in pcs {
        pc.release(&m);
    }
    invariants::all_pages_freed(&m);
}

/// One step of the sequential model (proptest drives random sequences of these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LruOp {
    /// `activate_page(page)` on CPU `cpu` (the main thread plays every CPU in turn).
    Activate { page: usize, cpu: usize },
    /// `activate_page_drain(cpu)`.
    Drain { cpu: usize },
    /// `isolate_lru_page(page)` onto the reclaim list.
    Isolate { page: usize },
    /// `putback_lru_pages` of the reclaim list, then `activate_page_drain` of the putback CPU.
    Putback,
}

/// Where the reference model says a page is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Where {
    Inactive,
    Active,
    Isolated { active: bool },
}

/// The sequential model: 3 pages, 2 CPUs' pagevecs (of PAGEVEC_SIZE), run on one thread.
/// Reference model: each page's place (inactive, active, isolated) and the pages each CPU has
/// queued; `activate_page` queues a page that is on the LRU and inactive; a drain activates a
/// queued page that is still on the inactive list and leaves any other page where it is;
/// isolation takes a page off the LRU, putback returns it to the list its PG_active names.
/// After every step the kernel's lists, flags and counts must agree with it.
pub fn lru_sequential<V: Lru>(ops: &[LruOp]) {
    const PAGES: usize = 3;
    let m = machine(PAGES, PAGEVEC_SIZE);
    let mut pages = Vec::new();
    let mut pcs = Vec::new();
    for _ in 0..PAGES {
        let (p, pc) = add_to_page_cache_lru(&m);
        pages.push(p);
        pcs.push(pc);
    }
    let mut place = [Where::Inactive; PAGES];
    let mut queued: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    let reclaim_list = ListId::Private(0);
    for op in ops {
        match *op {
            LruOp::Activate { page, cpu } => {
                run_as_cpu(cpu, || V::activate_page(&m, pages[page]));
                if place[page] == Where::Inactive && V::BATCHED {
                    queued[cpu].push(page);
                } else if place[page] == Where::Inactive {
                    place[page] = Where::Active;
                }
            }
            LruOp::Drain { cpu } => {
                run_as_cpu(cpu, || V::activate_page_drain(&m, cpu));
                for page in queued[cpu].drain(..) {
                    if place[page] == Where::Inactive {
                        place[page] = Where::Active;
                    }
                }
            }
            LruOp::Isolate { page } => {
                if isolate_lru_page(&m, pages[page]) {
                    list_add(&m, pages[page], reclaim_list);
                }
                if let Where::Inactive | Where::Active = place[page] {
                    place[page] = Where::Isolated {
                        active: place[page] == Where::Active,
                    };
                }
            }
            LruOp::Putback => {
                run_as_cpu(0, || V::putback_lru_pages(&m, reclaim_list));
                for w in place.iter_mut() {
                    if let Where::Isolated { active } = *w {
                        *w = if active {
                            Where::Active
                        } else {
                            Where::Inactive
                        };
                    }
                }
                run_as_cpu(0, || V::activate_page_drain(&m, 0));
                for page in queued[0].drain(..) {
                    if place[page] == Where::Inactive {
                        place[page] = Where::Active;
                    }
                }
            }
        }
        // Kernel state vs the reference model.
        let inactive = walk(&m, ListId::InactiveFile);
        let active = walk(&m, ListId::ActiveFile);
        let isolated = walk(&m, reclaim_list);
        for (i, &p) in pages.iter().enumerate() {
            let got = (
                inactive.contains(&p),
                active.contains(&p),
                isolated.contains(&p),
            );
            let want = match place[i] {
                Where::Inactive => (true, false, false),
                Where::Active => (false, true, false),
                Where::Isolated { .. } => (false, false, true),
            };
            if got != want {
                fail(
                    "lru_sequential",
                    Invariant::ListCorruption,
                    format!("after {op:?}: {p:?} on (inactive, active, isolated) = {got:?}, reference model says {:?}", place[i]),
                );
            }
            let pg = m.pg(p);
            let on_lru = !matches!(place[i], Where::Isolated { .. });
            if PageLRU(pg) != on_lru || (on_lru && PageActive(pg) != (place[i] == Where::Active)) {
                fail(
                    "lru_sequential",
                    Invariant::FlagsMismatch,
                    format!(
                        "after {op:?}: {p:?} PG_lru {} PG_active {}, reference model says {:?}",
                        PageLRU(pg),
                        PageActive(pg),
                        place[i]
                    ),
                );
            }
            let refs = 1
                + queued
                    .iter()
                    .map(|q| q.iter().filter(|&&x| x == i).count())
                    .sum::<usize>() as i32
                + i32::from(matches!(place[i], Where::Isolated { .. }));
            if page_count_raw(pg) != refs {
                fail(
                    "lru_sequential",
                    Invariant::RefcountBalance,
                    format!(
                        "after {op:?}: {p:?}._count {} but the reference model counts {refs}",
                        page_count_raw(pg)
                    ),
                );
            }
        }
    }
    if !list_empty(&m, reclaim_list) {
        run_as_cpu(0, || V::putback_lru_pages(&m, reclaim_list));
    }
    drain_all::<V>(&m);
    check_lru_state(&m);
    for pc in pcs {
        pc.release(&m);
    }
    invariants::all_pages_freed(&m);
}

/// proptest's operations for [`lru_sequential`]: 3 pages, 2 CPUs.
fn lru_op() -> impl Strategy<Value = LruOp> {
    prop_oneof![
        (0usize..3, 0usize..2).prop_map(|(page, cpu)| LruOp::Activate { page, cpu }),
        (0usize..2).prop_map(|cpu| LruOp::Drain { cpu }),
        (0usize..3).prop_map(|page| LruOp::Isolate { page }),
        Just(LruOp::Putback),
    ]
}

/// [`lru_sequential`] on random sequences of up to 20 steps.
fn sequential_proptest<V: Lru>(settings: &Settings) -> Exploration {
    sequential::run(
        settings,
        prop::collection::vec(lru_op(), 0..20),
        lru_sequential::<V>,
    )
}
