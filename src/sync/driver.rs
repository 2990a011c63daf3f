//! Driving the backend this build is for: loom's exhaustive exploration, shuttle's randomized
//! and PCT schedules and their replay. Part of the shim because it names the backend; it
//! knows nothing of traces or invariants (that is `crate::checker`, one layer up): it runs a
//! closure, counts executions and hands back how the run ended.
//!
//! loom returns no statistics and truncates silently (proofs/README.md, "Checker pitfalls"),
//! so executions are counted here (a plain std atomic, not a shim type, so it adds no
//! interleavings), and no permutation or time limit is ever set: a run that returns explored
//! everything within its preemption bound.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How a raw run ended.
pub struct RawRun {
    /// Executions started (loom: explored; shuttle: iterations).
    pub executions: u64,
    /// The panic that ended the run, if any (an invariant, a race report, a harness bug).
    pub panic: Option<Box<dyn std::any::Any + Send>>,
    pub seconds: f64,
    /// loom with a shard: how the shard's walk went.
    pub shard: Option<ShardRun>,
}

/// One of `count` disjoint shares of one exploration (`verify --shard K/N`): loom's fork
/// (vendor/loom, `Builder::shard`) fully expands the first `depth` choice points of every
/// execution, numbers the prefixes they form in depth-first order, and explores below the
/// prefixes whose number is `index - 1` modulo `count`, with its usual search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// 1-based, as on the command line.
    pub index: u64,
    pub count: u64,
    /// Choice points in a prefix.
    pub depth: usize,
}

/// What a shard's walk saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardRun {
    pub shard: Shard,
    /// Prefixes walked (every shard of a claim walks the same ones).
    pub prefixes: u64,
    /// Executions run only to reach the next prefix (probes of other shards' prefixes); not
    /// counted in the shard's executions.
    pub probes: u64,
}

/// Settings of one exhaustive exploration.
#[derive(Clone, Debug, Default)]
pub struct ExploreSettings {
    /// Preemption bound (None: unbounded).
    pub preemption_bound: Option<usize>,
    /// Resume from / save to this checkpoint file (loom's `checkpoint` feature).
    pub checkpoint_file: Option<std::path::PathBuf>,
    /// Executions between two checkpoint writes.
    pub checkpoint_interval: usize,
    /// Executions so far, for a progress display (incremented at the start of each).
    pub progress: Option<Arc<AtomicU64>>,
    /// Explore only this share of the tree.
    pub shard: Option<Shard>,
}

/// The most branches (scheduling decisions) one execution may take. loom's default (1,000) is
/// too small for the longer scenarios; a larger value only allows longer executions, it never
/// cuts an exploration short (an execution that exceeds it panics, and the run reports an
/// error, not a verdict).
pub const MAX_BRANCHES: usize = 100_000;

/// The checkpoint interval the runner uses: often enough that a killed run loses little,
/// rarely enough that writing the file costs little.
pub const CHECKPOINT_INTERVAL: usize = 1000;

#[cfg_attr(not(any(loom, feature = "shuttle")), allow(dead_code))]
fn run(
    count: Arc<AtomicU64>,
    body: impl FnOnce(Box<dyn Fn() + Send + Sync>),
    f: impl Fn() + Send + Sync + 'static,
) -> RawRun {
    count.store(0, Ordering::Relaxed);
    let c = count.clone();
    let counted: Box<dyn Fn() + Send + Sync> = Box::new(move || {
        c.fetch_add(1, Ordering::Relaxed);
        f();
    });
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(move || body(counted)));
    RawRun {
        executions: count.load(Ordering::Relaxed),
        panic: result.err(),
        seconds: start.elapsed().as_secs_f64(),
        shard: None,
    }
}

