//! mm/mmap.c `vma_adjust()` after 252c5f94 "mmap: avoid unnecessary anon_vma lock acquisition
//! in vma_adjust()" (Lee Schermerhorn, 2.6.32-rc1, with Hugh Dickins's `start !=
//! vma->vm_start`): the anon_vma lock is skipped when only `vm_end` changes, as brk growth does.
//! Inserting a vma (split) and moving `vm_start` (so that rmap can rely on `vma_address()`
//! under the lock) still take it; so do the overlap cases, which set `anon_vma` from `next`.

use crate::ktrace;
use crate::mm::vma::*;
use crate::mm::vma_2_6_31::*;
use crate::sync::{READ_ONCE, WRITE_ONCE};
use crate::variant::{Area, Kind, VariantMeta};

/// 252c5f94.
pub struct Variant;

impl VmaAdjust for Variant {
    const META: VariantMeta = VariantMeta {
        id: "252c5f94",
        area: Area::Vma,
        kind: Kind::Commit {
            subject: "mmap: avoid unnecessary anon_vma lock acquisition in vma_adjust()",
        },
        parent: Some("linux-2.6.31"),
        source: "252c5f94 (seed 003): Hugh Dickins's re-posting of 13 Sep 2009 (lore), whose hunk is against 2.6.31; vma_adjust verbatim from torvalds/linux mm/mmap.c stored at 252c5f94d944487e9f50ece7942b0fbf659c5c31 (kernel/252c5f94/mm/mmap.c), byte-identical to the hunk applied to 2.6.31 read before.",
    };
    type Rmap = AnonVmaList;

