//! S2 claims under loom, exhaustive within each claim's preemption bound.
//! Run: `RUSTFLAGS="--cfg loom" cargo test --release --test pagevec`
#![cfg(loom)]

use mmcheck::claims::check_claim;

/// S2.1 — eb709b0d: activations, isolation and putback keep the LRU consistent. Expected: SAFE.
#[test]
fn s2_1_eb709b0d_safe() {
    check_claim("S2.1");
}

/// S2.1-unbatched — the lock-per-page code on the same model. Expected: SAFE.
#[test]
fn s2_1_unbatched_safe() {
    check_claim("S2.1-unbatched");
}

/// S2.2 — 744ed144: the putback inference corrupts the isolator's private list.
/// Expected: BUG (list-corruption).
#[test]
fn s2_2_744ed144_bug() {
    check_claim("S2.2");
}

/// S2.3 — eb709b0d without the re-check under the lock. Expected: BUG (data-race on page->lru).
#[test]
fn s2_3_no_recheck_bug() {
    check_claim("S2.3");
}

/// S2.4 — eb709b0d without page_cache_get when queueing. Expected: BUG (freed-while-referenced).
#[test]
fn s2_4_no_ref_bug() {
    check_claim("S2.4");
}
