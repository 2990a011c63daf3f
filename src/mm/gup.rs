//! arch/x86/mm/gup.c (Linux 3.10): the gup_fast path for a huge pmd, used for THP and for
//! hugetlbfs pages alike.

use super::swap::{compound_head, Compound};
use super::Mem;
use crate::page::*;
use crate::sync::{atomic_add, atomic_inc, atomic_read};
use crate::{ktrace, VM_BUG_ON};

/// `get_huge_page_tail(page)` (include/linux/mm.h, 3.2–3.13; called by arch/x86/mm/gup.c):
/// `__split_huge_page_refcount()` cannot run from under us (irqs are off and the pmd is
/// mapped), so only the tail's `_mapcount` is raised here; the head's count is raised by
/// `get_head_page_multiple()`.
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
/// `head` mapped by the pmd: returns the page pinned for the caller (the variant's
/// `get_huge_page_tail()`).
pub fn gup_huge_pmd<V: Compound>(m: &Mem, head: PagePtr, page: PagePtr) -> PagePtr {
    // LEFT OUT: the pte permission test (`mask`, `write`, `return 0`: the model's pmd maps the
    // page present, user and writable), the two pte VM_BUG_ONs, `head = pte_page(pte)` and
    // `page = head + ((addr & ~PMD_MASK) >> PAGE_SHIFT)` (no page tables: the caller passes
    // both), and the do-while over the range: one subpage per call, so `refs` is 1
    VM_BUG_ON!("gup_huge_pmd", compound_head(m, page) != head);
    // LEFT OUT: `pages[*nr] = page`: the page is returned
    if PageTail(m.pg(page)) {
        V::get_huge_page_tail(m, page);
    }
    // LEFT OUT: `(*nr)++`, `page++`, `refs++` and the loop test (one subpage); the C raises
    // every tail's _mapcount in the loop, then the head's _count once, by refs, after it:
    // MODEL: that get_head_page_multiple(head, refs) for the one subpage (refs = 1), as in the
    // C's order (a model pinning several subpages of one pmd would have to keep that order)
    get_head_page_multiple(m, head, 1);
    page
    // LEFT OUT: `refs++`, the loop test and the `get_head_page_multiple(head, refs)` after the
    // loop (above, for the one subpage); `return 1;`: the pinned page is returned instead
}
