//! 108d6642's kernel with 38a76013 "mm: avoid taking rmap locks in move_ptes()" (Michel
//! Lespinasse, [PATCH 7/7] of "use interval trees for anon rmap", posted 4 Sep 2012; mainline
//! 38a76013ad80, the commit of the stored mm/mremap.c; in 3.7: UNVERIFIED): "When the
//! destination VMA is placed after the original in rmap traversal order, we can avoid taking
//! the rmap locks in move_ptes()." `copy_vma()` says whether the move needs them: false for a
//! new vma (linked after the source), `new_vma->vm_pgoff <= vma->vm_pgoff` after a merge;
//! `move_ptes()` takes the source vma's anon_vma lock (the root's) only when told to; exec's
//! `shift_arg_pages()` passes false (the walks that care skip the temporary stack) and the move
//! back on error true. `copy_vma()` also sets the new vma's bounds before `anon_vma_clone()`:
//! Michel Lespinasse's "mm anon rmap: in mremap, set the new vma's position before
//! anon_vma_clone()" (14 Sep 2012; before 7/7 in mmotm; mainline id UNVERIFIED), folded in here.
//! The kernel's walk order is the anon interval tree's (by `vm_pgoff`, ties in insertion order);
//! the models' list gives the same order in both mremap models (proofs/vma.20.md).
//! `vma_adjust()` and the rest of the file are 108d6642's, not the tree's at 38a76013 (which has
//! bf181b9f's interval tree, whose anon_vma lock is taken whenever there is one):
//! proofs/vma.20.md.

use crate::ktrace;
use crate::mm::vma::*;
use crate::mm::vma_2_6_34::*;
use crate::sync::{
    atomic_inc_return, spin_lock, spin_unlock, SpinGuard, READ_ONCE, READ_ONCE_DEP, WRITE_ONCE,
};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{BUG_ON, VM_BUG_ON};

/// 38a76013.
pub struct Variant;

impl VmaAdjust for Variant {
    const META: VariantMeta = VariantMeta {
        id: "38a76013",
        area: Area::Vma,
        kind: Kind::Commit {
            subject: "mm: avoid taking rmap locks in move_ptes()",
        },
        parent: Some("108d6642"),
        source: "Michel Lespinasse, '[PATCH 7/7] mm: avoid taking rmap locks in move_ptes()', linux-mm, 4 Sep 2012, <1346750457-12385-8-git-send-email-walken@google.com>; mainline 38a76013ad809beb0b52f60d365c960d035bd83c (commit pages of kernel mirrors, and the commit of the stored file; release 3.7 inferred, UNVERIFIED); move_ptes, move_page_tables and move_vma verbatim from torvalds/linux mm/mremap.c at 38a76013ad80 (stored; kernel/38a76013/mm/mremap.c); copy_vma assembled: 108d6642's stored text with Michel Lespinasse's 'mm anon rmap: in mremap, set the new vma's position before anon_vma_clone()' (linux-mm, 14 Sep 2012, <20120915000029.GA29426@google.com>) and 7/7's mm/mmap.c hunks, equal to AndreiLux/ref-3.10's but for Android's vma_get_anon_name (kernel/38a76013/mm/mmap.c); shift_arg_pages' false from 7/7's fs/exec.c hunk (kernel/38a76013/fs/exec.c); vma_adjust and the rest of the file are 108d6642's.",
    };
    type Rmap = HangFixRmap;

