//! `mmcheck verify`: run the loom claims, each at its bound, on `--jobs` threads, and report;
//! or the matrix of every model on every variant (`--matrix`, `--variant`); or the safeguard
//! coverage (`--safeguards`). Reports: the terminal, `--json`, `--markdown`, `--html`.

use crate::checkpoint::{self, Checkpoint};
use crate::jobs;
use crate::progress::Display;
use mmcheck::checker::Shard;
use mmcheck::sync::EXHAUSTIVE;
use mmcheck::variant::Area;
use mmcheck_claims::explore::{effective_checker, run, run_claim, Job, RunSettings};
use mmcheck_claims::matrix::{self, Cell};
use mmcheck_claims::report::{self, html, CellReport, ClaimReport};
use mmcheck_claims::select::select;
use mmcheck_claims::settings;
use mmcheck_claims::{safeguards, table, Bound, CheckerKind, Claim};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

pub use mmcheck_cli::VerifyArgs as Args;

/// The bound `--quick` gives every claim.
const QUICK_BOUND: usize = 2;

/// The loom claims the arguments select (all of them by default).
fn selection(a: &Args) -> Result<Vec<&'static Claim>, String> {
    let mut selected: Vec<&'static Claim> = Vec::new();
    if a.claims.is_empty() {
        selected.extend(table::all().filter(|c| c.checker.kind() == CheckerKind::Loom));
        return Ok(selected);
    }
    for pat in &a.claims {
        let found = select(pat)?;
        let loom: Vec<_> = found
            .iter()
            .filter(|c| c.checker.kind() == CheckerKind::Loom)
            .collect();
        if loom.is_empty() {
            return Err(format!(
                "--claim {pat}: {} is a {} claim; verify runs loom claims (use `cargo xtask soak`, or `cargo test --test {}`)",
                found[0].id,
                found[0].checker.kind(),
                found[0].area()
            ));
        }
        for c in loom {
            if !selected.iter().any(|s| s.id == c.id) {
                selected.push(c);
            }
        }
    }
    Ok(selected)
}

