//! Driving the checker this build is for: loom's exhaustive exploration, shuttle's randomized
//! and PCT schedules and their replay. Part of the shim: nothing else names a backend.
//!
//! loom returns no statistics and truncates silently (design.md section 7), so this module
//! counts executions itself (a plain std atomic, not a shim type, so it adds no interleavings),
//! never sets a permutation or time limit (a finished run is complete within its preemption
//! bound), and reads the first failure from the trace.

use crate::trace::{self, Failure};
use serde::{Deserialize, Serialize};
use std::panic::{catch_unwind, AssertUnwindSafe};
#[cfg(any(loom, feature = "shuttle"))]
use std::sync::atomic::Ordering;
use std::sync::Once;
#[cfg(all(not(loom), feature = "shuttle"))]
use std::sync::{atomic::AtomicU64, Arc};
use std::time::Instant;

/// What one exploration found.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Exploration {
    /// Executions run (loom: explored; shuttle: iterations).
    pub executions: u64,
    /// loom: every interleaving within the bound was explored. shuttle: never exhaustive.
    pub complete: bool,
    /// The first invariant that broke, with its trace.
    pub failure: Option<Failure>,
    /// A panic that is not one of the kernel's invariants (checker limit, harness bug).
    pub error: Option<String>,
    pub seconds: f64,
    /// shuttle: the file holding the failing schedule, for replay.
    pub schedule_file: Option<String>,
}

/// Keep our own invariant panics quiet (they are reported with their trace); anything else is
/// printed as usual.
fn quiet_invariant_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let msg = panic_message(info.payload());
            // Our invariants, and loom's race reports (turned into DataRace failures), are
            // reported with their trace.
            if msg.starts_with("mmcheck: ") || msg.contains("Causality violation") {
                return;
            }
            prev(info);
        }));
    });
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic".to_string()
    }
}

fn finish(
    executions: u64,
    complete: bool,
    result: std::thread::Result<()>,
    start: Instant,
) -> Exploration {
    if let Err(p) = &result {
        // loom's own race detector on a RaceCell: a data race the kernel code has.
        let msg = panic_message(p.as_ref());
        if msg.contains("Causality violation") {
            trace::checker_failure(
                trace::Invariant::DataRace,
                format!(
                    "{} (loom's race detector)",
                    msg.lines().next().unwrap_or_default()
                ),
            );
        }
    }
    let failure = trace::take_failure();
    let error = match (&result, &failure) {
        (Err(p), None) => Some(panic_message(p.as_ref())),
        _ => None,
    };
    Exploration {
        executions,
        complete: complete && result.is_ok(),
        failure,
        error,
        seconds: start.elapsed().as_secs_f64(),
        schedule_file: None,
    }
}

/// Settings of one exhaustive exploration.
#[derive(Clone, Debug, Default)]
pub struct ExploreSettings {
    /// Preemption bound (None: unbounded).
    pub preemption_bound: Option<usize>,
    /// Resume from / save to this checkpoint file.
    pub checkpoint_file: Option<std::path::PathBuf>,
    pub checkpoint_interval: usize,
    /// Executions so far, for a progress display (incremented at the start of each).
    pub progress: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
}

/// True when this build has an exhaustive checker.
pub const EXHAUSTIVE: bool = cfg!(loom);
/// True when this build has randomized schedulers.
pub const RANDOMIZED: bool = cfg!(all(not(loom), feature = "shuttle"));

/// Explore every interleaving of `f` within the bound (loom builds only).
#[cfg(not(loom))]
pub fn explore<F>(_settings: &ExploreSettings, _f: F) -> Result<Exploration, String>
where
    F: Fn() + Sync + Send + 'static,
{
    Err("this build has no exhaustive checker: build with RUSTFLAGS=\"--cfg loom\"".to_string())
}

/// Explore every interleaving of `f` within the bound (loom).
#[cfg(loom)]
pub fn explore<F>(settings: &ExploreSettings, f: F) -> Result<Exploration, String>
where
    F: Fn() + Sync + Send + 'static,
{
    quiet_invariant_panics();
    trace::clear_failure();
    let count = settings.progress.clone().unwrap_or_default();
    count.store(0, Ordering::Relaxed);
    let mut b = loom::model::Builder::new();
    // No silent truncation: a run that returns explored everything within the bound.
    b.max_permutations = None;
    b.max_duration = None;
    b.preemption_bound = settings.preemption_bound;
    b.max_branches = 100_000;
    if let Some(path) = &settings.checkpoint_file {
        b.checkpoint_file = Some(path.clone());
        b.checkpoint_interval = settings.checkpoint_interval;
    }
    let c = count.clone();
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| {
        b.check(move || {
            c.fetch_add(1, Ordering::Relaxed);
            trace::reset();
            f();
        })
    }));
    Ok(finish(count.load(Ordering::Relaxed), true, result, start))
}

