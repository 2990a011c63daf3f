//! Area `vma` (S3): vma_adjust() and the brk-only anon_vma lock skip (252c5f94) against
//! concurrent rmap walks (Linux 2.6.31).
//!
//! One mm, one anon_vma shared by its vmas, a page table of 8 slots (addresses 0–0x8000).
//! The adjusting CPU holds `mmap_sem` for write (it is the only writer of vma fields); the
//! walking CPU is reclaim or migration: `page_referenced_anon` under `anon_vma->lock`.

use crate::sequential::{self, Settings};
use crate::{scenario, Model, Runner};
use mmcheck::checker::Exploration;
use mmcheck::mm::vma::*;
use mmcheck::sync::{join, spawn_cpu, READ_ONCE};
use mmcheck::trace::harness_fail;
use proptest::prelude::*;
use std::sync::Arc;

/// Every model of the area, for variant `V`.
pub fn models<V: VmaAdjust>() -> Vec<Model> {
    vec![
        scenario!(brk_and_merge_vs_rmap::<V>, 2, "brk growth, then a merge that moves vm_start and vm_pgoff, against rmap walks"),
        scenario!(split_vs_rmap::<V>, 2, "__split_vma inserting the new vma against an rmap walk of a page in the moving part"),
        scenario!(vma_soak::<V>, 4, "one writer (brk, merge, split) and three walkers (shuttle soak)"),
        Model {
            name: "sequential",
            cpus: 0,
            about: "random brk/merge/split/mprotect sequences against a reference model of ranges, pgoffs and the lock decision table",
            run: Runner::Sequential(sequential_proptest::<V>),
        },
    ]
}

const A: VmaId = 0;
const B: VmaId = 1;
const NEW: VmaId = 2;

/// vma.1 / vma.2 / vma.4 — brk growth of one vma, then a `vma_merge` that extends the next vma
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

/// vma.3 / vma.3-fix / vma.4-split — `__split_vma` (inserting the new vma) while another CPU walks
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

/// S3 soak (shuttle): one writer running brk growth, a merge that moves a vma's start, and a
/// split, while three CPUs walk the rmap of the pages mapped in the moving vmas.
///
/// * setup: A [0x1000, 0x3000) pgoff 1 with Q at 0x2000; B [0x6000, 0x9000) pgoff 6 with P at
///   0x6000 and R (index 8) at 0x8000.
/// * CPU0: brk A to 0x4000; mmap [0x5000, 0x6000) merging into B; split B at 0x8000.
/// * CPU1–CPU3: walk P, Q, R (twice each, in rotating order); every walk finds its mapping.
pub fn vma_soak<V: VmaAdjust>() {
    let mm = Arc::new(Mm::new(3, 10, 3));
    setup_vma(&mm, A, 0x1000, 0x3000, 1, None);
    setup_vma(&mm, B, 0x6000, 0x9000, 6, Some(A));
    map_page(&mm, 0, 2, 0x2000); // Q
    map_page(&mm, 1, 6, 0x6000); // P
    map_page(&mm, 2, 8, 0x8000); // R
    let m0 = mm.clone();
    let mut hs = vec![spawn_cpu(0, move || {
        V::vma_adjust(&m0, A, 0x1000, 0x4000, 1, None);
        V::vma_adjust(&m0, B, 0x5000, 0x9000, 5, None);
        __split_vma::<V>(&m0, B, NEW, 0x8000);
    })];
    for cpu in 1..4 {
        let m = mm.clone();
        hs.push(spawn_cpu(cpu, move || {
            for i in 0..6 {
                check_walk(&m, (cpu + i) % 3, 1);
            }
        }));
    }
    for h in hs {
        join(h);
    }
    for page in 0..3 {
        check_walk(&mm, page, 1);
    }
}

/// One `vma_adjust` of the sequential S3 model, with the lock decision each variant makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VmaOp {
    /// brk: A's vm_end grows by a page (no insert, no importer, start unchanged).
    BrkGrow,
    /// `vma_merge` into the next vma: B's vm_start and vm_pgoff move down a page.
    MergeDown,
    /// `__split_vma` of B at its last page (insert).
    Split,
    /// mprotect case 4: A shrinks by a page and B grows down into it (importer = B,
    /// adjust_next < 0, anon_vma taken from next).
    ShiftBoundaryDown,
}

