//! mm/swap.c after eb709b0d "mm: batch activate_page() to reduce lock contention" (Shaohua Li,
//! 3.0; 744ed144 re-landed without the putback inference): `activate_page()` queues the page in
//! a per-CPU pagevec with a reference; `__activate_page()` re-checks `PageLRU && !PageActive &&
//! !PageUnevictable` under `zone->lru_lock` and does nothing for a page that left the LRU
//! meanwhile; `drain_cpu_pagevecs()` also drains the activate pagevec. Reclaim's
//! `putback_lru_pages()` is unbatched, as in 2.6.37 (kernel/eb709b0d/mm/vmscan.c holds its
//! 2.6.39 text, with THP's `+= numpages`).

use crate::ktrace;
use crate::mm::list::{list_del, list_empty, list_move_tail, lru_to_page, ListId};
use crate::mm::lru::*;
use crate::mm::swap::get_page_unless_zero;
use crate::mm::unevictable::page_evictable;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::smp_processor_id;
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// 3.0: batched activation, strict re-check under the lock.
pub struct Variant;

/// `__activate_page(page, arg)` (mm/swap.c, eb709b0d).
fn __activate_page(m: &Mem, page: PagePtr, _arg: MoveArg) {
    let p = m.pg(page);
    // LEFT OUT: `struct zone *zone = page_zone(page)`: the model has one zone (Mem::zone).
    if PageLRU(p) && !PageActive(p) && !PageUnevictable(p) {
        // LEFT OUT: `int file = page_is_file_cache(page)`: only for the statistics below.
        let lru = page_lru_base_type(p);
        ktrace!("__activate_page", "{page:?}: PageLRU, inactive: activate");
        del_page_from_lru_list(m, page, lru);

        SetPageActive(p);
        let lru = lru_active(lru);
        add_page_to_lru_list(m, page, lru);
        // LEFT OUT: __count_vm_event(PGACTIVATE), update_page_reclaim_stat(zone, page, file,
        // 1): vm events and reclaim statistics are not modelled (proofs/lru.1.md).
        // MODEL: an `else` that only traces the skipped page (no kernel effect).
    } else {
        ktrace!(
            "__activate_page",
            "{page:?}: not an inactive LRU page: skipped"
        );
    }
}

/// `activate_page_drain(cpu)` (mm/swap.c, eb709b0d, CONFIG_SMP).
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

/// `lru_deactivate_fn(page, arg)` (mm/swap.c, 3.0: 315601809d's `lru_deactivate()` as
/// 3dd7ae8e made it a `move_fn`), under `zone->lru_lock`:
///
/// "If the page can not be invalidated, it is moved to the inactive list to speed up its
/// reclaim. It is moved to the head of the list, rather than the tail, to give the flusher
/// threads some time to write it out [...] If the page isn't page_mapped and dirty/writeback,
/// the page could reclaim asap using PG_reclaim."
fn lru_deactivate_fn(m: &Mem, page: PagePtr, _arg: MoveArg) {
    let p = m.pg(page);
    // LEFT OUT: `struct zone *zone = page_zone(page)`: the model has one zone (Mem::zone).

    if !PageLRU(p) {
        ktrace!("lru_deactivate_fn", "{page:?}: not on an LRU list: skipped");
        return;
    }

    if PageUnevictable(p) {
        return;
    }

    // Some processes are using the page
    if page_mapped(p) {
        return;
    }

    let active = PageActive(p);

    // LEFT OUT: `file = page_is_file_cache(page)`: only for the statistics below.
    let lru = page_lru_base_type(p);
    // MODEL: `lru + active` is `lru_active(lru)` when the page is active (LRU_ACTIVE is 1).
    del_page_from_lru_list(m, page, if active { lru_active(lru) } else { lru });
    ClearPageActive(p);
    ClearPageReferenced(p);
    add_page_to_lru_list(m, page, lru);

    if PageWriteback(p) || PageDirty(p) {
        // PG_reclaim could be raced with end_page_writeback It can make readahead confusing.
        // But race window is _really_ small and  it's non-critical problem.
        SetPageReclaim(p);
    } else {
        // The page's writeback ends up during pagevec We moves tha page into tail of inactive.
        list_move_tail(m, page, lru);
        ktrace!(
            "lru_deactivate_fn",
            "{page:?}: {} -> tail of the inactive list",
            if active { "active" } else { "inactive" }
        );
        // LEFT OUT: mem_cgroup_rotate_reclaimable_page(page) (no memcg),
        // __count_vm_event(PGROTATED) (vm events are not modelled).
    }

    // LEFT OUT: `if (active) __count_vm_event(PGDEACTIVATE)` and
    // `update_page_reclaim_stat(zone, page, file, 0)`: vm events and reclaim statistics are not
    // modelled (proofs/lru.1.md).
}

