//! exec's temporary stack (fs/exec.c, 2.6.34): `__bprm_mm_init()` creates the stack vma at
//! `STACK_TOP_MAX`, the argument pages are copied into it, and `setup_arg_pages()` ->
//! `shift_arg_pages()` moves it down to its final place: `vma_adjust()` to cover old and new
//! ranges, `move_page_tables()` to move the ptes, `vma_adjust()` to shrink to the new range.
//! Between the first `vma_adjust()` and the move, the rmap computes the new addresses of the
//! stack's pages while their ptes are still at the old ones: the race a8bef8ff closed by keeping
//! migration out of the temporary stack. Its exec side is here too
//! ([`__bprm_mm_init_temp_stack`], [`setup_arg_pages_temp_stack`]: the stack marked
//! `VM_STACK_INCOMPLETE_SETUP` until it has moved), for every chain-era rmap whose kernel
//! carries a8bef8ff (`ChainLock::TEMP_STACK`, src/mm/vma_2_6_34.rs, whose `try_to_unmap_anon`
//! skips the marked vma).

use super::mremap::move_page_tables;
use super::vma::*;
use crate::ktrace;
use crate::sync::{READ_ONCE, WRITE_ONCE};
use crate::BUG_ON;

/// `VM_STACK_FLAGS` (include/linux/mm.h): `VM_GROWSDOWN | VM_STACK_DEFAULT_FLAGS |
/// VM_ACCOUNT`, of which the models keep the bit they read.
pub const VM_STACK_FLAGS: usize = VM_GROWSDOWN;

/// `__bprm_mm_init(bprm)` (fs/exec.c, 2.6.34): the temporary stack's flags.
pub fn __bprm_mm_init(mm: &Mm, vma: VmaId) {
    // LEFT OUT: the allocation, `mmap_sem`, `vm_mm` and the bounds (`STACK_TOP_MAX - PAGE_SIZE`
    // to `STACK_TOP_MAX`): the model's setup gives the stack its slot, mm and bounds (two pages,
    // shifted by 0x4000 so that old and new ranges do not overlap).
    WRITE_ONCE(&mm.vmas[vma].vm_flags, VM_STACK_FLAGS);
    // LEFT OUT: `vm_page_prot` (no protection bits in the models' ptes), the anon_vma chain's
    // INIT_LIST_HEAD (the machine starts every head empty), `insert_vm_struct` (the setup
    // links the vma), the counters and `bprm->p`, the error paths.
}

/// `setup_arg_pages(bprm, stack_top, executable_stack)` (fs/exec.c, 2.6.34): the stack's move
/// to its final place.
pub fn setup_arg_pages<V: VmaAdjust>(mm: &Mm, vma: VmaId, stack_shift: usize) -> i32 {
    // LEFT OUT: the computation of `stack_shift` and `bprm->p` from `stack_top` (the model
    // passes the shift), the `vm_flags` computation and `mprotect_fixup()`
    // (the flags the models read do not change here), `down_write(&mm->mmap_sem)`: the CPU
    // running this is the mm's only writer (as in every vma model).
    // MODEL: `ret` is 0 when there is no shift (the C's comes from mprotect_fixup, left out).
    let mut ret = 0;
    // LEFT OUT: `if (ret) goto out_unlock; BUG_ON(prev != vma);` after mprotect_fixup (left
    // out above).
    // Move stack pages down in memory.
    if stack_shift != 0 {
        ret = shift_arg_pages::<V>(mm, vma, stack_shift);
        // LEFT OUT: `if (ret) goto out_unlock;`: shift_arg_pages fails only when another vma
        // lies below the stack or an allocation fails, neither of which the models have; the
        // stack expansion after it (`stack_expand` .. `expand_stack`, `ret = -EFAULT`) and
        // `out_unlock: up_write(&mm->mmap_sem)`: the models' stack keeps its size, and there
        // is no mmap_sem.
    }
    ret
}

/// `__bprm_mm_init(bprm)` (fs/exec.c, a8bef8ff): the temporary stack's flags. The chain-era
/// rmaps whose kernel carries a8bef8ff run it (`ChainLock::TEMP_STACK`).
pub fn __bprm_mm_init_temp_stack(mm: &Mm, vma: VmaId) {
    // LEFT OUT: the allocation, `mmap_sem`, `vm_mm`, the bounds (the model's setup gives
    // the stack its slot, mm and bounds) and a8bef8ff's `BUG_ON(VM_STACK_FLAGS &
    // VM_STACK_INCOMPLETE_SETUP)`, which holds: the models' VM_STACK_FLAGS has neither
    // READ-hint bit.
    WRITE_ONCE(
        &mm.vmas[vma].vm_flags,
        VM_STACK_FLAGS | VM_STACK_INCOMPLETE_SETUP,
    );
    // LEFT OUT: as 2.6.34's ([`__bprm_mm_init`]): `vm_page_prot`,
    // INIT_LIST_HEAD, `insert_vm_struct`, counters, `bprm->p`, errors.
}

