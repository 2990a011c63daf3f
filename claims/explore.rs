//! Running a claim (or any model on any variant: a matrix cell) under its checker, and judging
//! what the checker found.

use crate::table::{Bound, Checker, Claim, Expected};
use mmcheck::checker::{self, Exploration, ExploreSettings, Scheduler, Shard};
use mmcheck::trace::{set_config_debug_vm, Cause, Invariant};
use mmcheck_models::{registry, sequential, Model, Runner};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

/// What a run concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Nothing broke (loom: in every execution within the bound; randomized: in every one run).
    Safe,
    /// This kernel invariant broke.
    Bug(Invariant),
    /// loom stopped before exploring everything (never with mmcheck's settings: no limit is
    /// set; kept so a SAFE verdict can never come from a partial run).
    Incomplete,
    /// The checker or the harness failed: no verdict.
    Error,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Safe => f.write_str("safe"),
            Verdict::Bug(i) => write!(f, "bug ({i})"),
            Verdict::Incomplete => f.write_str("incomplete"),
            Verdict::Error => f.write_str("error"),
        }
    }
}

/// The verdict of one run under `checker`.
pub fn judge(e: &Exploration, checker: &Checker) -> Verdict {
    match (&e.failure, &e.error) {
        (Some(f), _) => match f.cause {
            Cause::Kernel(i) => Verdict::Bug(i),
            Cause::Harness => Verdict::Error,
        },
        (None, Some(_)) => Verdict::Error,
        (None, None)
            if matches!(checker, Checker::Loom { .. } | Checker::Enumerate) && !e.complete =>
        {
            Verdict::Incomplete
        }
        (None, None) => Verdict::Safe,
    }
}

/// Does a verdict meet an expectation?
pub fn meets(expected: Expected, verdict: Verdict) -> bool {
    match (expected, verdict) {
        (Expected::Safe, Verdict::Safe) => true,
        (Expected::Bug(want), Verdict::Bug(got)) => want == got,
        (Expected::AnyBug, Verdict::Bug(_)) => true,
        _ => false,
    }
}

/// Settings of one run beyond what the table says.
#[derive(Clone, Debug, Default)]
pub struct RunSettings {
    /// loom: a bound instead of the claim's own.
    pub bound: Option<Bound>,
    /// loom: resume from / save to this checkpoint.
    pub checkpoint: Option<PathBuf>,
    /// loom: executions so far, for a progress display.
    pub progress: Option<Arc<AtomicU64>>,
    /// loom: explore only this share of the claim's tree (`verify --shard K/N`).
    pub shard: Option<Shard>,
    /// shuttle: the seed (default 0) and iterations per scheduler instead of the claim's own.
    pub seed: u64,
    pub iterations: Option<usize>,
    /// shuttle: where failing schedules are written.
    pub schedule_dir: Option<PathBuf>,
    /// proptest: the regression file.
    pub proptest_persistence: Option<PathBuf>,
}

/// The shuttle schedulers a soak claim runs, in order: PCT finds the shallow bugs fast,
/// random schedules cover what PCT's priorities starve.
pub const SCHEDULERS: [Scheduler; 2] = [Scheduler::Pct { depth: 3 }, Scheduler::Random];

/// What to run: a claim, or a model on a variant with no claim (a matrix cell).
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    pub variant: &'a str,
    pub model: &'a str,
    pub checker: Checker,
    pub config_debug_vm: bool,
}

impl Job<'static> {
    pub fn of(c: &'static Claim) -> Job<'static> {
        Job {
            variant: c.variant,
            model: c.model,
            checker: c.checker,
            config_debug_vm: c.config_debug_vm,
        }
    }
}

/// Run a claim.
pub fn run_claim(c: &'static Claim, s: &RunSettings) -> Result<Exploration, String> {
    run(&Job::of(c), s)
}

