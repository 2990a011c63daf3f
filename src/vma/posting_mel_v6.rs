//! mm/mmap.c `vma_adjust()` of 2.6.34 with the `vma_adjust` hunk of Mel Gorman's V6
//! "mm,migration: Prevent rmap_walk_[anon|ksm] seeing the wrong VMA information" (6 May 2010):
//! "the locking behaviour prior to the anon_vma is restored": the lock of `vma->anon_vma` is
//! taken on 252c5f94's condition (overlap with next, an insert, or a moving `vm_start`). The
//! same patch made `rmap_walk_anon` (migration's walk: `remove_migration_ptes`) lock the root
//! anon_vma, walk the root's list and lock each `vma->anon_vma` met, nested: [`MelV6Rmap`]
//! (`try_to_unmap_anon` and `page_referenced_anon` keep 2.6.34's lock of the page's anon_vma).
//! Not merged: 2.6.35's `vma_adjust` has no anon_vma lock; 012f1800 added it.

use crate::ktrace;
use crate::mm::vma::*;
use crate::mm::vma_2_6_34::*;
use crate::sync::{spin_lock, SpinGuard, READ_ONCE, WRITE_ONCE};
use crate::trace::{fail, Invariant};
use crate::variant::{Area, Kind, VariantMeta};

/// mel-v6 (6 May 2010 posting).
pub struct Variant;

impl VmaAdjust for Variant {
    const META: VariantMeta = VariantMeta {
        id: "mel-v6",
        area: Area::Vma,
        kind: Kind::Posting {
            subject: "mm,migration: Prevent rmap_walk_[anon|ksm] seeing the wrong VMA information",
            date: "2010-05-06",
        },
        parent: Some("linux-2.6.34"),
        source: "Mel Gorman's V6 [PATCH 1/2] (linux-mm, 6 May 2010, <1273159987-10167-2-git-send-email-mel@csn.ul.ie>): its mm/mmap.c vma_adjust hunk and its mm/rmap.c rmap_walk_anon with anon_vma_lock_root / page_anon_vma_lock_root (kernel/mel-v6/, partial: the walk's comment head and tail from the V7 resend's context and 2.6.35.7); its rmap_walk_ksm, mm_take_all_locks and rmap.h hunks are not modelled. Not merged: 2.6.35.7's vma_adjust has no anon_vma lock, and Rik van Riel's 012f1800 posting (26 May 2010) adds one to a vma_adjust without it.",
    };
    type Rmap = MelV6Rmap;

    /// `vma_adjust(vma, start, end, pgoff, insert)` (mm/mmap.c, mel-v6), anonymous vmas: the
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

            if v.anon_vma.get().is_some()
                && (insert.is_some() || importer.is_some() || start != READ_ONCE(&v.vm_start))
            {
                anon_vma = v.anon_vma.get();
            }
            // MODEL: the anon_vma lock as a guard (counted for the lock statistics), released by
            // `drop(lock)` below.
            // LEFT OUT: `spin_lock(&anon_vma->lock)` is this guard (the tool cannot pair the two);
            // `if (root) { flush_dcache_mmap_lock; vma_prio_tree_remove ... }`: file vmas only.
            let lock = anon_vma.map(|av| anon_vma_lock_for_adjust(mm, av));
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

            // LEFT OUT: `if (anon_vma) spin_unlock(&anon_vma->lock)` is this drop of the guard;
            // `if (mapping) spin_unlock(&mapping->i_mmap_lock)`: file vmas only.
            // MODEL: the guard's drop.
            drop(lock);

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

/// The anon rmap of mel-v6: 2.6.34's (`ChainRmap`: each anon_vma's own lock) but for
/// migration's `rmap_walk_anon`, which is the patch's ([`rmap_walk_anon`] here).
pub struct MelV6Rmap;

impl ChainLock for MelV6Rmap {
    const ERA: &'static str = "2.6.34";
    const ROOT: bool = false;

