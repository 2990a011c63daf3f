//! Mutant `shaohua-v1-no-importer`: the 3.0-3.6 condition without `importer ||`: mprotect case 4
//! from a vma with an anon_vma into a `next` without one clones the anon_vma into `next`, then
//! moves `next->vm_start`/`vm_pgoff` with no lock (before Lespinasse's else-if the importer term
//! is what locks it).

use crate::ktrace;
use crate::mm::vma::*;
use crate::mm::vma_2_6_34::*;
use crate::sync::{READ_ONCE, WRITE_ONCE};
use crate::variant::{Area, Kind, VariantMeta};

/// shaohua-v1 without importer.
pub struct Variant;

impl VmaAdjust for Variant {
    const META: VariantMeta = VariantMeta {
        id: "shaohua-v1-no-importer",
        area: Area::Vma,
        kind: Kind::Mutant {
            removes: "importer in the lock condition",
        },
        parent: Some("shaohua-v1"),
        source: "mutant of shaohua-v1.",
    };
    type Rmap = RootChainRmap;

    /// `vma_adjust(vma, start, end, pgoff, insert)` (mm/mmap.c, shaohua-v1 without importer), anonymous vmas: the
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
            // MUTANT(shaohua-v1-no-importer): `importer ||` dropped.
            if v.anon_vma.get().is_some() && start != READ_ONCE(&v.vm_start) {
                anon_vma = v.anon_vma.get();
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
