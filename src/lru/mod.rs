//! S2 (area `lru`): `activate_page()` of Linux 2.6.37–3.0, one file per variant.
//!
//! Each variant holds its `activate_page` (and, batched, `__activate_page` and
//! `activate_page_drain`), its `drain_cpu_pagevecs` and reclaim's `putback_lru_pages` (which
//! 744ed144 changed too); the LRU machinery they share (pagevecs, `release_pages`, isolation,
//! reclaim, migration's putback, truncation, the per-LRU counts) and the trait they implement
//! (`Lru`) are in `crate::mm::lru`. A mutant of shared code overrides the `Lru` method whose
//! default calls the shared function. Every `.rs` file here is a variant (found by
//! `build.rs`; grammar in `crate::variant`), with its golden diff beside it.

include!(concat!(env!("OUT_DIR"), "/lru_variants.rs"));
