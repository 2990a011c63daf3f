//! mm/page_alloc.c and the compound-page helpers of include/linux/mm.h (Linux 3.10–3.13).

use super::swap::Compound;
use super::{hugetlb, Mem};
use crate::page::*;
use crate::sync::{atomic_read, spin_lock, CHECKED, READ_ONCE, WRITE_ONCE};
use crate::trace::{fail, Invariant};
use crate::{ktrace, VM_BUG_ON};

/// `get_compound_page_dtor(page)` (include/linux/mm.h, 3.10): `page[1].lru.next`.
pub fn get_compound_page_dtor(m: &Mem, page: PagePtr) -> usize {
    // LEFT OUT: `return (compound_page_dtor *)page[1].lru.next;` as written: it is
    // MODEL: the `lru_next` word of the frame after the head; a destructor is an id (DTOR_*)
    READ_ONCE(&m.pg(page + 1).lru_next)
}

/// `set_compound_page_dtor(page, dtor)` (include/linux/mm.h, 3.10).
pub fn set_compound_page_dtor(m: &Mem, page: PagePtr, dtor: usize) {
    WRITE_ONCE(&m.pg(page + 1).lru_next, dtor);
}

/// `compound_order(page)` (include/linux/mm.h, 3.10): `page[1].lru.prev` if PageHead.
pub fn compound_order(m: &Mem, page: PagePtr) -> u32 {
    if !PageHead(m.pg(page)) {
        return 0;
    }
    READ_ONCE(&m.pg(page + 1).lru_prev) as u32
}

/// `set_compound_order(page, order)` (include/linux/mm.h, 3.10).
pub fn set_compound_order(m: &Mem, page: PagePtr, order: u32) {
    WRITE_ONCE(&m.pg(page + 1).lru_prev, order as usize);
}

/// Call a compound destructor read from `page[1].lru.next`: `(*dtor)(page)`. A word that is
/// not a destructor is a jump through a garbage function pointer: an oops.
pub fn call_compound_dtor(m: &Mem, dtor: usize, page: PagePtr) {
    match dtor {
        DTOR_FREE_COMPOUND_PAGE => free_compound_page(m, page),
        DTOR_FREE_HUGE_PAGE => hugetlb::free_huge_page(m, page),
        other => fail(
            "__put_compound_page",
            Invariant::Oops,
            format!("(*dtor)({page:?}) with dtor={other:#x}: not a compound destructor"),
        ),
    }
}

/// `prep_compound_page(page, order)` (mm/page_alloc.c, 3.10–3.13): PG_tail is set before
/// `first_page` is written, with no barrier (668f9abb reorders the two and puts an `smp_wmb()`
/// between them; a variant with that code overrides `Compound::prep_compound_page`).
pub fn prep_compound_page(m: &Mem, page: PagePtr, order: u32) {
    let nr_pages = 1usize << order;
    set_compound_page_dtor(m, page, DTOR_FREE_COMPOUND_PAGE);
    set_compound_order(m, page, order);
    __SetPageHead(m.pg(page));
    ktrace!("prep_compound_page", "__SetPageHead({page:?}) (non-atomic)");
    for i in 1..nr_pages {
        let p = m.pg(page + i);
        __SetPageTail(p);
        ktrace!("prep_compound_page", "__SetPageTail({:?})", page + i);
        set_page_count(p, 0);
        set_first_page(p, page);
        ktrace!(
            "prep_compound_page",
            "{:?}->first_page = {page:?}",
            page + i
        );
    }
}

/// `destroy_compound_page(page, order)` (mm/page_alloc.c, 3.10). The kernel counts the bad
/// pages and leaks the block; here `bad_page()` ends the execution.
fn destroy_compound_page(m: &Mem, page: PagePtr, order: u32) {
    let nr_pages = 1usize << order;
    // LEFT OUT: `int bad = 0;`, each `bad++` and `return bad;`: bad_page() ends the run here
    if compound_order(m, page) != order {
        bad_page(m, page, "compound_order mismatch");
        // LEFT OUT: `bad++;` (bad_page() ends the run)
    }
    __ClearPageHead(m.pg(page));
    for i in 1..nr_pages {
        let p = m.pg(page + i);
        if !PageTail(p) || first_page(p) != page {
            bad_page(m, page, "tail page not pointing at its head");
            // LEFT OUT: `bad++;` (bad_page() ends the run)
        }
        __ClearPageTail(p);
    }
    // LEFT OUT: `return bad;` (bad_page() ends the run)
}

