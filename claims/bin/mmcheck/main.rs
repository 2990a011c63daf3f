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

use clap::Parser;
use mmcheck_claims::table;
use mmcheck_cli::RunnerCmd as Cmd;
use std::process::ExitCode;

/// The command line is `mmcheck_cli`'s, shared with `cargo xtask`.
#[derive(Parser)]
#[command(name = "mmcheck", about = "Model-check Linux mm concurrency claims")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
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