    fn anon_vma_lock(mm: &Mm, anon_vma: AnonVmaId) -> SpinGuard<'_, ()> {
        ChainRmap::anon_vma_lock(mm, anon_vma)
    }

    fn anon_vma_unlock<'a>(mm: &'a Mm, anon_vma: AnonVmaId, lock: SpinGuard<'a, ()>) {
        ChainRmap::anon_vma_unlock(mm, anon_vma, lock)
    }
}

chain_rmap!(MelV6Rmap, rmap_walk_anon);

/// `anon_vma_lock_root(anon_vma)` (mm/rmap.c, mel-v6): "Given an anon_vma, find the root of
/// the chain, lock it and return it." The root and its lock are returned (the lock as a guard).
pub fn anon_vma_lock_root(mm: &Mm, anon_vma: AnonVmaId) -> Option<(AnonVmaId, SpinGuard<'_, ()>)> {
    // LEFT OUT: `struct anon_vma *root_anon_vma; struct anon_vma_chain *avc, *root_avc; struct
    // vm_area_struct *vma;`: declared where they are set.

    // Lock the same_anon_vma list and make sure we are on a chain
    let lock = spin_lock(&mm.anon_vmas[anon_vma].lock);
    if list_empty(mm, mm.anon_vma_head(anon_vma)) {
        drop(lock);
        // LEFT OUT: `spin_unlock(&anon_vma->lock)` is the drop above.
        // MODEL: `return NULL`.
        return None;
    }

    // Get the root anon_vma on the list by depending on the ordering
    // of the same_vma list setup by __page_set_anon_rmap. Basically
    // we are doing
    //
    // local anon_vma -> local vma -> root vma -> root anon_vma
    // MODEL: `avc = list_first_entry(&anon_vma->head, ...)` is the list's first node, `vma =
    // avc->vma` its vma (`avc_vma`).
    let avc = list_next(mm, "anon_vma_lock_root", mm.anon_vma_head(anon_vma));
    let vma = avc_vma(mm, "anon_vma_lock_root", avc);
    // MODEL: `root_avc = list_entry(vma->anon_vma_chain.prev, ...)`: the last node of the
    // vma's chain (`anon_vma_chain_link` adds at the head, so the last is the oldest), and
    // `root_anon_vma = root_avc->anon_vma`.
    let root_avc = mm.nodes[mm.anon_vma_chain(vma)].prev.get();
    let root_anon_vma = match mm.node(root_avc) {
        // MODEL: the node is a `same_vma` entry (its avc's anon_vma), or the chain is broken.
        Node::SameVma(c) => mm.avcs[c].anon_vma.get(),
        other => fail(
            "anon_vma_lock_root",
            Invariant::ListCorruption,
            format!("vma#{vma}'s anon_vma_chain runs into {other:?}"),
        ),
    };
    ktrace!(
        "anon_vma_lock_root",
        "anon_vma#{anon_vma}: first vma#{vma}, whose oldest anon_vma is anon_vma#{root_anon_vma}"
    );

    // Get the lock of the root anon_vma
    if anon_vma != root_anon_vma {
        // LEFT OUT: `VM_BUG_ON(!rcu_read_lock_held())`: no RCU in the models (the walk's
        // caller holds the page locked and a reference, see `unmap_and_move`).
        drop(lock);
        // LEFT OUT: `spin_unlock(&anon_vma->lock)` is the drop above.
        // MODEL: the root's lock is returned as the guard.
        return Some((root_anon_vma, spin_lock(&mm.anon_vmas[root_anon_vma].lock)));
    }

    // MODEL: `return root_anon_vma` with the lock held.
    Some((root_anon_vma, lock))
}

