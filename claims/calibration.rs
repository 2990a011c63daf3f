//! Checker calibration: how far the checker's word goes. Every verdict mmcheck gives rests on
//! one approximation, the kernel's memory model (LKMM) read as C11 through the shim's primitive
//! mapping and explored by loom. The kernel publishes the measuring stick: its litmus tests,
//! each with the LKMM's result. The scenarios (`mmcheck_models::litmus`) re-express them with
//! the shim's kernel primitives; this table says, for each, what the LKMM allows, what the
//! checker observed, how many executions that took, and for each disagreement which claims it
//! could affect (proofs/README.md, "Calibration", argues each).
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

/// Where a test comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// `tools/memory-model/litmus-tests/<test>.litmus`.
    Tools,
    /// `Documentation/litmus-tests/atomic/<test>.litmus`.
    DocAtomic,
    /// `Documentation/litmus-tests/locking/<test>.litmus`.
    DocLocking,
    /// Added by mmcheck: the pattern of the claims it names, with the LKMM result argued in
    /// proofs/README.md ("Calibration").
    Added(&'static str),
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
    /// The scenario's name in `mmcheck_models::litmus` (the kernel's file name without
    /// `.litmus`).
    pub test: &'static str,
    pub source: Source,
    pub checker: CalChecker,
    /// The LKMM's result (the file's `Result:` line, or argued for an added test).
    pub lkmm: LitmusResult,
    /// What the checker observed, as measured.
    pub mmcheck: LitmusResult,
    /// Executions the checker ran, as measured.
    pub executions: u64,
    /// For a disagreement: the claims it could affect and why (or why not); the full argument is
    /// in proofs/README.md, "Calibration". Empty for a row that agrees.
    pub affects: &'static str,
}

impl Row {
    pub fn agreement(&self) -> Agreement {
        agreement(self.lkmm, self.mmcheck)
    }

