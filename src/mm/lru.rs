//! The LRU machinery of Linux 2.6.38 / 3.0 that every activate_page variant shares:
//! include/linux/mm_inline.h (`add_page_to_lru_list`, `del_page_from_lru_list`,
//! `del_page_from_lru`), include/linux/pagevec.h, mm/swap.c (`pagevec_lru_move_fn`,
//! `release_pages`, `activate_page_drain`, `lru_add_drain`) and mm/vmscan.c
//! (`isolate_lru_page`), and the trait the variants implement (`crate::lru` holds one file
//! per version of `activate_page`).
//!
//! Only file pages are modelled (two LRU lists: inactive and active file); anon, unevictable
//! and memcg lists, vmstat counters and reclaim statistics are left out (proofs/lru.1.md).

use super::list::{list_add, list_del, ListId};
use super::page_alloc::free_hot_cold_page;
use super::swap::{__put_single_page, put_page_testzero};
use super::Mem;
use crate::page::*;
use crate::sync::{atomic_inc, atomic_read, spin_lock, SpinGuard};
use crate::trace::{fail, harness_fail, Invariant};
use crate::variant::VariantMeta;
use crate::{ktrace, VM_BUG_ON};

/// One version of activate_page and its batching.
pub trait Lru: 'static + Send + Sync {
    /// What the variant is (`crate::variant`).
    const META: VariantMeta;
    /// Whether `activate_page` queues the page in a per-CPU pagevec (SMP batching) or moves it
    /// at once under `lru_lock`.
    const BATCHED: bool;
    /// `activate_page(page)`: the caller holds a reference to `page`.
    fn activate_page(m: &Mem, page: PagePtr);
    /// `__activate_page(page, arg)`: move one page to the active list, `lru_lock` held.
    fn __activate_page(m: &Mem, page: PagePtr);
    /// `activate_page_drain(cpu)`: flush CPU `cpu`'s pagevec (runs on that CPU).
    fn activate_page_drain(m: &Mem, cpu: usize);
    /// `putback_lru_pages(zone, ..., page_list)`: reclaim puts its isolated pages back.
    fn putback_lru_pages(m: &Mem, list: ListId);
}

/// PAGEVEC_SIZE (include/linux/pagevec.h): 14. A model may use a smaller size (MemConfig).
pub const PAGEVEC_SIZE: usize = 14;

