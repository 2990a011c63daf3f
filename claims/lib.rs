//! mmcheck's claims: the table of every verdict mmcheck gives ([`table`]), how a claim is
//! selected ([`select`]), run under its checker ([`explore`]) and reported ([`report`]), the
//! matrix of every model on every variant ([`matrix`]), safeguard coverage ([`safeguards`]),
//! the environment settings the tests read ([`settings`]), and the generated per-claim tests
//! ([`testing`]). The `mmcheck` runner (`bin/mmcheck`) is the command-line face of it.
//!
//! Layer: above the scenarios (`mmcheck-models`) and the kernel crate (`mmcheck`); below the
//! runner, the tests and the benchmarks.

pub mod calibration;
pub mod explore;
pub mod matrix;
pub mod report;
pub mod safeguards;
pub mod select;
pub mod settings;
pub mod shard;
pub mod table;
pub mod testing;

pub use explore::{judge, run_claim, Verdict};
pub use table::{Bound, Checker, CheckerKind, Claim, Expected};
