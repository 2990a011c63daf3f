//! Checker calibration: how far the checker's word goes. Every verdict mmcheck gives rests on
//! one approximation, the kernel's memory model (LKMM) read as C11 through the shim's primitive
//! mapping and explored by loom. The kernel publishes the measuring stick: its litmus tests,
//! each with the LKMM's result on its `Result:` line. They are in the repository as the kernel
//! has them (`models/litmus/kernel/`), beside mmcheck's own (`models/litmus/mmcheck/`), and
//! `mmcheck_models::litmus` interprets each file with the shim's kernel primitives. This table
//! says, for each test, what the checker observed and in how many executions; the LKMM's result
//! is read from the file, never copied here. For each disagreement the row says which claims it
//! could affect (proofs/README.md, "Calibration", argues each). A file no row runs is one the
//! interpreter refuses, and the table gives its reason.
//!
//! `tests/calibration.rs` runs every row of the build's checker and fails when an observed
//! result or execution count differs from the row, so a change of the shim's mapping or of loom
//! cannot silently move a row. [`verify`] runs them and renders the table for the runner.

use mmcheck::checker::{self, ExploreSettings, Scheduler};
use mmcheck_models::litmus::{self, Outcome};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A litmus test's result, in herd7's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LitmusResult {
    /// The `exists` outcome is forbidden (never observed).
    Never,
    /// The `exists` outcome is allowed (observed at least once).
    Sometimes,
    /// No execution passes the test's `filter` clause.
    Deadlock,
}

impl fmt::Display for LitmusResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LitmusResult::Never => "Never",
            LitmusResult::Sometimes => "Sometimes",
            LitmusResult::Deadlock => "DEADLOCK",
        })
    }
}

/// The checker a row runs under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CalChecker {
    /// loom, every execution (no preemption bound), the default shim.
    Loom,
    /// shuttle's random scheduler from seed [`STORE_BUFFER_SEED`], this many iterations, with the
    /// shim's store-buffer mode (`--features store-buffer`, src/sync/store_buffer.rs). A result
    /// of Never means "not observed in that many iterations".
    StoreBuffer { iterations: usize },
}

/// The seed of the store-buffer rows (fixed: a row's result and count replay exactly).
pub const STORE_BUFFER_SEED: u64 = 1;

/// Iterations of each store-buffer row.
pub const STORE_BUFFER_ITERATIONS: usize = 10_000;

impl CalChecker {
    pub fn name(self) -> &'static str {
        match self {
            CalChecker::Loom => "loom",
            CalChecker::StoreBuffer { .. } => "shuttle+store-buffer",
        }
    }

    /// Does this build run it?
    pub fn is_build(self) -> bool {
        build_checker().is_some_and(|b| std::mem::discriminant(&b) == std::mem::discriminant(&self))
    }
}

/// How the checker's result compares with the LKMM's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    Agree,
    /// The LKMM allows the outcome and the checker never produces it: a bug that needs those
    /// executions is missed.
    Misses,
    /// The checker produces an outcome the LKMM forbids: a failure that needs it is an artefact.
    Extra,
}

impl fmt::Display for Agreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Agreement::Agree => "agree",
            Agreement::Misses => "misses",
            Agreement::Extra => "extra",
        })
    }
}

/// One calibration row.
#[derive(Debug)]
pub struct Row {
    /// The test's name: the `C <name>` line of its file under `models/litmus/` (the kernel's
    /// file name without `.litmus`).
    pub test: &'static str,
    pub checker: CalChecker,
    /// What the checker observed, as measured.
    pub mmcheck: LitmusResult,
    /// Executions the checker ran, as measured.
    pub executions: u64,
    /// For a disagreement: the claims it could affect and why (or why not); the full argument is
    /// in proofs/README.md, "Calibration". Empty for a row that agrees.
    pub affects: &'static str,
}

/// A litmus file as the calibration uses it: where it is, its parsed test and the LKMM's result
/// from its `Result:` line.
pub struct Litmus {
    pub file: &'static litmus::File,
    pub test: Arc<litmus::Test>,
    pub lkmm: LitmusResult,
}

impl LitmusResult {
    /// A `Result:` word of a litmus file.
    pub fn parse(word: &str) -> Option<LitmusResult> {
        match word {
            "Never" => Some(LitmusResult::Never),
            "Sometimes" => Some(LitmusResult::Sometimes),
            "DEADLOCK" => Some(LitmusResult::Deadlock),
            _ => None,
        }
    }
}

