//! The LRU machinery of Linux 2.6.37–3.0 that every activate_page variant shares, and the
//! trait the variants implement (`crate::lru` holds one file per version):
//!
//! * include/linux/mm_inline.h: `add_page_to_lru_list`, `del_page_from_lru_list`,
//!   `del_page_from_lru`, `page_lru`, with the zone's per-LRU page counts
//!   (`__mod_zone_page_state(zone, NR_LRU_BASE + l, ±1)`);
//! * include/linux/pagevec.h and mm/swap.c: `pagevec_add`, `pagevec_lru_move_fn`,
//!   `release_pages`, `__pagevec_release`, `____pagevec_lru_add`, `__lru_cache_add`,
//!   `lru_cache_add_lru`, `lru_add_drain`, `mark_page_accessed`;
//! * mm/vmscan.c: `isolate_lru_page`, `putback_lru_page` (migration's putback, through the
//!   `lru_add` pagevec), and reclaim's `shrink_inactive_list` → `isolate_lru_pages` →
//!   `__isolate_lru_page` → `update_isolated_counts` → `shrink_page_list` (its
//!   `activate_locked` / `keep_locked` outcomes) → the variant's `putback_lru_pages`;
//! * mm/migrate.c: the tail of `unmap_and_move` (the page taken off the migration list and put
//!   back); mm/truncate.c: `truncate_complete_page` (the page cache's reference dropped).
//!
//! Text: 3.0 mm/swap.c, mm/vmscan.c, mm_inline.h and pagevec.h as quoted in
//! /work/research/s2.md §3a, §4, §5, §6, §7, §8 (VERIFIED text of a 3.0/3.1 tree; these
//! functions are the same in 2.6.37/2.6.38 except where a variant says otherwise; 2.6.37 has
//! `____pagevec_lru_add` open-coded with the same steps as `pagevec_lru_move_fn`).
//!
//! Only file pages are modelled (PG_swapbacked is never set, so `page_is_file_cache()` is 1 and
//! is not read): the two file LRU lists and their counts. Anon, unevictable and memcg lists,
//! NR_ISOLATED_*, reclaim statistics and vm events are left out (proofs/lru.1.md).
//!
//! Shared code that a mutant replaces is reached through an `Lru` trait method whose default
//! calls the function here (`pagevec_lru_move_fn`, `pagevec_move_tail_fn`, `release_pages`,
//! `isolate_lru_page`, `__isolate_lru_page`): every caller goes through `V::`, so a mutant's
//! copy is used on every path, and the production variants run exactly this code.

use super::list::{
    l_active, list_add, list_del, list_empty, list_move, list_move_tail, list_splice, lru_to_page,
    page_list, ret_pages, walk, ListId, INIT_LIST_HEAD,
};
use super::page_alloc::free_hot_cold_page;
use super::swap::{__put_single_page, get_page_unless_zero, put_page_testzero};
use super::unevictable::{add_page_to_unevictable_list, page_evictable};
use super::Mem;
use crate::page::*;
use crate::sync::{
    atomic_inc, atomic_read, local_irq_disable, local_irq_enable, local_irq_restore,
    local_irq_save, smp_mb, smp_processor_id, spin_lock, IrqFlags, RaceCell, SpinGuard, CHECKED,
};
use crate::trace::{fail, harness_fail, Invariant};
use crate::variant::VariantMeta;
use crate::{ktrace, BUG_ON, VM_BUG_ON};

/// One version of the batched-activation code (and of the reclaim putback it changed).
pub trait Lru: 'static + Send + Sync + Sized {
    /// What the variant is (`crate::variant`).
    const META: VariantMeta;
    /// Whether `activate_page` queues the page in a per-CPU pagevec (SMP batching) or moves it
    /// at once under `lru_lock`.
    const BATCHED: bool;

    /// `activate_page(page)` (mm/swap.c): the caller holds a reference to `page`.
    fn activate_page(m: &Mem, page: PagePtr);

    /// `drain_cpu_pagevecs(cpu)` (mm/swap.c): flush CPU `cpu`'s pagevecs (runs on that CPU,
    /// or for a CPU that no longer runs).
    fn drain_cpu_pagevecs(m: &Mem, cpu: usize);

    /// `putback_lru_pages(zone, sc, nr_anon, nr_file, page_list)` (mm/vmscan.c): reclaim puts
    /// what `shrink_page_list` kept back on the LRU.
    fn putback_lru_pages(m: &Mem, page_list: ListId);

    /// Whether the version has `deactivate_page()` (Minchan Kim's 315601809d "mm: deactivate
    /// invalidated pages", 2.6.39): 3.0's eb709b0d does, 2.6.37 and 744ed144 do not, and the
    /// models that call it are not theirs (`models::lru::models`).
    const DEACTIVATE_PAGE: bool = false;

    /// `deactivate_page(page)` (mm/swap.c, 2.6.39 on): `invalidate_mapping_pages()` hints that
    /// a page it could not drop is a good reclaim candidate; the page is queued on the CPU's
    /// `lru_deactivate_pvecs` with a reference. No kernel text before 315601809d: a version
    /// without it must not be run on a model that calls it.
    fn deactivate_page(m: &Mem, page: PagePtr) {
        let _ = (m, page);
        harness_fail(
            "deactivate_page",
            format!(
                "{}: no deactivate_page() before 315601809d (2.6.39)",
                Self::META.id
            ),
        )
    }

    // Shared mm code a mutant may replace. Defaults: the functions of this module.

    /// `pagevec_lru_move_fn(pvec, move_fn, arg)` (mm/swap.c).
    fn pagevec_lru_move_fn(m: &Mem, pvec: &mut Pagevec, move_fn: MoveFn, arg: MoveArg) {
        pagevec_lru_move_fn::<Self>(m, pvec, move_fn, arg)
    }

    /// The variant's `pagevec_move_tail(pvec)` (mm/swap.c): by default the shared one below
    /// (2.6.39–3.0, and 744ed144's 2.6.38-rc: through `pagevec_lru_move_fn`); 2.6.37 open-codes
    /// it.
    fn pagevec_move_tail(m: &Mem, pvec: &mut Pagevec) {
        pagevec_move_tail::<Self>(m, pvec)
    }

    /// The variant's `pagevec_move_tail_fn(page, arg)` (mm/swap.c, 2.6.39–3.0, and 744ed144's
    /// 2.6.38-rc): by default the shared one below, which the shared `pagevec_move_tail` hands
    /// to `pagevec_lru_move_fn`. 2.6.37 has no such function (its open-coded
    /// `pagevec_move_tail` has the steps in its loop).
    fn pagevec_move_tail_fn(m: &Mem, page: PagePtr, arg: MoveArg) {
        pagevec_move_tail_fn(m, page, arg)
    }

    /// The variant's `rotate_reclaimable_page(page)` (mm/swap.c): by default the shared one
    /// below (every modelled version has its text).
    fn rotate_reclaimable_page(m: &Mem, page: PagePtr) {
        rotate_reclaimable_page::<Self>(m, page)
    }

    /// The variant's `release_pages(pvec->pages, pvec->nr, pvec->cold)` (mm/swap.c): by default
    /// the shared `release_pages` below (a hook a mutant replaces, not a mirror of its own).
    fn release_pages(m: &Mem, pvec: &Pagevec) {
        release_pages(m, pvec)
    }

    /// The variant's `isolate_lru_page(page)` (mm/vmscan.c): by default the shared one below.
    fn isolate_lru_page(m: &Mem, page: PagePtr) -> i32 {
        isolate_lru_page(m, page)
    }

    /// The variant's `__isolate_lru_page(page, mode, file)` (mm/vmscan.c): by default the shared
    /// one below.
    fn __isolate_lru_page(m: &Mem, page: PagePtr, mode: IsolateMode, file: bool) -> i32 {
        __isolate_lru_page(m, page, mode, file)
    }

    /// `__lru_cache_add(page, lru)` (mm/swap.c).
    fn __lru_cache_add(m: &Mem, page: PagePtr, lru: ListId) {
        __lru_cache_add::<Self>(m, page, lru)
    }

    /// `shrink_inactive_list(nr_to_scan, zone, sc, priority, file)` (mm/vmscan.c).
    fn shrink_inactive_list(m: &Mem, nr_to_scan: usize, how: &dyn Fn(PagePtr) -> Shrink) -> usize {
        shrink_inactive_list::<Self>(m, nr_to_scan, how)
    }

    /// `shrink_active_list(nr_pages, zone, sc, priority, file)` (mm/vmscan.c).
    fn shrink_active_list(m: &Mem, nr_pages: usize, referenced: &dyn Fn(PagePtr) -> Referenced) {
        shrink_active_list::<Self>(m, nr_pages, referenced)
    }

    /// `isolate_migratepages(zone, cc)` (mm/compaction.c): compaction's migrate scanner
    /// isolates the LRU pages of one pageblock under `lru_lock`.
    fn isolate_migratepages(m: &Mem, cc: &mut CompactControl) -> usize {
        isolate_migratepages::<Self>(m, cc)
    }

    /// The variant's `__put_single_page(page)` (mm/swap.c): the last reference of an order-0
    /// page went. By default `crate::mm::swap::__put_single_page` (2.6.38–3.10 text:
    /// `__page_cache_release(page); free_hot_cold_page(page, 0);`).
    fn __put_single_page(m: &Mem, page: PagePtr) {
        __put_single_page(m, page)
    }

    /// The variant's `put_page_testzero(page)` (include/linux/mm.h) as `put_page()` calls it
    /// (truncation's and putback's puts; `release_pages()` has its own call): by default
    /// `crate::mm::swap::put_page_testzero`.
    fn put_page_testzero(m: &Mem, page: PagePtr) -> bool {
        put_page_testzero(m, page)
    }

    /// The variant's `putback_lru_page(page)` (mm/vmscan.c): by default the shared one below.
    fn putback_lru_page(m: &Mem, page: PagePtr) {
        putback_lru_page::<Self>(m, page)
    }

    /// The variant's `add_page_to_unevictable_list(page)` (mm/swap.c): by default
    /// `crate::mm::unevictable::add_page_to_unevictable_list`.
    fn add_page_to_unevictable_list(m: &Mem, page: PagePtr) {
        add_page_to_unevictable_list(m, page)
    }

    /// The variant's `scan_mapping_unevictable_pages(mapping)` (mm/vmscan.c): by default
    /// `crate::mm::unevictable::scan_mapping_unevictable_pages`.
    fn scan_mapping_unevictable_pages(m: &Mem, cache: &[super::page_ref::PageRef]) {
        super::unevictable::scan_mapping_unevictable_pages::<Self>(m, cache)
    }

    /// The variant's `check_move_unevictable_page(page, zone)` (mm/vmscan.c): by default
    /// `crate::mm::unevictable::check_move_unevictable_page`.
    fn check_move_unevictable_page(m: &Mem, page: PagePtr) {
        super::unevictable::check_move_unevictable_page(m, page)
    }

    /// The variant's `mlock_vma_page(page)` (mm/mlock.c): by default
    /// `crate::mm::mlock::mlock_vma_page`.
    fn mlock_vma_page(m: &Mem, page: PagePtr) {
        super::mlock::mlock_vma_page::<Self>(m, page)
    }

    /// The variant's `munlock_vma_page(page)` (mm/mlock.c): by default
    /// `crate::mm::mlock::munlock_vma_page`.
    fn munlock_vma_page(m: &Mem, page: PagePtr) {
        super::mlock::munlock_vma_page::<Self>(m, page)
    }
}

/// PAGEVEC_SIZE (include/linux/pagevec.h): 14. A model may use a smaller size (its proof says
/// why that is sound: proofs/lru.7.md).
pub const PAGEVEC_SIZE: usize = 14;

/// SWAP_CLUSTER_MAX (include/linux/swap.h).
pub const SWAP_CLUSTER_MAX: usize = 32;

/// -EBUSY, -EINVAL (include/asm-generic/errno-base.h).
pub const EBUSY: i32 = 16;
pub const EINVAL: i32 = 22;

/// `int mode` of `__isolate_lru_page` (include/linux/swap.h, 2.6.38/3.0: `#define
/// ISOLATE_INACTIVE 0`, `ISOLATE_ACTIVE 1`, `ISOLATE_BOTH 2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IsolateMode {
    Inactive = 0,
    Active = 1,
    Both = 2,
}

// ---------------------------------------------------------------------------------------------
// References

/// `get_page(page)` (include/linux/mm.h, 2.6.38–3.1) of an order-0 page, which
/// `page_cache_get(page)` (include/linux/pagemap.h) is:
/// `VM_BUG_ON(atomic_read(&page->_count) < !PageTail(page)); atomic_inc(&page->_count);`, i.e.
/// `<= 0` for a page that is not a tail (the LRU models hold only order-0 pages, so the THP
/// tail branch is left out). 2.6.37's get_page takes `compound_head(page)` first (the page
/// itself here) and checks `== 0`: the same for a count that never goes negative.
pub fn page_cache_get(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    // LEFT OUT: 2.6.37's `page = compound_head(page)`: order-0 pages only, it is `page`.
    VM_BUG_ON!("get_page", atomic_read(&p._count) <= 0);
    let old = atomic_inc(&p._count);
    ktrace!("get_page", "{page:?}._count {old} -> {}", old + 1);
    // LEFT OUT: 2.6.38+'s `if (unlikely(PageTail(page))) { VM_BUG_ON(first_page count <= 0);
    // atomic_inc(&page->first_page->_count); }`: order-0 pages only, never a tail.
}

