//! Production-build benchmarks of S2 (criterion), issue #18: what batching removes is
//! `zone->lru_lock` contention, so the benchmark measures contention, not only the work batching
//! adds.
//!
//! * `lru_throughput`: `activate_page` of linux-2.6.37 (lock per page) and eb709b0d (per-CPU
//!   pagevec of PAGEVEC_SIZE = 14), 1 and 2 threads pinned to cores, each thread on its own
//!   pages (`private`) or all threads on the same pages (`shared`: the seed's 64 processes map
//!   one file). Rounds of: a barrier, the timed phase (every thread activates its pages, then
//!   `lru_add_drain`), a barrier, the untimed reset (the pages back on the inactive list), a
//!   barrier: no thread is timed while another resets. The time is the wall time of the timed
//!   phases; criterion's throughput is pages per second over all threads.
//! * `lru_step`: one thread's cost of each step: `spin_lock` + `spin_unlock` of `lru_lock`
//!   (uncontended), one page moved between LRU lists, `get_page` + `put_page`.
//! * `lru_injected`: one thread activates its pages while a second core takes `lru_lock` and
//!   moves a page between the LRU lists (dirtying the list heads) every `gap` nanoseconds:
//!   nanoseconds per page against the injector's rate, for both variants.
//!
//! The production `spin_lock` is a FIFO ticket lock (x86 2.6.25 and later); no shared counter
//! is written while timing (`sync::set_counting(false)`; the acquisitions per page are counted in
//! a separate run). `cargo xtask bench` prints the figures, fits the injector's slopes and
//! projects them to the seed's 64 CPUs (xtask/src/contention.rs). The seed's figures: 58% less
//! total time on a 64-CPU mmap-read workload; mmap-pread-seq -69.7%.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use mmcheck::lru::{commit_eb709b0d, linux_2_6_37};
use mmcheck::mm::list::ListId;
use mmcheck::mm::lru::{
    add_page_to_lru_list, del_page_from_lru_list, lru_add_drain, lru_lock, page_cache_get,
    page_cache_release, Lru, PAGEVEC_SIZE,
};
use mmcheck::mm::Mem;
use mmcheck::page::{ClearPageActive, PagePtr, SetPageLRU};
use mmcheck::sync::{run_as_cpu, set_counting};
use mmcheck_models::lru::{add_to_page_cache_lru, machine};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

type Unbatched = linux_2_6_37::Variant;
type Eb709b0d = commit_eb709b0d::Variant;

/// Pages each thread activates per round (64 pagevecs).
const PAGES_PER_THREAD: usize = PAGEVEC_SIZE * 64;

