//! activate_page() before batching (2.6.37, and 2.6.38–2.6.39 after the revert 7a608572):
//! every activation takes `zone->lru_lock` and moves the page at once; `drain_cpu_pagevecs()`
//! drains the `lru_add` pagevecs only; reclaim's `putback_lru_pages()` links every page it
//! kept back on its LRU list.

use crate::ktrace;
use crate::mm::list::{list_del, list_empty, lru_to_page, ListId};
use crate::mm::lru::*;
use crate::mm::Mem;
use crate::page::*;
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// One lock round trip per activation.
pub struct Variant;

impl Lru for Variant {
    const META: VariantMeta = VariantMeta {
        id: "linux-2.6.37",
        area: Area::Lru,
        kind: Kind::Release { version: "2.6.37" },
        parent: None,
        source: "mm/swap.c activate_page() and drain_cpu_pagevecs(), mm/vmscan.c putback_lru_pages() of 2.6.37/2.6.38, reconstructed from the pre-images of 744ed144 (v2, 5 Jan 2011) and eb709b0d (v3/v4, Mar 2011), which agree (research/s2.md §3b, §5d). UNVERIFIED against a stored 2.6.37 tree. 2.6.37's ____pagevec_lru_add open-codes the steps of pagevec_lru_move_fn (lock, move each page, unlock, release_pages); the shared code runs the latter.",
    };
    const BATCHED: bool = false;

    /// `activate_page(page)` (mm/swap.c, 2.6.37): "FIXME: speed this up?"
    fn activate_page(m: &Mem, page: PagePtr) {
        let p = m.pg(page);
        let zone = lru_lock(m);
        if PageLRU(p) && !PageActive(p) && !PageUnevictable(p) {
            let lru = page_lru_base_type(p);
            ktrace!("activate_page", "{page:?}: PageLRU, inactive: activate");
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
