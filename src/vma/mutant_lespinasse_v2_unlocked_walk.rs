//! Mutant `lespinasse-v2-unlocked-walk`: Michel Lespinasse's `vma_adjust` with rmap walks that
//! do not take the root anon_vma lock (`page_lock_anon_vma`, `rmap_walk_anon`): the lock that
//! `vma_adjust` takes then excludes nothing.

use crate::ktrace;
use crate::mm::vma::*;
use crate::mm::vma_2_6_34::*;
use crate::sync::{READ_ONCE, WRITE_ONCE};
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// lespinasse-v2 with unlocked rmap walks.
pub struct Variant;

impl VmaAdjust for Variant {
    const META: VariantMeta = VariantMeta {
        id: "lespinasse-v2-unlocked-walk",
        area: Area::Vma,
        kind: Kind::Mutant {
            removes: "the anon_vma lock of the rmap walks",
        },
        parent: Some("lespinasse-v2"),
        source: "mutant of lespinasse-v2: its vma_adjust, with the rmap walks of its era minus their anon_vma lock (the walks are shared mm code: the mutant overrides the era's AnonRmap with copies).",
    };
    type Rmap = UnlockedWalk;

    /// `vma_adjust(vma, start, end, pgoff, insert)` (mm/mmap.c, lespinasse-v2 with unlocked rmap walks), anonymous vmas: the
    /// file (`mapping`, prio tree) paths are left out.
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
                let mut exporter: Option<VmaId> = None;

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
                if let (Some(exp), Some(imp)) = (exporter, importer) {
                    if mm.vmas[exp].anon_vma.get().is_some()
                        && mm.vmas[imp].anon_vma.get().is_none()
                    {
                        if anon_vma_clone::<RootChainRmap>(mm, imp, exp) != 0 {
                            return -ENOMEM;
                        }
                        mm.vmas[imp].anon_vma.set(mm.vmas[exp].anon_vma.get());
                    }
                }
            }

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
                if let Some(nx) = next.filter(|&nx| mm.vmas[nx].anon_vma.get().is_some()) {
                    anon_vma = mm.vmas[nx].anon_vma.get();
                }
            }
            let lock = anon_vma.map(|av| anon_vma_root_lock_for_adjust(mm, av));
            ktrace!(
                "vma_adjust",
                "vma#{vma}: [{start:#x}, {end:#x}) pgoff {pgoff:#x}: anon_vma lock {}",
                match anon_vma {
                    Some(av) => format!("of anon_vma#{av} taken"),
                    None => "skipped".to_string(),
                }
            );

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
                __vma_unlink(mm, next.expect("remove_next needs next"), vma);
            } else if let Some(insert) = insert {
                // split_vma has split insert from vma, and needs us to insert it before
                // dropping the locks (it may either follow vma or precede it).
                __insert_vm_struct(mm, insert);
            }

            drop(lock); // if (anon_vma) anon_vma_unlock(anon_vma);

            if remove_next != 0 {
                let nx = next.expect("remove_next needs next");
                if mm.vmas[nx].anon_vma.get().is_some() {
                    anon_vma_merge::<RootChainRmap>(mm, vma, nx);
                }
                // mm->map_count--; mpol_put(vma_policy(next));
                kmem_cache_free_vma(mm, nx);
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

/// The 2.6.36 anon_vma_chain rmap with the walks' `anon_vma_lock(anon_vma)` removed: copies of
/// `page_referenced_anon`, `try_to_unmap_anon` and `rmap_walk_anon` (`crate::mm::vma_2_6_34`)
/// minus the lock; the rest is the era's.
pub struct UnlockedWalk;

/// `page_lock_anon_vma(page)` minus its `anon_vma_lock(anon_vma)`.
fn page_lock_anon_vma(mm: &Mm, page: PageId) -> Option<AnonVmaId> {
    // rcu_read_lock();
    let anon_vma = page_anon_vma(mm, page)?;
    if !page_mapped(mm, page) {
        return None;
    }
    // MUTANT(lespinasse-v2-unlocked-walk): anon_vma_lock(anon_vma) removed.
    Some(anon_vma)
}

impl AnonRmap for UnlockedWalk {
    const ERA: &'static str = "2.6.36";

    fn anon_vma_prepare(mm: &Mm, vma: VmaId, av: AnonVmaId) {
        RootChainRmap::anon_vma_prepare(mm, vma, av)
    }

    fn anon_vma_fork(mm: &Mm, vma: VmaId, pvma: VmaId, new_av: AnonVmaId) -> i32 {
        RootChainRmap::anon_vma_fork(mm, vma, pvma, new_av)
    }

    fn split_vma<V: VmaAdjust>(
        mm: &Mm,
        vma: VmaId,
        new: VmaId,
        addr: usize,
        new_below: bool,
    ) -> i32 {
        RootChainRmap::split_vma::<V>(mm, vma, new, addr, new_below)
    }

    /// `page_referenced_anon(page, mem_cont, vm_flags)` (mm/rmap.c, 2.6.36) without the lock.
    fn page_referenced_anon(mm: &Mm, page: PageId) -> usize {
        let mut referenced = 0;
        let Some(anon_vma) = page_lock_anon_vma(mm, page) else {
            return referenced;
        };
        let mut mapcount = page_mapcount(mm, page);
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "page_referenced_anon", head);
        while node != head {
            let vma = avc_vma(mm, "page_referenced_anon", node);
            let address = vma_address(mm, page, vma);
            if address != EFAULT && page_check_address(mm, page, vma, address) {
                referenced += 1;
                mapcount -= 1;
                if mapcount == 0 {
                    break;
                }
            }
            node = list_next(mm, "page_referenced_anon", node);
        }
        referenced
    }

    /// `try_to_unmap_anon(page, TTU_MIGRATION)` (mm/rmap.c, 2.6.36) without the lock.
    fn try_to_unmap_anon(mm: &Mm, page: PageId) -> i32 {
        let mut ret = SWAP_AGAIN;
        let Some(anon_vma) = page_lock_anon_vma(mm, page) else {
            return ret;
        };
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "try_to_unmap_anon", head);
        while node != head {
            let vma = avc_vma(mm, "try_to_unmap_anon", node);
            let address = vma_address(mm, page, vma);
            if address != EFAULT {
                ret = try_to_unmap_one(mm, page, vma, address);
                if ret != SWAP_AGAIN || !page_mapped(mm, page) {
                    break;
                }
            }
            node = list_next(mm, "try_to_unmap_anon", node);
        }
        ret
    }

    /// `remove_migration_ptes(old, new)` = `rmap_walk_anon(new, remove_migration_pte, old)`
    /// (mm/rmap.c, 2.6.36) without the lock.
    fn remove_migration_ptes(mm: &Mm, old: PageId, new: PageId) {
        let Some(anon_vma) = page_anon_vma(mm, new) else {
            return;
        };
        // MUTANT(lespinasse-v2-unlocked-walk): anon_vma_lock(anon_vma) removed.
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "rmap_walk_anon", head);
        while node != head {
            let vma = avc_vma(mm, "rmap_walk_anon", node);
            let address = vma_address(mm, new, vma);
            if address != EFAULT && remove_migration_pte(mm, new, vma, address, old) != SWAP_AGAIN {
                break;
            }
            node = list_next(mm, "rmap_walk_anon", node);
        }
    }

    fn check_anon_vma_lists(mm: &Mm) {
        RootChainRmap::check_anon_vma_lists(mm)
    }
}
