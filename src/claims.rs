//! The claims registry: every verdict mmcheck gives, with the model, variant, checker, bound
//! and proof document behind it. Tests, the `xtask verify` runner and the proofs index come
//! from this table (and the test suite checks that each claim has its test and its proof).

use crate::compound::{
    BypassThp, Commit27c73ae7, Commit7cb2ef56, Compound, Linux311, Mutant7cb2ef56DecRead,
};
use crate::lru::{
    Commit744ed144, CommitEb709b0d, Lru, MutantEb709b0dNoRecheck, MutantEb709b0dNoRef, Unbatched,
};
use crate::models::{lru, thp, vma};
use crate::sync::checker::{self, Exploration, ExploreSettings};
use crate::trace::Invariant;
use crate::vma::{AlwaysLock, Commit252c5f94, LeeV1, Mutant252c5f94NoInsert, VmaAdjust};
use serde::{Deserialize, Serialize};

/// What a claim expects the checker to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expected {
    /// No invariant breaks in any interleaving within the bound.
    Safe,
    /// The checker finds an interleaving that breaks this invariant.
    Bug(Invariant),
}

/// What a run concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Safe,
    Bug,
    Incomplete,
    Error,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Safe => "safe",
            Verdict::Bug => "bug",
            Verdict::Incomplete => "incomplete",
            Verdict::Error => "error",
        }
    }
}

/// One claim.
#[derive(Debug)]
pub struct Claim {
    /// Stable id: `S1.3` (the design's claim) or `S1.3-fix` (its SAFE twin on the same model).
    pub id: &'static str,
    pub area: &'static str,
    pub statement: &'static str,
    /// Variant id (`Compound::ID`).
    pub variant: &'static str,
    /// Scenario function in models/.
    pub model: &'static str,
    pub cpus: usize,
    /// Default loom preemption bound (None: unbounded).
    pub bound: Option<usize>,
    /// CONFIG_DEBUG_VM of the modelled kernel (VM_BUG_ON compiled in or out).
    pub debug_vm: bool,
    pub expected: Expected,
    /// The claim that checks the same model with the opposite expectation (proof of power).
    pub twin: &'static str,
    pub proof: &'static str,
    /// Test function in tests/ that checks this claim.
    pub test: &'static str,
    /// One execution of the scenario.
    pub body: fn(),
}

macro_rules! claim {
    ($id:expr, $area:expr, $stmt:expr, $module:ident :: <$v:ty as $tr:ident>, $model:ident, $cpus:expr, $bound:expr, $dvm:expr, $exp:expr, $twin:expr, $proof:expr, $test:expr) => {
        Claim {
            id: $id,
            area: $area,
            statement: $stmt,
            variant: <$v as $tr>::ID,
            model: stringify!($model),
            cpus: $cpus,
            bound: $bound,
            debug_vm: $dvm,
            expected: $exp,
            twin: $twin,
            proof: $proof,
            test: $test,
            body: $module::$model::<$v>,
        }
    };
}

