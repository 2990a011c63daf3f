//! End-of-scenario invariants shared by the models. Each names the kernel fact it checks.

use mmcheck::mm::Mem;
use mmcheck::page::*;
use mmcheck::sync::{atomic_read, spin_lock, READ_ONCE};
use mmcheck::trace::{fail, Invariant};

/// Every page frame went back to the buddy allocator: references balanced, nothing leaked.
/// A page still allocated with no holder left is a leaked reference ("refcount balance").
pub fn all_pages_freed(m: &Mem) {
    for (ptr, p) in m.map.iter() {
        if p.ghost_allocated() && !p.ghost_in_hugepool() {
            let why = if PageTail(p) {
                let head = first_page(p);
                let head_free = head.pfn().is_some_and(|n| n < m.map.nr_pages())
                    && !m.pg(head).ghost_allocated();
                format!(
                    "still a tail of {head:?}{}",
                    if head_free { ", which was freed" } else { "" }
                )
            } else {
                "a reference was leaked".to_string()
            };
            fail(
                "end of scenario",
                Invariant::RefcountBalance,
                format!(
                    "{ptr:?} never freed: _count {} _mapcount {} flags {:#x} ({why})",
                    page_count_raw(p),
                    atomic_read(&p._mapcount),
                    READ_ONCE(&p.flags)
                ),
            );
        }
    }
}

/// The hugetlbfs page `head` is back in the pool, unreferenced and unmapped (its destructor
/// ran exactly once: a second run is caught by `enqueue_huge_page`).
pub fn huge_page_in_pool(m: &Mem, head: PagePtr) {
    let p = m.pg(head);
    let pool = spin_lock(&m.hstate.lock);
    let in_pool = pool.freelist.iter().filter(|&&x| x == head).count();
    if in_pool != 1 || page_count_raw(p) != 0 || page_mapcount(p) != 0 {
        fail(
            "end of scenario",
            Invariant::RefcountBalance,
            format!(
                "hugetlbfs page {head:?}: in pool {in_pool}x, _count {}, mapcount {} (expected once, 0, 0)",
                page_count_raw(p),
                page_mapcount(p)
            ),
        );
    }
    for i in 1..(1usize << m.hstate.order) {
        let t = m.pg(head + i);
        if page_mapcount(t) != 0 || page_count_raw(t) != 0 {
            fail(
                "end of scenario",
                Invariant::RefcountBalance,
                format!(
                    "hugetlbfs tail {:?}: _count {} mapcount {} after every reference was dropped",
                    (head + i),
                    page_count_raw(t),
                    page_mapcount(t)
                ),
            );
        }
    }
}
