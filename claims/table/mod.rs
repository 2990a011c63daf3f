//! The claims table: the only place where a claim's model, variant, checker, bound and
//! expected verdict are written. Everything else (the loom, shuttle and proptest tests, the
//! runner, the proofs index check) reads it. One file of rows per area.

pub mod compound;
pub mod lru;
pub mod vma;

use mmcheck::trace::Invariant;
use mmcheck::variant::Area;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A loom preemption bound (the command line's type: `mmcheck_cli::Bound`).
pub use mmcheck_cli::Bound;

/// The checker a claim runs under, with its own settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Checker {
    /// loom: every interleaving within the bound (C11).
    Loom { bound: Bound },
    /// shuttle: PCT (depth 3) then random schedules, sequentially consistent; iterations per
    /// scheduler in the test suite (`cargo xtask soak` sets its own).
    Shuttle { iterations: usize },
    /// proptest on a sequential model: this many random operation sequences.
    Proptest { cases: u32 },
    /// A sequential model whose runner enumerates every sequence of its steps (complete: the
    /// model's proof says why its sequences cover every behaviour); same build as proptest.
    Enumerate,
    /// shuttle with the shim's store-buffer mode (`--features store-buffer`): plain stores
    /// and non-value-returning atomics become visible later than they execute, so a barrier
    /// loom cannot show needed (proofs/README.md, "Calibration") can be; PCT then random
    /// schedules, iterations per scheduler.
    StoreBuffer { iterations: usize },
}

impl Checker {
    /// The loom bound, for a loom checker.
    pub fn bound(&self) -> Option<Bound> {
        match self {
            Checker::Loom { bound } => Some(*bound),
            _ => None,
        }
    }

    pub fn kind(&self) -> CheckerKind {
        match self {
            Checker::Loom { .. } => CheckerKind::Loom,
            Checker::Shuttle { .. } => CheckerKind::Shuttle,
            Checker::Proptest { .. } => CheckerKind::Proptest,
            Checker::Enumerate => CheckerKind::Enumerate,
            Checker::StoreBuffer { .. } => CheckerKind::StoreBuffer,
        }
    }
}

/// Which checker, without settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckerKind {
    Loom,
    Shuttle,
    Proptest,
    /// Serialized as the runner prints it ([`CheckerKind::name`]), so a report's quotes and
    /// its JSON name the checker alike.
    #[serde(rename = "store-buffer")]
    StoreBuffer,
    Enumerate,
}

impl CheckerKind {
    pub fn name(self) -> &'static str {
        match self {
            CheckerKind::Loom => "loom",
            CheckerKind::Shuttle => "shuttle",
            CheckerKind::Proptest => "proptest",
            CheckerKind::StoreBuffer => "store-buffer",
            CheckerKind::Enumerate => "enumerate",
        }
    }
}

impl fmt::Display for CheckerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a claim expects the checker to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Expected {
    /// No check breaks in any execution explored (loom: and the exploration is complete).
    Safe,
    /// The checker finds an execution that breaks this kernel invariant.
    Bug(Invariant),
    /// A randomized checker finds an execution that breaks some kernel invariant (which one
    /// depends on the seed: a soak over a seed range may meet any of the variant's bugs).
    AnyBug,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Safe => f.write_str("SAFE"),
            Expected::Bug(i) => write!(f, "BUG ({i})"),
            Expected::AnyBug => f.write_str("BUG (any)"),
        }
    }
}

/// One claim: a verdict mmcheck gives, with everything needed to reproduce it.
#[derive(Debug)]
pub struct Claim {
    /// `<area>.<n>` for the design's claim (`compound.3`), `<area>.<n>-<what>` for a claim on
    /// the same model (`compound.3-fix`), `<area>.soak…` / `<area>.seq…` for the shuttle and
    /// proptest claims. The proof is `proofs/<area>.<n>.md` (the part before the first `-`).
    pub id: &'static str,
    pub statement: &'static str,
    /// The variant's id (`crate::variant` grammar).
    pub variant: &'static str,
    /// The model's name in its area (`models/<area>.rs`).
    pub model: &'static str,
    pub checker: Checker,
    /// CONFIG_DEBUG_VM of the modelled kernel: `VM_BUG_ON` compiled in or out.
    pub config_debug_vm: bool,
    pub expected: Expected,
    /// A SAFE claim names a BUG claim on the same model and checker (proof of power: the
    /// check can fail); a BUG claim may name the SAFE claim of its fix.
    pub twin: Option<&'static str>,
}

impl Claim {
    /// The area, from the id's prefix.
    pub fn area(&self) -> Area {
        let prefix = self.id.split('.').next().unwrap_or_default();
        Area::from_name(prefix).unwrap_or_else(|| panic!("claim {}: no area '{prefix}'", self.id))
    }

    /// `compound.3` for `compound.3-fix`: the id of the proof document.
    pub fn base(&self) -> &'static str {
        self.id.split('-').next().unwrap_or(self.id)
    }

    /// `proofs/<base>.md`.
    pub fn proof(&self) -> String {
        format!("proofs/{}.md", self.base())
    }

    /// The test's name: the id itself (the tests are generated from the table).
    pub fn test_name(&self) -> &'static str {
        self.id
    }

    /// The loom bound, for a loom claim.
    pub fn bound(&self) -> Option<Bound> {
        self.checker.bound()
    }
}

