//! mm/swap.c and mm/vmscan.c after 744ed144 "mm: batch activate_page() to reduce lock
//! contention" (Shaohua Li, 2.6.38-rc1; reverted by 7a608572): `activate_page()` queues the
//! page in a per-CPU pagevec; reclaim's `putback_lru_pages()` sends isolated active pages
//! through the same pagevec (`putback_active_lru_page()`), and `__activate_page()` reads
//! `!PageLRU && PageActive` as "a page reclaim put back": it sets PG_lru and links the page on
//! the active list. A page queued by `activate_page()` on two CPUs, activated by one drain and
//! then isolated, looks exactly like that to the second drain.

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

impl Lru for Variant {
    const META: VariantMeta = VariantMeta {
        id: "744ed144",
        area: Area::Lru,
        kind: Kind::Commit {
            subject: "mm: batch activate_page() to reduce lock contention",
        },
        parent: Some("linux-2.6.37"),
        source: "the 744ed144 patch (seed 001) applied to linux-2.6.37; reverted by 7a608572.",
    };
    const BATCHED: bool = true;

    /// `__activate_page(page, arg)` (mm/swap.c, 744ed144).
    ///
    /// A page will go to active list either by activate_page or putback_lru_page. In the
    /// activate_page case, the page hasn't active bit set. The page might not in LRU list
    /// because it's isolated before it gets a chance to be moved to active list. The window is
    /// small because pagevec just stores several pages. For such case, we do nothing for such
    /// page. In the putback_lru_page case, the page isn't in lru list but has active bit set.
    fn __activate_page(m: &Mem, page: PagePtr) {
        let p = m.pg(page);
        let lru = page_lru_base_type(p);
        let putback = !PageLRU(p);
        let active = PageActive(p);
        ktrace!(
            "__activate_page",
            "{page:?}: PageLRU {} PageActive {active}",
            !putback
        );

        // The page is isolated before it's moved to active list
        if !PageLRU(p) && !PageActive(p) {
            return;
        }
        if (PageLRU(p) && PageActive(p)) || PageUnevictable(p) {
            return;
        }

        if !putback {
            del_page_from_lru_list(m, page, lru);
        } else {
            ktrace!(
                "__activate_page",
                "{page:?} taken for a reclaim putback: SetPageLRU"
            );
            SetPageLRU(p);
        }

        SetPageActive(p);
        let lru = lru_active(lru);
        add_page_to_lru_list(m, page, lru);
    }

    /// `activate_page(page)` (mm/swap.c, 744ed144, CONFIG_SMP).
    fn activate_page(m: &Mem, page: PagePtr) {
        let p = m.pg(page);
        if PageLRU(p) && !PageActive(p) && !PageUnevictable(p) {
            let cpu = smp_processor_id();
            m.activate_page_pvecs.with(cpu, |pvec| {
                page_cache_get(m, page);
                ktrace!("activate_page", "{page:?} queued on CPU{cpu}'s pagevec");
                if pagevec_add(m, pvec, page) == 0 {
                    pagevec_lru_move_fn(m, pvec, Self::__activate_page);
                }
            });
        }
    }

    /// `activate_page_drain(cpu)` (mm/swap.c, 744ed144, CONFIG_SMP).
    fn activate_page_drain(m: &Mem, cpu: usize) {
        activate_page_drain(m, cpu, Self::__activate_page);
    }

    /// `putback_lru_pages(zone, sc, nr_anon, nr_file, page_list)` (mm/vmscan.c, 744ed144),
    /// reduced to its list work: an active page goes to this CPU's activate pagevec with its
    /// isolation reference (`putback_active_lru_page`); the others go back on their LRU list
    /// under `lru_lock`, then their isolation references are dropped (`pagevec_release`).
    fn putback_lru_pages(m: &Mem, list: ListId) {
        let mut pvec = Vec::new();
        let mut lru_lock = Some(lru_lock(m));
        while !list_empty(m, list) {
            let page = lru_to_page(m, list);
            let p = m.pg(page);
            VM_BUG_ON!("putback_lru_pages", PageLRU(p));
            list_del(m, page);
            let lru = page_lru(p);
            if lru == ListId::ActiveFile && putback_active_lru_page(m, page, &mut lru_lock) {
                continue;
            }
            SetPageLRU(p);
            add_page_to_lru_list(m, page, lru);
            pvec.push(page);
        }
        drop(lru_lock);
        release_pages(m, &pvec);
    }
}

/// `putback_active_lru_page(zone, page)` (mm/swap.c, 744ed144). Caller holds `lru_lock`.
fn putback_active_lru_page<'m>(
    m: &'m Mem,
    page: PagePtr,
    lru_lock_held: &mut Option<crate::sync::SpinGuard<'m, ()>>,
) -> bool {
    let cpu = smp_processor_id();
    m.activate_page_pvecs.with(cpu, |pvec| {
        ktrace!(
            "putback_active_lru_page",
            "{page:?} queued on CPU{cpu}'s pagevec"
        );
        if pagevec_add(m, pvec, page) == 0 {
            drop(lru_lock_held.take()); // spin_unlock_irq(&zone->lru_lock)
            pagevec_lru_move_fn(m, pvec, Variant::__activate_page);
            *lru_lock_held = Some(lru_lock(m)); // spin_lock_irq(&zone->lru_lock)
        }
    });
    true
}