    /// `copy_vma(&vma, addr, len, pgoff, &need_rmap_locks)` (mm/mmap.c, 38a76013): 108d6642's
    /// with the new vma's position set before `anon_vma_clone()` (14 Sep 2012, before 38a76013
    /// in mmotm's order; mainline UNVERIFIED) and `*need_rmap_locks`: false for a new vma (linked after the source),
    /// `new_vma->vm_pgoff <= vma->vm_pgoff` after a merge.
    fn copy_vma_need_rmap_locks(
        mm: &Mm,
        vmap: &mut VmaId,
        new: VmaId,
        addr: usize,
        len: usize,
        mut pgoff: usize,
        need_rmap_locks: &mut bool,
    ) -> Option<VmaId> {
        // LEFT OUT: `struct vm_area_struct *vma = *vmap` is the `let mut vma` line (which the
        // tool reads as a name).
        let mut vma = *vmap;
        let vma_start = READ_ONCE(&mm.vmas[vma].vm_start);
        // LEFT OUT: `mm = vma->vm_mm` (the machine's `mm` is passed in); `new_vma`, `prev`,
        // `rb_link`, `rb_parent`, `pol`: declared where they are set.
        let mut faulted_in_anon_vma = true;

        // If anonymous vma has not yet been faulted, update new pgoff
        // to match new location, to increase its chance of merging.
        let anon_vma = mm.vmas[vma].anon_vma.get();
        // MODEL: `vma->anon_vma` read into a local (an Option: NULL is None).
        // LEFT OUT: `if (unlikely(!vma->vm_file && !vma->anon_vma))` is the `if` below
        // (`unlikely()` is a branch hint).
        if !mm.vmas[vma].vm_file && anon_vma.is_none() {
            pgoff = addr >> PAGE_SHIFT;
            faulted_in_anon_vma = false;
        }

        // LEFT OUT: `if (find_vma_links(mm, addr, addr + len, &prev, &rb_link, &rb_parent))
        // return NULL; /* should never get here */` is the mm list walk for `prev` below (no
        // rb-tree; the models never move onto a mapped range, so the overlap it refuses does
        // not occur).
        // MODEL: the walk for `prev`.
        let prev = find_vma_prev(mm, mm.vmas[vma].vm_mm.get(), addr);
        let mut new_vma = vma_merge::<Self>(
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
            // LEFT OUT: `if (unlikely(vma_start >= new_vma->vm_start && vma_start <
            // new_vma->vm_end))` is the `if` below (`unlikely()` is a branch hint).
            if vma_start >= READ_ONCE(&mm.vmas[merged].vm_start)
                && vma_start < READ_ONCE(&mm.vmas[merged].vm_end)
            {
                // The only way we can get a vma_merge with
                // self during an mremap is if the vma hasn't
                // been faulted in yet and we were allowed to
                // reset the dst vma->vm_pgoff to the
                // destination address of the mremap to allow
                // the merge to happen. mremap must change the
                // vm_pgoff linearity between src and dst vmas
                // (in turn preventing a vma_merge) to be
                // safe. It is only safe to keep the vm_pgoff
                // linear if there are no pages mapped yet.
                crate::VM_BUG_ON!("copy_vma", faulted_in_anon_vma);
                // MODEL: `*vmap = vma = new_vma` as its two assignments.
                vma = merged;
                *vmap = vma;
            }
            *need_rmap_locks =
                READ_ONCE(&mm.vmas[merged].vm_pgoff) <= READ_ONCE(&mm.vmas[vma].vm_pgoff);
            ktrace!(
                "copy_vma",
                "vma#{vma} merged into vma#{merged}: need_rmap_locks = {}",
                *need_rmap_locks
            );
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
            // LEFT OUT: `new_vma->vm_start = addr`, `->vm_end` and `->vm_pgoff` are the three
            // stores below (the slot is `new`), now before `anon_vma_clone()`.
            WRITE_ONCE(&mm.vmas[new].vm_start, addr);
            WRITE_ONCE(&mm.vmas[new].vm_end, addr + len);
            WRITE_ONCE(&mm.vmas[new].vm_pgoff, pgoff);
            // MODEL: the trace.
            ktrace!(
                "copy_vma",
                "vma#{vma}: new vma#{new} [{addr:#x}, {:#x}) pgoff {pgoff:#x}",
                addr + len
            );
            // LEFT OUT: `pol = mpol_dup(vma_policy(vma))`, its `IS_ERR` test and `goto
            // out_free_vma`, and `vma_set_policy(new_vma, pol)`: the models' vmas have no
            // mempolicy. `INIT_LIST_HEAD(&new_vma->anon_vma_chain)`: the slot's chain head is
            // empty (the machine starts every head empty, and a slot is used once).
            if <Self as VmaAdjust>::Rmap::anon_vma_clone(mm, new, vma) != 0 {
                // MODEL: `goto out_free_mempol` (never taken: the pool never runs dry).
                return None;
            }
            // LEFT OUT: the `vm_file` branch (`get_file`) and `vm_ops->open`: anonymous vmas. `vma_link(mm, new_vma, prev, rb_link, rb_parent)`
            // is, for an anonymous vma, `__vma_link` -> `__vma_link_list` below (no file, no
            // rb-tree, no map_count).
            // MODEL: that `__vma_link_list` (2.6.34's; 3.1's, in mm/util.c, also sets `vm_prev`
            // and `next->vm_prev`: the models have no `vm_prev`).
            __vma_link_list(mm, new, prev);
            *need_rmap_locks = false;
        }
        new_vma
        // LEFT OUT: `out_free_mempol:` and `out_free_vma:` (`mpol_put`, `kmem_cache_free`,
        // `return NULL`): never reached (see above).
    }

