//! mm/rmap.c (Linux 3.10): the mapcount side of mapping and unmapping a page.

use super::Mem;
use crate::ktrace;
use crate::page::PagePtr;
use crate::sync::atomic_add_return;

/// `page_remove_rmap(page)` (mm/rmap.c, 3.10), the mapcount part:
/// `atomic_add_negative(-1, &page->_mapcount)` (written as `atomic_add_return(-1, ..) < 0`,
/// the same fully ordered RMW, so the trace shows the count). Returns true when this was the
/// last mapping.
pub fn page_remove_rmap(m: &Mem, page: PagePtr) -> bool {
    let p = m.pg(page);
    let new = atomic_add_return(-1, &p._mapcount);
    ktrace!(
        "page_remove_rmap",
        "{page:?}._mapcount {} -> {new}",
        new + 1
    );
    new < 0
}
