//! Area `lru` (S2): batched activate_page through per-CPU pagevecs (744ed144, eb709b0d), with
//! the paths that take a page off the LRU while it is queued: migration (`isolate_lru_page`,
//! `unmap_and_move`, `putback_lru_page` through the `lru_add` pagevec), reclaim
//! (`shrink_inactive_list`: `__isolate_lru_page`, `activate_locked`, `putback_lru_pages`) and
//! truncation (the page cache's reference dropped).
//!
//! Pages are order-0 file pages in the page cache, on the zone's inactive file LRU. Who holds
//! which reference is written out per scenario: the page cache's (the main thread, or the CPU
//! that truncates), a reader's (`find_get_page`, around `activate_page`), a migration caller's
//! (`follow_page(FOLL_GET)`, dropped once the page is isolated).

use crate::sequential::{self, Settings};
use crate::{invariants, scenario, Model, Runner};
use mmcheck::checker::Exploration;
use mmcheck::ktrace;
use mmcheck::mm::filemap::{end_page_writeback, trylock_page, unlock_page};
use mmcheck::mm::list::{
    ghost_on_list, list_add, list_for_each_entry_safe, page_list, walk, ListId, INIT_LIST_HEAD,
};
use mmcheck::mm::lru::{
    add_page_to_lru_list, assert_not_queued, check_lru_counts, lru_add_drain, lru_lock,
    mark_page_accessed, page_cache_get, truncate_complete_page, truncate_inode_pages_range,
    unmap_and_move, CompactControl, Lru, Referenced, Shrink, LRU_LISTS, PAGEVEC_SIZE,
};
use mmcheck::mm::page_alloc::alloc_pages;
use mmcheck::mm::page_ref::PageRef;
use mmcheck::mm::unevictable::{page_evictable, shmem_lock};
use mmcheck::mm::{Mem, MemConfig, NR_CPUS};
use mmcheck::page::*;
use mmcheck::sync::{hardirq, join, run_as_cpu, smp_processor_id, spawn_cpu, spawn_irq};
use mmcheck::trace::{fail, harness_fail, Invariant};
use proptest::prelude::*;
use std::sync::Arc;

/// Every model of the area, for variant `V`.
pub fn models<V: Lru>() -> Vec<Model> {
    let mut models = vec![
        scenario!(activate_vs_migrate::<V>, 2, "CPU0 activates, drains, migrates the page (isolate, putback through lru_add) and drains; CPU1 activates and drains (Johannes Weiner's sequence)"),
        scenario!(activate_vs_truncate::<V>, 2, "CPU0 activates (holding a reader's reference), drops its reference and drains; CPU1 truncates (drops the page cache's reference)"),
        scenario!(activate_vs_truncate_range::<V>, 2, "as activate_vs_truncate, CPU1 truncating as the kernel does: truncate_inode_pages_range (pagevec_lookup's reference, truncate_inode_page, pagevec_release: lru_add_drain, then release_pages)"),
        scenario!(migrate_vs_activate::<V>, 2, "CPU0 migrates the inactive page (isolate, putback through lru_add) and drains; CPU1 activates and drains"),
        scenario!(truncate_vs_reclaim::<V>, 2, "CPU0 migrates the page and drains (the drain may free it); CPU1 truncates, then reclaim scans the inactive list"),
        scenario!(activate_vs_reclaim::<V>, 2, "pagevecs of 1: CPU0 activates (flushing at once) and drains; CPU1's reclaim isolates the page, activate_locked, putback_lru_pages"),
        scenario!(activate_vs_shrink_active::<V>, 2, "CPU0 activates the inactive page and drains; CPU1 activates it, then reclaim scans the active list (shrink_active_list: isolate, ClearPageActive, move_active_pages_to_lru)"),
        scenario!(activate_vs_shrink_active_exec::<V>, 2, "as activate_vs_shrink_active, the page referenced through a VM_EXEC file mapping: shrink_active_list keeps it active (l_active) and moves it back to the active list"),
        scenario!(activate_vs_compact::<V>, 2, "CPU0 activates the inactive page and drains; CPU1 activates it, then compaction isolates it (isolate_migratepages: ISOLATE_BOTH under lru_lock) and migrate_pages puts it back"),
        scenario!(migrate_vs_compact::<V>, 2, "CPU0 migrates the page (isolate, putback through lru_add) and drains; CPU1's compaction scans its frame (isolate_migratepages: ISOLATE_BOTH under lru_lock) and puts back what it took"),
        scenario!(reclaim_vs_shm_lock::<V>, 2, "the page's shmem file unevictable meanwhile: CPU0's reclaim scans the inactive list (cull_mlocked, or putback_lru_pages' !page_evictable branch: putback_lru_page to the unevictable list, smp_mb, recheck) and drains; CPU1 runs SHM_LOCK then SHM_UNLOCK (shmem_lock: AS_UNEVICTABLE set, cleared, scan_mapping_unevictable_pages)"),
        scenario!(activate_vs_cull::<V>, 2, "pagevecs of 1, the page's shmem file SHM_LOCKed: CPU0 accesses the referenced page (mark_page_accessed: activate_page, flushing at once); CPU1's reclaim scans the inactive list and culls the page to the unevictable list (cull_mlocked, putback_lru_page)"),
        scenario!(munlock_vs_cull::<V>, 2, "the page mlocked on the inactive list: CPU0's reclaim scans it (cull_mlocked: putback_lru_page to the unevictable list, smp_mb, recheck; or keep if PG_mlocked is already clear); CPU1 munlocks it (munlock_vma_page: TestClearPageMlocked, isolate_lru_page, putback_lru_page)"),
        scenario!(shm_unlock_vs_munlock::<V>, 2, "the page SHM_LOCKed, mlocked and on the unevictable list: CPU0 runs SHM_UNLOCK (shmem_lock: AS_UNEVICTABLE cleared, scan_mapping_unevictable_pages: check_move_unevictable_page rotates a still-mlocked page and retries); CPU1 munlocks it (munlock_vma_page: TestClearPageMlocked, isolate_lru_page, putback_lru_page)"),
        scenario!(rotate_vs_reclaim::<V>, 2, "pagevecs of 1, the page under writeback for reclaim (PG_writeback, PG_reclaim): idle CPU0 takes the interrupt that ends its writeback (end_page_writeback: rotate_reclaimable_page queues it on CPU0's lru_rotate pagevec and flushes it at once, pagevec_move_tail re-testing it under lru_lock); CPU1's reclaim scans the inactive list and keeps the page"),
        scenario!(rotate_vs_activate::<V>, 1, "pagevecs of 1, the page under writeback for reclaim: the interrupt of rotate_vs_reclaim cuts CPU0's activation of the page and its drain wherever CPU0 has interrupts on (its flush takes lru_lock in interrupt context)"),
        scenario!(rotate_vs_remote_activate::<V>, 2, "pagevecs of 1, the page under writeback for reclaim: idle CPU0 takes the interrupt of rotate_vs_reclaim; CPU1 activates the page and drains"),
        scenario!(rotate_vs_cull::<V>, 2, "pagevecs of 1, the page under writeback for reclaim and mlocked on the inactive list (an mlock whose isolation failed): idle CPU0 takes the interrupt of rotate_vs_reclaim; CPU1's reclaim scans the inactive list and culls the page to the unevictable list (cull_mlocked: putback_lru_page)"),
        scenario!(rotate_vs_mlock::<V>, 2, "pagevecs of 1, the page under writeback for reclaim: idle CPU0 takes the interrupt of rotate_vs_reclaim; CPU1 mlocks the page (trylock_page, mlock_vma_page: TestSetPageMlocked, isolate_lru_page, putback_lru_page to the unevictable list, unlock_page)"),
        scenario!(final_put_vs_reclaim::<V>, 2, "CPU0 truncates: the page cache's reference is the last one, and put_page frees the page off the LRU; CPU1's reclaim scans the inactive list"),
        scenario!(lru_soak::<V>, 4, "4 CPUs, 6 pages, pagevecs of 2: activation, migration, compaction, reclaim of both lists, truncation (shuttle soak)"),
        Model {
            name: "sequential",
            cpus: 0,
            about: "random activate/drain/migrate/reclaim (both lists)/compact sequences on pagevecs of 1, 2 or 14 against a reference model of each page's place",
            run: Runner::Sequential(sequential_proptest::<V>),
        },
    ];
    // lru.9: deactivate_page() exists from 2.6.39 on (315601809d): of the modelled versions only
    // eb709b0d's 3.0 text has it, and 2.6.37 and 744ed144 have no such model.
    if V::DEACTIVATE_PAGE {
        models.push(scenario!(migrate_vs_deactivate::<V>, 2, "setup: the page activated; CPU0 migrates it (isolate, putback through lru_add) and drains; CPU1 deactivates it (deactivate_page) and drains"));
    }
    models
}