    /// `move_ptes(vma, old_pmd, old_addr, old_end, new_vma, new_pmd, new_addr,
    /// need_rmap_locks)` (mm/mremap.c, 38a76013): 108d6642's, the source vma's anon_vma lock
    /// (the root's) taken only when `need_rmap_locks`.
    fn move_ptes_need_rmap_locks(
        mm: &Mm,
        vma: VmaId,
        mut old_addr: usize,
        old_end: usize,
        new_vma: VmaId,
        mut new_addr: usize,
        need_rmap_locks: bool,
    ) {
        // LEFT OUT: `mapping`, `mm = vma->vm_mm`: anonymous vmas, the machine is passed in;
        // `anon_vma = NULL` is the guard below (None: nothing locked); `old_pte`, `new_pte`,
        // `pte`, `old_ptl`, `new_ptl`: declared where they are set.
        // MODEL: the guard that `anon_vma_lock()` gives, None until it is taken.
        let mut anon_lock: Option<SpinGuard<'_, ()>> = None;

        // When need_rmap_locks is true, we take the i_mmap_mutex and anon_vma
        // locks to ensure that rmap will always observe either the old or the
        // new ptes. This is the easiest way to avoid races with
        // truncate_pagecache(), page migration, etc...
        //
        // When need_rmap_locks is false, we use other ways to avoid
        // such races:
        //
        // - During exec() shift_arg_pages(), we use a specially tagged vma
        //   which rmap call sites look for using is_vma_temporary_stack().
        //
        // - During mremap(), new_vma is often known to be placed after vma
        //   in rmap traversal order. This ensures rmap will always observe
        //   either the old pte, or the new pte, or both (the page table locks
        //   serialize access to individual ptes, but only rmap traversal
        //   order guarantees that we won't miss both the old and new ptes).
        if need_rmap_locks {
            // LEFT OUT: `if (vma->vm_file)`, `mapping = vma->vm_file->f_mapping` and
            // `mutex_lock(&mapping->i_mmap_mutex)`: anonymous vmas.
            // LEFT OUT: `if (vma->anon_vma)` and `anon_vma = vma->anon_vma` are the `if let`.
            if let Some(anon_vma) = mm.vmas[vma].anon_vma.get() {
                // MODEL: `anon_vma_lock(anon_vma)` (3.6: `mutex_lock(&anon_vma->root->mutex)`,
                // as we read it; no 3.6 rmap.h is stored) as the models' spinlock of the root
                // (the same exclusion as the mutex: proofs/vma.19.md), a guard held to the end
                // of the batch.
                anon_lock = Some(HangFixRmap::anon_vma_lock(mm, anon_vma));
            }
        }
        ktrace!(
            "move_ptes",
            "vma#{vma}: need_rmap_locks {need_rmap_locks}: anon_vma lock {}",
            if anon_lock.is_some() {
                "taken"
            } else {
                "skipped"
            }
        );

        // We don't have to worry about the ordering of src and dst
        // pte locks because exclusive mmap_sem prevents deadlock.
        // MODEL: `old_pte = pte_offset_map_lock(mm, old_pmd, old_addr, &old_ptl)`: the lock of
        // the one pte page (`Mm::ptl`), which is also `new_ptl`, so the nested lock is not
        // taken.
        let ptl = spin_lock(pte_lockptr(mm, vma));
        // LEFT OUT: `new_pte = pte_offset_map(new_pmd, new_addr)`, `new_ptl = pte_lockptr(mm,
        // new_pmd)` and `if (new_ptl != old_ptl) spin_lock_nested(...)`: one pte page, one
        // lock (above); `arch_enter_lazy_mmu_mode()`: no paravirt.

        while old_addr < old_end {
            // MODEL: the `for` over old and new ptes, a page at a time, as this `while`.
            let (Some(old_pte), Some(new_pte)) =
                (pte_slot(mm, vma, old_addr), pte_slot(mm, new_vma, new_addr))
            else {
                break;
            };
            if READ_ONCE(&mm.ptes[old_pte]) != PTE_NONE {
                // MODEL: `pte_none(*old_pte)`'s `continue` as this `if`.
                // MODEL: `pte = ptep_get_and_clear(mm, old_addr, old_pte)` as a read and a
                // clear; `move_pte()` is the identity on x86.
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

        // LEFT OUT: `arch_leave_lazy_mmu_mode()`, the nested unlock (not taken), `pte_unmap`.
        // MODEL: `pte_unmap_unlock(old_pte - 1, old_ptl)` as the guard's drop.
        drop(ptl);
        // LEFT OUT: `if (anon_vma)` and `anon_vma_unlock(anon_vma)` are the guard's drop below
        // (None when need_rmap_locks was false or the vma has no anon_vma; else the root the
        // guard locked: the source vma's chain keeps its anon_vma, and so that root, alive
        // until the unlock).
        // MODEL: the guard's drop.
        drop(anon_lock);
        // LEFT OUT: `if (mapping) mutex_unlock(&mapping->i_mmap_mutex)`: anonymous vmas.
    }

    /// `vma_adjust(vma, start, end, pgoff, insert)` (mm/mmap.c, 108d6642's tree, read at that
    /// commit: kernel/108d6642/mm/mmap.c), anonymous vmas: the file (`mapping`, interval tree, uprobes)
    /// paths are left out. Not 108d6642's change: its anon_vma lock block is Michel Lespinasse's
    /// strict fix "mm: fix potential anon_vma locking issue in mprotect()" (the lespinasse-v2
    /// posting; its mainline id UNVERIFIED) on Shaohua Li's condition without `insert`, both in
    /// mainline before 108d6642. The rest of the function is 948f017b's (5f70b962's).
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
        // false), so every file path below (i_mmap_mutex, interval tree, uprobes) is dead code for them.
        let mut anon_vma: Option<AnonVmaId> = None;
        // LEFT OUT: the declarations this version's C has after `anon_vma` (`root`, `file`):
        // anonymous vmas, see above.
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
                        if anon_vma_clone::<RootChainRmap>(mm, imp, exp) != 0 {
                            return -ENOMEM;
                        }
                        // LEFT OUT: `importer->anon_vma = exporter->anon_vma` is the next line.
                        // MODEL: that assignment, with the model's names.
                        mm.vmas[imp].anon_vma.set(mm.vmas[exp].anon_vma.get());
                    }
                }
            }

            // LEFT OUT: `if (file) { ... uprobe_munmap ...; mutex_lock(&mapping->i_mmap_mutex);
            // ... __vma_link_file(insert) }`: anonymous vmas only (no mapping, interval tree or
            // uprobes).
            // LEFT OUT: `vma_adjust_trans_huge(vma, start, end, adjust_next)`: splits a
            // transparent huge pmd the new bounds cut; the models' pages are order-0.

            // When changing only vma->vm_end, we don't really need anon_vma lock. This is a
            // fairly rare case by itself, but the anon_vma lock may be shared between many
            // sibling processes.  Skipping the lock for brk adjustments makes a difference
            // sometimes.
            if v.anon_vma.get().is_some() && (importer.is_some() || start != READ_ONCE(&v.vm_start))
            {
                anon_vma = v.anon_vma.get();
                VM_BUG_ON!(
                    "vma_adjust",
                    adjust_next != 0
                        && next.is_some_and(|nx| mm.vmas[nx].anon_vma.get().is_some())
                        && anon_vma != next.and_then(|nx| mm.vmas[nx].anon_vma.get())
                );
            } else if adjust_next != 0 {
                // MODEL: the `&& next->anon_vma` of the C's `else if`, as a second test that
                // also names next `nx`.
                if let Some(nx) = next.filter(|&nx| mm.vmas[nx].anon_vma.get().is_some()) {
                    anon_vma = mm.vmas[nx].anon_vma.get();
                }
            }
            // MODEL: the anon_vma lock as a guard (counted for the lock statistics), released by
            // `drop(lock)` below.
            // LEFT OUT: `if (anon_vma) anon_vma_lock(anon_vma)` (=
            // `spin_lock(&anon_vma->root->lock)`) is this guard (the tool cannot pair the two);
            // `if (root) { flush_dcache_mmap_lock; vma_interval_tree_remove ... }`: file vmas only.
            let lock = anon_vma.map(|av| anon_vma_root_lock_for_adjust(mm, av));
            ktrace!(
                "vma_adjust",
                "vma#{vma}: [{start:#x}, {end:#x}) pgoff {pgoff:#x}: anon_vma lock {}",
                match anon_vma {
                    Some(av) => format!("of anon_vma#{av} taken"),
                    None => "skipped".to_string(),
                }
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
                // { vma_interval_tree_insert ...; flush_dcache_mmap_unlock }`: file vmas only.
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

            // LEFT OUT: `if (anon_vma) anon_vma_unlock(anon_vma)` is this drop of the guard; `if
            // (mapping) mutex_unlock(&mapping->i_mmap_mutex)` and `if (root) { uprobe_mmap ...
            // }`: file vmas only.
            // MODEL: the guard's drop.
            drop(lock); // if (anon_vma) anon_vma_unlock(anon_vma);

            if remove_next != 0 {
                // LEFT OUT: `if (file) { uprobe_munmap(...); fput(file); }`: file vmas.
                // `if (next->anon_vma)` is the test below (`nx` is next).
                // MODEL: `next` as the vma it names; `if (next->anon_vma)` with that name.
                let nx = next.expect("remove_next needs next");
                if mm.vmas[nx].anon_vma.get().is_some() {
                    anon_vma_merge::<RootChainRmap>(mm, vma, nx);
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
            // LEFT OUT: `if (insert && file) uprobe_mmap(insert)`: file vmas.
            break;
        }
        0
    }
}