/// Every claim, in reporting order.
pub static CLAIMS: &[Claim] = &[
    claim!(
        "S1.1", "s1",
        "3.11 locked path: get/put on a pinned THP tail racing __split_huge_page_refcount keeps every count exact and frees nothing still referenced",
        thp::<Linux311 as Compound>, thp_get_put_vs_split, 2, Some(4), false, Expected::Safe, "S1.5", "proofs/S1.1.md", "s1_1_linux_3_11_safe"
    ),
    claim!(
        "S1.1-debug-vm", "s1",
        "finding: with CONFIG_DEBUG_VM, the VM_BUG_ON(atomic_read(&page->_count) == 0) in put_page_testzero, reached after compound_trans_head saw PG_tail clear, may read _count from before split's atomic_add: no barrier orders the two loads (C11 and the LKMM allow it; x86-TSO does not)",
        thp::<Linux311 as Compound>, thp_get_put_vs_split, 2, Some(4), true, Expected::Bug(Invariant::VmBugOn), "S1.1", "proofs/S1.1.md", "s1_1_debug_vm_stale_count_bug"
    ),
    claim!(
        "S1.1-27c73ae7", "s1",
        "27c73ae7 on the S1.1 model (THP tail get/put racing split): SAFE",
        thp::<Commit27c73ae7 as Compound>, thp_get_put_vs_split, 2, Some(4), false, Expected::Safe, "S1.5", "proofs/S1.1.md", "s1_1_27c73ae7_safe"
    ),
    claim!(
        "S1.2", "s1",
        "7cb2ef56 on hugetlbfs pages: concurrent get/put on tail and head; the final put runs the destructor exactly once and only when no reference remains",
        thp::<Commit7cb2ef56 as Compound>, hugetlb_get_put, 2, Some(4), true, Expected::Safe, "S1.2-mutant", "proofs/S1.2.md", "s1_2_7cb2ef56_safe"
    ),
    claim!(
        "S1.2-mutant", "s1",
        "7cb2ef56 with put_page_testzero split into atomic_dec + atomic_read on the S1.2 model: the destructor runs twice",
        thp::<Mutant7cb2ef56DecRead as Compound>, hugetlb_get_put, 2, Some(4), true, Expected::Bug(Invariant::UseAfterFree), "S1.2", "proofs/S1.2.md", "s1_2_mutant_dec_read_bug"
    ),
    claim!(
        "S1.3", "s1",
        "7cb2ef56: put_page of a THP tail racing split and a later private write: PageHuge follows a dangling first_page",
        thp::<Commit7cb2ef56 as Compound>, thp_put_vs_split_private, 2, Some(4), false, Expected::Bug(Invariant::Oops), "S1.3-fix", "proofs/S1.3.md", "s1_3_7cb2ef56_bug"
    ),
    claim!(
        "S1.3-fix", "s1",
        "27c73ae7 on the S1.3 model: the head is pinned and PG_tail re-checked before any tail field is trusted. SAFE",
        thp::<Commit27c73ae7 as Compound>, thp_put_vs_split_private, 2, Some(4), false, Expected::Safe, "S1.3", "proofs/S1.3.md", "s1_3_27c73ae7_safe"
    ),
    claim!(
        "S1.4", "s1",
        "7cb2ef56: gup_fast raises a hugetlbfs tail's _mapcount, the bypass put never drops it, pool shrink finds a bad page",
        thp::<Commit7cb2ef56 as Compound>, hugetlb_gup_then_shrink, 2, Some(4), true, Expected::Bug(Invariant::BadPage), "S1.4-fix", "proofs/S1.4.md", "s1_4_7cb2ef56_bug"
    ),
    claim!(
        "S1.4-fix", "s1",
        "27c73ae7 on the S1.4 model: tail _mapcount accounting restored for hugetlbfs, pool shrink finds clean pages. SAFE",
        thp::<Commit27c73ae7 as Compound>, hugetlb_gup_then_shrink, 2, Some(4), true, Expected::Safe, "S1.4", "proofs/S1.4.md", "s1_4_27c73ae7_safe"
    ),
    claim!(
        "S1.5", "s1",
        "mutant bypass-thp (bypass for every compound page) on the S1.1 model: a THP tail pin taken with tail accounting is dropped without it; split then moves a pin that is no longer there and its BUG_ON(page_count(head) <= 0) fires",
        thp::<BypassThp as Compound>, thp_get_put_vs_split, 2, Some(4), false, Expected::Bug(Invariant::BugOn), "S1.1", "proofs/S1.5.md", "s1_5_bypass_thp_bug"
    ),
    claim!(
        "S1.6", "s1",
        "finding (27c73ae7's 'longstanding theoretical race'): 3.11 tail put pins and locks a page_head that was freed and reallocated as a hugetlbfs head; its put_page_testzero(page_head) then frees the hugetlbfs head with __put_single_page: the destructor never runs and the tail is stranded",
        thp::<Linux311 as Compound>, thp_put_vs_split_realloc, 2, Some(4), false, Expected::Bug(Invariant::RefcountBalance), "S1.6-fix", "proofs/S1.6.md", "s1_6_linux_3_11_realloc_bug"
    ),
    claim!(
        "S1.6-fix", "s1",
        "27c73ae7 on the S1.6 model: PageHeadHuge(page_head) after the pin sends the put through skip_lock, which checks PageHead and runs the compound destructor. SAFE",
        thp::<Commit27c73ae7 as Compound>, thp_put_vs_split_realloc, 2, Some(4), false, Expected::Safe, "S1.6", "proofs/S1.6.md", "s1_6_27c73ae7_safe"
    ),
    claim!(
        "S2.1", "s2",
        "eb709b0d: activations on 2 CPUs, isolation and putback on a third: every page on exactly one list or free, PG_lru iff on an LRU list, PG_active iff on the active list, nothing freed while listed or queued, nothing queued after a drain, references balanced",
        lru::<CommitEb709b0d as Lru>, activate_vs_isolate, 3, Some(2), true, Expected::Safe, "S2.2", "proofs/S2.1.md", "s2_1_eb709b0d_safe"
    ),
    claim!(
        "S2.1-unbatched", "s2",
        "unbatched activate_page (lock per page: 2.6.37 and the UP code) on the S2.1 model: SAFE",
        lru::<Unbatched as Lru>, activate_vs_isolate, 3, Some(2), true, Expected::Safe, "S2.2", "proofs/S2.1.md", "s2_1_unbatched_safe"
    ),
    claim!(
        "S2.2", "s2",
        "744ed144: two CPUs queue the same page, one drain activates it, reclaim isolates it, the other drain reads !PageLRU && PageActive as a putback and links it on the active list while it is on the isolator's private list",
        lru::<Commit744ed144 as Lru>, activate_vs_isolate, 3, Some(2), true, Expected::Bug(Invariant::ListCorruption), "S2.1", "proofs/S2.2.md", "s2_2_744ed144_bug"
    ),
    claim!(
        "S2.3", "s2",
        "mutant eb709b0d-no-recheck (the re-check under lru_lock removed, the lockless pre-check trusted): a drain unlinks a page that reclaim isolated meanwhile, racing the isolator's writes of page->lru on its private list",
        lru::<MutantEb709b0dNoRecheck as Lru>, activate_vs_isolate, 3, Some(2), true, Expected::Bug(Invariant::DataRace), "S2.1", "proofs/S2.3.md", "s2_3_no_recheck_bug"
    ),
    claim!(
        "S2.4", "s2",
        "mutant eb709b0d-no-ref (no page_cache_get when queueing): the drain drops a reference it never took and the page is freed while others still hold it",
        lru::<MutantEb709b0dNoRef as Lru>, activate_vs_isolate, 3, Some(2), true, Expected::Bug(Invariant::FreedWhileReferenced), "S2.1", "proofs/S2.4.md", "s2_4_no_ref_bug"
    ),
    claim!(
        "S3.1", "s3",
        "252c5f94: brk growth (vm_end only, no insert, no importer: lock skipped) and a vma_merge that moves vm_start (lock taken) concurrent with rmap walks: no walk misses a mapped page or computes a wrong address",
        vma::<Commit252c5f94 as VmaAdjust>, brk_and_merge_vs_rmap, 2, None, true, Expected::Safe, "S3.2", "proofs/S3.1.md", "s3_1_252c5f94_safe"
    ),
    claim!(
        "S3.2", "s3",
        "lee-v1 (lock only for file || insert || importer): the merge moves vm_start and vm_pgoff unlocked; a walk reads a torn (start, pgoff) pair and misses the mapping",
        vma::<LeeV1 as VmaAdjust>, brk_and_merge_vs_rmap, 2, None, true, Expected::Bug(Invariant::RmapMiss), "S3.1", "proofs/S3.2.md", "s3_2_lee_v1_bug"
    ),
    claim!(
        "S3.3", "s3",
        "mutant 252c5f94-no-insert: a split links the new vma onto the anon_vma list without the lock while a walk traverses the list (a data race on the list; the walk can also find neither vma covering the page)",
        vma::<Mutant252c5f94NoInsert as VmaAdjust>, split_vs_rmap, 2, None, true, Expected::Bug(Invariant::DataRace), "S3.3-fix", "proofs/S3.3.md", "s3_3_no_insert_bug"
    ),
    claim!(
        "S3.3-fix", "s3",
        "252c5f94 on the split model: insert takes the lock. SAFE",
        vma::<Commit252c5f94 as VmaAdjust>, split_vs_rmap, 2, None, true, Expected::Safe, "S3.3", "proofs/S3.3.md", "s3_3_252c5f94_safe"
    ),
    claim!(
        "S3.4", "s3",
        "always-lock (2.6.30) on the brk/merge model: SAFE (the baseline)",
        vma::<AlwaysLock as VmaAdjust>, brk_and_merge_vs_rmap, 2, None, true, Expected::Safe, "S3.2", "proofs/S3.4.md", "s3_4_always_lock_safe"
    ),
    claim!(
        "S3.4-split", "s3",
        "always-lock (2.6.30) on the split model: SAFE (the baseline)",
        vma::<AlwaysLock as VmaAdjust>, split_vs_rmap, 2, None, true, Expected::Safe, "S3.3", "proofs/S3.4.md", "s3_4_always_lock_split_safe"
    ),
];

