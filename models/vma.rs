//! S3 scenarios: vma_adjust() and the brk-only anon_vma lock skip (252c5f94) against
//! concurrent rmap walks (Linux 2.6.31).
//!
//! One mm, one anon_vma shared by its vmas, a page table of 8 slots (addresses 0–0x8000).
//! The adjusting CPU holds `mmap_sem` for write (it is the only writer of vma fields); the
//! walking CPU is reclaim or migration: `page_referenced_anon` under `anon_vma->lock`.

use super::join;
use crate::mm::vma::*;
use crate::sync::spawn_cpu;
use crate::vma::{__split_vma, VmaAdjust};
use std::sync::Arc;

const A: VmaId = 0;
const B: VmaId = 1;
const NEW: VmaId = 2;

/// S3.1 / S3.2 / S3.4 — brk growth of one vma, then a `vma_merge` that extends the next vma
/// downwards (moves its `vm_start` and `vm_pgoff`), while another CPU walks the rmap of a
/// page in each.
///
/// * setup: vma A [0x1000, 0x3000) pgoff 1 with page Q (index 2) at 0x2000; vma B
///   [0x6000, 0x8000) pgoff 6 with page P (index 6) at 0x6000; both on the anon_vma.
/// * CPU0 (mmap_sem held): `do_brk` → `vma_merge` → `vma_adjust(A, 0x1000, 0x4000, 1, NULL)`
///   (vm_end only); then an anonymous mmap of [0x5000, 0x6000) merging into B:
///   `vma_adjust(B, 0x5000, 0x8000, 5, NULL)` (vm_start and vm_pgoff move together).
/// * CPU1: `page_referenced_anon(P)`, `page_referenced_anon(Q)`: each must find its mapping.
pub fn brk_and_merge_vs_rmap<V: VmaAdjust>() {
    let mm = Arc::new(Mm::new(3, 8, 2));
    setup_vma(&mm, A, 0x1000, 0x3000, 1, None);
    setup_vma(&mm, B, 0x6000, 0x8000, 6, Some(A));
    map_page(&mm, 0, 2, 0x2000); // Q
    map_page(&mm, 1, 6, 0x6000); // P

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        // do_brk(): vma_merge(prev = A) case 1: vma_adjust(prev, prev->vm_start, end, ...)
        V::vma_adjust(&m0, A, 0x1000, 0x4000, 1, None);
        // mmap [0x5000, 0x6000): vma_merge(next = B) case 3/8:
        // vma_adjust(area, addr, next->vm_end, next->vm_pgoff - pglen, NULL)
        V::vma_adjust(&m0, B, 0x5000, 0x8000, 5, None);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || {
        check_walk(&m1, 1, 1);
        check_walk(&m1, 0, 1);
    });
    join(cpu0);
    join(cpu1);
    check_walk(&mm, 1, 1);
    check_walk(&mm, 0, 1);
}

/// S3.3 / S3.3-fix / S3.4-split — `__split_vma` (inserting the new vma) while another CPU walks
/// the rmap of a page in the part that moves to the new vma.
///
/// * setup: vma A [0x1000, 0x3000) pgoff 1; vma B [0x5000, 0x8000) pgoff 5 with page R
///   (index 7) at 0x7000.
/// * CPU0 (mmap_sem held): `__split_vma(B, 0x7000)`: new vma [0x7000, 0x8000) pgoff 7,
///   `vma_adjust(B, 0x5000, 0x7000, 5, new)`.
/// * CPU1: `page_referenced_anon(R)` must find R (in B before the split, in the new vma after).
pub fn split_vs_rmap<V: VmaAdjust>() {
    let mm = Arc::new(Mm::new(3, 8, 1));
    setup_vma(&mm, A, 0x1000, 0x3000, 1, None);
    setup_vma(&mm, B, 0x5000, 0x8000, 5, Some(A));
    map_page(&mm, 0, 7, 0x7000); // R

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || __split_vma::<V>(&m0, B, NEW, 0x7000));
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || check_walk(&m1, 0, 1));
    join(cpu0);
    join(cpu1);
    check_walk(&mm, 0, 1);
}
