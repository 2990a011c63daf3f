//! Area `vma` (S3): `vma_adjust()` and its anon_vma lock against concurrent rmap walks, from
//! 2.6.31 (a vma on one anon_vma list) through the anon_vma_chain era (2.6.34 to 3.6).
//!
//! One mm with a page table of 8 to 12 slots (addresses 0 to 0xc000), its vmas (some without an
//! anon_vma), one or two anon_vmas each with its own lock and list. The adjusting CPU holds
//! `mmap_sem` for write (it is the only writer of vma fields and the mm list); the other CPUs
//! are reclaim (`page_referenced_anon`) or migration (`unmap_and_move`: `try_to_unmap` installs
//! migration entries, `remove_migration_ptes` removes them). Every model ends with
//! `check_mm`: the anon_vma lists hold exactly the vmas that point to them, every mapped page is
//! found by a walk, and a fault on every address finds no migration entry left behind (the
//! kernel's BUG_ON in `migration_entry_to_page()`).
//!
//! Each model is written once and runs on both eras: the variant's `Rmap` says which anon rmap
//! (2.6.31 lists, 2.6.34 anon_vma_chain, 2.6.36 root lock) its kernel had.

use crate::sequential::{self, Settings};
use crate::{scenario, Model, Runner};
use mmcheck::checker::Exploration;
use mmcheck::ktrace;
use mmcheck::mm::vma::*;
use mmcheck::sync::{join, spawn_cpu, READ_ONCE, WRITE_ONCE};
use mmcheck::trace::{fail, harness_fail, Invariant};
use proptest::prelude::*;
use std::sync::Arc;

/// The anon rmap of variant `V`'s kernel.
type R<V> = <V as VmaAdjust>::Rmap;

/// Every model of the area, for variant `V`.
pub fn models<V: VmaAdjust>() -> Vec<Model> {
    vec![
        scenario!(brk_and_merge_vs_rmap::<V>, 2, "brk growth, then a merge that moves vm_start and vm_pgoff, against rmap walks"),
        scenario!(split_vs_rmap::<V>, 2, "split_vma inserting the new vma against an rmap walk of a page in the moving part"),
        scenario!(split_vs_migration::<V>, 2, "split_vma shrinking vm_end (the new vma takes the top page) against the migration of that page"),
        scenario!(merge_vs_migration::<V>, 2, "a merge that moves vm_start and vm_pgoff down (vma_merge case 3/8) against the migration of a page in it"),
        scenario!(shift_down_vs_migration::<V>, 2, "mprotect case 4: a vma without anon_vma shrinks, next (with one) grows down, against the migration of a page in next"),
        scenario!(shift_up_vs_migration::<V>, 2, "mprotect case 5: a vma without anon_vma grows into next (with one), against the migration of a page that stays in next"),
        scenario!(remove_next_vs_migration::<V>, 2, "mprotect case 6: a vma without anon_vma merges two nexts away (remove_next 2, then 1) against the migration of a page in the second"),
        scenario!(importer_vs_migration::<V>, 2, "mprotect case 4: a vma with an anon_vma shrinks, next (without one) imports its last page, against the migration of that page"),
        scenario!(fork_vs_migration::<V>, 2, "a forked child's vma moves its vm_start and vm_pgoff (vma_merge case 3/8) while a page shared with the parent is migrated: the root anon_vma lock"),
        scenario!(exec_vs_migration::<V>, 2, "exec moves its temporary stack down (shift_arg_pages: vma_adjust, move_page_tables, vma_adjust) while a page of the stack is migrated"),
        scenario!(stack_grow_vs_migration::<V>, 2, "a forked child's stack grows down (expand_downwards: vm_start and vm_pgoff move under the vma form of the anon_vma lock, mmap_sem for read) while a page it shares with the parent is migrated"),
        scenario!(mremap_vs_migration::<V>, 2, "mremap moves a vma's page to a new vma (move_vma: copy_vma links it on the anon_vma, move_ptes moves the pte under the pte lock) while the page is migrated"),
        scenario!(mremap_merge_vs_migration::<V>, 2, "mremap moves a page back beside the vma it came from (copy_vma's vma_merge extends that vma, which is before the source on the anon_vma's list; move_ptes moves the pte) while the page is migrated"),
        scenario!(root_reuse_vs_reclaim::<V>, 2, "reclaim locks the anon_vma of a page a forked child maps while the child exits (its anon_vma freed) and the parent's next fault reuses that anon_vma with another root"),
        scenario!(vma_soak::<V>, 4, "one writer (mprotect case 4, brk, a merge down, a split), two migrations and a reclaim walker (shuttle soak)"),
        Model {
            name: "sequential",
            cpus: 0,
            about: "random brk/merge/split/mprotect sequences on vmas with and without anon_vma against a reference model of ranges, pgoffs and the lock decision table",
            run: Runner::Sequential(sequential_proptest::<V>),
        },
        Model {
            name: "reuse",
            cpus: 0,
            about: "a forked child's new vmas below and above its copy of the parent's vma fault (anon_vma_prepare reusing a neighbour's anon_vma through find_mergeable_anon_vma) and are mprotected to its protection (vma_merge), in every order (enumerated); every page stays findable",
            run: Runner::Sequential(reuse_every_order::<V>),
        },
        Model {
            name: "swapin",
            cpus: 0,
            about: "a page the parent mapped before fork, swapped out of both processes (its page->mapping kept), faulted back by either process first (page_add_anon_rmap: the first mapping sets page->mapping) while the child may exit, in every order (enumerated); every mapping stays findable",
            run: Runner::Sequential(swapin_every_order::<V>),
        },
        Model {
            name: "oracle",
            cpus: 0,
            about: "the sequential model's sequences against an oracle that derives, from the state each vma_adjust changes and not from any variant's condition, whether an rmap walk could miss a page without the anon_vma lock",
            run: Runner::Sequential(oracle_proptest::<V>),
        },
    ]
}

const A: VmaId = 0;
const B: VmaId = 1;
const C: VmaId = 2;
const NEW: VmaId = 3;

fn mm(vmas: usize, anon_vmas: usize, pages: usize, ptes: usize) -> Arc<Mm> {
    Arc::new(Mm::new(MmSize {
        vmas,
        anon_vmas,
        pages,
        ptes,
        mms: 1,
    }))
}

