//! The shim's bit spinlock under loom: three CPUs contending on one bit lock terminate (a
//! waiter blocks instead of spinning: proofs/README.md, "Checker pitfalls"), mutual exclusion holds, and the
//! same test catches an unlock without Release (so the check can fail); a named spinlock's
//! events sit where the lock changes hands in every interleaving.
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

/// Message passing without barriers: CPU1 writes `data` then `flag`; CPU0 sees `flag` set and
/// reads `data` (issue #20: a weak-memory read names the newer store it missed). The failing
/// execution's trace must say, on CPU0's line, which word its load read (`msg->data`), which
/// store it read (the setup's value) and which store of CPU1 it did not see, placed between
/// the two steps it came between.
#[test]
fn a_stale_read_names_the_store_it_missed() {
    use mmcheck::ktrace;
    let e = explore(&settings(None), || {
        let flag = Arc::new(unsigned_long::new(0));
        let data = Arc::new(unsigned_long::named(
            0,
            mmcheck::sync::CName {
                owner: "msg",
                id: None,
                field: "data",
            },
        ));
        let (f1, d1) = (flag.clone(), data.clone());
        let writer = spawn_cpu(1, move || {
            WRITE_ONCE(&d1, 42);
            ktrace!("writer", "data = 42");
            WRITE_ONCE(&f1, 1);
            ktrace!("writer", "flag = 1");
        });
        let reader = spawn_cpu(0, move || {
            if READ_ONCE(&flag) == 1 {
                ktrace!("reader", "flag = 1");
                let d = READ_ONCE(&data);
                ktrace!("reader", "data = {d}");
                if d != 42 {
                    mmcheck::trace::fail(
                        "reader",
                        mmcheck::trace::Invariant::BugOn,
                        "data not yet 42".to_string(),
                    );
                }
            }
        });
        join(writer);
        join(reader);
    })
    .unwrap();
    let f = e
        .failure
        .expect("loom finds the message-passing reordering");
    let line = f
        .trace
        .iter()
        .find(|ev| ev.func == "reader" && ev.event.starts_with("data = 0"))
        .unwrap_or_else(|| panic!("no stale read of data in {f}"));
    assert!(
        line.event.contains(
            "[weak memory: CPU0's load of msg->data read 0x0 (the word's value at setup); CPU1's store before step 1 = 0x2a not yet visible to it]"
        ),
        "{f}"
    );
    // The load of `flag` read the newest store: its line has no note.
    let flag_line = f
        .trace
        .iter()
        .find(|ev| ev.func == "reader" && ev.event.starts_with("flag"))
        .expect("the reader saw the flag");
    assert!(!flag_line.event.contains("weak memory"), "{f}");
}

/// A named spinlock's events under loom (issue #20): in every interleaving of two CPUs taking
/// one lock, the trace shows each CPU's `taken` and `released` around its critical section and
/// never two holders: the acquisition is recorded after loom's lock returns, the release
/// before loom's unlock. The executions record as they run (not only a failure's rerun), and
/// each checks its own trace.
#[test]
fn named_lock_events_are_where_the_lock_changes_hands() {
    use mmcheck::sync::{spin_lock, CName, SpinLock};
    let e = explore(&settings(None), || {
        mmcheck::trace::set_recording(true);
        let lock = Arc::new(SpinLock::named(
            0usize,
            CName {
                owner: "zone",
                id: None,
                field: "lru_lock",
            },
        ));
        let hs: Vec<_> = (0..2)
            .map(|cpu| {
                let lock = lock.clone();
                spawn_cpu(cpu, move || {
                    let mut g = spin_lock(&lock);
                    *g += 1;
                    mmcheck::ktrace!("critical", "count {}", *g);
                })
            })
            .collect();
        for h in hs {
            join(h);
        }
        let trace = mmcheck::trace::snapshot();
        let locks = trace.iter().filter(|ev| ev.lock.is_some()).count();
        if let Err(why) = mmcheck::trace::check_consistency(&trace) {
            mmcheck::trace::fail("named lock test", mmcheck::trace::Invariant::SpinBug, why);
        } else if locks != 4 {
            mmcheck::trace::fail(
                "named lock test",
                mmcheck::trace::Invariant::SpinBug,
                format!("{locks} lock events, not 4: {trace:?}"),
            );
        }
    })
    .unwrap();
    println!(
        "2 CPUs on one named spinlock, unbounded: {} executions, every trace consistent",
        e.executions
    );
    assert!(
        e.failure.is_none() && e.error.is_none() && e.complete,
        "{e:?}"
    );
}