/// An S2 machine of `nr_pages` frames whose pagevecs hold `pagevec_size` pages.
pub fn machine(nr_pages: usize, pagevec_size: usize) -> Arc<Mem> {
    Arc::new(Mem::with_pagevec_size(
        MemConfig::small(nr_pages),
        pagevec_size,
    ))
}

/// `add_to_page_cache_lru(page, ...)` reduced: a new page-cache page (refcount 1, the page
/// cache's reference) put on the inactive file LRU (`lru_cache_add_file`, drained at once).
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

/// A reference a CPU takes before it works on the page (`find_get_page`, `follow_page`
/// with FOLL_GET), taken in setup for the CPU that will drop it.
pub fn get_ref(m: &Mem, page: PagePtr) -> PageRef {
    page_cache_get(m, page);
    PageRef::adopt(m, page)
}

/// A migration of one page by this CPU that leaves it where it is (`do_move_page_to_node_array`
/// → `migrate_pages` → `unmap_and_move`): `isolate_lru_page(page)`, `list_add_tail(&page->lru,
/// &pagelist)`, the caller's `follow_page` reference dropped (`put_page`: the isolation holds
/// it now), then `unmap_and_move()` takes it off the list and puts it back
/// (`putback_lru_page`, through this CPU's `lru_add` pagevec). Where the page cache's
/// reference is held throughout (`follow` None), the caller's own reference is left out: it
/// only ever meets a count the page cache already keeps above zero.
pub fn migrate_page<V: Lru>(m: &Mem, page: PagePtr, follow: Option<PageRef>) {
    let pagelist = page_list(smp_processor_id());
    INIT_LIST_HEAD(m, pagelist);
    let isolated = V::isolate_lru_page(m, page) == 0;
    if isolated {
        list_add(m, page, pagelist);
        ktrace!("migrate_pages", "list_add({page:?}, pagelist)");
    }
    if let Some(follow) = follow {
        follow.release(m); // put_page(page)
    }
    if isolated {
        unmap_and_move::<V>(m, page);
    }
}

/// The S2 end-of-scenario invariants, after every CPU's pagevecs were drained: every page is on
/// at most one list (an LRU list) or free; PG_lru iff on an LRU list; PG_active iff on the
/// active list; no page queued in a pagevec; each LRU list as long as its zone count;
/// `_count` equals the references the scenario's holders still have. In a run that models the
/// unevictable list (lru.14 to lru.17) also: PG_unevictable iff on the unevictable list,
/// and no page there is evictable (`Invariant::StrandedUnevictable`).
pub fn check_lru_state(m: &Mem) {
    let mut seen: Vec<Option<ListId>> = vec![None; m.map.nr_pages()];
    for l in LRU_LISTS {
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
    check_lru_counts(m, "end of scenario");
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
        if m.map.models_unevictable() {
            if on_lru && PageUnevictable(p) != (on == Some(ListId::Unevictable)) {
                fail(
                    "end of scenario",
                    Invariant::FlagsMismatch,
                    format!(
                        "{page:?}: PG_unevictable {} but on {on:?}",
                        PageUnevictable(p)
                    ),
                );
            }
            if on == Some(ListId::Unevictable) && page_evictable(m, page) {
                fail(
                    "end of scenario",
                    Invariant::StrandedUnevictable,
                    format!(
                        "{page:?} is evictable (its mapping is not AS_UNEVICTABLE) but left on \
                         the unevictable list: nothing will move it back"
                    ),
                );
            }
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
        if p.ghost_allocated() && p.ghost_pins() > 0 && !on_lru {
            fail(
                "end of scenario",
                Invariant::FlagsMismatch,
                format!("{page:?} is in the page cache but on no LRU list"),
            );
        }
    }
}

/// Drain every CPU's pagevecs (`lru_add_drain_all()`: the drain runs as each CPU; here the
/// main thread does it after every CPU has stopped).
pub fn drain_all<V: Lru>(m: &Mem) {
    for cpu in 0..NR_CPUS {
        run_as_cpu(cpu, || V::drain_cpu_pagevecs(m, cpu));
    }
}

/// The end of every S2 scenario: drain every CPU, check the LRU state, drop the references
/// still held (the page cache's: truncation), and check every frame went back.
fn finish<V: Lru>(m: &Mem, held: Vec<PageRef>) {
    drain_all::<V>(m);
    check_lru_state(m);
    for r in held {
        r.release(m);
    }
    invariants::all_pages_freed(m);
}

/// lru.1, lru.2, lru.3 — Johannes Weiner's sequence ("hunting an IO hang", 17 Jan 2011): CPU A
/// and B schedule activation of a page; A flushes it to the active list; A isolates it for
/// migration and puts it on its private list; B flushes; A does `list_del()` from its list.
///
/// * setup: one page-cache page P on the inactive file LRU; the page cache's reference stays
///   with the main thread (it also keeps the count of the migration's caller above zero).
/// * CPU0: `activate_page(P)`, `lru_add_drain()`, migrate P (isolate, unmap_and_move's
///   `list_del` + `putback_lru_page`), `lru_add_drain()`.
/// * CPU1: `activate_page(P)`, `lru_add_drain()`.
pub fn activate_vs_migrate<V: Lru>() {
    let m = machine(1, PAGEVEC_SIZE);
    let (page, pc) = add_to_page_cache_lru(&m);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        V::activate_page(&m0, page);
        lru_add_drain::<V>(&m0);
        migrate_page::<V>(&m0, page, None);
        lru_add_drain::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        V::activate_page(&m1, page);
        lru_add_drain::<V>(&m1);
    });
    join(cpu0);
    join(cpu1);
    finish::<V>(&m, vec![pc]);
}

/// lru.4 — truncation while the page is queued: the pagevec's reference is what keeps it.
///
/// * setup: one page-cache page P on the inactive file LRU; CPU1 holds the page cache's
///   reference, CPU0 a reader's (`find_get_page`).
/// * CPU0: `activate_page(P)`, drops its reader's reference (`page_cache_release`),
///   `lru_add_drain()`.
/// * CPU1: `truncate_complete_page(P)`: the page cache's reference goes.
pub fn activate_vs_truncate<V: Lru>() {
    activate_racing_truncation::<V>(truncate_complete_page::<V>);
}