/// vma.1 / vma.2 / vma.4 — brk growth of one vma, then a `vma_merge` that extends the next vma
/// downwards (moves its `vm_start` and `vm_pgoff`), while another CPU walks the rmap of a
/// page in each.
///
/// * setup: vma A [0x1000, 0x3000) pgoff 1 with page Q (index 2) at 0x2000; vma B
///   [0x6000, 0x8000) pgoff 6 with page P (index 6) at 0x6000; both on anon_vma 0.
/// * CPU0 (mmap_sem held): `do_brk` → `vma_merge` → `vma_adjust(A, 0x1000, 0x4000, 1, NULL)`
///   (vm_end only); then an anonymous mmap of [0x5000, 0x6000) merging into B:
///   `vma_adjust(B, 0x5000, 0x8000, 5, NULL)` (vm_start and vm_pgoff move together).
/// * CPU1: `page_referenced_anon(P)`, `page_referenced_anon(Q)`: each must find its mapping.
pub fn brk_and_merge_vs_rmap<V: VmaAdjust>() {
    let mm = mm(3, 1, 2, 8);
    setup_vma::<R<V>>(&mm, A, (0x1000, 0x3000, 1), None, Some(0));
    setup_vma::<R<V>>(&mm, B, (0x6000, 0x8000, 6), Some(A), Some(0));
    map_page(&mm, 0, 0, 2, 0x2000); // Q
    map_page(&mm, 1, 0, 6, 0x6000); // P

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
        check_walk::<R<V>>(&m1, 1, 1);
        check_walk::<R<V>>(&m1, 0, 1);
    });
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.3 / vma.3-fix / vma.4-split / vma.11 — `split_vma` (inserting the new vma) while another
/// CPU walks the rmap of a page in the part that moves to the new vma.
///
/// * setup: vma A [0x1000, 0x3000) pgoff 1; vma B [0x5000, 0x8000) pgoff 5 with page R
///   (index 7) at 0x7000; both on anon_vma 0.
/// * CPU0 (mmap_sem held): `split_vma(B, 0x7000, new_below = 0)`: new vma [0x7000, 0x8000)
///   pgoff 7, `vma_adjust(B, 0x5000, 0x7000, 5, new)` (2.6.34 on: `anon_vma_clone(new, B)`
///   first).
/// * CPU1: `page_referenced_anon(R)` must find R (in B before the split, in the new vma after).
pub fn split_vs_rmap<V: VmaAdjust>() {
    let mm = mm(4, 1, 1, 8);
    setup_vma::<R<V>>(&mm, A, (0x1000, 0x3000, 1), None, Some(0));
    setup_vma::<R<V>>(&mm, B, (0x5000, 0x8000, 5), Some(A), Some(0));
    map_page(&mm, 0, 0, 7, 0x7000); // R

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        R::<V>::split_vma::<V>(&m0, B, NEW, 0x7000, false)
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || check_walk::<R<V>>(&m1, 0, 1));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.21 — `split_vma` of B at 0x7000 (`new_below == 0`: only B's `vm_end` moves, the new
/// vma takes the top page) while the page in the top part is migrated: the split model of vma.11
/// with migration's walks instead of reclaim's. `remove_migration_pte()` calls
/// `page_add_anon_rmap(new, vma, addr)` with the vma and address its walk computed, and
/// `do_page_add_anon_rmap()` (until 5dbe0af47f8a) checks that address against the vma's bounds
/// again (`VM_BUG_ON(address < vma->vm_start || address >= vma->vm_end)`): Hugh Dickins's
/// "kernel BUG at mm/rmap.c:1017!" (28 May 2011), after 5f70b962 took the anon_vma lock away
/// from the split's `vm_end` store.
///
/// * setup: A [0x1000, 0x3000) pgoff 1; B [0x5000, 0x8000) pgoff 5 with page R (index 7) at
///   0x7000; both on anon_vma 0; page 1 is the migration target.
/// * CPU0 (mmap_sem held): `split_vma(B, 0x7000, new_below = 0)`: `anon_vma_clone(new, B)`,
///   then `vma_adjust(B, 0x5000, 0x7000, 5, new)`.
/// * CPU1: `unmap_and_move(R, page 1)`.
/// * end: `check_mm` (no migration entry left behind; the lists hold their vmas).
pub fn split_vs_migration<V: VmaAdjust>() {
    let mm = mm(4, 1, 2, 8);
    setup_vma::<R<V>>(&mm, A, (0x1000, 0x3000, 1), None, Some(0));
    setup_vma::<R<V>>(&mm, B, (0x5000, 0x8000, 5), Some(A), Some(0));
    map_page(&mm, 0, 0, 7, 0x7000); // R

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        R::<V>::split_vma::<V>(&m0, B, NEW, 0x7000, false)
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || unmap_and_move::<R<V>>(&m1, 0, 1));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.9 (H-9) — a `vma_merge` that extends B downwards (case 3/8: `vm_start` and `vm_pgoff`
/// move, no insert, no importer) while page P of B is migrated.
///
/// * setup: A [0x1000, 0x3000) pgoff 1 on anon_vma 1 with page Q (index 2) at 0x2000 (another
///   anon_vma, another lock); B [0x6000, 0x8000) pgoff 6 on anon_vma 0 with page P (index 6) at
///   0x6000; page 2 is the migration target.
/// * CPU0 (mmap_sem held): `vma_adjust(B, 0x5000, 0x8000, 5, NULL)`.
/// * CPU1: `unmap_and_move(P, page 2)`.
/// * end: `check_mm` (a migration entry left at 0x6000 is the BUG in migration_entry_to_page).
pub fn merge_vs_migration<V: VmaAdjust>() {
    let mm = mm(2, 2, 3, 8);
    setup_vma::<R<V>>(&mm, A, (0x1000, 0x3000, 1), None, Some(1));
    setup_vma::<R<V>>(&mm, B, (0x6000, 0x8000, 6), Some(A), Some(0));
    map_page(&mm, 0, 1, 2, 0x2000); // Q
    map_page(&mm, 1, 0, 6, 0x6000); // P

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        // mmap [0x5000, 0x6000): vma_merge(next = B) case 3/8
        V::vma_adjust(&m0, B, 0x5000, 0x8000, 5, None);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || unmap_and_move::<R<V>>(&m1, 1, 2));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.16 (H-11) — exec's temporary stack moves down to its final place
/// (`setup_arg_pages` -> `shift_arg_pages`: `vma_adjust` to cover `[new_start, old_end)`,
/// `move_page_tables`, `vma_adjust` to `[new_start, new_end)`, `vm_pgoff` unchanged) while a
/// page of the stack is migrated.
///
/// * setup: the stack S [0x8000, 0xa000) pgoff 8 on anon_vma 0, flagged by the era's
///   `__bprm_mm_init`, with page P (index 9) at 0x9000 (an argument page); page 1 is the
///   migration target.
/// * CPU0 (mmap_sem held): `setup_arg_pages` with a shift of 0x4000: S ends at
///   [0x4000, 0x6000), P's pte at 0x5000.
/// * CPU1: `unmap_and_move(P, page 1)`.
/// * end: `check_mm` (a migration entry left behind is the BUG in migration_entry_to_page,
///   "kernel BUG at include/linux/swapops.h:105").
pub fn exec_vs_migration<V: VmaAdjust>() {
    let mm = mm(1, 1, 2, 12);
    setup_vma::<R<V>>(&mm, A, (0x8000, 0xa000, 8), None, Some(0));
    R::<V>::__bprm_mm_init(&mm, A);
    map_page(&mm, 0, 0, 9, 0x9000); // P

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        R::<V>::setup_arg_pages::<V>(&m0, A, 0x4000);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || unmap_and_move::<R<V>>(&m1, 0, 1));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.5, vma.10 (H-10) — mprotect case 4 where the shrinking vma has no anon_vma and `next`
/// has one: `vma_adjust(A, A->vm_start, 0x3000, A->vm_pgoff, NULL)` moves B's `vm_start` and
/// `vm_pgoff` down a page, while page P of B is migrated.
///
/// * setup: A [0x1000, 0x4000) pgoff 1 without anon_vma; B [0x4000, 0x7000) pgoff 4 on
///   anon_vma 0 with page P (index 5) at 0x5000; page 1 is the migration target.
/// * CPU0: `vma_adjust(A, 0x1000, 0x3000, 1, NULL)` (importer B, adjust_next -1).
/// * CPU1: `unmap_and_move(P, page 1)`.
pub fn shift_down_vs_migration<V: VmaAdjust>() {
    let mm = mm(2, 1, 2, 8);
    setup_vma::<R<V>>(&mm, A, (0x1000, 0x4000, 1), None, None);
    setup_vma::<R<V>>(&mm, B, (0x4000, 0x7000, 4), Some(A), Some(0));
    map_page(&mm, 0, 0, 5, 0x5000); // P

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        // mprotect [0x3000, 0x4000) of A to B's protection: vma_merge case 4
        V::vma_adjust(&m0, A, 0x1000, 0x3000, 1, None);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || unmap_and_move::<R<V>>(&m1, 0, 1));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.6 — mprotect case 5 where the growing vma has no anon_vma and `next` has one:
/// `vma_adjust(A, A->vm_start, 0x5000, A->vm_pgoff, NULL)`: A imports B's first page (and must
/// be linked on B's anon_vma), B's `vm_start` and `vm_pgoff` move up, while page R, which stays
/// in B, is migrated.
///
/// * setup: A [0x1000, 0x4000) pgoff 1 without anon_vma; B [0x4000, 0x7000) pgoff 4 on
///   anon_vma 0 with P (index 4) at 0x4000 and R (index 6) at 0x6000; page 2 is the target.
/// * CPU0: `vma_adjust(A, 0x1000, 0x5000, 1, NULL)` (importer A, adjust_next +1).
/// * CPU1: `unmap_and_move(R, page 2)`.
pub fn shift_up_vs_migration<V: VmaAdjust>() {
    let mm = mm(2, 1, 3, 8);
    setup_vma::<R<V>>(&mm, A, (0x1000, 0x4000, 1), None, None);
    setup_vma::<R<V>>(&mm, B, (0x4000, 0x7000, 4), Some(A), Some(0));
    map_page(&mm, 0, 0, 4, 0x4000); // P
    map_page(&mm, 1, 0, 6, 0x6000); // R

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        // mprotect [0x4000, 0x5000) of B to A's protection: vma_merge case 5
        V::vma_adjust(&m0, A, 0x1000, 0x5000, 1, None);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || unmap_and_move::<R<V>>(&m1, 1, 2));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.7 — mprotect case 6: the middle vma B takes A's protection and A (without anon_vma)
/// merges B and C away: `vma_adjust(A, A->vm_start, C->vm_end, A->vm_pgoff, NULL)` removes B
/// (`remove_next == 2`: `__vma_unlink`, `__anon_vma_merge` under the lock in 2.6.31,
/// `anon_vma_merge` after it from 2.6.34), then goes `again` for C, while page R of C is
/// migrated.
///
/// * setup: A [0x1000, 0x2000) pgoff 1 without anon_vma; B [0x2000, 0x4000) pgoff 2 and C
///   [0x4000, 0x6000) pgoff 4 on anon_vma 0, with P (index 2) at 0x2000 and R (index 4) at
///   0x4000; page 2 is the target.
/// * CPU0: `vma_adjust(A, 0x1000, 0x6000, 1, NULL)`.
/// * CPU1: `unmap_and_move(R, page 2)`.
pub fn remove_next_vs_migration<V: VmaAdjust>() {
    let mm = mm(3, 1, 3, 8);
    setup_vma::<R<V>>(&mm, A, (0x1000, 0x2000, 1), None, None);
    setup_vma::<R<V>>(&mm, B, (0x2000, 0x4000, 2), Some(A), Some(0));
    setup_vma::<R<V>>(&mm, C, (0x4000, 0x6000, 4), Some(B), Some(0));
    map_page(&mm, 0, 0, 2, 0x2000); // P
    map_page(&mm, 1, 0, 4, 0x4000); // R

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        // mprotect B to A's (and C's) protection: vma_merge cases 1, 6
        V::vma_adjust(&m0, A, 0x1000, 0x6000, 1, None);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || unmap_and_move::<R<V>>(&m1, 1, 2));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.8 — mprotect case 4 where the shrinking vma has an anon_vma and the importer `next` has
/// none: `vma_adjust(A, A->vm_start, 0x3000, A->vm_pgoff, NULL)` moves A's last page into B,
/// which must get A's anon_vma and be on its list, while that page is migrated.
///
/// * setup: A [0x1000, 0x4000) pgoff 1 on anon_vma 0 with P (index 3) at 0x3000; B
///   [0x4000, 0x7000) pgoff 4 without anon_vma; page 1 is the target.
/// * CPU0: `vma_adjust(A, 0x1000, 0x3000, 1, NULL)` (importer B, adjust_next -1).
/// * CPU1: `unmap_and_move(P, page 1)`.
pub fn importer_vs_migration<V: VmaAdjust>() {
    let mm = mm(2, 1, 2, 8);
    setup_vma::<R<V>>(&mm, A, (0x1000, 0x4000, 1), None, Some(0));
    setup_vma::<R<V>>(&mm, B, (0x4000, 0x7000, 4), Some(A), None);
    map_page(&mm, 0, 0, 3, 0x3000); // P

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        // mprotect [0x3000, 0x4000) of A to B's protection: vma_merge case 4
        V::vma_adjust(&m0, A, 0x1000, 0x3000, 1, None);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || unmap_and_move::<R<V>>(&m1, 0, 1));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// The fork models' machine: the parent's vma A (mm 0) with `bounds` (start, end, pgoff) on
/// anon_vma 0, page P (page 0, index = pgoff) at its start; fork: the child's copy B (mm 1,
/// its own anon_vma 1 from 2.6.34) maps P at the same address; page 1 is the migration target.
fn forked_page<V: VmaAdjust>(bounds: (usize, usize, usize)) -> Arc<Mm> {
    let mm = Arc::new(Mm::new(MmSize {
        vmas: 2,
        anon_vmas: 2,
        pages: 2,
        ptes: 8,
        mms: 2,
    }));
    let (start, _, pgoff) = bounds;
    setup_vma::<R<V>>(&mm, A, bounds, None, Some(0));
    map_page(&mm, 0, 0, pgoff, start); // P
    fork_vma::<R<V>>(&mm, B, A, 1);
    map_page_shared(&mm, 0, 1, start);
    mm
}

/// vma.15 — the root anon_vma lock (012f1800): a forked child's vma is extended downwards
/// (`vm_start` and `vm_pgoff` move) while a page it shares with the parent is migrated.
///
/// * setup: parent vma A (mm 0) [0x2000, 0x4000) pgoff 2 on anon_vma 0 with page P (index 2) at
///   0x2000; fork: the child's copy C (mm 1) maps P at 0x2000 too. 2.6.31: C is on anon_vma 0
///   (`anon_vma_link`). 2.6.34: `anon_vma_fork` links C on anon_vma 0 (an avc) and on its own
///   anon_vma 1, and `C->anon_vma` = anon_vma 1; 012f1800: anon_vma 1's root is anon_vma 0.
/// * CPU0 (the child's mmap_sem): an anonymous mmap of [0x1000, 0x2000) merges into C
///   (`vma_merge` case 3/8): `vma_adjust(C, 0x1000, 0x4000, 1, NULL)`, which locks
///   `C->anon_vma`'s lock (its root's, from 012f1800).
/// * CPU1: `unmap_and_move(P, page 1)`: the walks lock P's anon_vma, anon_vma 0 (its root's),
///   and reach C through C's avc on anon_vma 0.
pub fn fork_vs_migration<V: VmaAdjust>() {
    let mm = forked_page::<V>((0x2000, 0x4000, 2));

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        // the child mmaps [0x1000, 0x2000): vma_merge(next = C) case 3/8
        V::vma_adjust(&m0, B, 0x1000, 0x4000, 1, None);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || unmap_and_move::<R<V>>(&m1, 0, 1));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.18 — stack growth against the rmap walks (012f1800's message: the root lock means
/// "rmap_walk on pages from any anon_vma in the vma is excluded from occurring during an
/// munmap, expand_stack or other operation that needs to exclude rmap_walk").
///
/// * setup: the parent's stack A (mm 0) [0x4000, 0x6000) pgoff 4, `VM_GROWSDOWN`, on anon_vma
///   0, with page P (index 4) at 0x4000; fork: the child's copy B (mm 1) maps P at 0x4000 too.
///   2.6.31: B is on anon_vma 0 (`anon_vma_link`). 2.6.34: `anon_vma_fork` links B on anon_vma
///   0 and on its own anon_vma 1, `B->anon_vma` = anon_vma 1; 012f1800: anon_vma 1's root is
///   anon_vma 0.
/// * CPU0 (the child, `mmap_sem` for read): a fault at 0x3f00, below its stack:
///   `expand_stack(B, 0x3f00)` -> `expand_downwards(B, 0x3f00)`, which moves `vm_start` to
///   0x3000 and `vm_pgoff` to 3 under the vma form of the anon_vma lock (2.6.31 and 2.6.34
///   `anon_vma_lock(vma)`: `B->anon_vma`'s own lock; 012f1800 `vma_lock_anon_vma(vma)`: its
///   root's).
/// * CPU1: `unmap_and_move(P, page 1)`: the walks lock P's anon_vma, anon_vma 0 (its root's),
///   and reach B through B's avc on anon_vma 0.
/// * end: `check_mm` (no migration entry left behind, every mapping found).
pub fn stack_grow_vs_migration<V: VmaAdjust>() {
    let mm = forked_page::<V>((0x4000, 0x6000, 4));
    for vma in [A, B] {
        WRITE_ONCE(&mm.vmas[vma].vm_flags, VM_GROWSDOWN);
    }

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        // do_page_fault -> find_vma -> expand_stack (x86: expand_downwards)
        expand_downwards::<R<V>>(&m0, B, 0x3f00);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || unmap_and_move::<R<V>>(&m1, 0, 1));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.19 (H-17) — mremap moves a vma's page while migration walks the page's anon_vma:
/// `move_ptes()` holds the pte lock but not the anon_vma lock, so the removal walk can look
/// at the old address after the pte left it and at the new one before it arrived.
///
/// * setup: vma A [0x2000, 0x3000) pgoff 2 on anon_vma 0 with page P (index 2) at 0x2000;
///   page 1 is the migration target; slot NEW (1) is the vma `copy_vma` allocates.
/// * CPU0 (mmap_sem held): `mremap(0x2000, 0x1000, 0x1000, MREMAP_MAYMOVE|MREMAP_FIXED,
///   0x5000)` -> `move_vma(A, 0x2000, 0x1000, 0x1000, 0x5000)`: `copy_vma` (the new vma
///   [0x5000, 0x6000) pgoff 2, linked on anon_vma 0 after A by `anon_vma_clone`), then
///   `move_page_tables`.
/// * CPU1: `unmap_and_move(P, page 1)`.
/// * end: `check_mm` (a migration entry left behind is the BUG in migration_entry_to_page,
///   "kernel BUG at include/linux/swapops.h:105!", the BUG site of Pawel Sikora's 3.0 report, which
///   Hugh Dickins read as hinting at this race).
pub fn mremap_vs_migration<V: VmaAdjust>() {
    const NEW_VMA: VmaId = 1;
    let mm = mm(2, 1, 2, 8);
    setup_vma::<R<V>>(&mm, A, (0x2000, 0x3000, 2), None, Some(0));
    map_page(&mm, 0, 0, 2, 0x2000); // P

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        mmcheck::mm::mremap::move_vma::<V>(&m0, A, NEW_VMA, 0x2000, 0x1000, 0x1000, 0x5000);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || unmap_and_move::<R<V>>(&m1, 0, 1));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.20 (H-18) — mremap moves a page back beside the vma it came from while migration walks
/// the page's anon_vma: `copy_vma()`'s `vma_merge()` extends that vma instead of allocating a
/// new one, and the extended vma sits before the source on the anon_vma's list, so the removal
/// walk can look at the destination before the pte arrives and at the source after it left.
///
/// * setup: the state after the first `mremap()` of Andrea Arcangeli's test program (the
///   second half of a vma moved away): vma A [0x2000, 0x3000) pgoff 2 and vma B [0x6000,
///   0x7000) pgoff 3, B linked on anon_vma 0 after A (as `anon_vma_clone` in that mremap's
///   `copy_vma` linked it), with page P (index 3) at 0x6000; page 1 is the migration target;
///   slot NEW (2) is the vma `copy_vma` would allocate. Where B lies is a free choice (the
///   test program's target may lie below the region): only the list order and the pgoffs
///   decide the merge and the walk's order.
/// * CPU0 (mmap_sem held): the second `mremap(0x6000, 0x1000, 0x1000,
///   MREMAP_MAYMOVE|MREMAP_FIXED, 0x3000)` -> `move_vma(B, 0x6000, 0x1000, 0x1000, 0x3000)`:
///   `copy_vma` -> `vma_merge` case 2 (`vma_adjust(A, 0x2000, 0x4000, 2, NULL)`, which changes
///   only vm_end and takes no anon_vma lock), then `move_page_tables` from B to A.
/// * CPU1: `unmap_and_move(P, page 1)`.
/// * end: `check_mm` (a migration entry left behind is the BUG in migration_entry_to_page).
pub fn mremap_merge_vs_migration<V: VmaAdjust>() {
    const NEW_VMA: VmaId = 2;
    let mm = mm(3, 1, 2, 8);
    setup_vma::<R<V>>(&mm, A, (0x2000, 0x3000, 2), None, Some(0));
    setup_vma::<R<V>>(&mm, B, (0x6000, 0x7000, 3), Some(A), Some(0));
    map_page(&mm, 0, 0, 3, 0x6000); // P

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        mmcheck::mm::mremap::move_vma::<V>(&m0, B, NEW_VMA, 0x6000, 0x1000, 0x1000, 0x3000);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || unmap_and_move::<R<V>>(&m1, 0, 1));
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// vma.17 — an anon_vma freed and reused while reclaim locks it through a page (H-12,
/// f18194275c39 "mm: fix hang on anon_vma->root->lock").
///
/// * setup: the parent's vma A (mm 0) [0x2000, 0x4000) pgoff 2 on anon_vma 0; fork: the
///   child's copy B (mm 1). 2.6.34: `anon_vma_fork` links B on anon_vma 0 and on its own
///   anon_vma 1 (`B->anon_vma`; 012f1800: its root is anon_vma 0); 2.6.31: B is on anon_vma 0.
///   Page P is the child's own (a COW copy it faulted after the fork): `page->mapping` is B's
///   anon_vma, mapped at 0x2000 of mm 1 only. The parent's vma C (mm 0) [0x6000, 0x8000)
///   pgoff 6 has no anon_vma yet.
/// * CPU0 (reclaim, P isolated and referenced): `page_referenced_anon(P)` (page_lock_anon_vma,
///   the walk, page_unlock_anon_vma).
/// * CPU1: the child exits (`exit_mmap`): `unmap_vmas` zaps P's pte (`page_remove_rmap`),
///   `free_pgtables` unlinks B from its anon_vmas (2.6.34: anon_vma 1, left empty, is freed),
///   `remove_vma` frees B. Then the parent's first write in C: `anon_vma_prepare(C)`, whose
///   `anon_vma_alloc()` hands out anon_vma 1 (the slab's per-CPU freelist is LIFO: the object
///   just freed; in 2.6.31 never used), which 2.6.36 makes its own root.
/// * end: `check_mm`; during the run the kernel's CONFIG_DEBUG_SPINLOCK check in every unlock
///   of an anon_vma lock reached through the page (`spin_bug`).
pub fn root_reuse_vs_reclaim<V: VmaAdjust>() {
    let mm = Arc::new(Mm::new(MmSize {
        vmas: 3,
        anon_vmas: 2,
        pages: 1,
        ptes: 8,
        mms: 2,
    }));
    setup_vma::<R<V>>(&mm, A, (0x2000, 0x4000, 2), None, Some(0));
    fork_vma::<R<V>>(&mm, B, A, 1);
    setup_vma::<R<V>>(&mm, C, (0x6000, 0x8000, 6), Some(A), None);
    // P: the child's COW copy at 0x2000 (`page_add_new_anon_rmap` in B).
    let Some(child_av) = mm.vmas[B].anon_vma.get() else {
        harness_fail("root_reuse_vs_reclaim", "the child has no anon_vma".into());
    };
    map_page_in(&mm, 0, child_av, 2, 1, 0x2000);

    let m0 = mm.clone();
    let cpu0 = spawn_cpu(0, move || {
        R::<V>::page_referenced_anon(&m0, 0);
    });
    let m1 = mm.clone();
    let cpu1 = spawn_cpu(1, move || {
        // exit_mmap() of the child: unmap_vmas, free_pgtables, remove_vma.
        zap_pte(&m1, B, 0x2000);
        R::<V>::free_pgtables_unlink(&m1, B);
        kmem_cache_free_vma(&m1, B);
        // MODEL: the child's mm is gone (mmput): its vma list is no longer walked.
        m1.mmap[1].set(None);
        // The parent's first write fault in C: do_anonymous_page -> anon_vma_prepare(C).
        R::<V>::anon_vma_prepare(&m1, C, 1);
    });
    join(cpu0);
    join(cpu1);
    check_mm::<R<V>>(&mm);
}

/// S3 soak (shuttle): one writer runs mprotect case 4 from a vma without anon_vma, a brk, a
/// merge that moves a vma's start and a split, while two CPUs migrate pages of the moving vmas
/// and a third walks the rmap of a page that stays mapped.
///
/// * setup: A [0x1000, 0x3000) pgoff 1 without anon_vma; B [0x3000, 0x6000) pgoff 3 with P
///   (index 4) at 0x4000 and Q (index 5) at 0x5000; C [0x8000, 0xa000) pgoff 8 with R (index 9)
///   at 0x9000; B and C on anon_vma 0; pages 3 and 4 are migration targets.
/// * CPU0: `vma_adjust(A, 0x1000, 0x2000, 1)` (case 4); `vma_adjust(B, 0x2000, 0x7000, 2)` (vm_end
///   only); `vma_adjust(C, 0x7000, 0xa000, 7)` (case 3/8); `split_vma(C, 0x9000)`.
/// * CPU1: migrate P; CPU2: migrate R; CPU3: walk Q four times (each must find it).
pub fn vma_soak<V: VmaAdjust>() {
    let mm = mm(4, 1, 5, 12);
    setup_vma::<R<V>>(&mm, A, (0x1000, 0x3000, 1), None, None);
    setup_vma::<R<V>>(&mm, B, (0x3000, 0x6000, 3), Some(A), Some(0));
    setup_vma::<R<V>>(&mm, C, (0x8000, 0xa000, 8), Some(B), Some(0));
    map_page(&mm, 0, 0, 4, 0x4000); // P
    map_page(&mm, 1, 0, 5, 0x5000); // Q
    map_page(&mm, 2, 0, 9, 0x9000); // R
    let m0 = mm.clone();
    let mut hs = vec![spawn_cpu(0, move || {
        V::vma_adjust(&m0, A, 0x1000, 0x2000, 1, None);
        V::vma_adjust(&m0, B, 0x2000, 0x7000, 2, None);
        V::vma_adjust(&m0, C, 0x7000, 0xa000, 7, None);
        R::<V>::split_vma::<V>(&m0, C, NEW, 0x9000, false);
    })];
    let m1 = mm.clone();
    hs.push(spawn_cpu(1, move || {
        unmap_and_move::<R<V>>(&m1, 0, 3);
    }));
    let m2 = mm.clone();
    hs.push(spawn_cpu(2, move || {
        unmap_and_move::<R<V>>(&m2, 2, 4);
    }));
    let m3 = mm.clone();
    hs.push(spawn_cpu(3, move || {
        for _ in 0..4 {
            check_walk::<R<V>>(&m3, 1, 1);
        }
    }));
    for h in hs {
        join(h);
    }
    check_mm::<R<V>>(&mm);
}

// ---------------------------------------------------------------------------------------------
// The sequential model

/// One `vma_adjust` of the sequential S3 model, with the lock decision each variant makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VmaOp {
    /// The initial state (first in a sequence): which of A and B has an anon_vma (and pages).
    Setup { a_anon: bool, b_anon: bool },
    /// brk: A's vm_end grows by a page (no insert, no importer, start unchanged).
    BrkGrow,
    /// `vma_merge` into the next vma: B's vm_start and vm_pgoff move down a page.
    MergeDown,
    /// `split_vma` of B at its last page (insert).
    Split,
    /// mprotect case 4: A shrinks by a page and B grows down into it (importer = B,
    /// adjust_next < 0).
    ShiftBoundaryDown,
    /// mprotect case 5: A grows by a page into B (importer = A, adjust_next > 0).
    ShiftBoundaryUp,
    /// mprotect case 1 (vma_merge of the gap-less next): A takes all of B (remove_next).
    MergeNext,
}

/// The facts of one `vma_adjust` call that the lock conditions read: `insert`, `importer`,
/// `start != vma->vm_start`, `adjust_next != 0`, and whether `vma` and `next` have an anon_vma
/// (before the call).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub insert: bool,
    pub importer: bool,
    pub start_moves: bool,
    pub adjust_next: bool,
    /// The importer is `vma` (cases 1, 5, 6) rather than `next` (case 4).
    pub imports_into_vma: bool,
    pub vma_anon: bool,
    pub next_anon: bool,
}

/// Does `variant` take an anon_vma lock in `vma_adjust` for a call with these facts? The
/// decision table of each variant's code, written from the kernel source (None: no row for that
/// variant, the decision is then not checked):
///
/// * 2.6.31 era: the overlap branches preset `anon_vma = next->anon_vma`; then
///   `if (vma->anon_vma && <condition>) anon_vma = vma->anon_vma`; lock if `anon_vma`.
/// * 2.6.34 era: the branches first give the importer the exporter's anon_vma
///   (`anon_vma_clone`); the condition reads `vma->anon_vma` after that; Lespinasse's fix adds
///   `else if (adjust_next && next->anon_vma)`.
pub fn takes_lock(variant: &str, f: Facts) -> Option<bool> {
    let preset = f.importer && f.next_anon;
    let c252 = f.insert || f.importer || f.start_moves;
    // The chain era's clone: the importer gets the exporter's anon_vma before the condition.
    let vma_anon_after = f.vma_anon || (f.imports_into_vma && f.next_anon);
    let next_anon_after = f.next_anon || (f.importer && !f.imports_into_vma && f.vma_anon);
    let shaohua = vma_anon_after && (f.importer || f.start_moves);
    Some(match variant {
        "linux-2.6.31" => preset || f.vma_anon,
        "lee-v1" => preset || (f.vma_anon && (f.insert || f.importer)),
        "252c5f94" | "252c5f94-unlocked-walk" => preset || (f.vma_anon && c252),
        "252c5f94-no-insert" => preset || (f.vma_anon && (f.importer || f.start_moves)),
        "252c5f94-no-importer" => preset || (f.vma_anon && (f.insert || f.start_moves)),
        "252c5f94-no-start" => preset || (f.vma_anon && (f.insert || f.importer)),
        "252c5f94-no-presets" => f.vma_anon && c252,
        "linux-2.6.34" | "5beb4930" => false,
        "mel-v6" | "012f1800" => vma_anon_after && c252,
        "shaohua-v1" | "lespinasse-v2-no-next-lock" => shaohua,
        "lespinasse-v2"
        | "lespinasse-v2-own-lock"
        | "lespinasse-v2-unlocked-walk"
        | "lespinasse-v2-unlocked-chain-link"
        | "lespinasse-v2-unlocked-unlink" => shaohua || (f.adjust_next && next_anon_after),
        "shaohua-v1-no-importer" => vma_anon_after && f.start_moves,
        "lespinasse-v2-no-importer" => {
            (vma_anon_after && f.start_moves) || (f.adjust_next && next_anon_after)
        }
        "lespinasse-v2-no-start" => {
            (vma_anon_after && f.importer) || (f.adjust_next && next_anon_after)
        }
        _ => return None,
    })
}

/// The sequential model: random sequences of `vma_adjust` calls on two vmas, each with or
/// without an anon_vma, against a reference model of their ranges and pgoffs and the lock
/// decision table; after every step every mapped page is found by an rmap walk and the
/// anon_vma lists hold exactly the vmas that point to them.
///
/// A [0x4000, 0x6000) pgoff 4 and B [0x9000, 0xc000) pgoff 9 (pgoff = address >> 12, as for
/// anonymous mmaps, so every merge is a legal one). A vma with an anon_vma has pages: A at
/// 0x4000 and 0x5000 (its last page, which case 4 moves to B), B at 0x9000 (its first page,
/// which case 5 moves to A) and 0xb000 (its last page, which a split moves to the new vma).
pub fn vma_sequential<V: VmaAdjust>(ops: &[VmaOp]) {
    vma_sequence::<V>(ops, Check::DecisionTable)
}

/// What [`vma_sequence`] checks each step's lock against.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    /// The variant's own decision table ([`takes_lock`]): consistency with the code's reading.
    DecisionTable,
    /// The independent oracle ([`walker_can_miss`]): a step that changes what a walker reads
    /// must take the lock.
    Oracle,
}

