//! S3 (area `vma`): `vma_adjust()` of Linux 2.6.31 and after, one file per variant; everything
//! else it calls, and the trait the variants implement (`VmaAdjust`), is `crate::mm::vma`.
//! Every `.rs` file here is a variant (found by `build.rs`; grammar in `crate::variant`), with
//! its golden diff beside it: `commit_252c5f94.diff` reads like 252c5f94.

include!(concat!(env!("OUT_DIR"), "/vma_variants.rs"));
