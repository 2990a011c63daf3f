//! Running explorations on several threads at once (`verify --jobs N`). Each job is one loom
//! exploration on one worker thread (loom's state, the event trace and the kernel config are
//! all per thread); results come back in the order the jobs were given, so a parallel run
//! reports exactly what a sequential one does.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Run `work` on every item with at most `jobs` at a time; results in item order.
pub fn run_all<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else {
                    return;
                };
                let r = work(i, item);
                results.lock().expect("no worker panics holding it")[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .expect("workers joined")
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
}

/// The default number of jobs: the machine's cores.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