/// lru.12 — lru.4 with truncation as the kernel runs it: CPU1 runs
/// `truncate_inode_pages_range()` of P's mapping (`pagevec_lookup` takes its own reference,
/// `truncate_inode_page` drops the page cache's, and `pagevec_release` drains CPU1's pagevecs
/// and drops the lookup's reference in `release_pages`, under `lru_lock` when it is the last).
pub fn activate_vs_truncate_range<V: Lru>() {
    activate_racing_truncation::<V>(|m, pc| truncate_inode_pages_range::<V>(m, vec![pc]));
}

/// lru.4 and lru.12: CPU0 activates P holding a reader's reference, drops it and drains; CPU1
/// truncates P (`truncate`, given the page cache's reference).
fn activate_racing_truncation<V: Lru>(truncate: fn(&Mem, PageRef)) {
    let m = machine(1, PAGEVEC_SIZE);
    let (page, pc) = add_to_page_cache_lru(&m);
    let reader = get_ref(&m, page);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        V::activate_page(&m0, page);
        reader.release(&m0);
        lru_add_drain::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || truncate(&m1, pc));
    join(cpu0);
    join(cpu1);
    finish::<V>(&m, vec![]);
}

/// lru.5 — migration of an inactive page while another CPU's activation is queued.
///
/// * setup: one page-cache page P on the inactive file LRU (page cache reference: main
///   thread, which also keeps the count of the migration's caller above zero).
/// * CPU0: migrate P (isolate, `list_del` + `putback_lru_page`), `lru_add_drain()`.
/// * CPU1: `activate_page(P)`, `lru_add_drain()`.
pub fn migrate_vs_activate<V: Lru>() {
    let m = machine(1, PAGEVEC_SIZE);
    let (page, pc) = add_to_page_cache_lru(&m);
    migrate_racing::<V>(m, page, pc, V::activate_page);
}

/// The CPUs of lru.5 and lru.9: CPU0 migrates `page` (isolate, `list_del` +
/// `putback_lru_page` through the `lru_add` pagevec) and drains; CPU1 runs `queue` on it
/// (`activate_page`, `deactivate_page`) and drains. Then the end checks, the page cache's
/// reference `pc` dropped last.
fn migrate_racing<V: Lru>(m: Arc<Mem>, page: PagePtr, pc: PageRef, queue: fn(&Mem, PagePtr)) {
    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        migrate_page::<V>(&m0, page, None);
        lru_add_drain::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        queue(&m1, page);
        lru_add_drain::<V>(&m1);
    });
    join(cpu0);
    join(cpu1);
    finish::<V>(&m, vec![pc]);
}

/// lru.9 — migration of an active page while another CPU's deactivation is queued (3.0:
/// `deactivate_page()`, 315601809d, 2.6.39, from `invalidate_mapping_pages()` for a page it
/// could not drop; only versions that have it run this model).
///
/// * setup: one page-cache page P on the inactive file LRU (page cache reference: main
///   thread), activated before the CPUs start (`activate_page(P)`, `lru_add_drain()` on CPU0):
///   P is on the active list with PG_active.
/// * CPU0: migrate P (isolate, `list_del` + `putback_lru_page` through the `lru_add` pagevec),
///   `lru_add_drain()`.
/// * CPU1: `deactivate_page(P)`, `lru_add_drain()` (its `lru_deactivate_pvecs` drain runs
///   `lru_deactivate_fn` under `lru_lock`).
pub fn migrate_vs_deactivate<V: Lru>() {
    let m = machine(1, PAGEVEC_SIZE);
    let (page, pc) = add_to_page_cache_lru(&m);
    run_as_cpu(0, || {
        V::activate_page(&m, page);
        lru_add_drain::<V>(&m);
    });
    migrate_racing::<V>(m, page, pc, V::deactivate_page);
}

/// lru.6 — a drain frees the page while reclaim scans the list it is on.
///
/// * setup: one page-cache page P on the inactive file LRU; CPU1 holds the page cache's
///   reference, CPU0 a `follow_page` reference.
/// * CPU0: migrate P (isolate; `unmap_and_move` sees "page was freed from under us" if the
///   truncation came first; `list_del`, `putback_lru_page` through the `lru_add` pagevec),
///   `lru_add_drain()`: `____pagevec_lru_add` links P on the inactive list, then
///   `release_pages` drops the pagevec's reference, the last one if P was truncated.
/// * CPU1: `truncate_complete_page(P)`, then `shrink_inactive_list()` of the inactive file list
///   (P, if it finds it, has no mapping: `keep_locked`).
pub fn truncate_vs_reclaim<V: Lru>() {
    let m = machine(1, PAGEVEC_SIZE);
    let (page, pc) = add_to_page_cache_lru(&m);
    let follow = get_ref(&m, page);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        migrate_page::<V>(&m0, page, Some(follow));
        lru_add_drain::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        truncate_complete_page::<V>(&m1, pc);
        V::shrink_inactive_list(&m1, 1, &|_| Shrink::Keep);
    });
    join(cpu0);
    join(cpu1);
    finish::<V>(&m, vec![]);
}

/// lru.7 — pagevecs of one entry: activation flushes as it queues, and reclaim's putback
/// flushes its pagevec (and 744ed144's `putback_active_lru_page` its activate pagevec) with
/// `lru_lock` dropped and retaken.
///
/// * setup: one page-cache page P on the inactive file LRU (page cache reference: main
///   thread), mapped and referenced.
/// * CPU0: `activate_page(P)`, `lru_add_drain()`.
/// * CPU1: `shrink_inactive_list()` of the inactive file list: `__isolate_lru_page`,
///   `activate_locked` (referenced ptes), `putback_lru_pages`.
pub fn activate_vs_reclaim<V: Lru>() {
    let m = machine(1, 1);
    let (page, pc) = add_to_page_cache_lru(&m);
    activate_racing::<V>(m, page, pc, |m, _| {
        V::shrink_inactive_list(m, 1, &|_| Shrink::Activate);
    });
}

/// The CPUs of lru.7, lru.10, lru.10-exec and lru.11: CPU0 runs `activate_page(page)` and
/// drains; CPU1 runs `cpu1` on the page (reclaim's scan of either list, or compaction). Then the
/// end checks, the page cache's reference `pc` dropped last.
fn activate_racing<V: Lru>(
    m: Arc<Mem>,
    page: PagePtr,
    pc: PageRef,
    cpu1: impl FnOnce(&Mem, PagePtr) + Send + 'static,
) {
    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        V::activate_page(&m0, page);
        lru_add_drain::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || cpu1(&m1, page));
    join(cpu0);
    join(cpu1);
    finish::<V>(&m, vec![pc]);
}

/// lru.10 — reclaim's scan of the active list (`shrink_active_list`) while another CPU's
/// activation of the page is queued: between its isolation and `ClearPageActive()` the page is
/// `!PageLRU && PageActive`, which 744ed144's `__activate_page()` reads as a page reclaim's
/// `putback_lru_pages()` queued. The second way to 744ed144's bug: no migration, the page's
/// own reclaim.
///
/// * setup: one page-cache page P on the inactive file LRU (page cache reference: main
///   thread), unmapped (`page_referenced()` finds nothing).
/// * CPU0: `activate_page(P)`, `lru_add_drain()`.
/// * CPU1: `activate_page(P)`, then `shrink_active_list()` of the active file list, whose
///   `lru_add_drain()` first flushes CPU1's own activation: P is active, then isolated,
///   deactivated (`ClearPageActive`) and moved to the inactive list.
pub fn activate_vs_shrink_active<V: Lru>() {
    activate_racing_shrink_active::<V>(Referenced::No);
}