/// `page_cache_release(page)` = `put_page(page)` (include/linux/pagemap.h: `#define
/// page_cache_release(page) put_page(page)`) of an order-0 page, without the variant's
/// hooks: `if (put_page_testzero(page)) __put_single_page(page);` (2.6.38–3.0 `put_page`).
pub fn page_cache_release(m: &Mem, page: PagePtr) {
    if PageCompound(m.pg(page)) {
        harness_fail(
            "page_cache_release",
            format!("{page:?} is a compound page: the LRU models have order-0 pages only"),
        );
    }
    if put_page_testzero(m, page) {
        __put_single_page(m, page);
    }
}

/// `put_page(page)` (mm/swap.c, 2.6.38–3.0) of an order-0 page, with the variant's
/// `put_page_testzero` and `__put_single_page` (the ones a mutant may replace): `if
/// (put_page_testzero(page)) __put_single_page(page);`. 2.6.37 calls `__page_cache_release(page)`
/// there, which did what 2.6.38's `__put_single_page` does (the LRU removal, then
/// `free_hot_cold_page(page, 0)`).
pub fn put_page<V: Lru>(m: &Mem, page: PagePtr) {
    if PageCompound(m.pg(page)) {
        // LEFT OUT: `put_compound_page(page)`: the LRU models have order-0 pages only.
        // MODEL: a compound page here is a harness failure (no model passes one).
        harness_fail(
            "put_page",
            format!("{page:?} is a compound page: the LRU models have order-0 pages only"),
        );
    }
    // LEFT OUT: the `else` of `else if (put_page_testzero(page))`: the branch above fails.
    if V::put_page_testzero(m, page) {
        // LEFT OUT: 2.6.37's `__page_cache_release(page)`: 2.6.38's `__put_single_page` below
        // (the same LRU removal and free_hot_cold_page(), THP moved the free out of it).
        // MODEL: 2.6.37: `__put_single_page` is its `__page_cache_release(page)`.
        V::__put_single_page(m, page);
    }
}

/// `page_count(page)` of an order-0 page: `atomic_read(&page->_count)`.
pub fn page_count(m: &Mem, page: PagePtr) -> i32 {
    atomic_read(&m.pg(page)._count)
}

// ---------------------------------------------------------------------------------------------
// Pagevecs (include/linux/pagevec.h)

/// `struct pagevec`. Each entry holds one page reference (taken by whoever added it) until
/// `release_pages()` drops it. Ghost: the generation of the page when it was added, checked
/// when the entry is used (a pagevec entry that outlived its page is a use after free).
#[derive(Default)]
pub struct Pagevec {
    pub pages: Vec<PagePtr>,
    ghost_gen: Vec<u32>,
    pub size: usize,
}

impl Pagevec {
    /// `pagevec_init(pvec, cold)` (include/linux/pagevec.h, 2.6.37–3.0) of a pagevec of `size`
    /// entries.
    pub fn new(size: usize) -> Pagevec {
        // LEFT OUT: UNPAIRED: `pvec->nr = 0` is the empty `pages` below (the tool reads the
        // literal as ghost state, for its `ghost_gen`); `pvec->cold = cold`: the hot/cold hint
        // of the page allocator is not modelled.
        // MODEL: the pagevec itself (the kernel's caller declares it on its stack).
        Pagevec {
            pages: Vec::with_capacity(size),
            ghost_gen: Vec::with_capacity(size),
            size,
        }
    }
}

/// `pagevec_count(pvec)` (include/linux/pagevec.h, 2.6.37–3.0).
pub fn pagevec_count(pvec: &Pagevec) -> usize {
    pvec.pages.len()
}

/// `pagevec_add(pvec, page)` + `pagevec_space(pvec)` (include/linux/pagevec.h, 2.6.37–3.0):
/// returns the space left (0: full, flush now), `PAGEVEC_SIZE - pvec->nr` with the model
/// pagevec's own size.
pub fn pagevec_add(m: &Mem, pvec: &mut Pagevec, page: PagePtr) -> usize {
    let p = m.pg(page);
    p.ghost.queue(1);
    if CHECKED {
        // ghost: the generation the entry's reference was taken under (pagevec_check_entry)
        pvec.ghost_gen.push(p.ghost_gen());
    }
    pvec.pages.push(page);
    // LEFT OUT: UNPAIRED: `return pagevec_space(pvec)` and pagevec_space's `return
    // PAGEVEC_SIZE - pvec->nr` are the tail below.
    // MODEL: UNPAIRED: `pvec.size - pvec.pages.len()` is PAGEVEC_SIZE - pvec->nr, with the
    // model pagevec's own size (proofs/lru.7.md).
    pvec.size - pvec.pages.len()
}

/// `pagevec_reinit(pvec)` (include/linux/pagevec.h, 2.6.37–3.0).
pub fn pagevec_reinit(pvec: &mut Pagevec) {
    // LEFT OUT: UNPAIRED: `pvec->nr = 0` is `pvec.pages.clear()` below.
    // MODEL: UNPAIRED: `pvec.pages.clear()` is `pvec->nr = 0` (the entries are the vector).
    pvec.pages.clear();
    pvec.ghost_gen.clear();
}

/// Ghost check when entry `i` of a pagevec is used: the page it names must still be the page
/// that was queued (allocated, same generation). The entry's reference should have kept it so.
pub fn pagevec_check_entry(m: &Mem, pvec: &Pagevec, i: usize, func: &'static str) {
    if !CHECKED {
        return;
    }
    let page = pvec.pages[i];
    let p = m.pg(page);
    if !p.ghost_allocated() || p.ghost_gen() != pvec.ghost_gen[i] {
        fail(
            func,
            Invariant::UseAfterFree,
            format!(
                "pagevec entry {i} is {page:?} of generation {}, but that page was freed{}",
                pvec.ghost_gen[i],
                if p.ghost_allocated() {
                    " and reallocated"
                } else {
                    ""
                }
            ),
        );
    }
}

/// `pagevec_lookup(pvec, mapping, start, nr_pages)` (mm/swap.c, 2.6.37–3.0) of a mapping whose
/// page cache is `cache` (the page cache's references, in index order, from `start`): `pvec->nr
/// = find_get_pages(mapping, start, nr_pages, pvec->pages)`, then `return pagevec_count(pvec)`.
/// find_get_pages (mm/filemap.c) takes each page with `page_cache_get_speculative()` (on SMP
/// `get_page_unless_zero()`, the reference the pagevec entry holds until release_pages).
pub fn pagevec_lookup(m: &Mem, pvec: &mut Pagevec, cache: &[super::page_ref::PageRef]) -> usize {
    // LEFT OUT: UNPAIRED: `pvec->nr = find_get_pages(mapping, start, nr_pages, pvec->pages)` is
    // the loop below, find_get_pages' own: rcu_read_lock(), radix_tree_gang_lookup_slot(),
    // radix_tree_deref_slot() and its retry, the "has the page moved?" re-check and
    // rcu_read_unlock(): the radix tree is not modelled; `cache` is what the gang lookup finds.
    // MODEL: UNPAIRED: the loop is find_get_pages' over what the lookup found, at most a
    // pagevec; the speculative get cannot fail (the page cache's reference, in `cache`, keeps
    // the count above zero: its `goto repeat` never runs), and the harness says so if it does.
    for pc in cache.iter().take(pvec.size) {
        let page = pc.page();
        if !get_page_unless_zero(m, page) {
            harness_fail(
                "pagevec_lookup",
                format!("{page:?} is in the page cache with a zero count"),
            );
        }
        pagevec_add(m, pvec, page);
    }
    pagevec_count(pvec)
}

/// `pagevec_release(pvec)` (include/linux/pagevec.h, 2.6.37–3.0): `if (pagevec_count(pvec))
/// __pagevec_release(pvec);`.
pub fn pagevec_release<V: Lru>(m: &Mem, pvec: &mut Pagevec) {
    if pagevec_count(pvec) > 0 {
        __pagevec_release::<V>(m, pvec);
    }
}

/// `__pagevec_release(pvec)` (mm/swap.c, 2.6.37–3.0): "The pages which we're about to release may be
/// in the deferred lru-addition queues. [...] So __pagevec_release() will drain those queues
/// here."
pub fn __pagevec_release<V: Lru>(m: &Mem, pvec: &mut Pagevec) {
    lru_add_drain::<V>(m);
    V::release_pages(m, pvec);
    pagevec_reinit(pvec);
}

// ---------------------------------------------------------------------------------------------
// zone->lru_lock and the per-LRU counts

/// LRU lists of the model: LRU_INACTIVE_FILE, LRU_ACTIVE_FILE and LRU_UNEVICTABLE.
pub const NR_LRU_LISTS: usize = 3;

/// The zone's LRU lists (the end checks of the models walk them too).
pub const LRU_LISTS: [ListId; NR_LRU_LISTS] = [
    ListId::InactiveFile,
    ListId::ActiveFile,
    ListId::Unevictable,
];

/// `zone->vm_stat[NR_LRU_BASE + l]` for the two file lists and the unevictable list
/// (NR_INACTIVE_FILE, NR_ACTIVE_FILE, NR_UNEVICTABLE),
/// kept as the exact count (the zone counter plus every CPU's `vm_stat_diff`). The kernel
/// changes it with `__mod_zone_page_state()` with interrupts off, and every caller modelled
/// here holds `lru_lock`: a lock-protected word (`RaceCell`), so loom reports an update that no
/// lock orders.
pub struct ZoneLruStat {
    nr: [RaceCell<isize>; NR_LRU_LISTS],
    /// Ghost (`GhostCount`, invisible to the checkers): pages a CPU has linked on each
    /// list and will count only at its end. `move_active_pages_to_lru()` adds its `pgmoved`
    /// after the loop, and drops `lru_lock` inside the loop to release its pagevec: at that
    /// release the list holds pages its count does not have yet, as in the kernel.
    uncounted: [GhostCount; NR_LRU_LISTS],
}

impl Default for ZoneLruStat {
    fn default() -> Self {
        ZoneLruStat {
            nr: [RaceCell::new(0), RaceCell::new(0), RaceCell::new(0)],
            uncounted: Default::default(),
        }
    }
}

fn lru_index(lru: ListId) -> usize {
    match lru {
        ListId::InactiveFile => 0,
        ListId::ActiveFile => 1,
        ListId::Unevictable => 2,
        ListId::Private(_) => harness_fail(
            "NR_LRU_BASE",
            format!("{lru:?} is not an LRU list: it has no zone counter"),
        ),
    }
}

/// `__mod_zone_page_state(zone, NR_LRU_BASE + lru, delta)` (mm/vmstat.c).
pub fn __mod_zone_page_state(m: &Mem, lru: ListId, delta: isize) {
    let c = &m.zone.vm_stat.nr[lru_index(lru)];
    c.set(c.get() + delta);
}

/// `zone_page_state(zone, NR_LRU_BASE + lru)` (exact: see `ZoneLruStat`).
pub fn zone_page_state(m: &Mem, lru: ListId) -> isize {
    m.zone.vm_stat.nr[lru_index(lru)].get()
}

/// Ghost: `delta` pages linked on (or, negative, counted for) `lru` whose count their mover adds
/// later (`ZoneLruStat::uncounted`).
fn ghost_uncounted(m: &Mem, lru: ListId, delta: isize) {
    m.zone.vm_stat.uncounted[lru_index(lru)].add(delta);
}

/// Ghost check: each LRU list is as long as its zone count says, plus the pages a mover has
/// linked and not counted yet (`ZoneLruStat::uncounted`). Run at every release of `lru_lock`
/// (with the lock still held) and at the end of a scenario.
pub fn check_lru_counts(m: &Mem, when: &'static str) {
    for lru in LRU_LISTS {
        let on = walk(m, lru).len() as isize;
        let nr = zone_page_state(m, lru);
        let uncounted = m.zone.vm_stat.uncounted[lru_index(lru)].get();
        if on != nr + uncounted {
            let pending = if uncounted == 0 {
                String::new()
            } else {
                format!(" (and {uncounted} page(s) its mover has still to count)")
            };
            fail(
                when,
                Invariant::LruCount,
                format!(
                    "{lru:?} holds {on} page(s) but its zone count (NR_LRU_BASE + lru) is {nr}{pending}"
                ),
            );
        }
    }
}

/// A held `zone->lru_lock`. Dropping it releases the lock, then puts interrupts back as the
/// taking form says (`spin_unlock_irq`: on; `spin_unlock_irqrestore`: as saved; plain
/// `spin_unlock`: untouched); just before, checked builds compare every LRU list with its zone
/// count (`check_lru_counts`): in the code modelled, every `__mod_zone_page_state` of an LRU
/// count is made under `lru_lock` together with the list change, so the two agree whenever
/// the lock is free.
pub struct LruLock<'m> {
    m: &'m Mem,
    guard: Option<SpinGuard<'m, ()>>,
    irq: LockIrq,
}

/// How an `lru_lock` holder found interrupts, and what its unlock does with them.
enum LockIrq {
    /// `spin_lock_irq`: disabled; the unlock enables them.
    Irq,
    /// `spin_lock_irqsave`: saved and disabled; the unlock restores them.
    Save(IrqFlags),
    /// `spin_lock`: left as they were (the caller disabled them).
    Plain,
}

impl Drop for LruLock<'_> {
    fn drop(&mut self) {
        // A check that already broke is unwinding: do not break a second one.
        if CHECKED && !std::thread::panicking() {
            check_lru_counts(self.m, "spin_unlock(&zone->lru_lock)");
        }
        drop(self.guard.take());
        if std::thread::panicking() {
            return;
        }
        match self.irq {
            LockIrq::Irq => local_irq_enable(),
            LockIrq::Save(flags) => local_irq_restore(flags),
            LockIrq::Plain => {}
        }
    }
}

