//! Production-build benchmarks of S1 (criterion): `get_page` + `put_page` on a hugetlbfs tail
//! for linux-3.11 (locked path), 7cb2ef56 (bypass) and 27c73ae7 (pin head, PageHeadHuge, tail
//! accounting), beside the floor: a bare fetch_add/fetch_sub pair on the head's `_count`.
//! 1 thread, and 2 threads on the same compound page (each thread's time per pair).
//!
//! Run: `cargo bench --bench compound`. The seed's figures (7cb2ef56: 64K aio read 4251 -> 6510
//! MB/s, +53%; 1M +29%; 27c73ae7 gave back 4.5-13.8%) are whole-I/O-path numbers; these are
//! the refcount operations alone, which perf showed at >40% of the cycles.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mmcheck::compound::{commit_27c73ae7, commit_7cb2ef56, linux_3_11};
use mmcheck::mm::hugetlb::{alloc_fresh_huge_page, alloc_huge_page};
use mmcheck::mm::swap::{get_page, put_page, Compound};
use mmcheck::mm::{Mem, MemConfig};
use mmcheck::page::PagePtr;
use mmcheck::sync::{atomic_dec_and_test, atomic_inc};
use std::hint::black_box;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

fn hugetlbfs_page() -> (Arc<Mem>, PagePtr) {
    let m = Arc::new(Mem::new(MemConfig {
        nr_pages: 4,
        thp_order: 1,
        huge_order: 1,
        counters_cover_count: false,
    }));
    assert!(alloc_fresh_huge_page::<commit_27c73ae7::Variant>(&m));
    let head = alloc_huge_page(&m).expect("pool page");
    (m, head)
}

/// One get/put pair on the tail with variant V (the head's owner keeps it alive).
#[inline(always)]
fn pair<V: Compound>(m: &Mem, tail: PagePtr) {
    get_page::<V>(m, black_box(tail));
    put_page::<V>(m, black_box(tail));
}

/// The floor: what any scheme must do at least, one RMW on the head count each way.
#[inline(always)]
fn floor(m: &Mem, head: PagePtr) {
    let c = &m.pg(black_box(head))._count;
    atomic_inc(c);
    black_box(atomic_dec_and_test(c));
}

/// Time `iters` pairs on each of `threads` threads at once; returns the time per pair per thread.
fn contended(threads: usize, iters: u64, op: Arc<dyn Fn() + Send + Sync>) -> Duration {
    let barrier = Arc::new(Barrier::new(threads + 1));
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (b, op) = (barrier.clone(), op.clone());
            std::thread::spawn(move || {
                b.wait();
                let t = Instant::now();
                for _ in 0..iters {
                    op();
                }
                t.elapsed()
            })
        })
        .collect();
    barrier.wait();
    let total: Duration = handles.into_iter().map(|h| h.join().unwrap()).sum();
    total / threads as u32
}

fn bench_variant<V: Compound>(c: &mut Criterion, group: &str) {
    let mut g = c.benchmark_group(group);
    for threads in [1usize, 2] {
        let (m, head) = hugetlbfs_page();
        let tail = head + 1;
        let mm = m.clone();
        let op: Arc<dyn Fn() + Send + Sync> = Arc::new(move || pair::<V>(&mm, tail));
        g.bench_with_input(BenchmarkId::new(V::META.id, threads), &threads, |b, &t| {
            b.iter_custom(|iters| contended(t, iters, op.clone()))
        });
    }
    g.finish();
}

fn thp(c: &mut Criterion) {
    let group = "get_put_hugetlbfs_tail";
    bench_variant::<linux_3_11::Variant>(c, group);
    bench_variant::<commit_7cb2ef56::Variant>(c, group);
    bench_variant::<commit_27c73ae7::Variant>(c, group);
    let mut g = c.benchmark_group(group);
    for threads in [1usize, 2] {
        let (m, head) = hugetlbfs_page();
        let mm = m.clone();
        let op: Arc<dyn Fn() + Send + Sync> = Arc::new(move || floor(&mm, head));
        g.bench_with_input(BenchmarkId::new("floor", threads), &threads, |b, &t| {
            b.iter_custom(|iters| contended(t, iters, op.clone()))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = thp
}
criterion_main!(benches);