/// lru.10-exec — lru.10 with a page that `page_referenced()` finds young in a VM_EXEC file
/// mapping: `shrink_active_list()` keeps it active ("one more trip around the active list":
/// `l_active`, PG_active never cleared) and `move_active_pages_to_lru()` puts it back on the
/// active list. The window 744ed144 misreads (`!PageLRU && PageActive`) lasts from isolation to
/// that move.
///
/// * setup, CPU0: as lru.10.
/// * CPU1: `activate_page(P)`, then `shrink_active_list()` of the active file list, P
///   referenced through a VM_EXEC mapping.
pub fn activate_vs_shrink_active_exec<V: Lru>() {
    activate_racing_shrink_active::<V>(Referenced::Exec);
}

/// lru.10's and lru.10-exec's scenario: `page_referenced()` finds `referenced` on P.
fn activate_racing_shrink_active<V: Lru>(referenced: Referenced) {
    let m = machine(1, PAGEVEC_SIZE);
    let (page, pc) = add_to_page_cache_lru(&m);
    activate_racing::<V>(m, page, pc, move |m, page| {
        V::activate_page(m, page);
        V::shrink_active_list(m, 1, &|_| referenced);
    });
}

/// One round of compaction of the zone by this CPU (`compact_zone()`, mm/compaction.c, as
/// `try_to_compact_pages()` or a write to /proc/sys/vm/compact_memory runs it):
/// `migrate_prep_local()` (= `lru_add_drain()`), `isolate_migratepages()` of the machine's one
/// pageblock, then `migrate_pages(&cc->migratepages, compaction_alloc, ...)`, whose
/// `unmap_and_move()` takes each page off the list and puts it back (the model never moves a
/// page), so compact_zone's `putback_lru_pages(&cc->migratepages)` of what is left finds the
/// list empty. The free scanner, `compact_finished()` and the vm events are not modelled.
pub fn compact_zone<V: Lru>(m: &Mem) {
    let mut cc = CompactControl {
        migratepages: page_list(smp_processor_id()),
        nr_migratepages: 0,
        migrate_pfn: 0,
    };
    INIT_LIST_HEAD(m, cc.migratepages);
    lru_add_drain::<V>(m); // migrate_prep_local()
    if V::isolate_migratepages(m, &mut cc) == 0 {
        return;
    }
    migrate_pages::<V>(m, cc.migratepages);
}

/// `migrate_pages(from, get_new_page, private, offlining)` (mm/migrate.c) reduced to its first
/// pass: `unmap_and_move()` of each page on `from` (`list_for_each_entry_safe`), which in the
/// models never moves a page and takes each off the list to put it back.
pub fn migrate_pages<V: Lru>(m: &Mem, from: ListId) {
    list_for_each_entry_safe(m, from, |page| unmap_and_move::<V>(m, page));
}

/// lru.11 — compaction's migrate scanner isolates the page while another CPU's activation of
/// it is queued: the path of the first crash trace in the "hunting an IO hang" thread (Chris
/// Mason, 16 Jan 2011: `compact_zone` -> `migrate_pages`). `isolate_migratepages()` takes
/// active and inactive pages alike (`ISOLATE_BOTH`) and leaves PG_active set: the page is
/// `!PageLRU && PageActive` on the migration list until `putback_lru_page()` clears PG_active,
/// which 744ed144's `__activate_page()` reads as a reclaim putback.
///
/// * setup: one page-cache page P on the inactive file LRU (page cache reference: main
///   thread); nobody else holds a reference: the scanner takes its own under `lru_lock`.
/// * CPU0: `activate_page(P)`, `lru_add_drain()`.
/// * CPU1: `activate_page(P)`, then compaction (`compact_zone()`: `lru_add_drain()` flushes
///   CPU1's activation first, `isolate_migratepages()`, `unmap_and_move()`'s putback through
///   CPU1's `lru_add` pagevec).
pub fn activate_vs_compact<V: Lru>() {
    let m = machine(1, PAGEVEC_SIZE);
    let (page, pc) = add_to_page_cache_lru(&m);
    activate_racing::<V>(m, page, pc, |m, page| {
        V::activate_page(m, page);
        compact_zone::<V>(m);
    });
}

/// lru.13 — compaction's migrate scanner meets a page another CPU's migration holds off the
/// LRU (isolated, or queued for its putback). The scanner walks pfns, not an LRU list, so it
/// reaches pages that are on no LRU list at all; a PageLRU test under `lru_lock` keeps it off
/// them: in 2.6.37's scanner (the model's shared one) `__isolate_lru_page()`'s first test,
/// "Only take pages on the LRU", alone; from 2.6.38 the scanner's own test just before it.
///
/// * setup: one page-cache page P on the inactive file LRU (page cache reference: main
///   thread).
/// * CPU0: migrates P (`isolate_lru_page()` onto its migration list, `unmap_and_move()`'s
///   putback through CPU0's `lru_add` pagevec), then `lru_add_drain()`.
/// * CPU1: compaction (`compact_zone()`: `lru_add_drain()`, `isolate_migratepages()` of P's
///   frame, `unmap_and_move()`'s putback through CPU1's `lru_add` pagevec).
pub fn migrate_vs_compact<V: Lru>() {
    let m = machine(1, PAGEVEC_SIZE);
    let (page, pc) = add_to_page_cache_lru(&m);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        migrate_page::<V>(&m0, page, None);
        lru_add_drain::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || compact_zone::<V>(&m1));
    join(cpu0);
    join(cpu1);
    finish::<V>(&m, vec![pc]);
}

/// lru.14 — reclaim meets a page whose shmem file is SHM_LOCKed and unlocked meanwhile: the
/// unevictable routes back to the LRU (`shrink_page_list`'s `cull_mlocked`, and
/// `putback_lru_pages`' `!page_evictable` branch, which drops `lru_lock` mid-loop) and
/// `putback_lru_page`'s recheck (`redo:`) against SHM_UNLOCK's rescan.
///
/// * setup: one page-cache page P of a shmem file on the inactive file LRU (page cache
///   reference: CPU1's, the file's); the run models unevictable pages.
/// * CPU0: `shrink_inactive_list()` of the inactive file list (P referenced once,
///   `PAGEREF_KEEP`: if its file is evictable when `shrink_page_list()` tests it, it is kept
///   for `putback_lru_pages()`, else culled to `putback_lru_page()`), then `lru_add_drain()`.
/// * CPU1: `shmctl(SHM_LOCK)` then `shmctl(SHM_UNLOCK)`: `shmem_lock(file, 1, user)`,
///   `shmem_lock(file, 0, user)` (`mapping_clear_unevictable()`,
///   `scan_mapping_unevictable_pages()`).
/// * end: every CPU drained; the end checks with the unevictable ones (`check_lru_state`).
pub fn reclaim_vs_shm_lock<V: Lru>() {
    let m = machine(1, PAGEVEC_SIZE);
    m.map.set_models_unevictable();
    let (_page, pc) = add_to_page_cache_lru(&m);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        V::shrink_inactive_list(&m0, 1, &|_| Shrink::Keep);
        lru_add_drain::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        let cache = vec![pc];
        shmem_lock::<V>(&m1, true, &cache); // shmctl(SHM_LOCK)
        shmem_lock::<V>(&m1, false, &cache); // shmctl(SHM_UNLOCK)
        cache
    });
    join(cpu0);
    let cache = join(cpu1);
    finish::<V>(&m, cache);
}

