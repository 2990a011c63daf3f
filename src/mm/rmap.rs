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
    // LEFT OUT: `anon = PageAnon(page)` and, for file pages, the memcg page-stat lock
    // (mem_cgroup_begin_update_page_stat): no memcg in the model, and the anon bit is read only
    // by what follows the drop (statistics, below)
    let p = m.pg(page);
    let new = atomic_add_return(-1, &p._mapcount);
    ktrace!(
        "page_remove_rmap",
        "{page:?}._mapcount {} -> {new}",
        new + 1
    );
    // LEFT OUT: what follows the drop: the `goto out` when mappings remain, the PageHuge
    // early exit, the memcg uncharge, the NR_ANON_*/NR_FILE_MAPPED statistics, the mlock
    // clearing and the `out:` memcg unlock: statistics, memcg and mlock only
    // MODEL: the C's test `!atomic_add_negative(-1, ..)` is returned to the caller instead
    new < 0
}
