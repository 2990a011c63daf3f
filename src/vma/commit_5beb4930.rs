//! mm/mmap.c `vma_adjust()` after 5beb4930 "mm: change anon_vma linking to fix multi-process
//! server scalability issue" (Rik van Riel, 2.6.34; rc1 UNVERIFIED): the anon_vma_chain era begins. The
//! anon_vma lock is gone from `vma_adjust` (each anon_vma is locked where its list changes); the
//! overlap branches still preset `anon_vma = next->anon_vma`, and an importer without an
//! anon_vma is linked with `anon_vma_clone(importer, vma)`: cloned from `vma`, which is the
//! importer itself in mprotect cases 1, 5 and 6, where the pages come from `next`. The
//! importer then names next's anon_vma with no chain entry for it: the pages it imports are
//! on a list that does not reach it, and a merge that removes `next` unlinks next's entry, the
//! last one, and frees the anon_vma its pages still name (H-14). Linus's 287d97ac
//! "vma_adjust: fix the copying of anon_vma chains" (2.6.34-rc) clones from the exporter.

use crate::ktrace;
use crate::mm::vma::*;
use crate::mm::vma_2_6_34::*;
use crate::sync::{READ_ONCE, WRITE_ONCE};
use crate::variant::{Area, Kind, VariantMeta};

/// 5beb4930.
pub struct Variant;

impl VmaAdjust for Variant {
    const META: VariantMeta = VariantMeta {
        id: "5beb4930",
        area: Area::Vma,
        kind: Kind::Commit {
            subject: "mm: change anon_vma linking to fix multi-process server scalability issue",
        },
        parent: Some("252c5f94"),
        source: "vma_adjust() hunks of Rik van Riel's patch as queued in -mm and quoted in Andrew Morton's review (linux-mm, index id 35873119482), with akpm's folded -fix (the one-line comment); the lines outside the hunks are 2.6.34's (kernel/5beb4930/). VM_LOCK_RMAP, which fc148a5f removed in the same cycle (its rc UNVERIFIED), is left out (proofs/vma.seq.md, H-14).",
    };
    type Rmap = ChainRmap;

    /// `vma_adjust(vma, start, end, pgoff, insert)` (mm/mmap.c, 5beb4930), anonymous vmas: the
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
        // MODEL: `v` names vma's fields; `end` is the parameter, which case 6 reassigns (the C
        // assigns its parameter).
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

            // When changing only vma->vm_end, we don't really need anon_vma lock.
            if v.anon_vma.get().is_some()
                && (insert.is_some() || importer.is_some() || start != READ_ONCE(&v.vm_start))
            {
                anon_vma = v.anon_vma.get();
            }
            if let Some(av) = anon_vma {
                // Easily overlooked: when mprotect shifts the boundary, make sure the expanding
                // vma has anon_vma set if the shrinking vma had, to cover any anon pages
                // imported.
                // LEFT OUT: `if (importer && !importer->anon_vma)` is the two tests below, with
                // the model's name `imp`.
                // MODEL: the importer test, as `if let` on the Option.
                if let Some(imp) = importer {
                    if mm.vmas[imp].anon_vma.get().is_none() {
                        // Block reverse map lookups until things are set up.
                        // LEFT OUT: `importer->vm_flags |= VM_LOCK_RMAP` (and its clearing on
                        // the error path and after the i_mmap unlock): the flag makes
                        // vma_address() skip the importer while vma_adjust runs; this variant's
                        // claims run the sequential model, where no walk runs inside a
                        // vma_adjust (proofs/vma.seq.md, H-14).
                        // `if (anon_vma_clone(importer, vma))`: from `vma`, which is the
                        // importer itself in cases 1, 5 and 6.
                        ktrace!(
                            "vma_adjust",
                            "importer vma#{imp} has no anon_vma: anon_vma_clone(vma#{imp}, vma#{vma}), then importer->anon_vma = anon_vma#{av}"
                        );
                        if anon_vma_clone::<ChainRmap>(mm, imp, vma) != 0 {
                            // LEFT OUT: `importer->vm_flags &= ~VM_LOCK_RMAP`: the flag, above.
                            return -ENOMEM;
                        }
                        // MODEL: `importer->anon_vma = anon_vma`, with the model's names (`imp`,
                        // `av`: the anon_vma the `if` above unwrapped).
                        mm.vmas[imp].anon_vma.set(Some(av));
                    }
                }
            }

            // LEFT OUT: `if (file) { ... spin_lock(&mapping->i_mmap_lock); ... }` and the first
            // `if (root) { flush_dcache_mmap_lock(mapping); vma_prio_tree_remove(...) }`:
            // anonymous vmas only (no mapping, truncate_count or prio tree).

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
                // vmas only; `next->vm_flags |= VM_LOCK_RMAP` ("This VMA is now dead, no need
                // for rmap to follow it"): see the importer's flag above.
            } else if let Some(insert) = insert {
                // split_vma has split insert from vma, and needs us to insert it before
                // dropping the locks (it may either follow vma or precede it).
                __insert_vm_struct(mm, insert);
            }
            // LEFT OUT: `if (mapping) spin_unlock(&mapping->i_mmap_lock)`: file vmas only (and
            // 5beb4930 takes no anon_vma lock here); `if (anon_vma && importer)
            // importer->vm_flags &= ~VM_LOCK_RMAP` ("The current VMA has been set up"): see the
            // importer's flag above.

            if remove_next != 0 {
                // LEFT OUT: `if (file) { fput(file); ... removed_exe_file_vma }`: file vmas.
                // Protected by mmap_sem and VM_LOCK_RMAP.
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
                    // MODEL: `goto again` (with `again` set above).
                    continue;
                }
            }
            // LEFT OUT: `validate_mm(mm)`: a debug check of the rb-tree (DEBUG_MM_RB), which the
            // models do not have.
            // MODEL: `break` ends the loop that stands for `goto again`.
            break;
        }
        0
    }

    /// The anon_vma reuse of 5beb4930: 2.6.31's `find_mergeable_anon_vma()` (src/mm/vma.rs),
    /// which the anon_vma_chain rework kept. It hands a new vma the anon_vma of an adjacent vma
    /// it could merge with, whatever that vma's anon_vma_chain holds: a forked child's vma has
    /// its own anon_vma and the parent's on its chain, and the new vma gets a one-entry chain
    /// on the child's anon_vma. When the two merge, `anon_vma_merge()` keeps the survivor's
    /// chain, and if the survivor is the new vma the parent's pages are mapped where the
    /// parent's anon_vma no longer reaches (H-15, proofs/vma.reuse.md). d0e9fe17 replaced it.
    fn find_mergeable_anon_vma(mm: &Mm, vma: VmaId) -> Option<AnonVmaId> {
        crate::mm::vma::find_mergeable_anon_vma(mm, vma)
    }

    /// The first mapping's `page->mapping` before ea90002b: 2.6.33's `__page_set_anon_rmap()`
    /// (src/mm/vma.rs: 2.6.31's text without its statistics line), the vma's own anon_vma,
    /// which the anon_vma_chain rework kept. A page a forked child faults back from the swap
    /// cache before its parent does names the child's anon_vma, which the parent's mapping
    /// is not on, and which the child's exit frees (H-16, proofs/vma.swapin.md). ea90002b
    /// replaced it.
    fn __page_set_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize) {
        crate::mm::vma::__page_set_anon_rmap(mm, page, vma, address)
    }
}