/// A randomized scheduler choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Scheduler {
    /// Probabilistic concurrency testing with the given bug depth.
    Pct {
        depth: usize,
    },
    Random,
}

/// Run randomized schedules (shuttle builds only).
#[cfg(not(all(not(loom), feature = "shuttle")))]
pub fn soak<F>(
    _s: Scheduler,
    _seed: u64,
    _it: usize,
    _dir: &std::path::Path,
    _f: F,
) -> Result<Exploration, String>
where
    F: Fn() + Send + Sync + 'static,
{
    Err("this build has no randomized scheduler: build with --features shuttle".to_string())
}

/// Replay an encoded schedule (shuttle builds only).
#[cfg(not(all(not(loom), feature = "shuttle")))]
pub fn replay<F>(_schedule: &str, _f: F) -> Result<Exploration, String>
where
    F: Fn() + Send + Sync + 'static,
{
    Err("this build cannot replay schedules: build with --features shuttle".to_string())
}

/// Run `iterations` shuttle schedules of `f` from `seed`. A failing schedule is saved under
/// `schedule_dir` and named in the result.
#[cfg(all(not(loom), feature = "shuttle"))]
pub fn soak<F>(
    scheduler: Scheduler,
    seed: u64,
    iterations: usize,
    schedule_dir: &std::path::Path,
    f: F,
) -> Result<Exploration, String>
where
    F: Fn() + Send + Sync + 'static,
{
    use shuttle::scheduler::{PctScheduler, RandomScheduler};
    use shuttle::{Config, FailurePersistence, Runner};
    quiet_invariant_panics();
    trace::clear_failure();
    let _ = std::fs::create_dir_all(schedule_dir);
    let before = list_schedules(schedule_dir);
    let mut config = Config::new();
    config.failure_persistence = FailurePersistence::File(Some(schedule_dir.to_path_buf()));
    config.silence_warnings = true;
    let count = Arc::new(AtomicU64::new(0));
    let c = count.clone();
    let body = move || {
        c.fetch_add(1, Ordering::Relaxed);
        trace::reset();
        f();
    };
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| match scheduler {
        Scheduler::Pct { depth } => {
            Runner::new(PctScheduler::new_from_seed(seed, depth, iterations), config).run(body);
        }
        Scheduler::Random => {
            Runner::new(RandomScheduler::new_from_seed(seed, iterations), config).run(body);
        }
    }));
    let mut e = finish(count.load(Ordering::Relaxed), false, result, start);
    if e.failure.is_some() || e.error.is_some() {
        e.schedule_file = list_schedules(schedule_dir)
            .into_iter()
            .find(|p| !before.contains(p))
            .map(|p| p.display().to_string());
    }
    Ok(e)
}

/// Replay one encoded shuttle schedule of `f` (as shuttle writes it to its schedule files).
#[cfg(all(not(loom), feature = "shuttle"))]
pub fn replay<F>(schedule: &str, f: F) -> Result<Exploration, String>
where
    F: Fn() + Send + Sync + 'static,
{
    use shuttle::scheduler::ReplayScheduler;
    use shuttle::{Config, FailurePersistence, Runner};
    quiet_invariant_panics();
    trace::clear_failure();
    // Validate before handing it to shuttle, which panics on garbage.
    let text = schedule.trim().to_string();
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let parsed = catch_unwind(move || ReplayScheduler::new_from_encoded(&text));
    std::panic::set_hook(hook);
    let scheduler = parsed.map_err(|_| format!("not a shuttle {SHUTTLE_VERSION} schedule"))?;
    let mut config = Config::new();
    config.failure_persistence = FailurePersistence::None;
    config.silence_warnings = true;
    let count = Arc::new(AtomicU64::new(0));
    let c = count.clone();
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| {
        Runner::new(scheduler, config).run(move || {
            c.fetch_add(1, Ordering::Relaxed);
            trace::reset();
            f();
        });
    }));
    Ok(finish(count.load(Ordering::Relaxed), false, result, start))
}

/// The shuttle version schedules are encoded for (schedules replay only on the same version).
pub const SHUTTLE_VERSION: &str = "0.9.10";

#[cfg(all(not(loom), feature = "shuttle"))]
fn list_schedules(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default()
}

/// Run `f` once on real threads (std build: sequential tests and smoke runs).
pub fn run_once<F>(f: F) -> Exploration
where
    F: FnOnce(),
{
    quiet_invariant_panics();
    trace::clear_failure();
    trace::reset();
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(f));
    finish(1, true, result, start)
}
