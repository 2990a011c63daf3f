//! activate_page() of Linux 2.6.37–3.0, one file per variant.
//!
//! Each variant holds its `activate_page`, `__activate_page`, `activate_page_drain` and the
//! reclaim putback `putback_lru_pages` (which 744ed144 changed too). The LRU machinery they
//! share is `crate::mm::lru`. `diff commit_744ed144.rs commit_eb709b0d.rs` reads like the
//! difference between the reverted patch and the re-landed one.

mod commit_744ed144;
mod commit_eb709b0d;
mod mutant_eb709b0d_no_recheck;
mod mutant_eb709b0d_no_ref;
mod unbatched;

pub use commit_744ed144::Commit744ed144;
pub use commit_eb709b0d::CommitEb709b0d;
pub use mutant_eb709b0d_no_recheck::MutantEb709b0dNoRecheck;
pub use mutant_eb709b0d_no_ref::MutantEb709b0dNoRef;
pub use unbatched::Unbatched;

use crate::mm::list::ListId;
use crate::mm::Mem;
use crate::page::PagePtr;

/// One version of activate_page and its batching.
pub trait Lru: 'static + Send + Sync {
    /// Stable id used by the claims registry (`unbatched`, `744ed144`, `eb709b0d`, ...).
    const ID: &'static str;
    /// Whether `activate_page` queues the page in a per-CPU pagevec (SMP batching) or moves it
    /// at once under `lru_lock`.
    const BATCHED: bool;
    /// `activate_page(page)`: the caller holds a reference to `page`.
    fn activate_page(m: &Mem, page: PagePtr);
    /// `__activate_page(page, arg)`: move one page to the active list, `lru_lock` held.
    fn __activate_page(m: &Mem, page: PagePtr);
    /// `activate_page_drain(cpu)`: flush CPU `cpu`'s pagevec (runs on that CPU).
    fn activate_page_drain(m: &Mem, cpu: usize);
    /// `putback_lru_pages(zone, ..., page_list)`: reclaim puts its isolated pages back.
    fn putback_lru_pages(m: &Mem, list: ListId);
}

/// `lru_add_drain()` -> `drain_cpu_pagevecs(get_cpu())` (mm/swap.c): of the per-CPU pagevecs
/// only `activate_page_pvecs` is modelled.
pub fn lru_add_drain<V: Lru>(m: &Mem) {
    V::activate_page_drain(m, crate::sync::smp_processor_id());
}

/// `mark_page_accessed(page)` (mm/swap.c, 2.6.38): the caller of activate_page.
pub fn mark_page_accessed<V: Lru>(m: &Mem, page: PagePtr) {
    use crate::page::*;
    let p = m.pg(page);
    if !PageActive(p) && !PageUnevictable(p) && PageReferenced(p) && PageLRU(p) {
        V::activate_page(m, page);
        ClearPageReferenced(p);
    } else if !PageReferenced(p) {
        SetPageReferenced(p);
    }
}
