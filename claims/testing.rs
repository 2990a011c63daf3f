//! The tests, generated from the table: `tests/<area>.rs` calls [`main`], which makes one test
//! per claim of the area, named by its id. The build decides which of them run: a loom build
//! (`RUSTFLAGS="--cfg loom"`) runs the loom claims, a shuttle build (`--features shuttle`) the
//! shuttle claims, the store-buffer build (`--features store-buffer`) the store-buffer claims
//! and the shuttle claims again, the std build the proptest and enumerated claims; the others
//! are listed as ignored, so a run never silently tests nothing. A release std build is the
//! production build: it compiles the ghost state, the trace and `VM_BUG_ON` away
//! (`sync::CHECKED`), so it runs no claim and says so.
//!
//! A test passes when the verdict meets the claim's expectation: SAFE from a complete loom
//! exploration (or a randomized run that found nothing), BUG with the named invariant and a
//! non-empty trace; a shuttle BUG must also replay from its saved schedule to the same trace.

use crate::explore::{run_claim, scenario, RunSettings};
use crate::report::{paragraph, ClaimReport};
use crate::settings;
use crate::table::{self, CheckerKind, Claim, Expected};
use libtest_mimic::{Arguments, Failed, Trial};
use mmcheck::checker;
use mmcheck::sync::{CHECKED, EXHAUSTIVE, RANDOMIZED};
use mmcheck::variant::Area;
use std::path::PathBuf;

/// The checker this build runs.
pub fn build_checker() -> CheckerKind {
    if EXHAUSTIVE {
        CheckerKind::Loom
    } else if mmcheck::sync::store_buffer::ACTIVE {
        CheckerKind::StoreBuffer
    } else if RANDOMIZED {
        CheckerKind::Shuttle
    } else {
        CheckerKind::Proptest
    }
}

/// Does this build run claims of `kind`? The store-buffer build runs the shuttle claims too:
/// their verdicts must hold when stores become visible late; the plain build runs the
/// sequential models, sampled (proptest) or enumerated.
pub fn runs(build: CheckerKind, kind: CheckerKind) -> bool {
    kind == build
        || (build == CheckerKind::StoreBuffer && kind == CheckerKind::Shuttle)
        || (build == CheckerKind::Proptest && kind == CheckerKind::Enumerate)
}

/// Paths of the test crate: its manifest directory (for `tests/regressions/`) and its
/// `CARGO_TARGET_TMPDIR` (for shuttle's schedule files).
#[derive(Clone, Copy)]
pub struct Paths {
    pub root: &'static str,
    pub tmp: &'static str,
}

