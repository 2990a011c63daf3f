//! mmcheck's `Builder::shard`: the shards of one model are disjoint and cover the search.
#![deny(warnings, rust_2018_idioms)]

use loom::model::{Builder, Shard};
use loom::sync::atomic::AtomicUsize;
use loom::thread;

use std::collections::BTreeSet;
use std::sync::atomic::Ordering::{Relaxed, SeqCst};
use std::sync::{Arc, Mutex};

/// Two threads store and load two words with no ordering (store buffering and message passing
/// outcomes), plus an RMW: every outcome `(r1, r2, c)` the model can produce.
fn run(shard: Option<Shard>) -> (u64, BTreeSet<(usize, usize, usize)>) {
    let seen = Arc::new(Mutex::new(BTreeSet::new()));
    let executions = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut b = Builder::new();
    b.shard = shard;
    let (s, e) = (seen.clone(), executions.clone());
    b.check(move || {
        e.fetch_add(1, SeqCst);
        let x = Arc::new(AtomicUsize::new(0));
        let y = Arc::new(AtomicUsize::new(0));
        let c = Arc::new(AtomicUsize::new(0));
        let (x1, y1, c1) = (x.clone(), y.clone(), c.clone());
        let t = thread::spawn(move || {
            x1.store(1, Relaxed);
            c1.fetch_add(1, Relaxed);
            y1.load(Relaxed)
        });
        y.store(1, Relaxed);
        c.fetch_add(2, Relaxed);
        let r2 = x.load(Relaxed);
        let r1 = t.join().unwrap();
        s.lock().unwrap().insert((r1, r2, c.load(Relaxed)));
    });
    let seen = seen.lock().unwrap().clone();
    (executions.load(SeqCst), seen)
}

fn shard(depth: usize, index: u64, count: u64) -> Shard {
    Shard {
        depth,
        index,
        count,
        ..Default::default()
    }
}

#[test]
fn shards_are_disjoint_and_cover_the_search() {
    let (_, all) = run(None);
    for depth in [1, 2, 4] {
        let one = shard(depth, 0, 1);
        let (total, whole) = run(Some(one.clone()));
        assert_eq!(one.probes.load(SeqCst), 0, "one shard owns every prefix");
        assert_eq!(whole, all, "full expansion of the prefix finds what loom finds");
        let prefixes = one.prefixes.load(SeqCst);
        for count in [2, 3, 5] {
            let mut own = 0;
            let mut union = BTreeSet::new();
            for index in 0..count {
                let s = shard(depth, index, count);
                let (ran, seen) = run(Some(s.clone()));
                own += ran - s.probes.load(SeqCst);
                assert_eq!(s.prefixes.load(SeqCst), prefixes, "every shard walks the same prefixes");
                union.extend(seen);
            }
            assert_eq!(own, total, "depth {depth}, {count} shards: each execution in one shard");
            assert_eq!(union, all, "depth {depth}, {count} shards: every outcome found");
        }
    }
}