/// What one verify run does.
enum Plan {
    Claims(Vec<(&'static Claim, RunSettings, Option<Checkpoint>)>),
    Cells(Vec<Cell>),
    Safeguards,
    Calibration,
    /// `--calibration --litmus FILES`: each file's path, its parsed test and its `Result:`.
    Litmus(Vec<LitmusFile>),
    Merge(Vec<ClaimReport>),
}

/// A litmus file given on the command line, read and parsed.
type LitmusFile = (
    std::path::PathBuf,
    Arc<mmcheck_models::litmus::Test>,
    Option<mmcheck_claims::calibration::LitmusResult>,
);

/// Read and parse every `--litmus` file; the first that cannot be read or that the interpreter
/// refuses stops the run, before anything is explored.
fn read_litmus(files: &[std::path::PathBuf]) -> Result<Vec<LitmusFile>, String> {
    use mmcheck_claims::calibration::LitmusResult;
    let mut tests = Vec::new();
    for f in files {
        let text =
            std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        let t =
            mmcheck_models::litmus::parse(&text).map_err(|e| format!("{}: {e}", f.display()))?;
        let lkmm = match &t.result {
            None => None,
            Some(w) => Some(LitmusResult::parse(w).ok_or_else(|| {
                format!(
                    "{}: `Result: {w}` is not Never, Sometimes or DEADLOCK",
                    f.display()
                )
            })?),
        };
        tests.push((f.clone(), Arc::new(t), lkmm));
    }
    Ok(tests)
}

/// The terminal's width, for swimlanes (None: not a terminal, or too narrow to tell).
fn terminal_width() -> Option<usize> {
    use std::io::IsTerminal;
    if let Some(w) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
    {
        return Some(w);
    }
    std::io::stdout()
        .is_terminal()
        .then(terminal_size::terminal_size)
        .flatten()
        .map(|(w, _)| w.0 as usize)
}

pub fn run_verify(a: Args) -> Result<bool, String> {
    // Validate every input before anything runs or is written.
    let bound_override = if a.unbounded {
        Some(Bound::Unbounded)
    } else if a.quick {
        Some(Bound::Preemption(QUICK_BOUND))
    } else {
        a.bound
    };
    for p in [&a.json, &a.markdown, &a.html].into_iter().flatten() {
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
    let plan = if !a.merge.is_empty() {
        Plan::Merge(read_shards(&a.merge)?)
    } else if a.safeguards {
        Plan::Safeguards
    } else if a.calibration && !a.litmus.is_empty() {
        Plan::Litmus(read_litmus(&a.litmus)?)
    } else if a.calibration {
        Plan::Calibration
    } else if let Some(v) = &a.variant {
        Plan::Cells(with_bound(matrix::plan_variant(v)?, bound_override))
    } else if a.matrix {
        let areas = a
            .area
            .map_or(Area::ALL.to_vec(), |x| vec![settings::area(x)]);
        Plan::Cells(with_bound(
            areas.into_iter().flat_map(matrix::plan).collect(),
            bound_override,
        ))
    } else {
        let mut plan = Vec::new();
        for c in selection(&a)? {
            let s = RunSettings {
                bound: bound_override,
                shard: a.shard.map(|(index, count)| Shard {
                    index,
                    count,
                    depth: a.shard_depth as usize,
                }),
                ..RunSettings::default()
            };
            let bound = effective_checker(&Job::of(c), &s)
                .bound()
                .expect("a loom claim has a bound");
            let cp = a
                .checkpoint
                .then(|| checkpoint::inspect(&a.checkpoint_dir, c, bound))
                .transpose()?;
            plan.push((c, s, cp));
        }
        Plan::Claims(plan)
    };
    let command = format!(
        "mmcheck {}",
        std::env::args().skip(1).collect::<Vec<_>>().join(" ")
    );
    if let Plan::Safeguards = plan {
        return safeguard_report(&a, &command);
    }
    let plan = match plan {
        Plan::Merge(reports) => {
            let merged = mmcheck_claims::shard::merge(reports)?;
            return claim_reports(&a, &command, &merged, &[], None);
        }
        p => p,
    };
    if !EXHAUSTIVE {
        return Err(
            "verify needs the loom build: run `cargo xtask verify` (it builds with --cfg loom)"
                .to_string(),
        );
    }
    let jobs = a.jobs.map_or_else(jobs::default_jobs, |j| j as usize);
    if let Plan::Litmus(tests) = &plan {
        return litmus_report(tests, jobs);
    }
    if let Plan::Calibration = plan {
        return calibration_report(&a, &command, jobs);
    }
    let display = Display::new(!a.no_progress);
    let start = std::time::Instant::now();
    let (claims, cells) = match plan {
        Plan::Claims(plan) => (run_claims(plan, jobs, &display)?, Vec::new()),
        Plan::Cells(cells) => (Vec::new(), run_cells(&cells, jobs, &display)?),
        Plan::Safeguards | Plan::Calibration | Plan::Litmus(_) | Plan::Merge(_) => {
            unreachable!("handled above")
        }
    };
    let wall = start.elapsed().as_secs_f64();
    claim_reports(&a, &command, &claims, &cells, Some((wall, jobs)))
}

/// The shard reports in `files` (each a `verify --shard K/N --json` report).
fn read_shards(files: &[std::path::PathBuf]) -> Result<Vec<ClaimReport>, String> {
    let mut all = Vec::new();
    for f in files {
        let text =
            std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        let rs: Vec<ClaimReport> = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{} is not a claims report of `verify --json`: {e}",
                f.display()
            )
        })?;
        all.extend(rs);
    }
    Ok(all)
}