/// The compiled-in litmus file named `name`, parsed, with its `Result:` word read.
pub fn litmus_of(name: &str) -> Result<Litmus, String> {
    let (file, test) = litmus::find(name)
        .ok_or_else(|| format!("{name}: no litmus file under models/litmus/ names this test"))?;
    let test = test.map_err(|e| format!("models/litmus/{}: {e}", file.path))?;
    let lkmm = match &test.result {
        Some(w) => LitmusResult::parse(w).ok_or_else(|| {
            format!(
                "models/litmus/{}: `Result: {w}` is not Never, Sometimes or DEADLOCK",
                file.path
            )
        })?,
        None => {
            return Err(format!(
                "models/litmus/{}: no `Result:` line in its header comment",
                file.path
            ))
        }
    };
    Ok(Litmus {
        file,
        test: Arc::new(test),
        lkmm,
    })
}

impl Row {
    /// The LKMM's result, from the test's file. The `table` test checks that every row's file
    /// is there and has a `Result:` line; a row without one shows as Never here.
    pub fn lkmm(&self) -> LitmusResult {
        litmus_of(self.test).map_or(LitmusResult::Never, |l| l.lkmm)
    }

    pub fn agreement(&self) -> Agreement {
        agreement(self.lkmm(), self.mmcheck)
    }

    /// The test's file: its path in the kernel tree, or under models/litmus/ for mmcheck's own.
    pub fn file(&self) -> String {
        match litmus::find(self.test) {
            Some((f, _)) => match f.path.strip_prefix("kernel/") {
                Some(k) => k.to_string(),
                None => format!("models/litmus/{}", f.path),
            },
            None => "(no file)".to_string(),
        }
    }
}

/// How `mmcheck` compares with `lkmm`.
pub fn agreement(lkmm: LitmusResult, mmcheck: LitmusResult) -> Agreement {
    use LitmusResult::*;
    match (lkmm, mmcheck) {
        (a, b) if a == b => Agreement::Agree,
        (Sometimes, _) => Agreement::Misses,
        (_, Sometimes) => Agreement::Extra,
        // Never vs DEADLOCK: the outcome is never seen either way.
        _ => Agreement::Agree,
    }
}

const fn loom(test: &'static str, mmcheck: LitmusResult, executions: u64) -> Row {
    Row {
        test,
        checker: CalChecker::Loom,
        mmcheck,
        executions,
        affects: "",
    }
}

const fn sb(test: &'static str, mmcheck: LitmusResult) -> Row {
    Row {
        test,
        checker: CalChecker::StoreBuffer {
            iterations: STORE_BUFFER_ITERATIONS,
        },
        mmcheck,
        executions: STORE_BUFFER_ITERATIONS as u64,
        affects: "",
    }
}

const fn differs(row: Row, affects: &'static str) -> Row {
    Row { affects, ..row }
}

use LitmusResult::{Deadlock, Never, Sometimes};

/// LB+poonceonces: the claims it could affect.
const LB: &str = "no SAFE claim: in the modelled code a store that follows a racy load on the same CPU depends on it (control or data) or is ordered after it by a lock, a barrier or a fully ordered atomic, and the LKMM forbids LB for such pairs too (proofs/README.md#calibration-lb)";
/// S+poonceonces and the split smp_mb() shape.
const S: &str = "compound.* SAFE claims: split's smp_mb() between the tail's atomic_add() and the PG_tail clear only forbids this shape, so loom cannot show it needed (a blind spot). The store-buffer mode produces the shape and catches the barrier's removal. lru.*, vma.*: none (proofs/README.md#calibration-s)";
/// The unlock+lock / ISA2 lock rows.
const LOCKS: &str = "no SAFE claim (an extra outcome only adds failures). No BUG claim's counterexample needs a lock-free CPU to see two critical sections out of order: each is found by a sequentially consistent run too, or is a race with a CPU that holds no lock (proofs/README.md#calibration-locks)";
/// The rows where a plain store, written as a swap, reads the value it overwrites.
const SWAP: &str = "none found: a plain store is a swap, which reads the value it overwrites, so a later barrier synchronises with a release it overwrote. Every plain store in the S1-S3 code that overwrites a release (compound_unlock) or a fully ordered RMW comes from a CPU that the kernel already orders after it (proofs/README.md#calibration-swap)";
/// The failed cmpxchg rows.
const FAILED_CMPXCHG: &str = "no SAFE claim: the shim fences a failed get_page_unless_zero(). Without CONFIG_DEBUG_VM, the next access that matters after a failure is a fully ordered put_page_testzero(). The debug checks in between are reached with a failed get by no debug-VM SAFE claim: in the hugetlbfs models the head's count carries every tail pin (proofs/README.md#calibration-cmpxchg)";