impl Lru for Variant {
    const META: VariantMeta = VariantMeta {
        id: "eb709b0d",
        area: Area::Lru,
        kind: Kind::Commit {
            subject: "mm: batch activate_page() to reduce lock contention (re-landed)",
        },
        parent: Some("linux-2.6.37"),
        source: "eb709b0d 'mm: batch activate_page() to reduce lock contention' (Shaohua Li; mainline eb709b0d062efd653a61183af8e27b2711c3cf5c, author-dated Tue May 24 17:12:55 2011 -0700, the Date line of the commit header as a linux-mm mail quotes it, find_string index id 56759332532; no committer date was found), first in 3.0: 2.6.39's activate_page is still unbatched and a stored 3.0-era mm/swap.c has the batched one. Verified against kernel/eb709b0d/mm/swap.c (status partial): __activate_page, activate_page_drain, activate_page and drain_cpu_pagevecs are the text of that 3.0-era file (search index file id 24827678, repository not named; read in full, and every function of kernel/eb709b0d/mm/swap.c, ____pagevec_lru_add_fn and ____pagevec_lru_add included, is byte-identical to it; whether it is exactly v3.0 is UNVERIFIED, narrowed: a linux-stable mm/swap.c blob page, gitlab.ublinux.ru, shows eb709b0d's swap.c still mainline's at 5f1a19070b16, author-dated 15 Jun 2011; the five weeks from there to v3.0, 22 Jul 2011, are not covered) and equal the '+' lines of the v3 and v4 postings (Shaohua Li, linux-mm, 7 Mar 2011, <1299486978.2337.29.camel@sli10-conroe>; 10 Mar 2011, <1299735019.2337.63.camel@sli10-conroe>); CONFIG_SMP. Applied here to the 2.6.37 file (parent linux-2.6.37). 2.6.39 (dnobori/DN-LinuxKernel-Learn linux-2.6.39/mm/swap.c, commit 1e37c14c729472f107fb33e1bd4afe6bea0d2f2f) is not the batched base: its activate_page is 2.6.37's (lru_lock taken, the PageLRU/PageActive/PageUnevictable tests and the move under it, 'FIXME: speed this up?'), since 744ed144 was reverted by 7a608572; it already has pagevec_lru_move_fn (3dd7ae8e, move_fn(page, arg), used by the rotate and deactivate pagevecs), which the shared code runs. UNVERIFIED: the merged commit's own diff and trailer (not found).",
    };
    const BATCHED: bool = true;
    const DEACTIVATE_PAGE: bool = true;

    /// `activate_page(page)` (mm/swap.c, eb709b0d, CONFIG_SMP).
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

    /// `drain_cpu_pagevecs(cpu)` (mm/swap.c, eb709b0d).
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
        // LEFT OUT: UNPAIRED: `pvec = &per_cpu(lru_deactivate_pvecs, cpu)` and `if
        // (pagevec_count(pvec)) pagevec_lru_move_fn(pvec, lru_deactivate_fn, NULL)`:
        // `with(cpu, ..)` below and its closure (the tool reads a closure as one statement).
        // MODEL: UNPAIRED: `m.lru_deactivate_pvecs.with(cpu, |pvec| ..)` is
        // per_cpu(lru_deactivate_pvecs, cpu) with the C's body in its closure.
        m.lru_deactivate_pvecs.with(cpu, |pvec| {
            if pagevec_count(pvec) > 0 {
                Self::pagevec_lru_move_fn(m, pvec, lru_deactivate_fn, None);
            }
        });

        activate_page_drain(m, cpu);
    }

    /// `deactivate_page(page)` (mm/swap.c, 3.0): "forcefully deactivate a page [...] This
    /// function hints the VM that @page is a good reclaim candidate, for example if its
    /// invalidation fails due to the page being dirty or under writeback."
    fn deactivate_page(m: &Mem, page: PagePtr) {
        let p = m.pg(page);
        // In a workload with many unevictable page such as mprotect, unevictable page
        // deactivation for accelerating reclaim is pointless.
        if PageUnevictable(p) {
            return;
        }

        if get_page_unless_zero(m, page) {
            let cpu = smp_processor_id();
            // LEFT OUT: UNPAIRED: `pvec = &get_cpu_var(lru_deactivate_pvecs)`, `if
            // (!pagevec_add(pvec, page)) pagevec_lru_move_fn(pvec, lru_deactivate_fn, NULL)`,
            // put_cpu_var(): `with(cpu, ..)` below and its closure (the tool reads a closure
            // as one statement).
            // MODEL: UNPAIRED: `m.lru_deactivate_pvecs.with(cpu, |pvec| ..)` is get_cpu_var
            // .. put_cpu_var with the C's body in its closure.
            m.lru_deactivate_pvecs.with(cpu, |pvec| {
                ktrace!("deactivate_page", "{page:?} queued on CPU{cpu}'s pagevec");
                if pagevec_add(m, pvec, page) == 0 {
                    Self::pagevec_lru_move_fn(m, pvec, lru_deactivate_fn, None);
                }
            });
        }
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
