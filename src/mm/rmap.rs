//! mm/rmap.c (Linux 3.10): the mapcount side of mapping and unmapping a page.

use super::Mem;
use crate::ktrace;
use crate::page::PagePtr;
use crate::sync::{full_rmw, Ordering};

/// `page_remove_rmap(page)` (mm/rmap.c, 3.10), the mapcount part:
/// `atomic_add_negative(-1, &page->_mapcount)` returns a value, so it is fully ordered.
/// Returns true when this was the last mapping.
pub fn page_remove_rmap(m: &Mem, page: PagePtr) -> bool {
    let p = m.pg(page);
    let old = full_rmw(|| p._mapcount.fetch_sub(1, Ordering::Relaxed));
    ktrace!(
        "page_remove_rmap",
        "{page:?}._mapcount {old} -> {}",
        old - 1
    );
    old - 1 < 0
}