/// `bad_page(page)` (mm/page_alloc.c): "BUG: Bad page state".
pub fn bad_page(m: &Mem, page: PagePtr, why: &str) -> ! {
    let p = m.pg(page);
    fail(
        "bad_page",
        Invariant::BadPage,
        format!(
            "BUG: Bad page state: {page:?} count:{} mapcount:{} flags:{:#x} ({why})",
            atomic_read(&p._count),
            page_mapcount(p),
            READ_ONCE(&p.flags)
        ),
    )
}

/// `free_pages_check(page)` (mm/page_alloc.c, 3.10).
fn free_pages_check(m: &Mem, page: PagePtr) {
    // LEFT OUT: the one combined test `page_mapcount(page) | (page->mapping != NULL) |
    // (atomic_read(&page->_count) != 0) | (page->flags & PAGE_FLAGS_CHECK_AT_FREE) |
    // mem_cgroup_bad_page_check(page)`: no mapping and no memcg in the model; the rest is
    // MODEL: these three tests, each failing into bad_page() (which ends the run)
    let p = m.pg(page);
    if page_mapcount(p) != 0 {
        bad_page(m, page, "nonzero mapcount");
    }
    if atomic_read(&p._count) != 0 {
        bad_page(m, page, "nonzero _count");
    }
    // LEFT OUT: `return 1;` (bad_page() ends the run); (3.8+) `page_nid_reset_last(page)`: no
    // NUMA balancing in the model
    let flags = READ_ONCE(&p.flags);
    // MODEL: `flags` read once for the combined test's PAGE_FLAGS_CHECK_AT_FREE part and for the
    // C's `if (page->flags & PAGE_FLAGS_CHECK_AT_PREP)`, which reads the word again: both forms
    // then store it with those bits cleared, so a bit set in between is lost either way
    if flags & PAGE_FLAGS_CHECK_AT_FREE != 0 {
        bad_page(m, page, "flags set at free");
    }
    if flags & PAGE_FLAGS_CHECK_AT_PREP != 0 {
        WRITE_ONCE(&p.flags, flags & !PAGE_FLAGS_CHECK_AT_PREP);
    }
    // LEFT OUT: `return 0;`: no caller counts bad pages (bad_page() ends the run)
}

/// Ghost checks when a page frame goes back to the allocator: nobody may still hold it, and
/// it must not be free already.
fn ghost_on_free(m: &Mem, page: PagePtr) {
    if !CHECKED {
        return;
    }
    let p = m.pg(page);
    if !p.ghost_allocated() {
        fail(
            "free_pages",
            Invariant::UseAfterFree,
            format!("{page:?} freed twice"),
        );
    }
    // A CPU whose put of this frame is in flight is not counted: its reference may already
    // be gone (the put that frees is one of them); if it is not, that put goes on to change a
    // free frame's count, which the ghost count checks report.
    let holders = p.ghost.holders_not_putting();
    if holders != 0 {
        fail(
            "free_pages",
            Invariant::FreedWhileReferenced,
            format!("{page:?} freed while CPUs still hold {holders} reference(s) to it"),
        );
    }
    // The LRU's holders: a pagevec entry holds a reference until release_pages() drops it; a
    // page linked on an LRU or private list is reachable through the list.
    if p.ghost_queued() != 0 {
        fail(
            "free_pages",
            Invariant::FreedWhileReferenced,
            format!(
                "{page:?} freed while still queued in {} pagevec(s): their drain will use a freed page",
                p.ghost_queued()
            ),
        );
    }
    if let Some(l) = p.ghost.on_list.get() {
        fail(
            "free_pages",
            Invariant::FreedWhileReferenced,
            format!(
                "{page:?} freed while still linked on {:?}",
                super::list::ListId::from_index(l)
            ),
        );
    }
    p.ghost.set_allocated(false);
}

