//! `cargo xtask`: builds mmcheck for the checker a command needs and runs it.
//!
//! * `cargo xtask verify [ARGS]`  — every loom claim (`--cfg loom`, release): verdict table,
//!   kernel-level traces, JSON / Markdown reports. `cargo xtask verify --help`.
//! * `cargo xtask soak [ARGS]`    — an area's shuttle claims (`--features shuttle`), seed ranges,
//!   partitions.
//! * `cargo xtask replay FILE`    — replay a failure saved by `soak`.
//! * `cargo xtask list`           — the claims.
//! * `cargo xtask test`           — the whole test suite: std tests (unit, registry, layers,
//!   golden diffs, proptest claims, CLI), the loom claims and calibration, the shuttle claims,
//!   the store-buffer build, a kill-and-resume run of `verify --checkpoint`, and the HTML
//!   report rendered in headless Chromium.
//! * `cargo xtask bless`          — rewrite the variants' golden diffs after a deliberate change.
//! * `cargo xtask new-variant --area A --from PARENT ID` — start a variant from its parent.
//! * `cargo xtask bench`          — the benchmarks, then their ratios beside the seeds' figures.
//!
//! Exit status is the runner's: 0 all verdicts as expected, 1 a verdict differs, 2 bad input.

mod bench;
mod browser;
mod new_variant;

use mmcheck::variant::Area;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string()));
    c.current_dir(root());
    c
}

/// `--cfg loom` added to whatever RUSTFLAGS the caller has.
fn loom_rustflags() -> String {
    let mut f = std::env::var("RUSTFLAGS").unwrap_or_default();
    if !f.split_whitespace().any(|w| w == "loom") {
        f.push_str(" --cfg loom");
    }
    f.trim().to_string()
}

/// The builds mmcheck has: the checker each one runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Build {
    Std,
    Loom,
    Shuttle,
    /// shuttle with the shim's store-buffer mode (plain stores become visible late).
    StoreBuffer,
}

impl Build {
    /// Apply this build to a cargo command that builds the workspace root package.
    fn apply(self, c: &mut Command) {
        match self {
            Build::Loom => {
                c.env("RUSTFLAGS", loom_rustflags());
            }
            Build::Shuttle => {
                c.args(["--features", "mmcheck/shuttle"]);
            }
            Build::StoreBuffer => {
                c.args(["--features", "mmcheck/store-buffer"]);
            }
            Build::Std => {}
        }
    }
}

fn status_code(s: std::io::Result<std::process::ExitStatus>, what: &str) -> u8 {
    match s {
        Ok(st) => st.code().map_or(1, |c| c.clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("xtask: cannot run {what}: {e}");
            2
        }
    }
}

fn run_mmcheck(build: Build, args: &[String]) -> u8 {
    let mut c = cargo();
    c.args([
        "run",
        "--quiet",
        "--release",
        "-p",
        "mmcheck-claims",
        "--bin",
        "mmcheck",
    ]);
    build.apply(&mut c);
    c.arg("--").args(args);
    status_code(c.status(), "cargo run --bin mmcheck")
}

/// Build the runner for loom; its path, or None when the build failed.
fn loom_runner() -> Option<PathBuf> {
    let mut build = cargo();
    build.args([
        "build",
        "--quiet",
        "--release",
        "-p",
        "mmcheck-claims",
        "--bin",
        "mmcheck",
    ]);
    Build::Loom.apply(&mut build);
    (status_code(build.status(), "cargo build (loom)") == 0)
        .then(|| root().join("target/release/mmcheck"))
}

/// The HTML report rendered in headless Chromium (`browser.rs`); true when it passes.
fn browser_test() -> bool {
    let Some(bin) = loom_runner() else {
        return false;
    };
    match browser::test(&bin, &root().join("target/mmcheck/browser-test")) {
        Ok(what) => {
            eprintln!("{what}");
            true
        }
        Err(e) => {
            eprintln!("browser test: {e}");
            false
        }
    }
}

/// One step of `cargo xtask test`.
fn step(name: &str, mut c: Command) -> bool {
    eprintln!("\n=== xtask test: {name}");
    let ok = status_code(c.status(), name) == 0;
    if !ok {
        eprintln!("=== xtask test: {name} FAILED");
    }
    ok
}

