//! Area `lru` (S2): `activate_page()` batched through per-CPU pagevecs: 744ed144 (reverted by
//! 7a608572) and eb709b0d (3.0).

use super::{Bound, Checker, Claim, Coverage, Expected, Safeguard, SafeguardKind};
use mmcheck::trace::Invariant;

const LOOM_2: Checker = Checker::Loom {
    bound: Bound::Preemption(2),
};
const SOAK: Checker = Checker::Shuttle { iterations: 2000 };
const SEQ: Checker = Checker::Proptest { cases: 512 };

pub static CLAIMS: &[Claim] = &[
    Claim {
        id: "lru.1",
        statement: "eb709b0d: activations on 2 CPUs, isolation and putback on a third: every page on exactly one list or free, PG_lru iff on an LRU list, PG_active iff on the active list, nothing freed while listed or queued, nothing queued after a drain, references balanced",
        variant: "eb709b0d",
        model: "activate_vs_isolate",
        checker: LOOM_2,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("lru.2"),
    },
    Claim {
        id: "lru.1-linux-2.6.37",
        statement: "unbatched activate_page (lock per page: 2.6.37, and the !SMP code of eb709b0d) on the lru.1 model: SAFE",
        variant: "linux-2.6.37",
        model: "activate_vs_isolate",
        checker: LOOM_2,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("lru.2"),
    },
    Claim {
        id: "lru.2",
        statement: "744ed144: two CPUs queue the same page, one drain activates it, reclaim isolates it, the other drain reads !PageLRU && PageActive as a putback and links it on the active list while it is on the isolator's private list",
        variant: "744ed144",
        model: "activate_vs_isolate",
        checker: LOOM_2,
        config_debug_vm: true,
        expected: Expected::Bug(Invariant::ListCorruption),
        twin: Some("lru.1"),
    },
    Claim {
        id: "lru.3",
        statement: "mutant eb709b0d-no-recheck (the re-check under lru_lock removed, the lockless pre-check trusted): a drain unlinks a page that reclaim isolated meanwhile, racing the isolator's writes of page->lru on its private list",
        variant: "eb709b0d-no-recheck",
        model: "activate_vs_isolate",
        checker: LOOM_2,
        config_debug_vm: true,
        expected: Expected::Bug(Invariant::DataRace),
        twin: Some("lru.1"),
    },
    Claim {
        id: "lru.4",
        statement: "mutant eb709b0d-no-ref (no page_cache_get when queueing): the drain drops a reference it never took and the page is freed while others still hold it",
        variant: "eb709b0d-no-ref",
        model: "activate_vs_isolate",
        checker: LOOM_2,
        config_debug_vm: true,
        expected: Expected::Bug(Invariant::FreedWhileReferenced),
        twin: Some("lru.1"),
    },
    Claim {
        id: "lru.soak",
        statement: "eb709b0d on the 4-CPU soak (6 pages, pagevecs of 4 that fill and flush, reclaim, truncation) holds under PCT and random schedules",
        variant: "eb709b0d",
        model: "lru_soak",
        checker: SOAK,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("lru.soak-744ed144"),
    },
    Claim {
        id: "lru.soak-linux-2.6.37",
        statement: "the unbatched code on the soak: holds",
        variant: "linux-2.6.37",
        model: "lru_soak",
        checker: SOAK,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("lru.soak-744ed144"),
    },
    Claim {
        id: "lru.soak-744ed144",
        statement: "744ed144 on the soak: caught (the putback inference of lru.2)",
        variant: "744ed144",
        model: "lru_soak",
        checker: SOAK,
        config_debug_vm: true,
        expected: Expected::AnyBug,
        twin: Some("lru.soak"),
    },
    Claim {
        id: "lru.seq",
        statement: "eb709b0d: random activate/drain/isolate/putback sequences keep every page where the reference model says, with matching flags and counts",
        variant: "eb709b0d",
        model: "sequential",
        checker: SEQ,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("lru.seq-744ed144"),
    },
    Claim {
        id: "lru.seq-linux-2.6.37",
        statement: "the unbatched code on the sequential model: SAFE",
        variant: "linux-2.6.37",
        model: "sequential",
        checker: SEQ,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("lru.seq-744ed144"),
    },
    Claim {
        id: "lru.seq-744ed144",
        statement: "744ed144 on the sequential model: fails, and proptest shrinks it to the historical five steps (queue on both CPUs, drain one, isolate, drain the other)",
        variant: "744ed144",
        model: "sequential",
        checker: SEQ,
        config_debug_vm: true,
        expected: Expected::Bug(Invariant::ListCorruption),
        twin: Some("lru.seq"),
    },
];

/// The safeguards of the SAFE variants (issue #10 fills this table).
pub static SAFEGUARDS: &[Safeguard] = &[
    Safeguard {
        variant: "eb709b0d",
        name: "__activate_page's PageLRU re-check under lru_lock",
        kind: SafeguardKind::Recheck,
        coverage: Coverage::Killed {
            mutant: "eb709b0d-no-recheck",
            claim: "lru.3",
        },
    },
    Safeguard {
        variant: "eb709b0d",
        name: "activate_page's page_cache_get for the pagevec's reference",
        kind: SafeguardKind::Reference,
        coverage: Coverage::Killed {
            mutant: "eb709b0d-no-ref",
            claim: "lru.4",
        },
    },
];