/// Print and write the reports of claims (or matrix cells); true when every one met its
/// expectation.
fn claim_reports(
    a: &Args,
    command: &str,
    claims: &[ClaimReport],
    cells: &[CellReport],
    timing: Option<(f64, usize)>,
) -> Result<bool, String> {
    let width = terminal_width();

    if !claims.is_empty() {
        println!("{}", report::table(claims));
        print!("{}", report::traces(claims, width));
    }
    if !cells.is_empty() {
        println!("{}", report::matrix(cells));
        // Every new counterexample of the variant asked for; in the whole matrix, those of the
        // kernel's own code (a mutant failing a model nobody claimed is no news).
        let shown = |c: &&CellReport| {
            a.variant.is_some()
                || mmcheck_models::registry::variant(&c.variant)
                    .is_some_and(|v| !matches!(v.meta.kind, mmcheck::variant::Kind::Mutant { .. }))
        };
        for c in cells
            .iter()
            .filter(|c| c.claim.is_none() && c.failure.is_some())
            .filter(shown)
        {
            let f = c.failure.as_ref().expect("filtered");
            println!(
                "\nnew: {} on {}: {}: {}",
                c.model, c.variant, f.cause, f.message
            );
            print!("{}", report::trace_text(&f.trace, width));
            println!("  replay: {}", c.replay);
        }
    }
    if let Some(p) = &a.json {
        let text = if cells.is_empty() {
            serde_json::to_string_pretty(claims)
        } else {
            serde_json::to_string_pretty(cells)
        }
        .expect("report serializes");
        std::fs::write(p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    if let Some(p) = &a.markdown {
        let mut md = report::markdown(claims);
        if !cells.is_empty() {
            md.push_str(&report::matrix(cells));
        }
        std::fs::write(p, md).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    if let Some(p) = &a.html {
        let page = html::render(&html::Page {
            title: "mmcheck verify",
            command,
            claims,
            cells,
            calibration: (&[], &[]),
        });
        std::fs::write(p, page).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    let bad = claims.iter().filter(|r| !r.matches).count()
        + cells.iter().filter(|c| c.matches == Some(false)).count();
    let new = cells.iter().filter(|c| c.matches.is_none()).count();
    let runs = claims.len() + cells.len() - new;
    if bad > 0 {
        println!("{bad} run(s) did not meet their expectation");
    }
    if new > 0 {
        println!("{new} matrix cell(s) have no claim yet (shown as new)");
    }
    if let Some((wall, jobs)) = timing {
        println!("wall time {wall:.1}s with {jobs} job(s)");
    }
    // The plain closing line CI reads.
    println!("verify: {} passed, {bad} failed", runs - bad);
    Ok(bad == 0)
}

/// Apply `--bound` / `--unbounded` / `--quick` to matrix cells.
fn with_bound(mut cells: Vec<Cell>, bound: Option<Bound>) -> Vec<Cell> {
    if let Some(b) = bound {
        for c in &mut cells {
            c.job.checker = mmcheck_claims::Checker::Loom { bound: b };
        }
    }
    cells
}

fn status(matches: Option<bool>) -> &'static str {
    match matches {
        Some(true) => "ok  ",
        Some(false) => "FAIL",
        None => "new ",
    }
}

fn run_claims(
    plan: Vec<(&'static Claim, RunSettings, Option<Checkpoint>)>,
    jobs: usize,
    display: &Display,
) -> Result<Vec<ClaimReport>, String> {
    for (_, _, cp) in &plan {
        if let Some(cp) = cp {
            cp.create()?;
        }
    }
    let n = plan.len();
    let results = jobs::run_all(&plan, jobs, |i, (c, s, cp)| {
        let mut s = s.clone();
        let bound = effective_checker(&Job::of(c), &s)
            .bound()
            .expect("a loom claim has a bound");
        if let Some(cp) = cp {
            if cp.resume {
                display.println(&format!(
                    "resuming {} (bound {bound}) from {}: {}",
                    c.id,
                    cp.loom_file.display(),
                    cp.before
                        .map_or("it records no runs before it".to_string(), |b| format!(
                            "{} executions in {:.0}s before it",
                            b.executions, b.seconds
                        ))
                ));
            }
            s.checkpoint = Some(cp.loom_file.clone());
        }
        let executions = Arc::new(AtomicU64::new(0));
        s.progress = Some(executions.clone());
        let line = display.start(
            format!("[{}/{n}] {} ({}, bound {bound})", i + 1, c.id, c.variant),
            executions,
        );
        let e = run_claim(c, &s)?;
        drop(line);
        if let (Some(cp), None) = (cp, &e.error) {
            cp.remove();
        }
        let resumed = cp.as_ref().is_some_and(|cp| cp.resume);
        let mut r = ClaimReport::new(c, &s, &e, resumed);
        if let Some(b) = cp.as_ref().and_then(|cp| cp.before) {
            r.executions += b.executions;
            r.seconds += b.seconds;
            r.before = Some(b);
        }
        display.println(&format!(
            "{} {:<24} {:<28} {:>9} executions {:>7.2}s{}",
            status(Some(r.matches)),
            r.id,
            r.verdict.to_string(),
            r.executions,
            r.seconds,
            match (resumed, r.before) {
                (false, _) => String::new(),
                (true, None) => " (resumed from a checkpoint that records no runs before it: executions and seconds since it)".to_string(),
                (true, Some(b)) => format!(
                    " (resumed from a checkpoint: {} executions and {:.2}s before it included)",
                    b.executions, b.seconds
                ),
            }
        ));
        Ok(r)
    });
    results.into_iter().collect()
}

fn run_cells(cells: &[Cell], jobs: usize, display: &Display) -> Result<Vec<CellReport>, String> {
    let n = cells.len();
    let results = jobs::run_all(cells, jobs, |i, c| {
        let executions = Arc::new(AtomicU64::new(0));
        let s = RunSettings {
            progress: Some(executions.clone()),
            ..RunSettings::default()
        };
        let line = display.start(
            format!(
                "[{}/{n}] {} on {} (bound {})",
                i + 1,
                c.model,
                c.variant,
                c.job.checker.bound().unwrap_or(Bound::Unbounded)
            ),
            executions,
        );
        let e = run(&c.job, &s)?;
        drop(line);
        let r = CellReport::new(c, &e);
        display.println(&format!(
            "{} {:<26} {:<26} {:<28} {:>9} executions {:>7.2}s",
            status(r.matches),
            r.model,
            r.variant,
            r.verdict.to_string(),
            r.executions,
            r.seconds
        ));
        Ok(r)
    });
    results.into_iter().collect()
}

fn safeguard_report(a: &Args, command: &str) -> Result<bool, String> {
    println!("{}", safeguards::markdown());
    let problems = safeguards::problems();
    for p in &problems {
        println!("MISSING {p}");
    }
    if let Some(p) = &a.html {
        let page = html::render(&html::Page {
            title: "mmcheck safeguard coverage",
            command,
            claims: &[],
            cells: &[],
            calibration: (&[], &[]),
        });
        std::fs::write(p, page).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    if let Some(p) = &a.markdown {
        std::fs::write(p, safeguards::markdown())
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    let rows = table::safeguards().count();
    let shown: usize = table::safeguards().map(|g| g.variants.len()).sum();
    println!(
        "safeguards: {rows} written, {shown} shown over {} SAFE variants ({} inherited), {} problem(s)",
        safeguards::safe_variants().len(),
        shown - rows,
        problems.len()
    );
    Ok(problems.is_empty())
}

/// `--calibration --litmus FILES`: each file (read and parsed by [`read_litmus`]) explored
/// under loom without a bound, and its observed result compared with its `Result:` line. True
/// if every file with a `Result:` line agrees.
fn litmus_report(tests: &[LitmusFile], jobs: usize) -> Result<bool, String> {
    use mmcheck_claims::calibration::{self, CalChecker};
    let measured = jobs::run_all(tests, jobs, |_, (_, t, _)| {
        calibration::run_test(t.clone(), CalChecker::Loom)
    });
    let mut ok = true;
    println!("| file | test | LKMM (its Result: line) | mmcheck | agreement | executions |");
    println!("|---|---|---|---|---|---|");
    for ((f, t, lkmm), m) in tests.iter().zip(measured) {
        let m = m?;
        let (l, agreement) = match lkmm {
            Some(l) => (
                l.to_string(),
                calibration::agreement(*l, m.result).to_string(),
            ),
            None => ("(none)".to_string(), "-".to_string()),
        };
        ok &= agreement == "agree" || lkmm.is_none();
        println!(
            "| {} | {} | {l} | {} | {agreement} | {} |",
            f.display(),
            t.name,
            m.result,
            m.executions
        );
    }
    Ok(ok)
}

/// `--calibration`: every loom row of the calibration table run (on `jobs` threads) and
/// compared with the table.
fn calibration_report(a: &Args, command: &str, jobs: usize) -> Result<bool, String> {
    use mmcheck_claims::calibration::{self, Agreement};
    let rows: Vec<_> = calibration::rows_of_build().collect();
    if rows.is_empty() {
        return Err("no calibration row runs in this build".to_string());
    }
    let start = std::time::Instant::now();
    let measured = jobs::run_all(&rows, jobs, |_, r| calibration::run(r));
    let wall = start.elapsed().as_secs_f64();
    println!("{}", calibration::markdown(&rows, Some(&measured)));
    let moved: Vec<_> = rows
        .iter()
        .zip(&measured)
        .filter(
            |(r, m)| !matches!(m, Ok(m) if m.result == r.mmcheck && m.executions == r.executions),
        )
        .map(|(r, _)| r.test)
        .collect();
    if let Some(p) = &a.html {
        let header = [
            "test",
            "file",
            "LKMM",
            "mmcheck",
            "agreement",
            "executions",
            "claims it could affect",
        ];
        let body: Vec<Vec<String>> = rows
            .iter()
            .zip(&measured)
            .map(|(r, m)| {
                let (result, executions, agreement) = match m {
                    Ok(m) => (
                        m.result.to_string(),
                        m.executions.to_string(),
                        calibration::agreement(r.lkmm(), m.result),
                    ),
                    Err(e) => (format!("error: {e}"), "-".to_string(), r.agreement()),
                };
                vec![
                    r.test.to_string(),
                    r.file(),
                    r.lkmm().to_string(),
                    result,
                    agreement.to_string(),
                    executions,
                    if agreement == Agreement::Agree {
                        String::new()
                    } else {
                        r.affects.to_string()
                    },
                ]
            })
            .collect();
        let page = html::render(&html::Page {
            title: "mmcheck calibration",
            command,
            claims: &[],
            cells: &[],
            calibration: (&header, &body),
        });
        std::fs::write(p, page).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    for t in &moved {
        println!("MOVED {t}: its result or execution count differs from the table");
    }
    println!("wall time {wall:.1}s with {jobs} job(s)");
    println!(
        "calibration: {} rows, {} as recorded, {} moved",
        rows.len(),
        rows.len() - moved.len(),
        moved.len()
    );
    Ok(moved.is_empty())
}
