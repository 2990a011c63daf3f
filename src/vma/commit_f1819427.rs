//! 012f1800's kernel (2.6.36-rc) with f18194275c39 "mm: fix hang on anon_vma->root->lock"
//! (Hugh Dickins, posted 25 Aug 2010 against 2.6.36-rc2; its release, 2.6.36, UNVERIFIED):
//! "After several hours, kbuild tests hang with anon_vma_prepare() spinning on a newly
//! allocated anon_vma's lock ... since anon_vma_prepare() and anon_vma_fork() are liable to
//! change the ->root of a reused anon_vma structure at any moment, page_lock_anon_vma() needs
//! to check page_mapped() again before succeeding, otherwise page_unlock_anon_vma() might
//! address a different root->lock." `page_lock_anon_vma()` reads the root once, locks it, and
//! succeeds only if the page is still mapped (its anon_vma then cannot be freed until the
//! unlock: the unlink that would free it needs that root's lock); otherwise it unlocks the root
//! it locked. The fix of H-12 (vma.17). `vma_adjust()` is 012f1800's (the fix does not touch
//! mm/mmap.c).

use crate::ktrace;
use crate::mm::vma::*;
use crate::mm::vma_2_6_34::*;
use crate::sync::{spin_lock, spin_unlock, SpinGuard, READ_ONCE, READ_ONCE_DEP, WRITE_ONCE};
use crate::variant::{Area, Kind, VariantMeta};

/// f18194275c39.
pub struct Variant;

impl VmaAdjust for Variant {
    const META: VariantMeta = VariantMeta {
        id: "f1819427",
        area: Area::Vma,
        kind: Kind::Commit {
            subject: "mm: fix hang on anon_vma->root->lock",
        },
        parent: Some("012f1800"),
        source: "Hugh Dickins's patch as posted on linux-mm, 25 Aug 2010, <alpine.LSU.2.00.1008252305540.19107@sister.anvils>, against 2.6.36-rc2 (kernel/f1819427/mm/rmap.c, partial: 4 lines between its two hunks); the mainline id f18194275c39835cb84563500995e0d503a32d9a as Hugh names it in linux-mm (Jan 2011); whether the merged text differs from the posting, and its release, UNVERIFIED; vma_adjust() is 012f1800's.",
    };
    type Rmap = HangFixRmap;

    /// `vma_adjust(vma, start, end, pgoff, insert)` (mm/mmap.c, 012f1800: f18194275c39 leaves
    /// it), anonymous vmas: the file (`mapping`, prio tree) paths are left out.
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

            // LEFT OUT: `if (file) { ... spin_lock(&mapping->i_mmap_lock); ... }`: anonymous
            // vmas only (no mapping, truncate_count or prio tree).

            // When changing only vma->vm_end, we don't really need anon_vma lock. This is a
            // fairly rare case by itself, but the anon_vma lock may be shared between many
            // sibling processes.  Skipping the lock for brk adjustments makes a difference
            // sometimes.
            if v.anon_vma.get().is_some()
                && (insert.is_some() || importer.is_some() || start != READ_ONCE(&v.vm_start))
            {
                anon_vma = v.anon_vma.get();
            }
            // MODEL: the anon_vma lock as a guard (counted for the lock statistics), released by
            // `drop(lock)` below.
            // LEFT OUT: `anon_vma_lock(anon_vma)` (= `spin_lock(&anon_vma->root->lock)`) is this
            // guard (the tool cannot pair the two); `if (root) { flush_dcache_mmap_lock;
            // vma_prio_tree_remove ... }`: file vmas only.
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

            // LEFT OUT: `if (anon_vma) anon_vma_unlock(anon_vma)` is this drop of the guard; `if
            // (mapping) spin_unlock(&mapping->i_mmap_lock)`: file vmas only.
            // MODEL: the guard's drop.
            drop(lock); // if (anon_vma) anon_vma_unlock(anon_vma);

            if remove_next != 0 {
                // LEFT OUT: `if (file) { fput(file); ... removed_exe_file_vma }`: file vmas.
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

chain_rmap!(HangFixRmap);
