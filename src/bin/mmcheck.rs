//! `mmcheck`: the reviewers' runner. Normally started through `cargo xtask`, which builds it
//! for the right checker (`verify`: loom; `soak`/`replay`: shuttle).
//!
//! Exit status: 0 when every verdict equals its expectation, 1 when one differs, 2 on bad input.

use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use mmcheck::claims::{
    self, judge, meets_expectation, parse_bound, select, Claim, Expected, SOAKS,
};
use mmcheck::sync::checker::{self, Exploration, ExploreSettings, Scheduler, SHUTTLE_VERSION};
use mmcheck::trace::{write_trace, Event};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(Parser)]
#[command(name = "mmcheck", about = "Model-check Linux mm concurrency claims")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run the claims under loom (exhaustive within each claim's bound) and print the verdicts.
    Verify(VerifyArgs),
    /// Run a shuttle soak over a seed range (or one partition of it).
    Soak(SoakArgs),
    /// Replay a failure saved by `soak` and print its kernel-level trace.
    Replay {
        /// The failure file (JSON) that `soak` wrote.
        file: PathBuf,
    },
    /// List the claims.
    List,
}

#[derive(clap::Args)]
struct VerifyArgs {
    /// Claim id or prefix (`S1.3`, `s1.3-fix`, `s1`); repeatable. Default: every claim.
    #[arg(long = "claim", value_name = "ID")]
    claims: Vec<String>,
    /// Preemption bound for every selected claim (0..=20), instead of each claim's own.
    #[arg(long, value_name = "N", allow_hyphen_values = true, conflicts_with_all = ["unbounded", "quick"])]
    bound: Option<String>,
    /// Explore without a preemption bound (the full exhaustive run; may take long).
    #[arg(long, conflicts_with = "quick")]
    unbounded: bool,
    /// Preemption bound 2 for every claim: a fast smoke run.
    #[arg(long)]
    quick: bool,
    /// Write a JSON report here.
    #[arg(long, value_name = "PATH")]
    json: Option<PathBuf>,
    /// Write a Markdown report here.
    #[arg(long, value_name = "PATH")]
    markdown: Option<PathBuf>,
    /// Save loom checkpoints under target/mmcheck/checkpoints and resume from them.
    #[arg(long)]
    checkpoint: bool,
    /// Where checkpoints live.
    #[arg(long, value_name = "DIR", default_value = "target/mmcheck/checkpoints")]
    checkpoint_dir: PathBuf,
    /// No progress display.
    #[arg(long)]
    no_progress: bool,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum SchedKind {
    Pct,
    Random,
}

#[derive(clap::Args)]
struct SoakArgs {
    /// Area to soak: s1.
    #[arg(long)]
    area: String,
    #[arg(long, value_enum, default_value = "pct")]
    scheduler: SchedKind,
    /// Iterations per seed.
    #[arg(long, allow_hyphen_values = true, default_value = "1000")]
    iterations: String,
    /// Seed range A..B (B exclusive) or a single seed.
    #[arg(long, allow_hyphen_values = true, default_value = "0..8")]
    seeds: String,
    /// K/N: run the K-th of N disjoint parts of the seed range (1-based).
    #[arg(long, allow_hyphen_values = true, default_value = "1/1")]
    partition: String,
    /// PCT bug depth.
    #[arg(long, allow_hyphen_values = true, default_value = "3")]
    depth: String,
    /// Where failures are saved.
    #[arg(long, value_name = "DIR", default_value = "target/mmcheck/failures")]
    out: PathBuf,
}

/// One claim's line of the report (the JSON schema of issue #5).
#[derive(Serialize, Deserialize, Debug)]
struct ClaimReport {
    id: String,
    area: String,
    statement: String,
    variant: String,
    model: String,
    checker: String,
    expected: String,
    expected_invariant: Option<String>,
    verdict: String,
    matches: bool,
    executions: u64,
    complete: bool,
    bound: Option<usize>,
    seconds: f64,
    config_debug_vm: bool,
    invariant: Option<String>,
    message: Option<String>,
    error: Option<String>,
    resumed: bool,
    replay: String,
    proof: String,
    trace: Vec<Event>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let r = match cli.cmd {
        Cmd::Verify(a) => verify(a),
        Cmd::Soak(a) => soak(a),
        Cmd::Replay { file } => replay(&file),
        Cmd::List => {
            for c in claims::CLAIMS {
                println!(
                    "{:<15} {:<18} {:<26} {}",
                    c.id,
                    c.variant,
                    c.model,
                    expected_str(c)
                );
            }
            Ok(true)
        }
    };
    match r {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(msg) => {
            eprintln!("mmcheck: error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn expected_str(c: &Claim) -> String {
    match c.expected {
        Expected::Safe => "SAFE".to_string(),
        Expected::Bug(i) => format!("BUG ({i})"),
    }
}

// ------------------------------------------------------------------------------------------
// verify

/// Checkpoint metadata kept beside loom's own checkpoint file, so a file from another claim,
/// bound or build is refused instead of silently resumed.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct CheckpointMeta {
    mmcheck: String,
    claim: String,
    variant: String,
    model: String,
    bound: Option<usize>,
}

fn checkpoint_paths(dir: &Path, c: &Claim, bound: Option<usize>) -> (PathBuf, PathBuf) {
    let b = bound.map_or("none".to_string(), |b| b.to_string());
    let stem = format!("{}-bound-{b}", c.id);
    (
        dir.join(format!("{stem}.loom.json")),
        dir.join(format!("{stem}.meta.json")),
    )
}

/// Validate an existing checkpoint (or prepare a new one). Returns whether we resume.
fn prepare_checkpoint(
    dir: &Path,
    c: &Claim,
    bound: Option<usize>,
) -> Result<(PathBuf, bool), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let (loom_file, meta_file) = checkpoint_paths(dir, c, bound);
    let want = CheckpointMeta {
        mmcheck: env!("CARGO_PKG_VERSION").to_string(),
        claim: c.id.to_string(),
        variant: c.variant.to_string(),
        model: c.model.to_string(),
        bound,
    };
    if loom_file.exists() {
        let meta_text = std::fs::read_to_string(&meta_file).map_err(|_| {
            format!(
                "checkpoint {} has no metadata file {}: not written by mmcheck; remove it to start over",
                loom_file.display(),
                meta_file.display()
            )
        })?;
        let meta: CheckpointMeta = serde_json::from_str(&meta_text).map_err(|e| {
            format!(
                "corrupt checkpoint metadata {}: {e}; remove it to start over",
                meta_file.display()
            )
        })?;
        if meta != want {
            return Err(format!(
                "checkpoint {} belongs to claim {} bound {:?} (mmcheck {}), not {} bound {:?}; remove it to start over",
                loom_file.display(),
                meta.claim,
                meta.bound,
                meta.mmcheck,
                c.id,
                bound
            ));
        }
        let text = std::fs::read_to_string(&loom_file)
            .map_err(|e| format!("cannot read checkpoint {}: {e}", loom_file.display()))?;
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            format!(
                "corrupt checkpoint {}: {e}; remove it to start over",
                loom_file.display()
            )
        })?;
        if !v.is_object() || v.get("branches").is_none() {
            return Err(format!(
                "corrupt checkpoint {}: not a loom execution path",
                loom_file.display()
            ));
        }
        Ok((loom_file, true))
    } else {
        let text = serde_json::to_string_pretty(&want).expect("meta serializes");
        std::fs::write(&meta_file, text)
            .map_err(|e| format!("cannot write {}: {e}", meta_file.display()))?;
        Ok((loom_file, false))
    }
}