/// The calibration table: every kernel litmus test the shim can express, and the added tests of
/// mmcheck's own patterns, under loom without a bound.
pub static ROWS: &[Row] = &[
    loom("CoRR+poonceonce+Once", Never, 27),
    loom("CoRW+poonceonce+Once", Never, 21),
    loom("CoWR+poonceonce+Once", Never, 24),
    loom("CoWW+poonceonce", Never, 1),
    loom("IRIW+fencembonceonces+OnceOnce", Never, 234936),
    loom("IRIW+poonceonces+OnceOnce", Sometimes, 266671),
    differs(
        loom("ISA2+pooncelock+pooncelock+pombonce", Sometimes, 2543),
        LOCKS,
    ),
    loom("ISA2+poonceonces", Sometimes, 2372),
    loom(
        "ISA2+pooncerelease+poacquirerelease+poacquireonce",
        Never,
        2273,
    ),
    loom("LB+fencembonceonce+ctrlonceonce", Never, 12),
    loom("LB+poacquireonce+pooncerelease", Never, 33),
    differs(loom("LB+poonceonces", Never, 33), LB),
    loom("LB+unlocklockonceonce+poacquireonce", Never, 33),
    loom("MP+fencewmbonceonce+fencermbonceonce", Never, 48),
    loom("MP+polocks", Never, 39),
    loom("MP+poonceonces", Sometimes, 57),
    loom("MP+pooncerelease+poacquireonce", Never, 48),
    loom("MP+porevlocks", Never, 30),
    differs(
        loom("MP+unlocklockonceonce+fencermbonceonce", Sometimes, 57),
        LOCKS,
    ),
    loom("R+fencembonceonces", Never, 24),
    loom("R+poonceonces", Sometimes, 39),
    loom("S+fencewmbonceonce+poacquireonce", Never, 30),
    differs(loom("S+poonceonces", Never, 30), S),
    loom("SB+fencembonceonces", Never, 30),
    loom("SB+poonceonces", Sometimes, 60),
    loom("SB+rfionceonce-poonceonces", Sometimes, 60),
    loom("WRC+poonceonces+Once", Sometimes, 2949),
    loom("WRC+pooncerelease+fencermbonceonce+Once", Never, 2835),
    loom("Z6.0+pooncelock+poonceLock+pombonce", Never, 1503),
    loom("Z6.0+pooncelock+pooncelock+pombonce", Sometimes, 1820),
    differs(
        loom(
            "Z6.0+pooncerelease+poacquirerelease+fencembonceonce",
            Never,
            1654,
        ),
        SWAP,
    ),
    loom("dep+plain", Never, 12),
    loom(
        "Atomic-RMW+mb__after_atomic-is-stronger-than-acquire",
        Never,
        36,
    ),
    loom("Atomic-RMW-ops-are-atomic-WRT-atomic_set", Never, 21),
    loom("cmpxchg-fail-ordered-1", Never, 57),
    loom("cmpxchg-fail-ordered-2", Never, 24),
    differs(loom("cmpxchg-fail-unordered-1", Never, 57), FAILED_CMPXCHG),
    differs(loom("cmpxchg-fail-unordered-2", Never, 24), FAILED_CMPXCHG),
    loom("DCL-broken", Sometimes, 75),
    loom("DCL-fixed", Never, 60),
    loom("RM-broken", Deadlock, 12),
    loom("RM-fixed", Never, 105),
    loom("S+fencembrmwonce+pooncefullrmw", Never, 15),
    differs(loom("S+pormwonce+pooncefullrmw", Never, 15), S),
    loom("S+pofullrmwonce+pooncefullrmw", Never, 15),
    loom("MP+fencembrmwonce+poonceonce", Sometimes, 57),
    loom("MP+fencembrmwonce+fencermbonceonce", Never, 48),
    loom("MP+pooncefullrmw+pofullrmwonce", Never, 24),
    loom("MP+pooncermw+pofullrmwonce", Sometimes, 39),
    loom("MP+fencembbeforeatomiconcermw+pofullrmwonce", Never, 24),
    differs(
        loom("MP+pooncerelease+pooncecoonce+poacquireonce", Never, 2784),
        SWAP,
    ),
    loom("MP+pobitlocks", Never, 297),
    loom("MP+porevbitlocks", Never, 264),
    loom(
        "ISA2+pooncebitlock+pooncebitlock+pombonce",
        Sometimes,
        50784,
    ),
];

