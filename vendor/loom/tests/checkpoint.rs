//! mmcheck: a checkpoint carries what the exploration did before it (`loom::model::Progress`),
//! so a run that resumes it can report the whole exploration: the executions the checkpoint
//! records plus the resumed run's equal those of a run that was never stopped.
#![cfg(feature = "checkpoint")]
#![deny(warnings, rust_2018_idioms)]

use loom::model::{Builder, Progress};
use loom::sync::atomic::AtomicUsize;
use loom::thread;

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

/// Two threads increment one atomic twice each, the main thread once.
fn model() {
    let n = Arc::new(AtomicUsize::new(0));
    let ths: Vec<_> = (0..2)
        .map(|_| {
            let n = n.clone();
            thread::spawn(move || {
                n.fetch_add(1, Relaxed);
                n.fetch_add(1, Relaxed);
            })
        })
        .collect();
    n.fetch_add(1, Relaxed);
    for th in ths {
        th.join().unwrap();
    }
    assert_eq!(n.load(Relaxed), 5);
}

/// Executions `b` runs.
fn run(b: &Builder) -> u64 {
    let count = Arc::new(AtomicU64::new(0));
    let c = count.clone();
    b.check(move || {
        c.fetch_add(1, Relaxed);
        model();
    });
    count.load(Relaxed)
}

fn recorded(file: &std::path::Path) -> Option<Progress> {
    let text = std::fs::read_to_string(file).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    serde_json::from_value(v["progress"].clone()).unwrap()
}

#[test]
fn resumed_runs_add_up() {
    let whole = run(&Builder::new());
    assert!(whole > 60, "the model is too small for two stops: {whole}");

    let file = std::env::temp_dir().join(format!("loom-checkpoint-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let mut b = Builder::new();
    b.checkpoint_file = Some(file.clone());
    b.checkpoint_interval = 10;
    // Each stopped run returns at its 30th iteration, after the checkpoint of the path that
    // leads to it: 29 executions ran.
    b.max_permutations = Some(30);
    let mut ran = 0;
    for stop in 1..=2u64 {
        ran += run(&b);
        let p = recorded(&file).expect("a checkpoint of a new exploration records its progress");
        assert_eq!(p.iterations, 29 * stop);
        assert_eq!(p.probes, 0);
        assert!(p.seconds >= 0.0);
    }
    // A stop at max_permutations comes right after a checkpoint: nothing ran past it.
    assert_eq!(ran, 2 * 29);
    b.max_permutations = None;
    let rest = run(&b);
    assert_eq!(29 * 2 + rest, whole);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn an_older_checkpoint_has_no_progress() {
    let file = std::env::temp_dir().join(format!("loom-checkpoint-old-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&file);
    let mut b = Builder::new();
    b.checkpoint_file = Some(file.clone());
    b.checkpoint_interval = 10;
    b.max_permutations = Some(20);
    run(&b);
    // A checkpoint written before loom recorded progress: the field is absent.
    let text = std::fs::read_to_string(&file).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v.as_object_mut().unwrap().remove("progress");
    std::fs::write(&file, v.to_string()).unwrap();
    run(&b);
    // Resumed from it, the runs before are unknown, and stay unknown.
    assert_eq!(recorded(&file), None);
    let _ = std::fs::remove_file(&file);
}
