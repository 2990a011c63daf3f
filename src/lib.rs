//! mmcheck: model-checks Linux memory-management concurrency patches.
//!
//! The kernel code (`mm`, `compound`) is written once against the sync shim (`sync`) and runs
//! under loom (exhaustive), shuttle (randomized / PCT) or std (production benchmarks). The
//! scenarios and their invariants are in `models/`, the claims registry in `claims`.
//!
//! Kernel names are kept for kernel things (`PageTail`, `put_compound_page`, `_count`), so a
//! reviewer can grep the kernel tree and this crate with the same word.
#![allow(non_snake_case)]

pub mod claims;
pub mod compound;
pub mod lru;
pub mod mm;
#[path = "../models/mod.rs"]
pub mod models;
pub mod page;
pub mod sync;
pub mod trace;
pub mod vma;
