//! `cargo xtask test`: the whole suite, step by step, and its two steps that are not cargo
//! tests (the kill-and-resume run of `verify --checkpoint`, the browser test).

use crate::run::{cargo, loom_runner, root, status_code, Build};
use crate::{areas, browser};
use std::process::Command;

/// The HTML report rendered in headless Chromium (`browser.rs`); true when it passes.
pub fn browser_test() -> bool {
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

/// The loom claims that take about half a minute or more each (2 cores, since loom's DPOR fix:
/// proofs/README.md, loom's semantics, item 8). The loom step of `cargo xtask test` skips them:
/// `cargo xtask verify`, the other command README starts with and CI's main job, runs every
/// claim with the same runner code, these included; running them twice did not fit CI's time.
const LONG_LOOM_CLAIMS: &[&str] = &[
    "compound.1-debug-vm",
    "compound.2-linux-3.11",
    "compound.2-27c73ae7",
    "compound.4-fix",
    "compound.8-fix",
    "compound.10",
    "compound.10-no-get-recheck",
    "lru.1",
    "lru.1-debug-vm",
    "lru.3",
    "lru.5",
    "lru.5-debug-vm",
    "lru.6",
    "lru.18",
    "lru.18-debug-vm",
    "lru.18-linux-2.6.37",
    "lru.21",
    "lru.21-linux-2.6.37",
    "lru.22",
    "lru.22-linux-2.6.37",
];

/// `cargo test` of the per-area claim tests (`tests/<area>.rs`) in one build.
fn area_tests(build: Build, extra: &[&str]) -> Command {
    let mut c = cargo();
    c.args(["test", "--release", "-p", "mmcheck"]);
    build.apply(&mut c);
    for a in areas() {
        c.args(["--test", a]);
    }
    c.args(extra);
    c
}

pub fn test() -> u8 {
    let mut results = Vec::new();
    // The claim tests write their reports here; the proofs' quotes are checked against them.
    let reports = root().join("target/mmcheck/claim-reports");
    let _ = std::fs::remove_dir_all(&reports);

    let mut std_tests = cargo();
    std_tests.args(["test", "--workspace"]);
    std_tests.env("MMCHECK_REPORT_DIR", &reports);
    results.push((
        "std tests (unit, registry, layers, golden diffs, proptest and enumerated claims, CLI)",
        step("std tests", std_tests),
    ));

    let mut loom_args = vec![
        "--test",
        "sync_loom",
        "--test",
        "calibration",
        "--",
        "--exact",
    ];
    for c in LONG_LOOM_CLAIMS {
        loom_args.extend(["--skip", c]);
    }
    results.push((
        "loom claims (but LONG_LOOM_CLAIMS, which the verify step runs), shim tests, calibration",
        step("loom claims", {
            let mut c = area_tests(Build::Loom, &loom_args);
            c.env("MMCHECK_REPORT_DIR", &reports);
            c
        }),
    ));
    results.push((
        "shuttle claims (soak)",
        step("shuttle claims", {
            let mut c = area_tests(Build::Shuttle, &[]);
            c.env("MMCHECK_REPORT_DIR", &reports);
            c
        }),
    ));

    // The store-buffer build runs the shuttle claims again in its own mode; only its own
    // claims write reports (claims/testing.rs).
    results.push((
        "store-buffer build: store-buffer and shuttle claims, calibration",
        step("store-buffer claims", {
            let mut c = area_tests(Build::StoreBuffer, &["--test", "calibration"]);
            c.env("MMCHECK_REPORT_DIR", &reports);
            c
        }),
    ));
    eprintln!("\n=== xtask test: the runs quoted in proofs/");
    results.push((
        "the runs quoted in proofs/ are the claim tests' (proof-traces; verify's longest claims: .ci/run)",
        quoted_runs(&reports),
    ));

    results.push((
        "vendored loom and generator: their upstream test suites against the patched forks",
        step("vendored loom and generator", vendor_tests()),
    ));

    eprintln!("\n=== xtask test: sharded claims (GNU parallel, verify --merge)");
    results.push((
        "verify --shard K/3 of the claims of SHARDED_CLAIMS under GNU parallel, joined by verify --merge: each claim's verdict",
        sharded_claims(),
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

/// `cargo xtask proof-traces` over the reports the claim tests wrote: every quoted run of
/// those claims must be the run (the figures of a loom, shuttle or enumerated claim, and every
/// quoted counterexample line).
fn quoted_runs(dir: &std::path::Path) -> bool {
    let mut files: Vec<std::path::PathBuf> = match std::fs::read_dir(dir) {
        Ok(d) => d.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            eprintln!("{}: {e}", dir.display());
            return false;
        }
    };
    files.sort();
    match crate::proof_traces::check_reports(&files, &root().join("proofs"), false, false) {
        Ok(ok) => ok,
        Err(e) => {
            eprintln!("error: {e}");
            false
        }
    }
}

/// Start `verify --checkpoint` on a claim that runs for a while and kill it mid-claim, several
/// times in a row (each run resumes the last one's checkpoint, and a kill can land while loom
/// writes it), then run it to the end: every rerun must resume without refusing a corrupt
/// checkpoint, and the last one must end with the claim's expected verdict, remove its
/// checkpoint and count, with the runs its checkpoint records, the executions of a run never
/// stopped.
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
    let resumed_json = dir.with_extension("resumed.json");
    let Ok(out) = Command::new(&bin)
        .args(args)
        .arg(&dir)
        .arg("--json")
        .arg(&resumed_json)
        .output()
    else {
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
        return false;
    }
    // The checkpoints carry the runs before them (vendor/loom's `progress`): the resumed
    // run's report counts the whole exploration, the executions of a run never stopped.
    let whole_json = dir.with_extension("whole.json");
    let whole = Command::new(&bin)
        .args([
            "verify",
            "--claim",
            CLAIM,
            "--bound",
            BOUND,
            "--no-progress",
            "--json",
        ])
        .arg(&whole_json)
        .output();
    let count = |f: &std::path::Path| -> Option<(u64, bool)> {
        let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(f).ok()?).ok()?;
        let r = v.as_array()?.first()?;
        Some((r["executions"].as_u64()?, r.get("before").is_some()))
    };
    match (
        whole.map(|o| o.status.code()),
        count(&resumed_json),
        count(&whole_json),
    ) {
        (Ok(Some(0)), Some((total, true)), Some((executions, false))) if total == executions => {
            eprintln!(
                "the resumed run counts {total} executions, the run never stopped {executions}"
            );
            true
        }
        (status, resumed, whole) => {
            eprintln!(
                "checkpoint resume: the resumed run's count {resumed:?} (executions, runs before recorded) is not the uninterrupted run's {whole:?} (exit {status:?})"
            );
            false
        }
    }
}

/// Shards per claim in the sharded step.
const SHARDS: u64 = 3;
/// Choice points per prefix in the sharded step: a few dozen prefixes for the larger claims,
/// little full expansion on top of loom's search.
const SHARD_DEPTH: u64 = 4;

/// The claims the sharded step runs (`verify --claim` prefixes): SAFE and BUG claims of every
/// area whose unsharded runs take seconds. Since loom's DPOR fix (proofs/README.md, loom's
/// semantics, item 8) every claim in three shards took longer than CI's budget; the verify
/// step runs every claim unsharded.
const SHARDED_CLAIMS: &[&str] = &[
    "compound.3",
    "compound.7",
    "compound.9",
    "lru.2",
    "lru.4",
    "lru.7",
    "lru.8",
    "vma",
];

/// The claims of [`SHARDED_CLAIMS`] split into [`SHARDS`] shards, the shards run by GNU parallel on the local
/// cores (as a cluster would run them: each shard its own process writing its own report), and
/// joined by `verify --merge`, which exits 0 only when every claim's merged verdict meets the
/// claim: SAFE where the unsharded run is SAFE (every shard complete), the claim's bug where it
/// finds one (the verify step checks the same expectations unsharded). Also checks that the
/// merge refuses an incomplete set of shards.
fn sharded_claims() -> bool {
    let Some(bin) = loom_runner() else {
        return false;
    };
    let dir = root().join("target/mmcheck/shards-test");
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        return false;
    }
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut par = Command::new("parallel");
    par.args(["--halt", "never", "--line-buffer", "-j", &jobs.to_string()])
        .arg(&bin)
        .args(["verify", "--jobs", "1", "--no-progress"])
        .args(SHARDED_CLAIMS.iter().flat_map(|c| ["--claim", c]))
        .arg("--shard")
        .arg(format!("{{}}/{SHARDS}"))
        .args(["--shard-depth", &SHARD_DEPTH.to_string(), "--json"])
        .arg(dir.join("shard-{}.json"))
        .arg(":::")
        .args((1..=SHARDS).map(|k| k.to_string()));
    // A shard's exit code is 1 when one of its claims has not met its expectation on its own
    // share (a BUG claim's bug may lie in another shard): only the merge judges.
    match par.output() {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout);
            for l in text
                .lines()
                .filter(|l| l.starts_with("verify:") || l.starts_with("wall"))
            {
                eprintln!("shard: {l}");
            }
            if out.status.code().is_none_or(|c| c > 100) {
                eprintln!(
                    "GNU parallel failed ({:?}): {}",
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr)
                );
                return false;
            }
        }
        Err(e) => {
            eprintln!(
                "cannot run GNU parallel (Debian package `parallel`; .ci/run installs it): {e}"
            );
            return false;
        }
    }
    let files: Vec<_> = (1..=SHARDS)
        .map(|k| dir.join(format!("shard-{k}.json")))
        .collect();
    let merged = Command::new(&bin)
        .args(["verify", "--merge"])
        .args(&files)
        .arg("--json")
        .arg(dir.join("merged.json"))
        .output();
    let ok = match merged {
        Ok(out) => {
            let text = String::from_utf8_lossy(&out.stdout);
            let last = text.lines().last().unwrap_or_default().to_string();
            eprintln!("merge: {last}");
            if out.status.code() != Some(0) {
                eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
            }
            out.status.code() == Some(0)
        }
        Err(e) => {
            eprintln!("cannot run {}: {e}", bin.display());
            false
        }
    };
    // Two shards of three are not a verdict.
    let refused = Command::new(&bin)
        .args(["verify", "--merge"])
        .args(&files[..2])
        .output()
        .is_ok_and(|o| {
            o.status.code() == Some(2) && String::from_utf8_lossy(&o.stderr).contains("missing")
        });
    if !refused {
        eprintln!("verify --merge did not refuse two shards of three");
    }
    ok && refused
}

/// loom's and generator's own test suites (vendor/*/tests, restored as upstream ships them),
/// run against the patched forks: loom with vendor/generator patched in, the way mmcheck builds
/// it. Each fork is its own workspace root with its own Cargo.lock (vendor/README.md).
fn vendor_tests() -> Command {
    let root = root();
    let generator = root.join("vendor/generator");
    let script = format!(
        "set -e; \"$0\" test --locked --manifest-path vendor/generator/Cargo.toml; \"$0\" test --locked --manifest-path vendor/loom/Cargo.toml --features checkpoint --config 'patch.crates-io.generator.path=\"{}\"'",
        generator.display()
    );
    let mut c = Command::new("sh");
    c.current_dir(&root)
        .arg("-c")
        .arg(script)
        .arg(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string()))
        .env("CARGO_TARGET_DIR", root.join("target/vendor-tests"))
        .env_remove("RUSTFLAGS");
    c
}
