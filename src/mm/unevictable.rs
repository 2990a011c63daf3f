//! The unevictable LRU of Linux 2.6.37–3.0 ("Unevictable LRU Infrastructure", 2.6.28) as
//! SHM_LOCK reaches it: a shmem file's mapping marked AS_UNEVICTABLE, `page_evictable()`,
//! `add_page_to_unevictable_list()`, and SHM_UNLOCK's rescue of the pages culled meanwhile
//! (`shmem_lock()` → `scan_mapping_unevictable_pages()` → `check_move_unevictable_page()`).
//! `putback_lru_page()`'s unevictable branch and its `redo:` recheck are in `super::lru`.
//!
//! Text: kernel/linux-2.6.37/mm/vmscan.c, mm/swap.c, mm/shmem.c and
//! include/linux/pagemap.h (their headers say where each was read and whether 3.0's is the
//! same).
//!
//! Only lru.14 to lru.17, lru.21 and lru.22 have an unevictable list (lru.14, lru.15 and lru.17 an
//! unevictable mapping, lru.16, lru.17, lru.21 and lru.22 mlocked pages). Every other model runs
//! with `MemMap::models_unevictable` false: `page_evictable()` is then true without a load, and the
//! `PageUnevictable` tests of `page_lru()` / `del_page_from_lru()` are skipped (no page of theirs
//! can have PG_unevictable set), so they keep the scheduling points, explorations and soak
//! schedules they had before (the pattern of `MemMap::models_mapping`). PG_mlocked is modelled in
//! lru.16, lru.17, lru.21 and lru.22 alone (`MemMap::models_mlock`, `crate::mm::mlock`): with it
//! false `page_evictable()` does not load it, so lru.14 and lru.15 keep their explorations;
//! `is_mlocked_vma()` (a new anonymous page's test) is not modelled.

use super::list::{list_move, ListId};
use super::lru::{
    __mod_zone_page_state, add_page_to_lru_list, lru_lock, page_lru_base_type, pagevec_count,
    pagevec_lookup, pagevec_release, Lru, Pagevec,
};
use super::page_ref::PageRef;
use super::Mem;
use crate::page::*;
use crate::sync::{clear_bit, set_bit, test_bit, unsigned_long, CName, RaceCell};
use crate::{ktrace, VM_BUG_ON};

/// AS_UNEVICTABLE (include/linux/pagemap.h, 2.6.28–3.0: `__GFP_BITS_SHIFT + 3`, "e.g.,
/// ramdisk, SHM_LOCK"). The model's `mapping->flags` holds this bit alone (the gfp mask in
/// the low bits and AS_EIO, AS_ENOSPC, AS_MM_ALL_LOCKS are not modelled), so its number is
/// the flag's offset above `__GFP_BITS_SHIFT`.
pub const AS_UNEVICTABLE: u32 = 3;

/// `struct address_space` of the one shmem file the LRU models' file pages belong to
/// (`page_mapping(page)` of each), with its `shmem_inode_info`'s VM_LOCKED flag.
pub struct AddressSpace {
    /// `mapping->flags` (AS_UNEVICTABLE only).
    pub flags: unsigned_long,
    /// `info->flags & VM_LOCKED` (mm/shmem.c): changed under `info->lock` by `shmem_lock()`.
    info_locked: RaceCell<bool>,
}