/// The pages of the sequential model's mapped vmas: (address, page index), fixed for the run
/// (vma_adjust never moves a pte; it moves the vma boundaries around them).
fn sequential_pages(a_anon: bool, b_anon: bool) -> Vec<(usize, usize)> {
    let mut pages = Vec::new();
    if a_anon {
        pages.extend([(0x4000, 4), (0x5000, 5)]);
    }
    if b_anon {
        pages.extend([(0x9000, 9), (0xb000, 11)]);
    }
    pages
}

/// The oracle of the lock decision, written from what an rmap walk reads and not from any
/// variant's condition. A walker reaches a mapped page through its anon_vma, visits the vmas
/// on that anon_vma's list, and for each computes `vma_address()`: `vm_start + ((index -
/// vm_pgoff) << PAGE_SHIFT)`, kept if it falls in `[vm_start, vm_end)`. It reads those three
/// words at any moment of an unlocked `vma_adjust`, which writes them one at a time, and the
/// inserted or removed vma's list membership at any moment too. So for a page mapped before
/// and after the step, the walk can miss it when
/// * the vma that covers it changes (a boundary moves across it: mprotect cases 4 and 5, a
///   split, a merge that removes the next vma): the walk may read the old vma's new bounds and
///   the new vma's old ones, or find the new vma not yet on the list; or
/// * the vma that covers it keeps it but changes `vm_start` or `vm_pgoff` (a merge that moves
///   the next vma down): a walk that reads one new and one old value computes another address.
///
/// A step that only moves `vm_end` over no mapped page (brk growth) changes nothing a walk of a
/// mapped page reads. A page is found at every moment, and the move cannot hide it, when one of
/// the two vmas it moves between stays on the anon_vma with fixed bounds through the whole of
/// `vma_adjust` (`stable`): the new vma of a split in the chain era, which `__split_vma` links
/// with its final bounds first, or a removed `next` in the chain era, which keeps its bounds
/// and stays linked until `anon_vma_merge()` unlinks it, after the writes and under the lock.
/// These two are facts of the era's rmap code (`AnonRmap`), not of any lock condition.
/// `before` and `after` are the reference model's (start, end, pgoff) of each vma; the answer
/// names the page and the change, or None when no walk can miss.
pub fn walker_can_miss(
    before: &[Option<(usize, usize, usize)>],
    after: &[Option<(usize, usize, usize)>],
    pages: &[(usize, usize)],
    stable: &[VmaId],
) -> Option<String> {
    let covering = |vmas: &[Option<(usize, usize, usize)>], addr: usize| {
        vmas.iter()
            .position(|v| v.is_some_and(|(s, e, _)| s <= addr && addr < e))
    };
    for &(addr, index) in pages {
        let (Some(vb), Some(va)) = (covering(before, addr), covering(after, addr)) else {
            continue;
        };
        if vb != va && !stable.contains(&va) && !stable.contains(&vb) {
            return Some(format!(
                "page index {index} at {addr:#x} moves from vma#{vb} to vma#{va}"
            ));
        }
        if vb != va {
            continue;
        }
        let (sb, _, pb) = before[vb].expect("covering");
        let (sa, _, pa) = after[va].expect("covering");
        if (sb, pb) != (sa, pa) {
            return Some(format!(
                "vma#{vb}, which maps page index {index} at {addr:#x}, moves (vm_start, vm_pgoff) from ({sb:#x}, {pb}) to ({sa:#x}, {pa})"
            ));
        }
    }
    None
}

