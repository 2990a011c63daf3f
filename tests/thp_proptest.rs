//! S1 sequential model-based tests (proptest): random sequences of get/gup/put/split on a THP
//! and a hugetlbfs page, checked step by step against a reference model of who holds which
//! reference, then torn down (munmap, pool shrink). Runs in the std build: `cargo test`.
//!
//! * linux-3.11 and 27c73ae7 pass every sequence.
//! * 7cb2ef56 fails (claim S1.4: gup_fast raises a hugetlbfs tail's _mapcount that the bypass
//!   put never drops; the pool shrink reports "Bad page state"), and proptest shrinks the
//!   failing sequence to the minimal one: a single gup_fast pin.
//!
//! Failing cases are persisted in tests/regressions/thp.txt (committed), which every variant's
//! run replays first.

use mmcheck::compound::{Commit27c73ae7, Commit7cb2ef56, Compound, Linux311};
use mmcheck::models::thp::{sequential, SeqOp};
use mmcheck::trace::Invariant;
mod common;

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError, TestError, TestRunner};

fn op() -> impl Strategy<Value = SeqOp> {
    prop_oneof![
        any::<bool>().prop_map(|thp| SeqOp::GetTail { thp }),
        any::<bool>().prop_map(|thp| SeqOp::Gup { thp }),
        (0usize..8).prop_map(SeqOp::Put),
        Just(SeqOp::Split),
    ]
}

fn ops() -> impl Strategy<Value = Vec<SeqOp>> {
    prop::collection::vec(op(), 0..24)
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: 256,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/regressions/thp.txt",
        ))),
        ..Config::default()
    })
}

fn check<V: Compound>(ops: &[SeqOp]) -> Result<(), TestCaseError> {
    common::run_case(|| sequential::<V>(ops))
}

fn holds<V: Compound>() {
    let r = runner().run(&ops(), |ops| check::<V>(&ops));
    if let Err(e) = r {
        panic!("{}: {e}", V::ID);
    }
}

#[test]
fn s1_sequential_linux_3_11_holds() {
    holds::<Linux311>();
}

#[test]
fn s1_sequential_27c73ae7_holds() {
    holds::<Commit27c73ae7>();
}

/// S1.4 found sequentially and shrunk to its minimal form.
#[test]
fn s1_4_sequential_7cb2ef56_fails_and_shrinks_to_one_gup() {
    let r = runner().run(&ops(), |ops| check::<Commit7cb2ef56>(&ops));
    match r {
        Err(TestError::Fail(reason, minimal)) => {
            println!("7cb2ef56: {reason}\nminimal sequence: {minimal:?}");
            assert!(
                reason.message().starts_with(Invariant::BadPage.name()),
                "{reason}"
            );
            assert_eq!(
                minimal,
                vec![SeqOp::Gup { thp: false }],
                "shrinks to a single gup_fast pin"
            );
        }
        other => panic!("7cb2ef56: expected a failing sequence, got {other:?}"),
    }
}