/// lru.15 — an activation queued for a page that reclaim then culls to the unevictable list:
/// `mark_page_accessed()` tests PG_unevictable without `lru_lock`, so the activation
/// (`activate_page()`: eb709b0d's queued `__activate_page()`, 2.6.37's locked move) can reach
/// a page that is on the unevictable list by then; its own `!PageUnevictable` test under
/// `lru_lock` keeps the page there.
///
/// * setup: one page-cache page P of a shmem file on the inactive file LRU, referenced once
///   (`mark_page_accessed()`: PG_referenced); then `shmctl(SHM_LOCK)` (`shmem_lock(file, 1,
///   user)`): the file is unevictable, P stays where it is until reclaim meets it; the run
///   models unevictable pages. Pagevecs of one: eb709b0d's `activate_page()` flushes its
///   pagevec at once (`pagevec_lru_move_fn()` with `__activate_page()`), so no CPU needs a
///   separate `lru_add_drain()`.
/// * CPU0: `mark_page_accessed(P)` (referenced, inactive, not PG_unevictable: `activate_page()`).
/// * CPU1: `shrink_inactive_list()` of the inactive file list: P is not evictable
///   (`cull_mlocked`): `putback_lru_page()` puts it on the unevictable list.
/// * end: every CPU drained; the end checks with the unevictable ones (`check_lru_state`).
pub fn activate_vs_cull<V: Lru>() {
    let m = machine(1, 1);
    m.map.set_models_unevictable();
    let (page, pc) = add_to_page_cache_lru(&m);
    mark_page_accessed::<V>(&m, page); // an earlier access: PG_referenced
    let cache = vec![pc];
    shmem_lock::<V>(&m, true, &cache); // shmctl(SHM_LOCK)

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || mark_page_accessed::<V>(&m0, page));
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        V::shrink_inactive_list(&m1, 1, &|_| Shrink::Keep);
    });
    join(cpu0);
    join(cpu1);
    finish::<V>(&m, cache);
}

/// `munlock(2)` of the one vma that maps `page`, by this CPU, as `munlock_vma_pages_range()`
/// (mm/mlock.c) does it: `lru_add_drain()`, `vma->vm_flags &= ~VM_LOCKED` (a trace line: the
/// LRU models have no vma), then, under `lock_page()` and the `page->mapping` test (neither
/// modelled: proofs/lru.16.md, Left out), `munlock_vma_page()`. Its `follow_page(FOLL_GET)`
/// reference is left out: the page cache's reference is held throughout (as `migrate_page`'s
/// caller's).
pub fn munlock_one_page<V: Lru>(m: &Mem, page: PagePtr) {
    lru_add_drain::<V>(m);
    ktrace!("munlock_vma_pages_range", "vma->vm_flags &= ~VM_LOCKED");
    V::munlock_vma_page(m, page);
}

/// lru.16 — munlock against reclaim's cull: reclaim finds a page mlocked and culls it to the
/// unevictable list (`cull_mlocked`: `putback_lru_page()` with no page lock held), while
/// munlock clears PG_mlocked (`munlock_vma_page()`: `TestClearPageMlocked()`, then
/// `isolate_lru_page()` and `putback_lru_page()`). The race `putback_lru_page()`'s comment
/// names ("The other side is TestClearPageMlocked()"): either munlock's isolation sees the
/// page on the unevictable list and puts it back, or putback's recheck sees PG_mlocked clear.
///
/// * setup: one page-cache page P of a file (its mapping evictable) on the inactive file LRU
///   with PG_mlocked set: the state `mlock_vma_page()` leaves when its `isolate_lru_page()`
///   fails (the page was in a pagevec or isolated elsewhere) and the page is then put back
///   evictable ("worst case is we end up with an unevictable page on [in]active list"); the
///   run models mlock. The page cache's reference stays with the main thread.
/// * CPU0: `shrink_inactive_list()` of the inactive file list (if PG_mlocked is still set when
///   `shrink_page_list()` tests it: `cull_mlocked`, `putback_lru_page()`; else `keep_locked`,
///   `putback_lru_pages()`).
/// * CPU1: `munlock(2)` of the one vma mapping P (`munlock_one_page`).
/// * end: every CPU drained; the end checks with the unevictable ones (`check_lru_state`).
pub fn munlock_vs_cull<V: Lru>() {
    let m = machine(1, PAGEVEC_SIZE);
    m.map.set_models_mlock();
    let (page, pc) = add_to_page_cache_lru(&m);
    SetPageMlocked(m.pg(page)); // an mlock whose isolate_lru_page failed

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        V::shrink_inactive_list(&m0, 1, &|_| Shrink::Keep);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || munlock_one_page::<V>(&m1, page));
    join(cpu0);
    join(cpu1);
    finish::<V>(&m, vec![pc]);
}

/// lru.17 — SHM_UNLOCK's rescan against munlock of a page on the unevictable list that is
/// both SHM_LOCKed and mlocked: the rescan (`check_move_unevictable_page()` under `lru_lock`)
/// finds the page still mlocked and rotates it, then tests `page_evictable()` again (`goto
/// retry`); munlock clears PG_mlocked with no lock and then isolates the page.
///
/// * setup: one page-cache page P of a shmem file, SHM_LOCKed (`shmem_lock(file, 1, user)`)
///   and mlocked (PG_mlocked set), culled to the unevictable list (`isolate_lru_page()`,
///   `putback_lru_page()`); the run models mlock.
/// * CPU0: `shmctl(SHM_UNLOCK)`: `shmem_lock(file, 0, user)` (`mapping_clear_unevictable()`,
///   `scan_mapping_unevictable_pages()`).
/// * CPU1: `munlock(2)` of the one vma mapping P (`munlock_one_page`).
/// * end: every CPU drained; the end checks with the unevictable ones (`check_lru_state`).
pub fn shm_unlock_vs_munlock<V: Lru>() {
    let m = machine(1, PAGEVEC_SIZE);
    m.map.set_models_mlock();
    let (page, pc) = add_to_page_cache_lru(&m);
    let cache = vec![pc];
    shmem_lock::<V>(&m, true, &cache); // shmctl(SHM_LOCK)
    SetPageMlocked(m.pg(page)); // mlock: TestSetPageMlocked()
    if V::isolate_lru_page(&m, page) == 0 {
        V::putback_lru_page(&m, page); // culled: to the unevictable list
    }

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        shmem_lock::<V>(&m0, false, &cache); // shmctl(SHM_UNLOCK)
        cache
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || munlock_one_page::<V>(&m1, page));
    let cache = join(cpu0);
    join(cpu1);
    finish::<V>(&m, cache);
}

/// A page-cache page on the inactive file LRU of a machine with pagevecs of one, under
/// writeback for reclaim: `pageout()` set PG_reclaim, then the filesystem's `->writepage()`
/// PG_writeback (lru.18, lru.19). The page cache's reference stays with the main thread.
fn page_under_writeback() -> (Arc<Mem>, PagePtr, PageRef) {
    let m = machine(1, 1);
    let (page, pc) = add_to_page_cache_lru(&m);
    SetPageReclaim(m.pg(page)); // pageout(): SetPageReclaim(page), then ->writepage()
    SetPageWriteback(m.pg(page)); // ->writepage(): set_page_writeback(page)
    (m, page, pc)
}

