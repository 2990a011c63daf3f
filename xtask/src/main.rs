//! `cargo xtask`: builds mmcheck for the checker a command needs and runs it.
//!
//! * `cargo xtask verify [ARGS]`  — every claim under loom (`--cfg loom`, release): verdict
//!   table, kernel-level traces, JSON / Markdown reports. `cargo xtask verify --help`.
//! * `cargo xtask soak [ARGS]`    — shuttle soak (`--features shuttle`), seed ranges, partitions.
//! * `cargo xtask replay FILE`    — replay a failure saved by `soak`.
//! * `cargo xtask test`           — the whole test suite: std tests (unit, registry, proptest,
//!   CLI), the bounded loom suite, a short shuttle soak.
//!
//! Exit status is the runner's: 0 all verdicts as expected, 1 a verdict differs, 2 bad input.

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

fn status_code(s: std::io::Result<std::process::ExitStatus>, what: &str) -> u8 {
    match s {
        Ok(st) => st.code().map_or(1, |c| c.clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("xtask: cannot run {what}: {e}");
            2
        }
    }
}

fn run_mmcheck(build: &str, args: &[String]) -> u8 {
    let mut c = cargo();
    c.args(["run", "--quiet", "--release", "--bin", "mmcheck"]);
    match build {
        "loom" => {
            c.env("RUSTFLAGS", loom_rustflags());
        }
        "shuttle" => {
            c.args(["--features", "shuttle"]);
        }
        _ => {}
    }
    c.arg("--").args(args);
    status_code(c.status(), "cargo run --bin mmcheck")
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

fn test(args: &[String]) -> u8 {
    if let Some(a) = args.first() {
        eprintln!("xtask test: unexpected argument '{a}' (it takes none; settings come from MMCHECK_* variables)");
        return 2;
    }
    let mut results = Vec::new();

    let mut std_tests = cargo();
    std_tests.args(["test", "--workspace"]);
    results.push((
        "std tests (unit, registry, proptest, CLI)",
        step("std tests", std_tests),
    ));

    let mut loom = cargo();
    loom.args([
        "test",
        "--release",
        "--test",
        "thp",
        "--test",
        "pagevec",
        "--test",
        "vma",
        "--test",
        "sync_loom",
    ])
    .env("RUSTFLAGS", loom_rustflags());
    results.push(("loom claims (bounded)", step("loom claims", loom)));

    let mut soak = cargo();
    soak.args([
        "test",
        "--release",
        "--features",
        "shuttle",
        "--test",
        "thp_soak",
        "--test",
        "pagevec_soak",
        "--test",
        "vma_soak",
    ]);
    results.push(("shuttle soak (short)", step("shuttle soak", soak)));

    eprintln!("\n=== xtask test: checkpoint resume");
    results.push((
        "verify --checkpoint: killed mid-claim, rerun resumes",
        checkpoint_resume(),
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

/// Issue #5: start `verify --checkpoint` on a claim that runs for a while, kill it mid-claim,
/// rerun it, and require that it resumes from the checkpoint, ends with the claim's expected
/// verdict, and removes its checkpoint.
fn checkpoint_resume() -> bool {
    use std::time::{Duration, Instant};
    let dir = root().join("target/mmcheck/checkpoint-resume-test");
    let _ = std::fs::remove_dir_all(&dir);
    let build = cargo()
        .args(["build", "--quiet", "--release", "--bin", "mmcheck"])
        .env("RUSTFLAGS", loom_rustflags())
        .status();
    if status_code(build, "cargo build (loom)") != 0 {
        return false;
    }
    let bin = root().join("target/release/mmcheck");
    let args = [
        "verify",
        "--claim",
        "S1.1",
        "--bound",
        "5",
        "--checkpoint",
        "--no-progress",
        "--checkpoint-dir",
    ];
    let mut child = match std::process::Command::new(&bin)
        .args(args)
        .arg(&dir)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot start {}: {e}", bin.display());
            return false;
        }
    };
    // Let it explore until loom has written a checkpoint, then kill it.
    let loom_file = dir.join("S1.1-bound-5.loom.json");
    let start = Instant::now();
    while !loom_file.exists() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_secs(2));
    let finished_early = matches!(child.try_wait(), Ok(Some(_)));
    let _ = child.kill();
    let _ = child.wait();
    if finished_early || !loom_file.exists() {
        eprintln!(
            "checkpoint resume: no checkpoint to resume from (finished early: {finished_early})"
        );
        return false;
    }
    eprintln!(
        "killed after {:.1}s with a checkpoint in {}",
        start.elapsed().as_secs_f64(),
        dir.display()
    );
    let out = std::process::Command::new(&bin)
        .args(args)
        .arg(&dir)
        .output();
    let Ok(out) = out else {
        return false;
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let resumed = text.contains("resuming S1.1");
    let ok = out.status.code() == Some(0) && resumed && !loom_file.exists();
    eprintln!(
        "rerun: exit {:?}, resumed {resumed}, checkpoint removed {}",
        out.status.code(),
        !loom_file.exists()
    );
    if !ok {
        eprintln!("{text}");
    }
    ok
}

fn usage() -> u8 {
    eprintln!(
        "usage: cargo xtask <verify|soak|replay|list|test> [ARGS]\n\
         \n  verify   run every claim under loom and print the verdict table (--help for options)\
         \n  soak     shuttle soak over seeds: --area s1 --scheduler pct|random --iterations N --seeds A..B --partition K/N\
         \n  replay   replay a failure saved by soak: replay FILE\
         \n  list     list the claims\
         \n  test     the whole test suite (std, bounded loom, short shuttle soak)"
    );
    2
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((cmd, rest)) = args.split_first() else {
        return ExitCode::from(usage());
    };
    let mut forward = vec![cmd.clone()];
    forward.extend(rest.iter().cloned());
    let code = match cmd.as_str() {
        "verify" => run_mmcheck("loom", &forward),
        "soak" | "replay" => run_mmcheck("shuttle", &forward),
        "list" => run_mmcheck("std", &forward),
        "test" => test(rest),
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