fn take_lru_lock(m: &Mem, irq: LockIrq) -> LruLock<'_> {
    m.zone.lru_lock_acquisitions.count();
    LruLock {
        m,
        guard: Some(spin_lock(&m.zone.lru_lock)),
        irq,
    }
}

/// `spin_lock_irq(&zone->lru_lock)`, counted (the benchmarks report acquisitions): interrupts
/// off, then the lock; its drop is `spin_unlock_irq`.
pub fn lru_lock(m: &Mem) -> LruLock<'_> {
    local_irq_disable();
    take_lru_lock(m, LockIrq::Irq)
}

/// `spin_lock_irqsave(&zone->lru_lock, flags)`: its drop is `spin_unlock_irqrestore`, which
/// leaves interrupts off for a caller that had them off (`rotate_reclaimable_page()`).
pub fn lru_lock_irqsave(m: &Mem) -> LruLock<'_> {
    let flags = local_irq_save();
    take_lru_lock(m, LockIrq::Save(flags))
}

/// `spin_lock(&zone->lru_lock)` of a caller that has interrupts off already (2.6.37's
/// `pagevec_move_tail()`); its drop is `spin_unlock`.
pub fn lru_lock_irqs_off(m: &Mem) -> LruLock<'_> {
    take_lru_lock(m, LockIrq::Plain)
}

// ---------------------------------------------------------------------------------------------
// include/linux/mm_inline.h

/// `page_lru_base_type(page)` (include/linux/mm_inline.h, 2.6.37–3.0): file pages only here:
/// LRU_INACTIVE_FILE.
pub fn page_lru_base_type(_page: &Page) -> ListId {
    // LEFT OUT: `if (page_is_file_cache(page))` and `return LRU_INACTIVE_ANON`: the models
    // have file pages only (PG_swapbacked is never set, page_is_file_cache() is 1).
    // MODEL: UNPAIRED: `ListId::InactiveFile` is `return LRU_INACTIVE_FILE`.
    ListId::InactiveFile
}

/// `page_lru(page)` (include/linux/mm_inline.h, 2.6.37–3.0): LRU_UNEVICTABLE if
/// PageUnevictable, else the base type, + LRU_ACTIVE if PageActive.
pub fn page_lru(m: &Mem, page: &Page) -> ListId {
    // MODEL: the PageUnevictable test is made only in a run that models unevictable pages
    // (`MemMap::models_unevictable`, crate::mm::unevictable): in the others no page is ever
    // unevictable, and skipping the load keeps their scheduling points.
    if m.map.models_unevictable() && PageUnevictable(page) {
        // LEFT OUT: UNPAIRED: `lru = LRU_UNEVICTABLE` (returned at the end) is the `return`
        // below.
        return ListId::Unevictable; // lru = LRU_UNEVICTABLE
    }
    // MODEL: the kernel's `lru = page_lru_base_type(page); if (PageActive(page)) lru +=
    // LRU_ACTIVE; return lru;` as one expression: ActiveFile is LRU_INACTIVE_FILE +
    // LRU_ACTIVE.
    if PageActive(page) {
        ListId::ActiveFile
    } else {
        page_lru_base_type(page)
    }
    // LEFT OUT: UNPAIRED: `if (PageActive(page)) lru += LRU_ACTIVE; return lru;` are the
    // `if PageActive(page)` expression above (the tool pairs page_lru_base_type first).
}

/// `lru + LRU_ACTIVE`.
pub fn lru_active(lru: ListId) -> ListId {
    match lru {
        ListId::InactiveFile => ListId::ActiveFile,
        other => other,
    }
}

/// `is_active_lru(lru)`.
pub fn is_active_lru(lru: ListId) -> bool {
    lru == ListId::ActiveFile
}

/// `add_page_to_lru_list(zone, page, l)` + `__add_page_to_lru_list(zone, page, l, head)`
/// (include/linux/mm_inline.h, 2.6.38–3.0): `list_add(&page->lru, &zone->lru[l].list);
/// __mod_zone_page_state(zone, NR_LRU_BASE + l, hpage_nr_pages(page));
/// mem_cgroup_add_lru_list(page, l);` (memcg not modelled). 2.6.37 has no
/// `__add_page_to_lru_list` and counts with `__inc_zone_state(zone, NR_LRU_BASE + l)`: the
/// same +1 for an order-0 page.
pub fn add_page_to_lru_list(m: &Mem, page: PagePtr, lru: ListId) {
    // LEFT OUT: 2.6.38+'s call `__add_page_to_lru_list(zone, page, l, &zone->lru[l].list)`:
    // its body is written out here.
    ktrace!("add_page_to_lru_list", "{page:?} -> {lru:?}");
    list_add(m, page, lru);
    // LEFT OUT: UNPAIRED: `__mod_zone_page_state(zone, NR_LRU_BASE + l, hpage_nr_pages(page))`
    // (2.6.37: `__inc_zone_state(zone, NR_LRU_BASE + l)`) is the count below.
    // MODEL: `__mod_zone_page_state(m, lru, 1)`: hpage_nr_pages() of an order-0 page is 1.
    __mod_zone_page_state(m, lru, 1);
    // LEFT OUT: mem_cgroup_add_lru_list(page, l): memcg is not modelled.
}

/// `del_page_from_lru_list(zone, page, l)` (include/linux/mm_inline.h, 2.6.38–3.0):
/// `list_del(&page->lru); __mod_zone_page_state(zone, NR_LRU_BASE + l, -hpage_nr_pages(page));`
/// (2.6.37: `__dec_zone_state(zone, NR_LRU_BASE + l)`, the same -1 for an order-0 page).
pub fn del_page_from_lru_list(m: &Mem, page: PagePtr, lru: ListId) {
    ktrace!("del_page_from_lru_list", "{page:?} from {lru:?}");
    list_del(m, page);
    // LEFT OUT: UNPAIRED: `__mod_zone_page_state(zone, NR_LRU_BASE + l,
    // -hpage_nr_pages(page))` (2.6.37: `__dec_zone_state(zone, NR_LRU_BASE + l)`) is the
    // count below.
    // MODEL: `__mod_zone_page_state(m, lru, -1)`: hpage_nr_pages() of an order-0 page is 1.
    __mod_zone_page_state(m, lru, -1);
    // LEFT OUT: mem_cgroup_del_lru_list(page, l): memcg is not modelled.
}

/// `del_page_from_lru(zone, page)` (include/linux/mm_inline.h, 2.6.38–3.0; 2.6.37 counts
/// with `__dec_zone_state`): the page leaves the LRU for good (freeing); the list is the one
/// its flags name, PG_active is cleared with it.
pub fn del_page_from_lru(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    // MODEL: UNPAIRED: `let mut l` is `enum lru_list l`.
    let mut l;
    list_del(m, page);
    // MODEL: the PageUnevictable test only in a run that models unevictable pages (page_lru).
    if m.map.models_unevictable() && PageUnevictable(p) {
        __ClearPageUnevictable(p);
        l = ListId::Unevictable; // l = LRU_UNEVICTABLE
    } else {
        l = page_lru_base_type(p);
        if PageActive(p) {
            __ClearPageActive(p);
            l = lru_active(l);
        }
    }
    ktrace!("del_page_from_lru", "{page:?} from {l:?}");
    // LEFT OUT: UNPAIRED: `__mod_zone_page_state(zone, NR_LRU_BASE + l,
    // -hpage_nr_pages(page))` (2.6.37: `__dec_zone_state(zone, NR_LRU_BASE + l)`) is the
    // count below.
    // MODEL: `__mod_zone_page_state(m, l, -1)`: hpage_nr_pages() of an order-0 page is 1.
    __mod_zone_page_state(m, l, -1);
    // LEFT OUT: mem_cgroup_del_lru_list(page, l): memcg is not modelled.
}

// ---------------------------------------------------------------------------------------------
// mm/swap.c

/// `release_pages(pages, nr, cold)` (mm/swap.c, 2.6.37–3.0): "Batched page_cache_release(). Decrement
/// the reference count on all the passed pages. If it fell to zero then remove the page from
/// the LRU and free it. [...] The locking in this function is against shrink_inactive_list():
/// we recheck the page count inside the lock to see whether shrink_inactive_list() grabbed the
/// page via the LRU. If it did, give up: shrink_inactive_list() will free it."
///
/// `pages_to_free` is a local pagevec of PAGEVEC_SIZE (the machine's): its pages have no
/// references left, so it is a plain list here.
pub fn release_pages(m: &Mem, pvec: &Pagevec) {
    let mut zone: Option<LruLock<'_>> = None;
    // LEFT OUT: `unsigned long uninitialized_var(flags)`: the saved irq state is kept in the
    // guard `lru_lock_irqsave` returns.
    // LEFT OUT: UNPAIRED: `pagevec_init(&pages_to_free, cold)` is the empty list below.
    // MODEL: `pages_to_free` is a plain list (see above), flushed at the machine's
    // PAGEVEC_SIZE as the pagevec is.
    let mut pages_to_free: Vec<PagePtr> = Vec::new();
    // LEFT OUT: UNPAIRED: `for (i = 0; i < nr; i++)` is the loop below (nr = pvec->nr).
    // MODEL: UNPAIRED: `for i in 0..pagevec_count(pvec)` is `for (i = 0; i < nr; i++)`.
    for i in 0..pagevec_count(pvec) {
        let page = pvec.pages[i];
        // MODEL: ghost check: the entry still names the page it queued (not freed meanwhile).
        pagevec_check_entry(m, pvec, i, "release_pages");
        let p = m.pg(page);
        // LEFT OUT: the `PageCompound(page)` block (drop lru_lock, put_compound_page(page),
        // continue): the LRU models have order-0 pages only.
        p.ghost.queue(-1); // the entry's reference goes now

        if !put_page_testzero(m, page) {
            continue;
        }

        if PageLRU(p) {
            // LEFT OUT: `struct zone *pagezone = page_zone(page)`: the model has one zone, so
            // `pagezone != zone` is `zone == NULL`, below.
            if zone.is_none() {
                // LEFT OUT: `if (zone) spin_unlock_irqrestore(&zone->lru_lock, flags)`: one
                // zone: zone is NULL whenever pagezone != zone.
                zone = Some(lru_lock_irqsave(m));
                // LEFT OUT: UNPAIRED: `spin_lock_irqsave(&zone->lru_lock, flags)` is the
                // `lru_lock_irqsave(m)` above (`zone = pagezone` with it).
            }
            VM_BUG_ON!("release_pages", !PageLRU(p));
            __ClearPageLRU(p);
            del_page_from_lru(m, page);
        }

        // MODEL: UNPAIRED: the push and the test below are `if (!pagevec_add(&pages_to_free,
        // page))` (full at the machine's PAGEVEC_SIZE).
        pages_to_free.push(page);
        if pages_to_free.len() == m.pagevec_size {
            // LEFT OUT: UNPAIRED: `if (zone) { spin_unlock_irqrestore(&zone->lru_lock, flags);
            // zone = NULL; }` is `drop(zone.take())` below.
            // MODEL: UNPAIRED: `drop(zone.take())` is that unlock (and zone = NULL).
            drop(zone.take());
            __pagevec_free(m, &mut pages_to_free);
            // LEFT OUT: UNPAIRED: `pagevec_reinit(&pages_to_free)`: `__pagevec_free` above
            // empties the list (it drains it).
        }
    }
    // LEFT OUT: UNPAIRED: `if (zone) spin_unlock_irqrestore(&zone->lru_lock, flags)` is
    // `drop(zone)` below (nothing if it was not taken).
    // MODEL: UNPAIRED: `drop(zone)` is that unlock.
    drop(zone);

    // LEFT OUT: UNPAIRED: the tool pairs `drop(zone)` with the loop's `if (zone)`; that
    // branch's `spin_unlock_irqrestore(..); zone = NULL;` is `drop(zone.take())` above.
    // MODEL: UNPAIRED: `__pagevec_free` is `pagevec_free(&pages_to_free)`.
    __pagevec_free(m, &mut pages_to_free);
    // LEFT OUT: UNPAIRED: `pagevec_free(&pages_to_free)` (`if (pagevec_count(pvec))
    // __pagevec_free(pvec)`) is the `__pagevec_free` just above (nothing to do on an empty
    // list). The tool pairs that call with the loop's `__pagevec_free`, so this gap also holds
    // the loop's `pagevec_reinit` and the final unlock: both are marked above.
}

/// `__pagevec_free(pvec)` (mm/page_alloc.c): `free_hot_cold_page()` of every page.
pub fn __pagevec_free(m: &Mem, pages: &mut Vec<PagePtr>) {
    for page in pages.drain(..) {
        free_hot_cold_page(m, page);
    }
}

/// `move_fn` of `pagevec_lru_move_fn`: `void (*move_fn)(struct page *page, void *arg)`.
pub type MoveFn = fn(&Mem, PagePtr, MoveArg);

/// `void *arg` of a `move_fn`: NULL, or `(void *)lru` for `____pagevec_lru_add_fn`.
pub type MoveArg = Option<ListId>;

