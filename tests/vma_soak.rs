//! S3 shuttle soak: a writer doing brk growth, a start-moving merge and a split while three
//! CPUs walk the rmap, under PCT and random schedules.
//! Run: `cargo test --release --features shuttle --test vma_soak`
//! Settings: MMCHECK_SOAK_SEED (default 0), MMCHECK_SOAK_ITERATIONS (default 2000).
#![cfg(feature = "shuttle")]

use mmcheck::claims::{soak_settings_from_env, SOAKS};
use mmcheck::sync::checker::{replay, soak, Scheduler};
use std::path::PathBuf;

fn schedule_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("schedules-s3")
}

#[test]
fn s3_soak_252c5f94_and_always_lock_hold() {
    let (seed, iterations) = soak_settings_from_env(2000).unwrap_or_else(|e| panic!("{e}"));
    for s in SOAKS.iter().filter(|s| s.area == "s3" && !s.expect_bug) {
        for sched in [Scheduler::Pct { depth: 3 }, Scheduler::Random] {
            let e = soak(sched, seed, iterations, &schedule_dir(), || s.run()).unwrap();
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
        }
    }
}

#[test]
fn s3_soak_finds_lee_v1_and_no_insert_and_replays_them() {
    let (seed, iterations) = soak_settings_from_env(2000).unwrap_or_else(|e| panic!("{e}"));
    for s in SOAKS.iter().filter(|s| s.area == "s3" && s.expect_bug) {
        let found = [Scheduler::Pct { depth: 3 }, Scheduler::Random]
            .into_iter()
            .find_map(|sched| {
                let e = soak(sched, seed, iterations, &schedule_dir(), || s.run()).unwrap();
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
                e.failure.clone().map(|f| (f, e.schedule_file.clone()))
            });
        let (failure, file) =
            found.unwrap_or_else(|| panic!("{}: not caught in {iterations} iterations", s.variant));
        println!("{}: {failure}", s.variant);
        let schedule = std::fs::read_to_string(file.expect("schedule saved")).unwrap();
        let again = replay(&schedule, || s.run())
            .unwrap()
            .failure
            .expect("replays");
        assert_eq!(again.trace, failure.trace, "replay gives the same trace");
    }
}
