//! The command line of the `mmcheck` runner: its subcommands, options and value parsers.
//!
//! Two programs read it: the runner (`claims/bin/mmcheck`), which runs what it says, and
//! `cargo xtask`, which parses the same arguments first, so `--help` and bad input are answered
//! before anything is built. This crate depends on no part of mmcheck: a broken build (a mutant
//! patch that no longer applies) never stops `cargo xtask bless` from repairing it. The area
//! names are checked against `mmcheck::variant::Area` by the runner's tests.

use clap::{Args, Subcommand, ValueEnum};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
use std::path::PathBuf;

/// The areas, by name (`mmcheck::variant::Area` has the same names, in the same order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum)]
pub enum AreaName {
    Compound,
    Lru,
    Vma,
}

impl AreaName {
    pub const ALL: [AreaName; 3] = [AreaName::Compound, AreaName::Lru, AreaName::Vma];

    pub const fn name(self) -> &'static str {
        match self {
            AreaName::Compound => "compound",
            AreaName::Lru => "lru",
            AreaName::Vma => "vma",
        }
    }
}

impl fmt::Display for AreaName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Parse an area name (`compound`, `lru`, `vma`).
pub fn parse_area(s: &str) -> Result<AreaName, String> {
    AreaName::ALL
        .into_iter()
        .find(|a| a.name().eq_ignore_ascii_case(s.trim()))
        .ok_or_else(|| {
            let known: Vec<_> = AreaName::ALL.iter().map(|a| a.name()).collect();
            format!("no area '{s}' (known: {})", known.join(", "))
        })
}

/// A loom preemption bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// At most this many preemptions per execution.
    Preemption(usize),
    /// Every interleaving.
    Unbounded,
}

impl Bound {
    /// loom's setting.
    pub fn preemption_bound(self) -> Option<usize> {
        match self {
            Bound::Preemption(n) => Some(n),
            Bound::Unbounded => None,
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::Preemption(n) => write!(f, "{n}"),
            Bound::Unbounded => f.write_str("none"),
        }
    }
}

/// The largest preemption bound accepted: far beyond what finishes on these models (bound 6
/// of the largest takes minutes); a larger number is a typo.
pub const MAX_BOUND: usize = 20;

/// Parse a preemption bound: a number from 0 to [`MAX_BOUND`], or `none` / `unbounded`.
pub fn parse_bound(v: &str) -> Result<Bound, String> {
    let v = v.trim();
    if v.eq_ignore_ascii_case("none") || v.eq_ignore_ascii_case("unbounded") {
        return Ok(Bound::Unbounded);
    }
    match v.parse::<usize>() {
        Ok(n) if n <= MAX_BOUND => Ok(Bound::Preemption(n)),
        Ok(n) => Err(format!(
            "bound {n} is too large (0..={MAX_BOUND}, or 'none')"
        )),
        Err(_) => Err(format!(
            "'{v}' is not a bound (a number 0..={MAX_BOUND}, or 'none')"
        )),
    }
}

/// The runner's subcommands (`mmcheck <cmd>`, `cargo xtask <cmd>`).
#[derive(Subcommand, Debug)]
pub enum RunnerCmd {
    /// Run the loom claims (exhaustive within each claim's bound) and print the verdicts.
    Verify(VerifyArgs),
    /// Run an area's shuttle claims over a seed range (or one partition of it).
    Soak(SoakArgs),
    /// Replay a failure saved by `soak` and print its kernel-level trace.
    Replay(ReplayArgs),
    /// List the claims.
    List,
}

impl RunnerCmd {
    /// The build the runner needs for this command: loom for `verify`, shuttle for `soak` and
    /// `replay`, the plain build for `list`.
    pub fn build(&self) -> RunnerBuild {
        match self {
            RunnerCmd::Verify(_) => RunnerBuild::Loom,
            RunnerCmd::Soak(_) | RunnerCmd::Replay(_) => RunnerBuild::Shuttle,
            RunnerCmd::List => RunnerBuild::Std,
        }
    }
}

