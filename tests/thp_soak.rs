//! S1 shuttle soak: the larger S1 scenario (4 CPUs, THP of order 2, split, private write, free and reallocation as a hugetlbfs page), under PCT and random schedules with fixed seeds.
//! Run: `cargo test --release --features shuttle --test thp_soak`
//! Settings: MMCHECK_SOAK_SEED (default 0), MMCHECK_SOAK_ITERATIONS (default 2000 per
//! scheduler; use 100000+ for a soak, or `cargo xtask soak --area s1`).
#![cfg(feature = "shuttle")]

mod common;

/// The variants expected to hold do, under both schedulers.
#[test]
fn s1_soak_safe_variants_hold() {
    common::safe_variants_hold("s1");
}

/// The known-bad variants are caught, and each saved schedule replays to the same trace.
#[test]
fn s1_soak_finds_known_bad_variants_and_replays_them() {
    common::known_bad_found_and_replayed("s1");
}