fn verify(a: VerifyArgs) -> Result<bool, String> {
    // Validate every input before running anything.
    let bound_override: Option<Option<usize>> = if a.unbounded {
        Some(None)
    } else if a.quick {
        Some(Some(2))
    } else if let Some(b) = &a.bound {
        Some(parse_bound(b).map_err(|e| format!("--bound: {e}"))?)
    } else {
        None
    };
    let mut selected: Vec<&'static Claim> = Vec::new();
    if a.claims.is_empty() {
        selected.extend(claims::CLAIMS.iter());
    } else {
        for pat in &a.claims {
            for c in select(pat)? {
                if !selected.iter().any(|s| s.id == c.id) {
                    selected.push(c);
                }
            }
        }
    }
    for p in [&a.json, &a.markdown].into_iter().flatten() {
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                return Err(format!(
                    "cannot write {}: no directory {}",
                    p.display(),
                    dir.display()
                ));
            }
        }
    }
    // Checkpoints are validated (a corrupt or foreign one is refused, never overwritten)
    // before anything runs.
    let mut plan = Vec::new();
    for c in &selected {
        let bound = bound_override.unwrap_or(c.bound);
        let (checkpoint_file, resumed) = if a.checkpoint {
            let (f, r) = prepare_checkpoint(&a.checkpoint_dir, c, bound)?;
            (Some(f), r)
        } else {
            (None, false)
        };
        plan.push((*c, bound, checkpoint_file, resumed));
    }
    if !checker::EXHAUSTIVE {
        return Err(
            "verify needs the loom build: run `cargo xtask verify` (it builds with --cfg loom)"
                .to_string(),
        );
    }

    let mut reports = Vec::new();
    let n = plan.len();
    for (i, (c, bound, checkpoint_file, resumed)) in plan.into_iter().enumerate() {
        if let (true, Some(f)) = (resumed, &checkpoint_file) {
            eprintln!(
                "resuming {} (bound {}) from {}",
                c.id,
                bound_str(bound),
                f.display()
            );
        }
        let progress = Arc::new(AtomicU64::new(0));
        let bar = (!a.no_progress).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                    .expect("template"),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        let ticker = bar.clone().map(|bar| {
            let p = progress.clone();
            let label = format!(
                "[{}/{n}] {} ({}, bound {})",
                i + 1,
                c.id,
                c.variant,
                bound_str(bound)
            );
            std::thread::spawn(move || {
                while !bar.is_finished() {
                    bar.set_message(format!("{label}: {} executions", p.load(Ordering::Relaxed)));
                    std::thread::sleep(Duration::from_millis(200));
                }
            })
        });
        let settings = ExploreSettings {
            preemption_bound: bound,
            checkpoint_file: checkpoint_file.clone(),
            checkpoint_interval: 1000,
            progress: Some(progress.clone()),
        };
        let e = claims::explore_with(c, &settings)?;
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        if let Some(t) = ticker {
            let _ = t.join();
        }
        if a.checkpoint && e.error.is_none() {
            let (lf, mf) = checkpoint_paths(&a.checkpoint_dir, c, bound);
            let _ = std::fs::remove_file(lf);
            let _ = std::fs::remove_file(mf);
        }
        let r = claim_report(c, bound, &e, resumed, a.checkpoint);
        eprintln!(
            "{} {:<15} {:<10} {:>9} executions {:>7.2}s{}",
            if r.matches { "ok  " } else { "FAIL" },
            r.id,
            r.verdict,
            r.executions,
            r.seconds,
            if resumed {
                " (resumed from a checkpoint: executions since it)"
            } else {
                ""
            }
        );
        reports.push(r);
    }

    let table = render_table(&reports);
    println!("{table}");
    let traces = render_traces(&reports);
    print!("{traces}");
    if let Some(p) = &a.json {
        let text = serde_json::to_string_pretty(&reports).expect("report serializes");
        std::fs::write(p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    if let Some(p) = &a.markdown {
        let md = format!("# mmcheck verify\n\n{table}\n{}", md_traces(&reports));
        std::fs::write(p, md).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    let bad = reports.iter().filter(|r| !r.matches).count();
    if bad > 0 {
        println!("{bad} claim(s) did not meet their expectation");
    } else {
        println!(
            "{} claims: every verdict equals its expectation",
            reports.len()
        );
    }
    // The plain closing line CI reads: claims as expected vs not.
    println!("verify: {} passed, {bad} failed", reports.len() - bad);
    Ok(bad == 0)
}

fn bound_str(b: Option<usize>) -> String {
    b.map_or("none".to_string(), |b| b.to_string())
}

fn claim_report(
    c: &Claim,
    bound: Option<usize>,
    e: &Exploration,
    resumed: bool,
    checkpoint: bool,
) -> ClaimReport {
    let f = e.failure.as_ref();
    let mut replay = format!(
        "cargo xtask verify --claim {} --bound {}",
        c.id,
        bound_str(bound)
    );
    if checkpoint {
        replay.push_str(" --checkpoint");
    }
    ClaimReport {
        id: c.id.to_string(),
        area: c.area.to_string(),
        statement: c.statement.to_string(),
        variant: c.variant.to_string(),
        model: c.model.to_string(),
        checker: "loom".to_string(),
        expected: match c.expected {
            Expected::Safe => "safe".to_string(),
            Expected::Bug(_) => "bug".to_string(),
        },
        expected_invariant: match c.expected {
            Expected::Safe => None,
            Expected::Bug(i) => Some(i.name().to_string()),
        },
        verdict: judge(e).as_str().to_string(),
        matches: meets_expectation(c, e),
        executions: e.executions,
        complete: e.complete,
        bound,
        seconds: e.seconds,
        config_debug_vm: c.debug_vm,
        invariant: f.map(|f| f.invariant.name().to_string()),
        message: f.map(|f| f.message.clone()),
        error: e.error.clone(),
        resumed,
        replay,
        proof: c.proof.to_string(),
        trace: f.map(|f| f.trace.clone()).unwrap_or_default(),
    }
}

fn render_table(rs: &[ClaimReport]) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| claim | variant | checker | bound | executions | complete | seconds | expected | verdict | |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
    for r in rs {
        let exp = match &r.expected_invariant {
            Some(i) => format!("bug ({i})"),
            None => r.expected.clone(),
        };
        let got = match &r.invariant {
            Some(i) => format!("{} ({i})", r.verdict),
            None => r.verdict.clone(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {:.2} | {} | {} | {} |",
            r.id,
            r.variant,
            r.checker,
            bound_str(r.bound),
            r.executions,
            if r.complete { "yes" } else { "no" },
            r.seconds,
            exp,
            got,
            if r.matches { "" } else { "**MISMATCH**" }
        );
    }
    s
}

fn render_traces(rs: &[ClaimReport]) -> String {
    let mut s = String::new();
    for r in rs
        .iter()
        .filter(|r| !r.trace.is_empty() || r.error.is_some())
    {
        s.push_str(&format!(
            "\n{} ({}): {}\n",
            r.id,
            r.variant,
            r.message.as_deref().unwrap_or("")
        ));
        if let Some(e) = &r.error {
            s.push_str(&format!("  checker error: {e}\n"));
        }
        let _ = write_trace(&mut s, &r.trace);
        s.push_str(&format!("  replay: {}\n", r.replay));
    }
    s
}

fn md_traces(rs: &[ClaimReport]) -> String {
    let mut s = String::new();
    for r in rs.iter().filter(|r| !r.trace.is_empty()) {
        s.push_str(&format!(
            "\n## {} — {}\n\n{}\n\n```\n",
            r.id,
            r.variant,
            r.message.as_deref().unwrap_or("")
        ));
        let _ = write_trace(&mut s, &r.trace);
        s.push_str(&format!("```\n\nReplay: `{}`\n", r.replay));
    }
    s
}

// ------------------------------------------------------------------------------------------
// soak / replay

/// A failure saved by `soak`: everything needed to replay it.
#[derive(Serialize, Deserialize, Debug)]
struct SavedFailure {
    mmcheck: String,
    shuttle: String,
    area: String,
    variant: String,
    model: String,
    config_debug_vm: bool,
    scheduler: SchedKind,
    seed: u64,
    invariant: String,
    message: String,
    schedule: String,
    trace: Vec<Event>,
}

fn parse_seeds(s: &str) -> Result<std::ops::Range<u64>, String> {
    let bad = || format!("--seeds: '{s}' is not a seed range (A..B with A < B, or one seed)");
    if let Some((a, b)) = s.split_once("..") {
        let a: u64 = a.trim().parse().map_err(|_| bad())?;
        let b: u64 = b.trim().parse().map_err(|_| bad())?;
        if a >= b {
            return Err(bad());
        }
        Ok(a..b)
    } else {
        let a: u64 = s.trim().parse().map_err(|_| bad())?;
        Ok(a..a.checked_add(1).ok_or_else(bad)?)
    }
}

fn parse_partition(s: &str) -> Result<(u64, u64), String> {
    let bad = |why: &str| format!("--partition: '{s}' {why} (K/N with 1 <= K <= N)");
    let (k, n) = s.split_once('/').ok_or_else(|| bad("is not K/N"))?;
    let k: u64 = k.trim().parse().map_err(|_| bad("is not K/N"))?;
    let n: u64 = n.trim().parse().map_err(|_| bad("is not K/N"))?;
    if n == 0 {
        return Err(bad("has N = 0"));
    }
    if k == 0 || k > n {
        return Err(bad("has K outside 1..=N"));
    }
    Ok((k, n))
}

fn soak(a: SoakArgs) -> Result<bool, String> {
    let area = a.area.to_ascii_lowercase();
    let soaks: Vec<_> = SOAKS.iter().filter(|s| s.area == area).collect();
    if soaks.is_empty() {
        let areas: Vec<_> = SOAKS.iter().map(|s| s.area).collect();
        return Err(format!(
            "--area: no soak for area '{}' (known: {})",
            a.area,
            areas.join(", ")
        ));
    }
    let iterations: usize = match a.iterations.trim().parse() {
        Ok(n) if n > 0 => n,
        _ => {
            return Err(format!(
                "--iterations: '{}' is not a positive count",
                a.iterations
            ))
        }
    };
    let depth: usize = match a.depth.trim().parse() {
        Ok(n) if (1..=20).contains(&n) => n,
        _ => {
            return Err(format!(
                "--depth: '{}' is not a PCT depth (1..=20)",
                a.depth
            ))
        }
    };
    let seeds = parse_seeds(&a.seeds)?;
    let (k, n) = parse_partition(&a.partition)?;
    if !checker::RANDOMIZED {
        return Err("soak needs the shuttle build: run `cargo xtask soak` (it builds with --features shuttle)".to_string());
    }
    let sched = match a.scheduler {
        SchedKind::Pct => Scheduler::Pct { depth },
        SchedKind::Random => Scheduler::Random,
    };
    let mine: Vec<u64> = seeds
        .clone()
        .filter(|s| (s - seeds.start) % n == k - 1)
        .collect();
    println!(
        "soak {area}: {:?}, {iterations} iterations per seed, seeds {:?} part {k}/{n}: {} seed(s) {:?}",
        a.scheduler,
        seeds,
        mine.len(),
        mine
    );
    std::fs::create_dir_all(&a.out)
        .map_err(|e| format!("cannot create {}: {e}", a.out.display()))?;
    let tmp = a.out.join("shuttle-tmp");
    let mut all_ok = true;
    for s in &soaks {
        let mut found = None;
        let mut runs = 0u64;
        for &seed in &mine {
            let e = checker::soak(sched, seed, iterations, &tmp, || s.run())?;
            runs += e.executions;
            if let Some(err) = &e.error {
                return Err(format!("{} seed {seed}: checker error: {err}", s.variant));
            }
            if let Some(f) = e.failure {
                let schedule = e
                    .schedule_file
                    .as_deref()
                    .and_then(|p| std::fs::read_to_string(p).ok())
                    .ok_or("shuttle saved no schedule for the failure")?;
                let saved = SavedFailure {
                    mmcheck: env!("CARGO_PKG_VERSION").to_string(),
                    shuttle: SHUTTLE_VERSION.to_string(),
                    area: s.area.to_string(),
                    variant: s.variant.to_string(),
                    model: s.model.to_string(),
                    config_debug_vm: s.debug_vm,
                    scheduler: a.scheduler,
                    seed,
                    invariant: f.invariant.name().to_string(),
                    message: f.message.clone(),
                    schedule: schedule.trim().to_string(),
                    trace: f.trace.clone(),
                };
                let path = a.out.join(
                    format!("{}-{}-{:?}-seed{seed}.json", s.area, s.variant, a.scheduler)
                        .to_lowercase(),
                );
                std::fs::write(
                    &path,
                    serde_json::to_string_pretty(&saved).expect("serializes"),
                )
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                if let Some(p) = &e.schedule_file {
                    let _ = std::fs::remove_file(p);
                }
                found = Some((seed, f, path));
                break;
            }
        }
        let ok = found.is_some() == s.expect_bug;
        all_ok &= ok;
        match &found {
            Some((seed, f, path)) => {
                println!(
                    "{} {} ({}): failure after {runs} iterations, seed {seed}: {}: {}",
                    if ok { "ok  " } else { "FAIL" },
                    s.variant,
                    if s.expect_bug {
                        "known bad"
                    } else {
                        "expected to hold"
                    },
                    f.invariant,
                    f.message
                );
                let mut t = String::new();
                let _ = write_trace(&mut t, &f.trace);
                print!("{t}");
                println!("  replay: cargo xtask replay {}", path.display());
            }
            None => println!(
                "{} {} ({}): no failure in {runs} iterations",
                if ok { "ok  " } else { "FAIL" },
                s.variant,
                if s.expect_bug {
                    "known bad: NOT FOUND"
                } else {
                    "holds"
                }
            ),
        }
    }
    Ok(all_ok)
}

fn replay(file: &Path) -> Result<bool, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let saved: SavedFailure = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a saved mmcheck failure: {e}", file.display()))?;
    if saved.shuttle != SHUTTLE_VERSION {
        return Err(format!(
            "{} was recorded with shuttle {}, this build has {SHUTTLE_VERSION}: schedules replay only on the same version",
            file.display(),
            saved.shuttle
        ));
    }
    let soak = SOAKS
        .iter()
        .find(|s| s.area == saved.area && s.variant == saved.variant && s.model == saved.model)
        .ok_or_else(|| {
            format!(
                "{}: no soak {} / {} in this build",
                file.display(),
                saved.area,
                saved.variant
            )
        })?;
    if !checker::RANDOMIZED {
        return Err("replay needs the shuttle build: run `cargo xtask replay FILE`".to_string());
    }
    let e = checker::replay(&saved.schedule, || soak.run())
        .map_err(|e| format!("{}: {e}", file.display()))?;
    match e.failure {
        Some(f) => {
            println!(
                "replayed {} {} seed {}: {}: {}",
                saved.area, saved.variant, saved.seed, f.invariant, f.message
            );
            let mut t = String::new();
            let _ = write_trace(&mut t, &f.trace);
            print!("{t}");
            let same = f.trace == saved.trace && f.invariant.name() == saved.invariant;
            println!(
                "{}",
                if same {
                    "same trace as recorded"
                } else {
                    "DIFFERENT trace from the recorded one"
                }
            );
            Ok(same)
        }
        None => {
            println!(
                "replay of {} ended without the recorded failure",
                file.display()
            );
            Ok(false)
        }
    }
}