/// `page_anon_vma_lock_root(page)` (mm/rmap.c, mel-v6): "From the anon_vma associated with this
/// page, find and lock the deepest anon_vma on the list."
pub fn page_anon_vma_lock_root(mm: &Mm, page: PageId) -> Option<(AnonVmaId, SpinGuard<'_, ()>)> {
    // LEFT OUT: `struct anon_vma *anon_vma` is the binding below.

    // Get the local anon_vma
    let anon_vma = page_anon_vma(mm, page);
    let Some(anon_vma) = anon_vma else {
        // LEFT OUT: `if (!anon_vma)` is the `let ... else` above.
        // MODEL: `return NULL`.
        return None;
    };

    anon_vma_lock_root(mm, anon_vma)
}

/// `rmap_walk_anon(page, rmap_one, arg)` (mm/rmap.c, mel-v6) with `arg` = `old`: what
/// `remove_migration_ptes(old, new)` runs (`rmap_one`: 2.6.34's `remove_migration_pte`).
pub fn rmap_walk_anon(mm: &Mm, page: PageId, rmap_one: RmapOne, old: PageId) -> i32 {
    // LEFT OUT: `struct anon_vma *anon_vma, *locked_vma; struct anon_vma_chain *avc;`:
    // declared where they are set; `int ret = SWAP_AGAIN` is the next line.
    let mut ret = SWAP_AGAIN;

    // Note: remove_migration_ptes() cannot use page_lock_anon_vma()
    // because that depends on page_mapped(); but not all its usages
    // are holding mmap_sem. Users without mmap_sem are required to
    // take a reference count to prevent the anon_vma disappearing
    let anon_vma = page_anon_vma_lock_root(mm, page);
    let Some((anon_vma, lock)) = anon_vma else {
        return ret;
    };
    // MODEL: `list_for_each_entry(avc, &anon_vma->head, same_anon_vma)` as a walk of the
    // list's nodes: `list_next` fails on a poisoned link, `avc_vma` is `avc->vma`.
    // LEFT OUT: that loop header is this `while`, `vma = avc->vma` is `avc_vma`; `unsigned
    // long address` is declared where it is set.
    let head = mm.anon_vma_head(anon_vma);
    let mut node = list_next(mm, "rmap_walk_anon", head);
    while node != head {
        let vma = avc_vma(mm, "rmap_walk_anon", node);
        // LEFT OUT: `unsigned long address` is declared where it is set.

        // MODEL: `locked_vma` holds the nested lock's guard (None: NULL).
        let mut locked_vma = None;
        if Some(anon_vma) != mm.vmas[vma].anon_vma.get() {
            // MODEL: `locked_vma = vma->anon_vma`: a vma on an anon_vma's list has one (the
            // harness checks it).
            let Some(locked) = mm.vmas[vma].anon_vma.get() else {
                crate::trace::harness_fail("rmap_walk_anon", format!("vma#{vma} has no anon_vma"));
            };
            ktrace!(
                "rmap_walk_anon",
                "vma#{vma}: its anon_vma#{locked}'s lock taken, nested"
            );
            // LEFT OUT: `spin_lock_nested(&locked_vma->lock, SINGLE_DEPTH_NESTING)` is the
            // lock below (lockdep's nesting annotation is not modelled).
            // MODEL: its guard kept in `locked_vma`.
            locked_vma = Some(spin_lock(&mm.anon_vmas[locked].lock));
        }
        let address = vma_address(mm, page, vma);
        if address != EFAULT {
            // MODEL: `arg` is `old`.
            ret = rmap_one(mm, page, vma, address, old);
        }

        if locked_vma.is_some() {
            // LEFT OUT: `spin_unlock(&locked_vma->lock)` is the guard's drop.
            // MODEL: the guard dropped.
            drop(locked_vma);
        }

        if ret != SWAP_AGAIN {
            break;
        }
        // MODEL: the loop's step to the next entry.
        node = list_next(mm, "rmap_walk_anon", node);
    }
    // MODEL: `spin_unlock(&anon_vma->lock)`: the root's, from page_anon_vma_lock_root.
    drop(lock);
    // LEFT OUT: `return ret` is the tail `ret`.
    // MODEL: the tail `ret`.
    ret
}