/// `cargo test` of the per-area claim tests (`tests/<area>.rs`) in one build.
fn area_tests(build: Build, extra: &[&str]) -> Command {
    let mut c = cargo();
    c.args(["test", "--release", "-p", "mmcheck"]);
    build.apply(&mut c);
    for a in Area::ALL {
        c.args(["--test", a.name()]);
    }
    c.args(extra);
    c
}

fn test(args: &[String]) -> u8 {
    if let Some(a) = args.first() {
        eprintln!("xtask test: unexpected argument '{a}' (it takes none; settings come from MMCHECK_* variables)");
        return 2;
    }
    let mut results = Vec::new();

    let mut std_tests = cargo();
    std_tests.args(["test", "--workspace"]);
    results.push((
        "std tests (unit, registry, layers, golden diffs, proptest claims, CLI)",
        step("std tests", std_tests),
    ));

    results.push((
        "loom claims, shim tests, calibration",
        step(
            "loom claims",
            area_tests(
                Build::Loom,
                &["--test", "sync_loom", "--test", "calibration"],
            ),
        ),
    ));
    results.push((
        "shuttle claims (soak)",
        step("shuttle claims", area_tests(Build::Shuttle, &[])),
    ));
    results.push((
        "store-buffer build: store-buffer and shuttle claims, calibration",
        step(
            "store-buffer claims",
            area_tests(Build::StoreBuffer, &["--test", "calibration"]),
        ),
    ));

    eprintln!("\n=== xtask test: checkpoint resume");
    results.push((
        "verify --checkpoint: killed mid-claim, rerun resumes",
        checkpoint_resume(),
    ));

    eprintln!("\n=== xtask test: HTML report in headless Chromium");
    let browser = browser_test();
    results.push((
        "verify --html rendered in Chromium: DOM and screenshot",
        browser,
    ));

    eprintln!();
    let passed = results.iter().filter(|(_, ok)| *ok).count();
    for (name, ok) in &results {
        eprintln!("{} {name}", if *ok { "ok  " } else { "FAIL" });
    }
    if passed == results.len() {
        println!("xtask test: all {passed} steps passed");
    } else {
        println!(
            "xtask test: {} of {} steps failed",
            results.len() - passed,
            results.len()
        );
    }
    u8::from(passed != results.len())
}

/// Start `verify --checkpoint` on a claim that runs for a while and kill it mid-claim, several
/// times in a row (each run resumes the last one's checkpoint, and a kill can land while loom
/// writes it), then run it to the end: every rerun must resume without refusing a corrupt
/// checkpoint, and the last one must end with the claim's expected verdict and remove its
/// checkpoint.
fn checkpoint_resume() -> bool {
    use std::time::{Duration, Instant};
    /// A claim and bound that explore for long enough to be killed mid-run.
    const CLAIM: &str = "compound.1";
    const BOUND: &str = "5";
    /// Runs killed before the one that finishes.
    const KILLS: u32 = 4;
    let dir = root().join("target/mmcheck/checkpoint-resume-test");
    let _ = std::fs::remove_dir_all(&dir);
    let Some(bin) = loom_runner() else {
        return false;
    };
    let args = [
        "verify",
        "--claim",
        CLAIM,
        "--bound",
        BOUND,
        "--checkpoint",
        "--no-progress",
        "--checkpoint-dir",
    ];
    let loom_file = dir.join(format!("{CLAIM}-bound-{BOUND}.loom.json"));
    let log = dir.with_extension("log");
    if let Some(parent) = log.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    for kill in 1..=KILLS {
        let Ok(out) = std::fs::File::create(&log) else {
            eprintln!("cannot create {}", log.display());
            return false;
        };
        let err = out.try_clone().expect("a file handle clones");
        let mut child = match Command::new(&bin)
            .args(args)
            .arg(&dir)
            .stdout(out)
            .stderr(err)
            .spawn()
        {
            Ok(c) => c,
            Err(e) => {
                eprintln!("cannot start {}: {e}", bin.display());
                return false;
            }
        };
        // The first run explores until loom has written a checkpoint; later runs resume it.
        let start = Instant::now();
        while !loom_file.exists() && start.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(200));
        }
        std::thread::sleep(Duration::from_millis(if kill == 1 { 2000 } else { 700 }));
        let finished_early = matches!(child.try_wait(), Ok(Some(_)));
        let _ = child.kill();
        let _ = child.wait();
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.contains("corrupt") || (kill > 1 && !text.contains(&format!("resuming {CLAIM}"))) {
            eprintln!("checkpoint resume: run {kill} did not resume:\n{text}");
            return false;
        }
        if finished_early || !loom_file.exists() {
            eprintln!(
                "checkpoint resume: no checkpoint to resume from after run {kill} (finished early: {finished_early})"
            );
            return false;
        }
        eprintln!(
            "run {kill} killed after {:.1}s with a checkpoint in {}",
            start.elapsed().as_secs_f64(),
            dir.display()
        );
    }
    let _ = std::fs::remove_file(&log);
    let Ok(out) = Command::new(&bin).args(args).arg(&dir).output() else {
        return false;
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let resumed = text.contains(&format!("resuming {CLAIM}"));
    let ok = out.status.code() == Some(0) && resumed && !loom_file.exists();
    eprintln!(
        "last run: exit {:?}, resumed {resumed}, checkpoint removed {}",
        out.status.code(),
        !loom_file.exists()
    );
    if !ok {
        eprintln!("{text}");
    }
    ok
}

