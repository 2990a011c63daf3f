//! The claims of area `vma`, one test per claim, generated from the claims table
//! (`claims/table/vma.rs`). Which run depends on the build:
//!
//! * `RUSTFLAGS="--cfg loom" cargo test --release --test vma`: the loom claims (exhaustive);
//! * `cargo test --release --features shuttle --test vma`: the shuttle claims (soak);
//! * `cargo test --test vma`: the proptest claims (sequential models).
//!
//! The others are listed as ignored. Settings: `MMCHECK_BOUND`, `MMCHECK_SOAK_SEED`,
//! `MMCHECK_SOAK_ITERATIONS`; `-- --nocapture` prints every claim's report.

fn main() {
    mmcheck_claims::testing::main(
        mmcheck::variant::Area::Vma,
        mmcheck_claims::testing::Paths {
            root: env!("CARGO_MANIFEST_DIR"),
            tmp: env!("CARGO_TARGET_TMPDIR"),
        },
    )
}