/// The checker the job runs under, with the settings applied (the bound actually used).
pub fn effective_checker(job: &Job<'_>, s: &RunSettings) -> Checker {
    match (job.checker, s.bound) {
        (Checker::Loom { .. }, Some(bound)) => Checker::Loom { bound },
        (Checker::Shuttle { iterations }, _) => Checker::Shuttle {
            iterations: s.iterations.unwrap_or(iterations),
        },
        (Checker::StoreBuffer { iterations }, _) => Checker::StoreBuffer {
            iterations: s.iterations.unwrap_or(iterations),
        },
        (c, _) => c,
    }
}

/// The model `model` of `variant` (an unknown one is an error: the table and the registry
/// disagree, not a verdict).
fn find_model(variant: &str, model: &str) -> Result<Model, String> {
    registry::model(variant, model).ok_or_else(|| match registry::variant(variant) {
        None => format!("no variant '{variant}'"),
        Some(v) => format!(
            "variant '{variant}' (area {}) has no model '{model}'",
            v.meta.area
        ),
    })
}

/// One execution of the concurrent scenario `model` of `variant`, with the kernel config set
/// first: what loom, shuttle, a soak and a replay run.
pub fn scenario(
    variant: &str,
    model: &str,
    config_debug_vm: bool,
) -> Result<impl Fn() + Clone + Send + Sync + 'static, String> {
    match find_model(variant, model)?.run {
        Runner::Scenario(f) => Ok(move || {
            set_config_debug_vm(config_debug_vm);
            f()
        }),
        Runner::Sequential(_) => Err(format!(
            "model '{model}' is a sequential model (proptest), not a concurrent scenario"
        )),
    }
}

/// Run a job under its checker. An unknown variant or model is an error (the table and the
/// registry disagree), not a verdict.
pub fn run(job: &Job<'_>, s: &RunSettings) -> Result<Exploration, String> {
    let model = find_model(job.variant, job.model)?;
    let debug_vm = job.config_debug_vm;
    match (effective_checker(job, s), model.run) {
        (Checker::Loom { bound }, Runner::Scenario(_)) => {
            let settings = ExploreSettings {
                preemption_bound: bound.preemption_bound(),
                checkpoint_file: s.checkpoint.clone(),
                checkpoint_interval: checker::CHECKPOINT_INTERVAL,
                progress: s.progress.clone(),
                shard: s.shard,
            };
            checker::explore(&settings, scenario(job.variant, job.model, debug_vm)?)
        }
        (Checker::StoreBuffer { .. }, Runner::Scenario(_))
            if !mmcheck::sync::store_buffer::ACTIVE =>
        {
            Err(
                "a store-buffer claim runs in the store-buffer build (--features store-buffer)"
                    .to_string(),
            )
        }
        (
            Checker::Shuttle { iterations } | Checker::StoreBuffer { iterations },
            Runner::Scenario(_),
        ) => {
            let body = scenario(job.variant, job.model, debug_vm)?;
            let dir = s
                .schedule_dir
                .clone()
                .unwrap_or_else(|| std::env::temp_dir().join("mmcheck-schedules"));
            let mut total = 0;
            let mut seconds = 0.0;
            for sched in SCHEDULERS {
                let mut e = checker::soak(sched, s.seed, iterations, &dir, body.clone())?;
                total += e.executions;
                seconds += e.seconds;
                if e.failure.is_some() || e.error.is_some() || sched == SCHEDULERS[1] {
                    e.executions = total;
                    e.seconds = seconds;
                    return Ok(e);
                }
            }
            unreachable!("the last scheduler returns")
        }
        (Checker::Proptest { cases }, Runner::Sequential(f)) => {
            set_config_debug_vm(debug_vm);
            Ok(f(&sequential::Settings {
                cases,
                persistence: s.proptest_persistence.clone(),
            }))
        }
        (Checker::Enumerate, Runner::Sequential(f)) => {
            set_config_debug_vm(debug_vm);
            Ok(f(&sequential::Settings::default()))
        }
        (c, _) => Err(format!(
            "model '{}' cannot run under {}: {}",
            job.model,
            c.kind(),
            match model.run {
                Runner::Scenario(_) => "it is a concurrent scenario (loom, shuttle, store-buffer)",
                Runner::Sequential(_) => "it is a sequential model (proptest, enumerate)",
            }
        )),
    }
}
