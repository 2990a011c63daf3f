//! The checker driver above the trace: runs a scenario under the build's checker
//! (`sync::driver`), resets the event trace at the start of every execution, and turns the way
//! a run ended into an [`Exploration`]: the first failure with its trace, a checker error, or
//! a clean finish.

use crate::sync::driver::{self, RawRun};
pub use crate::sync::driver::{
    ExploreSettings, Scheduler, Shard, ShardRun, CHECKPOINT_INTERVAL, MAX_BRANCHES, SHUTTLE_VERSION,
};
use crate::sync::RACE_PANIC;
use crate::trace::{self, Failure, Invariant};
use serde::{Deserialize, Serialize};
use std::sync::Once;

/// What one run of a scenario found.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Exploration {
    /// Executions run (loom: explored; shuttle: iterations; proptest: cases).
    pub executions: u64,
    /// loom: every interleaving within the bound was explored. Randomized runs: false.
    pub complete: bool,
    /// The first check that broke, with its trace.
    pub failure: Option<Failure>,
    /// A panic that is not one of the checks (checker limit, harness bug).
    pub error: Option<String>,
    pub seconds: f64,
    /// shuttle: the file holding the failing schedule, for replay.
    pub schedule_file: Option<String>,
    /// loom with `--shard`: the share explored (`executions` counts the shard's own).
    #[serde(default)]
    pub shard: Option<ShardRun>,
}

/// Keep our own check panics quiet (they are reported with their trace); anything else is
/// printed as usual.
fn quiet_check_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let msg = panic_message(info.payload());
            if msg.starts_with(trace::PANIC_PREFIX) || msg.contains(RACE_PANIC) {
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

/// Wrap a scenario so each execution starts with an empty trace.
fn traced(f: impl Fn() + Send + Sync + 'static) -> impl Fn() + Send + Sync + 'static {
    move || {
        trace::reset();
        f();
    }
}

fn finish(raw: RawRun, exhaustive: bool) -> Exploration {
    if let Some(p) = &raw.panic {
        // loom's own race detector on a RaceCell: a data race the kernel code has.
        let msg = panic_message(p.as_ref());
        if msg.contains(RACE_PANIC) {
            trace::checker_failure(
                Invariant::DataRace,
                format!(
                    "{} (loom's race detector)",
                    msg.lines().next().unwrap_or_default()
                ),
            );
        }
    }
    let failure = trace::take_failure();
    let error = match (&raw.panic, &failure) {
        (Some(p), None) => Some(panic_message(p.as_ref())),
        _ => None,
    };
    Exploration {
        executions: raw.executions,
        complete: exhaustive && raw.panic.is_none(),
        failure,
        error,
        seconds: raw.seconds,
        schedule_file: None,
        shard: raw.shard,
    }
}

fn start() {
    quiet_check_panics();
    trace::clear_failure();
}

/// Explore every interleaving of `f` within the bound (loom builds only).
///
/// Speed (issue #20): the exploration runs without recording events; only a failing claim
/// needs a trace. loom's search is deterministic (the same depth-first order of schedules
/// from the same start, or from the same checkpoint), so when an execution fails the
/// exploration runs again with events recorded and stops at the same first failure. The
/// second run must end with the same cause and message, or the result is an error. The
/// executions reported are the first run's; the seconds are both runs'.
pub fn explore(
    settings: &ExploreSettings,
    f: impl Fn() + Send + Sync + 'static,
) -> Result<Exploration, String> {
    let f = std::sync::Arc::new(f);
    let g = f.clone();
    start();
    trace::set_recording(false);
    let raw = driver::explore(settings, traced(move || g()));
    trace::set_recording(true);
    let first = finish(raw?, true);
    let Some(failed) = &first.failure else {
        return Ok(first);
    };
    start();
    let quiet = ExploreSettings {
        progress: None,
        ..settings.clone()
    };
    let again = finish(driver::explore(&quiet, traced(move || f()))?, true);
    let same = again
        .failure
        .as_ref()
        .is_some_and(|a| a.cause == failed.cause && a.message == failed.message);
    if !same {
        return Err(format!(
            "the recorded rerun did not end at the same failure: first run {:?} ({}), rerun {:?}",
            failed.cause,
            failed.message,
            again.failure.as_ref().map(|a| (&a.cause, &a.message))
        ));
    }
    Ok(Exploration {
        failure: again.failure,
        seconds: first.seconds + again.seconds,
        ..first
    })
}

/// Run `iterations` shuttle schedules of `f` from `seed` (shuttle builds only). A failing
/// schedule is saved under `schedule_dir` and named in the result.
pub fn soak(
    scheduler: Scheduler,
    seed: u64,
    iterations: usize,
    schedule_dir: &std::path::Path,
    f: impl Fn() + Send + Sync + 'static,
) -> Result<Exploration, String> {
    on_own_thread(move || {
        start();
        let (raw, file) = driver::soak(scheduler, seed, iterations, schedule_dir, traced(f))?;
        let mut e = finish(raw, false);
        e.schedule_file = file.map(|p| p.display().to_string());
        Ok(e)
    })
}

/// Run one shuttle run (a soak, a replay) alone and on a thread of its own. shuttle writes a
/// failing schedule from a panic hook installed once per process (with the first run's folder),
/// and skips a schedule as long as the last one its thread wrote: two runs in parallel could
/// each take the other's new file (a replay's failure is written there too), and a soak on a
/// thread whose earlier soak failed at the same schedule length would find none. The trace and
/// the failure are the run's thread's, so `run` starts and finishes there.
fn on_own_thread(
    run: impl FnOnce() -> Result<Exploration, String> + Send,
) -> Result<Exploration, String> {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    std::thread::scope(|s| {
        s.spawn(run).join().unwrap_or_else(|p| {
            Err(format!(
                "the shuttle run's thread panicked outside the run: {}",
                panic_message(p.as_ref())
            ))
        })
    })
}

/// Replay one encoded shuttle schedule of `f` (shuttle builds only).
pub fn replay(schedule: &str, f: impl Fn() + Send + Sync + 'static) -> Result<Exploration, String> {
    on_own_thread(move || {
        start();
        Ok(finish(driver::replay(schedule, traced(f))?, false))
    })
}

/// Run `f` once on real threads (std build: sequential models and smoke runs).
pub fn run_once(f: impl FnOnce()) -> Exploration {
    start();
    trace::reset();
    finish(driver::run_once(f), true)
}