/// Store-buffer rows: memory stays multicopy atomic.
const SB_MCA: &str = "the mode is sequentially consistent memory plus store buffers: a store is visible to every other CPU once it leaves its buffer, so outcomes that need two CPUs to see stores in different orders (IRIW, WRC, a chain through a third CPU) stay out of reach. The loom rows cover them: loom agrees on all but the swap rows";
/// Store-buffer rows: loads are not delayed.
const SB_LB: &str = "loads are never delayed or satisfied early in the mode: load buffering stays out of reach, as under loom (see the loom row)";
/// Store-buffer rows: loads are not reordered.
const SB_LOADS: &str = "the mode never reorders a CPU's loads (memory is sequentially consistent): read-read reordering stays out of reach here; the loom row observes it (compound.1-debug-vm is a loom finding)";
/// Store-buffer rows: lock handoff drains.
const SB_LOCK: &str = "spin_lock() and spin_unlock() drain the whole buffer and memory is multicopy atomic, so a lock handoff orders everything for every CPU: stronger than the LKMM's; the loom row agrees";
/// Store-buffer rows: a failed cmpxchg drains.
const SB_CMPXCHG: &str = "a failed cmpxchg drains the buffer like a successful one (the shim orders both outcomes); as the loom row";

/// The store-buffer rows: every test again, under shuttle with the shim's store-buffer mode
/// (`--features store-buffer`), [`STORE_BUFFER_ITERATIONS`] iterations from
/// [`STORE_BUFFER_SEED`]. The mode exists for the misses of the loom rows that come from the
/// modification order (S, the split smp_mb() shape); what it still cannot produce is named in
/// each disagreement.
pub static STORE_BUFFER_ROWS: &[Row] = &[
    sb("CoRR+poonceonce+Once", Never),
    sb("CoRW+poonceonce+Once", Never),
    sb("CoWR+poonceonce+Once", Never),
    sb("CoWW+poonceonce", Never),
    sb("IRIW+fencembonceonces+OnceOnce", Never),
    differs(sb("IRIW+poonceonces+OnceOnce", Never), SB_MCA),
    sb("ISA2+pooncelock+pooncelock+pombonce", Never),
    sb("ISA2+poonceonces", Sometimes),
    sb("ISA2+pooncerelease+poacquirerelease+poacquireonce", Never),
    sb("LB+fencembonceonce+ctrlonceonce", Never),
    sb("LB+poacquireonce+pooncerelease", Never),
    differs(sb("LB+poonceonces", Never), SB_LB),
    sb("LB+unlocklockonceonce+poacquireonce", Never),
    sb("MP+fencewmbonceonce+fencermbonceonce", Never),
    sb("MP+polocks", Never),
    sb("MP+poonceonces", Sometimes),
    sb("MP+pooncerelease+poacquireonce", Never),
    sb("MP+porevlocks", Never),
    sb("MP+unlocklockonceonce+fencermbonceonce", Never),
    sb("R+fencembonceonces", Never),
    sb("R+poonceonces", Sometimes),
    sb("S+fencewmbonceonce+poacquireonce", Never),
    sb("S+poonceonces", Sometimes),
    sb("SB+fencembonceonces", Never),
    sb("SB+poonceonces", Sometimes),
    sb("SB+rfionceonce-poonceonces", Sometimes),
    differs(sb("WRC+poonceonces+Once", Never), SB_MCA),
    sb("WRC+pooncerelease+fencermbonceonce+Once", Never),
    sb("Z6.0+pooncelock+poonceLock+pombonce", Never),
    differs(sb("Z6.0+pooncelock+pooncelock+pombonce", Never), SB_LOCK),
    differs(
        sb("Z6.0+pooncerelease+poacquirerelease+fencembonceonce", Never),
        SB_MCA,
    ),
    sb("dep+plain", Never),
    sb(
        "Atomic-RMW+mb__after_atomic-is-stronger-than-acquire",
        Never,
    ),
    sb("Atomic-RMW-ops-are-atomic-WRT-atomic_set", Never),
    sb("cmpxchg-fail-ordered-1", Never),
    sb("cmpxchg-fail-ordered-2", Never),
    differs(sb("cmpxchg-fail-unordered-1", Never), SB_CMPXCHG),
    differs(sb("cmpxchg-fail-unordered-2", Never), SB_CMPXCHG),
    sb("DCL-broken", Sometimes),
    sb("DCL-fixed", Never),
    sb("RM-broken", Deadlock),
    sb("RM-fixed", Never),
    sb("S+fencembrmwonce+pooncefullrmw", Never),
    sb("S+pormwonce+pooncefullrmw", Sometimes),
    sb("S+pofullrmwonce+pooncefullrmw", Never),
    differs(sb("MP+fencembrmwonce+poonceonce", Never), SB_LOADS),
    sb("MP+fencembrmwonce+fencermbonceonce", Never),
    sb("MP+pooncefullrmw+pofullrmwonce", Never),
    sb("MP+pooncermw+pofullrmwonce", Sometimes),
    sb("MP+fencembbeforeatomiconcermw+pofullrmwonce", Never),
    differs(
        sb("MP+pooncerelease+pooncecoonce+poacquireonce", Never),
        SB_MCA,
    ),
    sb("MP+pobitlocks", Never),
    sb("MP+porevbitlocks", Never),
    differs(
        sb("ISA2+pooncebitlock+pooncebitlock+pombonce", Never),
        SB_MCA,
    ),
];

