//! S2 sequential model-based tests (proptest): random sequences of activations on two CPUs,
//! drains, isolation and putback, checked after every step against a reference model of list
//! membership, flags and counts. Runs in the std build: `cargo test`.
//!
//! eb709b0d and unbatched pass every sequence; 744ed144 fails (S2.2, sequentially: the page
//! is queued on both CPUs, activated by one drain, isolated, and the other drain "puts it
//! back") and proptest shrinks the failure to those five steps.

use mmcheck::lru::{Commit744ed144, CommitEb709b0d, Lru, Unbatched};
use mmcheck::models::lru::{lru_sequential, LruOp};
mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError, TestError, TestRunner};

fn op() -> impl Strategy<Value = LruOp> {
    prop_oneof![
        (0usize..3, 0usize..2).prop_map(|(page, cpu)| LruOp::Activate { page, cpu }),
        (0usize..2).prop_map(|cpu| LruOp::Drain { cpu }),
        (0usize..3).prop_map(|page| LruOp::Isolate { page }),
        Just(LruOp::Putback),
    ]
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: 512,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/regressions/pagevec.txt",
        ))),
        ..Config::default()
    })
}

fn check<V: Lru>(ops: &[LruOp]) -> Result<(), TestCaseError> {
    common::run_case(|| lru_sequential::<V>(ops))
}

fn holds<V: Lru>() {
    if let Err(e) = runner().run(&prop::collection::vec(op(), 0..20), |ops| check::<V>(&ops)) {
        panic!("{}: {e}", V::ID);
    }
}

#[test]
fn s2_sequential_eb709b0d_holds() {
    holds::<CommitEb709b0d>();
}

#[test]
fn s2_sequential_unbatched_holds() {
    holds::<Unbatched>();
}

#[test]
fn s2_2_sequential_744ed144_fails_and_shrinks() {
    match runner().run(&prop::collection::vec(op(), 0..20), |ops| {
        check::<Commit744ed144>(&ops)
    }) {
        Err(TestError::Fail(reason, minimal)) => {
            println!("744ed144: {reason}\nminimal sequence: {minimal:?}");
            assert!(
                minimal.len() <= 5,
                "shrinks to at most five steps: {minimal:?}"
            );
            assert!(
                minimal.iter().any(|o| matches!(o, LruOp::Isolate { .. })),
                "{minimal:?}"
            );
        }
        other => panic!("744ed144: expected a failing sequence, got {other:?}"),
    }
}
