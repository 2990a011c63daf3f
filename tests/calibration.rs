//! Checker calibration (claims/calibration.rs): every row of the calibration table run under
//! its checker, one test per row named by the litmus test. A row fails when the observed result
//! or the execution count differs from the table, so a change of the shim's mapping or of loom
//! cannot silently move a row.
//!
//! * `RUSTFLAGS="--cfg loom" cargo test --release --test calibration`: the loom rows (every
//!   execution, no bound);
//! * `cargo test --release --features store-buffer --test calibration`: the store-buffer rows
//!   (shuttle, fixed seed, the shim's store-buffer mode);
//! * any build: `table`, the table's own consistency (every row names a scenario, every
//!   scenario has a row, every disagreement names the claims it could affect, and
//!   proofs/README.md holds the recorded tables).
//!
//! The rows of other checkers are listed as ignored. `-- --nocapture` prints each measurement.

use libtest_mimic::{Arguments, Failed, Trial};
use mmcheck_claims::calibration::all as all_rows;
use mmcheck_claims::calibration::{self, Agreement, CalChecker, Row};
use mmcheck_models::litmus::{self, FILES};

fn check_row(row: &'static Row, nocapture: bool) -> Result<(), Failed> {
    let m = calibration::run(row)?;
    if nocapture {
        println!(
            "{}: {} in {} executions ({:.2}s); table: {} in {}",
            row.test, m.result, m.executions, m.seconds, row.mmcheck, row.executions
        );
    }
    if m.result != row.mmcheck || m.executions != row.executions {
        return Err(format!(
            "{} under {}: measured {} in {} executions, the table says {} in {}: the shim's mapping or the checker changed; re-measure and update claims/calibration.rs and proofs/README.md (Calibration)",
            row.test,
            row.checker.name(),
            m.result,
            m.executions,
            row.mmcheck,
            row.executions
        )
        .into());
    }
    Ok(())
}

fn check_table() -> Result<(), Failed> {
    let mut errors = Vec::new();
    for r in all_rows() {
        if let Err(e) = calibration::litmus_of(r.test) {
            errors.push(format!("row {}: {e}", r.test));
        }
        let agrees = r.agreement() == Agreement::Agree;
        if !agrees && r.affects.is_empty() {
            errors.push(format!(
                "row {}: a disagreement ({}) must name the claims it could affect",
                r.test,
                r.agreement()
            ));
        }
        if agrees && !r.affects.is_empty() {
            errors.push(format!("row {}: agrees, so it affects nothing", r.test));
        }
        if all_rows()
            .filter(|o| o.test == r.test && o.checker == r.checker)
            .count()
            > 1
        {
            errors.push(format!("row {}: twice for {}", r.test, r.checker.name()));
        }
    }
    // Every file the interpreter accepts has a loom row and a store-buffer row; a file with no
    // row must be one it refuses (calibration::left_out gives the reason).
    let mut names = Vec::new();
    for f in FILES {
        let Ok(t) = litmus::parse(f.text) else {
            continue;
        };
        if names.contains(&t.name) {
            errors.push(format!(
                "models/litmus/{}: a second file names {}",
                f.path, t.name
            ));
        }
        for checker in ["loom", "shuttle+store-buffer"] {
            if !all_rows().any(|r| r.test == t.name && r.checker.name() == checker) {
                errors.push(format!(
                    "models/litmus/{}: the interpreter runs it, but no {checker} row does",
                    f.path
                ));
            }
        }
        names.push(t.name);
    }
    let readme = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/README.md");
    let text =
        std::fs::read_to_string(&readme).map_err(|e| format!("{}: {e}", readme.display()))?;
    if !text.contains(calibration::markdown_recorded().trim_end()) {
        errors.push(
            "proofs/README.md (Calibration) does not hold the recorded tables: paste the output of `cargo test --test calibration -- --nocapture --exact table`".to_string(),
        );
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n").into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let nocapture = args.nocapture;
    let mut trials = vec![Trial::test("table", move || {
        if nocapture {
            println!("{}", calibration::markdown_recorded());
        }
        check_table()
    })];
    trials.extend(all_rows().map(|r| {
        let name = match r.checker {
            CalChecker::Loom => r.test.to_string(),
            CalChecker::StoreBuffer { .. } => format!("{} (store-buffer)", r.test),
        };
        Trial::test(name, move || check_row(r, nocapture))
            .with_kind(r.checker.name())
            .with_ignored_flag(!r.checker.is_build())
    }));
    libtest_mimic::run(&args, trials).exit()
}
