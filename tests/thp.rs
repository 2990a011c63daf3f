//! S1 claims under loom, exhaustive within each claim's preemption bound.
//! Run: `RUSTFLAGS="--cfg loom" cargo test --release --test thp`
//! Each test is named for its claim; its header line says claim, verdict expected, bound.
#![cfg(loom)]

use mmcheck::claims::check_claim;

/// S1.1 — 3.11 locked path, THP tail get/put racing split. Expected: SAFE.
#[test]
fn s1_1_linux_3_11_safe() {
    check_claim("S1.1");
}

/// S1.1-debug-vm — finding: VM_BUG_ON in put_page_testzero reads a stale _count on weakly
/// ordered CPUs. Expected: BUG (VM_BUG_ON).
#[test]
fn s1_1_debug_vm_stale_count_bug() {
    check_claim("S1.1-debug-vm");
}

/// S1.1-27c73ae7 — the fix on the same model. Expected: SAFE.
#[test]
fn s1_1_27c73ae7_safe() {
    check_claim("S1.1-27c73ae7");
}

/// S1.2 — 7cb2ef56 on hugetlbfs get/put. Expected: SAFE.
#[test]
fn s1_2_7cb2ef56_safe() {
    check_claim("S1.2");
}

/// S1.2-mutant — racy test-for-zero on the S1.2 model. Expected: BUG (use-after-free).
#[test]
fn s1_2_mutant_dec_read_bug() {
    check_claim("S1.2-mutant");
}

/// S1.3 — 7cb2ef56, put racing split + private write. Expected: BUG (oops).
#[test]
fn s1_3_7cb2ef56_bug() {
    check_claim("S1.3");
}

/// S1.3-fix — 27c73ae7 on the S1.3 model. Expected: SAFE.
#[test]
fn s1_3_27c73ae7_safe() {
    check_claim("S1.3-fix");
}

/// S1.4 — 7cb2ef56, gup_fast tail mapcount leak found by pool shrink. Expected: BUG (bad_page).
#[test]
fn s1_4_7cb2ef56_bug() {
    check_claim("S1.4");
}

/// S1.4-fix — 27c73ae7 on the S1.4 model. Expected: SAFE.
#[test]
fn s1_4_27c73ae7_safe() {
    check_claim("S1.4-fix");
}

/// S1.5 — mutant bypass-thp on the S1.1 model. Expected: BUG (freed-while-referenced).
#[test]
fn s1_5_bypass_thp_bug() {
    check_claim("S1.5");
}

/// S1.6 — finding: 3.11 tail put vs split + head reallocated as hugetlbfs. Expected: BUG (bad_page).
#[test]
fn s1_6_linux_3_11_realloc_bug() {
    check_claim("S1.6");
}

/// S1.6-fix — 27c73ae7 on the S1.6 model. Expected: SAFE.
#[test]
fn s1_6_27c73ae7_safe() {
    check_claim("S1.6-fix");
}
