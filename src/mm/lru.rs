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
//! calls the function here (`pagevec_lru_move_fn`, `release_pages`, `isolate_lru_page`,
//! `__isolate_lru_page`): every caller goes through `V::`, so a mutant's copy is used on every
//! path, and the production variants run exactly this code.

use super::list::{
    list_add, list_del, list_empty, list_move, list_splice, lru_to_page, page_list, ret_pages,
    walk, ListId, INIT_LIST_HEAD,
};
use super::page_alloc::free_hot_cold_page;
use super::swap::{__put_single_page, get_page_unless_zero, put_page_testzero};
use super::Mem;
use crate::page::*;
use crate::sync::{atomic_inc, atomic_read, spin_lock, RaceCell, SpinGuard, CHECKED};
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

    // Shared mm code a mutant may replace. Defaults: the functions of this module.

    /// `pagevec_lru_move_fn(pvec, move_fn, arg)` (mm/swap.c).
    fn pagevec_lru_move_fn(m: &Mem, pvec: &mut Pagevec, move_fn: MoveFn, arg: MoveArg) {
        pagevec_lru_move_fn::<Self>(m, pvec, move_fn, arg)
    }

    /// `release_pages(pvec->pages, pvec->nr, pvec->cold)` (mm/swap.c).
    fn release_pages(m: &Mem, pvec: &Pagevec) {
        release_pages(m, pvec)
    }

    /// `isolate_lru_page(page)` (mm/vmscan.c).
    fn isolate_lru_page(m: &Mem, page: PagePtr) -> i32 {
        isolate_lru_page(m, page)
    }

    /// `__isolate_lru_page(page, mode, file)` (mm/vmscan.c).
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

    /// `__put_single_page(page)` (mm/swap.c): the last reference of an order-0 page went.
    fn __put_single_page(m: &Mem, page: PagePtr) {
        __put_single_page(m, page)
    }

    /// `put_page_testzero(page)` (include/linux/mm.h) as `put_page()` calls it (truncation's
    /// and putback's puts; `release_pages()` has its own call).
    fn put_page_testzero(m: &Mem, page: PagePtr) -> bool {
        put_page_testzero(m, page)
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

/// `page_cache_get(page)` = `get_page(page)` (include/linux/mm.h) of an order-0 page:
/// `VM_BUG_ON(atomic_read(&page->_count) <= 0); atomic_inc(&page->_count);` (the LRU models
/// hold only order-0 pages, so the THP tail branch of 2.6.38's `get_page` is left out).
pub fn page_cache_get(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    VM_BUG_ON!("get_page", atomic_read(&p._count) <= 0);
    let old = atomic_inc(&p._count);
    ktrace!("get_page", "{page:?}._count {old} -> {}", old + 1);
}

/// `page_cache_release(page)` = `put_page(page)` (mm/swap.c, 2.6.38) of an order-0 page:
/// `if (put_page_testzero(page)) __put_single_page(page);`.
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

/// `put_page(page)` (mm/swap.c, 2.6.38) of an order-0 page, with the variant's
/// `put_page_testzero` and `__put_single_page` (the ones a mutant may replace): `if (put_page_testzero(page))
/// __put_single_page(page);`.
pub fn put_page<V: Lru>(m: &Mem, page: PagePtr) {
    if PageCompound(m.pg(page)) {
        harness_fail(
            "put_page",
            format!("{page:?} is a compound page: the LRU models have order-0 pages only"),
        );
    }
    if V::put_page_testzero(m, page) {
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
    /// `pagevec_init(pvec, cold)` of a pagevec of `size` entries.
    pub fn new(size: usize) -> Pagevec {
        Pagevec {
            pages: Vec::with_capacity(size),
            ghost_gen: Vec::with_capacity(size),
            size,
        }
    }
}

/// `pagevec_count(pvec)`.
pub fn pagevec_count(pvec: &Pagevec) -> usize {
    pvec.pages.len()
}

/// `pagevec_add(pvec, page)`: returns the space left (0: full, flush now).
pub fn pagevec_add(m: &Mem, pvec: &mut Pagevec, page: PagePtr) -> usize {
    let p = m.pg(page);
    p.ghost.queue(1);
    if CHECKED {
        // ghost: the generation the entry's reference was taken under (pagevec_check_entry)
        pvec.ghost_gen.push(p.ghost_gen());
    }
    pvec.pages.push(page);
    pvec.size - pvec.pages.len()
}

/// `pagevec_reinit(pvec)`.
pub fn pagevec_reinit(pvec: &mut Pagevec) {
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

/// `pagevec_release(pvec)`: `if (pagevec_count(pvec)) __pagevec_release(pvec);`.
pub fn pagevec_release<V: Lru>(m: &Mem, pvec: &mut Pagevec) {
    if pagevec_count(pvec) > 0 {
        __pagevec_release::<V>(m, pvec);
    }
}

/// `__pagevec_release(pvec)` (mm/swap.c, 3.0): "The pages which we're about to release may be
/// in the deferred lru-addition queues. [...] So __pagevec_release() will drain those queues
/// here."
pub fn __pagevec_release<V: Lru>(m: &Mem, pvec: &mut Pagevec) {
    lru_add_drain::<V>(m);
    V::release_pages(m, pvec);
    pagevec_reinit(pvec);
}

// ---------------------------------------------------------------------------------------------
// zone->lru_lock and the per-LRU counts

/// LRU lists of the model: LRU_INACTIVE_FILE and LRU_ACTIVE_FILE.
pub const NR_LRU_LISTS: usize = 2;

/// `zone->vm_stat[NR_LRU_BASE + l]` for the two file lists (NR_INACTIVE_FILE, NR_ACTIVE_FILE),
/// kept as the exact count (the zone counter plus every CPU's `vm_stat_diff`). The kernel
/// changes it with `__mod_zone_page_state()` with interrupts off, and every caller modelled
/// here holds `lru_lock`: a lock-protected word (`RaceCell`), so loom reports an update that no
/// lock orders.
pub struct ZoneLruStat {
    nr: [RaceCell<isize>; NR_LRU_LISTS],
}

impl Default for ZoneLruStat {
    fn default() -> Self {
        ZoneLruStat {
            nr: [RaceCell::new(0), RaceCell::new(0)],
        }
    }
}

fn lru_index(lru: ListId) -> usize {
    match lru {
        ListId::InactiveFile => 0,
        ListId::ActiveFile => 1,
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

/// Ghost check: each LRU list is as long as its zone count says. Run at every release of
/// `lru_lock` (with the lock still held) and at the end of a scenario.
pub fn check_lru_counts(m: &Mem, when: &'static str) {
    for lru in [ListId::InactiveFile, ListId::ActiveFile] {
        let on = walk(m, lru).len() as isize;
        let nr = zone_page_state(m, lru);
        if on != nr {
            fail(
                when,
                Invariant::LruCount,
                format!(
                    "{lru:?} holds {on} page(s) but its zone count (NR_LRU_BASE + lru) is {nr}"
                ),
            );
        }
    }
}

/// A held `zone->lru_lock`. Dropping it is `spin_unlock_irq(&zone->lru_lock)`; just before,
/// checked builds compare every LRU list with its zone count (`check_lru_counts`): in the code
/// modelled, every `__mod_zone_page_state` of an LRU count is made under `lru_lock` together
/// with the list change, so the two agree whenever the lock is free.
pub struct LruLock<'m> {
    m: &'m Mem,
    guard: Option<SpinGuard<'m, ()>>,
}

impl Drop for LruLock<'_> {
    fn drop(&mut self) {
        // A check that already broke is unwinding: do not break a second one.
        if CHECKED && !std::thread::panicking() {
            check_lru_counts(self.m, "spin_unlock(&zone->lru_lock)");
        }
        drop(self.guard.take());
    }
}

/// `spin_lock_irq(&zone->lru_lock)`, counted (the benchmarks report acquisitions).
pub fn lru_lock(m: &Mem) -> LruLock<'_> {
    m.zone.lru_lock_acquisitions.count();
    LruLock {
        m,
        guard: Some(spin_lock(&m.zone.lru_lock)),
    }
}

// ---------------------------------------------------------------------------------------------
// include/linux/mm_inline.h

/// `page_lru_base_type(page)`: file pages only here: LRU_INACTIVE_FILE.
pub fn page_lru_base_type(_page: &Page) -> ListId {
    ListId::InactiveFile
}

/// `page_lru(page)`: base type, + LRU_ACTIVE if PageActive (no unevictable pages here).
pub fn page_lru(page: &Page) -> ListId {
    if PageActive(page) {
        ListId::ActiveFile
    } else {
        page_lru_base_type(page)
    }
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

/// `add_page_to_lru_list(zone, page, l)` (include/linux/mm_inline.h, 2.6.38):
/// `list_add(&page->lru, &zone->lru[l].list); __mod_zone_page_state(zone, NR_LRU_BASE + l,
/// hpage_nr_pages(page)); mem_cgroup_add_lru_list(page, l);` (memcg not modelled).
pub fn add_page_to_lru_list(m: &Mem, page: PagePtr, lru: ListId) {
    ktrace!("add_page_to_lru_list", "{page:?} -> {lru:?}");
    list_add(m, page, lru);
    __mod_zone_page_state(m, lru, 1);
}

/// `del_page_from_lru_list(zone, page, l)` (include/linux/mm_inline.h, 2.6.38):
/// `list_del(&page->lru); __mod_zone_page_state(zone, NR_LRU_BASE + l, -hpage_nr_pages(page));`.
pub fn del_page_from_lru_list(m: &Mem, page: PagePtr, lru: ListId) {
    ktrace!("del_page_from_lru_list", "{page:?} from {lru:?}");
    list_del(m, page);
    __mod_zone_page_state(m, lru, -1);
}

/// `del_page_from_lru(zone, page)` (include/linux/mm_inline.h, 2.6.38): the page leaves the
/// LRU for good (freeing); the list is the one its flags name, PG_active is cleared with it.
pub fn del_page_from_lru(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    list_del(m, page);
    let mut l = page_lru_base_type(p);
    if PageActive(p) {
        __ClearPageActive(p);
        l = lru_active(l);
    }
    ktrace!("del_page_from_lru", "{page:?} from {l:?}");
    __mod_zone_page_state(m, l, -1);
}

// ---------------------------------------------------------------------------------------------
// mm/swap.c

/// `release_pages(pages, nr, cold)` (mm/swap.c, 3.0): "Batched page_cache_release(). Decrement
/// the reference count on all the passed pages. If it fell to zero then remove the page from
/// the LRU and free it. [...] The locking in this function is against shrink_inactive_list():
/// we recheck the page count inside the lock to see whether shrink_inactive_list() grabbed the
/// page via the LRU. If it did, give up: shrink_inactive_list() will free it."
///
/// `pages_to_free` is a local pagevec of PAGEVEC_SIZE (the machine's): its pages have no
/// references left, so it is a plain list here.
pub fn release_pages(m: &Mem, pvec: &Pagevec) {
    let mut zone: Option<LruLock<'_>> = None;
    let mut pages_to_free: Vec<PagePtr> = Vec::new();
    for i in 0..pagevec_count(pvec) {
        let page = pvec.pages[i];
        pagevec_check_entry(m, pvec, i, "release_pages");
        let p = m.pg(page);
        // PageCompound: the LRU models have order-0 pages only (page_cache_get checks).
        p.ghost.queue(-1); // the entry's reference goes now

        if !put_page_testzero(m, page) {
            continue;
        }

        if PageLRU(p) {
            if zone.is_none() {
                zone = Some(lru_lock(m));
            }
            VM_BUG_ON!("release_pages", !PageLRU(p));
            __ClearPageLRU(p);
            del_page_from_lru(m, page);
        }

        pages_to_free.push(page);
        if pages_to_free.len() == m.pagevec_size {
            drop(zone.take());
            __pagevec_free(m, &mut pages_to_free);
        }
    }
    drop(zone);

    __pagevec_free(m, &mut pages_to_free);
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

/// `pagevec_lru_move_fn(pvec, move_fn, arg)` (mm/swap.c, 3.0; d8505dee/3dd7ae8e): run
/// `move_fn` on every page under `zone->lru_lock` (one zone here, so the lock is taken once),
/// then drop the pagevec's references.
pub fn pagevec_lru_move_fn<V: Lru>(m: &Mem, pvec: &mut Pagevec, move_fn: MoveFn, arg: MoveArg) {
    let mut zone: Option<LruLock<'_>> = None;

    for i in 0..pagevec_count(pvec) {
        let page = pvec.pages[i];
        pagevec_check_entry(m, pvec, i, "pagevec_lru_move_fn");

        if zone.is_none() {
            zone = Some(lru_lock(m)); // spin_lock_irqsave(&zone->lru_lock, flags)
        }

        move_fn(m, page, arg);
    }
    drop(zone); // spin_unlock_irqrestore(&zone->lru_lock, flags)
    V::release_pages(m, pvec);
    pagevec_reinit(pvec);
}

/// `____pagevec_lru_add_fn(page, arg)` (mm/swap.c, 3.0).
pub fn ____pagevec_lru_add_fn(m: &Mem, page: PagePtr, arg: MoveArg) {
    let Some(lru) = arg else {
        harness_fail("____pagevec_lru_add_fn", "no lru".to_string())
    };
    let p = m.pg(page);
    let active = is_active_lru(lru);

    VM_BUG_ON!("____pagevec_lru_add_fn", PageActive(p));
    VM_BUG_ON!("____pagevec_lru_add_fn", PageUnevictable(p));
    VM_BUG_ON!("____pagevec_lru_add_fn", PageLRU(p));

    SetPageLRU(p);
    if active {
        SetPageActive(p);
    }
    // update_page_reclaim_stat(zone, page, file, active): statistics, not modelled
    add_page_to_lru_list(m, page, lru);
}

/// `____pagevec_lru_add(pvec, lru)` (mm/swap.c, 3.0): "Add the passed pages to the LRU, then
/// drop the caller's refcount on them. Reinitialises the caller's pagevec."
pub fn ____pagevec_lru_add<V: Lru>(m: &Mem, pvec: &mut Pagevec, lru: ListId) {
    // VM_BUG_ON(is_unevictable_lru(lru)): the model has no unevictable list
    V::pagevec_lru_move_fn(m, pvec, ____pagevec_lru_add_fn, Some(lru));
}

/// `__lru_cache_add(page, lru)` (mm/swap.c, 3.0).
pub fn __lru_cache_add<V: Lru>(m: &Mem, page: PagePtr, lru: ListId) {
    let cpu = crate::sync::smp_processor_id();
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
}

/// The part of `drain_cpu_pagevecs(cpu)` (mm/swap.c) every version has: "for_each_lru(lru)
/// { pvec = &pvecs[lru - LRU_BASE]; if (pagevec_count(pvec)) ____pagevec_lru_add(pvec, lru); }"
/// (`lru_rotate_pvecs` and `lru_deactivate_pvecs` are not modelled: nothing queues on them).
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

/// `isolate_lru_page(page)` (mm/vmscan.c, 2.6.28–3.0): "tries to isolate a page from its LRU
/// list [...] Returns 0 if the page was removed from an LRU list. Returns -EBUSY if the page was
/// not on an LRU list. [...] Restrictions: (1) Must be called with an elevated refcount on the
/// page. [...] (2) the lru_lock must not be held."
pub fn isolate_lru_page(m: &Mem, page: PagePtr) -> i32 {
    let p = m.pg(page);
    let mut ret = -EBUSY;

    VM_BUG_ON!("isolate_lru_page", page_count(m, page) == 0);

    if PageLRU(p) {
        let zone = lru_lock(m);
        if PageLRU(p) {
            let lru = page_lru(p);
            ret = 0;
            page_cache_get(m, page); // get_page(page)
            ClearPageLRU(p);

            del_page_from_lru_list(m, page, lru);
        }
        drop(zone);
    }
    ktrace!(
        "isolate_lru_page",
        "{page:?}: {}",
        if ret == 0 { "isolated" } else { "-EBUSY" }
    );
    ret
}

/// `__isolate_lru_page(page, mode, file)` (mm/vmscan.c, 2.6.38/3.0), `lru_lock` held: "Only
/// take pages on the LRU", of the wanted kind, and only if a reference can still be taken.
#[allow(clippy::nonminimal_bool)] // the kernel's `!PageActive(page) != !mode`
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

/// `isolate_lru_pages(nr_to_scan, src, dst, scanned, order, mode, file)` (mm/vmscan.c, 3.0)
/// for order 0 (no lumpy reclaim), `lru_lock` held. Returns (nr_taken, scanned).
pub fn isolate_lru_pages<V: Lru>(
    m: &Mem,
    nr_to_scan: usize,
    src: ListId,
    dst: ListId,
    mode: IsolateMode,
    file: bool,
) -> (usize, usize) {
    let mut nr_taken = 0;
    let mut scan = 0;

    while scan < nr_to_scan && !list_empty(m, src) {
        scan += 1;
        let page = lru_to_page(m, src);

        VM_BUG_ON!("isolate_lru_pages", !PageLRU(m.pg(page)));

        match V::__isolate_lru_page(m, page, mode, file) {
            0 => {
                ktrace!("isolate_lru_pages", "{page:?} isolated from {src:?}");
                list_move(m, page, dst);
                nr_taken += 1; // hpage_nr_pages(page)
            }
            e if e == -EBUSY => {
                /* else it is being freed elsewhere */
                ktrace!(
                    "isolate_lru_pages",
                    "{page:?}: -EBUSY (being freed elsewhere)"
                );
                list_move(m, page, src);
                continue;
            }
            _ => BUG_ON!("isolate_lru_pages", true),
        }
    }
    (nr_taken, scan)
}

/// `update_isolated_counts(zone, sc, &nr_anon, &nr_file, isolated_list)` (mm/vmscan.c, 3.0),
/// `lru_lock` held: `clear_active_flags()` of the isolated pages counted per list, the LRU
/// counts lowered by what was taken (NR_ISOLATED_* and the reclaim statistics are not
/// modelled). Returns nr_file.
pub fn update_isolated_counts(m: &Mem, isolated_list: ListId) -> usize {
    let mut count = [0isize; NR_LRU_LISTS];
    // nr_active = clear_active_flags(isolated_list, count):
    for page in walk(m, isolated_list) {
        let p = m.pg(page);
        let mut lru = page_lru_base_type(p);
        if PageActive(p) {
            lru = lru_active(lru);
            ClearPageActive(p);
        }
        count[lru_index(lru)] += 1;
    }

    __mod_zone_page_state(m, ListId::ActiveFile, -count[lru_index(ListId::ActiveFile)]);
    __mod_zone_page_state(
        m,
        ListId::InactiveFile,
        -count[lru_index(ListId::InactiveFile)],
    );
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

/// `shrink_page_list(page_list, zone, sc)` (mm/vmscan.c, 3.0), reduced to the labels a page
/// reaches in the models: `activate_locked` (SetPageActive) or `keep_locked`, then `keep`
/// (`list_add(&page->lru, &ret_pages)`); at the end `list_splice(&ret_pages, page_list)`.
/// Nothing is reclaimed. The page lock (`trylock_page` / `unlock_page`) is not modelled.
pub fn shrink_page_list(
    m: &Mem,
    page_list: ListId,
    ret_pages: ListId,
    how: &dyn Fn(PagePtr) -> Shrink,
) -> usize {
    INIT_LIST_HEAD(m, ret_pages); // LIST_HEAD(ret_pages)
    while !list_empty(m, page_list) {
        let page = lru_to_page(m, page_list);
        let p = m.pg(page);
        list_del(m, page);

        VM_BUG_ON!("shrink_page_list", PageActive(p));

        if how(page) == Shrink::Activate {
            // activate_locked:
            VM_BUG_ON!("shrink_page_list", PageActive(p));
            SetPageActive(p);
            ktrace!("shrink_page_list", "{page:?}: activate_locked");
        } else {
            ktrace!("shrink_page_list", "{page:?}: keep_locked");
        }
        // keep_locked: unlock_page(page); keep:
        list_add(m, page, ret_pages);
        VM_BUG_ON!("shrink_page_list", PageLRU(p) || PageUnevictable(p));
    }
    list_splice(m, ret_pages, page_list);
    0
}

/// `shrink_inactive_list(nr_to_scan, zone, sc, priority, file)` (mm/vmscan.c, 3.0) for the
/// inactive file list, order 0 (`ISOLATE_INACTIVE`); `too_many_isolated`, the stall and the
/// statistics are not modelled. `nr_to_scan` is what `shrink_zone` asked for (the models scan
/// the whole list: priority 0). Returns nr_reclaimed.
pub fn shrink_inactive_list<V: Lru>(
    m: &Mem,
    nr_to_scan: usize,
    how: &dyn Fn(PagePtr) -> Shrink,
) -> usize {
    let cpu = crate::sync::smp_processor_id();
    let page_list = page_list(cpu);
    INIT_LIST_HEAD(m, page_list); // LIST_HEAD(page_list)

    lru_add_drain::<V>(m);

    ktrace!(
        "shrink_inactive_list",
        "scan up to {nr_to_scan} page(s) of InactiveFile under lru_lock"
    );
    let zone = lru_lock(m);

    // isolate_pages_global(nr_to_scan, &page_list, &nr_scanned, sc->order,
    //                      ISOLATE_INACTIVE, zone, 0, file)
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
        drop(zone);
        return 0;
    }

    update_isolated_counts(m, page_list);

    drop(zone);

    let nr_reclaimed = shrink_page_list(m, page_list, ret_pages(cpu), how);

    // local_irq_disable();
    V::putback_lru_pages(m, page_list);
    nr_reclaimed
}

/// `putback_lru_page(page)` (mm/vmscan.c, 3.0): "put previously isolated page onto
/// appropriate LRU list" — through this CPU's `lru_add` pagevec; then the isolation
/// reference is dropped. Every page here is evictable (`page_evictable()` is true: no mlock).
pub fn putback_lru_page<V: Lru>(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    let active = TestClearPageActive(p);
    let was_unevictable = PageUnevictable(p);

    VM_BUG_ON!("putback_lru_page", PageLRU(p));

    // redo:
    ClearPageUnevictable(p);

    // page_evictable(page, NULL):
    /*
     * For evictable pages, we can use the cache.
     * In event of a race, worst case is we end up with an
     * unevictable page on [in]active list.
     * We know how to handle that.
     */
    let lru = if active {
        lru_active(page_lru_base_type(p))
    } else {
        page_lru_base_type(p)
    };
    ktrace!(
        "putback_lru_page",
        "{page:?} -> {lru:?} (was_unevictable {was_unevictable})"
    );
    lru_cache_add_lru::<V>(m, page, lru);

    put_page::<V>(m, page); /* drop ref from isolate */
}

// ---------------------------------------------------------------------------------------------
// mm/migrate.c, mm/truncate.c

/// The tail of `unmap_and_move(get_new_page, private, page, force, offlining, sync)`
/// (mm/migrate.c, 3.0) for a page that is not moved: either "page was freed from under us"
/// (`page_count(page) == 1`: only the isolation reference is left, the page cache dropped
/// its own) or the move failed for good; both reach `move_newpage`, which takes the page off
/// the migration list and puts it back. The new page, the page lock, unmapping and the copy
/// are not modelled.
pub fn unmap_and_move<V: Lru>(m: &Mem, page: PagePtr) {
    if page_count(m, page) == 1 {
        /* page was freed from under us. So we are done. */
        ktrace!("unmap_and_move", "{page:?} was freed from under us");
    } else {
        ktrace!("unmap_and_move", "{page:?} not migrated");
    }
    // move_newpage: if (rc != -EAGAIN) {
    /*
     * A page that has been migrated has all references
     * removed and will be freed. A page that has not been
     * migrated will have kepts its references and be
     * restored.
     */
    list_del(m, page);
    // dec_zone_page_state(page, NR_ISOLATED_ANON + page_is_file_cache(page)): not modelled
    putback_lru_page::<V>(m, page);
}

/// `truncate_complete_page(mapping, page)` (mm/truncate.c, 2.6.38) of a clean, unmapped page
/// without buffers: `remove_from_page_cache(page)` (the radix-tree slot and `page->mapping`,
/// not modelled) and `page_cache_release(page)` of the page cache's reference, which the
/// caller hands over as `pagecache`.
pub fn truncate_complete_page<V: Lru>(m: &Mem, pagecache: super::page_ref::PageRef) {
    let page = pagecache.page();
    ktrace!("truncate_complete_page", "remove_from_page_cache({page:?})");
    let page = pagecache.forget(m);
    put_page::<V>(m, page); /* pagecache ref: page_cache_release(page) */
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
