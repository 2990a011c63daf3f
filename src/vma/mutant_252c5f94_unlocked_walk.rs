//! Mutant `252c5f94-unlocked-walk`: 252c5f94's `vma_adjust` with rmap walks that do not take
//! `anon_vma->lock` (`page_lock_anon_vma`, `remove_anon_migration_ptes`): the lock that
//! `vma_adjust` takes then excludes nothing, and a walk reads a vma's `vm_start`/`vm_pgoff`
//! while they move, or the anon_vma list while it changes.

use crate::ktrace;
use crate::mm::vma::*;
use crate::mm::vma_2_6_31::*;
use crate::sync::{READ_ONCE, WRITE_ONCE};
use crate::variant::{Area, Kind, VariantMeta};

/// 252c5f94 with unlocked rmap walks.
pub struct Variant;

impl VmaAdjust for Variant {
    const META: VariantMeta = VariantMeta {
        id: "252c5f94-unlocked-walk",
        area: Area::Vma,
        kind: Kind::Mutant {
            removes: "the anon_vma lock of the rmap walks",
        },
        parent: Some("252c5f94"),
        source: "mutant of 252c5f94: its vma_adjust, with the rmap walks of its era minus their anon_vma lock (the walks are shared mm code: the mutant overrides the era's AnonRmap with copies).",
    };
    type Rmap = UnlockedWalk;

    /// `vma_adjust(vma, start, end, pgoff, insert)` (mm/mmap.c, 252c5f94 with unlocked rmap walks), anonymous vmas: the
    /// file (`mapping`, prio tree) paths are left out. `void` in 2.6.31: returns 0.
    fn vma_adjust(
        mm: &Mm,
        vma: VmaId,
        start: usize,
        end: usize,
        pgoff: usize,
        insert: Option<VmaId>,
    ) -> i32 {
        let v = &mm.vmas[vma];
        let mut next = v.vm_next.get();
        let mut end = end;
        let mut importer: Option<VmaId> = None;
        let mut anon_vma: Option<AnonVmaId> = None;
        let mut adjust_next: isize = 0;
        let mut remove_next = 0;
        let mut again = false;

        loop {
            if let (Some(nx), None) = (next, insert) {
                let nv = &mm.vmas[nx];
                let (n_start, n_end) = (READ_ONCE(&nv.vm_start), READ_ONCE(&nv.vm_end));
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
                // Easily overlooked: when mprotect shifts the boundary, make sure the expanding
                // vma has anon_vma set if the shrinking vma had, to cover any anon pages
                // imported.
                if let Some(imp) = importer {
                    if mm.vmas[imp].anon_vma.get().is_none() {
                        mm.vmas[imp].anon_vma.set(Some(av));
                        __anon_vma_link(mm, imp);
                    }
                }
            }

            WRITE_ONCE(&v.vm_start, start);
            WRITE_ONCE(&v.vm_end, end);
            WRITE_ONCE(&v.vm_pgoff, pgoff);
            if adjust_next != 0 {
                let nv = &mm.vmas[next.expect("adjust_next needs next")];
                let ns = READ_ONCE(&nv.vm_start) as isize + (adjust_next << PAGE_SHIFT);
                WRITE_ONCE(&nv.vm_start, ns as usize);
                let np = READ_ONCE(&nv.vm_pgoff) as isize + adjust_next;
                WRITE_ONCE(&nv.vm_pgoff, np as usize);
            }

            if remove_next != 0 {
                // vma_merge has merged next into vma, and needs us to remove next before
                // dropping the locks.
                let nx = next.expect("remove_next needs next");
                __vma_unlink(mm, nx, vma);
                if mm.vmas[nx].anon_vma.get().is_some() {
                    __anon_vma_merge(mm, vma, nx);
                }
            } else if let Some(insert) = insert {
                // split_vma has split insert from vma, and needs us to insert it before
                // dropping the locks (it may either follow vma or precede it).
                __insert_vm_struct(mm, insert);
            }

            drop(lock);

            if remove_next != 0 {
                // mm->map_count--; mpol_put(vma_policy(next));
                kmem_cache_free_vma(mm, next.expect("remove_next needs next"));
                // In mprotect's case 6 (see comments on vma_merge), we must remove another next
                // too. It would clutter up the code too much to do both in one go.
                if remove_next == 2 {
                    next = v.vm_next.get();
                    again = true;
                    continue;
                }
            }
            break;
        }
        0
    }
}

