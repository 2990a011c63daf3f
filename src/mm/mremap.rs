//! mm/mremap.c (2.6.34): `move_page_tables()` and `move_ptes()`, which exec's
//! `shift_arg_pages()` uses to move the temporary stack's ptes (and mremap its vma's); and
//! mremap's own move (3.1): `move_vma()` with mm/mmap.c's `copy_vma()` (vma.19).

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
            // MODEL: the trace has the clear and the set as two events (a walker may look
            // between them).
            ktrace!("move_ptes", "pte {pte:#x} at {old_addr:#x} cleared");
            WRITE_ONCE(&mm.ptes[new_pte], pte);
            ktrace!(
                "move_ptes",
                "pte {pte:#x} set at {new_addr:#x} (moved from {old_addr:#x})"
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

/// `move_page_tables(vma, old_addr, new_vma, new_addr, len)` (mm/mremap.c, 2.6.34; 38a76013
/// adds `need_rmap_locks`, handed to `move_ptes`): how much was moved.
pub fn move_page_tables<V: VmaAdjust>(
    mm: &Mm,
    vma: VmaId,
    mut old_addr: usize,
    new_vma: VmaId,
    mut new_addr: usize,
    len: usize,
    need_rmap_locks: bool,
) -> usize {
    // LEFT OUT: the declarations of `extent`, `next` and the pmds (below).
    let old_end = old_addr + len;
    flush_cache_range(mm, vma, old_addr, old_end);
    // LEFT OUT: from 3.x, `bool need_flush` with its `need_flush = true` and the
    // `flush_tlb_range()` after the loop (no TLB in the models), and
    // `mmu_notifier_invalidate_range_start()`/`_end()` (no secondary MMU).

    while old_addr < old_end {
        // MODEL: the `for` over pmd-sized extents as this `while`; its steps at the end.
        // LEFT OUT: `cond_resched()`; the clamp of `next` to the pmd boundary and old_end:
        // every address of the models lies under one pmd, so `next` is old_end.
        let mut extent = old_end - old_addr;
        // LEFT OUT: `get_old_pmd`/`alloc_new_pmd` and their `continue`/`break` (one pmd,
        // always present), the new pmd's clamp of `extent` (one pmd); from 3.x, the
        // `pmd_trans_huge(*old_pmd)` block (order-0 pages only; its `move_huge_pmd()` ignores
        // 38a76013's `need_rmap_locks`, which dd18dbc2 fixed) and `__pte_alloc()` of a
        // missing new pte page (always present).
        if extent > LATENCY_LIMIT {
            extent = LATENCY_LIMIT;
        }
        V::move_ptes_need_rmap_locks(
            mm,
            vma,
            old_addr,
            old_addr + extent,
            new_vma,
            new_addr,
            need_rmap_locks,
        );
        // LEFT OUT: `need_flush = true` and, after the loop, `flush_tlb_range()` and the
        // notifier's `_end()` (above).
        // MODEL: the `for`'s steps.
        old_addr += extent;
        new_addr += extent;
    }

    len + old_addr - old_end // how much done
}

/// `copy_vma(&vma, addr, len, pgoff)` (mm/mmap.c, 3.1): "Copy the vma structure to a new
/// location in the same mm, prior to moving page table entries, to effect an mremap move."
/// The new vma is slot `new`; `*vmap` is `vma`.
pub fn copy_vma<V: VmaAdjust>(
    mm: &Mm,
    vmap: &mut VmaId,
    new: VmaId,
    addr: usize,
    len: usize,
    mut pgoff: usize,
) -> Option<VmaId> {
    // LEFT OUT: `struct vm_area_struct *vma = *vmap` is the `let vma` line (which the tool
    // reads as a name).
    let vma = *vmap;
    let vma_start = READ_ONCE(&mm.vmas[vma].vm_start);
    // LEFT OUT: `mm = vma->vm_mm` (the machine's `mm` is passed in); `new_vma`, `prev`,
    // `rb_link`, `rb_parent`, `pol`: declared where they are set.

    // If anonymous vma has not yet been faulted, update new pgoff
    // to match new location, to increase its chance of merging.
    let anon_vma = mm.vmas[vma].anon_vma.get();
    // MODEL: `vma->anon_vma` read into a local (an Option: NULL is None).
    if !mm.vmas[vma].vm_file && anon_vma.is_none() {
        pgoff = addr >> PAGE_SHIFT;
    }

    // LEFT OUT: `find_vma_prepare(mm, addr, &prev, &rb_link, &rb_parent)` is the mm list walk
    // for `prev` below (no rb-tree).
    // MODEL: the walk for `prev`.
    let prev = find_vma_prev(mm, mm.vmas[vma].vm_mm.get(), addr);
    let mut new_vma = vma_merge::<V>(
        mm,
        mm.vmas[vma].vm_mm.get(),
        prev,
        addr,
        addr + len,
        READ_ONCE(&mm.vmas[vma].vm_flags),
        anon_vma,
        mm.vmas[vma].vm_file,
        pgoff,
    );
    if let Some(merged) = new_vma {
        // Source vma may have been merged into new_vma
        if vma_start >= READ_ONCE(&mm.vmas[merged].vm_start)
            && vma_start < READ_ONCE(&mm.vmas[merged].vm_end)
        {
            *vmap = merged;
        }
    } else {
        // LEFT OUT: `new_vma = kmem_cache_alloc(vm_area_cachep, GFP_KERNEL)` is the `Some(new)`
        // below; `if (new_vma)`: the slot always exists.
        // MODEL: the caller names the slot (`new`).
        new_vma = Some(new);
        // MODEL: `*new_vma = *vma` as a copy of the fields the model has, one by one; and
        // ghost state: the slot is a live vma (a walk may reach it).
        WRITE_ONCE(&mm.vmas[new].vm_start, vma_start);
        WRITE_ONCE(&mm.vmas[new].vm_end, READ_ONCE(&mm.vmas[vma].vm_end));
        WRITE_ONCE(&mm.vmas[new].vm_pgoff, READ_ONCE(&mm.vmas[vma].vm_pgoff));
        WRITE_ONCE(&mm.vmas[new].vm_flags, READ_ONCE(&mm.vmas[vma].vm_flags));
        mm.vmas[new].anon_vma.set(mm.vmas[vma].anon_vma.get());
        mm.vmas[new].vm_mm.set(mm.vmas[vma].vm_mm.get());
        mm.vmas[new].freed.set(false);
        // LEFT OUT: `pol = mpol_dup(vma_policy(vma))`, its `IS_ERR` test and `goto
        // out_free_vma`: the models' vmas have no mempolicy. `INIT_LIST_HEAD(&new_vma->
        // anon_vma_chain)`: the slot's chain head is empty (the machine starts every head
        // empty, and a slot is used once).
        if V::Rmap::anon_vma_clone(mm, new, vma) != 0 {
            // MODEL: `goto out_free_mempol` (never taken: the pool never runs dry).
            return None;
        }
        // LEFT OUT: `vma_set_policy(new_vma, pol)`: no mempolicies (above).
        WRITE_ONCE(&mm.vmas[new].vm_start, addr);
        WRITE_ONCE(&mm.vmas[new].vm_end, addr + len);
        WRITE_ONCE(&mm.vmas[new].vm_pgoff, pgoff);
        // MODEL: the trace.
        ktrace!(
            "copy_vma",
            "vma#{vma}: new vma#{new} [{addr:#x}, {:#x}) pgoff {pgoff:#x}",
            addr + len
        );
        // LEFT OUT: the `vm_file` branch (`get_file`, `added_exe_file_vma`) and
        // `vm_ops->open`: anonymous vmas. `vma_link(mm, new_vma, prev, rb_link, rb_parent)`
        // is, for an anonymous vma, `__vma_link` -> `__vma_link_list` below (no file, no
        // rb-tree, no map_count).
        // MODEL: that `__vma_link_list` (2.6.34's; 3.1's, in mm/util.c, also sets `vm_prev`
        // and `next->vm_prev`: the models have no `vm_prev`).
        __vma_link_list(mm, new, prev);
    }
    new_vma
    // LEFT OUT: `out_free_mempol:` and `out_free_vma:` (`mpol_put`, `kmem_cache_free`,
    // `return NULL`): never reached (see above).
}

/// `move_vma(vma, old_addr, old_len, new_len, new_addr)` (mm/mremap.c, 3.1): the move of an
/// mremap with MREMAP_MAYMOVE. The new vma is slot `new`. Returns `new_addr`.
pub fn move_vma<V: VmaAdjust>(
    mm: &Mm,
    vma: VmaId,
    new: VmaId,
    old_addr: usize,
    old_len: usize,
    new_len: usize,
    new_addr: usize,
) -> usize {
    let mut vma = vma;
    // LEFT OUT: `mm = vma->vm_mm`; `vm_flags = vma->vm_flags` (read for KSM, VM_ACCOUNT and
    // VM_LOCKED below); the other locals: declared where they are set.
    // LEFT OUT: the `mm->map_count >= sysctl_max_map_count - 3` test and `ksm_madvise(...,
    // MADV_UNMERGEABLE, ...)`: no map count, no KSM pages in the models.

    let new_pgoff = READ_ONCE(&mm.vmas[vma].vm_pgoff)
        + ((old_addr - READ_ONCE(&mm.vmas[vma].vm_start)) >> PAGE_SHIFT);
    // MODEL: `bool need_rmap_locks` (38a76013 on; set by every path of its copy_vma that
    // returns a vma); before 38a76013 there is no such local: the default
    // copy_vma_need_rmap_locks leaves it, the default move_ptes_need_rmap_locks ignores it.
    // false to start, so that an override that forgets to set it shows as a missing lock.
    let mut need_rmap_locks = false;
    let Some(new_vma) = V::copy_vma_need_rmap_locks(
        mm,
        &mut vma,
        new,
        new_addr,
        new_len,
        new_pgoff,
        &mut need_rmap_locks,
    ) else {
        // LEFT OUT: `if (!new_vma)` is the `let ... else` above.
        // MODEL: `return -ENOMEM`: never (copy_vma does not fail here).
        return 0;
    };

    let moved_len = move_page_tables::<V>(
        mm,
        vma,
        old_addr,
        new_vma,
        new_addr,
        old_len,
        need_rmap_locks,
    );
    if moved_len < old_len {
        // LEFT OUT: "On error, move entries back from new area to old": the move back (from
        // 38a76013 with need_rmap_locks true) and the swap of the old and new ranges (and, from
        // 948f017b, the `anon_vma_moveto_tail(vma)` with its comment before them): the models'
        // page table always has the new pmd, so move_page_tables moves all of old_len.
        // MODEL: checked: a model where it did not stops with a harness error.
        crate::trace::harness_fail("move_vma", format!("moved {moved_len:#x} of {old_len:#x}"));
    }
    // LEFT OUT: the VM_ACCOUNT concealment, the `hiwater_vm`/`total_vm` and `vm_stat_account`
    // accounting, `do_munmap(mm, old_addr, old_len)` of the old range, and the VM_ACCOUNT and
    // VM_LOCKED restores: no accounting in the models; the unmap of the old range runs after
    // every pte left it (it zaps none, and unlinks the old vma from its anon_vmas under their
    // lock): a walk that reaches the old vma before or after it finds no pte there either
    // way (proofs/vma.19.md).
    new_addr
}