/// The litmus files under `models/litmus/` that no row runs, each with the interpreter's reason
/// for refusing it (the `table` test checks that every file without a row is refused, so a file
/// the interpreter could run is never silently left out).
pub fn left_out() -> Vec<(&'static str, String)> {
    litmus::FILES
        .iter()
        .filter_map(|f| match litmus::parse(f.text) {
            Err(e) => Some((f.path, e.to_string())),
            Ok(_) => None,
        })
        .collect()
}

/// What running a row measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Measured {
    pub result: LitmusResult,
    pub executions: u64,
    pub seconds: f64,
}

/// Run one row under its checker (the build must be that checker's: loom for [`CalChecker::Loom`]).
pub fn run(row: &Row) -> Result<Measured, String> {
    run_test(litmus_of(row.test)?.test, row.checker)
}

/// Run a parsed litmus test under `checker` (the build must be that checker's): every execution
/// under loom, or the store-buffer soak.
pub fn run_test(test: Arc<litmus::Test>, checker: CalChecker) -> Result<Measured, String> {
    let name = test.name.clone();
    let passed = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(AtomicBool::new(false));
    let (p, s) = (passed.clone(), seen.clone());
    // A plain std flag, not a shim type: it adds no interleavings.
    let body = move || match test.run() {
        Outcome::Filtered => {}
        Outcome::Exists(holds) => {
            p.store(true, Ordering::Relaxed);
            if holds {
                s.store(true, Ordering::Relaxed);
            }
        }
    };
    let e = match checker {
        CalChecker::Loom => {
            if !mmcheck::sync::EXHAUSTIVE {
                return Err("loom rows run under loom (RUSTFLAGS=\"--cfg loom\")".to_string());
            }
            checker::explore(
                &ExploreSettings {
                    preemption_bound: None,
                    ..Default::default()
                },
                body,
            )?
        }
        CalChecker::StoreBuffer { iterations } => {
            if !mmcheck::sync::store_buffer::ACTIVE {
                return Err("store-buffer rows run with --features store-buffer".to_string());
            }
            checker::soak(
                Scheduler::Random,
                STORE_BUFFER_SEED,
                iterations,
                &std::env::temp_dir().join("mmcheck-calibration"),
                body,
            )?
        }
    };
    if let Some(err) = e.error {
        return Err(format!("{name}: {err}"));
    }
    if let Some(f) = e.failure {
        return Err(format!("{name}: unexpected failure: {}", f.message));
    }
    if checker == CalChecker::Loom && !e.complete {
        return Err(format!("{name}: exploration incomplete"));
    }
    let result = if !passed.load(Ordering::Relaxed) {
        LitmusResult::Deadlock
    } else if seen.load(Ordering::Relaxed) {
        LitmusResult::Sometimes
    } else {
        LitmusResult::Never
    };
    Ok(Measured {
        result,
        executions: e.executions,
        seconds: e.seconds,
    })
}

/// Every row: the loom rows, then the store-buffer rows.
pub fn all() -> impl Iterator<Item = &'static Row> {
    ROWS.iter().chain(STORE_BUFFER_ROWS)
}

/// The rows this build runs.
pub fn rows_of_build() -> impl Iterator<Item = &'static Row> {
    all().filter(|r| r.checker.is_build())
}

