//! mm/swap.c and mm/vmscan.c after 744ed144 "mm: batch activate_page() to reduce lock
//! contention" (Shaohua Li, 2.6.38-rc1; reverted by 7a608572): `activate_page()` queues the
//! page in a per-CPU pagevec; reclaim's `putback_lru_pages()` sends the active pages it kept
//! through the same pagevec (`putback_active_lru_page()`), and `__activate_page()` reads
//! `!PageLRU && PageActive` as "a page reclaim put back": it sets PG_lru and links the page on
//! the active list. A page queued by `activate_page()` while it was an inactive LRU page, then
//! isolated and made active by another CPU (migration after a drain, or reclaim's
//! `activate_locked`), looks exactly like that to the stale entry's drain.

use crate::ktrace;
use crate::mm::list::{list_del, list_empty, lru_to_page, ListId};
use crate::mm::lru::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::smp_processor_id;
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// 2.6.38-rc1: batched activation with the putback inference.
pub struct Variant;

/// `__activate_page(page, arg)` (mm/swap.c, 744ed144).
///
/// A page will go to active list either by activate_page or putback_lru_page. In the
/// activate_page case, the page hasn't active bit set. The page might not in LRU list because
/// it's isolated before it gets a chance to be moved to active list. The window is small
/// because pagevec just stores several pages. For such case, we do nothing for such page. In
/// the putback_lru_page case, the page isn't in lru list but has active bit set
fn __activate_page(m: &Mem, page: PagePtr, _arg: MoveArg) {
    let p = m.pg(page);
    let lru = page_lru_base_type(p);
    let putback = !PageLRU(p);

    /* The page is isolated before it's moved to active list */
    if !PageLRU(p) && !PageActive(p) {
        ktrace!(
            "__activate_page",
            "{page:?}: !PageLRU && !PageActive: skipped"
        );
        return;
    }
    if (PageLRU(p) && PageActive(p)) || PageUnevictable(p) {
        ktrace!("__activate_page", "{page:?}: already active: skipped");
        return;
    }

    if !putback {
        ktrace!("__activate_page", "{page:?}: PageLRU, inactive: activate");
        del_page_from_lru_list(m, page, lru);
    } else {
        ktrace!(
            "__activate_page",
            "{page:?}: !PageLRU && PageActive, taken for a reclaim putback: SetPageLRU"
        );
        SetPageLRU(p);
    }

    SetPageActive(p);
    let lru = lru_active(lru);
    add_page_to_lru_list(m, page, lru);

    // if (putback) return; __count_vm_event(PGACTIVATE); update_page_reclaim_stat(...);
}

/// `activate_page_drain(cpu)` (mm/swap.c, 744ed144, CONFIG_SMP).
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

/// `putback_active_lru_page(zone, page)` (mm/swap.c, 744ed144): "Caller should hold
/// zone->lru_lock". The page goes on this CPU's activate pagevec with the caller's isolation
/// reference (no `page_cache_get`); a full pagevec is flushed with `lru_lock` dropped.
fn putback_active_lru_page<'m>(m: &'m Mem, zone: &mut Option<LruLock<'m>>, page: PagePtr) -> i32 {
    let cpu = smp_processor_id();
    m.activate_page_pvecs.with(cpu, |pvec| {
        ktrace!(
            "putback_active_lru_page",
            "{page:?} queued on CPU{cpu}'s pagevec"
        );
        if pagevec_add(m, pvec, page) == 0 {
            drop(zone.take()); // spin_unlock_irq(&zone->lru_lock)
            Variant::pagevec_lru_move_fn(m, pvec, __activate_page, None);
            *zone = Some(lru_lock(m)); // spin_lock_irq(&zone->lru_lock)
        }
    });
    1
}

impl Lru for Variant {
    const META: VariantMeta = VariantMeta {
        id: "744ed144",
        area: Area::Lru,
        kind: Kind::Commit {
            subject: "mm: batch activate_page() to reduce lock contention",
        },
        parent: Some("linux-2.6.37"),
        source: "the v2 2/2 posting (Shaohua Li, 5 Jan 2011, <1294214409.1949.573.camel@sli10-conroe>; research/s2.md §1a), applied to the 2.6.37 file, with its 1/2 (d8505dee, pagevec_lru_move_fn) in the shared code; CONFIG_SMP. That the posting is byte-identical to the merged 744ed144 is UNVERIFIED (its message matches a gitweb excerpt); reverted by 7a608572 (revert text UNVERIFIED).",
    };
    const BATCHED: bool = true;

    /// `activate_page(page)` (mm/swap.c, 744ed144, CONFIG_SMP).
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

    /// `drain_cpu_pagevecs(cpu)` (mm/swap.c, 744ed144).
    fn drain_cpu_pagevecs(m: &Mem, cpu: usize) {
        drain_lru_add_pvecs::<Self>(m, cpu);

        activate_page_drain(m, cpu);
    }

    /// `putback_lru_pages(zone, sc, nr_anon, nr_file, page_list)` (mm/vmscan.c, 744ed144):
    /// "Put back any unfreeable pages." An active page follows the activate_page path
    /// (`putback_active_lru_page`). Every page here is evictable.
    fn putback_lru_pages(m: &Mem, page_list: ListId) {
        let mut pvec = Pagevec::new(m.pagevec_size); // pagevec_init(&pvec, 1)

        let mut zone = Some(lru_lock(m));
        while !list_empty(m, page_list) {
            let page = lru_to_page(m, page_list);
            let p = m.pg(page);
            VM_BUG_ON!("putback_lru_pages", PageLRU(p));
            list_del(m, page);
            let lru = page_lru(p);
            if is_active_lru(lru) {
                // reclaim_stat->recent_rotated[file]++;
                if putback_active_lru_page(m, &mut zone, page) != 0 {
                    continue;
                }
            }
            SetPageLRU(p);
            add_page_to_lru_list(m, page, lru);
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
