//! mlock, and munlock against reclaim's putback (Linux 2.6.37–3.0). `mlock_vma_page()` sets
//! PG_mlocked and moves the page to the unevictable list (isolate, putback; lru.22).
//! `munlock_vma_page()` clears PG_mlocked, then takes the page off the LRU and puts it back, so
//! that a page culled to the unevictable list while it was mlocked goes back to an evictable one.
//! Its partner is `putback_lru_page()`'s `smp_mb()` and recheck (`super::lru`): "When racing with
//! an mlock clearing (page is unlocked), make sure that if the other thread does not observe our
//! setting of PG_lru and fails isolation, we see PG_mlocked cleared below and move the page back to
//! the evictable list. The other side is TestClearPageMlocked()."
//!
//! Text: kernel/linux-2.6.37/mm/mlock.c (its header says how each function is bracketed and how
//! much of 3.0's text is verified). Only lru.16, lru.17, lru.21 and lru.22 model mlock
//! (`MemMap::models_mlock`): `page_evictable()` tests PG_mlocked there alone.

use super::lru::Lru;
use super::vma::{SWAP_AGAIN, SWAP_MLOCK};
use super::Mem;
use crate::page::*;
use crate::{ktrace, BUG_ON};

/// What `try_to_munlock(page)` (mm/rmap.c) answers in lru.16, lru.17, lru.21 and lru.22:
/// SWAP_AGAIN, "no vma holds it mlocked". Its rmap walk (`TTU_MUNLOCK` over the page's vmas,
/// `mlock_vma_page()` again for one still VM_LOCKED) is not modelled: the model has one vma mapping
/// the page, and `munlock_vma_pages_range()` cleared its VM_LOCKED before it called
/// `munlock_vma_page()`, so the walk finds no VM_LOCKED vma and touches neither PG_mlocked nor the
/// LRU (proofs/lru.16.md, "Left out").
pub fn try_to_munlock(m: &Mem, page: PagePtr) -> i32 {
    let _ = (m, page);
    SWAP_AGAIN
}

/// `mlock_vma_page(page)` (mm/mlock.c, 2.6.37–3.0): "Mark page as mlocked if not already. If
/// page on LRU, isolate and putback to move to unevictable list." Called with the page locked
/// (lru.22's caller, `mlock_one_page` in models/lru.rs, takes the page lock).
pub fn mlock_vma_page<V: Lru>(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    BUG_ON!("mlock_vma_page", !PageLocked(p));

    if !TestSetPageMlocked(p) {
        // LEFT OUT: `inc_zone_page_state(page, NR_MLOCK)`, `count_vm_event(UNEVICTABLE_PGMLOCKED)`:
        // a zone statistic and a vm event, not modelled.
        ktrace!("mlock_vma_page", "{page:?}: PG_mlocked set");
        if V::isolate_lru_page(m, page) == 0 {
            V::putback_lru_page(m, page);
        }
    }
}

/// `munlock_vma_page(page)` (mm/mlock.c, 2.6.37–3.0): "When we munlock a page, because the vma
/// where we found the page is being munlock()ed or munmap()ed, [...] to walk the page's rmap
/// list in try_to_munlock() we must isolate the page from the LRU. If some other task has
/// removed the page from the LRU, we won't be able to do that. So we clear the PageMlocked as
/// we might not get another chance. If we can't isolate the page, we leave it for
/// putback_lru_page() and vmscan [page_referenced()/try_to_unmap()] to deal with."
pub fn munlock_vma_page<V: Lru>(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    // LEFT OUT: `BUG_ON(!PageLocked(page))`: munlock's callers do not take the page lock here
    // (only lru.22's mlock takes it; shrink_page_list's trylock_page is left out too); leaving
    // it out on both sides only adds interleavings (proofs/lru.16.md, "Left out").

    if TestClearPageMlocked(p) {
        // LEFT OUT: `dec_zone_page_state(page, NR_MLOCK)`: a zone statistic, not modelled.
        ktrace!("munlock_vma_page", "{page:?}: PG_mlocked cleared");
        if V::isolate_lru_page(m, page) == 0 {
            let ret = try_to_munlock(m, page);
            /*
             * did try_to_unlock() succeed or punt?
             */
            // LEFT OUT: `if (ret != SWAP_MLOCK) count_vm_event(UNEVICTABLE_PGMUNLOCKED)`: a vm
            // event, not modelled.
            ktrace!(
                "munlock_vma_page",
                "{page:?}: isolated; try_to_munlock: {}",
                if ret == SWAP_MLOCK {
                    "SWAP_MLOCK"
                } else {
                    "SWAP_AGAIN (no vma holds it mlocked)"
                }
            );

            V::putback_lru_page(m, page);
            // LEFT OUT: the `else` branch's `if (PageUnevictable(page))
            // count_vm_event(UNEVICTABLE_PGSTRANDED); else`: a vm event, not modelled (the test
            // only picks which event; the tool pairs the Rust `else` below with that inner
            // `else`, so the gap of this branch's first lines reaches here).
        } else {
            /*
             * Some other task has removed the page from the LRU.
             * putback_lru_page() will take care of removing the
             * page from the unevictable list, if necessary.
             * vmscan [page_referenced()] will move the page back
             * to the unevictable list if some other vma has it
             * mlocked.
             */
            // LEFT OUT: `count_vm_event(UNEVICTABLE_PGMUNLOCKED)`: a vm event, not modelled.
            ktrace!(
                "munlock_vma_page",
                "{page:?}: isolate_lru_page failed: left to whoever holds it off the LRU"
            );
        }
    }
}