/// A shuttle soak: a larger scenario under randomized schedules.
#[derive(Debug)]
pub struct Soak {
    pub area: &'static str,
    pub variant: &'static str,
    pub model: &'static str,
    /// The variant is known to be broken: the soak must find a kernel invariant violation.
    pub expect_bug: bool,
    /// CONFIG_DEBUG_VM of the modelled kernel.
    pub debug_vm: bool,
    pub body: fn(),
}

impl Soak {
    /// One execution, with the soak's kernel config.
    pub fn run(&self) {
        crate::trace::set_config_debug_vm(self.debug_vm);
        (self.body)()
    }
}

macro_rules! soak {
    ($area:expr, $module:ident :: <$v:ty as $tr:ident>, $model:ident, $dvm:expr, $bug:expr) => {
        Soak {
            area: $area,
            variant: <$v as $tr>::ID,
            model: stringify!($model),
            expect_bug: $bug,
            debug_vm: $dvm,
            body: $module::$model::<$v>,
        }
    };
}

/// Every soak, by area. linux-3.11 is expected to fail the S1 soak: it has the "longstanding
/// theoretical race" that 27c73ae7's message describes (the THP head freed and reallocated as
/// a hugetlbfs head under a tail put: `VM_BUG_ON(PageHead(page_head))`, claim S1.6).
pub static SOAKS: &[Soak] = &[
    soak!("s1", thp::<Commit27c73ae7 as Compound>, thp_soak, true, false),
    soak!("s1", thp::<Commit7cb2ef56 as Compound>, thp_soak, false, true),
    soak!("s1", thp::<Linux311 as Compound>, thp_soak, true, true),
    soak!("s2", lru::<CommitEb709b0d as Lru>, lru_soak, true, false),
    soak!("s2", lru::<Unbatched as Lru>, lru_soak, true, false),
    soak!("s2", lru::<Commit744ed144 as Lru>, lru_soak, true, true),
    soak!("s3", vma::<Commit252c5f94 as VmaAdjust>, vma_soak, true, false),
    soak!("s3", vma::<AlwaysLock as VmaAdjust>, vma_soak, true, false),
    soak!("s3", vma::<LeeV1 as VmaAdjust>, vma_soak, true, true),
    soak!("s3", vma::<Mutant252c5f94NoInsert as VmaAdjust>, vma_soak, true, true),
];

