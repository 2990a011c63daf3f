//! `mmcheck soak`: an area's shuttle claims over a seed range, or one partition of it, so many
//! machines can split one soak. A failure is saved as a replayable file.

use mmcheck::checker::{self, Scheduler, SHUTTLE_VERSION};
use mmcheck::sync::RANDOMIZED;
use mmcheck::trace::{write_trace, Event, Failure};
use mmcheck_claims::explore::scenario;
use mmcheck_claims::settings;
use mmcheck_claims::{table, CheckerKind, Expected};
use serde::{Deserialize, Serialize};

pub use mmcheck_cli::{SchedKind, SoakArgs as Args};

/// A failure saved by `soak`: everything needed to replay it.
#[derive(Serialize, Deserialize, Debug)]
pub struct SavedFailure {
    pub mmcheck: String,
    pub shuttle: String,
    pub claim: String,
    pub variant: String,
    pub model: String,
    pub config_debug_vm: bool,
    pub scheduler: SchedKind,
    pub seed: u64,
    pub failure: Failure,
    pub schedule: String,
}

impl SavedFailure {
    pub fn trace(&self) -> &[Event] {
        &self.failure.trace
    }
}

pub fn run(a: Args) -> Result<bool, String> {
    let claims: Vec<_> = table::of_area(settings::area(a.area))
        .iter()
        .filter(|c| c.checker.kind() == CheckerKind::Shuttle)
        .collect();
    if claims.is_empty() {
        return Err(format!("--area: area {} has no shuttle claim", a.area));
    }
    if !RANDOMIZED {
        return Err(
            "soak needs the shuttle build: run `cargo xtask soak` (it builds with --features shuttle)"
                .to_string(),
        );
    }
    let sched = match a.scheduler {
        SchedKind::Pct => Scheduler::Pct {
            depth: a.depth as usize,
        },
        SchedKind::Random => Scheduler::Random,
    };
    let (k, n) = a.partition;
    let seeds = a.seeds.clone();
    let mine: Vec<u64> = seeds
        .clone()
        .filter(|s| (s - seeds.start) % n == k - 1)
        .collect();
    println!(
        "soak {}: {:?}, {} iterations per seed, seeds {seeds:?} part {k}/{n}: {} seed(s) {mine:?}",
        a.area,
        a.scheduler,
        a.iterations,
        mine.len(),
    );
    std::fs::create_dir_all(&a.out)
        .map_err(|e| format!("cannot create {}: {e}", a.out.display()))?;
    // This process's own folder: partitions of one run may share `--out`, and a failure's
    // schedule is found as the file that appeared in the folder.
    let tmp = a.out.join(format!("shuttle-tmp-{}", std::process::id()));
    let mut all_ok = true;
    for c in claims {
        let body = scenario(c.variant, c.model, c.config_debug_vm)
            .map_err(|e| format!("{}: {e}", c.id))?;
        let mut found = None;
        let mut runs = 0u64;
        for &seed in &mine {
            let e = checker::soak(sched, seed, a.iterations as usize, &tmp, body.clone())?;
            runs += e.executions;
            if let Some(err) = &e.error {
                return Err(format!("{} seed {seed}: checker error: {err}", c.id));
            }
            if let Some(failure) = e.failure {
                let schedule = e
                    .schedule_file
                    .as_deref()
                    .and_then(|p| std::fs::read_to_string(p).ok())
                    .ok_or("shuttle saved no schedule for the failure")?;
                if let Some(p) = &e.schedule_file {
                    let _ = std::fs::remove_file(p);
                }
                let saved = SavedFailure {
                    mmcheck: env!("CARGO_PKG_VERSION").to_string(),
                    shuttle: SHUTTLE_VERSION.to_string(),
                    claim: c.id.to_string(),
                    variant: c.variant.to_string(),
                    model: c.model.to_string(),
                    config_debug_vm: c.config_debug_vm,
                    scheduler: a.scheduler,
                    seed,
                    failure,
                    schedule: schedule.trim().to_string(),
                };
                let path = a
                    .out
                    .join(format!("{}-{:?}-seed{seed}.json", c.id, a.scheduler).to_lowercase());
                std::fs::write(
                    &path,
                    serde_json::to_string_pretty(&saved).expect("serializes"),
                )
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                found = Some((seed, saved, path));
                break;
            }
        }
        let expect_bug = c.expected != Expected::Safe;
        let ok = found.is_some() == expect_bug;
        all_ok &= ok;
        let mark = if ok { "ok  " } else { "FAIL" };
        match &found {
            Some((seed, saved, path)) => {
                println!(
                    "{mark} {} ({}, expected {}): failure after {runs} iterations, seed {seed}: {}: {}",
                    c.id, c.variant, c.expected, saved.failure.cause, saved.failure.message
                );
                let mut t = String::new();
                let _ = write_trace(&mut t, saved.trace());
                print!("{t}");
                println!("  replay: cargo xtask replay {}", path.display());
            }
            None => println!(
                "{mark} {} ({}, expected {}): no failure in {runs} iterations",
                c.id, c.variant, c.expected
            ),
        }
    }
    Ok(all_ok)
}
