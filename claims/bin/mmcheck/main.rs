//! `mmcheck`: the reviewers' runner. Normally started through `cargo xtask`, which builds it
//! for the right checker (`verify`: loom; `soak`/`replay`: shuttle).
//!
//! Exit status: 0 when every verdict equals its expectation, 1 when one differs, 2 on bad input
//! (every input is validated before anything runs or any file is written).

mod checkpoint;
mod jobs;
mod progress;
mod replay;
mod soak;
mod verify;

use clap::{Parser, Subcommand};
use mmcheck_claims::table;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "mmcheck", about = "Model-check Linux mm concurrency claims")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run the loom claims (exhaustive within each claim's bound) and print the verdicts.
    Verify(verify::Args),
    /// Run an area's shuttle claims over a seed range (or one partition of it).
    Soak(soak::Args),
    /// Replay a failure saved by `soak` and print its kernel-level trace.
    Replay(replay::Args),
    /// List the claims.
    List,
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
        Cmd::Verify(a) => verify::run_verify(a),
        Cmd::Soak(a) => soak::run(a),
        Cmd::Replay(a) => replay::run(a),
        Cmd::List => {
            for c in table::all() {
                println!(
                    "{:<28} {:<8} {:<22} {:<26} {}",
                    c.id,
                    c.checker.kind(),
                    c.variant,
                    c.model,
                    c.expected
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
