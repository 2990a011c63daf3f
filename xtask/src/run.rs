//! Building mmcheck for the checker a command needs, and running the runner.

use std::path::PathBuf;
use std::process::Command;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

pub fn cargo() -> Command {
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
pub enum Build {
    Std,
    Loom,
    Shuttle,
    /// shuttle with the shim's store-buffer mode (plain stores become visible late).
    StoreBuffer,
}

impl Build {
    /// Apply this build to a cargo command that builds the workspace root package.
    pub fn apply(self, c: &mut Command) {
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

pub fn status_code(s: std::io::Result<std::process::ExitStatus>, what: &str) -> u8 {
    match s {
        Ok(st) => st.code().map_or(1, |c| c.clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("xtask: cannot run {what}: {e}");
            2
        }
    }
}

/// The cargo profile of the runner: `verify` (release with whole-program optimisation,
/// Cargo.toml) for the loom build, whose explorations are the long runs; `release` otherwise.
fn runner_profile(build: Build) -> &'static str {
    if matches!(build, Build::Loom) {
        "verify"
    } else {
        "release"
    }
}

pub fn run_mmcheck(build: Build, args: &[String]) -> u8 {
    let mut c = cargo();
    c.args([
        "run",
        "--quiet",
        "--profile",
        runner_profile(build),
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
pub fn loom_runner() -> Option<PathBuf> {
    let mut build = cargo();
    build.args([
        "build",
        "--quiet",
        "--profile",
        runner_profile(Build::Loom),
        "-p",
        "mmcheck-claims",
        "--bin",
        "mmcheck",
    ]);
    Build::Loom.apply(&mut build);
    (status_code(build.status(), "cargo build (loom)") == 0)
        .then(|| root().join(format!("target/{}/mmcheck", runner_profile(Build::Loom))))
}