/// `free_pages_prepare(page, order)` + `__free_one_page()` (mm/page_alloc.c, 3.10).
fn free_pages(m: &Mem, page: PagePtr, order: u32) {
    // LEFT OUT: `int bad = 0;`, trace_mm_page_free(), kmemcheck_free_shadow(), and the
    // `if (PageAnon(page))` test around the next line
    // MODEL: `page->mapping = NULL;` unconditionally: the model's mapping word holds only the
    // anon bit, so a page that is not anonymous has 0 there already (one store instead of a
    // load and a store); only in a run that models the word (Mem::models_mapping)
    if m.models_mapping() {
        set_page_mapping(m.pg(page), 0);
    }
    // LEFT OUT: the C's loop header `for (i = 0; i < (1 << order); i++)` is
    // MODEL: this loop, over nr = 1 << order frames
    let nr = 1usize << order;
    ktrace!("free_pages", "free {page:?} order {order}");
    for i in 0..nr {
        free_pages_check(m, page + i);
    }
    // LEFT OUT: `if (bad) return false;` (bad_page() ends the run), the debug_check_no_*_freed()
    // checks (not modelled)
    // MODEL: __free_one_page()'s `if (unlikely(PageCompound(page)))` destroy_compound_page()
    // (C: later, under zone->lock; finds no compound page, in the C as here, since
    // free_pages_check() has just cleared PAGE_FLAGS_CHECK_AT_PREP, PG_head/PG_tail included)
    if PageCompound(m.pg(page)) {
        destroy_compound_page(m, page, order);
    }
    // LEFT OUT: arch_free_page() (empty on x86; the tool pairs it with the call above by their
    // shared arguments), kernel_map_pages() (debug) and `return true;`
    // MODEL: ghost checks, then __free_one_page() under zone->lock (free_one_page()): the frames
    // are marked free, without buddy merging
    for i in 0..nr {
        ghost_on_free(m, page + i);
    }
    let pfn = m.map.pfn(page);
    let mut area = spin_lock(&m.zone.lock);
    for i in 0..nr {
        area.free[pfn + i] = true;
    }
}

/// `free_hot_cold_page(page, cold)` (mm/page_alloc.c, 3.10): order-0 free.
pub fn free_hot_cold_page(m: &Mem, page: PagePtr) {
    free_pages(m, page, 0);
}

/// `__free_pages_ok(page, order)` (mm/page_alloc.c, 3.10).
pub fn __free_pages_ok(m: &Mem, page: PagePtr, order: u32) {
    // LEFT OUT: `if (!free_pages_prepare(page, order)) return;` as a test (bad_page() ends the
    // run), local_irq_save/restore (no model raises an interrupt on a CPU that frees pages), PGFREE, the migratetype (one free area) and
    // `free_one_page(page_zone(page), page, order, migratetype)`: together they are
    // MODEL: free_pages() = free_pages_prepare() + free_one_page()
    free_pages(m, page, order);
}

/// `free_compound_page(page)` (mm/page_alloc.c, 3.10): the default compound destructor.
pub fn free_compound_page(m: &Mem, page: PagePtr) {
    // MODEL: the C's argument `compound_order(page)`, read into `order` first
    let order = compound_order(m, page);
    __free_pages_ok(m, page, order);
}

/// `__free_pages(page, order)` (mm/page_alloc.c, 3.10).
pub fn __free_pages(m: &Mem, page: PagePtr, order: u32) {
    if super::swap::put_page_testzero(m, page) {
        if order == 0 {
            free_hot_cold_page(m, page);
        } else {
            __free_pages_ok(m, page, order);
        }
    }
}

/// `set_page_refcounted(page)` (mm/internal.h, 3.10).
pub fn set_page_refcounted(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    VM_BUG_ON!("set_page_refcounted", PageTail(p));
    VM_BUG_ON!("set_page_refcounted", atomic_read(&p._count) != 0);
    set_page_count(p, 1);
    ktrace!("set_page_refcounted", "{page:?}._count = 1");
}