impl Default for AddressSpace {
    fn default() -> Self {
        AddressSpace {
            flags: unsigned_long::named(
                0,
                CName {
                    owner: "mapping",
                    id: None,
                    field: "flags",
                },
            ),
            info_locked: RaceCell::new(false),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// include/linux/pagemap.h

/// `mapping_set_unevictable(mapping)` (include/linux/pagemap.h, 2.6.28–3.0).
pub fn mapping_set_unevictable(mapping: &AddressSpace) {
    set_bit(AS_UNEVICTABLE, &mapping.flags);
}

/// `mapping_clear_unevictable(mapping)` (include/linux/pagemap.h, 2.6.28–3.0).
pub fn mapping_clear_unevictable(mapping: &AddressSpace) {
    clear_bit(AS_UNEVICTABLE, &mapping.flags);
}

/// `mapping_unevictable(mapping)` (include/linux/pagemap.h, 2.6.28–3.0).
pub fn mapping_unevictable(mapping: &AddressSpace) -> bool {
    // LEFT OUT: `if (mapping)`: every page of lru.14 stays in its mapping (nothing truncates
    // it), so `page_mapping(page)` is never NULL.
    test_bit(AS_UNEVICTABLE, &mapping.flags)
    // LEFT OUT: `return !!mapping`: the NULL mapping's answer (see above).
}

/// `page_mapping(page)` (include/linux/mm.h) of a page of the LRU models: the one shmem file
/// (no swap cache, no anon pages, nothing truncated while lru.14 runs).
pub fn page_mapping(m: &Mem, page: PagePtr) -> &AddressSpace {
    let _ = page;
    &m.mapping
}

// ---------------------------------------------------------------------------------------------
// mm/swap.c

/// `add_page_to_unevictable_list(page)` (mm/swap.c, 2.6.28–3.0): "Add page directly to its
/// zone's unevictable list. To avoid races with tasks that might be making the page
/// evictable, through eg. munlock, munmap or exit, while it's not on the lru, we want to add
/// the page while it's locked or otherwise "invisible" to other tasks."
pub fn add_page_to_unevictable_list(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    // LEFT OUT: `struct zone *zone = page_zone(page)`: the model has one zone (Mem::zone).

    // LEFT OUT: UNPAIRED: `spin_lock_irq(&zone->lru_lock)` is `lru_lock(m)` below.
    // MODEL: UNPAIRED: `lru_lock(m)` is `spin_lock_irq(&zone->lru_lock)`.
    let zone = lru_lock(m);
    SetPageUnevictable(p);
    SetPageLRU(p);
    add_page_to_lru_list(m, page, ListId::Unevictable);
    // LEFT OUT: UNPAIRED: `spin_unlock_irq(&zone->lru_lock)` is `drop(zone)`.
    // MODEL: UNPAIRED: `drop(zone)` is `spin_unlock_irq(&zone->lru_lock)`.
    drop(zone);
}

// ---------------------------------------------------------------------------------------------
// mm/vmscan.c

/// `page_evictable(page, vma)` (mm/vmscan.c, 2.6.37–3.0), `vma` NULL (every caller modelled
/// passes NULL): "Reasons page might not be evictable: (1) page's mapping marked
/// unevictable (2) page is part of an mlocked VMA".
pub fn page_evictable(m: &Mem, page: PagePtr) -> bool {
    // MODEL: `m.map.models_unevictable() &&`: a run that does not model unevictable pages has no
    // unevictable mapping (and no mlock): the answer is 1 without a load (module doc).
    if m.map.models_unevictable() && mapping_unevictable(page_mapping(m, page)) {
        return false;
    }

    // MODEL: `m.map.models_mlock() &&`: a run that does not model mlock has no page with
    // PG_mlocked set: the test is skipped without a load (`MemMap::models_mlock`; lru.16,
    // lru.17, lru.21 and lru.22 model it).
    // LEFT OUT: `|| (vma && is_mlocked_vma(vma, page))`: every caller modelled passes vma NULL
    // (the one that does not, page_add_new_anon_rmap(), adds a new anonymous page: none here).
    if m.map.models_mlock() && PageMlocked(m.pg(page)) {
        return false;
    }

    true
}

/// `check_move_unevictable_page(page, zone)` (mm/vmscan.c, 2.6.37–3.0): "Checks a page for
/// evictability and moves the page to the appropriate zone lru list. Restrictions:
/// zone->lru_lock must be held, page must be on LRU and must have PageUnevictable set."
pub fn check_move_unevictable_page(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    VM_BUG_ON!("check_move_unevictable_page", PageActive(p));

    // LEFT OUT: UNPAIRED: the `retry:` label is the `loop` below.
    // MODEL: UNPAIRED: `loop` is the `retry:` label: `continue` is its `goto retry`, `break`
    // the fall through.
    loop {
        ClearPageUnevictable(p);
        if page_evictable(m, page) {
            let l = page_lru_base_type(p);

            // LEFT OUT: UNPAIRED: `__dec_zone_state(zone, NR_UNEVICTABLE)` is the count below.
            // MODEL: `__mod_zone_page_state(m, Unevictable, -1)` is `__dec_zone_state(zone,
            // NR_UNEVICTABLE)`.
            __mod_zone_page_state(m, ListId::Unevictable, -1);
            ktrace!(
                "check_move_unevictable_page",
                "{page:?} evictable: to {l:?}"
            );
            list_move(m, page, l);
            // LEFT OUT: mem_cgroup_move_lists(page, LRU_UNEVICTABLE, l): memcg is not modelled.
            // MODEL: `__mod_zone_page_state(m, l, 1)` is `__inc_zone_state(zone,
            // NR_INACTIVE_ANON + l)`.
            __mod_zone_page_state(m, l, 1);
            // LEFT OUT: __count_vm_event(UNEVICTABLE_PGRESCUED): a vm event.
        } else {
            /*
             * rotate unevictable list
             */
            SetPageUnevictable(p);
            // MODEL: UNPAIRED: `list_move(m, page, ListId::Unevictable)` is
            // `list_move(&page->lru, &zone->lru[LRU_UNEVICTABLE].list)`.
            list_move(m, page, ListId::Unevictable);
            // LEFT OUT: mem_cgroup_rotate_lru_list(page, LRU_UNEVICTABLE): memcg.
            if page_evictable(m, page) {
                // LEFT OUT: UNPAIRED: `goto retry` is the `continue` below.
                // MODEL: UNPAIRED: `continue` is `goto retry`.
                continue; // goto retry
            }
        }
        // MODEL: UNPAIRED: `break` leaves the `retry:` loop where the C falls through.
        break;
    }
}

/// `scan_mapping_unevictable_pages(mapping)` (mm/vmscan.c, 2.6.37–3.0): "Scan all pages in
/// mapping. Check unevictable pages for evictability and move them to the appropriate zone
/// lru list." `cache` is the mapping's page cache (its references, in index order).
pub fn scan_mapping_unevictable_pages<V: Lru>(m: &Mem, cache: &[PageRef]) {
    // MODEL: `next` counts the pages looked up: the model's page cache is dense (page i has
    // index i), so the C's `if (page_index > next) next = page_index; next++;` is `next += 1`.
    let mut next = 0;
    // LEFT OUT: UNPAIRED: `pgoff_t end = (i_size_read(mapping->host) + PAGE_CACHE_SIZE - 1) >>
    // PAGE_CACHE_SHIFT` is `end` below.
    // MODEL: UNPAIRED: `end` is the file's size in pages: its page cache (`cache.len()`).
    let end = cache.len();

    // MODEL: UNPAIRED: `cache.is_empty()` is `mapping->nrpages == 0`.
    if cache.is_empty() {
        return;
    }

    // LEFT OUT: UNPAIRED: `pagevec_init(&pvec, 0)` is `Pagevec::new` below.
    // MODEL: UNPAIRED: `Pagevec::new(size)` is `pagevec_init(&pvec, 0)`.
    let mut pvec = Pagevec::new(m.pagevec_size);
    while next < end && pagevec_lookup(m, &mut pvec, &cache[next..]) != 0 {
        // LEFT OUT: `int pg_scanned = 0`: only for the UNEVICTABLE_PGSCANNED event.
        // MODEL: UNPAIRED: `let mut zone = None` is `zone = NULL`.
        let mut zone = None;

        for i in 0..pagevec_count(&pvec) {
            let page = pvec.pages[i];
            let p = m.pg(page);
            // LEFT OUT: `pgoff_t page_index = page->index; struct zone *pagezone =
            // page_zone(page); pg_scanned++; if (page_index > next) next = page_index;`: see
            // `next` above (dense cache, one zone, no event).
            next += 1; // next++

            // LEFT OUT: UNPAIRED: `if (pagezone != zone) { if (zone)
            // spin_unlock_irq(&zone->lru_lock); zone = pagezone;
            // spin_lock_irq(&zone->lru_lock); }` is the `if zone.is_none()` below: one zone,
            // so the lock is taken for the first page and never dropped in the loop.
            // MODEL: UNPAIRED: `if zone.is_none() { zone = Some(lru_lock(m)) }` is that block.
            if zone.is_none() {
                zone = Some(lru_lock(m));
            }

            if PageLRU(p) && PageUnevictable(p) {
                V::check_move_unevictable_page(m, page);
            }
        }
        // LEFT OUT: UNPAIRED: `if (zone) spin_unlock_irq(&zone->lru_lock)` is `drop(zone)`.
        // MODEL: UNPAIRED: `drop(zone)` is `if (zone) spin_unlock_irq(&zone->lru_lock)`.
        drop(zone);
        pagevec_release::<V>(m, &mut pvec);

        // LEFT OUT: count_vm_events(UNEVICTABLE_PGSCANNED, pg_scanned): a vm event.
    }
}

// ---------------------------------------------------------------------------------------------
// mm/shmem.c

/// `shmem_lock(file, lock, user)` (mm/shmem.c, 2.6.37; 3.0's is the same where its text is
/// known: kernel/linux-2.6.37/mm/shmem.c): SHM_LOCK (`lock` 1) marks the file's mapping
/// unevictable, SHM_UNLOCK (`lock` 0) clears the mark and rescues the pages reclaim culled
/// meanwhile. shmctl() calls it with `lock` 1, then with 0 (and `shp->mlock_user`).
pub fn shmem_lock<V: Lru>(m: &Mem, lock: bool, cache: &[PageRef]) -> i32 {
    let info = &m.mapping;
    // LEFT OUT: `struct inode *inode = file->f_path.dentry->d_inode; struct
    // shmem_inode_info *info = SHMEM_I(inode)`: `info` is the model's one file.
    // LEFT OUT: `int retval = -ENOMEM`: the only failure is user_shm_lock()'s, not modelled.

    // LEFT OUT: spin_lock(&info->lock): one CPU of lru.14 calls shmem_lock(), so the lock is
    // never contended; `info_locked` is a RaceCell, so a second caller would be reported as a
    // race.
    // LEFT OUT: UNPAIRED: the C's test `lock && !(info->flags & VM_LOCKED)` is the `if` below.
    // MODEL: UNPAIRED: `info.info_locked` is `info->flags & VM_LOCKED`.
    if lock && !info.info_locked.get() {
        // LEFT OUT: `if (!user_shm_lock(inode->i_size, user)) goto out_nomem;`:
        // RLIMIT_MEMLOCK accounting is not modelled (the lock is granted).
        // LEFT OUT: UNPAIRED: `info->flags |= VM_LOCKED` is the `set(true)` below.
        // MODEL: UNPAIRED: `info.info_locked.set(true)` is `info->flags |= VM_LOCKED`.
        info.info_locked.set(true);
        mapping_set_unevictable(info); // file->f_mapping
        ktrace!(
            "shmem_lock",
            "SHM_LOCK: AS_UNEVICTABLE set in mapping->flags"
        );
    }
    // LEFT OUT: UNPAIRED: the C's test `!lock && (info->flags & VM_LOCKED) && user` is the
    // `if` below without `&& user`: in lru.14 the SHM_UNLOCK follows a SHM_LOCK, so shmctl
    // passes the locker's user_struct (`shp->mlock_user`), not NULL (it is NULL for a segment
    // never locked, where `info->flags & VM_LOCKED` is clear too).
    // MODEL: UNPAIRED: the `if` below is that test.
    if !lock && info.info_locked.get() {
        // LEFT OUT: user_shm_unlock(inode->i_size, user): RLIMIT_MEMLOCK accounting.
        // LEFT OUT: UNPAIRED: `info->flags &= ~VM_LOCKED` is the `set(false)` below.
        // MODEL: UNPAIRED: `info.info_locked.set(false)` is `info->flags &= ~VM_LOCKED`.
        info.info_locked.set(false);
        mapping_clear_unevictable(info); // file->f_mapping
        ktrace!(
            "shmem_lock",
            "SHM_UNLOCK: AS_UNEVICTABLE cleared in mapping->flags, rescan"
        );
        V::scan_mapping_unevictable_pages(m, cache);
    }
    // LEFT OUT: UNPAIRED: `retval = 0;`, the `out_nomem:` label, spin_unlock(&info->lock)
    // (see above) and `return retval` are the tail `0` below.
    // MODEL: UNPAIRED: the tail `0` is `retval = 0; ... return retval;`.
    0
}