/// The sequential model's steps, each checked against `check`.
fn vma_sequence<V: VmaAdjust>(ops: &[VmaOp], check: Check) {
    let (a_anon, b_anon) = match ops.first() {
        Some(VmaOp::Setup { a_anon, b_anon }) => (*a_anon, *b_anon),
        _ => (true, true),
    };
    let mm = Mm::new(MmSize {
        vmas: 4,
        anon_vmas: 1,
        pages: 4,
        ptes: 16,
        mms: 1,
    });
    // reference: (start, end, pgoff) of A, B and the split-off vma
    let mut r: [Option<(usize, usize, usize)>; 4] = [
        Some((0x4000, 0x6000, 4)),
        Some((0x9000, 0xc000, 9)),
        None,
        None,
    ];
    setup_vma::<R<V>>(&mm, A, (0x4000, 0x6000, 4), None, a_anon.then_some(0));
    setup_vma::<R<V>>(&mm, B, (0x9000, 0xc000, 9), Some(A), b_anon.then_some(0));
    if a_anon {
        map_page(&mm, 0, 0, 4, 0x4000);
        map_page(&mm, 1, 0, 5, 0x5000);
    }
    if b_anon {
        map_page(&mm, 2, 0, 9, 0x9000);
        map_page(&mm, 3, 0, 11, 0xb000);
    }
    let pages = sequential_pages(a_anon, b_anon);
    for op in ops {
        let r_before = r;
        let a = r[A].expect("A stays");
        let anon = |v: VmaId| mm.vmas[v].anon_vma.get().is_some();
        let before = adjust_locks(&mm);
        let facts = |insert,
                     importer,
                     start_moves,
                     adjust_next,
                     into_vma,
                     vma: VmaId,
                     next: Option<VmaId>| Facts {
            insert,
            importer,
            start_moves,
            adjust_next,
            imports_into_vma: into_vma,
            vma_anon: anon(vma),
            next_anon: next.is_some_and(anon),
        };
        let b = r[B];
        let applied: Option<Facts> = match (op, b) {
            (VmaOp::BrkGrow, Some(b)) if a.1 + PAGE_SIZE <= b.0 => {
                let f = facts(false, false, false, false, false, A, Some(B));
                V::vma_adjust(&mm, A, a.0, a.1 + PAGE_SIZE, a.2, None);
                r[A] = Some((a.0, a.1 + PAGE_SIZE, a.2));
                Some(f)
            }
            (VmaOp::MergeDown, Some(b)) if b.0 - PAGE_SIZE >= a.1 => {
                let f = facts(false, false, true, false, false, B, r[NEW].map(|_| NEW));
                V::vma_adjust(&mm, B, b.0 - PAGE_SIZE, b.1, b.2 - 1, None);
                r[B] = Some((b.0 - PAGE_SIZE, b.1, b.2 - 1));
                Some(f)
            }
            (VmaOp::Split, Some(b)) if r[NEW].is_none() && b.1 - b.0 >= 2 * PAGE_SIZE => {
                let at = b.1 - PAGE_SIZE;
                let f = facts(true, false, false, false, false, B, None);
                R::<V>::split_vma::<V>(&mm, B, NEW, at, false);
                r[NEW] = Some((at, b.1, b.2 + ((at - b.0) >> PAGE_SHIFT)));
                r[B] = Some((b.0, at, b.2));
                Some(f)
            }
            (VmaOp::ShiftBoundaryDown, Some(b)) if a.1 == b.0 && a.1 - a.0 >= 2 * PAGE_SIZE => {
                let f = facts(false, true, false, true, false, A, Some(B));
                V::vma_adjust(&mm, A, a.0, a.1 - PAGE_SIZE, a.2, None);
                r[A] = Some((a.0, a.1 - PAGE_SIZE, a.2));
                r[B] = Some((b.0 - PAGE_SIZE, b.1, b.2 - 1));
                Some(f)
            }
            (VmaOp::ShiftBoundaryUp, Some(b)) if a.1 == b.0 && b.1 - b.0 >= 2 * PAGE_SIZE => {
                let f = facts(false, true, false, true, true, A, Some(B));
                V::vma_adjust(&mm, A, a.0, a.1 + PAGE_SIZE, a.2, None);
                r[A] = Some((a.0, a.1 + PAGE_SIZE, a.2));
                r[B] = Some((b.0 + PAGE_SIZE, b.1, b.2 + 1));
                Some(f)
            }
            (VmaOp::MergeNext, Some(b)) if a.1 == b.0 => {
                let f = facts(false, true, false, false, true, A, Some(B));
                V::vma_adjust(&mm, A, a.0, b.1, a.2, None);
                r[A] = Some((a.0, b.1, a.2));
                r[B] = None;
                Some(f)
            }
            _ => None,
        };
        let took = adjust_locks(&mm) > before;
        if applied.is_some() && check == Check::Oracle {
            // The era's vmas that stay linked with fixed bounds through vma_adjust.
            let stable: &[VmaId] = match op {
                VmaOp::Split if R::<V>::SPLIT_LINKS_NEW_BEFORE_ADJUST => &[NEW],
                VmaOp::MergeNext if R::<V>::REMOVED_NEXT_UNLINKED_AFTER_ADJUST => &[B],
                _ => &[],
            };
            if let (false, Some(why)) = (took, walker_can_miss(&r_before, &r, &pages, stable)) {
                fail(
                    "vma_adjust",
                    Invariant::RmapMiss,
                    format!(
                        "{op:?}: {} takes no anon_vma lock, but {why}: an rmap walk that reads the vma mid-update can miss the page (the oracle, proofs/vma.oracle.md)",
                        V::META.id
                    ),
                );
            }
        }
        if let (Some(f), Check::DecisionTable) = (applied, check) {
            if let Some(want) = takes_lock(V::META.id, f) {
                if took != want {
                    harness_fail(
                        "vma_sequential",
                        format!(
                            "{op:?} {f:?}: {} took an anon_vma lock: {took}; the decision table says {want}",
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
        check_mm::<R<V>>(&mm);
    }
}

/// proptest's operations for [`vma_sequential`].
fn vma_op() -> impl Strategy<Value = VmaOp> {
    prop_oneof![
        Just(VmaOp::BrkGrow),
        Just(VmaOp::MergeDown),
        Just(VmaOp::Split),
        Just(VmaOp::ShiftBoundaryDown),
        Just(VmaOp::ShiftBoundaryUp),
        Just(VmaOp::MergeNext),
    ]
}

/// Random sequences for the sequential models: a random initial state (which vmas have an
/// anon_vma) and up to 16 steps.
fn vma_ops() -> impl Strategy<Value = Vec<VmaOp>> {
    (
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(vma_op(), 0..16),
    )
        .prop_map(|(a_anon, b_anon, ops)| {
            let mut seq = vec![VmaOp::Setup { a_anon, b_anon }];
            seq.extend(ops);
            seq
        })
}

/// [`vma_sequence`] against the oracle ([`walker_can_miss`]) on [`vma_ops`]'s sequences.
fn oracle_proptest<V: VmaAdjust>(settings: &Settings) -> Exploration {
    sequential::run(settings, vma_ops(), |ops: &[VmaOp]| {
        vma_sequence::<V>(ops, Check::Oracle)
    })
}

/// [`vma_sequential`] on [`vma_ops`]'s sequences.
fn sequential_proptest<V: VmaAdjust>(settings: &Settings) -> Exploration {
    sequential::run(settings, vma_ops(), vma_sequential::<V>)
}

// ---------------------------------------------------------------------------------------------
// The anon_vma reuse model (H-15)

/// One of the forked child's own vmas in the reuse model ([`vma_reuse`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Own {
    /// F [0x1000, 0x2000) pgoff 1, `VM_WRITE | VM_EXEC`: below D.
    F,
    /// D [0x2000, 0x4000) pgoff 2, `VM_READ | VM_WRITE | VM_EXEC`: just below C.
    D,
    /// E [0x6000, 0x8000) pgoff 6, `VM_READ | VM_WRITE | VM_EXEC`: just above C.
    E,
}

/// One step of the reuse model ([`vma_reuse`]), in the forked child's mm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReuseOp {
    /// The child's first write fault in the vma: `do_anonymous_page` -> `anon_vma_prepare(vma)`
    /// takes the anon_vma `find_mergeable_anon_vma(vma)` finds, or a new one, and the new page
    /// is mapped at the vma's first address with that anon_vma (`page_add_new_anon_rmap`).
    Fault(Own),
    /// `mprotect(vma)` to C's protection (`VM_READ | VM_WRITE`), after its first write fault:
    /// `mprotect_fixup` -> `vma_merge()` for the whole vma, then `vm_flags = newflags`.
    Mprotect(Own),
}

/// The protection of the parent's vma P and of the child's copy C.
const RW: usize = VM_READ | VM_WRITE;
const P: VmaId = 0;
const CHILD: VmaId = 1;

impl Own {
    /// (vma slot, bounds, flags before the mprotect, page, anon_vma a fault allocates).
    fn layout(self) -> (VmaId, (usize, usize, usize), usize, PageId, AnonVmaId) {
        match self {
            Own::D => (2, (0x2000, 0x4000, 2), RW | VM_EXEC, 2, 2),
            Own::E => (3, (0x6000, 0x8000, 6), RW | VM_EXEC, 3, 3),
            Own::F => (4, (0x1000, 0x2000, 1), VM_WRITE | VM_EXEC, 4, 4),
        }
    }
}

/// The reuse model: the parent's vma P (mm 0) [0x4000, 0x6000) pgoff 4, `VM_READ | VM_WRITE`,
/// on anon_vma 0, pages index 4 and 5 at 0x4000 and 0x5000; fork: the child's copy C (mm 1)
/// maps both (2.6.31: C is on anon_vma 0; chain era: `anon_vma_fork` links C on anon_vma 0 and
/// on its own anon_vma 1, and `C->anon_vma` is 1). The child's own vmas F, D and E ([`Own`]),
/// without anon_vma, have flags that differ from C's only in what mprotect changes: they are
/// separate vmas, which `find_mergeable_anon_vma` may give a neighbour's anon_vma and an
/// mprotect to C's protection may merge. The steps ([`ReuseOp`]) run in any order; after each,
/// `check_mm`: every anon_vma's list holds exactly the vmas (avcs) that name it, and an rmap
/// walk finds every mapping of every page.
///
/// An own vma is mprotected only after its first write fault (it has an anon_vma then), so
/// every merge here is of vmas that have one: merging a vma without one into C is the
/// importer path of H-14, which the sequential model covers (vma.seq). The reuse question is
/// what a fault's reuse leaves for a later merge.
pub fn vma_reuse<V: VmaAdjust>(ops: &[ReuseOp]) {
    let mm = Mm::new(MmSize {
        vmas: 5,
        anon_vmas: 5,
        pages: 5,
        ptes: 16,
        mms: 2,
    });
    setup_vma::<R<V>>(&mm, P, (0x4000, 0x6000, 4), None, Some(0));
    WRITE_ONCE(&mm.vmas[P].vm_flags, RW);
    map_page(&mm, 0, 0, 4, 0x4000);
    map_page(&mm, 1, 0, 5, 0x5000);
    fork_vma::<R<V>>(&mm, CHILD, P, 1);
    WRITE_ONCE(&mm.vmas[CHILD].vm_flags, RW);
    map_page_shared(&mm, 0, 1, 0x4000);
    map_page_shared(&mm, 1, 1, 0x5000);
    // the child's mmaps: F and D before C in its list, E after it
    for (own, prev) in [(Own::D, None), (Own::F, None), (Own::E, Some(CHILD))] {
        let (vma, bounds, flags, _, _) = own.layout();
        mm.vmas[vma].vm_mm.set(1);
        setup_vma::<R<V>>(&mm, vma, bounds, prev, None);
        WRITE_ONCE(&mm.vmas[vma].vm_flags, flags);
    }
    check_mm::<R<V>>(&mm);

    for op in ops {
        match *op {
            ReuseOp::Fault(own) => {
                let (vma, (start, _, pgoff), _, page, fresh) = own.layout();
                if mm.vmas[vma].freed.get() || mm.vmas[vma].anon_vma.get().is_some() {
                    continue;
                }
                // anon_vma_prepare(vma): find_mergeable_anon_vma(vma), else anon_vma_alloc().
                let av = V::find_mergeable_anon_vma(&mm, vma).unwrap_or(fresh);
                R::<V>::anon_vma_prepare(&mm, vma, av);
                map_page_in(&mm, page, av, pgoff, 1, start);
            }
            ReuseOp::Mprotect(own) => {
                let (vma, ..) = own.layout();
                let v = &mm.vmas[vma];
                if v.freed.get() || v.anon_vma.get().is_none() || READ_ONCE(&v.vm_flags) == RW {
                    continue;
                }
                let merged = mprotect_merge::<V>(&mm, vma);
                // mprotect_fixup: `vma->vm_flags = newflags` (on the merged vma, or this one)
                WRITE_ONCE(&mm.vmas[merged].vm_flags, RW);
            }
        }
        check_mm::<R<V>>(&mm);
    }
}

/// `mprotect_fixup(vma, &prev, vma->vm_start, vma->vm_end, newflags = RW)`'s
/// `vma_merge(mm, prev, start, end, newflags, vma->anon_vma, NULL, vma->vm_pgoff, NULL)` for a
/// whole vma of the child (mm 1): `area` is `vma`, which ends at `end`, so `next` is the vma
/// after it (cases 6, 7, 8). The case selection is vma_merge's, written for this call; the
/// tests are the kernel's (`can_vma_merge_after`, `can_vma_merge_before`,
/// `is_mergeable_anon_vma`). Returns the vma that holds the range afterwards. Not written:
/// `vma_merge`'s `VM_SPECIAL` test (the models' flags have none), `mpol_equal` (no
/// mempolicies) and `if (err) return NULL` after `vma_adjust` (it does not fail here: the
/// avc pool is sized for the model).
fn mprotect_merge<V: VmaAdjust>(mm: &Mm, vma: VmaId) -> VmaId {
    let bounds = |v: VmaId| {
        let x = &mm.vmas[v];
        (
            READ_ONCE(&x.vm_start),
            READ_ONCE(&x.vm_end),
            READ_ONCE(&x.vm_pgoff),
        )
    };
    let (start, end, pgoff) = bounds(vma);
    let pglen = (end - start) >> PAGE_SHIFT;
    let anon_vma = mm.vmas[vma].anon_vma.get();
    let prev = find_vma_prev(mm, 1, start);
    let next = mm.vmas[vma].vm_next.get();
    let next_ok = next.filter(|&n| {
        bounds(n).0 == end && can_vma_merge_before(mm, n, RW, anon_vma, false, pgoff + pglen)
    });
    // Can it merge with the predecessor?
    if let Some(p) = prev
        .filter(|&p| bounds(p).1 == start && can_vma_merge_after(mm, p, RW, anon_vma, false, pgoff))
    {
        let (p_start, _, p_pgoff) = bounds(p);
        match next_ok.filter(|&n| {
            is_mergeable_anon_vma(mm.vmas[p].anon_vma.get(), mm.vmas[n].anon_vma.get())
        }) {
            // cases 1, 6: vma_adjust(prev, prev->vm_start, next->vm_end, prev->vm_pgoff, NULL)
            Some(n) => V::vma_adjust(mm, p, p_start, bounds(n).1, p_pgoff, None),
            // cases 2, 5, 7: vma_adjust(prev, prev->vm_start, end, prev->vm_pgoff, NULL)
            None => V::vma_adjust(mm, p, p_start, end, p_pgoff, None),
        };
        return p;
    }
    // Can this new request be merged in front of next? (case 4 needs addr < prev->vm_end: not
    // for a whole vma)
    if let Some(n) = next_ok {
        // cases 3, 8: vma_adjust(area, addr, next->vm_end, next->vm_pgoff - pglen, NULL)
        let (_, n_end, n_pgoff) = bounds(n);
        V::vma_adjust(mm, vma, start, n_end, n_pgoff - pglen, None);
    }
    vma
}

/// Every order of the reuse model's six steps ([`vma_reuse`]): each takes effect at most once
/// (a fault only in a vma without an anon_vma, an mprotect only of a vma not yet at C's
/// protection, neither in a vma merged away), and a step that does not take effect changes
/// nothing, so every sequence of steps behaves as one of these (proofs/vma.reuse.md).
fn reuse_every_order<V: VmaAdjust>(_: &Settings) -> Exploration {
    let steps = [
        ReuseOp::Fault(Own::F),
        ReuseOp::Fault(Own::D),
        ReuseOp::Fault(Own::E),
        ReuseOp::Mprotect(Own::F),
        ReuseOp::Mprotect(Own::D),
        ReuseOp::Mprotect(Own::E),
    ];
    sequential::every_order(&steps, vma_reuse::<V>)
}

// ---------------------------------------------------------------------------------------------
// The swap-in model (H-16)

/// One step of the swap-in model ([`vma_swapin`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwapinOp {
    /// A fault of the parent (mm 0) or the child (mm 1) at 0x4000, where reclaim left a swap
    /// entry: `do_swap_page` finds the page in the swap cache, locks it, `set_pte_at`, then
    /// `page_add_anon_rmap(page, vma, address)`, and unlocks it.
    SwapIn(usize),
    /// The child exits (`exit_mmap`): `unmap_vmas` (its pte, if mapped), `free_pgtables`
    /// unlinks its vma from its anon_vmas (an anon_vma left empty is freed), `remove_vma`.
    ExitChild,
}

/// The swap-in model: the parent's vma P (mm 0) [0x4000, 0x6000) pgoff 4 on anon_vma 0, its
/// page 0 (index 4) at 0x4000; fork: the child's copy C (mm 1) maps it too (2.6.31: C is on
/// anon_vma 0; chain era: `anon_vma_fork` links C on anon_vma 0 and on its own anon_vma 1, and
/// `C->anon_vma` is 1). Reclaim then swaps the page out of both (`try_to_unmap`: each pte
/// becomes a swap entry, `page_remove_rmap`), and the page stays in the swap cache with its
/// `page->mapping`. The steps ([`SwapinOp`]) run in any order; after each, `check_mm`: the
/// anon_vma lists hold exactly the vmas (avcs) that name them, and an rmap walk from
/// `page->mapping` finds every mapping of the page.
///
/// The page's first mapping after the swap-out sets `page->mapping` again
/// (`__page_set_anon_rmap`): whichever process faults first decides which anon_vma the page
/// names, and the other's mapping must be on that anon_vma's list.
pub fn vma_swapin<V: VmaAdjust>(ops: &[SwapinOp]) {
    const ADDR: usize = 0x4000;
    const PAGE: PageId = 0;
    let mm = Mm::new(MmSize {
        vmas: 2,
        anon_vmas: 2,
        pages: 1,
        ptes: 16,
        mms: 2,
    });
    setup_vma::<R<V>>(&mm, P, (0x4000, 0x6000, 4), None, Some(0));
    map_page(&mm, PAGE, 0, 4, ADDR);
    fork_vma::<R<V>>(&mm, CHILD, P, 1);
    map_page_shared(&mm, PAGE, 1, ADDR);
    check_mm::<R<V>>(&mm);
    // Reclaim swaps the page out of both processes. MODEL: the swap entry each pte gets is not
    // represented (the pte is cleared: `zap_pte`'s `page_remove_rmap` under the pte lock); a
    // SwapIn step is the fault on it.
    zap_pte(&mm, P, ADDR);
    zap_pte(&mm, CHILD, ADDR);
    ktrace!(
        "shrink_page_list",
        "page {PAGE} swapped out of both processes, in the swap cache: page->mapping kept (anon_vma#{})",
        READ_ONCE(&mm.pages[PAGE].mapping) >> 1
    );

    for op in ops {
        match *op {
            SwapinOp::SwapIn(m) => {
                let vma = if m == 0 { P } else { CHILD };
                let Some(slot) = pte_slot(&mm, vma, ADDR) else {
                    harness_fail(
                        "do_swap_page",
                        format!("{ADDR:#x} is outside the page table"),
                    );
                };
                if mm.vmas[vma].freed.get() || READ_ONCE(&mm.ptes[slot]) != PTE_NONE {
                    continue;
                }
                // do_swap_page(): page = lookup_swap_cache(entry); lock_page(page); ...
                if !trylock_page(&mm, PAGE) {
                    harness_fail("do_swap_page", "the page is locked".into());
                }
                // set_pte_at(mm, address, page_table, pte);
                WRITE_ONCE(&mm.ptes[slot], PAGE);
                ktrace!(
                    "do_swap_page",
                    "mm {m}: fault at {ADDR:#x} (vma#{vma}): page {PAGE} found in the swap cache, locked, pte set"
                );
                // page_add_anon_rmap(page, vma, address);
                page_add_anon_rmap::<V>(&mm, PAGE, vma, ADDR);
                unlock_page(&mm, PAGE);
            }
            SwapinOp::ExitChild => {
                if mm.vmas[CHILD].freed.get() {
                    continue;
                }
                // exit_mmap() of the child: unmap_vmas, free_pgtables, remove_vma.
                if pte_slot(&mm, CHILD, ADDR).is_some_and(|s| READ_ONCE(&mm.ptes[s]) != PTE_NONE) {
                    zap_pte(&mm, CHILD, ADDR);
                }
                R::<V>::free_pgtables_unlink(&mm, CHILD);
                kmem_cache_free_vma(&mm, CHILD);
                // MODEL: the child's mm is gone (mmput): its vma list is no longer walked.
                mm.mmap[1].set(None);
            }
        }
        check_mm::<R<V>>(&mm);
    }
}

/// Every order of the swap-in model's three steps ([`vma_swapin`]): each takes effect at most
/// once (a fault only where the process has no pte, neither in a vma freed by the exit; the
/// exit once), and a step that does not take effect changes nothing, so every sequence of
/// steps behaves as one of these (proofs/vma.swapin.md).
fn swapin_every_order<V: VmaAdjust>(_: &Settings) -> Exploration {
    let steps = [
        SwapinOp::SwapIn(0),
        SwapinOp::SwapIn(1),
        SwapinOp::ExitChild,
    ];
    sequential::every_order(&steps, vma_swapin::<V>)
}