/// Which build of the runner a command needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunnerBuild {
    Std,
    Loom,
    Shuttle,
}

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Claim id or prefix (`compound.3`, `compound.3-fix`, `compound`); repeatable. Default:
    /// every loom claim.
    #[arg(long = "claim", value_name = "ID", conflicts_with_all = ["matrix", "variant", "safeguards"])]
    pub claims: Vec<String>,
    /// Run every loom model of an area on every variant of it (all areas unless --area).
    #[arg(long, conflicts_with_all = ["variant", "safeguards"])]
    pub matrix: bool,
    /// With --matrix: only this area (compound, lru, vma).
    #[arg(long, value_parser = parse_area, requires = "matrix")]
    pub area: Option<AreaName>,
    /// Run every loom model of the variant's area on this variant (after adding a patch).
    #[arg(long, value_name = "ID", conflicts_with = "safeguards")]
    pub variant: Option<String>,
    /// Print the safeguard coverage of every SAFE variant, inherited rows with where they come
    /// from (runs nothing); exit 1 if a safeguard has neither a killing mutant nor an argument.
    #[arg(long)]
    pub safeguards: bool,
    /// Run the calibration: the kernel's litmus tests through the shim, each compared with the
    /// LKMM's result; exit 1 if a row's result or execution count moved from the table.
    #[arg(long, conflicts_with_all = ["claims", "matrix", "variant", "safeguards", "checkpoint"])]
    pub calibration: bool,
    /// With --calibration: run these litmus files (herd7's C format, the primitives of
    /// models/litmus.rs) instead of the table, each compared with its `Result:` line.
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "calibration")]
    pub litmus: Vec<PathBuf>,
    /// Preemption bound for every selected claim (0..=20, or `none`), instead of each claim's.
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = parse_bound,
          conflicts_with_all = ["unbounded", "quick"])]
    pub bound: Option<Bound>,
    /// Explore without a preemption bound (the full exhaustive run; may take long).
    #[arg(long, conflicts_with = "quick")]
    pub unbounded: bool,
    /// Preemption bound 2 for every claim: a fast smoke run.
    #[arg(long)]
    pub quick: bool,
    /// Explorations run at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: Option<u64>,
    /// Write a JSON report here.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Write a Markdown report here.
    #[arg(long, value_name = "PATH")]
    pub markdown: Option<PathBuf>,
    /// Write a self-contained HTML report here (summary, verdicts, counterexamples as per-CPU
    /// swimlanes, then the safeguards and matrix of the selected claims' variants).
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,
    /// Save loom checkpoints under the checkpoint directory and resume from them (a resumed
    /// claim reports the executions and seconds of the runs before it too, when its checkpoint
    /// records them).
    #[arg(long, conflicts_with_all = ["matrix", "variant"])]
    pub checkpoint: bool,
    /// Where checkpoints live.
    #[arg(long, value_name = "DIR", default_value = "target/mmcheck/checkpoints")]
    pub checkpoint_dir: PathBuf,
    /// K/N: explore only the K-th of N disjoint shares of each selected claim's tree and
    /// report it (join the N reports with --merge). Run the shards with GNU parallel, a Slurm
    /// job array or a Kubernetes Indexed Job (README, "One claim on many machines").
    #[arg(long, value_name = "K/N", allow_hyphen_values = true, value_parser = parse_partition,
          conflicts_with_all = ["matrix", "variant", "safeguards", "calibration", "checkpoint"])]
    pub shard: Option<(u64, u64)>,
    /// With --shard: the choice points (branches with several alternatives) in a prefix; the
    /// prefixes are what is dealt out. Every shard of a claim must use the same depth.
    #[arg(long, value_name = "D", default_value = "8", requires = "shard",
          value_parser = clap::value_parser!(u64).range(1..=64))]
    pub shard_depth: u64,
    /// Join the JSON reports that `--shard` runs wrote into each claim's verdict, executions
    /// and completeness (runs nothing).
    #[arg(long, value_name = "FILE", num_args = 1..,
          conflicts_with_all = ["claims", "matrix", "variant", "safeguards", "calibration",
                                "checkpoint", "shard", "bound", "unbounded", "quick"])]
    pub merge: Vec<PathBuf>,
    /// No progress display.
    #[arg(long)]
    pub no_progress: bool,
}

/// shuttle's schedulers.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SchedKind {
    Pct,
    Random,
}

/// The deepest PCT bug depth accepted.
pub const MAX_DEPTH: usize = 20;

#[derive(Args, Debug)]
pub struct SoakArgs {
    /// The area whose shuttle claims run (compound, lru, vma).
    #[arg(long, value_parser = parse_area)]
    pub area: AreaName,
    #[arg(long, value_enum, default_value = "pct")]
    pub scheduler: SchedKind,
    /// Iterations per seed.
    #[arg(long, allow_hyphen_values = true, default_value = "1000",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: u64,
    /// Seed range A..B (B exclusive) or a single seed.
    #[arg(long, allow_hyphen_values = true, default_value = "0..8", value_parser = parse_seeds)]
    pub seeds: Range<u64>,
    /// K/N: run the K-th of N disjoint parts of the seed range (1-based).
    #[arg(long, allow_hyphen_values = true, default_value = "1/1", value_parser = parse_partition)]
    pub partition: (u64, u64),
    /// PCT bug depth (1..=20).
    #[arg(long, allow_hyphen_values = true, default_value = "3",
          value_parser = clap::value_parser!(u64).range(1..=MAX_DEPTH as u64))]
    pub depth: u64,
    /// Where failures are saved.
    #[arg(long, value_name = "DIR", default_value = "target/mmcheck/failures")]
    pub out: PathBuf,
}

/// Parse a seed range `A..B` (B exclusive) or one seed.
pub fn parse_seeds(s: &str) -> Result<Range<u64>, String> {
    let bad = || format!("'{s}' is not a seed range (A..B with A < B, or one seed)");
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

/// Parse a partition `K/N` (1 <= K <= N).
pub fn parse_partition(s: &str) -> Result<(u64, u64), String> {
    let bad = |why: &str| format!("'{s}' {why} (K/N with 1 <= K <= N)");
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

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The failure file (JSON) that `soak` wrote.
    pub file: PathBuf,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_validated() {
        assert_eq!(parse_bound("4"), Ok(Bound::Preemption(4)));
        assert_eq!(parse_bound("none"), Ok(Bound::Unbounded));
        assert!(parse_bound("21").is_err());
        assert!(parse_bound("-1").is_err());
    }

    #[test]
    fn seeds_and_partitions_are_validated() {
        assert_eq!(parse_seeds("0..8"), Ok(0..8));
        assert_eq!(parse_seeds("5"), Ok(5..6));
        assert!(parse_seeds("8..8").is_err());
        assert_eq!(parse_partition("2/4"), Ok((2, 4)));
        assert!(parse_partition("0/4").is_err());
        assert!(parse_partition("5/4").is_err());
    }

    #[test]
    fn areas_parse_by_name() {
        assert_eq!(parse_area("LRU"), Ok(AreaName::Lru));
        assert!(parse_area("slab").is_err());
    }
}