/// The anon rmap of 012f1800 (the root anon_vma's lock) with f18194275c39's
/// `page_lock_anon_vma()`.
pub struct HangFixRmap;

impl ChainLock for HangFixRmap {
    const ERA: &'static str = "2.6.36";
    const ROOT: bool = true;

    fn anon_vma_lock(mm: &Mm, anon_vma: AnonVmaId) -> SpinGuard<'_, ()> {
        RootChainRmap::anon_vma_lock(mm, anon_vma)
    }

    fn anon_vma_unlock<'a>(mm: &'a Mm, anon_vma: AnonVmaId, lock: SpinGuard<'a, ()>) {
        RootChainRmap::anon_vma_unlock(mm, anon_vma, lock)
    }

    fn vma_lock_anon_vma(mm: &Mm, vma: VmaId) -> Option<SpinGuard<'_, ()>> {
        <RootChainRmap as ChainLock>::vma_lock_anon_vma(mm, vma)
    }

    fn vma_unlock_anon_vma<'a>(mm: &'a Mm, vma: VmaId, lock: Option<SpinGuard<'a, ()>>) {
        <RootChainRmap as ChainLock>::vma_unlock_anon_vma(mm, vma, lock)
    }

    /// `page_lock_anon_vma(page)` (mm/rmap.c, f18194275c39): the lock is returned as a guard,
    /// which the caller hands to `page_unlock_anon_vma()`.
    fn page_lock_anon_vma(mm: &Mm, page: PageId) -> Option<(AnonVmaId, SpinGuard<'_, ()>)> {
        // LEFT OUT: `rcu_read_lock()`: see the shared page_lock_anon_vma (SLAB_DESTROY_BY_RCU).
        // MODEL: `anon_mapping = ACCESS_ONCE(page->mapping)`, the PAGE_MAPPING_FLAGS test (no KSM
        // pages: the ANON bit alone) and the cast are `page_anon_vma()`; None returns NULL (`?`).
        let anon_vma = page_anon_vma(mm, page)?;
        if !page_mapped(mm, page) {
            // LEFT OUT: `goto out` (its `out:` tail, `rcu_read_unlock()`: see above); the cast
            // `anon_vma = (struct anon_vma *) (anon_mapping - PAGE_MAPPING_ANON)` after this
            // branch is `page_anon_vma()` above.
            // MODEL: the `out:` tail's `return NULL`.
            return None;
        }
        ktrace!(
            "page_lock_anon_vma",
            "page {page} mapped, its anon_vma is anon_vma#{anon_vma}"
        );

        // MODEL: `ACCESS_ONCE(anon_vma->root)` is READ_ONCE_DEP: the lock below is taken
        // through the pointer it loads.
        let root_anon_vma = READ_ONCE_DEP(&mm.anon_vmas[anon_vma].root);
        let lock = spin_lock(&mm.anon_vmas[root_anon_vma].lock);
        ktrace!(
            "page_lock_anon_vma",
            "root anon_vma#{root_anon_vma}'s lock taken"
        );

        // If this page is still mapped, then its anon_vma cannot have been freed.  But if it
        // has been unmapped, we have no security against the anon_vma structure being freed
        // and reused (for another anon_vma: SLAB_DESTROY_BY_RCU guarantees that - so the
        // spin_lock above cannot corrupt): with anon_vma_prepare() or anon_vma_fork()
        // redirecting anon_vma->root before page_unlock_anon_vma() is called to unlock.
        if page_mapped(mm, page) {
            return Some((anon_vma, lock));
        }

        spin_unlock(lock);
        ktrace!(
            "page_lock_anon_vma",
            "page {page} unmapped under anon_vma#{root_anon_vma}'s lock: NULL"
        );
        // LEFT OUT: `out: rcu_read_unlock(); return NULL;` is this tail (see above for RCU).
        None
    }
}

