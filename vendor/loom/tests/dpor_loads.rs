//! mmcheck: a load must not hide a race between two stores from DPOR (tokio-rs/loom#166, #392).
//!
//! Upstream loom 0.7.3 made an atomic store depend on the object's *last* access only. When that
//! access was a load (of any thread, often the storing thread's own), the store's race with an
//! earlier store or load of another thread got no backtrack point and its other order was never
//! run. Each test compares the outcomes of a model with and without a redundant load: they must
//! be the same set, and must hold the outcome the load used to hide.
#![deny(warnings, rust_2018_idioms)]

use loom::model::Builder;
use loom::sync::atomic::{AtomicBool, AtomicUsize};
use loom::thread;

use std::collections::BTreeSet;
use std::sync::atomic::Ordering::{Relaxed, SeqCst};
use std::sync::{Arc, Mutex};

fn outcomes<T: Ord + Clone + Send + 'static>(
    bound: Option<usize>,
    f: impl Fn() -> T + Sync + Send + 'static,
) -> BTreeSet<T> {
    let seen = Arc::new(Mutex::new(BTreeSet::new()));
    let s = seen.clone();
    let mut b = Builder::new();
    b.preemption_bound = bound;
    b.check(move || {
        let v = f();
        s.lock().unwrap().insert(v);
    });
    let out = seen.lock().unwrap().clone();
    out
}

/// tokio-rs/loom#392: a spawned thread's load before its store left the main thread's load
/// reading only the initial value.
fn irrelevant_load(extra: bool) -> bool {
    let a1 = Arc::new(AtomicBool::new(false));
    let a2 = a1.clone();
    let th = thread::spawn(move || {
        if extra {
            let _ = a1.load(Relaxed);
        }
        a1.store(true, Relaxed);
    });
    let seen = a2.load(Relaxed);
    th.join().unwrap();
    seen
}

#[test]
fn a_storing_threads_own_load_does_not_hide_its_store() {
    for bound in [None, Some(1), Some(2)] {
        let with = outcomes(bound, || irrelevant_load(true));
        let without = outcomes(bound, || irrelevant_load(false));
        assert_eq!(with, without, "bound {bound:?}");
        assert_eq!(with, BTreeSet::from([false, true]), "bound {bound:?}");
    }
}

/// tokio-rs/loom#166: a redundant load of `key` between two stores of `key` hid an
/// interleaving of the reader's two loads with them.
fn redundant_load(extra: bool) -> (usize, usize) {
    let key = Arc::new(AtomicUsize::new(0));
    let value = Arc::new(AtomicUsize::new(0));
    let (k1, v1) = (key.clone(), value.clone());
    let t1 = thread::spawn(move || {
        k1.store(1, SeqCst);
        v1.store(1, SeqCst);
        v1.store(0, SeqCst);
        if extra {
            k1.load(SeqCst);
        }
        k1.store(0, SeqCst);
    });
    let t2 = thread::spawn(move || {
        let v = value.load(SeqCst);
        let k = key.load(SeqCst);
        (v, k)
    });
    t1.join().unwrap();
    t2.join().unwrap()
}

#[test]
fn a_redundant_load_does_not_hide_an_interleaving() {
    for bound in [None, Some(2), Some(3)] {
        let with = outcomes(bound, || redundant_load(true));
        let without = outcomes(bound, || redundant_load(false));
        assert_eq!(with, without, "bound {bound:?}");
        // Upstream with the extra load lost (1, 0): t1's own load hid its two key stores' race
        // with t2's load of key.
        assert_eq!(
            with,
            BTreeSet::from([(0, 0), (0, 1), (1, 0), (1, 1)]),
            "bound {bound:?}"
        );
    }
}

/// mmcheck's case (compound.6 on 27c73ae7): the locker reads the word before its RMW; the other
/// thread's non-atomic read-modify-write (a load, then a store) must still be able to read the
/// locked value and write it back after the unlock.
fn lost_unlock(extra: bool) -> usize {
    let flags = Arc::new(AtomicUsize::new(0));
    let f1 = flags.clone();
    let t = thread::spawn(move || {
        if extra {
            let _ = f1.load(Relaxed);
        }
        f1.fetch_or(1, SeqCst); // lock
        f1.fetch_and(!1, SeqCst); // unlock
    });
    let old = flags.load(Relaxed); // __set_bit: load ...
    flags.store(old | 2, Relaxed); // ... then store
    t.join().unwrap();
    flags.load(Relaxed)
}

#[test]
fn a_load_before_a_lock_does_not_hide_a_lost_unlock() {
    for bound in [None, Some(1), Some(2)] {
        let with = outcomes(bound, || lost_unlock(true));
        let without = outcomes(bound, || lost_unlock(false));
        assert_eq!(with, without, "bound {bound:?}");
        assert!(with.contains(&3), "bound {bound:?}: {with:?}");
    }
}
