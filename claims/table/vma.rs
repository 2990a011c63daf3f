//! Area `vma` (S3): `vma_adjust()` of 2.6.31 and the brk-only anon_vma lock skip of 252c5f94.

use super::{Bound, Checker, Claim, Coverage, Expected, Safeguard, SafeguardKind};
use mmcheck::trace::Invariant;

const LOOM: Checker = Checker::Loom {
    bound: Bound::Unbounded,
};
const SOAK: Checker = Checker::Shuttle { iterations: 2000 };

pub static CLAIMS: &[Claim] = &[
    Claim {
        id: "vma.1",
        statement: "252c5f94: brk growth (vm_end only, no insert, no importer: lock skipped) and a vma_merge that moves vm_start (lock taken) concurrent with rmap walks: no walk misses a mapped page or computes a wrong address",
        variant: "252c5f94",
        model: "brk_and_merge_vs_rmap",
        checker: LOOM,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("vma.2"),
    },
    Claim {
        id: "vma.2",
        statement: "lee-v1 (lock only for file || insert || importer): the merge moves vm_start and vm_pgoff unlocked; a walk reads a torn (start, pgoff) pair and misses the mapping",
        variant: "lee-v1",
        model: "brk_and_merge_vs_rmap",
        checker: LOOM,
        config_debug_vm: true,
        expected: Expected::Bug(Invariant::RmapMiss),
        twin: Some("vma.1"),
    },
    Claim {
        id: "vma.3",
        statement: "mutant 252c5f94-no-insert: a split links the new vma onto the anon_vma list without the lock while a walk traverses the list (a data race on the list; the walk can also find neither vma covering the page)",
        variant: "252c5f94-no-insert",
        model: "split_vs_rmap",
        checker: LOOM,
        config_debug_vm: true,
        expected: Expected::Bug(Invariant::DataRace),
        twin: Some("vma.3-fix"),
    },
    Claim {
        id: "vma.3-fix",
        statement: "252c5f94 on the split model: insert takes the lock. SAFE",
        variant: "252c5f94",
        model: "split_vs_rmap",
        checker: LOOM,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("vma.3"),
    },
    Claim {
        id: "vma.4",
        statement: "2.6.31 (the lock whenever vma->anon_vma) on the brk/merge model: SAFE (the baseline)",
        variant: "linux-2.6.31",
        model: "brk_and_merge_vs_rmap",
        checker: LOOM,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("vma.2"),
    },
    Claim {
        id: "vma.4-split",
        statement: "2.6.31 on the split model: SAFE (the baseline)",
        variant: "linux-2.6.31",
        model: "split_vs_rmap",
        checker: LOOM,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("vma.3"),
    },
    Claim {
        id: "vma.soak",
        statement: "252c5f94 on the soak (one writer: brk, merge, split; three walkers) holds under PCT and random schedules",
        variant: "252c5f94",
        model: "vma_soak",
        checker: SOAK,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("vma.soak-lee-v1"),
    },
    Claim {
        id: "vma.soak-linux-2.6.31",
        statement: "2.6.31 on the soak: holds",
        variant: "linux-2.6.31",
        model: "vma_soak",
        checker: SOAK,
        config_debug_vm: true,
        expected: Expected::Safe,
        twin: Some("vma.soak-lee-v1"),
    },
    Claim {
        id: "vma.soak-lee-v1",
        statement: "lee-v1 on the soak: caught (the torn (start, pgoff) read of vma.2)",
        variant: "lee-v1",
        model: "vma_soak",
        checker: SOAK,
        config_debug_vm: true,
        expected: Expected::AnyBug,
        twin: Some("vma.soak"),
    },
    Claim {
        id: "vma.soak-252c5f94-no-insert",
        statement: "the no-insert mutant on the soak: caught (the unlocked list insert of vma.3)",
        variant: "252c5f94-no-insert",
        model: "vma_soak",
        checker: SOAK,
        config_debug_vm: true,
        expected: Expected::AnyBug,
        twin: Some("vma.soak"),
    },
];

/// The safeguards of the SAFE variants (issue #11 fills this table).
pub static SAFEGUARDS: &[Safeguard] = &[Safeguard {
    variant: "252c5f94",
    name: "insert in vma_adjust's anon_vma lock condition",
    kind: SafeguardKind::Lock,
    coverage: Coverage::Killed {
        mutant: "252c5f94-no-insert",
        claim: "vma.3",
    },
}];