    /// The test's file in the kernel tree, or what an added test stands for.
    pub fn file(&self) -> String {
        match self.source {
            Source::Tools => format!("tools/memory-model/litmus-tests/{}.litmus", self.test),
            Source::DocAtomic => format!("Documentation/litmus-tests/atomic/{}.litmus", self.test),
            Source::DocLocking => {
                format!("Documentation/litmus-tests/locking/{}.litmus", self.test)
            }
            Source::Added(what) => format!("added: {what}"),
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

const fn loom(
    test: &'static str,
    source: Source,
    lkmm: LitmusResult,
    mmcheck: LitmusResult,
    executions: u64,
) -> Row {
    Row {
        test,
        source,
        checker: CalChecker::Loom,
        lkmm,
        mmcheck,
        executions,
        affects: "",
    }
}

const fn sb(test: &'static str, source: Source, lkmm: LitmusResult, mmcheck: LitmusResult) -> Row {
    Row {
        test,
        source,
        checker: CalChecker::StoreBuffer {
            iterations: STORE_BUFFER_ITERATIONS,
        },
        lkmm,
        mmcheck,
        executions: STORE_BUFFER_ITERATIONS as u64,
        affects: "",
    }
}

const fn differs(row: Row, affects: &'static str) -> Row {
    Row { affects, ..row }
}

use LitmusResult::{Deadlock, Never, Sometimes};
use Source::{DocAtomic, DocLocking, Tools};

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
    loom("CoRR+poonceonce+Once", Tools, Never, Never, 27),
    loom("CoRW+poonceonce+Once", Tools, Never, Never, 21),
    loom("CoWR+poonceonce+Once", Tools, Never, Never, 24),
    loom("CoWW+poonceonce", Tools, Never, Never, 1),
    loom("IRIW+fencembonceonces+OnceOnce", Tools, Never, Never, 234936),
    loom("IRIW+poonceonces+OnceOnce", Tools, Sometimes, Sometimes, 266671),
    differs(
        loom("ISA2+pooncelock+pooncelock+pombonce", Tools, Never, Sometimes, 2543),
        LOCKS,
    ),
    loom("ISA2+poonceonces", Tools, Sometimes, Sometimes, 2372),
    loom(
        "ISA2+pooncerelease+poacquirerelease+poacquireonce",
        Tools,
        Never,
        Never,
        2273,
    ),
    loom("LB+fencembonceonce+ctrlonceonce", Tools, Never, Never, 12),
    loom("LB+poacquireonce+pooncerelease", Tools, Never, Never, 33),
    differs(loom("LB+poonceonces", Tools, Sometimes, Never, 33), LB),
    loom("LB+unlocklockonceonce+poacquireonce", Tools, Never, Never, 33),
    loom("MP+fencewmbonceonce+fencermbonceonce", Tools, Never, Never, 48),
    loom("MP+polocks", Tools, Never, Never, 39),
    loom("MP+poonceonces", Tools, Sometimes, Sometimes, 57),
    loom("MP+pooncerelease+poacquireonce", Tools, Never, Never, 48),
    loom("MP+porevlocks", Tools, Never, Never, 30),
    differs(
        loom("MP+unlocklockonceonce+fencermbonceonce", Tools, Never, Sometimes, 57),
        LOCKS,
    ),
    loom("R+fencembonceonces", Tools, Never, Never, 24),
    loom("R+poonceonces", Tools, Sometimes, Sometimes, 39),
    loom("S+fencewmbonceonce+poacquireonce", Tools, Never, Never, 30),
    differs(loom("S+poonceonces", Tools, Sometimes, Never, 30), S),
    loom("SB+fencembonceonces", Tools, Never, Never, 30),
    loom("SB+poonceonces", Tools, Sometimes, Sometimes, 60),
    loom("SB+rfionceonce-poonceonces", Tools, Sometimes, Sometimes, 60),
    loom("WRC+poonceonces+Once", Tools, Sometimes, Sometimes, 2949),
    loom("WRC+pooncerelease+fencermbonceonce+Once", Tools, Never, Never, 2835),
    loom("Z6.0+pooncelock+poonceLock+pombonce", Tools, Never, Never, 1503),
    loom("Z6.0+pooncelock+pooncelock+pombonce", Tools, Sometimes, Sometimes, 1820),
    differs(
        loom(
            "Z6.0+pooncerelease+poacquirerelease+fencembonceonce",
            Tools,
            Sometimes,
            Never,
            1654,
        ),
        SWAP,
    ),
    loom("dep+plain", Tools, Never, Never, 12),
    loom(
        "Atomic-RMW+mb__after_atomic-is-stronger-than-acquire",
        DocAtomic,
        Never,
        Never,
        36,
    ),
    loom(
        "Atomic-RMW-ops-are-atomic-WRT-atomic_set",
        DocAtomic,
        Never,
        Never,
        21,
    ),
    loom("cmpxchg-fail-ordered-1", DocAtomic, Never, Never, 57),
    loom("cmpxchg-fail-ordered-2", DocAtomic, Never, Never, 24),
    differs(
        loom("cmpxchg-fail-unordered-1", DocAtomic, Sometimes, Never, 57),
        FAILED_CMPXCHG,
    ),
    differs(
        loom("cmpxchg-fail-unordered-2", DocAtomic, Sometimes, Never, 24),
        FAILED_CMPXCHG,
    ),
    loom("DCL-broken", DocLocking, Sometimes, Sometimes, 75),
    loom("DCL-fixed", DocLocking, Never, Never, 60),
    loom("RM-broken", DocLocking, Deadlock, Deadlock, 12),
    loom("RM-fixed", DocLocking, Never, Never, 105),
    loom(
        "S+fencembrmwonce+pooncefullrmw",
        Source::Added("__split_huge_page_refcount's atomic_add / smp_mb() / PG_tail clear vs put_page_testzero"),
        Never,
        Never,
        15,
    ),
    differs(
        loom(
            "S+pormwonce+pooncefullrmw",
            Source::Added("the same without split's smp_mb() (the mutant that removes it)"),
            Sometimes,
            Never,
            15,
        ),
        S,
    ),
    loom(
        "S+pofullrmwonce+pooncefullrmw",
        Source::Added("the same with a value-returning count update and no smp_mb()"),
        Never,
        Never,
        15,
    ),
    loom(
        "MP+fencembrmwonce+poonceonce",
        Source::Added("the compound.1-debug-vm finding: split's atomic_add / smp_mb() / PG_tail clear vs put_page_testzero's VM_BUG_ON read"),
        Sometimes,
        Sometimes,
        57,
    ),
    loom(
        "MP+fencembrmwonce+fencermbonceonce",
        Source::Added("the same with smp_rmb() between the reader's loads"),
        Never,
        Never,
        48,
    ),
    loom(
        "MP+pooncefullrmw+pofullrmwonce",
        Source::Added("put_page_testzero: the last put sees the other holder's writes"),
        Never,
        Never,
        24,
    ),
    loom(
        "MP+pooncermw+pofullrmwonce",
        Source::Added("the same with an unordered atomic_dec() put"),
        Sometimes,
        Sometimes,
        39,
    ),
    loom(
        "MP+fencembbeforeatomiconcermw+pofullrmwonce",
        Source::Added("smp_mb__before_atomic() before the atomic_dec() put"),
        Never,
        Never,
        24,
    ),
    differs(
        loom(
            "MP+pooncerelease+pooncecoonce+poacquireonce",
            Source::Added("a plain store overwriting a release store (a non-atomic page->flags update after bit_spin_unlock)"),
            Sometimes,
            Never,
            2784,
        ),
        SWAP,
    ),
    loom(
        "MP+pobitlocks",
        Source::Added("MP+polocks with bit_spin_lock (compound_lock)"),
        Never,
        Never,
        297,
    ),
    loom(
        "MP+porevbitlocks",
        Source::Added("MP+porevlocks with bit_spin_lock"),
        Never,
        Never,
        264,
    ),
    loom(
        "ISA2+pooncebitlock+pooncebitlock+pombonce",
        Source::Added("ISA2+pooncelock+pooncelock+pombonce with bit_spin_lock"),
        Sometimes,
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
    sb("CoRR+poonceonce+Once", Tools, Never, Never),
    sb("CoRW+poonceonce+Once", Tools, Never, Never),
    sb("CoWR+poonceonce+Once", Tools, Never, Never),
    sb("CoWW+poonceonce", Tools, Never, Never),
    sb("IRIW+fencembonceonces+OnceOnce", Tools, Never, Never),
    differs(sb("IRIW+poonceonces+OnceOnce", Tools, Sometimes, Never), SB_MCA),
    sb("ISA2+pooncelock+pooncelock+pombonce", Tools, Never, Never),
    sb("ISA2+poonceonces", Tools, Sometimes, Sometimes),
    sb("ISA2+pooncerelease+poacquirerelease+poacquireonce", Tools, Never, Never),
    sb("LB+fencembonceonce+ctrlonceonce", Tools, Never, Never),
    sb("LB+poacquireonce+pooncerelease", Tools, Never, Never),
    differs(sb("LB+poonceonces", Tools, Sometimes, Never), SB_LB),
    sb("LB+unlocklockonceonce+poacquireonce", Tools, Never, Never),
    sb("MP+fencewmbonceonce+fencermbonceonce", Tools, Never, Never),
    sb("MP+polocks", Tools, Never, Never),
    sb("MP+poonceonces", Tools, Sometimes, Sometimes),
    sb("MP+pooncerelease+poacquireonce", Tools, Never, Never),
    sb("MP+porevlocks", Tools, Never, Never),
    sb("MP+unlocklockonceonce+fencermbonceonce", Tools, Never, Never),
    sb("R+fencembonceonces", Tools, Never, Never),
    sb("R+poonceonces", Tools, Sometimes, Sometimes),
    sb("S+fencewmbonceonce+poacquireonce", Tools, Never, Never),
    sb("S+poonceonces", Tools, Sometimes, Sometimes),
    sb("SB+fencembonceonces", Tools, Never, Never),
    sb("SB+poonceonces", Tools, Sometimes, Sometimes),
    sb("SB+rfionceonce-poonceonces", Tools, Sometimes, Sometimes),
    differs(sb("WRC+poonceonces+Once", Tools, Sometimes, Never), SB_MCA),
    sb("WRC+pooncerelease+fencermbonceonce+Once", Tools, Never, Never),
    sb("Z6.0+pooncelock+poonceLock+pombonce", Tools, Never, Never),
    differs(sb("Z6.0+pooncelock+pooncelock+pombonce", Tools, Sometimes, Never), SB_LOCK),
    differs(sb("Z6.0+pooncerelease+poacquirerelease+fencembonceonce", Tools, Sometimes, Never), SB_MCA),
    sb("dep+plain", Tools, Never, Never),
    sb("Atomic-RMW+mb__after_atomic-is-stronger-than-acquire", DocAtomic, Never, Never),
    sb("Atomic-RMW-ops-are-atomic-WRT-atomic_set", DocAtomic, Never, Never),
    sb("cmpxchg-fail-ordered-1", DocAtomic, Never, Never),
    sb("cmpxchg-fail-ordered-2", DocAtomic, Never, Never),
    differs(sb("cmpxchg-fail-unordered-1", DocAtomic, Sometimes, Never), SB_CMPXCHG),
    differs(sb("cmpxchg-fail-unordered-2", DocAtomic, Sometimes, Never), SB_CMPXCHG),
    sb("DCL-broken", DocLocking, Sometimes, Sometimes),
    sb("DCL-fixed", DocLocking, Never, Never),
    sb("RM-broken", DocLocking, Deadlock, Deadlock),
    sb("RM-fixed", DocLocking, Never, Never),
    sb("S+fencembrmwonce+pooncefullrmw", Source::Added("__split_huge_page_refcount's atomic_add / smp_mb() / PG_tail clear vs put_page_testzero"), Never, Never),
    sb("S+pormwonce+pooncefullrmw", Source::Added("the same without split's smp_mb() (the mutant that removes it)"), Sometimes, Sometimes),
    sb("S+pofullrmwonce+pooncefullrmw", Source::Added("the same with a value-returning count update and no smp_mb()"), Never, Never),
    differs(sb("MP+fencembrmwonce+poonceonce", Source::Added("the compound.1-debug-vm finding: split's atomic_add / smp_mb() / PG_tail clear vs put_page_testzero's VM_BUG_ON read"), Sometimes, Never), SB_LOADS),
    sb("MP+fencembrmwonce+fencermbonceonce", Source::Added("the same with smp_rmb() between the reader's loads"), Never, Never),
    sb("MP+pooncefullrmw+pofullrmwonce", Source::Added("put_page_testzero: the last put sees the other holder's writes"), Never, Never),
    sb("MP+pooncermw+pofullrmwonce", Source::Added("the same with an unordered atomic_dec() put"), Sometimes, Sometimes),
    sb("MP+fencembbeforeatomiconcermw+pofullrmwonce", Source::Added("smp_mb__before_atomic() before the atomic_dec() put"), Never, Never),
    differs(sb("MP+pooncerelease+pooncecoonce+poacquireonce", Source::Added("a plain store overwriting a release store (a non-atomic page->flags update after bit_spin_unlock)"), Sometimes, Never), SB_MCA),
    sb("MP+pobitlocks", Source::Added("MP+polocks with bit_spin_lock (compound_lock)"), Never, Never),
    sb("MP+porevbitlocks", Source::Added("MP+porevlocks with bit_spin_lock"), Never, Never),
    differs(sb("ISA2+pooncebitlock+pooncebitlock+pombonce", Source::Added("ISA2+pooncelock+pooncelock+pombonce with bit_spin_lock"), Sometimes, Never), SB_MCA),
];

/// The litmus tests of the two kernel directories that no row runs, and why. (Historical names
/// — `IRIW+mbonceonces+OnceOnce`, `LB+ctrlonceonce+mbonceonce`, `MP+wmbonceonce+rmbonceonce`,
/// `R+mbonceonces`, `S+wmbonceonce+poacquireonce`, `SB+mbonceonces`,
/// `WRC+pooncerelease+rmbonceonce+Once`, `Z6.0+pooncerelease+poacquirerelease+mbonceonce` —
/// are the same bodies as the rows under their current names.)
pub static LEFT_OUT: &[(&str, &str)] = &[
    (
        "tools/memory-model/litmus-tests/MP+onceassign+derefonce.litmus",
        "RCU (rcu_assign_pointer, rcu_dereference, rcu_read_lock) and an address dependency through a pointer-valued variable: the shim has no RCU and C11/loom no dependency ordering",
    ),
    (
        "tools/memory-model/litmus-tests/MP+polockmbonce+poacquiresilsil.litmus",
        "spin_is_locked(): under a checker a SpinLock is the checker's mutex, which has no lock word an outside CPU could read",
    ),
    (
        "tools/memory-model/litmus-tests/MP+polockonce+poacquiresilsil.litmus",
        "spin_is_locked(), as above",
    ),
    (
        "Documentation/litmus-tests/rcu/RCU+sync+free.litmus",
        "RCU grace periods (synchronize_rcu) and rcu_dereference: not in the shim; no mmcheck model uses RCU",
    ),
    (
        "Documentation/litmus-tests/rcu/RCU+sync+read.litmus",
        "RCU grace periods, as above",
    ),
];

/// What running a row measured.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Measured {
    pub result: LitmusResult,
    pub executions: u64,
    pub seconds: f64,
}

/// Run one row under its checker (the build must be that checker's: loom for [`CalChecker::Loom`]).
pub fn run(row: &Row) -> Result<Measured, String> {
    let test =
        litmus::find(row.test).ok_or_else(|| format!("{}: no such litmus scenario", row.test))?;
    let passed = Arc::new(AtomicBool::new(false));
    let seen = Arc::new(AtomicBool::new(false));
    let (p, s) = (passed.clone(), seen.clone());
    let run = test.run;
    // A plain std flag, not a shim type: it adds no interleavings.
    let body = move || match run() {
        Outcome::Filtered => {}
        Outcome::Exists(holds) => {
            p.store(true, Ordering::Relaxed);
            if holds {
                s.store(true, Ordering::Relaxed);
            }
        }
    };
    let e = match row.checker {
        CalChecker::Loom => checker::explore(
            &ExploreSettings {
                preemption_bound: None,
                ..Default::default()
            },
            body,
        )?,
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
        return Err(format!("{}: {err}", row.test));
    }
    if let Some(f) = e.failure {
        return Err(format!("{}: unexpected failure: {}", row.test, f.message));
    }
    if row.checker == CalChecker::Loom && !e.complete {
        return Err(format!("{}: exploration incomplete", row.test));
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
            Some(Ok(m)) => agreement(r.lkmm, m.result),
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
            r.lkmm,
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
        "**loom, every execution (no bound), the default shim.**\n\n{}\n**shuttle with the store-buffer mode** (`--features store-buffer`; random scheduler, seed {STORE_BUFFER_SEED}, {STORE_BUFFER_ITERATIONS} iterations each; Never = not observed).\n\n{}\n**Left out.**\n\n",
        markdown(&loom, None),
        markdown(&sb, None)
    );
    for (file, why) in LEFT_OUT {
        out.push_str(&format!("* `{file}`: {why}\n"));
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
