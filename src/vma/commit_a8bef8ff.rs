//! Linux 2.6.34 with a8bef8ff "mm: migration: avoid race between shift_arg_pages() and
//! rmap_walk() during migration by not migrating temporary stacks" (Mel Gorman, May 2010; its
//! release, 2.6.35-rc1, inferred from its author date, 24 May 2010; no source names it):
//! "Page migration requires rmap to be able to find all ptes mapping a page at all times,
//! otherwise the migration entry can be instantiated, but it is possible to leave one behind if
//! the second rmap_walk fails to find the page." exec's temporary stack carries
//! `VM_STACK_INCOMPLETE_SETUP` from `__bprm_mm_init()` until `setup_arg_pages()` has moved it,
//! and `try_to_unmap_anon()` installs no migration entry in such a vma, so no entry is there to
//! be missed while `shift_arg_pages()` moves it. The fix of H-11 (vma.16). `vma_adjust()` is
//! 2.6.34's, still without an anon_vma lock (H-9 is fixed by 012f1800, 2.6.36 UNVERIFIED).

use crate::ktrace;
use crate::mm::vma::*;
use crate::mm::vma_2_6_34::*;
use crate::sync::{SpinGuard, READ_ONCE, WRITE_ONCE};
use crate::variant::{Area, Kind, VariantMeta};

/// a8bef8ff.
pub struct Variant;

impl VmaAdjust for Variant {
    const META: VariantMeta = VariantMeta {
        id: "a8bef8ff",
        area: Area::Vma,
        kind: Kind::Commit {
            subject: "mm: migration: avoid race between shift_arg_pages() and rmap_walk() during migration by not migrating temporary stacks",
        },
        parent: Some("linux-2.6.34"),
        source: "Mel Gorman's patch as posted on linux-mm, 10 May 2010, <20100510132431.GE26611@csn.ul.ie> (mm/rmap.c, include/linux/mm.h, fs/exec.c hunks; kernel/a8bef8ff/: fs/exec.c and include/linux/mm.h verbatim from torvalds/linux stored at a8bef8ff6ea15fa4c67433cab0f5f3484574ef7c, mm/rmap.c not stored there); its release, 2.6.35-rc1, inferred (author date 24 May 2010, between v2.6.34 on 16 May and v2.6.35-rc1 on 30 May; no source names the release); vma_adjust() is 2.6.34's (a8bef8ff does not touch mm/mmap.c).",
    };
    type Rmap = TempStackRmap;

    /// `vma_adjust(vma, start, end, pgoff, insert)` (mm/mmap.c, 2.6.34: a8bef8ff leaves it), anonymous vmas: the
    /// file (`mapping`, prio tree) paths are left out.
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
                let mut exporter: Option<VmaId> = None;
                // LEFT OUT: `if (end >= next->vm_end)` is the test below: its `again ||` is the
                // `again:` label inside that branch.

                if again || end >= n_end {
                    // vma expands, overlapping all the next, and perhaps the one after too
                    // (mprotect case 6).
                    // again:
                    remove_next = 1 + usize::from(end > n_end);
                    end = n_end;
                    exporter = Some(nx);
                    importer = Some(vma);
                } else if end > n_start {
                    // vma expands, overlapping part of the next: mprotect case 5 shifting the
                    // boundary up.
                    adjust_next = ((end - n_start) >> PAGE_SHIFT) as isize;
                    exporter = Some(nx);
                    importer = Some(vma);
                } else if end < READ_ONCE(&v.vm_end) {
                    // vma shrinks, and !insert tells it's not split_vma inserting another: so
                    // it must be mprotect case 4 shifting the boundary down.
                    adjust_next = -(((READ_ONCE(&v.vm_end) - end) >> PAGE_SHIFT) as isize);
                    exporter = Some(vma);
                    importer = Some(nx);
                }

