//! Mutant `linux-2.6.37-no-active-test`: the unbatched `activate_page()` of 2.6.37 without its
//! `!PageActive` test: a second activation takes the active page off the inactive list's
//! count (claim lru.1-linux-2.6.37-no-active-test).

use crate::ktrace;
use crate::mm::list::{list_del, list_empty, lru_to_page, ListId};
use crate::mm::lru::*;
use crate::mm::Mem;
use crate::page::*;
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// linux-2.6.37 minus one safeguard (the !PageActive test of activate_page under lru_lock).
pub struct Variant;

impl Lru for Variant {
    const META: VariantMeta = VariantMeta {
        id: "linux-2.6.37-no-active-test",
        area: Area::Lru,
        kind: Kind::Mutant {
            removes: "the !PageActive test of activate_page under lru_lock",
        },
        parent: Some("linux-2.6.37"),
        source: "mutant of linux-2.6.37.",
    };
    const BATCHED: bool = false;

    /// `activate_page(page)` (mm/swap.c, 2.6.37): "FIXME: speed this up?"
    fn activate_page(m: &Mem, page: PagePtr) {
        let p = m.pg(page);
        let zone = lru_lock(m);
        // MUTANT(linux-2.6.37-no-active-test): no !PageActive(page) test.
        if PageLRU(p) && !PageUnevictable(p) {
            let lru = page_lru_base_type(p);
            ktrace!(
                "activate_page",
                "{page:?}: PageLRU: activate (PG_active not tested)"
            );
            del_page_from_lru_list(m, page, lru);

            SetPageActive(p);
            let lru = lru_active(lru);
            add_page_to_lru_list(m, page, lru);
            // __count_vm_event(PGACTIVATE); update_page_reclaim_stat(zone, page, file, 1);
        }
        drop(zone);
    }

    /// `drain_cpu_pagevecs(cpu)` (mm/swap.c, 2.6.37).
    fn drain_cpu_pagevecs(m: &Mem, cpu: usize) {
        drain_lru_add_pvecs::<Self>(m, cpu);
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
}