    /// `vma_adjust(vma, start, end, pgoff, insert)` (mm/mmap.c, 252c5f94), anonymous vmas: the
    /// file (`mapping`, prio tree) paths are left out. `void` in 2.6.31: returns 0.
    fn vma_adjust(
        mm: &Mm,
        vma: VmaId,
        start: usize,
        end: usize,
        pgoff: usize,
        insert: Option<VmaId>,
    ) -> i32 {
        // LEFT OUT: `mm = vma->vm_mm`: the machine `mm` is passed in; a vma's mm is its
        // `vm_mm` index, read where the page table is (`pte_slot`).
        let v = &mm.vmas[vma];
        let mut next = v.vm_next.get();
        let mut end = end;
        let mut importer: Option<VmaId> = None;
        // LEFT OUT: `mapping`, `root`, `file`: the models' vmas are anonymous (`vm_file` is
        // false), so every file path below (i_mmap_lock, prio tree) is dead code for them.
        let mut anon_vma: Option<AnonVmaId> = None;
        let mut adjust_next: isize = 0;
        let mut remove_next = 0;
        // MODEL: `goto again` (into the first branch below) is the loop's `continue` with
        // `again` set; the loop re-tests `next && !insert`, which holds there (mprotect case 6
        // removes a second next that exists, and has no insert).
        let mut again = false;

        loop {
            if let (Some(nx), None) = (next, insert) {
                let nv = &mm.vmas[nx];
                // MODEL: next's bounds read once (only this mmap_sem holder writes them).
                let (n_start, n_end) = (READ_ONCE(&nv.vm_start), READ_ONCE(&nv.vm_end));
                // LEFT OUT: `if (end >= next->vm_end)` is the test below: its `again ||` is the
                // `again:` label inside that branch.
                if again || end >= n_end {
                    // vma expands, overlapping all the next, and perhaps the one after too
                    // (mprotect case 6).
                    // again:
                    remove_next = 1 + usize::from(end > n_end);
                    end = n_end;
                    anon_vma = nv.anon_vma.get();
                    importer = Some(vma);
                } else if end > n_start {
                    // vma expands, overlapping part of the next: mprotect case 5 shifting the
                    // boundary up.
                    adjust_next = ((end - n_start) >> PAGE_SHIFT) as isize;
                    anon_vma = nv.anon_vma.get();
                    importer = Some(vma);
                } else if end < READ_ONCE(&v.vm_end) {
                    // vma shrinks, and !insert tells it's not split_vma inserting another: so
                    // it must be mprotect case 4 shifting the boundary down.
                    adjust_next = -(((READ_ONCE(&v.vm_end) - end) >> PAGE_SHIFT) as isize);
                    anon_vma = nv.anon_vma.get();
                    importer = Some(nx);
                }
            }

            // LEFT OUT: `if (file) { ... spin_lock(&mapping->i_mmap_lock); ... }`: anonymous
            // vmas only (no mapping, truncate_count or prio tree).
            // When changing only vma->vm_end, we don't really need anon_vma lock.
            if v.anon_vma.get().is_some()
                && (insert.is_some() || importer.is_some() || start != READ_ONCE(&v.vm_start))
            {
                anon_vma = v.anon_vma.get();
            }
            // MODEL: `if (anon_vma) spin_lock(&anon_vma->lock)` as a guard (counted for the
            // lock statistics), released by `drop(lock)` below.
            let lock = anon_vma.map(|av| anon_vma_lock_for_adjust(mm, av));
            ktrace!(
                "vma_adjust",
                "vma#{vma}: [{start:#x}, {end:#x}) pgoff {pgoff:#x}: anon_vma lock {}",
                match anon_vma {
                    Some(av) => format!("of anon_vma#{av} taken"),
                    None => "skipped".to_string(),
                }
            );
            if let Some(av) = anon_vma {
                // LEFT OUT: `spin_lock(&anon_vma->lock)`: the guard `lock` just above.
                // Easily overlooked: when mprotect shifts the boundary, make sure the expanding
                // vma has anon_vma set if the shrinking vma had, to cover any anon pages
                // imported.
                // LEFT OUT: `if (importer && !importer->anon_vma) importer->anon_vma =
                // anon_vma;` is the next three lines, with the model's names `imp` and `av`.
                // MODEL: the importer test and assignment above, as `if let` on the Options.
                if let Some(imp) = importer {
                    if mm.vmas[imp].anon_vma.get().is_none() {
                        mm.vmas[imp].anon_vma.set(Some(av));
                        __anon_vma_link(mm, imp);
                    }
                }
            }

            // LEFT OUT: `if (root) { flush_dcache_mmap_lock; vma_prio_tree_remove ... }`: file
            // vmas only.
            // MODEL: the C's plain stores of vm_start, vm_end, vm_pgoff (and next's below) in
            // program order: a compiler reordering of them is not explored (x86 keeps the
            // order of stores it is given).
            WRITE_ONCE(&v.vm_start, start);
            WRITE_ONCE(&v.vm_end, end);
            WRITE_ONCE(&v.vm_pgoff, pgoff);
            if adjust_next != 0 {
                // MODEL: `next` as the vma it names.
                let nv = &mm.vmas[next.expect("adjust_next needs next")];
                let ns = READ_ONCE(&nv.vm_start) as isize + (adjust_next << PAGE_SHIFT);
                // MODEL: each `+=` is a read and a store of the word (rmap walks read it
                // racily), signed arithmetic for the negative `adjust_next`.
                WRITE_ONCE(&nv.vm_start, ns as usize);
                // LEFT OUT: `next->vm_pgoff += adjust_next;` is the two lines below; `if (root)
                // { vma_prio_tree_insert ...; flush_dcache_mmap_unlock }`: file vmas only.
                let np = READ_ONCE(&nv.vm_pgoff) as isize + adjust_next;
                WRITE_ONCE(&nv.vm_pgoff, np as usize);
            }

            if remove_next != 0 {
                // vma_merge has merged next into vma, and needs us to remove next before
                // dropping the locks.
                // MODEL: `next` as the vma it names.
                let nx = next.expect("remove_next needs next");
                __vma_unlink(mm, nx, vma);
                // LEFT OUT: `if (file) __remove_shared_vm_struct(...)`: file vmas only.
                // `if (next->anon_vma)` is the test below (`nx` is next).
                // MODEL: `if (next->anon_vma)`, with the model's name `nx`.
                if mm.vmas[nx].anon_vma.get().is_some() {
                    __anon_vma_merge(mm, vma, nx);
                }
            } else if let Some(insert) = insert {
                // split_vma has split insert from vma, and needs us to insert it before
                // dropping the locks (it may either follow vma or precede it).
                __insert_vm_struct(mm, insert);
            }

            // MODEL: `if (anon_vma) spin_unlock(&anon_vma->lock)`: the guard's drop.
            // LEFT OUT: the two unlocks are this drop; `if (mapping) spin_unlock(i_mmap_lock)`:
            // file vmas only.
            drop(lock);

            if remove_next != 0 {
                // LEFT OUT: `if (file) { fput(file); ... removed_exe_file_vma }`: file vmas;
                // `mm->map_count--`, `mpol_put(vma_policy(next))`: no map count or mempolicy in
                // the models; `kmem_cache_free(vm_area_cachep, next)` is the next line.
                // MODEL: the free marks the slot freed, so that a walk reaching it fails.
                kmem_cache_free_vma(mm, next.expect("remove_next needs next"));
                // In mprotect's case 6 (see comments on vma_merge), we must remove another next
                // too. It would clutter up the code too much to do both in one go.
                if remove_next == 2 {
                    next = v.vm_next.get();
                    again = true;
                    // MODEL: `goto again` (with `again` set above); `break` ends the function,
                    // `void` in 2.6.31: 0.
                    continue;
                }
            }
            break;
        }
        // LEFT OUT: `validate_mm(mm)`: a debug check of the rb-tree (DEBUG_MM_RB), which the
        // models do not have.
        0
    }
}