/// Pin the calling thread to one core (Linux); false when the kernel refuses.
fn pin(core: usize) -> bool {
    // SAFETY: a cpu_set_t zeroed and filled with CPU_SET is what sched_setaffinity expects.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(core, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

/// The machine's online cores (not the calling thread's affinity, which pinning narrows).
fn cores() -> usize {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    usize::try_from(n).unwrap_or(1).max(1)
}

struct Setup {
    m: Arc<Mem>,
    /// The pages each thread activates (`shared`: the same list for every thread).
    pages: Vec<Vec<PagePtr>>,
    shared: bool,
}

fn setup(threads: usize, shared: bool) -> Setup {
    let sets = if shared { 1 } else { threads };
    let m = machine(PAGES_PER_THREAD * sets, PAGEVEC_SIZE);
    let one = |m: &Mem| -> Vec<PagePtr> {
        (0..PAGES_PER_THREAD)
            .map(|_| {
                // the page cache keeps every page for the whole run
                let (p, _page_cache_ref) = add_to_page_cache_lru(m);
                p
            })
            .collect()
    };
    let pages = if shared {
        vec![one(&m); threads]
    } else {
        (0..threads).map(|_| one(&m)).collect()
    };
    Setup { m, pages, shared }
}

/// One CPU activates `pages`, then drains its pagevecs: the work every measurement times.
fn activate<V: Lru>(m: &Mem, pages: &[PagePtr]) {
    for &p in pages {
        V::activate_page(m, p);
    }
    lru_add_drain::<V>(m);
}

/// Put pages back on the inactive list (the untimed reset).
fn deactivate(m: &Mem, pages: &[PagePtr]) {
    let _l = lru_lock(m);
    for &p in pages {
        if mmcheck::page::PageActive(m.pg(p)) {
            del_page_from_lru_list(m, p, ListId::ActiveFile);
            ClearPageActive(m.pg(p));
            SetPageLRU(m.pg(p));
            add_page_to_lru_list(m, p, ListId::InactiveFile);
        }
    }
}

/// `iters` activations per thread, in rounds; returns the wall time of the timed phases.
fn run<V: Lru>(s: &Setup, iters: u64) -> Duration {
    let threads = s.pages.len();
    let barrier = Arc::new(Barrier::new(threads));
    set_counting(false);
    let wall = std::thread::scope(|sc| {
        let hs: Vec<_> = (0..threads)
            .map(|cpu| {
                let (m, pages, barrier) = (&s.m, &s.pages[cpu], barrier.clone());
                let shared = s.shared;
                sc.spawn(move || {
                    pin(cpu % cores());
                    run_as_cpu(cpu, || {
                        let mut timed = Duration::ZERO;
                        let mut done = 0u64;
                        while done < iters {
                            let n = ((iters - done) as usize).min(pages.len());
                            barrier.wait();
                            let t = Instant::now();
                            activate::<V>(m, &pages[..n]);
                            barrier.wait();
                            timed += t.elapsed();
                            done += n as u64;
                            if !shared || cpu == 0 {
                                deactivate(m, &pages[..n]);
                            }
                            barrier.wait();
                        }
                        timed
                    })
                })
            })
            .collect();
        let times: Vec<Duration> = hs.into_iter().map(|h| h.join().unwrap()).collect();
        times[0]
    });
    set_counting(true);
    wall
}

/// `lru_lock` acquisitions per activated page (a separate, counting run).
fn lock_count<V: Lru>(threads: usize, shared: bool) -> f64 {
    let s = setup(threads, shared);
    set_counting(true);
    let before = s.m.zone.lru_lock_acquisitions.get();
    std::thread::scope(|sc| {
        for (cpu, pages) in s.pages.iter().enumerate() {
            let m = &s.m;
            sc.spawn(move || {
                run_as_cpu(cpu, || {
                    activate::<V>(m, pages);
                })
            });
        }
    });
    let acq = s.m.zone.lru_lock_acquisitions.get() - before;
    acq as f64 / (threads * PAGES_PER_THREAD) as f64
}

fn case(shared: bool) -> &'static str {
    if shared {
        "shared"
    } else {
        "private"
    }
}

fn throughput(c: &mut Criterion) {
    eprintln!(
        "lru bench: {} core(s), threads pinned: {}",
        cores(),
        std::thread::spawn(|| pin(cores() - 1))
            .join()
            .unwrap_or(false)
    );
    for shared in [false, true] {
        for threads in [1, 2] {
            let u = lock_count::<Unbatched>(threads, shared);
            let b = lock_count::<Eb709b0d>(threads, shared);
            eprintln!(
                "lru_lock acquisitions per activation, {threads} thread(s), {} pages: unbatched {u:.4}, eb709b0d {b:.4}",
                case(shared)
            );
        }
    }
    let mut g = c.benchmark_group("lru_throughput");
    for shared in [false, true] {
        for threads in [1usize, 2] {
            if shared && threads == 1 {
                continue; // one thread: the same as private
            }
            g.throughput(Throughput::Elements(threads as u64));
            let s = setup(threads, shared);
            g.bench_with_input(
                BenchmarkId::new(format!("linux-2.6.37-{}", case(shared)), threads),
                &threads,
                |b, _| b.iter_custom(|iters| run::<Unbatched>(&s, iters)),
            );
            let s = setup(threads, shared);
            g.bench_with_input(
                BenchmarkId::new(format!("eb709b0d-{}", case(shared)), threads),
                &threads,
                |b, _| b.iter_custom(|iters| run::<Eb709b0d>(&s, iters)),
            );
        }
    }
    g.finish();
}

/// One thread's cost of each step activate_page is made of.
fn steps(c: &mut Criterion) {
    set_counting(false);
    let s = setup(1, false);
    let (m, p) = (&s.m, s.pages[0][0]);
    let mut g = c.benchmark_group("lru_step");
    g.bench_function("lock_unlock", |b| {
        b.iter(|| {
            let _l = lru_lock(m);
        })
    });
    g.bench_function("list_move", |b| {
        b.iter_custom(|iters| {
            let _l = lru_lock(m);
            let t = Instant::now();
            for i in 0..iters {
                let (from, to) = if i % 2 == 0 {
                    (ListId::InactiveFile, ListId::ActiveFile)
                } else {
                    (ListId::ActiveFile, ListId::InactiveFile)
                };
                del_page_from_lru_list(m, p, from);
                add_page_to_lru_list(m, p, to);
            }
            let e = t.elapsed();
            if iters % 2 == 1 {
                del_page_from_lru_list(m, p, ListId::ActiveFile);
                add_page_to_lru_list(m, p, ListId::InactiveFile);
            }
            e
        })
    });
    g.bench_function("get_put", |b| {
        b.iter(|| {
            page_cache_get(m, p);
            page_cache_release(m, p);
        })
    });
    g.finish();
    set_counting(true);
}