/// `check_new_page(page)` (mm/page_alloc.c, 3.10–3.13): "This page is about to be returned
/// from the page allocator". The kernel reports `bad_page()` and takes another block; here the
/// execution ends. (`page->mapping` and memcg are not modelled.)
pub fn check_new_page(m: &Mem, page: PagePtr) {
    // LEFT OUT: the one combined test `page_mapcount(page) | (page->mapping != NULL) |
    // (atomic_read(&page->_count) != 0) | (page->flags & PAGE_FLAGS_CHECK_AT_PREP) |
    // mem_cgroup_bad_page_check(page)`: no mapping and no memcg in the model; the rest is
    // MODEL: these three tests, each failing into bad_page() (which ends the run)
    let p = m.pg(page);
    if page_mapcount(p) != 0 {
        bad_page(m, page, "nonzero mapcount at allocation");
    }
    if atomic_read(&p._count) != 0 {
        bad_page(m, page, "nonzero _count at allocation");
    }
    if READ_ONCE(&p.flags) & PAGE_FLAGS_CHECK_AT_PREP != 0 {
        bad_page(m, page, "flags set at allocation");
    }
    // LEFT OUT: `return 1;` / `return 0;`: bad_page() ends the run, so the caller never sees 1
}

/// `prep_new_page(page, order, gfp_flags)` (mm/page_alloc.c, 3.10–3.13): the page is
/// refcounted *before* `prep_compound_page()` writes its flags non-atomically (the race of
/// claim compound.8). `arch_alloc_page`, `kernel_map_pages` and `__GFP_ZERO` are not modelled.
pub fn prep_new_page(
    m: &Mem,
    page: PagePtr,
    order: u32,
    gfp_comp: bool,
    prep_compound_page: fn(&Mem, PagePtr, u32),
) {
    for i in 0..(1usize << order) {
        check_new_page(m, page + i);
        // LEFT OUT: `if (unlikely(check_new_page(p))) return 1;` as a test (`p = page + i` is
        // the argument above): check_new_page() ends the run at bad_page(), never returns 1
    }

    set_page_private(m.pg(page), 0);
    set_page_refcounted(m, page);

    // LEFT OUT: arch_alloc_page() (empty on x86), kernel_map_pages() (debug) and __GFP_ZERO's
    // prep_zero_page() (page contents are not modelled)
    if order > 0 && gfp_comp {
        prep_compound_page(m, page, order);
    }
    // LEFT OUT: `return 0;`: the allocation cannot fail here (see above)
}

/// The buddy allocator's part of `alloc_pages()` (`rmqueue()` under `zone->lock`), reduced to:
/// take the lowest naturally aligned free block of `1 << order` frames. None when none is free.
fn rmqueue(m: &Mem, order: u32) -> Option<PagePtr> {
    let nr = 1usize << order;
    let pfn = {
        let mut area = spin_lock(&m.zone.lock);
        let pfn = (0..area.free.len())
            .step_by(nr)
            .find(|&s| s + nr <= area.free.len() && area.free[s..s + nr].iter().all(|&f| f))?;
        for f in &mut area.free[pfn..pfn + nr] {
            *f = false;
        }
        pfn
    };
    let page = m.pfn_to_page(pfn);
    for i in 0..nr {
        let p = m.pg(page + i);
        ghost_contents_handover(p, page + i, "alloc_pages");
        ghost_on_alloc(p);
    }
    Some(page)
}

/// `alloc_pages(gfp, order)` (mm/page_alloc.c, 3.10–3.13) for code outside the compound area
/// (order-0 pages): `rmqueue()` and the 3.13 `prep_new_page()`.
pub fn alloc_pages(m: &Mem, order: u32, gfp_comp: bool) -> Option<PagePtr> {
    let page = rmqueue(m, order)?;
    prep_new_page(m, page, order, gfp_comp, prep_compound_page);
    ktrace!(
        "alloc_pages",
        "{page:?} order {order}{}",
        if gfp_comp { " __GFP_COMP" } else { "" }
    );
    Some(page)
}

/// `alloc_pages(gfp, order)` with the variant's `prep_new_page()` / `prep_compound_page()`.
pub fn alloc_pages_for<V: Compound>(m: &Mem, order: u32, gfp_comp: bool) -> Option<PagePtr> {
    let page = rmqueue(m, order)?;
    V::prep_new_page(m, page, order, gfp_comp);
    ktrace!(
        "alloc_pages",
        "{page:?} order {order}{}",
        if gfp_comp { " __GFP_COMP" } else { "" }
    );
    Some(page)
}
