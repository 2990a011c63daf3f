//! The shim's bit spinlock under loom: three CPUs contending on one bit lock terminate (a
//! waiter blocks instead of spinning: proofs/README.md, "Checker pitfalls"), mutual exclusion holds, and the
//! same test catches an unlock without Release (so the check can fail).
//! Run: `RUSTFLAGS="--cfg loom" cargo test --release --test sync_loom`
#![cfg(loom)]

use mmcheck::checker::{explore, ExploreSettings};
use mmcheck::sync::{
    bit_spin_lock, bit_unlock_with, join, spawn_cpu, unsigned_long, Ordering, READ_ONCE, WRITE_ONCE,
};
use std::sync::Arc;

const BIT: u32 = 24;

/// `cpus` CPUs each take the lock and do a non-atomic increment of `data` under it.
fn contenders(cpus: usize, unlock: Ordering) {
    let lock = Arc::new(unsigned_long::new(0));
    let data = Arc::new(unsigned_long::new(0));
    let hs: Vec<_> = (0..cpus)
        .map(|cpu| {
            let (lock, data) = (lock.clone(), data.clone());
            spawn_cpu(cpu, move || {
                bit_spin_lock(BIT, &lock);
                let v = READ_ONCE(&data);
                WRITE_ONCE(&data, v + 1);
                bit_unlock_with(BIT, &lock, unlock);
            })
        })
        .collect();
    for h in hs {
        join(h);
    }
    let v = READ_ONCE(&data);
    if v != cpus {
        mmcheck::trace::fail(
            "bit_spin_lock test",
            mmcheck::trace::Invariant::DataRace,
            format!("lost update under the lock: {v} of {cpus}"),
        );
    }
}

fn settings(bound: Option<usize>) -> ExploreSettings {
    ExploreSettings {
        preemption_bound: bound,
        ..Default::default()
    }
}

#[test]
fn three_contenders_terminate_and_exclude() {
    let e = explore(&settings(Some(3)), || contenders(3, Ordering::Release)).unwrap();
    println!(
        "3 CPUs on one bit lock, bound 3: {} executions, complete {}",
        e.executions, e.complete
    );
    assert!(
        e.failure.is_none() && e.error.is_none() && e.complete,
        "{e:?}"
    );
}

#[test]
fn two_contenders_unbounded() {
    let e = explore(&settings(None), || contenders(2, Ordering::Release)).unwrap();
    println!(
        "2 CPUs on one bit lock, unbounded: {} executions",
        e.executions
    );
    assert!(
        e.failure.is_none() && e.error.is_none() && e.complete,
        "{e:?}"
    );
}

#[test]
fn unlock_without_release_is_caught() {
    let e = explore(&settings(None), || contenders(2, Ordering::Relaxed)).unwrap();
    let f = e
        .failure
        .expect("a relaxed clear_bit_unlock loses an update");
    println!(
        "relaxed unlock caught after {} executions: {}",
        e.executions, f.message
    );
}