/// The `main` of `tests/<area>.rs`.
pub fn main(area: Area, paths: Paths) -> ! {
    let mut args = Arguments::from_args();
    let nocapture = args.nocapture;
    let build = build_checker();
    // shuttle prints a line to stderr for every failing schedule it meets (the known-bad
    // variants fail on purpose); unless --nocapture, those lines are kept out of the test
    // output (and shown with a failure), which needs the trials one at a time.
    let quiet = matches!(build, CheckerKind::Shuttle | CheckerKind::StoreBuffer) && !nocapture;
    if quiet {
        args.test_threads = Some(1);
    }
    // The release std build has no checks to run the sequential claims with.
    let unchecked = !CHECKED;
    if unchecked {
        eprintln!(
            "note: a release build without loom or shuttle is the production build: ghost state, \
             the event trace and VM_BUG_ON are compiled out, so every claim is ignored here; \
             the proptest and enumerated claims run in a debug build (`cargo test --test {}`)",
            area.name()
        );
    }
    let trials = table::of_area(area)
        .iter()
        .map(|c| {
            let kind = c.checker.kind();
            Trial::test(c.test_name(), move || {
                if quiet {
                    quiet_stderr(|| check(c, paths, nocapture))
                } else {
                    check(c, paths, nocapture)
                }
            })
            .with_kind(kind.name())
            .with_ignored_flag(unchecked || !runs(build, kind))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit()
}

/// Run `f` with the process's stderr sent to a file; on failure the file's text is added to
/// the failure message.
fn quiet_stderr(f: impl FnOnce() -> Result<(), Failed>) -> Result<(), Failed> {
    use std::io::{Read, Seek, Write};
    use std::os::fd::AsRawFd;
    let Ok(mut file) = tempfile() else {
        return f();
    };
    let _ = std::io::stderr().flush();
    // SAFETY: plain file-descriptor calls; fd 2 is restored before returning.
    let saved = unsafe { libc::dup(2) };
    if saved < 0 || unsafe { libc::dup2(file.as_raw_fd(), 2) } < 0 {
        return f();
    }
    let r = f();
    let _ = std::io::stderr().flush();
    // SAFETY: `saved` is the duplicate of the original stderr made above.
    unsafe {
        libc::dup2(saved, 2);
        libc::close(saved);
    }
    r.map_err(|e| {
        let mut captured = String::new();
        let _ = file.rewind();
        let _ = file.read_to_string(&mut captured);
        let msg = e.message().map(str::to_string).unwrap_or_default();
        format!("{msg}\n--- stderr ---\n{captured}").into()
    })
}

/// An unnamed temporary file.
fn tempfile() -> std::io::Result<std::fs::File> {
    let path = std::env::temp_dir().join(format!(
        "mmcheck-stderr-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)?;
    let _ = std::fs::remove_file(&path);
    Ok(file)
}

fn settings_for(c: &Claim, paths: Paths) -> Result<RunSettings, String> {
    Ok(RunSettings {
        bound: settings::bound()?,
        seed: settings::soak_seed()?,
        iterations: settings::soak_iterations()?,
        schedule_dir: Some(PathBuf::from(paths.tmp).join(format!("schedules-{}", c.area()))),
        proptest_persistence: Some(
            PathBuf::from(paths.root).join(format!("tests/regressions/{}.txt", c.area())),
        ),
        ..RunSettings::default()
    })
}

fn check(c: &'static Claim, paths: Paths, print: bool) -> Result<(), Failed> {
    let s = settings_for(c, paths)?;
    let e = run_claim(c, &s)?;
    let r = ClaimReport::new(c, &s, &e, false);
    let text = paragraph(&r);
    if print {
        println!("{text}");
    }
    // A shuttle claim the store-buffer build runs again in its own mode is not the claim's run
    // (its proof quotes the shuttle build's): no report.
    let rerun = build_checker() == CheckerKind::StoreBuffer && c.checker.kind() != build_checker();
    if let Some(dir) = settings::report_dir()?.filter(|_| !rerun) {
        let json = serde_json::to_string_pretty(&r).map_err(|e| e.to_string())?;
        std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(dir.join(format!("{}.json", r.id)), json))
            .map_err(|e| format!("MMCHECK_REPORT_DIR {}: {e}", dir.display()))?;
    }
    if !r.matches {
        return Err(format!("expected {}, verdict {}\n{text}", c.expected, r.verdict).into());
    }
    if let Some(f) = &e.failure {
        if f.trace.is_empty() {
            return Err(format!("counterexample without a trace\n{text}").into());
        }
        if let Err(why) = mmcheck::trace::check_consistency(&f.trace)
            .and_then(|()| mmcheck::trace::check_counts(&f.trace))
        {
            return Err(format!("the counterexample shows the impossible: {why}\n{text}").into());
        }
    }
    if matches!(
        c.checker.kind(),
        CheckerKind::Shuttle | CheckerKind::StoreBuffer
    ) && c.expected != Expected::Safe
    {
        let failure = e.failure.as_ref().expect("a BUG verdict has a failure");
        let file = e
            .schedule_file
            .as_ref()
            .ok_or("shuttle saved no schedule for the failure")?;
        let schedule = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        let body = scenario(c.variant, c.model, c.config_debug_vm)?;
        let again = checker::replay(&schedule, body)?;
        let Some(again) = again.failure else {
            return Err(format!("the schedule in {file} does not reproduce the failure").into());
        };
        if again.cause != failure.cause || again.trace != failure.trace {
            return Err(format!("the schedule in {file} replays to a different trace").into());
        }
    }
    Ok(())
}
