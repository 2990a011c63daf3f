//! S1 shuttle soak: the larger S1 scenario (4 CPUs, THP of order 2, split, private write,
//! free and reallocation as a hugetlbfs page) under PCT and random schedules with fixed seeds.
//! Run: `cargo test --release --features shuttle --test thp_soak`
//! Settings: MMCHECK_SOAK_SEED (default 0), MMCHECK_SOAK_ITERATIONS (default 2000 per
//! scheduler; use 100000+ for a soak).
#![cfg(feature = "shuttle")]

use mmcheck::claims::{soak_settings_from_env, SOAKS};
use mmcheck::sync::checker::{replay, soak, Scheduler};
use std::path::PathBuf;

fn schedule_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("schedules")
}

fn schedulers() -> [Scheduler; 2] {
    [Scheduler::Pct { depth: 3 }, Scheduler::Random]
}

/// 27c73ae7 holds on the S1 soak under both schedulers.
#[test]
fn s1_soak_safe_variants_hold() {
    let (seed, iterations) = soak_settings_from_env(2000).unwrap_or_else(|e| panic!("{e}"));
    for s in SOAKS.iter().filter(|s| s.area == "s1" && !s.expect_bug) {
        for sched in schedulers() {
            let e = soak(sched, seed, iterations, &schedule_dir(), || s.run()).unwrap();
            println!(
                "soak {} {:?} seed {seed}: {} iterations, {:.1}s",
                s.variant, sched, e.executions, e.seconds
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

/// The 7cb2ef56 race (and 3.11's theoretical race, S1.6) are found, and each saved schedule
/// replays to the same failure and trace.
#[test]
fn s1_soak_finds_races_and_replays_them() {
    let (seed, iterations) = soak_settings_from_env(2000).unwrap_or_else(|e| panic!("{e}"));
    for s in SOAKS.iter().filter(|s| s.area == "s1" && s.expect_bug) {
        let found = schedulers().into_iter().find_map(|sched| {
            let e = soak(sched, seed, iterations, &schedule_dir(), || s.run()).unwrap();
            println!(
                "soak {} {:?} seed {seed}: {} iterations, {:.1}s",
                s.variant, sched, e.executions, e.seconds
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
        let (sched, failure, file) = found
            .unwrap_or_else(|| panic!("{}: race not found in {iterations} iterations", s.variant));
        println!("{} under {sched:?}: {failure}", s.variant);
        let file = file.expect("a failing schedule is saved");
        println!("replay with: cargo xtask replay {file}");
        let schedule = std::fs::read_to_string(&file).unwrap();
        let r = replay(&schedule, || s.run()).unwrap();
        let again = r
            .failure
            .expect("the saved schedule reproduces the failure");
        assert_eq!(again.invariant, failure.invariant);
        assert_eq!(
            again.trace, failure.trace,
            "replay gives the same kernel-level trace"
        );
    }
}
