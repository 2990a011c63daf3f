//! S2 (area `lru`): `activate_page()` of Linux 2.6.37–3.0, one file per variant.
//!
//! Each variant holds its `activate_page`, `__activate_page`, `activate_page_drain` and the
//! reclaim putback `putback_lru_pages` (which 744ed144 changed too); the LRU machinery they
//! share and the trait they implement (`Lru`) are in `crate::mm::lru`. Every `.rs` file here is
//! a variant (found by `build.rs`; grammar in `crate::variant`), with its golden diff beside it.

include!(concat!(env!("OUT_DIR"), "/lru_variants.rs"));
