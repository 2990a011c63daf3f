//! S3 claims under loom, exhaustive within each claim's preemption bound.
//! Run: `RUSTFLAGS="--cfg loom" cargo test --release --test vma`
#![cfg(loom)]

use mmcheck::claims::check_claim;

/// S3.1 — 252c5f94: brk growth and a start-moving merge vs rmap walks. Expected: SAFE.
#[test]
fn s3_1_252c5f94_safe() {
    check_claim("S3.1");
}

/// S3.2 — lee-v1: torn (vm_start, vm_pgoff) read by the walk. Expected: BUG (rmap-miss).
#[test]
fn s3_2_lee_v1_bug() {
    check_claim("S3.2");
}

/// S3.3 — 252c5f94 without `insert`: unlocked split vs walk. Expected: BUG (data-race).
#[test]
fn s3_3_no_insert_bug() {
    check_claim("S3.3");
}

/// S3.3-fix — 252c5f94 on the split model. Expected: SAFE.
#[test]
fn s3_3_252c5f94_safe() {
    check_claim("S3.3-fix");
}

/// S3.4 — always-lock on the brk/merge model. Expected: SAFE.
#[test]
fn s3_4_always_lock_safe() {
    check_claim("S3.4");
}

/// S3.4-split — always-lock on the split model. Expected: SAFE.
#[test]
fn s3_4_always_lock_split_safe() {
    check_claim("S3.4-split");
}
