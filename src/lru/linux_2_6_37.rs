//! activate_page() without batching: the CONFIG_SMP=n code of eb709b0d, which is also the
//! behaviour before 744ed144 (2.6.37): every activation takes `zone->lru_lock` and moves the
//! page at once. `activate_page_drain()` has nothing to drain.

use crate::ktrace;
use crate::mm::list::{list_del, list_empty, lru_to_page, ListId};
use crate::mm::lru::*;
use crate::mm::Mem;
use crate::page::*;
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// One lock round trip per activation.
pub struct Variant;

impl Lru for Variant {
    const META: VariantMeta = VariantMeta {
        id: "linux-2.6.37",
        area: Area::Lru,
        kind: Kind::Release { version: "2.6.37" },
        parent: None,
        source: "mm/swap.c activate_page() of 2.6.37 (lock per page; also the !CONFIG_SMP code of eb709b0d). UNVERIFIED against a stored 2.6.37 tree.",
    };
    const BATCHED: bool = false;

    /// `__activate_page(page, arg)` (mm/swap.c, eb709b0d).
    fn __activate_page(m: &Mem, page: PagePtr) {
        let p = m.pg(page);
        let (lru_set, active, unevictable) = (PageLRU(p), PageActive(p), PageUnevictable(p));
        ktrace!(
            "__activate_page",
            "{page:?}: PageLRU {lru_set} PageActive {active}"
        );
        if lru_set && !active && !unevictable {
            let lru = page_lru_base_type(p);
            del_page_from_lru_list(m, page, lru);

            SetPageActive(p);
            let lru = lru_active(lru);
            add_page_to_lru_list(m, page, lru);
        }
    }

    /// `activate_page(page)` (mm/swap.c, eb709b0d, !CONFIG_SMP).
    fn activate_page(m: &Mem, page: PagePtr) {
        let _lru_lock = lru_lock(m);
        Self::__activate_page(m, page);
    }

    /// `activate_page_drain(cpu)` (mm/swap.c, eb709b0d, !CONFIG_SMP): empty.
    fn activate_page_drain(_m: &Mem, _cpu: usize) {}

    /// `putback_lru_pages(zone, sc, nr_anon, nr_file, page_list)` (mm/vmscan.c, 2.6.37 / 3.0),
    /// reduced to its list work: every page goes back on its LRU list under `lru_lock`, then the
    /// isolation references are dropped (`pagevec_release`).
    fn putback_lru_pages(m: &Mem, list: ListId) {
        let mut pvec = Vec::new();
        let lru_lock = lru_lock(m);
        while !list_empty(m, list) {
            let page = lru_to_page(m, list);
            let p = m.pg(page);
            VM_BUG_ON!("putback_lru_pages", PageLRU(p));
            list_del(m, page);
            SetPageLRU(p);
            let lru = page_lru(p);
            add_page_to_lru_list(m, page, lru);
            pvec.push(page);
        }
        drop(lru_lock);
        release_pages(m, &pvec);
    }
}