/// Every claim, in reporting order (area by area).
pub fn all() -> impl Iterator<Item = &'static Claim> {
    Area::ALL.into_iter().flat_map(|a| of_area(a).iter())
}

/// The claims of one area.
pub fn of_area(area: Area) -> &'static [Claim] {
    match area {
        Area::Compound => compound::CLAIMS,
        Area::Lru => lru::CLAIMS,
        Area::Vma => vma::CLAIMS,
    }
}

/// What kind of safeguard a SAFE variant has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SafeguardKind {
    /// `smp_mb()`, `smp_rmb()`, `smp_wmb()`.
    Barrier,
    /// A lock acquire/release (`spin_lock`, `compound_lock`, `anon_vma->lock`), or the choice of
    /// when to take it.
    Lock,
    /// A test repeated after a pin or under a lock (`PageTail` after `get_page_unless_zero`,
    /// `PageLRU` under `lru_lock`).
    Recheck,
    /// A value-returning (fully ordered) atomic where a plain one would not do.
    FullyOrderedAtomic,
    /// A reference taken so a page outlives a window (`page_cache_get` for a pagevec).
    Reference,
    /// A test that refuses a shortcut whose result a later step relies on
    /// (`list_is_singular` before an anon_vma is reused, so that vmas sharing an anon_vma share
    /// its chain when they merge).
    Condition,
    /// A step that puts a list in the order a walker that does not exclude the writer relies
    /// on (`anon_vma_moveto_tail`: the source vma before the destination on the anon_vma's
    /// list), or a step done before another so that such a walker sees its result
    /// (`__split_vma`'s `anon_vma_clone` before `vma_adjust`).
    Order,
    /// A store narrowed to the fields the writer owns in a word other code updates atomically
    /// (`set_page_slub_counters()`: SLUB's `frozen`/`inuse`/`objects`, not the `_count` its
    /// `counters` word covers on x86-64).
    NarrowStore,
}

/// Why a safeguard is there: a mutant without it that a claim kills, or a proof section that
/// argues why no model can need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Coverage {
    /// The registered mutant `mutant` removes it, and the BUG claim `claim` (which runs that
    /// mutant) kills it.
    Killed {
        mutant: &'static str,
        claim: &'static str,
    },
    /// No model can need it: `proof` (`proofs/<file>.md#<anchor>`) argues it is redundant
    /// (naming what covers it).
    Redundant {
        proof: &'static str,
        because: &'static str,
    },
    /// It guards kernel state or readers that no model of this area runs (split's lru_lock
    /// protects lru_add_page_tail, the LRU statistics and the memcg fixup, which S1 does not
    /// model): `proof` names them and why the claims hold without them. Not "redundant": the
    /// kernel needs it.
    OutOfScope {
        proof: &'static str,
        because: &'static str,
    },
    /// The modelled readers or writers do not need it (split's smp_wmb in 3.9-3.12: no
    /// modelled get or put reads a word it orders); `proof` says which were considered. Not
    /// "redundant": readers or writers outside the models may need it.
    Unneeded {
        proof: &'static str,
        because: &'static str,
    },
    /// The checker cannot show it needed: `proof` states loom's semantics that hide it and
    /// writes out the weak-memory execution the safeguard forbids.
    BlindSpot {
        proof: &'static str,
        because: &'static str,
    },
    /// Not covered yet: `verify --safeguards` fails while a row says this.
    Uncovered,
}

/// One safeguard, written once for every SAFE variant whose code has it (`verify
/// --safeguards` reports them all, variant by variant). A safeguard of shared code (split's
/// lru_lock, vma_address's range check) is one row listing every variant that runs it, so its
/// argument or its kill is corrected in one place.
#[derive(Debug)]
pub struct Safeguard {
    /// The SAFE variants it is in.
    pub variants: &'static [&'static str],
    /// What it is, in kernel terms: `smp_mb() in __split_huge_page_refcount`.
    pub name: &'static str,
    pub kind: SafeguardKind,
    pub coverage: Coverage,
}

/// Every safeguard row, area by area.
pub fn safeguards() -> impl Iterator<Item = &'static Safeguard> {
    Area::ALL.into_iter().flat_map(|a| safeguards_of(a).iter())
}

/// The safeguard rows of one area.
pub fn safeguards_of(area: Area) -> &'static [Safeguard] {
    match area {
        Area::Compound => compound::SAFEGUARDS,
        Area::Lru => lru::SAFEGUARDS,
        Area::Vma => vma::SAFEGUARDS,
    }
}

#[cfg(test)]
mod tests {
    use super::CheckerKind;

    /// A report's JSON names each checker as the runner prints it (`cargo xtask proof-traces`
    /// compares the two).
    #[test]
    fn checker_kinds_serialize_as_the_runner_names_them() {
        for k in [
            CheckerKind::Loom,
            CheckerKind::Shuttle,
            CheckerKind::Proptest,
            CheckerKind::StoreBuffer,
            CheckerKind::Enumerate,
        ] {
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
            let back: CheckerKind = serde_json::from_value(k.name().into()).unwrap();
            assert_eq!(back, k);
        }
    }
}
