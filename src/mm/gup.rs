//! arch/x86/mm/gup.c (Linux 3.10): the gup_fast path for a huge pmd, used for THP and for
//! hugetlbfs pages alike.

use super::swap::compound_head;
use super::Mem;
use crate::page::*;
use crate::sync::Ordering;
use crate::{ktrace, VM_BUG_ON};

/// `get_huge_page_tail(page)` (arch/x86/mm/gup.c, 3.10): `__split_huge_page_refcount()` cannot
/// run from under us (irqs are off and the pmd is mapped), so only the tail's `_mapcount`
/// is raised here; the head's count is raised by `get_head_page_multiple()`.
pub fn get_huge_page_tail(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    VM_BUG_ON!("get_huge_page_tail", page_mapcount(p) < 0);
    VM_BUG_ON!("get_huge_page_tail", p._count.load(Ordering::Relaxed) != 0);
    let old = p._mapcount.fetch_add(1, Ordering::Relaxed); // atomic_inc: Relaxed
    ktrace!(
        "get_huge_page_tail",
        "{page:?}._mapcount {old} -> {}",
        old + 1
    );
}

/// `get_head_page_multiple(page, nr)` (arch/x86/mm/gup.c, 3.10).
pub fn get_head_page_multiple(m: &Mem, page: PagePtr, nr: i32) {
    let p = m.pg(page);
    VM_BUG_ON!("get_head_page_multiple", page != compound_head(m, page));
    VM_BUG_ON!(
        "get_head_page_multiple",
        p._count.load(Ordering::Relaxed) == 0
    );
    let old = p._count.fetch_add(nr, Ordering::Relaxed); // atomic_add: Relaxed
    SetPageReferenced(p);
    ktrace!(
        "get_head_page_multiple",
        "{page:?}._count {old} -> {}",
        old + nr
    );
}

/// `gup_huge_pmd()` (arch/x86/mm/gup.c, 3.10) for the one subpage `page` of the huge page
/// `head` mapped by the pmd: returns the page pinned for the caller.
pub fn gup_huge_pmd(m: &Mem, head: PagePtr, page: PagePtr) -> PagePtr {
    VM_BUG_ON!("gup_huge_pmd", compound_head(m, page) != head);
    if PageTail(m.pg(page)) {
        get_huge_page_tail(m, page);
    }
    get_head_page_multiple(m, head, 1);
    page
}