/// Rewrite the golden diffs (`src/<area>/<variant>.diff`) from the files.
fn bless() -> u8 {
    let mut c = cargo();
    c.args([
        "test",
        "-p",
        "mmcheck",
        "--test",
        "golden",
        "--",
        "golden_diffs_match_the_files",
    ])
    .env("MMCHECK_BLESS", "1");
    let code = status_code(c.status(), "cargo test --test golden");
    if code == 0 {
        eprintln!("golden diffs rewritten: review them with `git diff -- 'src/*/*.diff'`");
    }
    code
}

fn usage() -> u8 {
    let areas: Vec<_> = Area::ALL.iter().map(|a| a.name()).collect();
    eprintln!(
        "usage: cargo xtask <verify|soak|replay|list|test|bless|new-variant|bench> [ARGS]\n\
         \n  verify       run the loom claims (or --matrix, --variant ID, --safeguards; --help for options)\
         \n  soak         an area's shuttle claims over seeds: --area {} --scheduler pct|random --iterations N --seeds A..B --partition K/N\
         \n  replay       replay a failure saved by soak: replay FILE\
         \n  list         list the claims\
         \n  test         the whole test suite (std, loom, shuttle, checkpoint resume, HTML in Chromium)\
         \n  bless        rewrite the variants' golden diffs after a deliberate change\
         \n  new-variant  --area A --from PARENT [--kind K] ID: start a variant from its parent\
         \n  bench        the criterion benchmarks and their ratios beside the seeds' figures\
         \n  browser-test the HTML report rendered by headless Chromium (part of `test`)",
        areas.join("|")
    );
    2
}

fn new_variant(args: &[String]) -> u8 {
    match new_variant::run(&root(), args) {
        Ok(file) => {
            eprintln!("created {file} (a copy of its parent with a new META)");
            let code = bless();
            if code == 0 {
                eprintln!(
                    "next: paste the kernel change into {file}, fill in META (subject, source), \
                     `cargo xtask bless`, `cargo xtask verify --variant <id>`, then add its claim \
                     rows (claims/table/<area>.rs) and proof (proofs/) - CONTRIBUTING.md"
                );
            }
            code
        }
        Err(e) => {
            eprintln!("xtask new-variant: {e}");
            2
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((cmd, rest)) = args.split_first() else {
        return ExitCode::from(usage());
    };
    let mut forward = vec![cmd.clone()];
    forward.extend(rest.iter().cloned());
    let code = match cmd.as_str() {
        "verify" => run_mmcheck(Build::Loom, &forward),
        "soak" | "replay" => run_mmcheck(Build::Shuttle, &forward),
        "list" => run_mmcheck(Build::Std, &forward),
        "test" => test(rest),
        "bless" => bless(),
        "new-variant" => new_variant(rest),
        "browser-test" => u8::from(!browser_test()),
        "bench" => match bench::run(&root(), cargo()) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("xtask bench: {e}");
                1
            }
        },
        "-h" | "--help" | "help" => {
            usage();
            0
        }
        other => {
            eprintln!("xtask: unknown command '{other}'");
            usage()
        }
    };
    ExitCode::from(code)
}
