//! activate_page() before batching (2.6.37, and 2.6.38–2.6.39 after the revert 7a608572):
//! every activation takes `zone->lru_lock` and moves the page at once; `drain_cpu_pagevecs()`
//! drains the `lru_add` pagevecs only; reclaim's `putback_lru_pages()` links every page it
//! kept back on its LRU list.

use crate::ktrace;
use crate::mm::list::{list_del, list_empty, list_move_tail, lru_to_page, ListId};
use crate::mm::lru::*;
use crate::mm::unevictable::page_evictable;
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
        source: "2.6.37's activate_page() and drain_cpu_pagevecs() (mm/swap.c) and putback_lru_pages() (mm/vmscan.c), verified against kernel/linux-2.6.37/mm/swap.c and mm/vmscan.c (status partial; no 2.6.37 tree is stored): activate_page is whole in the '-' and context lines of Shaohua Li's '[PATCH v2 2/2]mm: batch activate_page() to reduce lock contention' (linux-mm, 5 Jan 2011, <1294214409.1949.573.camel@sli10-conroe>, base file dated 2011-01-04, the 2.6.37 release) and equals 2.6.39's (dnobori/DN-LinuxKernel-Learn linux-2.6.39/mm/swap.c, commit 1e37c14c729472f107fb33e1bd4afe6bea0d2f2f: 2.6.39 is unbatched); drain_cpu_pagevecs is 2.6.39's without its lru_deactivate block, the end confirmed by that posting's context; putback_lru_pages is 2.6.39's with the rotated-statistics lines of that posting's context. The folder's other functions are partial or 2.6.39 text marked unverified, each with its comment; of these, swap.c's mark_page_accessed, __lru_cache_add, lru_cache_add_lru, release_pages, __pagevec_release and lru_add_drain's body are byte-identical to the stored torvalds/linux mm/swap.c at 744ed144 (Jan 2011, the 2.6.38 merge window) and to the 3.0-era file of kernel/eb709b0d, and vmscan.c's isolate_lru_page and update_isolated_counts to the stored mm/vmscan.c at 744ed144; still no 2.6.37 tree is stored, so the gap from 2.6.37 to Jan 2011 is not covered. 2.6.37's ____pagevec_lru_add open-codes the steps of pagevec_lru_move_fn (lock, move each page, unlock, release_pages); the shared code runs the latter.",
    };
    const BATCHED: bool = false;

    /// `activate_page(page)` (mm/swap.c, 2.6.37): "FIXME: speed this up?"
    fn activate_page(m: &Mem, page: PagePtr) {
        let p = m.pg(page);
        // LEFT OUT: `struct zone *zone = page_zone(page)`: the model has one zone (Mem::zone).
        // LEFT OUT: UNPAIRED: `spin_lock_irq(&zone->lru_lock)` is `lru_lock(m)` just below.
        let zone = lru_lock(m);
        if PageLRU(p) && !PageActive(p) && !PageUnevictable(p) {
            // LEFT OUT: `int file = page_is_file_cache(page)`: only for the statistics below.
            let lru = page_lru_base_type(p);
            ktrace!("activate_page", "{page:?}: PageLRU, inactive: activate");
            del_page_from_lru_list(m, page, lru);

            SetPageActive(p);
            let lru = lru_active(lru);
            add_page_to_lru_list(m, page, lru);
            // LEFT OUT: __count_vm_event(PGACTIVATE), update_page_reclaim_stat(zone, page,
            // file, 1): vm events and reclaim statistics are not modelled (proofs/lru.1.md).
        }
        // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(zone)`.
        // MODEL: UNPAIRED: `drop(zone)` is `spin_unlock_irq(&zone->lru_lock)`.
        drop(zone);
    }

    /// `drain_cpu_pagevecs(cpu)` (mm/swap.c, 2.6.37).
    fn drain_cpu_pagevecs(m: &Mem, cpu: usize) {
        // LEFT OUT: UNPAIRED: `pvecs = per_cpu(lru_add_pvecs, cpu)` and the `for_each_lru(lru)`
        // loop of ____pagevec_lru_add(): the shared `drain_lru_add_pvecs` below.
        // MODEL: UNPAIRED: `drain_lru_add_pvecs` is that lru_add_pvecs loop (every version has it).
        drain_lru_add_pvecs::<Self>(m, cpu);
        // LEFT OUT: UNPAIRED: the lru_rotate_pvecs block (`pvec = &per_cpu(lru_rotate_pvecs,
        // cpu); if (pagevec_count(pvec)) { unsigned long flags; local_irq_save(flags);
        // pagevec_move_tail(pvec); local_irq_restore(flags); }`): the shared
        // `drain_lru_rotate_pvecs` below.
        // MODEL: UNPAIRED: `drain_lru_rotate_pvecs` is that block (every version has it).
        drain_lru_rotate_pvecs::<Self>(m, cpu);
    }

    /// `pagevec_move_tail(pvec)` (mm/swap.c, 2.6.37): "pagevec_move_tail() must be called with
    /// IRQ disabled. Otherwise this may cause nasty races." It takes `lru_lock` with a plain
    /// `spin_lock()`: both callers (`rotate_reclaimable_page()`, the drain) disabled
    /// interrupts, which makes the lock safe against an interrupt's rotation on this CPU.
    fn pagevec_move_tail(m: &Mem, pvec: &mut Pagevec) {
        // LEFT OUT: `int pgmoved = 0`: the PGROTATED count (vm events are not modelled).
        let mut zone: Option<LruLock<'_>> = None;

        for i in 0..pagevec_count(pvec) {
            let page = pvec.pages[i];
            // LEFT OUT: `struct zone *pagezone = page_zone(page)`: the model has one zone, so
            // `pagezone != zone` is `zone == NULL`, below.
            // MODEL: ghost check: the entry still names the page it queued (not freed meanwhile).
            pagevec_check_entry(m, pvec, i, "pagevec_move_tail");
            let p = m.pg(page);

            if zone.is_none() {
                // LEFT OUT: `if (zone) spin_unlock(&zone->lru_lock)`: one zone: zone is NULL
                // whenever pagezone != zone.
                zone = Some(lru_lock_irqs_off(m));
                // LEFT OUT: UNPAIRED: `spin_lock(&zone->lru_lock)` is the `lru_lock_irqs_off(m)`
                // above (`zone = pagezone` with it).
            }
            if PageLRU(p) && !PageActive(p) && !PageUnevictable(p) {
                let lru = page_lru_base_type(p);
                list_move_tail(m, page, lru);
                ktrace!(
                    "pagevec_move_tail",
                    "{page:?}: inactive LRU page -> tail of {lru:?}"
                );
                // LEFT OUT: `pgmoved++` (vm events are not modelled).
            }
        }
        // MODEL: UNPAIRED: `drop(zone)` is `if (zone) spin_unlock(&zone->lru_lock)` (nothing if
        // it was not taken).
        drop(zone);
        // LEFT OUT: UNPAIRED: `spin_unlock(&zone->lru_lock)` is `drop(zone)` above (the tool
        // pairs its `if (zone)` with it); `__count_vm_events(PGROTATED, pgmoved)`: vm events
        // are not modelled.
        Self::release_pages(m, pvec);
        pagevec_reinit(pvec);
    }

    /// `putback_lru_pages(zone, sc, nr_anon, nr_file, page_list)` (mm/vmscan.c, 2.6.37):
    /// "Put back any unfreeable pages." A page that is no longer evictable goes through
    /// `putback_lru_page()` with `lru_lock` dropped.
    fn putback_lru_pages(m: &Mem, page_list: ListId) {
        // LEFT OUT: `reclaim_stat = get_reclaim_stat(zone, sc)`: reclaim statistics, not modelled.
        // LEFT OUT: UNPAIRED: `pagevec_init(&pvec, 1)` is `Pagevec::new` below (cold unused).
        // MODEL: UNPAIRED: `Pagevec::new(size)` is `pagevec_init(&pvec, 1)` (a model pagevec
        // carries its size: proofs/lru.7.md).
        let mut pvec = Pagevec::new(m.pagevec_size); // pagevec_init(&pvec, 1)

        // LEFT OUT: UNPAIRED: `spin_lock(&zone->lru_lock)` is `lru_lock(m)` just below (plain
        // spin_lock: the caller already ran local_irq_disable(), which `lru_lock(m)` does).
        let mut zone = Some(lru_lock(m));
        while !list_empty(m, page_list) {
            let page = lru_to_page(m, page_list);
            let p = m.pg(page);
            VM_BUG_ON!("putback_lru_pages", PageLRU(p));
            list_del(m, page);
            if !page_evictable(m, page) {
                // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(..)` below.
                // MODEL: UNPAIRED: `drop(zone.take())` is `spin_unlock_irq(&zone->lru_lock)`.
                drop(zone.take()); // spin_unlock_irq(&zone->lru_lock)
                Self::putback_lru_page(m, page);
                // LEFT OUT: UNPAIRED: `spin_lock_irq(&zone->lru_lock)` is `lru_lock(m)` below.
                // MODEL: UNPAIRED: `zone = Some(lru_lock(m))` is `spin_lock_irq(&zone->lru_lock)`.
                zone = Some(lru_lock(m)); // spin_lock_irq(&zone->lru_lock)
                continue;
            }
            SetPageLRU(p);
            let lru = page_lru(m, p);
            add_page_to_lru_list(m, page, lru);
            // LEFT OUT: `if (is_active_lru(lru)) { file = is_file_lru(lru);
            // reclaim_stat->recent_rotated[file]++ (3.0: += hpage_nr_pages(page)) }`: reclaim
            // statistics, not modelled.
            if pagevec_add(m, &mut pvec, page) == 0 {
                // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(..)` below.
                // MODEL: UNPAIRED: `drop(zone.take())` is `spin_unlock_irq(&zone->lru_lock)`.
                drop(zone.take()); // spin_unlock_irq(&zone->lru_lock)
                __pagevec_release::<Self>(m, &mut pvec);
                // LEFT OUT: UNPAIRED: `spin_lock_irq(&zone->lru_lock)` is `lru_lock(m)` below.
                // MODEL: UNPAIRED: `zone = Some(lru_lock(m))` is `spin_lock_irq(&zone->lru_lock)`.
                zone = Some(lru_lock(m)); // spin_lock_irq(&zone->lru_lock)
            }
        }
        // LEFT OUT: `__mod_zone_page_state(zone, NR_ISOLATED_ANON/FILE, -nr_anon/-nr_file)`:
        // NR_ISOLATED_* are not modelled (proofs/lru.1.md).
        // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(zone)` below.
        // MODEL: UNPAIRED: `drop(zone)` is `spin_unlock_irq(&zone->lru_lock)`.
        drop(zone);
        pagevec_release::<Self>(m, &mut pvec);
    }
}