chain_rmap!(
    HangFixRmap,
    rmap_walk_anon::<HangFixRmap>,
    remove_migration_pte
);

/// `remove_migration_pte(new, vma, addr, old)` (mm/migrate.c, 486cf46f): "Restore a potential
/// migration pte to a working pte entry", the pte looked at under the pte lock only, and the
/// whole `page_add_anon_rmap(new, vma, addr)` (5dbe0af4's: no bounds check).
pub fn remove_migration_pte(mm: &Mm, new: PageId, vma: VmaId, addr: usize, old: PageId) -> i32 {
    // LEFT OUT: `mm = vma->vm_mm` (`pte_slot` reads the vma's mm); the PageHuge branch (the
    // models' pages are small); the pgd/pud/pmd walk and its `goto out`s, `pmd_trans_huge`:
    // the models' page table has one level (`pte_slot`; beyond it is the walk's `goto out`).
    // MODEL: `goto out` for an address beyond the page table.
    let Some(slot) = pte_slot(mm, vma, addr) else {
        return SWAP_AGAIN;
    };
    // LEFT OUT: `ptep = pte_offset_map(pmd, addr)` is the slot above.

    // Peek to check is_swap_pte() before taking ptlock?  No, we
    // can race mremap's move_ptes(), which skips anon_vma lock.
    // (mmcheck: the kernel's comment, stale at 108d6642, whose move_ptes() takes the anon_vma
    // lock, and true again from 38a76013 on, whose move_ptes() skips it when need_rmap_locks
    // is false: proofs/vma.20.md.)

    // LEFT OUT: `ptl = pte_lockptr(mm, pmd)` is the argument of the lock below.
    let ptl = spin_lock(pte_lockptr(mm, vma));
    let pte = READ_ONCE(&mm.ptes[slot]);
    // LEFT OUT: `if (!is_swap_pte(pte)) goto unlock;` is the test below (the models' only swap
    // ptes are migration entries); `entry = pte_to_swp_entry(pte)` is `let entry = pte`.
    // MODEL: `!is_swap_pte(pte)` and the `!is_migration_entry(entry)` of the C's next test as
    // one test; `goto unlock` is the return (the guard's drop unlocks).
    if !is_migration_entry(pte) {
        ktrace!(
            "remove_migration_pte",
            "{addr:#x} (vma#{vma}): no migration entry there (under the pte lock)"
        );
        return SWAP_AGAIN;
    }
    let entry = pte;
    if migration_entry_to_page(mm, entry) != old {
        // MODEL: `goto unlock`: returns (the guard's drop unlocks).
        return SWAP_AGAIN;
    }
    // LEFT OUT: `get_page(new)`: no page refcounts in these models; `pte_mkold(mk_pte(new,
    // vma->vm_page_prot))`, `is_write_migration_entry`/`pte_mkwrite`, the CONFIG_HUGETLB_PAGE
    // `pte_mkhuge`: the models' pte is the page's pfn, without protection, young, write or
    // huge bits; `flush_cache_page`: no caches.
    // MODEL: `set_pte_at(mm, addr, ptep, pte)` as one store of the page.
    WRITE_ONCE(&mm.ptes[slot], new);
    ktrace!(
        "remove_migration_pte",
        "{addr:#x} (vma#{vma}): migration entry of page {old} replaced by page {new}"
    );
    // LEFT OUT: the PageHuge rmap branch (`hugepage_add_anon_rmap`, `page_dup_rmap`) and `if
    // (PageAnon(new))`: the models' pages are small anon pages.
    page_add_anon_rmap(mm, new, vma, addr);
    // LEFT OUT: `else page_add_file_rmap(new)` (anon pages only); `update_mmu_cache`: no MMU
    // cache.
    // MODEL: `unlock: pte_unmap_unlock(ptep, ptl)` as the guard's drop.
    drop(ptl);
    // LEFT OUT: `out: return SWAP_AGAIN;` is the tail.
    // MODEL: the tail.
    SWAP_AGAIN
}