/// The 2.6.31 anon rmap with the walks' `spin_lock(&anon_vma->lock)` removed: copies of
/// `page_referenced_anon`, `try_to_unmap_anon` and `remove_anon_migration_ptes`
/// (`crate::mm::vma_2_6_31`) minus the lock; the rest is the era's.
pub struct UnlockedWalk;

/// `page_lock_anon_vma(page)` minus its `spin_lock(&anon_vma->lock)`.
fn page_lock_anon_vma(mm: &Mm, page: PageId) -> Option<AnonVmaId> {
    // rcu_read_lock();
    let anon_vma = page_anon_vma(mm, page)?;
    if !page_mapped(mm, page) {
        return None;
    }
    // MUTANT(252c5f94-unlocked-walk): spin_lock(&anon_vma->lock) removed.
    Some(anon_vma)
}

impl AnonRmap for UnlockedWalk {
    const ERA: &'static str = "2.6.31";

    fn anon_vma_prepare(mm: &Mm, vma: VmaId, av: AnonVmaId) {
        AnonVmaList::anon_vma_prepare(mm, vma, av)
    }

    fn anon_vma_fork(mm: &Mm, vma: VmaId, pvma: VmaId, new_av: AnonVmaId) -> i32 {
        AnonVmaList::anon_vma_fork(mm, vma, pvma, new_av)
    }

    fn split_vma<V: VmaAdjust>(
        mm: &Mm,
        vma: VmaId,
        new: VmaId,
        addr: usize,
        new_below: bool,
    ) -> i32 {
        AnonVmaList::split_vma::<V>(mm, vma, new, addr, new_below)
    }

    /// `page_referenced_anon(page, mem_cont, vm_flags)` (mm/rmap.c, 2.6.31) without the lock.
    fn page_referenced_anon(mm: &Mm, page: PageId) -> usize {
        let mut referenced = 0;
        let Some(anon_vma) = page_lock_anon_vma(mm, page) else {
            return referenced;
        };
        let mut mapcount = page_mapcount(mm, page);
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "page_referenced_anon", head);
        while node != head {
            let vma = vma_of(mm, "page_referenced_anon", node);
            referenced += page_referenced_one(mm, page, vma, &mut mapcount);
            if mapcount == 0 {
                break;
            }
            node = list_next(mm, "page_referenced_anon", node);
        }
        referenced
    }

    /// `try_to_unmap_anon(page, unlock = 0, migration = 1)` (mm/rmap.c, 2.6.31) without the
    /// lock.
    fn try_to_unmap_anon(mm: &Mm, page: PageId) -> i32 {
        let mut ret = SWAP_AGAIN;
        let Some(anon_vma) = page_lock_anon_vma(mm, page) else {
            return ret;
        };
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "try_to_unmap_anon", head);
        while node != head {
            let vma = vma_of(mm, "try_to_unmap_anon", node);
            ret = try_to_unmap_one_2_6_31(mm, page, vma);
            if ret == SWAP_FAIL || !page_mapped(mm, page) {
                break;
            }
            node = list_next(mm, "try_to_unmap_anon", node);
        }
        ret
    }

    /// `remove_anon_migration_ptes(old, new)` (mm/migrate.c, 2.6.31) without the lock.
    fn remove_migration_ptes(mm: &Mm, old: PageId, new: PageId) {
        let Some(anon_vma) = page_anon_vma(mm, new) else {
            return;
        };
        // MUTANT(252c5f94-unlocked-walk): spin_lock(&anon_vma->lock) removed.
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "remove_anon_migration_ptes", head);
        while node != head {
            let vma = vma_of(mm, "remove_anon_migration_ptes", node);
            remove_migration_pte_2_6_31(mm, vma, old, new);
            node = list_next(mm, "remove_anon_migration_ptes", node);
        }
    }

    fn check_anon_vma_lists(mm: &Mm) {
        AnonVmaList::check_anon_vma_lists(mm)
    }
}