/// `pagevec_lru_move_fn(pvec, move_fn, arg)` (mm/swap.c, 2.6.39–3.0: 3dd7ae8e; the same in
/// 744ed144's parent d8505dee, which passes `pagevec_count(pvec)` for `pvec->nr`): run
/// `move_fn` on every page under `zone->lru_lock` (one zone here, so the lock is taken once),
/// then drop the pagevec's references. 2.6.37 has no such function: its
/// `____pagevec_lru_add()` open-codes these steps (with `spin_lock_irq`).
pub fn pagevec_lru_move_fn<V: Lru>(m: &Mem, pvec: &mut Pagevec, move_fn: MoveFn, arg: MoveArg) {
    let mut zone: Option<LruLock<'_>> = None;
    // LEFT OUT: `unsigned long flags = 0`: the saved irq state is kept in the guard
    // `lru_lock_irqsave` returns.

    for i in 0..pagevec_count(pvec) {
        let page = pvec.pages[i];
        // LEFT OUT: `struct zone *pagezone = page_zone(page)`: the model has one zone, so
        // `pagezone != zone` is `zone == NULL`, below.
        // MODEL: ghost check: the entry still names the page it queued (not freed meanwhile).
        pagevec_check_entry(m, pvec, i, "pagevec_lru_move_fn");

        if zone.is_none() {
            // LEFT OUT: `if (zone) spin_unlock_irqrestore(&zone->lru_lock, flags)`: one zone:
            // zone is NULL whenever pagezone != zone.
            zone = Some(lru_lock_irqsave(m));
            // LEFT OUT: UNPAIRED: `spin_lock_irqsave(&zone->lru_lock, flags)` is the
            // `lru_lock_irqsave(m)` above (`zone = pagezone` with it).
        }

        move_fn(m, page, arg);
    }
    // MODEL: UNPAIRED: `drop(zone)` is `if (zone) spin_unlock_irqrestore(&zone->lru_lock,
    // flags)` (nothing if it was not taken).
    drop(zone); // spin_unlock_irqrestore(&zone->lru_lock, flags)
                // LEFT OUT: UNPAIRED: `spin_unlock_irqrestore(&zone->lru_lock, flags)` is `drop(zone)`
                // above (the tool pairs its `if (zone)` with it).
    V::release_pages(m, pvec);
    pagevec_reinit(pvec);
}

/// `pagevec_move_tail_fn(page, arg)` (mm/swap.c, 2.6.39–3.0: 3dd7ae8e; d8505dee in 744ed144's
/// parent), under `zone->lru_lock`: a page still on an inactive list goes to its tail, where
/// reclaim looks first. The flag tests are the ones that count: `rotate_reclaimable_page()`'s
/// were made without the lock, when the page was queued.
pub fn pagevec_move_tail_fn(m: &Mem, page: PagePtr, _arg: MoveArg) {
    let p = m.pg(page);
    // LEFT OUT: `int *pgmoved = arg`: the PGROTATED count (vm events are not modelled).
    // LEFT OUT: `struct zone *zone = page_zone(page)`: the model has one zone (Mem::zone).

    if PageLRU(p) && !PageActive(p) && !PageUnevictable(p) {
        let lru = page_lru_base_type(p);
        list_move_tail(m, page, lru);
        ktrace!(
            "pagevec_move_tail_fn",
            "{page:?}: inactive LRU page -> tail of {lru:?}"
        );
        // LEFT OUT: `mem_cgroup_rotate_reclaimable_page(page)` (3.0; no memcg) and
        // `(*pgmoved)++` (vm events are not modelled).
        // MODEL: an `else` that only traces the skipped page (no kernel effect).
    } else {
        ktrace!(
            "pagevec_move_tail_fn",
            "{page:?}: not an inactive LRU page: left where it is"
        );
    }
}

/// `pagevec_move_tail(pvec)` (mm/swap.c, 2.6.39–3.0: 3dd7ae8e; d8505dee in 744ed144's parent):
/// "pagevec_move_tail() must be called with IRQ disabled. Otherwise this may cause nasty
/// races."
pub fn pagevec_move_tail<V: Lru>(m: &Mem, pvec: &mut Pagevec) {
    // LEFT OUT: `int pgmoved = 0`: the PGROTATED count (vm events are not modelled).

    V::pagevec_lru_move_fn(m, pvec, V::pagevec_move_tail_fn, None);
    // LEFT OUT: `__count_vm_events(PGROTATED, pgmoved)`: vm events are not modelled.
}

/// `rotate_reclaimable_page(page)` (mm/swap.c, 2.6.37–3.0: every modelled version's text; the
/// lock, reference and interrupt rules are Hisashi Hifumi's 902aaed0, 2.6.24, after Andrew
/// Morton's review: "we should be taking a ref on the pages when they are in a pagevec", and
/// "given that pagevec_move_tail() is called from both interrupt and non-interrupt context, I
/// guess that it needs local_irq_save() protection"): "Writeback is about to end against a
/// page which has been marked for immediate reclaim. If it still appears to be reclaimable,
/// move it to the tail of the inactive list."
pub fn rotate_reclaimable_page<V: Lru>(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    if !PageLocked(p) && !PageDirty(p) && !PageActive(p) && !PageUnevictable(p) && PageLRU(p) {
        // LEFT OUT: `struct pagevec *pvec; unsigned long flags;`: declarations (the flags are
        // `flags` below).

        page_cache_get(m, page);
        let flags = local_irq_save();
        let cpu = smp_processor_id();
        // LEFT OUT: UNPAIRED: `pvec = &__get_cpu_var(lru_rotate_pvecs)` and `if
        // (!pagevec_add(pvec, page)) pagevec_move_tail(pvec)`: `with(cpu, ..)` below and its
        // closure (the tool reads a closure as one statement).
        // MODEL: UNPAIRED: `cpu` and `m.lru_rotate_pvecs.with(cpu, |pvec| ..)` are
        // __get_cpu_var(lru_rotate_pvecs) with the C's body in its closure.
        m.lru_rotate_pvecs.with(cpu, |pvec| {
            ktrace!(
                "rotate_reclaimable_page",
                "{page:?} queued on CPU{cpu}'s lru_rotate pagevec"
            );
            if pagevec_add(m, pvec, page) == 0 {
                V::pagevec_move_tail(m, pvec);
            }
        });
        local_irq_restore(flags);
    }
}

/// The `lru_rotate_pvecs` block of `drain_cpu_pagevecs(cpu)` (mm/swap.c, the same in 2.6.37,
/// 744ed144 and eb709b0d): the count is read with interrupts on ("No harm done if a racing
/// interrupt already did this": an interrupt may flush the pagevec between the test and the
/// `local_irq_save`, leaving it empty), the flush runs with them off.
pub fn drain_lru_rotate_pvecs<V: Lru>(m: &Mem, cpu: usize) {
    // MODEL: `pvec = &per_cpu(lru_rotate_pvecs, cpu)` is each `with(cpu, ..)` below: the count
    // is read in one, the pagevec flushed in another (an interrupt may come between them).
    if m.lru_rotate_pvecs.with(cpu, |pvec| pagevec_count(pvec)) > 0 {
        // LEFT OUT: `unsigned long flags`: the declaration of `flags` below.

        // No harm done if a racing interrupt already did this
        let flags = local_irq_save();
        m.lru_rotate_pvecs.with(cpu, |pvec| {
            ktrace!(
                "drain_cpu_pagevecs",
                "CPU{cpu}: lru_rotate pagevec: {} page(s)",
                pagevec_count(pvec)
            );
            V::pagevec_move_tail(m, pvec)
        });
        local_irq_restore(flags);
    }
}

/// `____pagevec_lru_add_fn(page, arg)` (mm/swap.c, 2.6.39–3.0: 3dd7ae8e; d8505dee in
/// 744ed144's parent). 2.6.37 has these steps in `____pagevec_lru_add()`'s loop.
pub fn ____pagevec_lru_add_fn(m: &Mem, page: PagePtr, arg: MoveArg) {
    let Some(lru) = arg else {
        harness_fail("____pagevec_lru_add_fn", "no lru".to_string())
    };
    let p = m.pg(page);
    // LEFT OUT: `struct zone *zone = page_zone(page)`: the model has one zone (Mem::zone).
    // LEFT OUT: `int file = is_file_lru(lru)`: only for the statistics below.
    let active = is_active_lru(lru);

    VM_BUG_ON!("____pagevec_lru_add_fn", PageActive(p));
    VM_BUG_ON!("____pagevec_lru_add_fn", PageUnevictable(p));
    VM_BUG_ON!("____pagevec_lru_add_fn", PageLRU(p));

    SetPageLRU(p);
    if active {
        SetPageActive(p);
    }
    // LEFT OUT: update_page_reclaim_stat(zone, page, file, active): reclaim statistics, not
    // modelled (proofs/lru.1.md).
    add_page_to_lru_list(m, page, lru);
}

/// `____pagevec_lru_add(pvec, lru)` (mm/swap.c, 2.6.39–3.0; d8505dee in 744ed144's parent):
/// "Add the passed pages to the LRU, then drop the caller's refcount on them. Reinitialises
/// the caller's pagevec." 2.6.37's open-codes `pagevec_lru_move_fn` and
/// `____pagevec_lru_add_fn` (lock, the same steps per page, unlock, `release_pages`,
/// `pagevec_reinit`), which this runs.
pub fn ____pagevec_lru_add<V: Lru>(m: &Mem, pvec: &mut Pagevec, lru: ListId) {
    // LEFT OUT: VM_BUG_ON(is_unevictable_lru(lru)): `lru` is always a file list (the
    // unevictable pages of lru.14 go to their list directly, add_page_to_unevictable_list).
    // MODEL: 2.6.37 open-codes these steps (lock, the per-page steps of
    // `____pagevec_lru_add_fn`, unlock, release_pages, pagevec_reinit), which
    // `pagevec_lru_move_fn` runs in the same order (d8505dee's rewrite, 2.6.38).
    V::pagevec_lru_move_fn(m, pvec, ____pagevec_lru_add_fn, Some(lru));
}

/// `__lru_cache_add(page, lru)` (mm/swap.c, 2.6.37–3.0).
pub fn __lru_cache_add<V: Lru>(m: &Mem, page: PagePtr, lru: ListId) {
    // MODEL: the CPU whose pagevec `get_cpu_var` takes (this thread's).
    let cpu = crate::sync::smp_processor_id();
    // LEFT OUT: UNPAIRED: `pvec = &get_cpu_var(lru_add_pvecs)[lru]`, page_cache_get(page), `if
    // (!pagevec_add(pvec, page)) ____pagevec_lru_add(pvec, lru)`, put_cpu_var(): `with(cpu,
    // ..)` below and its closure (the tool reads a closure as one statement).
    // MODEL: UNPAIRED: `m.lru_add_pvecs.with(cpu, |pvecs| ..)` is get_cpu_var ..
    // put_cpu_var with the C's body in its closure.
    m.lru_add_pvecs.with(cpu, |pvecs| {
        let pvec = &mut pvecs[lru_index(lru)];

        page_cache_get(m, page);
        ktrace!(
            "__lru_cache_add",
            "{page:?} queued on CPU{cpu}'s lru_add pagevec ({lru:?})"
        );
        if pagevec_add(m, pvec, page) == 0 {
            ____pagevec_lru_add::<V>(m, pvec, lru);
        }
    });
}

/// `lru_cache_add_lru(page, lru)` (mm/swap.c, 3.0): "add a page to a page list".
pub fn lru_cache_add_lru<V: Lru>(m: &Mem, page: PagePtr, lru: ListId) {
    let p = m.pg(page);
    if PageActive(p) {
        VM_BUG_ON!("lru_cache_add_lru", PageUnevictable(p));
        ClearPageActive(p);
    } else if PageUnevictable(p) {
        VM_BUG_ON!("lru_cache_add_lru", PageActive(p));
        ClearPageUnevictable(p);
    }

    VM_BUG_ON!(
        "lru_cache_add_lru",
        PageLRU(p) || PageActive(p) || PageUnevictable(p)
    );
    V::__lru_cache_add(m, page, lru);
}

/// `lru_add_drain()` (mm/swap.c): `drain_cpu_pagevecs(get_cpu()); put_cpu();`.
pub fn lru_add_drain<V: Lru>(m: &Mem) {
    V::drain_cpu_pagevecs(m, crate::sync::smp_processor_id());
    // LEFT OUT: `put_cpu()` (and get_cpu's preempt_disable): a model CPU is a thread that is
    // never migrated, so the CPU `smp_processor_id()` names stays the caller's.
}

/// The part of `drain_cpu_pagevecs(cpu)` (mm/swap.c) every version has: "for_each_lru(lru)
/// { pvec = &pvecs[lru - LRU_BASE]; if (pagevec_count(pvec)) ____pagevec_lru_add(pvec, lru); }"
/// (the `lru_rotate_pvecs` and `lru_deactivate_pvecs` blocks follow in the variants' drains).
pub fn drain_lru_add_pvecs<V: Lru>(m: &Mem, cpu: usize) {
    m.lru_add_pvecs.with(cpu, |pvecs| {
        for lru in [ListId::InactiveFile, ListId::ActiveFile] {
            let pvec = &mut pvecs[lru_index(lru)];
            if pagevec_count(pvec) > 0 {
                ktrace!(
                    "drain_cpu_pagevecs",
                    "CPU{cpu}: lru_add pagevec ({lru:?}): {} page(s)",
                    pagevec_count(pvec)
                );
                ____pagevec_lru_add::<V>(m, pvec, lru);
            }
        }
    });
}

/// `mark_page_accessed(page)` (mm/swap.c, 2.6.38): the caller of activate_page.
pub fn mark_page_accessed<V: Lru>(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    if !PageActive(p) && !PageUnevictable(p) && PageReferenced(p) && PageLRU(p) {
        V::activate_page(m, page);
        ClearPageReferenced(p);
    } else if !PageReferenced(p) {
        SetPageReferenced(p);
    }
}

// ---------------------------------------------------------------------------------------------
// mm/vmscan.c