/// `setup_arg_pages(bprm, stack_top, executable_stack)` (fs/exec.c, a8bef8ff): the stack's
/// move to its final place, then its mark cleared. The chain-era rmaps whose kernel carries
/// a8bef8ff run it (`ChainLock::TEMP_STACK`).
pub fn setup_arg_pages_temp_stack<V: VmaAdjust>(mm: &Mm, vma: VmaId, stack_shift: usize) -> i32 {
    // LEFT OUT: as 2.6.34's ([`setup_arg_pages`]): `stack_shift` and
    // `bprm->p`, `down_write`; the `vm_flags` computation with a8bef8ff's `vm_flags |=
    // VM_STACK_INCOMPLETE_SETUP` and `mprotect_fixup()`, which stores those flags: with
    // that line the bit __bprm_mm_init set stays set (without it mprotect_fixup would
    // clear it before the shift: a safeguard row, argued in proofs/vma.16.md).
    // MODEL: `ret` is 0 when there is no shift (the C's comes from mprotect_fixup).
    let mut ret = 0;
    // LEFT OUT: `if (ret) goto out_unlock; BUG_ON(prev != vma);` after mprotect_fixup (left
    // out above).
    // Move stack pages down in memory.
    if stack_shift != 0 {
        ret = shift_arg_pages::<V>(mm, vma, stack_shift);
        // LEFT OUT: `if (ret) goto out_unlock;`: shift_arg_pages does not fail in the
        // models (as 2.6.34's); in the kernel that exit leaves the flag set.
    }

    // mprotect_fixup is overkill to remove the temporary stack flags
    // MODEL: the vma; the `&=` below as a load and a store of the word (mmap_sem held: no
    // other writer).
    let v = &mm.vmas[vma];
    WRITE_ONCE(
        &v.vm_flags,
        READ_ONCE(&v.vm_flags) & !VM_STACK_INCOMPLETE_SETUP,
    );
    ktrace!(
        "setup_arg_pages",
        "vma#{vma}: VM_STACK_INCOMPLETE_SETUP cleared"
    );
    // LEFT OUT: the stack expansion, `out_unlock: up_write(&mm->mmap_sem)` (as 2.6.34's).
    ret
}

/// `shift_arg_pages(vma, shift)` (fs/exec.c, 2.6.34).
pub fn shift_arg_pages<V: VmaAdjust>(mm: &Mm, vma: VmaId, shift: usize) -> i32 {
    // LEFT OUT: `mm = vma->vm_mm`: the machine is passed in.
    let v = &mm.vmas[vma];
    let old_start = READ_ONCE(&v.vm_start);
    let old_end = READ_ONCE(&v.vm_end);
    let length = old_end - old_start;
    let new_start = old_start - shift;
    let new_end = old_end - shift;
    // LEFT OUT: `struct mmu_gather *tlb`: no TLB in the models.

    BUG_ON!("shift_arg_pages", new_start > new_end);

    // ensure there are no vmas between where we want to go
    // and where we are
    // LEFT OUT: `if (vma != find_vma(mm, new_start)) return -EFAULT;`: the models' mm has no
    // other vma.

    // cover the whole range: [new_start, old_end)
    ktrace!(
        "shift_arg_pages",
        "vma#{vma} [{old_start:#x}, {old_end:#x}) moves down by {shift:#x}"
    );
    if V::vma_adjust(mm, vma, new_start, old_end, READ_ONCE(&v.vm_pgoff), None) != 0 {
        return -ENOMEM;
    }

    // move the page tables downwards, on failure we rely on
    // process cleanup to remove whatever mess we made.
    // MODEL: `false`: 38a76013's `need_rmap_locks` (the walks that care skip the temporary
    // stack); earlier kernels have no such argument, and their move_ptes ignores it.
    if length != move_page_tables::<V>(mm, vma, old_start, vma, new_start, length, false) {
        return -ENOMEM;
    }

    // LEFT OUT: `lru_add_drain()` (no LRU in these models), `tlb_gather_mmu`, both
    // `free_pgd_range()` branches and `tlb_finish_mmu`: the page-table pages are not modelled
    // (one level), and the moved range's old ptes are already none.

    // Shrink the vma to just the new range.  Always succeeds.
    V::vma_adjust(mm, vma, new_start, new_end, READ_ONCE(&v.vm_pgoff), None);

    0
}