/// `__page_set_anon_rmap(page, vma, address, exclusive)` (mm/rmap.c, 3d48ae45): "set up new
/// anonymous rmap". A page that is already anonymous keeps its mapping: migration's new page
/// has the old page's (`move_to_new_page`), so `remove_migration_pte` changes nothing here.
/// This is what this file's `page_add_anon_rmap()` calls; the variant's
/// `VmaAdjust::__page_set_anon_rmap` (the swap-in model's, which no claim runs on this
/// variant) stays the chain era's default (ea90002b's form).
fn __page_set_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize, exclusive: bool) {
    let anon_vma = mm.vmas[vma].anon_vma.get();

    BUG_ON!("__page_set_anon_rmap", anon_vma.is_none());

    // LEFT OUT: `if (PageAnon(page))` is the test below.
    // MODEL: `PageAnon(page)` as the ANON bit of the page's mapping word.
    if READ_ONCE(&mm.pages[page].mapping) & PAGE_MAPPING_ANON != 0 {
        return;
    }

    // If the page isn't exclusively mapped into this vma, we must use the _oldest_ possible
    // anon_vma for the page mapping!
    // MODEL: `anon_vma` is set: the BUG_ON above stops the run otherwise.
    let mut anon_vma = anon_vma.expect("BUG_ON(!anon_vma) above");
    if !exclusive {
        anon_vma = READ_ONCE(&mm.anon_vmas[anon_vma].root);
    }

    ktrace!(
        "__page_set_anon_rmap",
        "page {page}: mapping = anon_vma#{anon_vma}"
    );
    // MODEL: `anon_vma = (void *) anon_vma + PAGE_MAPPING_ANON` is the models' mapping word of
    // that anon_vma.
    let anon_vma = (anon_vma << 1) | PAGE_MAPPING_ANON;
    // MODEL: `page->mapping = (struct address_space *) anon_vma` as one store.
    WRITE_ONCE(&mm.pages[page].mapping, anon_vma);
    WRITE_ONCE(&mm.pages[page].index, linear_page_index(mm, vma, address));
}

