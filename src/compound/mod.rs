//! S1 (area `compound`): compound-page refcounting of Linux 3.4 to 4.2, one file per variant.
//!
//! Each variant holds its version of the functions the patches changed (mm/swap.c's
//! `__get_page_tail`, `put_compound_page` and `__put_compound_page`, and from 3.14 on the
//! helpers later commits added: `__compound_tail_refcounted`, the put helpers of 3.16, ...,
//! the methods of the trait its `compound_fns!` names); everything they call is
//! shared (`crate::mm`), and the trait they implement is `crate::mm::swap::Compound`. Every
//! `.rs` file here is a variant (found by `build.rs`; grammar in `crate::variant`), and each
//! variant with a parent has its golden diff beside it: `commit_27c73ae7.diff` reads like the
//! kernel commit.
//!
//! Variants are zero-sized types selected by generics: no cost in the production build.

include!(concat!(env!("OUT_DIR"), "/compound_variants.rs"));