/// The checker this build runs calibration rows under, if any: loom, or shuttle with the
/// store-buffer mode.
pub fn build_checker() -> Option<CalChecker> {
    if mmcheck::sync::EXHAUSTIVE {
        Some(CalChecker::Loom)
    } else if mmcheck::sync::store_buffer::ACTIVE {
        Some(CalChecker::StoreBuffer {
            iterations: STORE_BUFFER_ITERATIONS,
        })
    } else {
        None
    }
}

/// Counts of agreement: (agree, misses, extra).
pub fn counts<'a>(rows: impl IntoIterator<Item = &'a Row>) -> (usize, usize, usize) {
    rows.into_iter()
        .fold((0, 0, 0), |(a, m, e), r| match r.agreement() {
            Agreement::Agree => (a + 1, m, e),
            Agreement::Misses => (a, m + 1, e),
            Agreement::Extra => (a, m, e + 1),
        })
}

/// The table as Markdown: test, checker, LKMM, mmcheck, agreement, executions, and the claims a
/// disagreement could affect. With `measured` (one entry per row, in order), the measured result
/// and count are shown, and a row whose measurement differs from the table is marked
/// `CHANGED`.
pub fn markdown(rows: &[&Row], measured: Option<&[Result<Measured, String>]>) -> String {
    let mut out = String::from(
        "| test | checker | LKMM | mmcheck | agreement | executions | claims it could affect |\n|---|---|---|---|---|---|---|\n",
    );
    for (i, r) in rows.iter().enumerate() {
        let (result, executions, mark) = match measured.map(|m| &m[i]) {
            None => (r.mmcheck.to_string(), r.executions.to_string(), ""),
            Some(Ok(m)) => (
                m.result.to_string(),
                m.executions.to_string(),
                if m.result != r.mmcheck || m.executions != r.executions {
                    " CHANGED"
                } else {
                    ""
                },
            ),
            Some(Err(e)) => (format!("error: {e}"), "-".to_string(), " CHANGED"),
        };
        let agreement = match measured.map(|m| &m[i]) {
            Some(Ok(m)) => agreement(r.lkmm(), m.result),
            _ => r.agreement(),
        };
        let affects = if agreement == Agreement::Agree {
            ""
        } else {
            r.affects
        };
        out.push_str(&format!(
            "| {} | {} | {} | {}{mark} | {agreement} | {executions} | {affects} |\n",
            r.test,
            r.checker.name(),
            r.lkmm(),
            result
        ));
    }
    let (a, m, e) = counts(rows.iter().copied());
    out.push_str(&format!(
        "\n{a} of {} agree with the LKMM; {m} misses (the LKMM allows what the checker never produces), {e} extra (the checker produces what the LKMM forbids).\n",
        rows.len()
    ));
    out
}

/// The whole calibration as recorded (no run): the loom table, the store-buffer table and the
/// tests left out, as Markdown (proofs/README.md, "Calibration", holds this text).
pub fn markdown_recorded() -> String {
    let loom: Vec<&Row> = ROWS.iter().collect();
    let sb: Vec<&Row> = STORE_BUFFER_ROWS.iter().collect();
    let mut out = format!(
        "**loom, every execution (no bound), the default shim.**\n\n{}\n**shuttle with the store-buffer mode** (`--features store-buffer`; random scheduler, seed {STORE_BUFFER_SEED}, {STORE_BUFFER_ITERATIONS} iterations each; Never = not observed).\n\n{}\n**Left out** (the files the interpreter refuses, with its reason).\n\n",
        markdown(&loom, None),
        markdown(&sb, None)
    );
    for (file, why) in left_out() {
        out.push_str(&format!("* `models/litmus/{file}`: {why}\n"));
    }
    out
}

/// Run every row of this build's checker and render the table (for `mmcheck verify
/// --calibration`). The flag is false when a row's measurement differs from the table or a row
/// failed to run.
pub fn verify() -> Result<(String, bool), String> {
    build_checker().ok_or_else(|| {
        "calibration runs under loom (RUSTFLAGS=\"--cfg loom\") or with --features store-buffer"
            .to_string()
    })?;
    let rows: Vec<&Row> = rows_of_build().collect();
    let measured: Vec<_> = rows.iter().map(|r| run(r)).collect();
    let ok = rows
        .iter()
        .zip(&measured)
        .all(|(r, m)| matches!(m, Ok(m) if m.result == r.mmcheck && m.executions == r.executions));
    Ok((markdown(&rows, Some(&measured)), ok))
}