/// `page_add_anon_rmap(page, vma, address)` (mm/rmap.c, 3d48ae45): "add pte mapping to an
/// anonymous page"; "the caller needs to hold the pte lock, and the page must be locked in
/// the anon_vma case".
pub fn page_add_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize) {
    do_page_add_anon_rmap(mm, page, vma, address, false);
}

/// `do_page_add_anon_rmap(page, vma, address, exclusive)` (mm/rmap.c, 5dbe0af47f8a): the body of
/// `page_add_anon_rmap()`; the caller holds the pte lock and the page is locked.
fn do_page_add_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize, exclusive: bool) {
    // MODEL: `atomic_inc_and_test(&page->_mapcount)`: the new value is 0.
    let first = atomic_inc_return(&mm.pages[page]._mapcount) == 0;
    // LEFT OUT: `if (first) { __inc_zone_page_state(...) }`: statistics; `if
    // (unlikely(PageKsm(page))) return`: no KSM pages in the models.

    VM_BUG_ON!("do_page_add_anon_rmap", !PageLocked(mm, page));
    // address might be in next vma when migration races vma_adjust
    if first {
        __page_set_anon_rmap(mm, page, vma, address, exclusive);
    }
    // LEFT OUT: `else __page_check_anon_rmap(page, vma, address)`: CONFIG_DEBUG_VM checks of a
    // mapping that is not the first (its anon_vma's root and `page->index`); the models map
    // migration's new page once.
}
