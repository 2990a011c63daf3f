//! mm/swap.c and mm/vmscan.c after 744ed144 "mm: batch activate_page() to reduce lock
//! contention" (Shaohua Li, the 2.6.38 merge window; reverted by 7a608572, per Linus's plan
//! before -rc1 was tagged, 17 Jan 2011): `activate_page()` queues the page in a per-CPU
//! pagevec; reclaim's `putback_lru_pages()` sends the active pages it kept through the same
//! pagevec (`putback_active_lru_page()`), and `__activate_page()` reads `!PageLRU &&
//! PageActive` as "a page reclaim put back": it sets PG_lru and links the page on the active
//! list. A page queued by `activate_page()` while it was an inactive LRU page, then isolated
//! and made active by another CPU (migration after a drain, or reclaim's `activate_locked`),
//! looks exactly like that to the stale entry's drain.

use crate::ktrace;
use crate::mm::list::{list_del, list_empty, lru_to_page, ListId};
use crate::mm::lru::*;
use crate::mm::unevictable::page_evictable;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::smp_processor_id;
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// 2.6.38 merge window (revert planned before -rc1): batched activation, putback inference.
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
    // LEFT OUT: `struct zone *zone = page_zone(page)`: the model has one zone (Mem::zone).
    // LEFT OUT: `int file = page_is_file_cache(page)`: only for the statistics at the end.
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

    // LEFT OUT: `if (putback) return;` then __count_vm_event(PGACTIVATE),
    // update_page_reclaim_stat(zone, page, file, 1): the return skips only the statistics,
    // which are not modelled (proofs/lru.1.md).
}

/// `activate_page_drain(cpu)` (mm/swap.c, 744ed144, CONFIG_SMP).
fn activate_page_drain(m: &Mem, cpu: usize) {
    // LEFT OUT: UNPAIRED: `pvec = &per_cpu(activate_page_pvecs, cpu)`, `if
    // (pagevec_count(pvec)) pagevec_lru_move_fn(pvec, __activate_page, NULL)`: `with(cpu, ..)`
    // below and its closure (the tool reads a closure as one statement).
    // MODEL: UNPAIRED: `m.activate_page_pvecs.with(cpu, |pvec| ..)` is per_cpu(activate_page_pvecs,
    // cpu) with the C's body in its closure.
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
    // LEFT OUT: UNPAIRED: `pvec = &get_cpu_var(activate_page_pvecs)`, `if (!pagevec_add(pvec,
    // page)) { spin_unlock_irq(&zone->lru_lock); pagevec_lru_move_fn(pvec, __activate_page,
    // NULL); spin_lock_irq(&zone->lru_lock); }`, put_cpu_var(): `with(cpu, ..)` below and its
    // closure (the tool reads a closure as one statement).
    // MODEL: UNPAIRED: `m.activate_page_pvecs.with(cpu, |pvec| ..)` is get_cpu_var ..
    // put_cpu_var with the C's body in its closure.
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
        source: "744ed144 'mm: batch activate_page() to reduce lock contention' (Shaohua Li, the 2.6.38 merge window), reverted by 7a608572, per Linus's plan before -rc1 was tagged, 17 Jan 2011 (his 'I will revert those two later today and then release -rc1 in the evening', quoted in Chris Mason's reply on linux-mm, <1295298806-sup-2802@think>; id as cited in eb709b0d's changelog, shown on a linux-stable mm/swap.c blob page, gitlab.ublinux.ru; the revert's own text and date were not found). Verified against kernel/744ed144/mm/swap.c and mm/vmscan.c, verbatim since 4 Dec 2026 (torvalds/linux stored at 744ed1442757767ffede5008bb13e0805085902e; byte-identical after two whitespace/word-order corrections, and putback_lru_pages has THP's numpages lines; compared again function by function, comment blocks included, by the lru audit: mm/swap.c index id 2054784427, mm/vmscan.c index id 1318829865); before, they were Shaohua Li's postings, linux-mm, 5 Jan 2011, '[PATCH 1/2]mm: simplify code of swap.c' (<1294214404.1949.572.camel@sli10-conroe>, = d8505dee, pagevec_lru_move_fn, in the shared code) and '[PATCH v2 2/2]mm: batch activate_page() to reduce lock contention' (<1294214409.1949.573.camel@sli10-conroe>), applied to the 2.6.37 file; CONFIG_SMP. The merged changelog (free-git.org FEX-Emu/linux commit 744ed14427, pages corpus) keeps the v2 posting's first two paragraphs (with the 58% figure), drops its V1->v2 notes and adds the microbenchmark table (case-mmap-pread-seq -69.72%) and '[akpm@linux-foundation.org: coding-style fixes]' (the 'static void inline' -> 'static inline void' correction above); git.karo-electronics.de (mv-sheeva.git commit 744ed1442757) showed only the first two paragraphs, which is why it had seemed to match the posting's. d8505dee's merged text UNVERIFIED.",
    };
    const BATCHED: bool = true;

    /// `activate_page(page)` (mm/swap.c, 744ed144, CONFIG_SMP).
    fn activate_page(m: &Mem, page: PagePtr) {
        let p = m.pg(page);
        if PageLRU(p) && !PageActive(p) && !PageUnevictable(p) {
            let cpu = smp_processor_id();
            // LEFT OUT: UNPAIRED: `pvec = &get_cpu_var(activate_page_pvecs)`,
            // page_cache_get(page), `if (!pagevec_add(pvec, page)) pagevec_lru_move_fn(pvec,
            // __activate_page, NULL)`, put_cpu_var(): `with(cpu, ..)` below and its closure
            // (the tool reads a closure as one statement).
            // MODEL: UNPAIRED: `m.activate_page_pvecs.with(cpu, |pvec| ..)` is get_cpu_var ..
            // put_cpu_var with the C's body in its closure.
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

        activate_page_drain(m, cpu);
    }

    /// `putback_lru_pages(zone, sc, nr_anon, nr_file, page_list)` (mm/vmscan.c, 744ed144):
    /// "Put back any unfreeable pages." An active page follows the activate_page path
    /// (`putback_active_lru_page`); a page that is no longer evictable goes through
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
            let lru = page_lru(m, p);
            if is_active_lru(lru) {
                // LEFT OUT: `int file = is_file_lru(lru); int numpages = hpage_nr_pages(page);
                // reclaim_stat->recent_rotated[file] += numpages`: reclaim statistics (THP's
                // page count), not modelled.
                if putback_active_lru_page(m, &mut zone, page) != 0 {
                    continue;
                }
            }
            SetPageLRU(p);
            add_page_to_lru_list(m, page, lru);
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