/// Soak settings from the environment: `MMCHECK_SOAK_SEED` (default 0) and
/// `MMCHECK_SOAK_ITERATIONS` (default `default_iterations`). A malformed value is an error
/// naming the setting.
pub fn soak_settings_from_env(default_iterations: usize) -> Result<(u64, usize), String> {
    let seed = match std::env::var("MMCHECK_SOAK_SEED") {
        Err(std::env::VarError::NotPresent) => 0,
        Err(e) => return Err(format!("MMCHECK_SOAK_SEED: {e}")),
        Ok(v) => v
            .trim()
            .parse::<u64>()
            .map_err(|_| format!("MMCHECK_SOAK_SEED: '{v}' is not a seed (0..=2^64-1)"))?,
    };
    let iterations = match std::env::var("MMCHECK_SOAK_ITERATIONS") {
        Err(std::env::VarError::NotPresent) => default_iterations,
        Err(e) => return Err(format!("MMCHECK_SOAK_ITERATIONS: {e}")),
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => {
                return Err(format!(
                    "MMCHECK_SOAK_ITERATIONS: '{v}' is not a positive iteration count"
                ))
            }
        },
    };
    Ok((seed, iterations))
}

/// Look up claims by id or id prefix (case-insensitive): `s1`, `S1.3`, `s1.3-fix`.
/// An unknown id is an error that names the nearest ids.
pub fn select(pattern: &str) -> Result<Vec<&'static Claim>, String> {
    let p = pattern.trim().to_ascii_lowercase();
    if p.is_empty() {
        return Err("empty claim id".to_string());
    }
    let exact: Vec<_> = CLAIMS
        .iter()
        .filter(|c| c.id.to_ascii_lowercase() == p)
        .collect();
    if !exact.is_empty() {
        return Ok(exact);
    }
    let pre: Vec<_> = CLAIMS
        .iter()
        .filter(|c| {
            let id = c.id.to_ascii_lowercase();
            id.starts_with(&p)
                && matches!(id[p.len()..].chars().next(), None | Some('.') | Some('-'))
                || c.area == p
        })
        .collect();
    if !pre.is_empty() {
        return Ok(pre);
    }
    let mut near: Vec<(usize, &str)> = CLAIMS
        .iter()
        .map(|c| (edit_distance(&p, &c.id.to_ascii_lowercase()), c.id))
        .collect();
    near.sort();
    let suggestions: Vec<&str> = near.iter().take(3).map(|(_, id)| *id).collect();
    Err(format!(
        "unknown claim '{pattern}'; did you mean {}?",
        suggestions.join(", ")
    ))
}

