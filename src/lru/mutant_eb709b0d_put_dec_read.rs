//! Mutant `eb709b0d-put-dec-read`: eb709b0d whose `put_page()` (shared mm/swap.c code; its
//! `put_page_testzero()` replaced through the `Lru` trait method) drops the reference with
//! `atomic_dec()` and then tests `atomic_read() == 0`, instead of `put_page_testzero()`'s single
//! fully ordered `atomic_dec_and_test()`. Truncation's put of the page cache's reference and
//! putback's put of the isolation reference are this `put_page()`: racing another CPU's last
//! put, both can see zero (claim lru.4-put-dec-read).

use crate::ktrace;
use crate::mm::list::{list_del, list_empty, lru_to_page, ListId};
use crate::mm::lru::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read, smp_processor_id};
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// eb709b0d minus one safeguard (put_page's put_page_testzero (a fully ordered atomic_dec_and_test): atomic_dec then atomic_read instead).
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
        id: "eb709b0d-put-dec-read",
        area: Area::Lru,
        kind: Kind::Mutant {
            removes: "put_page's put_page_testzero (a fully ordered atomic_dec_and_test): atomic_dec then atomic_read instead",
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

    /// `put_page_testzero(page)` in `put_page()` (include/linux/mm.h, 2.6.38), mutated.
    fn put_page_testzero(m: &Mem, page: PagePtr) -> bool {
        let p = m.pg(page);
        VM_BUG_ON!("put_page_testzero", atomic_read(&p._count) == 0);
        // MUTANT(eb709b0d-put-dec-read): atomic_dec(&page->_count), then atomic_read() == 0,
        // instead of atomic_dec_and_test(&page->_count).
        let old = atomic_dec(&p._count);
        ktrace!("put_page_testzero", "{page:?}._count {old} -> {}", old - 1);
        ghost_count_op(p, page, "put_page_testzero", old, old - 1);
        atomic_read(&p._count) == 0
    }
}
