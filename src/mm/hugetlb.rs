//! mm/hugetlb.c (Linux 3.10–3.13): `PageHuge`, `PageHeadHuge` (27c73ae7), the pool, its
//! destructor `free_huge_page` and the pool shrink `update_and_free_page`.

use super::page_alloc::{
    __free_pages, alloc_pages_for, get_compound_page_dtor, set_compound_page_dtor,
    set_page_refcounted,
};
use super::swap::{compound_head, put_page, Compound};
use super::Mem;
use crate::page::*;
use crate::sync::{atomic_read, spin_lock, CHECKED, READ_ONCE, WRITE_ONCE};
use crate::trace::{fail, Invariant};
use crate::{ktrace, BUG_ON, VM_BUG_ON};

/// `PageHuge(page)` (mm/hugetlb.c, 3.10): follows `compound_head()` without pinning anything.
pub fn PageHuge(m: &Mem, page: PagePtr) -> bool {
    let compound = PageCompound(m.pg(page));
    ktrace!("PageHuge", "PageCompound({page:?}) = {compound}");
    // MODEL: the C's `if (!PageCompound(page))`, read into `compound` for the trace
    if !compound {
        return false;
    }
    let head = compound_head(m, page);
    let dtor = get_compound_page_dtor(m, head);
    // LEFT OUT: `return dtor == free_huge_page;` as one statement: it is
    // MODEL: this comparison with the destructor's id (DTOR_FREE_HUGE_PAGE), kept for the trace
    let huge = dtor == DTOR_FREE_HUGE_PAGE;
    ktrace!(
        "PageHuge",
        "{page:?}: head {head:?} dtor {dtor:#x} -> {huge}"
    );
    huge
}

/// `PageHeadHuge(page_head)` (mm/hugetlb.c, added by 27c73ae7): true only for a hugetlbfs
/// head page; called on a head the caller has pinned.
pub fn PageHeadHuge(m: &Mem, page_head: PagePtr) -> bool {
    if !PageHead(m.pg(page_head)) {
        return false;
    }
    let dtor = get_compound_page_dtor(m, page_head);
    // MODEL: (3.14's simplified text `return get_compound_page_dtor(page_head) ==
    // free_huge_page;`) the destructor read into `dtor` first, as 27c73ae7 has it
    dtor == DTOR_FREE_HUGE_PAGE
}

/// `enqueue_huge_page(h, page)` (mm/hugetlb.c, 3.10), with `hugetlb_lock` held.
fn enqueue_huge_page(pool: &mut super::HugePool, m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    if CHECKED {
        if pool.freelist.contains(&page) || p.ghost_in_hugepool() {
            fail(
                "enqueue_huge_page",
                Invariant::UseAfterFree,
                format!("{page:?} freed into the hugetlb pool twice (its destructor ran twice)"),
            );
        }
        let holders = p.ghost.holders_not_putting();
        if holders != 0 {
            fail(
                "enqueue_huge_page",
                Invariant::FreedWhileReferenced,
                format!(
                    "hugetlbfs page {page:?} freed while CPUs still hold {holders} reference(s)"
                ),
            );
        }
        for i in 1..(1usize << m.hstate.order) {
            let t = m.pg(page + i);
            if t.ghost.holders_not_putting() != 0 {
                fail(
                    "enqueue_huge_page",
                    Invariant::FreedWhileReferenced,
                    format!(
                        "hugetlbfs page {page:?} freed while a CPU still holds its tail {:?}",
                        (page + i)
                    ),
                );
            }
        }
    }
    p.ghost.set_in_hugepool(true);
    // LEFT OUT: `nid = page_to_nid(page)` and the per-node free list and count: one node
    // LEFT OUT: `list_add(&page->lru, ..)` (3.6+: `list_move`) and `h->free_huge_pages++` are
    // MODEL: the push on the pool's free list (a Vec: the last pushed is the list's first) and
    // the count below
    pool.freelist.push(page);
    pool.free_huge_pages += 1;
}