/// The one claim with exactly this id.
pub fn get(id: &str) -> Result<&'static Claim, String> {
    CLAIMS
        .iter()
        .find(|c| c.id.eq_ignore_ascii_case(id))
        .ok_or_else(|| {
            select(id)
                .err()
                .unwrap_or_else(|| format!("'{id}' names several claims, not one"))
        })
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push(
                (prev[j] + usize::from(ca != *cb))
                    .min(prev[j + 1] + 1)
                    .min(cur[j] + 1),
            );
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Verdict of one exploration.
pub fn judge(e: &Exploration) -> Verdict {
    if e.failure.is_some() {
        Verdict::Bug
    } else if e.error.is_some() {
        Verdict::Error
    } else if !e.complete {
        Verdict::Incomplete
    } else {
        Verdict::Safe
    }
}

/// Does the outcome match the claim's expectation (for BUG: the named invariant broke)?
pub fn meets_expectation(claim: &Claim, e: &Exploration) -> bool {
    match (claim.expected, judge(e)) {
        (Expected::Safe, Verdict::Safe) => true,
        (Expected::Bug(inv), Verdict::Bug) => {
            e.failure.as_ref().is_some_and(|f| f.invariant == inv)
        }
        _ => false,
    }
}

/// The preemption bound from `MMCHECK_BOUND` (a number, or `none` for unbounded), if set.
/// A malformed value is an error naming the setting, never a silent default.
pub fn bound_from_env() -> Result<Option<Option<usize>>, String> {
    match std::env::var("MMCHECK_BOUND") {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(e) => Err(format!("MMCHECK_BOUND: {e}")),
        Ok(v) => parse_bound(&v)
            .map(Some)
            .map_err(|e| format!("MMCHECK_BOUND: {e}")),
    }
}