/// `isolate_lru_page(page)` (mm/vmscan.c): "tries to isolate a page from its LRU list [...]
/// Returns 0 if the page was removed from an LRU list. Returns -EBUSY if the page was not on an
/// LRU list. [...] Restrictions: (1) Must be called with an elevated refcount on the page.
/// [...] (2) the lru_lock must not be held."
///
/// The text mirrored is a later kernel's, not 2.6.37–2.6.39's: `VM_BUG_ON(!page_count(page))`
/// first, then `get_page(page)` once PageLRU is seen under the lock (3.10 has this form; so
/// does the utilite vendor 3.0.x tree, which carries backports). 2.6.37–2.6.39 (kernel/ text)
/// have no VM_BUG_ON and test `PageLRU(page) && get_page_unless_zero(page)`; v3.0's own text
/// is unverified. With the reference restriction (1) kept, the two agree; a page whose count
/// is 0 gets -EBUSY from the C and a BUG here (a DISCREPANCY, stricter than the C; no model
/// passes a page whose count is 0).
pub fn isolate_lru_page(m: &Mem, page: PagePtr) -> i32 {
    let p = m.pg(page);
    let mut ret = -EBUSY;

    // MODEL: DISCREPANCY (reported): `VM_BUG_ON(!page_count(page))` is not in 2.6.37–2.6.39.
    VM_BUG_ON!("isolate_lru_page", page_count(m, page) == 0);

    if PageLRU(p) {
        // LEFT OUT: `struct zone *zone = page_zone(page)`: the model has one zone (Mem::zone).
        // LEFT OUT: UNPAIRED: `spin_lock_irq(&zone->lru_lock)` is `lru_lock(m)` just below.
        let zone = lru_lock(m);
        // LEFT OUT: DISCREPANCY (reported): the C's test is `PageLRU(page) &&
        // get_page_unless_zero(page)`: the reference is taken only if the count is not 0.
        if PageLRU(p) {
            let lru = page_lru(m, p);
            ret = 0;
            // MODEL: DISCREPANCY (reported): the later kernels' `get_page(page)` here, where
            // 2.6.37–2.6.39 took the reference with get_page_unless_zero() in the test above.
            page_cache_get(m, page); // get_page(page)
            ClearPageLRU(p);

            del_page_from_lru_list(m, page, lru);
        }
        // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(zone)`.
        // MODEL: UNPAIRED: `drop(zone)` is `spin_unlock_irq(&zone->lru_lock)`.
        drop(zone);
    }
    ktrace!(
        "isolate_lru_page",
        "{page:?}: {}",
        if ret == 0 { "isolated" } else { "-EBUSY" }
    );
    ret
}

/// `__isolate_lru_page(page, mode, file)` (mm/vmscan.c, 2.6.37–3.0), `lru_lock` held: "Only
/// take pages on the LRU", of the wanted kind, and only if a reference can still be taken.
/// (`clippy::nonminimal_bool` is allowed for the kernel's `!PageActive(page) != !mode`.)
#[allow(clippy::nonminimal_bool)]
pub fn __isolate_lru_page(m: &Mem, page: PagePtr, mode: IsolateMode, file: bool) -> i32 {
    let p = m.pg(page);
    let mut ret = -EINVAL;

    /* Only take pages on the LRU. */
    if !PageLRU(p) {
        return ret;
    }

    /*
     * When checking the active state, we need to be sure we are
     * dealing with comparible boolean values.  Take the logical not
     * of each.
     */
    if mode != IsolateMode::Both && (!PageActive(p) != (mode == IsolateMode::Inactive)) {
        return ret;
    }

    // page_is_file_cache(page) != file: file pages only (page_is_file_cache() is 1)
    if mode != IsolateMode::Both && !file {
        return ret;
    }

    /*
     * When this function is being called for lumpy reclaim, we
     * initially look into all LRU pages, active, inactive and
     * unevictable; only give shrink_page_list evictable pages.
     */
    if PageUnevictable(p) {
        return ret;
    }

    ret = -EBUSY;

    if get_page_unless_zero(m, page) {
        /*
         * Be careful not to clear PageLRU until after we're
         * sure the page is not being freed elsewhere -- the
         * page release code relies on it.
         */
        ClearPageLRU(p);
        ret = 0;
    }

    ret
}

/// `isolate_lru_pages(nr_to_scan, src, dst, scanned, order, mode, file)` (mm/vmscan.c,
/// 2.6.38–3.0: `nr_taken += hpage_nr_pages(page)`, 2.6.37: `nr_taken++`, the same for an
/// order-0 page) for order 0 (no lumpy reclaim), `lru_lock` held. Returns (nr_taken, scanned).
pub fn isolate_lru_pages<V: Lru>(
    m: &Mem,
    nr_to_scan: usize,
    src: ListId,
    dst: ListId,
    mode: IsolateMode,
    file: bool,
) -> (usize, usize) {
    let mut nr_taken = 0;
    // LEFT OUT: nr_lumpy_taken, nr_lumpy_dirty, nr_lumpy_failed: lumpy reclaim counts for the
    // tracepoint; order is 0 in the models (no lumpy reclaim).
    // MODEL: UNPAIRED: `scan = 0` is the C's `for (scan = 0; ...)`.
    let mut scan = 0;

    while scan < nr_to_scan && !list_empty(m, src) {
        // MODEL: UNPAIRED: `scan += 1` at the top of each round is the C's `scan++` at its end
        // (the same count: the C's `continue` counts too).
        scan += 1;
        let page = lru_to_page(m, src);
        // LEFT OUT: prefetchw_prev_lru_page(page, src, flags): a cache prefetch hint.

        VM_BUG_ON!("isolate_lru_pages", !PageLRU(m.pg(page)));

        match V::__isolate_lru_page(m, page, mode, file) {
            // LEFT OUT: UNPAIRED: `case 0:` is the `0 =>` arm below.
            // MODEL: UNPAIRED: `0 =>` is `case 0:`.
            0 => {
                ktrace!("isolate_lru_pages", "{page:?} isolated from {src:?}");
                list_move(m, page, dst);
                // LEFT OUT: mem_cgroup_del_lru(page): memcg is not modelled.
                nr_taken += 1; // hpage_nr_pages(page)
                               // LEFT OUT: UNPAIRED: `break` out of the switch: the end of this arm.
            }
            // LEFT OUT: UNPAIRED: `case -EBUSY:` is the arm below.
            // MODEL: UNPAIRED: `e if e == -EBUSY =>` is `case -EBUSY:`.
            e if e == -EBUSY => {
                /* else it is being freed elsewhere */
                ktrace!(
                    "isolate_lru_pages",
                    "{page:?}: -EBUSY (being freed elsewhere)"
                );
                list_move(m, page, src);
                // LEFT OUT: mem_cgroup_rotate_lru_list(page, page_lru(page)): memcg.
                continue;
            }
            // LEFT OUT: UNPAIRED: `default: BUG();` is the arm below.
            // MODEL: UNPAIRED: `_ => BUG_ON!(true)` is `default: BUG();`.
            _ => BUG_ON!("isolate_lru_pages", true),
        }
        // LEFT OUT: lumpy reclaim: `if (!order) continue;` and the scan of the order-aligned
        // block around the page (page_zone_id, pfn_to_page, __isolate_lru_page of each
        // cursor_page, the lumpy counts): order is always 0 in the models, so it continues.
    }
    // LEFT OUT: trace_mm_vmscan_lru_isolate(...): a tracepoint.
    // MODEL: UNPAIRED: the tail `(nr_taken, scan)` is `*scanned = scan; ... return nr_taken;`.
    (nr_taken, scan)
    // LEFT OUT: UNPAIRED: `return nr_taken` is the tail above (with `*scanned = scan`).
}

/// `clear_active_flags(page_list, count)` + `update_isolated_counts(zone, sc, &nr_anon,
/// &nr_file, isolated_list)` (mm/vmscan.c, 2.6.37–3.0; 2.6.38+ count `hpage_nr_pages(page)`
/// where 2.6.37 counts 1, the same for an order-0 page), `lru_lock` held: `clear_active_flags()`
/// of the isolated pages counted per list (written out first: update_isolated_counts calls it
/// before its counts), the LRU counts lowered by what was taken (NR_ISOLATED_* and the reclaim
/// statistics are not modelled). Returns nr_file.
pub fn update_isolated_counts(m: &Mem, isolated_list: ListId) -> usize {
    // LEFT OUT: clear_active_flags's `int nr_active = 0`: only for __count_vm_events below.
    // MODEL: `count` is update_isolated_counts's `unsigned int count[NR_LRU_LISTS] = { 0, }`
    // (file lists only), which it passes to clear_active_flags.
    let mut count = [0isize; NR_LRU_LISTS];
    // MODEL: UNPAIRED: `for page in walk(..)` is `list_for_each_entry(page, page_list, lru)`.
    for page in walk(m, isolated_list) {
        let p = m.pg(page);
        // LEFT OUT: 2.6.38+'s `int numpages = hpage_nr_pages(page)`: 1 for an order-0 page.
        let mut lru = page_lru_base_type(p);
        if PageActive(p) {
            lru = lru_active(lru);
            ClearPageActive(p);
            // LEFT OUT: `nr_active++` (2.6.38+: `+= numpages`): only for the vm event below.
        }
        // LEFT OUT: `if (count)`: update_isolated_counts always passes its count array.
        count[lru_index(lru)] += 1;
    }
    // LEFT OUT: clear_active_flags's `return nr_active`; update_isolated_counts's `{ 0, }` of
    // the count initializer (the tool cuts the C's initializer braces: `count` above), its
    // `reclaim_stat = get_reclaim_stat(zone, sc)`, and its call `nr_active =
    // clear_active_flags(isolated_list, count)`, whose body is the loop above; then
    // __count_vm_events(PGDEACTIVATE, nr_active): a vm event, not modelled.
    // LEFT OUT: UNPAIRED: `__mod_zone_page_state(zone, NR_ACTIVE_FILE, -count[LRU_ACTIVE_FILE])`
    // and its NR_INACTIVE_FILE twin are the two calls below.
    // MODEL: UNPAIRED: the two calls below are those of NR_ACTIVE_FILE and NR_INACTIVE_FILE
    // (`ListId` names the list, `lru_index` its slot in `count`).

    __mod_zone_page_state(m, ListId::ActiveFile, -count[lru_index(ListId::ActiveFile)]);
    __mod_zone_page_state(
        m,
        ListId::InactiveFile,
        -count[lru_index(ListId::InactiveFile)],
    );
    // LEFT OUT: the NR_ACTIVE_ANON/NR_INACTIVE_ANON counts (file pages only, they are 0),
    // `*nr_anon = ...`, NR_ISOLATED_ANON/FILE and reclaim_stat->recent_scanned[]: not
    // modelled (proofs/lru.1.md).
    // MODEL: the tail is `*nr_file = count[LRU_ACTIVE_FILE] + count[LRU_INACTIVE_FILE]`,
    // returned instead of stored through a pointer.
    (count[0] + count[1]) as usize
}

/// What `shrink_page_list()` does with a page: decided by `trylock_page()`,
/// `page_check_references()` (the page's young ptes) and `page_mapping()`, which the model does
/// not have, so the scenario says which case each page is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shrink {
    /// A mapped page with referenced ptes: `PAGEREF_ACTIVATE` → `activate_locked`.
    Activate,
    /// A mapped file page referenced for the first time (`PAGEREF_KEEP`; its
    /// `SetPageReferenced` is not modelled), or a page with no mapping left (truncated:
    /// `!mapping`): `keep_locked`; or a page truncation holds locked (`!trylock_page(page)`):
    /// `keep`. The same list work.
    Keep,
}