/// `page_cache_get(page)` = `get_page(page)` (include/linux/mm.h, 2.6.38) of an order-0 page:
/// `VM_BUG_ON(atomic_read(&page->_count) < !PageTail(page)); atomic_inc(&page->_count);`.
/// The LRU models hold only order-0 pages; a tail page here is a harness error.
pub fn page_cache_get(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    if PageTail(p) {
        harness_fail(
            "page_cache_get",
            format!("{page:?} is a tail page: the LRU models have order-0 pages only"),
        );
    }
    VM_BUG_ON!("get_page", atomic_read(&p._count) < 1);
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

/// `struct pagevec`.
#[derive(Default)]
pub struct Pagevec {
    pub pages: Vec<PagePtr>,
    pub size: usize,
}

impl Pagevec {
    pub fn new(size: usize) -> Pagevec {
        Pagevec {
            pages: Vec::with_capacity(size),
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
    m.pg(page).ghost.queue(1);
    pvec.pages.push(page);
    pvec.size - pvec.pages.len()
}

/// `pagevec_reinit(pvec)`.
fn pagevec_reinit(m: &Mem, pvec: &mut Pagevec) {
    for p in &pvec.pages {
        m.pg(*p).ghost.queue(-1);
    }
    pvec.pages.clear();
}

/// `spin_lock_irq(&zone->lru_lock)`, counted (the benchmarks report acquisitions).
pub fn lru_lock(m: &Mem) -> SpinGuard<'_, ()> {
    m.zone.lru_lock_acquisitions.count();
    spin_lock(&m.zone.lru_lock)
}

/// `page_lru_base_type(page)`: file pages only here: LRU_INACTIVE_FILE.
pub fn page_lru_base_type(_page: &Page) -> ListId {
    ListId::InactiveFile
}

/// `page_lru(page)`: base type, + LRU_ACTIVE if PageActive.
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

/// `add_page_to_lru_list(zone, page, l)` (include/linux/mm_inline.h, 2.6.38).
pub fn add_page_to_lru_list(m: &Mem, page: PagePtr, lru: ListId) {
    ktrace!("add_page_to_lru_list", "{page:?} -> {lru:?}");
    list_add(m, page, lru);
}

/// `del_page_from_lru_list(zone, page, l)` (include/linux/mm_inline.h, 2.6.38).
pub fn del_page_from_lru_list(m: &Mem, page: PagePtr, lru: ListId) {
    ktrace!("del_page_from_lru_list", "{page:?} from {lru:?}");
    list_del(m, page);
}

/// `del_page_from_lru(zone, page)` (include/linux/mm_inline.h, 2.6.38): the page leaves the
/// LRU for good (freeing), PG_active is cleared with it.
pub fn del_page_from_lru(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    let mut lru = page_lru_base_type(p);
    list_del(m, page);
    if PageActive(p) {
        __ClearPageActive(p);
        lru = lru_active(lru);
    }
    ktrace!("del_page_from_lru", "{page:?} from {lru:?}");
}

/// `release_pages(pages, nr, cold)` (mm/swap.c, 2.6.38): drop one reference on each page; a
/// page whose last reference goes is taken off the LRU under `lru_lock` and freed.
pub fn release_pages(m: &Mem, pages: &[PagePtr]) {
    let mut lock: Option<SpinGuard<'_, ()>> = None;
    let mut pages_to_free = Vec::new();
    for &page in pages {
        if !put_page_testzero(m, page) {
            continue;
        }
        let p = m.pg(page);
        if PageLRU(p) {
            if lock.is_none() {
                lock = Some(lru_lock(m));
            }
            VM_BUG_ON!("release_pages", !PageLRU(p));
            __ClearPageLRU(p);
            del_page_from_lru(m, page);
        }
        pages_to_free.push(page);
    }
    drop(lock);
    for page in pages_to_free {
        free_hot_cold_page(m, page);
    }
}

/// `pagevec_lru_move_fn(pvec, move_fn, arg)` (mm/swap.c, 2.6.38): run `move_fn` on every page
/// under `zone->lru_lock` (one zone here), then drop the pagevec's references.
pub fn pagevec_lru_move_fn(m: &Mem, pvec: &mut Pagevec, move_fn: fn(&Mem, PagePtr)) {
    {
        let _lru = lru_lock(m);
        for &page in &pvec.pages {
            move_fn(m, page);
        }
    }
    let pages = pvec.pages.clone();
    pagevec_reinit(m, pvec);
    release_pages(m, &pages);
}

/// `activate_page_drain(cpu)` (mm/swap.c, 2.6.38, SMP).
pub fn activate_page_drain(m: &Mem, cpu: usize, activate: fn(&Mem, PagePtr)) {
    m.activate_page_pvecs.with(cpu, |pvec| {
        if pagevec_count(pvec) > 0 {
            ktrace!(
                "activate_page_drain",
                "CPU{cpu}: {} page(s)",
                pagevec_count(pvec)
            );
            pagevec_lru_move_fn(m, pvec, activate);
        }
    });
}

/// `isolate_lru_page(page)` (mm/vmscan.c, 2.6.38): take the page off the LRU with a reference;
/// the caller puts it on its private list. Returns false (-EBUSY) if it was not on the LRU.
pub fn isolate_lru_page(m: &Mem, page: PagePtr) -> bool {
    let p = m.pg(page);
    VM_BUG_ON!("isolate_lru_page", page_count_raw(p) == 0);
    let mut ret = false;
    if PageLRU(p) {
        let _lru = lru_lock(m);
        if PageLRU(p) {
            let lru = page_lru(p);
            ret = true;
            page_cache_get(m, page);
            ClearPageLRU(p);
            del_page_from_lru_list(m, page, lru);
        }
    }
    ktrace!(
        "isolate_lru_page",
        "{page:?}: {}",
        if ret { "isolated" } else { "-EBUSY" }
    );
    ret
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

/// `lru_add_drain()` -> `drain_cpu_pagevecs(get_cpu())` (mm/swap.c, 2.6.38): of the per-CPU
/// pagevecs only `activate_page_pvecs` is modelled.
pub fn lru_add_drain<V: Lru>(m: &Mem) {
    V::activate_page_drain(m, crate::sync::smp_processor_id());
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