/// Does `variant` take the anon_vma lock for `op` on anonymous vmas? The decision table of
/// 2.6.31 (always), Lee's first posting (file || insert || importer), 252c5f94 (insert ||
/// importer || start moved) and the no-insert mutant (importer || start moved), with the
/// overlap cases always locking through `next->anon_vma`. None: no row for that variant (the
/// lock decision is then not checked).
pub fn takes_lock(variant: &str, op: VmaOp) -> Option<bool> {
    let (insert, importer, start_moves) = match op {
        VmaOp::BrkGrow => (false, false, false),
        VmaOp::MergeDown => (false, false, true),
        VmaOp::Split => (true, false, false),
        VmaOp::ShiftBoundaryDown => (false, true, false),
    };
    let by_condition = match variant {
        "linux-2.6.31" => true,
        "lee-v1" => insert,
        "252c5f94" => insert || start_moves,
        "252c5f94-no-insert" => start_moves,
        _ => return None,
    };
    Some(importer || by_condition)
}

/// The sequential model: random sequences of `vma_adjust` calls on two vmas against a reference
/// model of their ranges, pgoffs and anon_vma list, and of the lock decision table; after every
/// step each mapped page is found by an rmap walk.
pub fn vma_sequential<V: VmaAdjust>(ops: &[VmaOp]) {
    let mm = Mm::new(3, 16, 2);
    // reference: (start, end, pgoff) of A, B and the split-off vma
    let mut r: [Option<(usize, usize, usize)>; 3] =
        [Some((0x4000, 0x6000, 4)), Some((0x9000, 0xc000, 9)), None];
    setup_vma(&mm, A, 0x4000, 0x6000, 4, None);
    setup_vma(&mm, B, 0x9000, 0xc000, 9, Some(A));
    map_page(&mm, 0, 4, 0x4000); // in A
    map_page(&mm, 1, 9, 0x9000); // in B
    for op in ops {
        let (a, b) = (r[A].expect("A"), r[B].expect("B"));
        let before = mm.anon_vma.adjust_locks.get();
        let applied = match op {
            VmaOp::BrkGrow if a.1 + PAGE_SIZE <= b.0 => {
                V::vma_adjust(&mm, A, a.0, a.1 + PAGE_SIZE, a.2, None);
                r[A] = Some((a.0, a.1 + PAGE_SIZE, a.2));
                true
            }
            VmaOp::MergeDown if b.0 - PAGE_SIZE >= a.1 => {
                V::vma_adjust(&mm, B, b.0 - PAGE_SIZE, b.1, b.2 - 1, None);
                r[B] = Some((b.0 - PAGE_SIZE, b.1, b.2 - 1));
                true
            }
            VmaOp::Split if r[NEW].is_none() && b.1 - b.0 >= 2 * PAGE_SIZE => {
                let at = b.1 - PAGE_SIZE;
                __split_vma::<V>(&mm, B, NEW, at);
                r[NEW] = Some((at, b.1, b.2 + ((at - b.0) >> PAGE_SHIFT)));
                r[B] = Some((b.0, at, b.2));
                true
            }
            VmaOp::ShiftBoundaryDown
                if a.1 == b.0 && a.1 - a.0 >= 2 * PAGE_SIZE && a.1 - PAGE_SIZE > 0x4000 =>
            {
                V::vma_adjust(&mm, A, a.0, a.1 - PAGE_SIZE, a.2, None);
                r[A] = Some((a.0, a.1 - PAGE_SIZE, a.2));
                r[B] = Some((b.0 - PAGE_SIZE, b.1, b.2 - 1));
                true
            }
            _ => false,
        };
        if applied {
            let took = mm.anon_vma.adjust_locks.get() > before;
            if let Some(want) = takes_lock(V::META.id, *op) {
                if took != want {
                    harness_fail(
                        "vma_sequential",
                        format!(
                            "{op:?}: {} took the anon_vma lock: {took}; the decision table says {want}",
                            V::META.id
                        ),
                    );
                }
            }
        }
        for (id, want) in r.iter().enumerate() {
            if let Some((s, e, p)) = *want {
                let v = &mm.vmas[id];
                let got = (
                    READ_ONCE(&v.vm_start),
                    READ_ONCE(&v.vm_end),
                    READ_ONCE(&v.vm_pgoff),
                );
                if got != (s, e, p) {
                    harness_fail(
                        "vma_sequential",
                        format!(
                            "after {op:?}: vma#{id} is {got:x?}, reference model says {:x?}",
                            (s, e, p)
                        ),
                    );
                }
            }
        }
        check_walk(&mm, 0, 1);
        check_walk(&mm, 1, 1);
    }
}

/// proptest's operations for [`vma_sequential`].
fn vma_op() -> impl Strategy<Value = VmaOp> {
    prop_oneof![
        Just(VmaOp::BrkGrow),
        Just(VmaOp::MergeDown),
        Just(VmaOp::Split),
        Just(VmaOp::ShiftBoundaryDown)
    ]
}

/// [`vma_sequential`] on random sequences of up to 16 steps.
fn sequential_proptest<V: VmaAdjust>(settings: &Settings) -> Exploration {
    sequential::run(
        settings,
        prop::collection::vec(vma_op(), 0..16),
        vma_sequential::<V>,
    )
}