/// `shrink_page_list(page_list, zone, sc)` (mm/vmscan.c, 2.6.38–3.0: `sc->reclaim_mode`,
/// `reset_reclaim_mode()`; 2.6.37 names them `lumpy_reclaim_mode` and differs in the lumpy
/// tests only), reduced to the labels a page reaches in the models: `cull_mlocked` (a page
/// that is not evictable: `putback_lru_page()`, lru.14), `activate_locked` (SetPageActive) or
/// `keep_locked`, then `keep` (`list_add(&page->lru, &ret_pages)`); at the end
/// `list_splice(&ret_pages, page_list)`. Nothing is reclaimed. The page lock
/// (`trylock_page` / `unlock_page`) is not modelled.
pub fn shrink_page_list<V: Lru>(
    m: &Mem,
    page_list: ListId,
    ret_pages: ListId,
    how: &dyn Fn(PagePtr) -> Shrink,
) -> usize {
    // LEFT OUT: UNPAIRED: `LIST_HEAD(ret_pages)` is `INIT_LIST_HEAD(m, ret_pages)` below.
    // MODEL: UNPAIRED: `INIT_LIST_HEAD(m, ret_pages)` is `LIST_HEAD(ret_pages)` (a list head
    // of this CPU's, empty at the start as the stack one is).
    INIT_LIST_HEAD(m, ret_pages); // LIST_HEAD(ret_pages)
                                  // LEFT OUT: `LIST_HEAD(free_pages)`, pgactivate, nr_dirty, nr_congested, nr_reclaimed:
                                  // nothing is reclaimed or written back, no vm events; cond_resched(): no scheduling
                                  // points are modelled (loom switches CPUs anywhere).
    while !list_empty(m, page_list) {
        // LEFT OUT: cond_resched(): no scheduling points are modelled.
        let page = lru_to_page(m, page_list);
        let p = m.pg(page);
        list_del(m, page);
        // LEFT OUT: `if (!trylock_page(page)) goto keep;`: reclaim does not take the page lock
        // here; a page the scenario says is locked elsewhere (truncation) is a `Shrink::Keep` page,
        // whose list work is keep's (it also passes the VM_BUG_ON below, which the C skips
        // for it: PG_active is clear on every isolated page, update_isolated_counts cleared
        // it and only PageLRU pages are activated).

        VM_BUG_ON!("shrink_page_list", PageActive(p));
        // LEFT OUT: `VM_BUG_ON(page_zone(page) != zone)`: one zone; `sc->nr_scanned++`: a
        // reclaim statistic.

        if !page_evictable(m, page) {
            // MODEL: the `cull_mlocked:` label's code is written here, in the branch that goes
            // to it (`goto cull_mlocked`); the C has it after the `free_it:` label. Its other
            // way in, try_to_unmap()'s `case SWAP_MLOCK: goto cull_mlocked` (an mlocked vma),
            // is left out with try_to_unmap and mlock (below, and proofs/lru.14.md). A
            // `Shrink::Keep` page that truncation holds locked (`!trylock_page`, which the C
            // sends to `keep` before this test) passes it too: in those models every page is
            // evictable.
            // LEFT OUT: `if (PageSwapCache(page)) try_to_free_swap(page)`: file pages only;
            // unlock_page(page): reclaim does not take the page lock here.
            ktrace!(
                "shrink_page_list",
                "{page:?}: !page_evictable: cull_mlocked"
            );
            V::putback_lru_page(m, page);
            // LEFT OUT: `reset_reclaim_mode(sc)` (2.6.37: `disable_lumpy_reclaim_mode(sc)`):
            // order 0, no lumpy mode to reset.
            continue;
        }

        // LEFT OUT: the rest of the reclaim of the page, from the may_unmap and writeback
        // tests to the `free_it:` label (page_check_references(), add_to_swap,
        // try_to_unmap, pageout, try_to_release_page, __remove_mapping, the free): nothing is
        // reclaimed in the models. The label a page reaches is the scenario's:
        // activate_locked (PAGEREF_ACTIVATE), keep_locked (PAGEREF_KEEP, or a truncated
        // page's `!mapping`) or keep (`!trylock_page`).
        // MODEL: `how(page)` is that verdict of page_check_references() and page_mapping(),
        // which the model has no ptes nor mapping to compute (`Shrink`).
        if how(page) == Shrink::Activate {
            // activate_locked:
            // LEFT OUT: the `activate_locked:` label; `if (PageSwapCache(page) &&
            // vm_swap_full()) try_to_free_swap(page)`: file pages only, no swap cache.
            VM_BUG_ON!("shrink_page_list", PageActive(p));
            SetPageActive(p);
            // LEFT OUT: pgactivate++: a vm event count.
            ktrace!("shrink_page_list", "{page:?}: activate_locked");
        } else {
            // MODEL: the `else` of the scenario's verdict: keep_locked / keep (a trace only).
            ktrace!("shrink_page_list", "{page:?}: keep_locked");
        }
        // keep_locked: unlock_page(page); keep:
        // LEFT OUT: `keep_locked: unlock_page(page)` (reclaim does not take the page lock here),
        // `keep: reset_reclaim_mode(sc)` (order 0: no lumpy mode to reset) and the `keep_lumpy:`
        // label.
        list_add(m, page, ret_pages);
        VM_BUG_ON!("shrink_page_list", PageLRU(p) || PageUnevictable(p));
    }
    // LEFT OUT: the ZONE_CONGESTED tag (`if (nr_dirty && nr_dirty == nr_congested && ...)
    // zone_set_flag(...)`: nothing is written back) and free_page_list(&free_pages) (nothing
    // is freed).
    list_splice(m, ret_pages, page_list);
    // LEFT OUT: count_vm_events(PGACTIVATE, pgactivate): a vm event, not modelled.
    // LEFT OUT: UNPAIRED: `return nr_reclaimed` is the tail `0` below.
    // MODEL: UNPAIRED: the tail `0` is `return nr_reclaimed` (nothing is reclaimed).
    0
}

/// `shrink_inactive_list(nr_to_scan, zone, sc, priority, file)` (mm/vmscan.c, 2.6.38–3.0:
/// `sc->reclaim_mode`; 2.6.37's `sc->lumpy_reclaim_mode == LUMPY_MODE_NONE ? ISOLATE_INACTIVE
/// : ISOLATE_BOTH` is the same choice) for the inactive file list, order 0
/// (`ISOLATE_INACTIVE`); `too_many_isolated`, the stall and the statistics are not modelled. `nr_to_scan` is what `shrink_zone` asked for (the models scan
/// the whole list: priority 0). Returns nr_reclaimed.
pub fn shrink_inactive_list<V: Lru>(
    m: &Mem,
    nr_to_scan: usize,
    how: &dyn Fn(PagePtr) -> Shrink,
) -> usize {
    // MODEL: UNPAIRED: `LIST_HEAD(page_list)` is this CPU's private list head, emptied.
    let cpu = crate::sync::smp_processor_id();
    let page_list = page_list(cpu);
    INIT_LIST_HEAD(m, page_list); // LIST_HEAD(page_list)
                                  // LEFT OUT: UNPAIRED: `LIST_HEAD(page_list)` is the three lines above. `nr_reclaimed = 0`:
                                  // set by shrink_page_list below. The `too_many_isolated()` wait (congestion_wait,
                                  // fatal_signal_pending): the models isolate from a few CPUs only and never throttle.
                                  // `set_reclaim_mode(priority, sc, false)`: order 0, RECLAIM_MODE_SINGLE (no lumpy mode).

    lru_add_drain::<V>(m);

    // LEFT OUT: UNPAIRED: `spin_lock_irq(&zone->lru_lock)` is `lru_lock(m)` just below.
    let zone = lru_lock(m);
    ktrace!(
        "shrink_inactive_list",
        "scan up to {nr_to_scan} page(s) of InactiveFile under lru_lock"
    );

    // isolate_pages_global(nr_to_scan, &page_list, &nr_scanned, sc->order,
    //                      ISOLATE_INACTIVE, zone, 0, file)
    // LEFT OUT: `if (scanning_global_lru(sc))` and its memcg `else`
    // (mem_cgroup_isolate_pages): global reclaim only; `nr_taken =
    // isolate_pages_global(...)`: it picks the zone's inactive file list (active 0, file 1)
    // and calls isolate_lru_pages on it, below; `zone->pages_scanned += nr_scanned` and the
    // PGSCAN_KSWAPD/PGSCAN_DIRECT events: statistics, not modelled.
    // MODEL: isolate_pages_global written out: isolate_lru_pages of LRU_INACTIVE_FILE with
    // ISOLATE_INACTIVE (order 0: `sc->reclaim_mode & RECLAIM_MODE_LUMPYRECLAIM` is clear).
    let (nr_taken, nr_scanned) = isolate_lru_pages::<V>(
        m,
        nr_to_scan,
        ListId::InactiveFile,
        page_list,
        IsolateMode::Inactive,
        true,
    );
    ktrace!(
        "shrink_inactive_list",
        "scanned {nr_scanned}, took {nr_taken}"
    );

    if nr_taken == 0 {
        // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(zone)`.
        // MODEL: UNPAIRED: `drop(zone)` is `spin_unlock_irq(&zone->lru_lock)`.
        drop(zone);
        return 0;
    }

    update_isolated_counts(m, page_list);

    // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(zone)`.
    // MODEL: UNPAIRED: `drop(zone)` is `spin_unlock_irq(&zone->lru_lock)`.
    drop(zone);

    // MODEL: `ret_pages(cpu)`: the list head shrink_page_list's `LIST_HEAD(ret_pages)` is.
    let nr_reclaimed = shrink_page_list::<V>(m, page_list, ret_pages(cpu), how);

    // LEFT OUT: the synchronous second pass (`if (should_reclaim_stall(...)) {
    // set_reclaim_mode(priority, sc, true); nr_reclaimed += shrink_page_list(...); }`):
    // nothing is under writeback and order is 0, so it never stalls.
    // LEFT OUT: local_irq_disable(): putback_lru_pages then takes lru_lock with plain
    // spin_lock; the model's `lru_lock(m)` there disables interrupts itself (the same state:
    // no model raises an interrupt on the reclaiming CPU).
    // LEFT OUT: the KSWAPD_STEAL and PGSTEAL events: statistics, not modelled.
    V::putback_lru_pages(m, page_list);
    // LEFT OUT: trace_mm_vmscan_lru_shrink_inactive(...): a tracepoint.
    nr_reclaimed
}

/// What `page_referenced(page, 0, sc->mem_cgroup, &vm_flags)` (mm/rmap.c) finds on reclaim's
/// scan of the active list. The model has no page tables, so the scenario says which case a
/// page is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Referenced {
    /// No young pte: an unmapped page-cache page (`page_referenced()` returns 0: it walks the
    /// rmap only `if (page_mapped(page) && page_rmapping(page))`).
    No,
    /// Young ptes, no VM_EXEC mapping: counted as rotated, deactivated all the same.
    Yes,
    /// Young ptes of a VM_EXEC file mapping: "one more trip around the active list".
    Exec,
}

/// `move_active_pages_to_lru(zone, list, lru)` (mm/vmscan.c, 2.6.37: `pgmoved++`; 2.6.38–3.0:
/// `pgmoved += hpage_nr_pages(page)`, the same for an order-0 page), `lru_lock` held (`zone`),
/// dropped and retaken around each `__pagevec_release()`. "It is safe to rely on PG_active
/// against the non-LRU pages in here because nobody will play with that bit on a non-LRU page"
/// (the comment above it): 744ed144's `__activate_page()` does.
pub fn move_active_pages_to_lru<'m, V: Lru>(
    m: &'m Mem,
    zone: &mut Option<LruLock<'m>>,
    list: ListId,
    lru: ListId,
) {
    let mut pgmoved = 0;
    // LEFT OUT: UNPAIRED: `pagevec_init(&pvec, 1)` is `Pagevec::new` below (cold unused).
    // MODEL: UNPAIRED: `Pagevec::new(size)` is `pagevec_init(&pvec, 1)` (a model pagevec
    // carries its size: proofs/lru.7.md).
    let mut pvec = Pagevec::new(m.pagevec_size); // pagevec_init(&pvec, 1)

    while !list_empty(m, list) {
        let page = lru_to_page(m, list);
        let p = m.pg(page);

        VM_BUG_ON!("move_active_pages_to_lru", PageLRU(p));
        SetPageLRU(p);

        ktrace!("move_active_pages_to_lru", "{page:?} -> {lru:?}");
        list_move(m, page, lru);
        // MODEL: ghost: the page is on `lru` and not yet in its count (`pgmoved` is added at
        // the end, after lru_lock may have been dropped: ZoneLruStat::uncounted).
        ghost_uncounted(m, lru, 1);
        // LEFT OUT: mem_cgroup_add_lru_list(page, lru): memcg is not modelled.
        pgmoved += 1; // 2.6.38+: hpage_nr_pages(page)

        if pagevec_add(m, &mut pvec, page) == 0 || list_empty(m, list) {
            // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(..)` below.
            // MODEL: UNPAIRED: `drop(zone.take())` is `spin_unlock_irq(&zone->lru_lock)`.
            drop(zone.take());
            // LEFT OUT: `if (buffer_heads_over_limit) pagevec_strip(&pvec)`: no buffer heads
            // are modelled.
            __pagevec_release::<V>(m, &mut pvec);
            // LEFT OUT: UNPAIRED: `spin_lock_irq(&zone->lru_lock)` is `lru_lock(m)` below.
            // MODEL: UNPAIRED: `*zone = Some(lru_lock(m))` is `spin_lock_irq(&zone->lru_lock)`.
            *zone = Some(lru_lock(m));
        }
    }
    __mod_zone_page_state(m, lru, pgmoved);
    // MODEL: ghost: the pages moved are counted now.
    ghost_uncounted(m, lru, -pgmoved);
    // LEFT OUT: `if (!is_active_lru(lru)) __count_vm_events(PGDEACTIVATE, pgmoved)`: a vm
    // event, not modelled.
}