/// `dequeue_huge_page_node(h, nid)` (mm/hugetlb.c, 3.10), with `hugetlb_lock` held.
fn dequeue_huge_page(pool: &mut super::HugePool, m: &Mem) -> Option<PagePtr> {
    // LEFT OUT: the per-node free list and count (one node); `list_empty()` / `return NULL`,
    // `list_entry(..next..)`, `list_del()` (3.6+: `list_move()` to the active list, which the
    // model does not keep) and `h->free_huge_pages--` are
    // MODEL: the pop of the pool's free list (None when empty) and the count below
    // LEFT OUT: DISCREPANCY (reported): `set_page_refcounted(page)` under hugetlb_lock: here
    // alloc_huge_page() does it after dropping the lock (set_max_huge_pages() must not)
    let page = pool.freelist.pop()?;
    pool.free_huge_pages -= 1;
    m.pg(page).ghost.set_in_hugepool(false);
    // The page changes hands: a new generation for the whole compound page, and the new
    // owner must see what the last holders wrote.
    // MODEL: ghost bookkeeping of every frame of the page
    for i in 0..(1usize << m.hstate.order) {
        let p = m.pg(page + i);
        ghost_contents_handover(p, page + i, "dequeue_huge_page");
        p.ghost.new_generation();
    }
    Some(page)
}

/// `free_huge_page(page)` (mm/hugetlb.c, 3.10): the hugetlbfs compound destructor.
pub fn free_huge_page(m: &Mem, page: PagePtr) {
    // LEFT OUT: `h = page_hstate(page)` (one hstate, m.hstate), `nid` (one node) and `spool`
    // (no hugetlbfs mount or subpool is modelled)
    let p = m.pg(page);
    ktrace!("free_huge_page", "{page:?} back to the hugetlb pool");
    set_page_private(p, 0);
    // LEFT OUT: `page->mapping = NULL`: no mapping is modelled
    BUG_ON!("free_huge_page", atomic_read(&p._count) != 0);
    BUG_ON!("free_huge_page", page_mapcount(p) != 0);
    // LEFT OUT: (3.4) `INIT_LIST_HEAD(&page->lru)`, (3.6+) `hugetlb_cgroup_uncharge_page()`
    // (no cgroup) and `list_del(&page->lru)` from the active list (not modelled); the
    // per-node surplus and the MAX_ORDER test (one node, order-1 pool pages)
    // MODEL: `spin_lock(&hugetlb_lock)` is the pool guard; the surplus test reads its count
    // MODEL: DISCREPANCY (reported): `nr_huge_pages -= 1` (the C's is in update_and_free_page())
    // and `drop(pool)` before update_and_free_page(): the C keeps hugetlb_lock across it
    let mut pool = spin_lock(&m.hstate.lock);
    if pool.surplus_huge_pages > 0 {
        pool.surplus_huge_pages -= 1;
        pool.nr_huge_pages -= 1;
        drop(pool);
        update_and_free_page(m, page);
        // LEFT OUT: DISCREPANCY (reported): `h->surplus_huge_pages--` (and per node) come here
        // in the C, still under hugetlb_lock; here before update_and_free_page()
    } else {
        // LEFT OUT: (3.10+) `arch_clear_hugepage_flags(page)`: empty on x86
        enqueue_huge_page(&mut pool, m, page);
    }
    // LEFT OUT: `spin_unlock(&hugetlb_lock)` is the guard's drop (the else branch's end; see
    // the DISCREPANCY above for the other branch); `hugepage_subpool_put_pages()`: no subpool
}

/// `update_and_free_page(h, page)` (mm/hugetlb.c, 3.10): give a pool page back to the buddy
/// allocator. `__free_pages()` runs `free_pages_check()` on every subpage: a tail whose
/// `_mapcount` was raised and never dropped is "BUG: Bad page state ... mapcount".
pub fn update_and_free_page(m: &Mem, page: PagePtr) {
    // LEFT OUT: `VM_BUG_ON(h->order >= MAX_ORDER)` (order-1 pool pages); DISCREPANCY
    // (reported): `h->nr_huge_pages--` (and per node), which the callers do here under
    // hugetlb_lock before dropping it to call this (the C runs all of this under the lock);
    // PG_error/PG_reserved/PG_writeback in the mask (never set in the model); (3.6+)
    // `VM_BUG_ON(hugetlb_cgroup_from_page(page))` (no cgroup)
    // MODEL: `huge_page_order(h)` read once; the C's loop over pages_per_huge_page(h) and its
    // `page[i].flags &= ~(...)` as one load and one store, non-atomic as in the C
    let order = m.hstate.order;
    ktrace!(
        "update_and_free_page",
        "{page:?} order {order} to the buddy allocator"
    );
    for i in 0..(1usize << order) {
        let p = m.pg(page + i);
        let clear =
            bit(PG_LOCKED) | bit(PG_REFERENCED) | bit(PG_DIRTY) | bit(PG_ACTIVE) | bit(PG_PRIVATE);
        let f = READ_ONCE(&p.flags);
        WRITE_ONCE(&p.flags, f & !clear); // page[i].flags &= ~(...), non-atomic
    }
    set_compound_page_dtor(m, page, DTOR_NULL);
    set_page_refcounted(m, page);
    // LEFT OUT: `arch_release_hugepage(page)`: empty on x86
    __free_pages(m, page, order);
}

