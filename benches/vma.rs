//! Production-build benchmarks of S3 (criterion): brk growth (`vma_adjust` of `vm_end` only)
//! while another thread runs rmap walks (`page_referenced_anon`) on the same anon_vma,
//! `linux-2.6.31` (2.6.30) vs `252c5f94`; 1 thread (no walker) and 2 threads (one walker).
//!
//! Run: `cargo bench --bench vma`. The seed's figures: +150% aim7 on a 4x8x2-CPU machine
//! (Zhang Yanmin), +3.9% on a smaller one (Lee Schermerhorn).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mmcheck::mm::vma::{map_page, setup_vma, AnonRmap, Mm, MmSize, VmaAdjust, PAGE_SIZE};
use mmcheck::vma::{commit_252c5f94, linux_2_6_31};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

type AlwaysLock = linux_2_6_31::Variant;
type Commit252c5f94 = commit_252c5f94::Variant;

fn mm<V: VmaAdjust>() -> Arc<Mm> {
    let mm = Arc::new(Mm::new(MmSize {
        vmas: 3,
        anon_vmas: 1,
        pages: 1,
        ptes: 8,
        mms: 1,
    }));
    setup_vma::<V::Rmap>(&mm, 0, (0x1000, 0x3000, 1), None, Some(0));
    setup_vma::<V::Rmap>(&mm, 1, (0x6000, 0x8000, 6), Some(0), Some(0));
    map_page(&mm, 0, 0, 6, 0x6000);
    mm
}

/// `iters` brk growths, with `walkers` threads walking the rmap meanwhile.
fn brk<V: VmaAdjust>(iters: u64, walkers: usize) -> Duration {
    let m = mm::<V>();
    let stop = Arc::new(AtomicBool::new(false));
    let hs: Vec<_> = (0..walkers)
        .map(|_| {
            let (m, stop) = (m.clone(), stop.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::hint::black_box(V::Rmap::page_referenced_anon(&m, 0));
                }
            })
        })
        .collect();
    let mut end = 0x3000usize;
    let t = Instant::now();
    for _ in 0..iters {
        end += PAGE_SIZE;
        V::vma_adjust(&m, 0, 0x1000, std::hint::black_box(end), 1, None);
    }
    let d = t.elapsed();
    stop.store(true, Ordering::Relaxed);
    for h in hs {
        h.join().unwrap();
    }
    d
}

fn vma(c: &mut Criterion) {
    let mut g = c.benchmark_group("brk_vma_adjust");
    for threads in [1usize, 2] {
        g.bench_with_input(
            BenchmarkId::new(AlwaysLock::META.id, threads),
            &threads,
            |b, &t| b.iter_custom(|iters| brk::<AlwaysLock>(iters, t - 1)),
        );
        g.bench_with_input(
            BenchmarkId::new(Commit252c5f94::META.id, threads),
            &threads,
            |b, &t| b.iter_custom(|iters| brk::<Commit252c5f94>(iters, t - 1)),
        );
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = vma
}
criterion_main!(benches);
