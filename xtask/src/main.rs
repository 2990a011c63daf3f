//! `cargo xtask`: builds mmcheck for the checker a command needs and runs it. `cargo xtask
//! --help` lists the commands and `cargo xtask <command> --help` describes one; asking for help
//! never builds, writes or runs anything, and bad input exits 2 before anything happens (the
//! runner's command line is `mmcheck-cli`, parsed here first).
//!
//! Exit status is the runner's: 0 all verdicts as expected, 1 a verdict differs, 2 bad input.
//!
//! xtask depends on no crate of mmcheck that a broken variant can break (only `mmcheck-cli`),
//! so `cargo xtask bless` can always rebase a mutant patch whose parent changed.

mod bench;
mod browser;
mod contention;
mod fidelity;
mod mutants;
mod new_variant;
mod proof_traces;
mod run;
mod suite;

use clap::{Parser, Subcommand};
use mmcheck_cli::{AreaName, RunnerCmd};
use run::{root, Build};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "mmcheck's commands: verify the claims, run the tests, keep the variants",
    after_help = "README.md starts with the two commands a newcomer runs: `cargo xtask verify` and `cargo xtask test`."
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    #[command(flatten)]
    Runner(RunnerCmd),
    /// The whole test suite (what CI runs).
    ///
    /// Std tests (unit, registry, layers, golden diffs and mutant patches, proptest and
    /// enumerated claims, CLI), the loom claims and calibration, the shuttle and
    /// store-buffer claims, a kill-and-resume run of `verify --checkpoint`, and the HTML report
    /// rendered in headless Chromium. Settings come from MMCHECK_* variables (README).
    Test,
    /// Rewrite the mutant patches and golden diffs after a deliberate change.
    ///
    /// Rebases the mutant patches onto their parents (a 3-way merge against the parent as
    /// `--base` has it), takes in mutants edited under target/mmcheck/edit/, and rewrites the
    /// golden diffs of the kernel variants.
    Bless(mutants::BlessArgs),
    /// Print a variant's file as the build sees it: a mutant's patch applied to its parent.
    Show(mutants::ShowArgs),
    /// Start a variant from its parent.
    ///
    /// A kernel variant is a copy of the parent's file with a new META; a mutant is a patch
    /// (its editable copy goes to target/mmcheck/edit/).
    NewVariant(new_variant::Args),
    /// The kernel's C beside the Rust, statement by statement.
    ///
    /// Every C statement of every modelled function of every kernel variant (kernel/) must be
    /// mirrored or marked `// LEFT OUT: why`, every Rust statement of kernel code matched or
    /// marked `// MODEL: why`. Exit 0 when so, 1 otherwise.
    Fidelity(fidelity::Args),
    /// The runs quoted in proofs/ against claim reports (`verify --json`, MMCHECK_REPORT_DIR).
    ///
    /// Every quoted run a report has must show its expectation, verdict, executions,
    /// completeness and counterexample (exit 1 if one does not, 2 on bad input; `--write`
    /// refreshes them and prints where old steps moved; excerpts are never rewritten).
    /// `--strict` also fails on a quote no report has: CI runs it so on target/verify.json and
    /// the claim tests' reports.
    ProofTraces(proof_traces::Args),
    /// The criterion benchmarks, then their figures beside the seeds'.
    Bench(bench::Args),
    /// The HTML report rendered by headless Chromium (a step of `test`).
    BrowserTest,
    /// Build the loom runner and print its path.
    ///
    /// For running shards of a claim with GNU parallel, a Slurm job array or a Kubernetes
    /// Indexed Job (README, "One claim on many machines"): every shard runs this binary, built
    /// from the same commit.
    RunnerPath,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let code = match cli.cmd {
        Cmd::Runner(r) => {
            // Parsed (and validated) above; the runner gets the arguments as given.
            let args: Vec<String> = std::env::args().skip(1).collect();
            let build = match r.build() {
                mmcheck_cli::RunnerBuild::Std => Build::Std,
                mmcheck_cli::RunnerBuild::Loom => Build::Loom,
                mmcheck_cli::RunnerBuild::Shuttle => Build::Shuttle,
            };
            run::run_mmcheck(build, &args)
        }
        Cmd::Test => suite::test(),
        Cmd::Bless(a) => mutants::bless(&a),
        Cmd::Show(a) => mutants::show(&a),
        Cmd::NewVariant(a) => new_variant::run(&a),
        Cmd::Fidelity(a) => fidelity::run(&a),
        Cmd::ProofTraces(a) => proof_traces::run(&a),
        Cmd::Bench(a) => match bench::run(&root(), run::cargo(), &a) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("xtask bench: {e}");
                1
            }
        },
        Cmd::BrowserTest => u8::from(!suite::browser_test()),
        Cmd::RunnerPath => match run::loom_runner() {
            Some(p) => {
                println!("{}", p.display());
                0
            }
            None => 1,
        },
    };
    ExitCode::from(code)
}

/// The areas' folders under src/.
pub fn areas() -> impl Iterator<Item = &'static str> {
    AreaName::ALL.into_iter().map(AreaName::name)
}
