//! Mutant `eb709b0d-release-first`: eb709b0d whose `pagevec_lru_move_fn()` (shared mm/swap.c
//! code, replaced through the `Lru` trait method) drops the pagevec's references with
//! `release_pages()` before it moves the pages under `zone->lru_lock`: a page whose other
//! references go meanwhile is freed, and the move touches a freed page (claim
//! lru.4-release-first).

use crate::ktrace;
use crate::mm::list::{list_del, list_empty, lru_to_page, ListId};
use crate::mm::lru::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::smp_processor_id;
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// eb709b0d minus one safeguard (the order in pagevec_lru_move_fn: the moves under lru_lock, then release_pages).
pub struct Variant;

/// `__activate_page(page, arg)` (mm/swap.c, eb709b0d).
fn __activate_page(m: &Mem, page: PagePtr, _arg: MoveArg) {
    let p = m.pg(page);
    if PageLRU(p) && !PageActive(p) && !PageUnevictable(p) {
        let lru = page_lru_base_type(p);
        ktrace!("__activate_page", "{page:?}: PageLRU, inactive: activate");
        del_page_from_lru_list(m, page, lru);

        SetPageActive(p);
        let lru = lru_active(lru);
        add_page_to_lru_list(m, page, lru);
        // __count_vm_event(PGACTIVATE); update_page_reclaim_stat(zone, page, file, 1);
    } else {
        ktrace!(
            "__activate_page",
            "{page:?}: not an inactive LRU page: skipped"
        );
    }
}

/// `activate_page_drain(cpu)` (mm/swap.c, eb709b0d, CONFIG_SMP).
fn activate_page_drain(m: &Mem, cpu: usize) {
    m.activate_page_pvecs.with(cpu, |pvec| {
        if pagevec_count(pvec) > 0 {
            ktrace!(
                "activate_page_drain",
                "CPU{cpu}: {} page(s)",
                pagevec_count(pvec)
            );
            Variant::pagevec_lru_move_fn(m, pvec, __activate_page, None);
        }
    });
}

impl Lru for Variant {
    const META: VariantMeta = VariantMeta {
        id: "eb709b0d-release-first",
        area: Area::Lru,
        kind: Kind::Mutant {
            removes:
                "the order in pagevec_lru_move_fn: the moves under lru_lock, then release_pages",
        },
        parent: Some("eb709b0d"),
        source: "mutant of eb709b0d.",
    };
    const BATCHED: bool = true;

    /// `activate_page(page)` (mm/swap.c, eb709b0d, CONFIG_SMP).
    fn activate_page(m: &Mem, page: PagePtr) {
        let p = m.pg(page);
        if PageLRU(p) && !PageActive(p) && !PageUnevictable(p) {
            let cpu = smp_processor_id();
            m.activate_page_pvecs.with(cpu, |pvec| {
                page_cache_get(m, page);
                ktrace!("activate_page", "{page:?} queued on CPU{cpu}'s pagevec");
                if pagevec_add(m, pvec, page) == 0 {
                    Self::pagevec_lru_move_fn(m, pvec, __activate_page, None);
                }
            });
        }
    }

    /// `drain_cpu_pagevecs(cpu)` (mm/swap.c, eb709b0d).
    fn drain_cpu_pagevecs(m: &Mem, cpu: usize) {
        drain_lru_add_pvecs::<Self>(m, cpu);

        activate_page_drain(m, cpu);
    }

    /// `putback_lru_pages(zone, sc, nr_anon, nr_file, page_list)` (mm/vmscan.c, 2.6.37):
    /// "Put back any unfreeable pages." Every page here is evictable.
    fn putback_lru_pages(m: &Mem, page_list: ListId) {
        let mut pvec = Pagevec::new(m.pagevec_size); // pagevec_init(&pvec, 1)

        let mut zone = Some(lru_lock(m));
        while !list_empty(m, page_list) {
            let page = lru_to_page(m, page_list);
            let p = m.pg(page);
            VM_BUG_ON!("putback_lru_pages", PageLRU(p));
            list_del(m, page);
            SetPageLRU(p);
            let lru = page_lru(p);
            add_page_to_lru_list(m, page, lru);
            // if (is_active_lru(lru)) reclaim_stat->recent_rotated[file]++;
            if pagevec_add(m, &mut pvec, page) == 0 {
                drop(zone.take()); // spin_unlock_irq(&zone->lru_lock)
                __pagevec_release::<Self>(m, &mut pvec);
                zone = Some(lru_lock(m)); // spin_lock_irq(&zone->lru_lock)
            }
        }
        // __mod_zone_page_state(zone, NR_ISOLATED_ANON/FILE, -nr): not modelled
        drop(zone);
        pagevec_release::<Self>(m, &mut pvec);
    }

    /// `pagevec_lru_move_fn(pvec, move_fn, arg)` (mm/swap.c, 3.0), mutated.
    fn pagevec_lru_move_fn(m: &Mem, pvec: &mut Pagevec, move_fn: MoveFn, arg: MoveArg) {
        let mut zone: Option<LruLock<'_>> = None;

        // MUTANT(eb709b0d-release-first): the references are dropped before the moves.
        Self::release_pages(m, pvec);
        for i in 0..pagevec_count(pvec) {
            let page = pvec.pages[i];
            pagevec_check_entry(m, pvec, i, "pagevec_lru_move_fn");

            if zone.is_none() {
                zone = Some(lru_lock(m)); // spin_lock_irqsave(&zone->lru_lock, flags)
            }

            move_fn(m, page, arg);
        }
        drop(zone); // spin_unlock_irqrestore(&zone->lru_lock, flags)
        pagevec_reinit(pvec);
    }
}