/// lru.18 — the end of a page's writeback, in interrupt context, rotating the page to the tail
/// of the inactive list (`end_page_writeback()` → `rotate_reclaimable_page()`: unlocked flag
/// tests, a reference, CPU0's `lru_rotate_pvecs` with interrupts off; pagevecs of one, so the
/// flush, `pagevec_move_tail()`, runs in the interrupt and re-tests the flags under
/// `lru_lock`) against reclaim on the other CPU, which may isolate the page between the
/// unlocked tests and the locked ones.
///
/// * setup: `page_under_writeback`.
/// * CPU0, idle: the disk's completion interrupt, `end_page_writeback(P)` (nothing of CPU0's
///   own runs, so nothing is cut: lru.19 has that).
/// * CPU1: `shrink_inactive_list()` of the inactive file list: P is a mapped page referenced
///   once, kept whether it is taken under writeback (`shrink_page_list()`'s `PageWriteback`
///   test: asynchronous reclaim goes to `keep_lumpy`) or after (`PAGEREF_KEEP`).
pub fn rotate_vs_reclaim<V: Lru>() {
    idle_cpu0_irq_vs::<V>(
        page_under_writeback(),
        |m, _| {
            V::shrink_inactive_list(m, 1, &|_| Shrink::Keep);
        },
        |_, _| {},
    );
}

/// The CPUs of lru.18, lru.20, lru.21 and lru.22: idle CPU0 takes the disk's completion interrupt,
/// `end_page_writeback(P)`, for the setup's page P (`page_under_writeback`); CPU1 runs `cpu1` on P.
/// Then `end` on the main thread, and the end checks, the page cache's reference dropped last.
fn idle_cpu0_irq_vs<V: Lru>(
    (m, page, pc): (Arc<Mem>, PagePtr, PageRef),
    cpu1: impl FnOnce(&Mem, PagePtr) + Send + 'static,
    end: impl FnOnce(&Mem, PagePtr),
) {
    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        hardirq("end_page_writeback", || end_page_writeback::<V>(&m0, page))
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || cpu1(&m1, page));
    join(cpu0);
    join(cpu1);
    end(&m, page);
    finish::<V>(&m, vec![pc]);
}

/// lru.19 — the same interrupt cutting CPU0's own activation of the page: the rotation's
/// flush takes `lru_lock` in interrupt context, so every holder of `lru_lock` on CPU0 must
/// have interrupts off (`spin_lock_irq`, `spin_lock_irqsave`), or the interrupt spins on the
/// lock its own CPU holds.
///
/// * setup: `page_under_writeback`; the interrupt is raised on CPU0 once and runs wherever
///   CPU0's code has interrupts on, or after that code (`spawn_irq`).
/// * CPU0: `activate_page(P)` (pagevecs of one: 3.0 and 744ed144 flush at once, through
///   `pagevec_lru_move_fn()`), `lru_add_drain()`.
pub fn rotate_vs_activate<V: Lru>() {
    let (m, page, pc) = page_under_writeback();
    let mi = m.clone();
    let irq = spawn_irq(0, "end_page_writeback", move || {
        end_page_writeback::<V>(&mi, page)
    });
    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        V::activate_page(&m0, page);
        lru_add_drain::<V>(&m0);
    });
    join(irq);
    join(cpu0);
    finish::<V>(&m, vec![pc]);
}

/// lru.20 — the interrupt of lru.18 against an activation of the page on the other CPU:
/// between `rotate_reclaimable_page()`'s unlocked `!PageActive` test and the flush's locked
/// one, CPU1 may move the page to the active list; the flush must leave it there.
///
/// * setup: `page_under_writeback`.
/// * CPU0, idle: the disk's completion interrupt, `end_page_writeback(P)`.
/// * CPU1: `activate_page(P)` (pagevecs of one: 3.0 and 744ed144 flush at once),
///   `lru_add_drain()`.
pub fn rotate_vs_remote_activate<V: Lru>() {
    idle_cpu0_irq_vs::<V>(
        page_under_writeback(),
        |m, page| {
            V::activate_page(m, page);
            lru_add_drain::<V>(m);
        },
        |_, _| {},
    );
}

/// lru.21 — the interrupt of lru.18 against reclaim culling the page to the unevictable list
/// (KOSAKI Motohiro, 2008: "even under writebacking, page can move to unevictable list"):
/// between `rotate_reclaimable_page()`'s unlocked `!PageUnevictable` test and the flush's
/// locked one, CPU1 may isolate the page and put it back on the unevictable list; the flush
/// must leave it there.
///
/// * setup: `page_under_writeback`, and P mlocked (PG_mlocked set) while it stayed on the
///   inactive list: the state `mlock_vma_page()` leaves when its `isolate_lru_page()` fails
///   (lru.16); the run models mlock. `shrink_page_list()` tests `page_evictable()` before
///   `PageWriteback()`, so reclaim culls a page under writeback.
/// * CPU0, idle: the disk's completion interrupt, `end_page_writeback(P)`.
/// * CPU1: `shrink_inactive_list()` of the inactive file list: P is not evictable
///   (`cull_mlocked`): `putback_lru_page()` puts it on the unevictable list.
/// * end: the mlock ends (`munlock_one_page` on the main thread, once both CPUs are done: in
///   3.0 the page allocator would clear PG_mlocked at the free, the shared 3.10 one reports it
///   as a bad page), then the end checks with the unevictable ones (`check_lru_state`).
pub fn rotate_vs_cull<V: Lru>() {
    let (m, page, pc) = page_under_writeback();
    m.map.set_models_mlock();
    SetPageMlocked(m.pg(page)); // an mlock whose isolate_lru_page failed
    idle_cpu0_irq_vs::<V>(
        (m, page, pc),
        |m, _| {
            V::shrink_inactive_list(m, 1, &|_| Shrink::Keep);
        },
        |m, page| munlock_one_page::<V>(m, page), // the mlock ends: munlock(2), once both are done
    );
}

/// `mlock(2)` of the one vma that maps `page`, by this CPU, for one page as 3.0's
/// `follow_page()` with FOLL_MLOCK (mm/memory.c) does it: `page->mapping && trylock_page()`
/// (the mapping tests are not modelled: the page stays in the page cache; nothing else locks
/// the page, so the trylock succeeds), `lru_add_drain()`, `mlock_vma_page()`, `unlock_page()`.
/// 2.6.37's `__mlock_vma_pages_range()` drains first, then `lock_page()`: the same steps here,
/// where this CPU's pagevecs are empty (proofs/lru.22.md, "Kernel code"). The vma's VM_LOCKED
/// (set by `mlock_fixup()` under `mmap_sem`) and `get_user_pages()`' reference are left out:
/// the page cache's reference is held throughout.
pub fn mlock_one_page<V: Lru>(m: &Mem, page: PagePtr) {
    ktrace!("mlock_fixup", "vma->vm_flags = newflags (VM_LOCKED)");
    if trylock_page(m, page) {
        lru_add_drain::<V>(m);
        V::mlock_vma_page(m, page);
        unlock_page(m, page);
    }
}