/// The injector's gaps between two `lru_lock` acquisitions, nanoseconds (None: no injector).
const GAPS: [Option<u64>; 7] = [
    None,
    Some(4000),
    Some(2000),
    Some(1000),
    Some(500),
    Some(250),
    Some(100),
];

/// One thread activates its pages (core 0) while the injector (core 1) takes `lru_lock` every
/// `gap` ns and moves its own page between the lists. Returns the activating thread's timed
/// wall time; adds the injector's acquisitions and the seconds it ran to `rate`.
fn injected<V: Lru>(
    s: &Setup,
    gap: Option<u64>,
    iters: u64,
    rate: &(AtomicU64, AtomicU64),
) -> Duration {
    let stop = AtomicBool::new(false);
    let inj_page = s.pages[0][PAGES_PER_THREAD - 1];
    let pages = &s.pages[0][..PAGES_PER_THREAD - 1];
    set_counting(false);
    let t = std::thread::scope(|sc| {
        let m = &s.m;
        let stop = &stop;
        if let Some(gap) = gap {
            sc.spawn(move || {
                pin(1 % cores());
                run_as_cpu(1, || {
                    let start = Instant::now();
                    let mut n = 0u64;
                    let mut active = false;
                    while !stop.load(Ordering::Relaxed) {
                        {
                            let _l = lru_lock(m);
                            let (from, to) = if active {
                                (ListId::ActiveFile, ListId::InactiveFile)
                            } else {
                                (ListId::InactiveFile, ListId::ActiveFile)
                            };
                            del_page_from_lru_list(m, inj_page, from);
                            add_page_to_lru_list(m, inj_page, to);
                            active = !active;
                        }
                        n += 1;
                        let until = Instant::now() + Duration::from_nanos(gap);
                        while Instant::now() < until {
                            std::hint::spin_loop();
                        }
                    }
                    if active {
                        let _l = lru_lock(m);
                        del_page_from_lru_list(m, inj_page, ListId::ActiveFile);
                        add_page_to_lru_list(m, inj_page, ListId::InactiveFile);
                    }
                    rate.0.fetch_add(n, Ordering::Relaxed);
                    rate.1
                        .fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
                })
            });
        }
        let h = sc.spawn(move || {
            pin(0);
            run_as_cpu(0, || {
                let mut timed = Duration::ZERO;
                let mut done = 0u64;
                while done < iters {
                    let n = ((iters - done) as usize).min(pages.len());
                    let t = Instant::now();
                    activate::<V>(m, &pages[..n]);
                    timed += t.elapsed();
                    done += n as u64;
                    deactivate(m, &pages[..n]);
                }
                timed
            })
        });
        let t = h.join().unwrap();
        stop.store(true, Ordering::Relaxed);
        t
    });
    set_counting(true);
    t
}

fn injector(c: &mut Criterion) {
    let mut g = c.benchmark_group("lru_injected");
    for gap in GAPS {
        let name = gap.map_or("none".to_string(), |g| g.to_string());
        for (id, unbatched) in [("linux-2.6.37", true), ("eb709b0d", false)] {
            let s = setup(1, false);
            let rate = (AtomicU64::new(0), AtomicU64::new(0));
            g.bench_with_input(BenchmarkId::new(id, &name), &gap, |b, &gap| {
                b.iter_custom(|iters| {
                    if unbatched {
                        injected::<Unbatched>(&s, gap, iters, &rate)
                    } else {
                        injected::<Eb709b0d>(&s, gap, iters, &rate)
                    }
                })
            });
            let (n, ns) = (
                rate.0.load(Ordering::Relaxed),
                rate.1.load(Ordering::Relaxed),
            );
            // The injector's measured rate, for `cargo xtask bench`.
            eprintln!(
                "injector {id} gap {name}: {:.3} acquisitions per microsecond",
                if ns == 0 {
                    0.0
                } else {
                    n as f64 * 1000.0 / ns as f64
                }
            );
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = steps, throughput, injector
}
criterion_main!(benches);