/// `shrink_active_list(nr_pages, zone, sc, priority, file)` (mm/vmscan.c, 2.6.37–3.0; 2.6.38+
/// count `nr_rotated += hpage_nr_pages(page)`, a statistic) of the file list, global reclaim:
/// the active pages are isolated under `lru_lock`, judged without it (PG_active cleared on
/// those that go inactive), and moved back under it. `referenced` is `page_referenced()`.
pub fn shrink_active_list<V: Lru>(
    m: &Mem,
    nr_pages: usize,
    referenced: &dyn Fn(PagePtr) -> Referenced,
) {
    // LEFT OUT: `unsigned long nr_taken, pgscanned, vm_flags` and `struct page *page`:
    // declarations (nr_taken and pgscanned are the result of isolate_lru_pages below).
    // MODEL: UNPAIRED: the three list heads are this CPU's private lists, emptied
    // (`LIST_HEAD(l_hold)`, `LIST_HEAD(l_active)`, `LIST_HEAD(l_inactive)`).
    let cpu = crate::sync::smp_processor_id();
    let l_hold = page_list(cpu); /* The pages which were snipped off */
    INIT_LIST_HEAD(m, l_hold);
    let l_active = l_active(cpu);
    INIT_LIST_HEAD(m, l_active);
    let l_inactive = ret_pages(cpu);
    INIT_LIST_HEAD(m, l_inactive);
    // LEFT OUT: UNPAIRED: `LIST_HEAD(l_hold)`, `LIST_HEAD(l_active)`, `LIST_HEAD(l_inactive)`
    // are the six lines above. `reclaim_stat = get_reclaim_stat(zone, sc)`, `nr_rotated = 0`:
    // reclaim statistics, not modelled.

    lru_add_drain::<V>(m);
    // LEFT OUT: UNPAIRED: `spin_lock_irq(&zone->lru_lock)` is `lru_lock(m)` just below.
    let zone = lru_lock(m);
    ktrace!(
        "shrink_active_list",
        "scan up to {nr_pages} page(s) of ActiveFile under lru_lock"
    );
    // LEFT OUT: `if (scanning_global_lru(sc))` and its memcg `else`
    // (mem_cgroup_isolate_pages): global reclaim only; `nr_taken = isolate_pages_global(...)`
    // picks the zone's active file list (active 1, file 1) and calls isolate_lru_pages on it,
    // below; `zone->pages_scanned += pgscanned`: a statistic, not modelled.
    // MODEL: isolate_pages_global written out: isolate_lru_pages of LRU_ACTIVE_FILE with
    // ISOLATE_ACTIVE (order 0: `sc->order` is 0).
    let (nr_taken, pgscanned) = isolate_lru_pages::<V>(
        m,
        nr_pages,
        ListId::ActiveFile,
        l_hold,
        IsolateMode::Active,
        true,
    );
    ktrace!("shrink_active_list", "scanned {pgscanned}, took {nr_taken}");

    // LEFT OUT: `reclaim_stat->recent_scanned[file] += nr_taken` and
    // `__count_zone_vm_events(PGREFILL, zone, pgscanned)`: statistics, not modelled.
    // LEFT OUT: UNPAIRED: `if (file) __mod_zone_page_state(zone, NR_ACTIVE_FILE, -nr_taken)`
    // is the call below; its `else` (NR_ACTIVE_ANON): file pages only.
    // MODEL: UNPAIRED: the call below is the `if (file)` branch's.
    __mod_zone_page_state(m, ListId::ActiveFile, -(nr_taken as isize));
    // LEFT OUT: `__mod_zone_page_state(zone, NR_ISOLATED_ANON + file, nr_taken)`: NR_ISOLATED_*
    // are not modelled (proofs/lru.1.md).
    // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(zone)`.
    // MODEL: UNPAIRED: `drop(zone)` is `spin_unlock_irq(&zone->lru_lock)`.
    drop(zone);

    while !list_empty(m, l_hold) {
        // LEFT OUT: cond_resched(): a voluntary preemption point; the checkers preempt anywhere.
        let page = lru_to_page(m, l_hold);
        list_del(m, page);

        // LEFT OUT: `if (unlikely(!page_evictable(page, NULL))) { putback_lru_page(page);
        // continue; }`: every page of the models that run shrink_active_list is evictable
        // (lru.14 to lru.17, the models with an unevictable list, do not run it).

        // MODEL: UNPAIRED: `referenced(page)` is `page_referenced(page, 0, sc->mem_cgroup,
        // &vm_flags)`, its result and vm_flags as one value (the model has no page tables).
        let r = referenced(page);
        if r != Referenced::No {
            // LEFT OUT: `nr_rotated += hpage_nr_pages(page)` (2.6.37: `nr_rotated++`): a
            // reclaim statistic, not modelled.
            /*
             * Identify referenced, file-backed active pages and
             * give them one more trip around the active list. So
             * that executable code get better chances to stay in
             * memory under moderate memory pressure.  Anon pages
             * are not likely to be evicted by use-once streaming
             * IO, plus JVM can create lots of anon VM_EXEC pages,
             * so we ignore them here.
             */
            // MODEL: `r == Referenced::Exec` is `(vm_flags & VM_EXEC) && page_is_file_cache(page)`
            // (file pages only: page_is_file_cache() is 1).
            if r == Referenced::Exec {
                list_add(m, page, l_active);
                continue;
            }
        }

        ClearPageActive(m.pg(page)); /* we are de-activating */
        ktrace!(
            "shrink_active_list",
            "{page:?}: ClearPageActive (we are de-activating)"
        );
        list_add(m, page, l_inactive);
    }

    /*
     * Move pages back to the lru list.
     */
    // LEFT OUT: UNPAIRED: `spin_lock_irq(&zone->lru_lock)` is `lru_lock(m)` just below.
    // MODEL: UNPAIRED: `Some(lru_lock(m))`: move_active_pages_to_lru drops and retakes it.
    let mut zone = Some(lru_lock(m));
    // LEFT OUT: `reclaim_stat->recent_rotated[file] += nr_rotated`: a reclaim statistic.

    move_active_pages_to_lru::<V>(m, &mut zone, l_active, ListId::ActiveFile);
    move_active_pages_to_lru::<V>(m, &mut zone, l_inactive, ListId::InactiveFile);
    // LEFT OUT: `__mod_zone_page_state(zone, NR_ISOLATED_ANON + file, -nr_taken)`: NR_ISOLATED_*
    // are not modelled (proofs/lru.1.md).
    // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(zone)`.
    // MODEL: UNPAIRED: `drop(zone)` is `spin_unlock_irq(&zone->lru_lock)`.
    drop(zone);
}

/// `putback_lru_page(page)` (mm/vmscan.c, 2.6.37–3.0): "put previously isolated page onto
/// appropriate LRU list": an evictable page through this CPU's `lru_add` pagevec, an
/// unevictable one straight onto the zone's unevictable list, rechecked after it is there
/// (the `redo:` loop); then the isolation reference is dropped. Only lru.14 to lru.17 have
/// unevictable pages (`crate::mm::unevictable`): in every other model `page_evictable()` is true.
pub fn putback_lru_page<V: Lru>(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    // MODEL: UNPAIRED: `let mut lru` is `int lru`.
    let mut lru;
    let active = TestClearPageActive(p);
    let was_unevictable = PageUnevictable(p);

    VM_BUG_ON!("putback_lru_page", PageLRU(p));

    // LEFT OUT: UNPAIRED: the `redo:` label is the `loop` below.
    // MODEL: `loop` is the `redo:` label: `continue` below is its `goto redo`, and `break`
    // leaves it where the C falls through.
    loop {
        ClearPageUnevictable(p);

        if page_evictable(m, page) {
            /*
             * For evictable pages, we can use the cache.
             * In event of a race, worst case is we end up with an
             * unevictable page on [in]active list.
             * We know how to handle that.
             */
            lru = if active {
                // MODEL: the arms of this `if` are `lru = active + page_lru_base_type(page)`:
                // ActiveFile is LRU_INACTIVE_FILE + 1.
                lru_active(page_lru_base_type(p))
            } else {
                page_lru_base_type(p)
            };
            ktrace!(
                "putback_lru_page",
                "{page:?} -> {lru:?} (was_unevictable {was_unevictable})"
            );
            lru_cache_add_lru::<V>(m, page, lru);
        } else {
            /*
             * Put unevictable pages directly on zone's unevictable
             * list.
             */
            lru = ListId::Unevictable; // lru = LRU_UNEVICTABLE
            ktrace!(
                "putback_lru_page",
                "{page:?}: !page_evictable: to the unevictable list"
            );
            V::add_page_to_unevictable_list(m, page);
            /*
             * When racing with an mlock clearing (page is
             * unlocked), make sure that if the other thread does
             * not observe our setting of PG_lru and fails
             * isolation, we see PG_mlocked cleared below and move
             * the page back to the evictable list.
             *
             * The other side is TestClearPageMlocked().
             */
            smp_mb();
        }

        /*
         * page's status can change while we move it among lru. If an evictable
         * page is on unevictable list, it never be freed. To avoid that,
         * check after we added it to the list, again.
         */
        #[allow(clippy::collapsible_if)] // the kernel's two nested tests, its comment between
        if lru == ListId::Unevictable && page_evictable(m, page) {
            if V::isolate_lru_page(m, page) == 0 {
                ktrace!(
                    "putback_lru_page",
                    "{page:?} evictable again: taken back off the unevictable list, redo"
                );
                put_page::<V>(m, page);
                // MODEL: UNPAIRED: `continue` is `goto redo`.
                continue; // goto redo
            }
            /* This means someone else dropped this page from LRU
             * So, it will be freed or putback to LRU again. There is
             * nothing to do here.
             */
        }
        // MODEL: UNPAIRED: `break` leaves the `redo:` loop where the C falls through.
        break;
    }

    // LEFT OUT: `if (was_unevictable && lru != LRU_UNEVICTABLE)
    // count_vm_event(UNEVICTABLE_PGRESCUED); else if (!was_unevictable && lru ==
    // LRU_UNEVICTABLE) count_vm_event(UNEVICTABLE_PGCULLED);`: vm events, not modelled.

    put_page::<V>(m, page); /* drop ref from isolate */
}

// ---------------------------------------------------------------------------------------------
// mm/compaction.c

/// COMPACT_CLUSTER_MAX (include/linux/swap.h, 2.6.35–3.0: `#define COMPACT_CLUSTER_MAX
/// SWAP_CLUSTER_MAX`): the most pages one round of the migrate scanner isolates.
pub const COMPACT_CLUSTER_MAX: usize = SWAP_CLUSTER_MAX;

/// `struct compact_control` (mm/compaction.c) reduced to the migrate scanner's part: the list
/// of isolated pages (`migratepages`, a CPU's private list here), their count and the pfn the
/// scanner goes on from. The free scanner's fields (`freepages`, `nr_freepages`, `free_pfn`),
/// `nr_anon`/`nr_file`, `order`, `migratetype` and `zone` are not modelled.
pub struct CompactControl {
    /// `struct list_head migratepages`.
    pub migratepages: ListId,
    /// `unsigned long nr_migratepages`.
    pub nr_migratepages: usize,
    /// `unsigned long migrate_pfn`.
    pub migrate_pfn: usize,
}

/// `isolate_migratepages(zone, cc)` (mm/compaction.c, 2.6.37 text; the later texts' lines,
/// THP's (2.6.38) and the lock release of 2.6.39, are marked: kernel/ says which version has
/// which): "Isolate all pages that can be migrated from the block pointed to by the migrate
/// scanner". Under `zone->lru_lock`, every pfn of the block: `__isolate_lru_page(page,
/// ISOLATE_BOTH, 0)` (which takes the reference with `get_page_unless_zero()`: no reference is
/// held before, unlike `isolate_lru_page()`), then `del_page_from_lru_list()` and `list_add()`
/// on `cc->migratepages`. The page keeps PG_active. The machine is one pageblock that starts
/// at pfn 0 and lies below the free scanner.
pub fn isolate_migratepages<V: Lru>(m: &Mem, cc: &mut CompactControl) -> usize {
    // LEFT OUT: the later texts' last_pageblock_nr, pageblock_nr (for the async-compaction
    // test below) and nr_scanned, nr_isolated (for the tracepoint at the end): not in 2.6.37.
    let migratelist = cc.migratepages;

    /* Do not scan outside zone boundaries */
    // MODEL: `low_pfn = max(cc->migrate_pfn, zone->zone_start_pfn)`: the zone starts at pfn 0.
    let mut low_pfn = cc.migrate_pfn;

    /* Only scan within a pageblock boundary */
    // MODEL: `end_pfn = ALIGN(low_pfn + pageblock_nr_pages, pageblock_nr_pages)`: the machine
    // is one pageblock, its frames all the model has.
    let end_pfn = m.map.nr_pages();

    /* Do not cross the free scanner or scan within a memory hole */
    // LEFT OUT: `if (end_pfn > cc->free_pfn || !pfn_valid(low_pfn)) { cc->migrate_pfn =
    // end_pfn; return 0; }`: the free scanner is not modelled (it starts at the zone's end,
    // above this block) and every pfn of the machine is valid.

    /*
     * Ensure that there are not too many pages isolated from the LRU
     * list by either parallel reclaimers or compaction. If there are,
     * delay for some time until fewer pages are isolated
     */
    // LEFT OUT: `while (unlikely(too_many_isolated(zone))) { congestion_wait(BLK_RW_ASYNC,
    // HZ/10); if (fatal_signal_pending(current)) return 0; }`: NR_ISOLATED_* are not modelled
    // (proofs/lru.1.md). The kernel only waits here; going on at once runs the scan in every
    // schedule the kernel's would, and more.

    /* Time to isolate some pages for migration */
    // LEFT OUT: later texts' `cond_resched()`: a scheduling hint, not in 2.6.37.
    // LEFT OUT: UNPAIRED: `spin_lock_irq(&zone->lru_lock)` is `lru_lock(m)` just below.
    // MODEL: UNPAIRED: `lru_lock(m)` is `spin_lock_irq(&zone->lru_lock)`.
    let zone = lru_lock(m);
    // MODEL: UNPAIRED: `while low_pfn < end_pfn` is `for (; low_pfn < end_pfn; low_pfn++)`
    // (the `low_pfn += 1` of each `continue` and at the end of the body is its `low_pfn++`).
    while low_pfn < end_pfn {
        // LEFT OUT: the later texts' `bool locked = true` and the lock release every
        // SWAP_CLUSTER_MAX pfns and on need_resched()/spin_is_contended() (b2eef8c0, 2.6.39:
        // `if (!((low_pfn+1) % SWAP_CLUSTER_MAX))`, `spin_unlock_irq`, `cond_resched()`,
        // `spin_lock_irq`, `fatal_signal_pending`): not in 2.6.37, whose scan holds the lock
        // over the whole block. The machine's block is shorter than SWAP_CLUSTER_MAX; a
        // release on contention would let another CPU in between two frames, which a block of
        // one frame (lru.11) does not have and the soak's six frames do: for eb709b0d the soak
        // misses those schedules (proofs/lru.soak.md, Left out).
        // LEFT OUT: `if (!pfn_valid_within(low_pfn)) continue`: every pfn is valid (no holes);
        // the later texts' `nr_scanned++`: for their tracepoint.

        /* Get the page and skip if free */
        let page = m.pfn_to_page(low_pfn);
        // LEFT OUT: `if (PageBuddy(page)) continue`: the model has no PG_buddy; a free frame
        // has no PG_lru, and __isolate_lru_page's PageLRU test below skips it the same way.
        // LEFT OUT: later texts' async-compaction test (`if (!cc->sync && last_pageblock_nr !=
        // pageblock_nr && get_pageblock_migratetype(page) != MIGRATE_MOVABLE)`): the model's
        // compaction is synchronous, as all of 2.6.37's is.
        // LEFT OUT: THP's (2.6.38) `if (!PageLRU(page)) continue` and `if
        // (PageTransHuge(page)) { low_pfn += ...; continue; }`: __isolate_lru_page
        // below makes the same PageLRU test under the same lock; no page here is huge.

        /* Try isolate the page */
        // MODEL: ISOLATE_BOTH with `file` 0: __isolate_lru_page skips its file test for it.
        if V::__isolate_lru_page(m, page, IsolateMode::Both, false) != 0 {
            // MODEL: UNPAIRED: the `for` loop's `low_pfn++`, which `continue` runs.
            low_pfn += 1;
            continue;
        }
        // LEFT OUT: THP's `VM_BUG_ON(PageTransCompound(page))`: no page here is compound.

        /* Successfully isolated */
        ktrace!("isolate_migratepages", "{page:?} isolated");
        del_page_from_lru_list(m, page, page_lru(m, m.pg(page)));
        list_add(m, page, migratelist);
        // LEFT OUT: 2.6.36–2.6.37-rc's mem_cgroup_del_lru(page) (kernel/linux-2.6.37's header
        // says why 2.6.37 most likely lacks it): memcg is not modelled.
        cc.nr_migratepages += 1;
        // LEFT OUT: the later texts' `nr_isolated++`: for their tracepoint.

        /* Avoid isolating too much */
        if cc.nr_migratepages == COMPACT_CLUSTER_MAX {
            break;
        }
        // MODEL: UNPAIRED: the `for` loop's `low_pfn++` at the end of the body.
        low_pfn += 1;
    }

    // LEFT OUT: acct_isolated(zone, cc): it counts the isolated pages into NR_ISOLATED_ANON
    // and NR_ISOLATED_FILE, which are not modelled (proofs/lru.1.md).

    // MODEL: UNPAIRED: `drop(zone)` is `spin_unlock_irq(&zone->lru_lock)`.
    drop(zone);
    // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(zone)` above.
    cc.migrate_pfn = low_pfn;

    // LEFT OUT: the later texts' trace_mm_compaction_isolate_migratepages(nr_scanned,
    // nr_isolated) (2.6.38): a tracepoint.

    cc.nr_migratepages
}