/// lru.22 — the interrupt of lru.18 against mlock moving the page to the unevictable list:
/// lru.21's race with the shortest way to the unevictable list. Between
/// `rotate_reclaimable_page()`'s unlocked tests (`!PageLocked`, `!PageUnevictable` among
/// them) and the flush's locked ones, CPU1 may lock the page, set PG_mlocked, isolate it and
/// put it back on the unevictable list (`mlock_vma_page()`); the flush must leave it there.
///
/// * setup: `page_under_writeback`; the run models mlock.
/// * CPU0, idle: the disk's completion interrupt, `end_page_writeback(P)`.
/// * CPU1: `mlock(2)` of the one vma mapping P (`mlock_one_page`).
/// * end: the mlock ends (`munlock_one_page` on the main thread, once both CPUs are done, as
///   in lru.21), then the end checks with the unevictable ones (`check_lru_state`).
pub fn rotate_vs_mlock<V: Lru>() {
    let (m, page, pc) = page_under_writeback();
    m.map.set_models_mlock();
    idle_cpu0_irq_vs::<V>(
        (m, page, pc),
        |m, page| mlock_one_page::<V>(m, page),
        |m, page| munlock_one_page::<V>(m, page), // the mlock ends: munlock(2), once both are done
    );
}

/// lru.8 — the final put of a page that is on the LRU (`put_page` → `__put_single_page` →
/// `__page_cache_release`) while reclaim scans its list: "the page release code relies on"
/// PG_lru staying set until the page count is seen to be zero under `lru_lock`.
///
/// * setup: one page-cache page P on the inactive file LRU; CPU0 holds the page cache's
///   reference, the only one.
/// * CPU0: `truncate_complete_page(P)`: the last reference goes; P is taken off the LRU under
///   `lru_lock` and freed.
/// * CPU1: `shrink_inactive_list()` of the inactive file list (P, if it takes it first, is a
///   mapped page referenced once, `PAGEREF_KEEP`, or already truncated, `!mapping`: both
///   `keep_locked`).
pub fn final_put_vs_reclaim<V: Lru>() {
    let m = machine(1, PAGEVEC_SIZE);
    let (_page, pc) = add_to_page_cache_lru(&m);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || truncate_complete_page::<V>(&m0, pc));
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        V::shrink_inactive_list(&m1, 1, &|_| Shrink::Keep);
    });
    join(cpu0);
    join(cpu1);
    finish::<V>(&m, vec![]);
}

/// The S2 soak (shuttle): 4 CPUs, 6 pages, pagevecs of 2 (they fill and flush).
///
/// * setup: 6 page-cache pages on the inactive LRU (page 0 at the tail).
/// * CPU0, CPU1: `mark_page_accessed` twice on pages 0–4 (the second call activates), then
///   `lru_add_drain()`.
/// * CPU2: reclaim (`shrink_inactive_list`, 3 pages; a page is referenced: `activate_locked`,
///   except page 5, which truncation holds locked: `keep`), then reclaim's active-list scan
///   (`shrink_active_list`, 2 pages, unreferenced: deactivated), then migrates pages 0 and 1,
///   then `lru_add_drain()`.
/// * CPU3: activates pages 3–5, truncates page 5's mapping as the kernel does
///   (`truncate_inode_pages_range`: `pagevec_lookup`'s reference, the page-cache reference
///   dropped, `pagevec_release`: `lru_add_drain()`, then `release_pages()`; the page is freed
///   when its last holder lets go), runs a round of compaction (`compact_zone`), then
///   `lru_add_drain()`.
/// * then: drain every CPU, check the LRU state, truncate the rest, every frame free.
pub fn lru_soak<V: Lru>() {
    let m = machine(6, 2);
    let mut pages = Vec::new();
    let mut pcs = Vec::new();
    for _ in 0..6 {
        let (p, pc) = add_to_page_cache_lru(&m);
        pages.push(p);
        pcs.push(pc);
    }
    let truncated = pcs.pop().expect("six pages");
    let follow: Vec<PageRef> = pages[..2].iter().map(|&p| get_ref(&m, p)).collect();
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
            let p5 = pages[5];
            V::shrink_inactive_list(&m, 3, &|p| {
                if p == p5 {
                    Shrink::Keep
                } else {
                    Shrink::Activate
                }
            });
            V::shrink_active_list(&m, 2, &|_| Referenced::No);
            for (&p, f) in pages[..2].iter().zip(follow) {
                migrate_page::<V>(&m, p, Some(f));
            }
            lru_add_drain::<V>(&m);
        }));
    }
    {
        let (m, pages) = (m.clone(), pages.clone());
        hs.push(spawn_cpu(3, move || {
            for &p in &pages[3..6] {
                V::activate_page(&m, p);
            }
            truncate_inode_pages_range::<V>(&m, vec![truncated]);
            compact_zone::<V>(&m);
            lru_add_drain::<V>(&m);
        }));
    }
    for h in hs {
        join(h);
    }
    finish::<V>(&m, pcs);
}

/// One step of the sequential model (proptest drives random sequences of these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LruOp {
    /// The machine's PAGEVEC_SIZE (the first step of every sequence).
    PagevecSize(usize),
    /// `activate_page(page)` on CPU `cpu` (the main thread plays every CPU in turn).
    Activate { page: usize, cpu: usize },
    /// `lru_add_drain()` on CPU `cpu`.
    Drain { cpu: usize },
    /// CPU0 isolates `page` for migration (`isolate_lru_page` onto its list).
    Isolate { page: usize },
    /// CPU0's migration puts every page on its list back (`unmap_and_move`:
    /// `putback_lru_page`), then `lru_add_drain()`.
    Putback,
    /// `shrink_inactive_list()` of one page on CPU 1 (referenced: `activate_locked`), then
    /// `lru_add_drain()` on CPU 1.
    Reclaim,
    /// `shrink_active_list()` of one page on CPU 1 (unreferenced: deactivated), then
    /// `lru_add_drain()` on CPU 1.
    ReclaimActive,
    /// One round of compaction on CPU 1 (`compact_zone()`: drain, `isolate_migratepages()` of
    /// every frame, `migrate_pages()` puts each page back), then `lru_add_drain()` on CPU 1.
    Compact,
}

/// Where the reference model says a page is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Where {
    Inactive,
    Active,
    /// Isolated for migration, from the active list or not.
    Isolated {
        active: bool,
    },
}

/// The reference model of [`lru_sequential`].
struct Reference {
    place: Vec<Where>,
    /// Pages queued on each CPU's activate pagevec.
    queued: [Vec<usize>; 2],
    size: usize,
    batched: bool,
}

impl Reference {
    /// `activate_page_drain(cpu)`: a queued page still on the inactive list is activated.
    /// Returns the pages activated, in the order the drain moved them.
    fn drain(&mut self, cpu: usize) -> Vec<usize> {
        let mut activated = Vec::new();
        for page in std::mem::take(&mut self.queued[cpu]) {
            if self.place[page] == Where::Inactive {
                self.place[page] = Where::Active;
                activated.push(page);
            }
        }
        activated
    }
    fn activate(&mut self, page: usize, cpu: usize) {
        if self.place[page] != Where::Inactive {
            return;
        }
        if !self.batched {
            self.place[page] = Where::Active;
            return;
        }
        self.queued[cpu].push(page);
        if self.queued[cpu].len() == self.size {
            self.drain(cpu);
        }
    }
}