/// `prep_new_huge_page(h, page, nid)` + `alloc_fresh_huge_page()` (mm/hugetlb.c, 3.10): take
/// a compound page from the buddy allocator and free it into the pool through `put_page()`.
/// (prep_new_huge_page() is named first so that its stored C is aligned; no C of
/// alloc_fresh_huge_page() / alloc_fresh_huge_page_node() is stored.)
pub fn alloc_fresh_huge_page<V: Compound>(m: &Mem) -> bool {
    // MODEL: alloc_fresh_huge_page_node()'s `alloc_pages_exact_node(nid, htlb_alloc_mask |
    // __GFP_COMP | ..., huge_page_order(h))` and its failure return (C not stored)
    let Some(page) = alloc_pages_for::<V>(m, m.hstate.order, true) else {
        return false;
    };
    // LEFT OUT: (3.6+) `INIT_LIST_HEAD(&page->lru)`: the active list is not modelled
    set_compound_page_dtor(m, page, DTOR_FREE_HUGE_PAGE);
    // LEFT OUT: (3.6+) `set_hugetlb_cgroup(page, NULL)` (no cgroup), the per-node count (one
    // node); `spin_lock(&hugetlb_lock); h->nr_huge_pages++; spin_unlock(&hugetlb_lock);` is
    // MODEL: this one statement (the guard lives for the increment)
    spin_lock(&m.hstate.lock).nr_huge_pages += 1;
    put_page::<V>(m, page); // free it into the hugepage allocator

    // MODEL: alloc_fresh_huge_page()'s success return (C not stored)
    true
}

/// `alloc_huge_page(vma, addr, ...)` (mm/hugetlb.c, 3.10), reduced to the dequeue and
/// `set_page_refcounted()`. None when the pool is empty.
pub fn alloc_huge_page(m: &Mem) -> Option<PagePtr> {
    let page = {
        let mut pool = spin_lock(&m.hstate.lock);
        dequeue_huge_page(&mut pool, m)?
    };
    // MODEL: DISCREPANCY (reported): dequeue_huge_page_node() does this under hugetlb_lock
    set_page_refcounted(m, page);
    ktrace!("alloc_huge_page", "{page:?}");
    Some(page)
}

/// `set_max_huge_pages(h, count)` (mm/hugetlb.c, 3.10), shrinking only: free pool pages
/// (`free_pool_huge_page`) until `count` remain; pages in use become surplus.
pub fn set_max_huge_pages(m: &Mem, count: usize) {
    loop {
        let page = {
            let mut pool = spin_lock(&m.hstate.lock);
            if pool.nr_huge_pages <= count {
                return;
            }
            match dequeue_huge_page(&mut pool, m) {
                Some(page) => {
                    pool.nr_huge_pages -= 1;
                    page
                }
                None => {
                    // Pages in use: they are freed to the buddy allocator when released.
                    pool.surplus_huge_pages = pool.nr_huge_pages - count;
                    return;
                }
            }
        };
        VM_BUG_ON!("set_max_huge_pages", page_count_raw(m.pg(page)) != 0);
        // MODEL: DISCREPANCY (reported): free_pool_huge_page() is "Called with hugetlb_lock
        // locked" and runs update_and_free_page() (and its nr_huge_pages--) under it
        update_and_free_page(m, page);
    }
}
