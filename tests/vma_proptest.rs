//! S3 sequential model-based tests (proptest): random sequences of brk growth, start-moving
//! merges, splits and mprotect boundary shifts, checked after every step against a reference
//! model of the vmas' ranges and pgoffs, rmap walks that must find every mapped page, and the
//! lock decision table (for each case: insert, importer, start moved, end moved — whether each
//! variant takes the anon_vma lock). Runs in the std build: `cargo test`.

use mmcheck::models::vma::{takes_lock, vma_sequential, VmaOp};
use mmcheck::vma::{AlwaysLock, Commit252c5f94, LeeV1, Mutant252c5f94NoInsert, VmaAdjust};
mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

fn op() -> impl Strategy<Value = VmaOp> {
    prop_oneof![
        Just(VmaOp::BrkGrow),
        Just(VmaOp::MergeDown),
        Just(VmaOp::Split),
        Just(VmaOp::ShiftBoundaryDown)
    ]
}

fn check<V: VmaAdjust>(ops: &[VmaOp]) -> Result<(), TestCaseError> {
    common::run_case(|| vma_sequential::<V>(ops))
}

fn holds<V: VmaAdjust>() {
    let mut runner = TestRunner::new(Config {
        cases: 256,
        failure_persistence: None,
        ..Config::default()
    });
    if let Err(e) = runner.run(&prop::collection::vec(op(), 0..16), |ops| check::<V>(&ops)) {
        panic!("{}: {e}", V::ID);
    }
}

/// Sequentially every variant keeps the vmas right and the rmap walks find every page (the
/// races need a second CPU); the lock each takes follows its row of the decision table.
#[test]
fn s3_sequential_every_variant_matches_reference_and_table() {
    holds::<AlwaysLock>();
    holds::<LeeV1>();
    holds::<Commit252c5f94>();
    holds::<Mutant252c5f94NoInsert>();
}

/// The decision table itself, as the issue states it.
#[test]
fn s3_lock_decision_table() {
    use VmaOp::*;
    let table = [
        // (case, always-lock, lee-v1, 252c5f94, 252c5f94-no-insert)
        (BrkGrow, true, false, false, false),
        (MergeDown, true, false, true, true),
        (Split, true, true, true, false),
        (ShiftBoundaryDown, true, true, true, true),
    ];
    for (op, always, lee, fix, no_insert) in table {
        assert_eq!(takes_lock("always-lock", op), always, "{op:?}");
        assert_eq!(takes_lock("lee-v1", op), lee, "{op:?}");
        assert_eq!(takes_lock("252c5f94", op), fix, "{op:?}");
        assert_eq!(takes_lock("252c5f94-no-insert", op), no_insert, "{op:?}");
    }
    // and each case is reachable: one step of it from the initial state
    for op in [BrkGrow, MergeDown, Split] {
        check::<Commit252c5f94>(&[op]).unwrap();
    }
    check::<Commit252c5f94>(&[BrkGrow, BrkGrow, BrkGrow, ShiftBoundaryDown]).unwrap();
}