/// Parse a preemption bound: a number from 0 to 20, or `none` / `unbounded`.
pub fn parse_bound(v: &str) -> Result<Option<usize>, String> {
    let v = v.trim();
    if v.eq_ignore_ascii_case("none") || v.eq_ignore_ascii_case("unbounded") {
        return Ok(None);
    }
    match v.parse::<usize>() {
        Ok(n) if n <= 20 => Ok(Some(n)),
        Ok(n) => Err(format!("bound {n} is too large (0..=20, or 'none')")),
        Err(_) => Err(format!("'{v}' is not a bound (a number 0..=20, or 'none')")),
    }
}

/// Run a claim under the exhaustive checker with its bound (or `bound` if given).
pub fn explore(
    claim: &Claim,
    bound: Option<Option<usize>>,
    checkpoint: Option<std::path::PathBuf>,
) -> Result<Exploration, String> {
    let settings = ExploreSettings {
        preemption_bound: bound.unwrap_or(claim.bound),
        checkpoint_file: checkpoint,
        checkpoint_interval: 1000,
        progress: None,
    };
    explore_with(claim, &settings)
}

/// Run a claim under the exhaustive checker with explicit settings.
pub fn explore_with(claim: &Claim, settings: &ExploreSettings) -> Result<Exploration, String> {
    let (body, debug_vm) = (claim.body, claim.debug_vm);
    checker::explore(settings, move || {
        crate::trace::set_config_debug_vm(debug_vm);
        body()
    })
}

/// One-paragraph report of a claim's run, with the trace of a failure.
pub fn report(claim: &Claim, bound: Option<usize>, e: &Exploration) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "claim {}: {}", claim.id, claim.statement);
    let _ = writeln!(
        s,
        "  variant {} | model {} | {} CPUs | CONFIG_DEBUG_VM={} | bound {} | expected {}",
        claim.variant,
        claim.model,
        claim.cpus,
        if claim.debug_vm { "y" } else { "n" },
        bound.map_or("none".to_string(), |b| b.to_string()),
        match claim.expected {
            Expected::Safe => "SAFE".to_string(),
            Expected::Bug(i) => format!("BUG ({i})"),
        }
    );
    let _ = writeln!(
        s,
        "  executions {} | complete {} | {:.2}s | verdict {}",
        e.executions,
        e.complete,
        e.seconds,
        judge(e).as_str()
    );
    if let Some(f) = &e.failure {
        let _ = writeln!(s, "  counterexample: {}: {}", f.invariant, f.message);
        let _ = crate::trace::write_trace(&mut s, &f.trace);
    }
    if let Some(err) = &e.error {
        let _ = writeln!(s, "  error: {err}");
    }
    s
}

/// The test body every loom claim test runs: explore, print the report, assert the
/// expectation (SAFE: complete and no failure; BUG: the named invariant broke).
pub fn check_claim(id: &str) {
    let claim = get(id).unwrap_or_else(|e| panic!("{e}"));
    let bound = bound_from_env().unwrap_or_else(|e| panic!("{e}"));
    let e = explore(claim, bound, None).unwrap_or_else(|e| panic!("{e}"));
    let used = bound.unwrap_or(claim.bound);
    println!("{}", report(claim, used, &e));
    match claim.expected {
        Expected::Safe => {
            assert!(
                e.failure.is_none(),
                "{}: expected SAFE, found a counterexample",
                claim.id
            );
            assert!(
                e.error.is_none(),
                "{}: checker error: {:?}",
                claim.id,
                e.error
            );
            assert!(
                e.complete,
                "{}: exploration incomplete: not a SAFE verdict",
                claim.id
            );
        }
        Expected::Bug(inv) => {
            let f = e.failure.as_ref().unwrap_or_else(|| {
                panic!(
                    "{}: expected BUG ({inv}), the checker found none in {} executions",
                    claim.id, e.executions
                )
            });
            assert_eq!(
                f.invariant, inv,
                "{}: a different invariant broke: {}",
                claim.id, f.message
            );
            assert!(
                !f.trace.is_empty(),
                "{}: counterexample without a trace",
                claim.id
            );
        }
    }
}