                // Easily overlooked: when mprotect shifts the boundary, make sure the expanding
                // vma has anon_vma set if the shrinking vma had, to cover any anon pages
                // imported.
                // LEFT OUT: `if (exporter && exporter->anon_vma && !importer->anon_vma)` and
                // `if (anon_vma_clone(importer, exporter))` are the next three lines, with the
                // model's names `exp` and `imp`.
                // MODEL: those tests and the call, as `if let` on the Options.
                if let (Some(exp), Some(imp)) = (exporter, importer) {
                    if mm.vmas[exp].anon_vma.get().is_some()
                        && mm.vmas[imp].anon_vma.get().is_none()
                    {
                        if anon_vma_clone::<ChainRmap>(mm, imp, exp) != 0 {
                            return -ENOMEM;
                        }
                        // LEFT OUT: `importer->anon_vma = exporter->anon_vma` is the next line.
                        // MODEL: that assignment, with the model's names.
                        mm.vmas[imp].anon_vma.set(mm.vmas[exp].anon_vma.get());
                    }
                }
            }

            // LEFT OUT: `if (file) { ... spin_lock(&mapping->i_mmap_lock); ... }`: anonymous
            // vmas only (no mapping, truncate_count or prio tree).

            ktrace!(
                "vma_adjust",
                "vma#{vma}: [{start:#x}, {end:#x}) pgoff {pgoff:#x}: no anon_vma lock"
            );

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
                __vma_unlink(mm, next.expect("remove_next needs next"), vma);
                // LEFT OUT: `if (file) __remove_shared_vm_struct(next, file, mapping)`: file
                // vmas only.
            } else if let Some(insert) = insert {
                // split_vma has split insert from vma, and needs us to insert it before
                // dropping the locks (it may either follow vma or precede it).
                __insert_vm_struct(mm, insert);
            }
            // LEFT OUT: `if (mapping) spin_unlock(&mapping->i_mmap_lock)`: file vmas only (and
            // 2.6.34 takes no anon_vma lock here).

            if remove_next != 0 {
                // LEFT OUT: `if (file) { fput(file); ... removed_exe_file_vma }`: file vmas.
                // `if (next->anon_vma)` is the test below (`nx` is next).
                // MODEL: `next` as the vma it names; `if (next->anon_vma)` with that name.
                let nx = next.expect("remove_next needs next");
                if mm.vmas[nx].anon_vma.get().is_some() {
                    anon_vma_merge::<ChainRmap>(mm, vma, nx);
                }
                // LEFT OUT: `mm->map_count--`, `mpol_put(vma_policy(next))`: no map count or
                // mempolicy in the models; `kmem_cache_free(vm_area_cachep, next)` is the next
                // line.
                // MODEL: the free marks the slot freed, so that a walk reaching it fails.
                kmem_cache_free_vma(mm, nx);
                // In mprotect's case 6 (see comments on vma_merge), we must remove another next
                // too. It would clutter up the code too much to do both in one go.
                if remove_next == 2 {
                    next = v.vm_next.get();
                    again = true;
                    // MODEL: `goto again` (with `again` set above); `break` ends the loop.
                    // LEFT OUT: `validate_mm(mm)`: a debug check of the rb-tree (DEBUG_MM_RB),
                    // which the models do not have.
                    continue;
                }
            }
            break;
        }
        0
    }
}

/// The anon_vma_chain rmap of 2.6.34 with a8bef8ff's exec side: the temporary stack is marked
/// from `__bprm_mm_init()` until `setup_arg_pages()` moved it, and migration's
/// `try_to_unmap_anon()` skips a marked vma (the shared code: `is_vma_temporary_stack()` in
/// src/mm/vma_2_6_34.rs, the exec side in src/mm/exec.rs). The rest is 2.6.34's, its locks
/// `ChainRmap`'s.
pub struct TempStackRmap;

impl ChainLock for TempStackRmap {
    const ERA: &'static str = "2.6.34";
    const ROOT: bool = false;
    const TEMP_STACK: bool = true;

    fn anon_vma_lock(mm: &Mm, anon_vma: AnonVmaId) -> SpinGuard<'_, ()> {
        ChainRmap::anon_vma_lock(mm, anon_vma)
    }

    fn anon_vma_unlock<'a>(mm: &'a Mm, anon_vma: AnonVmaId, lock: SpinGuard<'a, ()>) {
        ChainRmap::anon_vma_unlock(mm, anon_vma, lock)
    }
}

chain_rmap!(TempStackRmap);
