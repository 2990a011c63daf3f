//! Mutant `eb709b0d-no-ref`: eb709b0d whose `activate_page()` queues the page without
//! `page_cache_get()`. The pagevec then holds a page nobody pins, and the drain's
//! `release_pages()` drops a reference it never took. Claim lru.4 expects the checker to catch
//! the page freed while it is still queued.

use crate::ktrace;
use crate::mm::list::{list_del, list_empty, lru_to_page, ListId};
use crate::mm::lru::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::smp_processor_id;
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// eb709b0d without the pagevec's reference.
pub struct Variant;

impl Lru for Variant {
    const META: VariantMeta = VariantMeta {
        id: "eb709b0d-no-ref",
        area: Area::Lru,
        kind: Kind::Mutant {
            removes: "the pagevec's page_cache_get() in activate_page",
        },
        parent: Some("eb709b0d"),
        source: "mutant of eb709b0d.",
    };
    const BATCHED: bool = true;

    /// `__activate_page(page, arg)` (mm/swap.c, eb709b0d).
    fn __activate_page(m: &Mem, page: PagePtr) {
        let p = m.pg(page);
        let (lru_set, active, unevictable) = (PageLRU(p), PageActive(p), PageUnevictable(p));
        ktrace!(
            "__activate_page",
            "{page:?}: PageLRU {lru_set} PageActive {active}"
        );
        if lru_set && !active && !unevictable {
            let lru = page_lru_base_type(p);
            del_page_from_lru_list(m, page, lru);

            SetPageActive(p);
            let lru = lru_active(lru);
            add_page_to_lru_list(m, page, lru);
        }
    }

    /// `activate_page(page)` (mm/swap.c, eb709b0d, CONFIG_SMP).
    fn activate_page(m: &Mem, page: PagePtr) {
        let p = m.pg(page);
        if PageLRU(p) && !PageActive(p) && !PageUnevictable(p) {
            let cpu = smp_processor_id();
            m.activate_page_pvecs.with(cpu, |pvec| {
                // MUTANT(eb709b0d-no-ref): no page_cache_get(page) for the pagevec's reference.
                ktrace!("activate_page", "{page:?} queued on CPU{cpu}'s pagevec");
                if pagevec_add(m, pvec, page) == 0 {
                    pagevec_lru_move_fn(m, pvec, Self::__activate_page);
                }
            });
        }
    }

    /// `activate_page_drain(cpu)` (mm/swap.c, eb709b0d, CONFIG_SMP).
    fn activate_page_drain(m: &Mem, cpu: usize) {
        activate_page_drain(m, cpu, Self::__activate_page);
    }

    /// `putback_lru_pages(zone, sc, nr_anon, nr_file, page_list)` (mm/vmscan.c, 2.6.37 / 3.0),
    /// reduced to its list work: every page goes back on its LRU list under `lru_lock`, then the
    /// isolation references are dropped (`pagevec_release`).
    fn putback_lru_pages(m: &Mem, list: ListId) {
        let mut pvec = Vec::new();
        let lru_lock = lru_lock(m);
        while !list_empty(m, list) {
            let page = lru_to_page(m, list);
            let p = m.pg(page);
            VM_BUG_ON!("putback_lru_pages", PageLRU(p));
            list_del(m, page);
            SetPageLRU(p);
            let lru = page_lru(p);
            add_page_to_lru_list(m, page, lru);
            pvec.push(page);
        }
        drop(lru_lock);
        release_pages(m, &pvec);
    }
}
