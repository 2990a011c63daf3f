//! arch/x86/mm/gup.c (Linux 3.10): the gup_fast path for a huge pmd, used for THP and for
//! hugetlbfs pages alike.

use super::swap::compound_head;
use super::Mem;
use crate::page::*;
use crate::sync::{atomic_add, atomic_inc, atomic_read};
use crate::{ktrace, VM_BUG_ON};

/// `get_huge_page_tail(page)` (arch/x86/mm/gup.c, 3.10): `__split_huge_page_refcount()` cannot
/// run from under us (irqs are off and the pmd is mapped), so only the tail's `_mapcount`
/// is raised here; the head's count is raised by `get_head_page_multiple()`.
pub fn get_huge_page_tail(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    VM_BUG_ON!("get_huge_page_tail", page_mapcount(p) < 0);
    VM_BUG_ON!("get_huge_page_tail", atomic_read(&p._count) != 0);
    let old = atomic_inc(&p._mapcount);
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
    VM_BUG_ON!("get_head_page_multiple", atomic_read(&p._count) == 0);
    let old = atomic_add(nr, &p._count);
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
