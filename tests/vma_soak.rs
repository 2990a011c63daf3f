//! S3 shuttle soak: a writer doing brk growth, a start-moving merge and a split while three CPUs walk the rmap, under PCT and random schedules with fixed seeds.
//! Run: `cargo test --release --features shuttle --test vma_soak`
//! Settings: MMCHECK_SOAK_SEED (default 0), MMCHECK_SOAK_ITERATIONS (default 2000 per
//! scheduler; use 100000+ for a soak, or `cargo xtask soak --area s3`).
#![cfg(feature = "shuttle")]

mod common;

/// The variants expected to hold do, under both schedulers.
#[test]
fn s3_soak_safe_variants_hold() {
    common::safe_variants_hold("s3");
}

/// The known-bad variants are caught, and each saved schedule replays to the same trace.
#[test]
fn s3_soak_finds_known_bad_variants_and_replays_them() {
    common::known_bad_found_and_replayed("s3");
}