/// Explore every interleaving of `f` within the bound (loom builds only).
pub fn explore(
    settings: &ExploreSettings,
    f: impl Fn() + Send + Sync + 'static,
) -> Result<RawRun, String> {
    #[cfg(loom)]
    {
        let count = settings.progress.clone().unwrap_or_default();
        let mut b = loom::model::Builder::new();
        // No silent truncation: a run that returns explored everything within the bound.
        b.max_permutations = None;
        b.max_duration = None;
        b.preemption_bound = settings.preemption_bound;
        b.max_branches = MAX_BRANCHES;
        if let Some(path) = &settings.checkpoint_file {
            b.checkpoint_file = Some(path.clone());
            b.checkpoint_interval = settings.checkpoint_interval;
        }
        let shard = settings.shard.map(|s| loom::model::Shard {
            depth: s.depth,
            index: s.index - 1,
            count: s.count,
            ..Default::default()
        });
        b.shard = shard.clone();
        let mut raw = run(count, move |f: Box<dyn Fn() + Send + Sync>| b.check(f), f);
        if let (Some(spec), Some(out)) = (settings.shard, shard) {
            let probes = out.probes.load(Ordering::Relaxed);
            raw.executions -= probes.min(raw.executions);
            raw.shard = Some(ShardRun {
                shard: spec,
                prefixes: out.prefixes.load(Ordering::Relaxed),
                probes,
            });
        }
        Ok(raw)
    }
    #[cfg(not(loom))]
    {
        let _ = (settings, f);
        Err("this build has no exhaustive checker: build with RUSTFLAGS=\"--cfg loom\"".to_string())
    }
}

/// A randomized scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheduler {
    /// Probabilistic concurrency testing with the given bug depth.
    Pct {
        depth: usize,
    },
    Random,
}

/// The shuttle version schedules are encoded for (schedules replay only on the same version).
pub const SHUTTLE_VERSION: &str = "0.9.10";

/// Run `iterations` shuttle schedules of `f` from `seed` (shuttle builds only). A failing
/// schedule is written to a new file in `schedule_dir`, returned with the run.
pub fn soak(
    scheduler: Scheduler,
    seed: u64,
    iterations: usize,
    schedule_dir: &std::path::Path,
    f: impl Fn() + Send + Sync + 'static,
) -> Result<(RawRun, Option<std::path::PathBuf>), String> {
    #[cfg(all(not(loom), feature = "shuttle"))]
    {
        use shuttle::scheduler::{PctScheduler, RandomScheduler};
        use shuttle::{Config, FailurePersistence, Runner};
        std::fs::create_dir_all(schedule_dir)
            .map_err(|e| format!("cannot create {}: {e}", schedule_dir.display()))?;
        let before = list_dir(schedule_dir);
        let mut config = Config::new();
        config.failure_persistence = FailurePersistence::File(Some(schedule_dir.to_path_buf()));
        config.silence_warnings = true;
        let raw = run(
            Arc::default(),
            move |f: Box<dyn Fn() + Send + Sync>| match scheduler {
                Scheduler::Pct { depth } => {
                    Runner::new(PctScheduler::new_from_seed(seed, depth, iterations), config)
                        .run(f);
                }
                Scheduler::Random => {
                    Runner::new(RandomScheduler::new_from_seed(seed, iterations), config).run(f);
                }
            },
            f,
        );
        let file = raw
            .panic
            .is_some()
            .then(|| {
                list_dir(schedule_dir)
                    .into_iter()
                    .find(|p| !before.contains(p))
            })
            .flatten();
        Ok((raw, file))
    }
    #[cfg(not(all(not(loom), feature = "shuttle")))]
    {
        let _ = (scheduler, seed, iterations, schedule_dir, f);
        Err("this build has no randomized scheduler: build with --features shuttle".to_string())
    }
}

/// Replay one encoded shuttle schedule of `f`, as shuttle writes it to its schedule files
/// (shuttle builds only). A schedule that is not one is an error, not a panic.
pub fn replay(schedule: &str, f: impl Fn() + Send + Sync + 'static) -> Result<RawRun, String> {
    #[cfg(all(not(loom), feature = "shuttle"))]
    {
        use shuttle::scheduler::ReplayScheduler;
        use shuttle::{Config, FailurePersistence, Runner};
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
        Ok(run(
            Arc::default(),
            move |f: Box<dyn Fn() + Send + Sync>| {
                Runner::new(scheduler, config).run(f);
            },
            f,
        ))
    }
    #[cfg(not(all(not(loom), feature = "shuttle")))]
    {
        let _ = (schedule, f);
        Err("this build cannot replay schedules: build with --features shuttle".to_string())
    }
}

#[cfg(all(not(loom), feature = "shuttle"))]
fn list_dir(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default()
}

/// Run `f` once on real threads (std build: sequential models and smoke runs).
pub fn run_once(f: impl FnOnce()) -> RawRun {
    let start = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(f));
    RawRun {
        executions: 1,
        panic: result.err(),
        seconds: start.elapsed().as_secs_f64(),
        shard: None,
    }
}
