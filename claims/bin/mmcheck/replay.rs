//! `mmcheck replay FILE`: replay a failure saved by `soak` and check it gives the same trace.

use crate::soak::SavedFailure;
use mmcheck::checker::{self, SHUTTLE_VERSION};
use mmcheck::sync::RANDOMIZED;
use mmcheck::trace::write_trace;
use mmcheck_claims::explore::scenario;

pub use mmcheck_cli::ReplayArgs as Args;

pub fn run(a: Args) -> Result<bool, String> {
    let file = &a.file;
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
    let body = scenario(&saved.variant, &saved.model, saved.config_debug_vm)
        .map_err(|e| format!("{}: {e} in this build", file.display()))?;
    if !RANDOMIZED {
        return Err("replay needs the shuttle build: run `cargo xtask replay FILE`".to_string());
    }
    let e =
        checker::replay(&saved.schedule, body).map_err(|e| format!("{}: {e}", file.display()))?;
    match e.failure {
        Some(f) => {
            println!(
                "replayed {} ({}) seed {}: {}: {}",
                saved.claim, saved.variant, saved.seed, f.cause, f.message
            );
            let mut t = String::new();
            let _ = write_trace(&mut t, &f.trace);
            print!("{t}");
            let same = f.trace == saved.failure.trace && f.cause == saved.failure.cause;
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
