//! Production-build benchmarks of S2 (criterion): activate_page through one shared zone
//! `lru_lock`, `linux-2.6.37` (lock per page) vs `eb709b0d` (per-CPU pagevec of PAGEVEC_SIZE = 14),
//! 1 and 2 threads, each thread activating its own pages. Reported per activated page; the
//! `lru_lock` acquisitions per activation are counted and printed first.
//!
//! Run: `cargo bench --bench lru`. The seed's figures: 58% less total time on a 64-CPU
//! mmap-read workload; mmap-pread-seq -69.7%.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mmcheck::lru::{commit_eb709b0d, linux_2_6_37};
use mmcheck::mm::list::ListId;
use mmcheck::mm::lru::{
    add_page_to_lru_list, del_page_from_lru_list, lru_add_drain, lru_lock, Lru, PAGEVEC_SIZE,
};
use mmcheck::mm::Mem;
use mmcheck::page::{ClearPageActive, PagePtr, SetPageLRU};
use mmcheck::sync::run_as_cpu;
use mmcheck_models::lru::{add_to_page_cache_lru, machine};
use std::sync::{Arc, Barrier};

type Unbatched = linux_2_6_37::Variant;
type Eb709b0d = commit_eb709b0d::Variant;
use std::time::{Duration, Instant};

const PAGES_PER_THREAD: usize = PAGEVEC_SIZE * 64;

struct Setup {
    m: Arc<Mem>,
    pages: Vec<Vec<PagePtr>>,
}

fn setup(threads: usize) -> Setup {
    let m = machine(PAGES_PER_THREAD * threads, PAGEVEC_SIZE);
    let pages = (0..threads)
        .map(|_| {
            (0..PAGES_PER_THREAD)
                .map(|_| {
                    // the page cache keeps every page for the whole run
                    let (p, _page_cache_ref) = add_to_page_cache_lru(&m);
                    p
                })
                .collect()
        })
        .collect();
    Setup { m, pages }
}

/// Put a thread's pages back on the inactive list (untimed, between rounds).
fn deactivate(m: &Mem, pages: &[PagePtr]) {
    let _l = lru_lock(m);
    for &p in pages {
        del_page_from_lru_list(m, p, ListId::ActiveFile);
        ClearPageActive(m.pg(p));
        SetPageLRU(m.pg(p));
        add_page_to_lru_list(m, p, ListId::InactiveFile);
    }
}

/// `iters` activations per thread, timed per thread (reset rounds excluded); returns the mean
/// time per activation of one thread.
fn run<V: Lru>(s: &Setup, iters: u64) -> Duration {
    let threads = s.pages.len();
    let barrier = Arc::new(Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|cpu| {
            let m = s.m.clone();
            let pages = s.pages[cpu].clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                run_as_cpu(cpu, || {
                    barrier.wait();
                    let mut timed = Duration::ZERO;
                    let mut done = 0u64;
                    while done < iters {
                        let n = ((iters - done) as usize).min(pages.len());
                        let t = Instant::now();
                        for &p in &pages[..n] {
                            V::activate_page(&m, p);
                        }
                        lru_add_drain::<V>(&m);
                        timed += t.elapsed();
                        done += n as u64;
                        deactivate(&m, &pages[..n]);
                    }
                    timed
                })
            })
        })
        .collect();
    let total: Duration = handles.into_iter().map(|h| h.join().unwrap()).sum();
    total / threads as u32
}

fn lock_count<V: Lru>(threads: usize) -> f64 {
    let s = setup(threads);
    let before = s.m.zone.lru_lock_acquisitions.get();
    // one full round per thread, without the untimed reset
    std::thread::scope(|sc| {
        for (cpu, pages) in s.pages.iter().enumerate() {
            let m = &s.m;
            sc.spawn(move || {
                run_as_cpu(cpu, || {
                    for &p in pages {
                        V::activate_page(m, p);
                    }
                    lru_add_drain::<V>(m);
                })
            });
        }
    });
    let acq = s.m.zone.lru_lock_acquisitions.get() - before;
    acq as f64 / (threads * PAGES_PER_THREAD) as f64
}

fn pagevec(c: &mut Criterion) {
    for threads in [1, 2] {
        let u = lock_count::<Unbatched>(threads);
        let b = lock_count::<Eb709b0d>(threads);
        eprintln!(
            "lru_lock acquisitions per activation, {threads} thread(s): unbatched {u:.4}, eb709b0d {b:.4} (divided by {:.1})",
            u / b
        );
    }
    let mut g = c.benchmark_group("activate_page");
    for threads in [1usize, 2] {
        let s = setup(threads);
        g.bench_with_input(
            BenchmarkId::new(Unbatched::META.id, threads),
            &threads,
            |b, _| b.iter_custom(|iters| run::<Unbatched>(&s, iters)),
        );
        let s = setup(threads);
        g.bench_with_input(
            BenchmarkId::new(Eb709b0d::META.id, threads),
            &threads,
            |b, _| b.iter_custom(|iters| run::<Eb709b0d>(&s, iters)),
        );
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = pagevec
}
criterion_main!(benches);