/// The sequential model: 3 pages, 2 CPUs' pagevecs (of 1, 2 or PAGEVEC_SIZE entries), run on
/// one thread. Reference model: each page's place (inactive, active, isolated) and the pages
/// each CPU has queued for activation; `activate_page` queues a page that is on the LRU and
/// inactive (a full pagevec is drained at once); a drain activates a queued page that is still
/// on the inactive list and leaves any other page where it is; migration takes a page off the
/// LRU and puts it back on the list its PG_active names; reclaim (after draining its CPU) takes
/// the page at the tail of the inactive list and returns it active, and its active scan takes
/// the page at the tail of the active list and returns it inactive; compaction (after draining
/// its CPU) isolates every LRU page and puts each back on the list it came from. After every
/// step the kernel's lists, flags, zone counts and page counts must agree with it.
pub fn lru_sequential<V: Lru>(ops: &[LruOp]) {
    const PAGES: usize = 3;
    let size = match ops.first() {
        Some(LruOp::PagevecSize(n)) => *n,
        _ => PAGEVEC_SIZE,
    };
    let m = machine(PAGES, size);
    let mut pages = Vec::new();
    let mut pcs = Vec::new();
    for _ in 0..PAGES {
        let (p, pc) = add_to_page_cache_lru(&m);
        pages.push(p);
        pcs.push(pc);
    }
    let mut r = Reference {
        place: vec![Where::Inactive; PAGES],
        queued: [Vec::new(), Vec::new()],
        size,
        batched: V::BATCHED,
    };
    let migration_list = page_list(0);
    // The reference model's index of each page on `list`, in the kernel's order (head to tail).
    let indices = |list: ListId| -> Vec<usize> {
        walk(&m, list)
            .iter()
            .filter_map(|p| pages.iter().position(|x| x == p))
            .collect()
    };
    run_as_cpu(0, || INIT_LIST_HEAD(&m, migration_list));
    for op in ops {
        match *op {
            LruOp::PagevecSize(_) => {}
            LruOp::Activate { page, cpu } => {
                run_as_cpu(cpu, || V::activate_page(&m, pages[page]));
                r.activate(page, cpu);
            }
            LruOp::Drain { cpu } => {
                run_as_cpu(cpu, || lru_add_drain::<V>(&m));
                r.drain(cpu);
            }
            LruOp::Isolate { page } => {
                let p = pages[page];
                let follow = get_ref(&m, p);
                run_as_cpu(0, || {
                    if V::isolate_lru_page(&m, p) == 0 {
                        list_add(&m, p, migration_list);
                    }
                });
                follow.release(&m);
                match r.place[page] {
                    Where::Inactive => r.place[page] = Where::Isolated { active: false },
                    Where::Active => r.place[page] = Where::Isolated { active: true },
                    Where::Isolated { .. } => {}
                }
            }
            LruOp::Putback => {
                run_as_cpu(0, || {
                    migrate_pages::<V>(&m, migration_list);
                    lru_add_drain::<V>(&m);
                });
                for w in r.place.iter_mut() {
                    if let Where::Isolated { active } = *w {
                        *w = if active {
                            Where::Active
                        } else {
                            Where::Inactive
                        };
                    }
                }
                r.drain(0);
            }
            LruOp::Reclaim => {
                // shrink_inactive_list() drains CPU1 first; then the page at the tail of the
                // inactive list (its order is the kernel's, read before the step) is isolated,
                // activated and put back on the active list.
                let before = indices(ListId::InactiveFile);
                r.drain(1);
                run_as_cpu(1, || {
                    V::shrink_inactive_list(&m, 1, &|_| Shrink::Activate);
                    lru_add_drain::<V>(&m);
                });
                let tail = before
                    .into_iter()
                    .rev()
                    .find(|&i| r.place[i] == Where::Inactive);
                if let Some(i) = tail {
                    r.place[i] = Where::Active;
                }
            }
            LruOp::ReclaimActive => {
                // shrink_active_list() drains CPU1 first: the pages it activates go to the head
                // of the active list in drain order (add_page_to_lru_list is a list_add), so
                // the tail is the old list's tail, or else the first page the drain moved.
                let before = indices(ListId::ActiveFile);
                let activated = r.drain(1);
                run_as_cpu(1, || {
                    V::shrink_active_list(&m, 1, &|_| Referenced::No);
                    lru_add_drain::<V>(&m);
                });
                if let Some(i) = before.last().or(activated.first()).copied() {
                    r.place[i] = Where::Inactive;
                }
            }
            LruOp::Compact => {
                r.drain(1);
                run_as_cpu(1, || {
                    compact_zone::<V>(&m);
                    lru_add_drain::<V>(&m);
                });
            }
        }
        // Kernel state vs the reference model.
        let inactive = walk(&m, ListId::InactiveFile);
        let active = walk(&m, ListId::ActiveFile);
        let isolated = walk(&m, migration_list);
        for (i, &p) in pages.iter().enumerate() {
            let got = (
                inactive.contains(&p),
                active.contains(&p),
                isolated.contains(&p),
            );
            let want = match r.place[i] {
                Where::Inactive => (true, false, false),
                Where::Active => (false, true, false),
                Where::Isolated { .. } => (false, false, true),
            };
            if got != want {
                fail(
                    "lru_sequential",
                    Invariant::ListCorruption,
                    format!("after {op:?}: {p:?} on (inactive, active, isolated) = {got:?}, reference model says {:?}", r.place[i]),
                );
            }
            let pg = m.pg(p);
            let on_lru = !matches!(r.place[i], Where::Isolated { .. });
            if PageLRU(pg) != on_lru || (on_lru && PageActive(pg) != (r.place[i] == Where::Active))
            {
                fail(
                    "lru_sequential",
                    Invariant::FlagsMismatch,
                    format!(
                        "after {op:?}: {p:?} PG_lru {} PG_active {}, reference model says {:?}",
                        PageLRU(pg),
                        PageActive(pg),
                        r.place[i]
                    ),
                );
            }
            let refs = 1
                + r.queued
                    .iter()
                    .map(|q| q.iter().filter(|&&x| x == i).count())
                    .sum::<usize>() as i32
                + i32::from(!on_lru);
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
        check_lru_counts(&m, "lru_sequential");
    }
    run_as_cpu(0, || migrate_pages::<V>(&m, migration_list));
    finish::<V>(&m, pcs);
}

/// proptest's operations for [`lru_sequential`]: 3 pages, 2 CPUs.
fn lru_op() -> impl Strategy<Value = LruOp> {
    prop_oneof![
        4 => (0usize..3, 0usize..2).prop_map(|(page, cpu)| LruOp::Activate { page, cpu }),
        2 => (0usize..2).prop_map(|cpu| LruOp::Drain { cpu }),
        2 => (0usize..3).prop_map(|page| LruOp::Isolate { page }),
        1 => Just(LruOp::Putback),
        1 => Just(LruOp::Reclaim),
        1 => Just(LruOp::ReclaimActive),
        1 => Just(LruOp::Compact),
    ]
}

/// [`lru_sequential`] on random sequences of up to 20 steps, on pagevecs of 1, 2 or 14.
fn sequential_proptest<V: Lru>(settings: &Settings) -> Exploration {
    let ops = (
        prop_oneof![Just(1usize), Just(2), Just(PAGEVEC_SIZE)],
        prop::collection::vec(lru_op(), 0..20),
    )
        .prop_map(|(size, ops)| {
            let mut v = vec![LruOp::PagevecSize(size)];
            v.extend(ops);
            v
        });
    sequential::run(settings, ops, lru_sequential::<V>)
}
