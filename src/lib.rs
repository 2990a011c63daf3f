//! mmcheck: model-checks Linux memory-management concurrency patches.
//!
//! The kernel code is written once against the sync shim and runs under loom (exhaustive),
//! shuttle (randomized / PCT) or std (production benchmarks). The scenarios are the
//! `mmcheck-models` crate (`models/`), the claims table and the runner the `mmcheck-claims`
//! crate (`claims/`).
//!
//! Kernel names are kept for kernel things (`PageTail`, `put_compound_page`, `_count`), so a
//! reviewer can grep the kernel tree and this crate with the same word.
//!
//! # Layers
//!
//! Each module imports only from its own layer or the ones below it; `tests/layers.rs` reads
//! the sources and fails, naming the rule, on an upward import.
//!
//! | layer | modules | what |
//! |---|---|---|
//! | 0 | `sync` | the shim: backends and the kernel primitive API (`atomic_*`, bit ops, barriers, locks) |
//! | 1 | `variant`, `trace` | area and variant metadata; the event trace and the checks (`VM_BUG_ON!`, `BUG_ON!`) |
//! | 2 | `page`, `checker` | `struct page` and the memmap; the checker driver above the trace |
//! | 3 | `mm` | kernel code shared by every variant, and the variant traits |
//! | 4 | `compound`, `lru`, `vma` | one file per variant |
//!
//! Above this crate: `mmcheck-models` (scenarios and end checks), then `mmcheck-claims` (the
//! claims table, exploration, reports, the `mmcheck` runner), then tests and benchmarks.
#![allow(non_snake_case)]

pub mod checker;
pub mod compound;
pub mod lru;
pub mod mm;
pub mod page;
pub mod sync;
pub mod trace;
pub mod variant;
pub mod vma;
