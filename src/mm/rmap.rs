//! mm/rmap.c (Linux 3.10): the mapcount side of mapping and unmapping a page.

use super::Mem;
use crate::ktrace;
use crate::page::{set_page_mapping, PagePtr, SetPageSwapBacked, PAGE_MAPPING_ANON};
use crate::sync::{atomic_add_return, atomic_set};

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

/// `page_add_new_anon_rmap(page, vma, address)` (mm/rmap.c, 3.10): the first mapping of a new
/// anonymous page, before any other CPU can find it through the page tables.
pub fn page_add_new_anon_rmap(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    // LEFT OUT: `VM_BUG_ON(address < vma->vm_start || address >= vma->vm_end)`: no vmas in
    // the compound area (the fault's address is in its vma by construction)
    SetPageSwapBacked(p);
    atomic_set(&p._mapcount, 0); // increment count (starts at -1)
    ktrace!("page_add_new_anon_rmap", "{page:?}._mapcount = 0");
    // LEFT OUT: the `if (!PageTransHuge(page))` NR_ANON_PAGES / NR_ANON_TRANSPARENT_HUGEPAGES
    // statistics: the model keeps no zone counters for anonymous pages
    // MODEL: `__page_set_anon_rmap(page, vma, address, 1)`: its `page->mapping = (anon_vma |
    // PAGE_MAPPING_ANON)`, the anon bit only, in a run that models the word
    // (Mem::models_mapping); `page->index` is not modelled
    if m.models_mapping() {
        set_page_mapping(p, PAGE_MAPPING_ANON);
    }
    // LEFT OUT: the LRU insertion (`lru_cache_add_lru()` or `add_page_to_unevictable_list()`):
    // the compound area keeps its pages off the LRU (proofs/compound.14.md, "Left out")
}
