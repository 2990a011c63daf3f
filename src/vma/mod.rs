//! vma_adjust() of Linux 2.6.30–2.6.31, one file per variant; everything else it calls is
//! `crate::mm::vma`. `diff always_lock.rs commit_252c5f94.rs` reads like 252c5f94.

mod always_lock;
mod commit_252c5f94;
mod lee_v1;
mod mutant_252c5f94_no_insert;

pub use always_lock::AlwaysLock;
pub use commit_252c5f94::Commit252c5f94;
pub use lee_v1::LeeV1;
pub use mutant_252c5f94_no_insert::Mutant252c5f94NoInsert;

use crate::mm::vma::{Mm, VmaId};

/// One version of mm/mmap.c's `vma_adjust()`.
pub trait VmaAdjust: 'static + Send + Sync {
    /// Stable id used by the claims registry.
    const ID: &'static str;
    /// `vma_adjust(vma, start, end, pgoff, insert)`, with `mmap_sem` held for write.
    fn vma_adjust(
        mm: &Mm,
        vma: VmaId,
        start: usize,
        end: usize,
        pgoff: usize,
        insert: Option<VmaId>,
    );
}

/// `__split_vma(mm, vma, addr, new_below = 0)` (mm/mmap.c, 2.6.31): the new vma (slot `new`)
/// takes [addr, end) and is inserted by `vma_adjust` under the anon_vma lock.
pub fn __split_vma<V: VmaAdjust>(mm: &Mm, vma: VmaId, new: VmaId, addr: usize) {
    use crate::mm::vma::PAGE_SHIFT;
    use crate::sync::{Ordering, RacyStore};
    let v = &mm.vmas[vma];
    let n = &mm.vmas[new];
    // *new = *vma;
    let (start, end, pgoff) = (
        v.vm_start.load(Ordering::Relaxed),
        v.vm_end.load(Ordering::Relaxed),
        v.vm_pgoff.load(Ordering::Relaxed),
    );
    n.vm_start.racy_store(start);
    n.vm_end.racy_store(end);
    n.vm_pgoff.racy_store(pgoff);
    n.anon_vma.set(v.anon_vma.get());
    // !new_below
    n.vm_start.racy_store(addr);
    n.vm_pgoff
        .racy_store(pgoff + ((addr - start) >> PAGE_SHIFT));
    crate::ktrace!(
        "__split_vma",
        "vma#{vma} at {addr:#x}: new vma#{new} [{addr:#x}, {end:#x})"
    );
    V::vma_adjust(mm, vma, start, addr, pgoff, Some(new));
}
