//! The claims of area `lru`, one test per claim, generated from the claims table
//! (`claims/table/lru.rs`). Which run depends on the build:
//!
//! * `RUSTFLAGS="--cfg loom" cargo test --release --test lru`: the loom claims (exhaustive);
//! * `cargo test --release --features shuttle --test lru`: the shuttle claims (soak);
//! * `cargo test --test lru`: the proptest claims (sequential models).
//!
//! The others are listed as ignored. Settings: `MMCHECK_BOUND`, `MMCHECK_SOAK_SEED`,
//! `MMCHECK_SOAK_ITERATIONS`; `-- --nocapture` prints every claim's report.

fn main() {
    mmcheck_claims::testing::main(
        mmcheck::variant::Area::Lru,
        mmcheck_claims::testing::Paths {
            root: env!("CARGO_MANIFEST_DIR"),
            tmp: env!("CARGO_TARGET_TMPDIR"),
        },
    )
}
