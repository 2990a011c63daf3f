//! Shared by the shuttle soak and proptest entry points.
#![allow(dead_code)] // each test binary uses part of it

use mmcheck::claims::{soak_settings_from_env, SOAKS};
use mmcheck::sync::checker::{replay, run_once, soak, Scheduler};
use proptest::test_runner::TestCaseError;
use std::path::PathBuf;

/// Run one sequential case; a broken invariant (or a harness panic) fails the case.
pub fn run_case(f: impl FnOnce()) -> Result<(), TestCaseError> {
    let e = run_once(f);
    if let Some(f) = e.failure {
        return Err(TestCaseError::fail(format!(
            "{}: {}",
            f.invariant, f.message
        )));
    }
    if let Some(err) = e.error {
        return Err(TestCaseError::fail(format!("harness error: {err}")));
    }
    Ok(())
}

fn schedule_dir(area: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("schedules-{area}"))
}

const SCHEDULERS: [Scheduler; 2] = [Scheduler::Pct { depth: 3 }, Scheduler::Random];

/// Every variant of `area` expected to hold does, under PCT and random schedules.
pub fn safe_variants_hold(area: &str) {
    let (seed, iterations) = soak_settings_from_env(2000).unwrap_or_else(|e| panic!("{e}"));
    for s in SOAKS.iter().filter(|s| s.area == area && !s.expect_bug) {
        for sched in SCHEDULERS {
            let e = soak(sched, seed, iterations, &schedule_dir(area), || s.run()).unwrap();
            println!(
                "soak {} {sched:?} seed {seed}: {} iterations, {:.1}s",
                s.variant, e.executions, e.seconds
            );
            if let Some(f) = &e.failure {
                panic!(
                    "{} failed under {sched:?} seed {seed}: {f}\nreplay: {:?}",
                    s.variant, e.schedule_file
                );
            }
            assert!(e.error.is_none(), "{}: {:?}", s.variant, e.error);
            assert_eq!(e.executions, iterations as u64);
        }
    }
}

/// Every known-bad variant of `area` is caught, and its saved schedule replays to the same
/// failure and the same kernel-level trace.
pub fn known_bad_found_and_replayed(area: &str) {
    let (seed, iterations) = soak_settings_from_env(2000).unwrap_or_else(|e| panic!("{e}"));
    for s in SOAKS.iter().filter(|s| s.area == area && s.expect_bug) {
        let found = SCHEDULERS.into_iter().find_map(|sched| {
            let e = soak(sched, seed, iterations, &schedule_dir(area), || s.run()).unwrap();
            println!(
                "soak {} {sched:?} seed {seed}: {} iterations, {:.1}s",
                s.variant, e.executions, e.seconds
            );
            assert!(
                e.error.is_none(),
                "{}: harness error {:?}",
                s.variant,
                e.error
            );
            e.failure
                .clone()
                .map(|f| (sched, f, e.schedule_file.clone()))
        });
        let (sched, failure, file) =
            found.unwrap_or_else(|| panic!("{}: not caught in {iterations} iterations", s.variant));
        println!("{} under {sched:?}: {failure}", s.variant);
        let file = file.expect("a failing schedule is saved");
        println!("replay with: cargo xtask replay (after cargo xtask soak) / schedule file {file}");
        let schedule = std::fs::read_to_string(&file).unwrap();
        let again = replay(&schedule, || s.run())
            .unwrap()
            .failure
            .expect("the schedule reproduces the failure");
        assert_eq!(again.invariant, failure.invariant);
        assert_eq!(
            again.trace, failure.trace,
            "replay gives the same kernel-level trace"
        );
    }
}
