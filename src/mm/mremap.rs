//! mm/mremap.c (2.6.34): `move_page_tables()` and `move_ptes()`, which exec's
//! `shift_arg_pages()` uses to move the temporary stack's ptes (and mremap its vma's).

use super::vma::*;
use crate::ktrace;
use crate::sync::{spin_lock, READ_ONCE, WRITE_ONCE};

/// `move_ptes(vma, old_pmd, old_addr, old_end, new_vma, new_pmd, new_addr)` (mm/mremap.c,
/// 2.6.34).
pub fn move_ptes(
    mm: &Mm,
    vma: VmaId,
    mut old_addr: usize,
    old_end: usize,
    new_vma: VmaId,
    mut new_addr: usize,
) {
    // LEFT OUT: `mapping`, `mm = vma->vm_mm`, the mmu notifier and the `vm_file` branch
    // (`i_mmap_lock`, `vm_truncate_count`): anonymous vmas, no notifiers.

    // We don't have to worry about the ordering of src and dst
    // pte locks because exclusive mmap_sem prevents deadlock.
    // MODEL: `old_pte = pte_offset_map_lock(mm, old_pmd, old_addr, &old_ptl)`: the lock of the
    // one pte page (`Mm::ptl`), which is also `new_ptl`, so the nested lock is not taken.
    let ptl = spin_lock(pte_lockptr(mm, vma));
    // LEFT OUT: `new_pte = pte_offset_map_nested(...)`, `new_ptl = pte_lockptr(mm, new_pmd)`
    // and `if (new_ptl != old_ptl) spin_lock_nested(...)`: one pte page, one lock (above);
    // `arch_enter_lazy_mmu_mode()`: no paravirt.

    while old_addr < old_end {
        // MODEL: the `for` over old and new ptes, a page at a time, as this `while`.
        let (Some(old_pte), Some(new_pte)) =
            (pte_slot(mm, vma, old_addr), pte_slot(mm, new_vma, new_addr))
        else {
            break;
        };
        if READ_ONCE(&mm.ptes[old_pte]) != PTE_NONE {
            // MODEL: `pte_none(*old_pte)`'s `continue` as this `if`.
            // MODEL: `pte = ptep_clear_flush(vma, old_addr, old_pte)` as a read and a clear
            // (no TLB); `move_pte()` is the identity on x86.
            let pte = READ_ONCE(&mm.ptes[old_pte]);
            WRITE_ONCE(&mm.ptes[old_pte], PTE_NONE);
            WRITE_ONCE(&mm.ptes[new_pte], pte);
            ktrace!(
                "move_ptes",
                "pte {pte:#x} moved from {old_addr:#x} to {new_addr:#x}"
            );
        }
        old_addr += PAGE_SIZE;
        new_addr += PAGE_SIZE;
    }

    // LEFT OUT: `arch_leave_lazy_mmu_mode()`, the nested unlock (not taken), `pte_unmap_nested`,
    // the `i_mmap_lock` unlock and the mmu notifier (see above).
    // MODEL: `pte_unmap_unlock(old_pte - 1, old_ptl)` as the guard's drop.
    drop(ptl);
}

/// `flush_cache_range(vma, start, end)` (arch/x86/include/asm/cacheflush.h): x86's caches are
/// coherent, so it does nothing.
fn flush_cache_range(_mm: &Mm, _vma: VmaId, _start: usize, _end: usize) {}

/// `LATENCY_LIMIT` (mm/mremap.c): 64 pages per `move_ptes()` call.
const LATENCY_LIMIT: usize = 64 * PAGE_SIZE;

/// `move_page_tables(vma, old_addr, new_vma, new_addr, len)` (mm/mremap.c, 2.6.34): how much
/// was moved.
pub fn move_page_tables(
    mm: &Mm,
    vma: VmaId,
    mut old_addr: usize,
    new_vma: VmaId,
    mut new_addr: usize,
    len: usize,
) -> usize {
    // LEFT OUT: the declarations of `extent`, `next` and the pmds (below).
    let old_end = old_addr + len;
    flush_cache_range(mm, vma, old_addr, old_end);

    while old_addr < old_end {
        // MODEL: the `for` over pmd-sized extents as this `while`; its steps at the end.
        // LEFT OUT: `cond_resched()`; the clamp of `next` to the pmd boundary and old_end:
        // every address of the models lies under one pmd, so `next` is old_end.
        let extent = (old_end - old_addr).min(LATENCY_LIMIT);
        // LEFT OUT: `get_old_pmd`/`alloc_new_pmd` and their `continue`/`break` (one pmd,
        // always present), the new pmd's clamp of `extent` (one pmd); `if (extent >
        // LATENCY_LIMIT) extent = LATENCY_LIMIT;` is the `min` above.
        move_ptes(mm, vma, old_addr, old_addr + extent, new_vma, new_addr);
        // MODEL: the `for`'s steps.
        old_addr += extent;
        new_addr += extent;
    }

    len + old_addr - old_end // how much done
}