// ---------------------------------------------------------------------------------------------
// mm/migrate.c, mm/truncate.c

/// `unmap_and_move(get_new_page, private, page, force, offlining, sync)` (mm/migrate.c, 2.6.39
/// text: unverified for 2.6.37, which has no `sync` argument nor THP split, and for 3.0) for
/// a page that is not moved: either "page was freed from under us"
/// (`page_count(page) == 1`: only the isolation reference is left, the page cache dropped
/// its own) or the move failed for good; both reach `move_newpage`, which takes the page off
/// the migration list and puts it back. The new page, the page lock, unmapping and the copy
/// are not modelled.
pub fn unmap_and_move<V: Lru>(m: &Mem, page: PagePtr) {
    // LEFT OUT: rc, result, remap_swapcache, charge, mem, anon_vma, and `newpage =
    // get_new_page(page, private, &result)` with its `if (!newpage) return -ENOMEM`: the new
    // page is not modelled (the move never happens).
    if page_count(m, page) == 1 {
        /* page was freed from under us. So we are done. */
        ktrace!("unmap_and_move", "{page:?} was freed from under us");
        // LEFT OUT: UNPAIRED: `goto move_newpage` is the fall-through to the tail below.
        // LEFT OUT: for any other page the C then tries the move (the `else` below); its
        // first part, up to the anon_vma pin (the PageTransHuge split, rc = -EAGAIN,
        // trylock_page/lock_page, the KSM test, mem_cgroup_prepare_migration, the writeback
        // wait, page_lock_anon_vma/get_anon_vma, the swapcache case), falls in this gap with
        // the tool's pairing of that `else`: the page lock, ptes, anon_vmas and memcg are not
        // modelled; the models' page is never moved.
    } else {
        // MODEL: the `else`: any other page fails to move in the models and reaches
        // move_newpage with rc != -EAGAIN (-EBUSY, or a move that failed: a trace only).
        ktrace!("unmap_and_move", "{page:?} not migrated");
        // LEFT OUT: the rest of the move, to `unlock: unlock_page(page)` (the !page->mapping
        // case, try_to_unmap, move_to_new_page, remove_migration_ptes, put_anon_vma,
        // mem_cgroup_end_migration): the page lock, ptes and the copy are not modelled.
    }
    // move_newpage: if (rc != -EAGAIN) {
    // LEFT OUT: the `move_newpage:` label and `if (rc != -EAGAIN)`: a page that keeps failing
    // with -EAGAIN stays on the list for migrate_pages' next pass (up to 10), after which its
    // caller runs migrate.c's putback_lru_pages() on it: `list_del`, the NR_ISOLATED count
    // and putback_lru_page(), the steps below. The model goes to that end at once (the
    // passes in between touch only the page lock and ptes, which it does not have).
    /*
     * A page that has been migrated has all references
     * removed and will be freed. A page that has not been
     * migrated will have kepts its references and be
     * restored.
     */
    list_del(m, page);
    // dec_zone_page_state(page, NR_ISOLATED_ANON + page_is_file_cache(page)): not modelled
    // LEFT OUT: dec_zone_page_state(page, NR_ISOLATED_ANON + page_is_file_cache(page)):
    // NR_ISOLATED_* are not modelled (proofs/lru.1.md).
    V::putback_lru_page(m, page);
    // LEFT OUT: DISCREPANCY (reported): `putback_lru_page(newpage)`: the C puts the unused
    // new page through this CPU's lru_add pagevec too (to free it), which can fill and flush
    // that pagevec; the model has no new page. `if (result) ...; return rc;`: no caller
    // reads them in the models.
}

/// `truncate_complete_page(mapping, page)` (mm/truncate.c, 2.6.37–2.6.38) of a clean,
/// unmapped page without buffers: `remove_from_page_cache(page)` (the radix-tree slot and
/// `page->mapping`, not modelled) and `page_cache_release(page)` of the page cache's
/// reference, which the caller hands over as `pagecache`. 2.6.39–3.0 (eb709b0d) call
/// `delete_from_page_cache(page)` instead, which does the same removal and then drops the
/// same reference (`page_cache_release(page)`); a 3.0.x tree has the same lines (no cleancache
/// line here: kernel/eb709b0d/mm/truncate.c).
pub fn truncate_complete_page<V: Lru>(m: &Mem, pagecache: super::page_ref::PageRef) {
    // LEFT OUT: `if (page->mapping != mapping) return -EIO`, `if (page_has_private(page))
    // do_invalidatepage(page, 0)`, cancel_dirty_page(), clear_page_mlock(): the page of the
    // models is a clean page of this mapping without buffers, never mlocked.
    // MODEL: `pagecache` is the page cache's reference, handed over by the caller (ghost
    // bookkeeping: `page()` names it, `forget()` drops its ghost record only).
    let page = pagecache.page();
    ktrace!("truncate_complete_page", "remove_from_page_cache({page:?})");
    let page = pagecache.forget(m);
    // LEFT OUT: 2.6.37–2.6.38's remove_from_page_cache(page) (2.6.39–3.0: the removal part of
    // delete_from_page_cache(page)): the radix tree and page->mapping are not modelled;
    // ClearPageMappedToDisk(page): a buffer-state flag, not modelled.
    // LEFT OUT: UNPAIRED: `page_cache_release(page)` (2.6.39–3.0: the one inside
    // delete_from_page_cache) is the `put_page` below.
    // MODEL: UNPAIRED: `put_page::<V>` is that `page_cache_release(page)` (= put_page).
    put_page::<V>(m, page); /* pagecache ref: page_cache_release(page) */
    // LEFT OUT: `return 0`: the model has no error to return (no -EIO case).
}

/// `truncate_inode_page(mapping, page)` (mm/truncate.c, 2.6.37–3.0) of the page whose page
/// cache reference is `pagecache`.
pub fn truncate_inode_page<V: Lru>(m: &Mem, pagecache: super::page_ref::PageRef) {
    // LEFT OUT: `if (page_mapped(page)) unmap_mapping_range(mapping, ...)`: the lru models'
    // pages have no ptes (a truncated page is never mapped there).
    // LEFT OUT: UNPAIRED: `return truncate_complete_page(mapping, page)` is the call below
    // (its return value is not used by truncate_inode_pages_range).
    // MODEL: UNPAIRED: `truncate_complete_page::<V>(m, pagecache)` is that call.
    truncate_complete_page::<V>(m, pagecache);
}

/// `truncate_inode_pages_range(mapping, lstart, lend)` (mm/truncate.c, 2.6.37; 2.6.39 adds
/// `mem_cgroup_uncharge_start()`/`_end()` to the first pass, 3.0 `cleancache_flush_inode()` at
/// both ends) of a whole mapping (`lstart` 0, `lend` -1: `truncate_inode_pages(mapping, 0)`)
/// whose page cache is `cache`, clean pages nobody holds locked or under writeback: the first
/// pass takes every page with `pagevec_lookup`, truncates it and releases the pagevec
/// (`lru_add_drain()`, then `release_pages()`: the lookup's references, the last one if the
/// page cache's was the last other); the second pass finds nothing.
pub fn truncate_inode_pages_range<V: Lru>(m: &Mem, mut cache: Vec<super::page_ref::PageRef>) {
    // LEFT OUT: `start`, `end`, `partial` and `next` (`page->index` is not modelled: the whole
    // mapping is truncated from offset 0, every page is in range and none partial), `int i`;
    // the 3.0 `cleancache_flush_inode(mapping)`: a no-op without a cleancache backend; `if
    // (mapping->nrpages == 0) return`: the scenario's mapping has pages; the `BUG_ON` of
    // `lend` and `end = lend >> PAGE_CACHE_SHIFT`: lend is -1.
    // LEFT OUT: UNPAIRED: `pagevec_init(&pvec, 0)` is `Pagevec::new` below; `next = start`: see
    // above.
    // MODEL: UNPAIRED: `Pagevec::new(PAGEVEC_SIZE)` is that pagevec_init.
    let mut pvec = Pagevec::new(PAGEVEC_SIZE);
    while pagevec_lookup(m, &mut pvec, &cache) > 0 {
        // LEFT OUT: `next <= end`: see above; 2.6.39–3.0's mem_cgroup_uncharge_start(): no
        // memory cgroups.
        for i in 0..pagevec_count(&pvec) {
            let page = pvec.pages[i];
            // LEFT OUT: `pgoff_t page_index = page->index`, the `page_index > end` and `>
            // next` tests and `next++`: see above. `if (!trylock_page(page)) continue;`, `if
            // (PageWriteback(page)) { unlock_page(page); continue; }`: the page lock and
            // writeback are not modelled (shrink_page_list's note); the pages are clean and
            // unlocked.
            // MODEL: the page cache's reference of the page leaves `cache` (what
            // remove_from_page_cache / delete_from_page_cache do to the radix tree): it is the
            // first one left, as pagevec_lookup took every page, in order.
            let pagecache = cache.remove(0);
            debug_assert_eq!(pagecache.page(), page);
            truncate_inode_page::<V>(m, pagecache);
            // LEFT OUT: unlock_page(page): see trylock_page above.
        }
        pagevec_release::<V>(m, &mut pvec);
        // LEFT OUT: 2.6.39–3.0's mem_cgroup_uncharge_end(): no memory cgroups;
        // cond_resched(): no scheduling points are modelled (loom switches CPUs anywhere).
    }
    // LEFT OUT: the `if (partial)` block: no partial page (lstart 0); `next = start`: see
    // above.
    // LEFT OUT: UNPAIRED: `for ( ; ; ) { cond_resched(); if (!pagevec_lookup(...)) { if (next
    // == start) break; next = start; continue; } ...` is the `if` below: its first lookup
    // finds nothing, with next still start, and it breaks; cond_resched(): no scheduling
    // points are modelled.
    // MODEL: UNPAIRED: the `if` is that loop's first lookup and its exit.
    if pagevec_lookup(m, &mut pvec, &cache) != 0 {
        // LEFT OUT: the rest of the second pass (the `index > end` test, lock_page,
        // wait_on_page_writeback, truncate_inode_page, unlock_page, pagevec_release): a page
        // it could find is one the first pass skipped, locked or under writeback, which the
        // models' pages never are.
        // MODEL: the harness says so if it ever finds one.
        harness_fail(
            "truncate_inode_pages_range",
            "the second pass found a page the first pass left".to_string(),
        );
    }
    // LEFT OUT: 3.0's closing cleancache_flush_inode(mapping): no cleancache backend.
}

/// Ghost end check helper: the page must not be queued in any pagevec.
pub fn assert_not_queued(m: &Mem, page: PagePtr, when: &'static str) {
    let q = m.pg(page).ghost_queued();
    if q != 0 {
        fail(
            when,
            Invariant::RefcountBalance,
            format!("{page:?} still queued in {q} pagevec(s)"),
        );
    }
}
