//! Area `compound` (S1): compound refcounting, THP split, slab tails and the hugetlbfs bypass
//! (Linux 3.4–3.14).
//!
//! Machine: 4 page frames; the THP and the hugetlbfs page are order 1 (a head and one tail),
//! allocated at frames 0–1, so frame 2 is the "next struct page" that a stale `page[1]` read
//! lands on, as in a real memmap. Why order 1 suffices is in proofs/compound.*.md.

use crate::sequential::{self, Settings};
use crate::{invariants, scenario, Model, Runner};
use mmcheck::checker::Exploration;
use mmcheck::ktrace;
use mmcheck::mm::huge_memory::split_huge_page;
use mmcheck::mm::hugetlb::{alloc_fresh_huge_page, alloc_huge_page, set_max_huge_pages};
use mmcheck::mm::page_alloc::alloc_pages_for;
use mmcheck::mm::page_ref::PageRef;
use mmcheck::mm::rmap::{page_add_new_anon_rmap, page_remove_rmap};
use mmcheck::mm::slab::{__free_slab, new_slab, page_counters};
use mmcheck::mm::swap::{get_page_foll, page_count, Compound};
use mmcheck::mm::{gup, Mem, MemConfig};
use mmcheck::page::{
    __SetPageUptodate, page_count_raw, set_page_mapping, set_page_private, swp_entry, PagePtr,
    PAGE_MAPPING_ANON,
};
use mmcheck::sync::{atomic_inc, atomic_set, join, spawn_cpu};
use mmcheck::trace::{fail, harness_fail, Invariant};
use proptest::prelude::*;
use std::sync::Arc;

/// Every model of the area, for variant `V`.
pub fn models<V: Compound>() -> Vec<Model> {
    vec![
        scenario!(thp_get_put_vs_split::<V>, 2, "get/put on a pinned THP tail racing __split_huge_page_refcount"),
        scenario!(hugetlb_get_put::<V>, 2, "get/put on a hugetlbfs page's tail and head from two CPUs, the owner's final put racing them"),
        scenario!(thp_put_vs_split_private::<V>, 2, "put of a pinned THP tail racing split and a later write of the tail's private"),
        scenario!(hugetlb_gup_then_shrink::<V>, 2, "gup_fast pin and get/put on a hugetlbfs tail, then munmap and a pool shrink"),
        scenario!(thp_put_vs_split_realloc::<V>, 2, "put of a pinned THP tail racing split, free and reallocation of the head as hugetlbfs"),
        scenario!(pfn_scan_vs_prep_compound::<V>, 2, "a pfn scanner's page_count() on an unheld page racing prep_compound_page() of a new allocation"),
        scenario!(thp_get_put_vs_split_realloc_compound::<V>, 2, "get/put of a pinned THP tail racing split, free and reallocation of the head as a smaller __GFP_COMP page"),
        scenario!(slab_tail_put_vs_slab_unlock::<V>, 2, "a driver's put_page() on a slab tail racing SLUB's slab_lock()/non-atomic slab_unlock() of the head"),
        scenario!(slab_tail_put_vs_counters_store::<V>, 2, "the same on x86-64 with a debug cache: SLUB's counters store covers the head's _count"),
        scenario!(thp_put_vs_split_realloc_slab::<V>, 2, "put of a pinned THP tail racing split, free and reallocation of the head as a SLUB slab"),
        scenario!(thp_get_vs_split_realloc::<V>, 2, "get_page of a pinned THP tail racing split, free and reallocation of the head as hugetlbfs"),
        scenario!(thp_put_vs_split_realloc_anon::<V>, 2, "put of a pinned THP tail racing split, free and reuse of the head as an anonymous page (do_anonymous_page's __SetPageUptodate)"),
        scenario!(driver_compound_mapped_twice::<V>, 2, "a driver's __GFP_COMP buffer mapped by two PTEs (the sound subsystem's), both unmapped at once"),
        scenario!(thp_soak::<V>, 4, "the races above together on 4 CPUs (shuttle soak)"),
        Model {
            name: "sequential",
            cpus: 0,
            about: "random get/gup/put/split sequences against a reference model of who holds which reference",
            run: Runner::Sequential(sequential_proptest::<V>),
        },
    ]
}

/// The S1 machine.
pub fn machine() -> Arc<Mem> {
    Arc::new(Mem::new(MemConfig {
        nr_pages: 4,
        thp_order: 1,
        huge_order: 1,
        counters_cover_count: false,
    }))
}

/// An anonymous THP of order `thp_order`: `alloc_pages(GFP_TRANSHUGE)` = compound, refcount 1.
/// That reference is returned: the owner's, or with `mapped` the pmd mapping's
/// (`page_add_new_anon_rmap`: `_mapcount` = 0), dropped by [`unmap`].
fn alloc_thp<V: Compound>(m: &Mem, mapped: bool) -> (PagePtr, PageRef) {
    let Some(head) = alloc_pages_for::<V>(m, m.cfg.thp_order, true) else {
        harness_fail("alloc_thp", "no free THP-sized block".to_string())
    };
    // An anonymous THP: page_add_new_anon_rmap() sets PAGE_MAPPING_ANON in page->mapping
    // (the owner's THP too: every 3.x THP is anonymous memory), modelled for a variant that
    // reads it (Mem::models_mapping). Only the two words the models read are written here,
    // not through the mirror `page_add_new_anon_rmap()` (src/mm/rmap.rs, which
    // `do_anonymous_page()` below calls): the mirror also sets PG_swapbacked, which split
    // copies to the tails, and records an event, so every quoted THP trace would change.
    if V::READS_PAGE_ANON {
        m.map.set_models_mapping();
        set_page_mapping(m.pg(head), PAGE_MAPPING_ANON);
    }
    if mapped {
        atomic_set(&m.pg(head)._mapcount, 0);
    }
    (head, PageRef::adopt(m, head))
}

/// After `split_huge_page(head)` of a THP mapped once, each tail holds a reference for its
/// pte mapping (split handed `mapcount(head)` to every tail's `_count`): those references,
/// tracked like the others.
fn split_mappings(m: &Mem, head: PagePtr) -> Vec<PageRef> {
    (1..m.hpage_pmd_nr())
        .map(|i| PageRef::adopt(m, head + i))
        .collect()
}

/// zap_pte_range() of one mapped page: `page_remove_rmap(page)` and the mapping's
/// `put_page(page)`.
fn unmap<V: Compound>(m: &Mem, mapping: PageRef) {
    page_remove_rmap(m, mapping.page());
    mapping.put::<V>(m);
}

/// A hugetlbfs page in use: the pool grows by one (`alloc_fresh_huge_page`) and the page is
/// taken from it (`alloc_huge_page`), refcount 1.
fn hugetlb_page<V: Compound>(m: &Mem) -> PagePtr {
    if !alloc_fresh_huge_page::<V>(m) {
        harness_fail(
            "alloc_fresh_huge_page",
            "no free block for the pool".to_string(),
        );
    }
    let Some(page) = alloc_huge_page(m) else {
        harness_fail("alloc_huge_page", "empty pool".to_string())
    };
    page
}

/// A pin on `page` taken by gup under the page-table lock (`follow_page(FOLL_GET)` ->
/// `get_page_foll()`), which serializes against split.
fn gup_pin<V: Compound>(m: &Mem, page: PagePtr) -> PageRef {
    get_page_foll::<V>(m, page);
    PageRef::adopt(m, page)
}

/// A PTE mapping of a page that is not anonymous (`vm_insert_page()`, or a driver's fault
/// handler returning the page): the mapping's reference, `get_page(page)`, and
/// `page_add_file_rmap(page)`'s `atomic_inc(&page->_mapcount)` (its statistics and memcg lock
/// are not modelled). Dropped by [`unmap`].
fn map_file_pte<V: Compound>(m: &Mem, page: PagePtr) -> PageRef {
    let r = PageRef::get::<V>(m, page);
    let old = atomic_inc(&m.pg(page)._mapcount);
    ktrace!(
        "page_add_file_rmap",
        "{page:?}._mapcount {old} -> {}",
        old + 1
    );
    r
}

/// compound.13 — H-20: a driver's `__GFP_COMP` buffer mapped to userspace by two PTEs, both
/// unmapped at once (Borislav Petkov's "kernel BUG at mm/swap.c:134!", April 2015: the sound
/// subsystem maps its compound buffers with PTEs; two players, one stops).
///
/// * setup: an order-1 `__GFP_COMP` page held by its driver (refcount 1; not anonymous, not
///   slab, not hugetlbfs); its tail T mapped by two PTEs, each a reference (`get_page(T)`,
///   through `__get_page_tail()`) and a mapcount (`page_add_file_rmap(T)`).
/// * CPU0 and CPU1: each unmaps one PTE (`page_remove_rmap(T)`, then the mapping's
///   `put_page(T)`).
/// * then the driver frees its buffer (`put_page(H)`).
/// * end: both frames freed exactly once, never while referenced; with CONFIG_DEBUG_VM the
///   kernel's own `VM_BUG_ON`s.
pub fn driver_compound_mapped_twice<V: Compound>() {
    let m = machine();
    let Some(head) = alloc_pages_for::<V>(&m, 1, true) else {
        harness_fail("alloc_pages", "no free order-1 block".to_string())
    };
    let driver = PageRef::adopt(&m, head);
    let tail = head + 1;
    let pte0 = map_file_pte::<V>(&m, tail);
    let pte1 = map_file_pte::<V>(&m, tail);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || unmap::<V>(&m0, pte0));
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || unmap::<V>(&m1, pte1));
    join(cpu0);
    join(cpu1);
    driver.put::<V>(&m);
    invariants::all_pages_freed(&m);
}

/// compound.1 / compound.5 — `get_page`/`put_page` on a pinned THP tail racing `__split_huge_page_refcount`.
///
/// * setup: THP (head H, tail T) held by its owner (refcount 1, unmapped); CPU0 holds a pin on
///   T taken by gup under the PT lock.
/// * CPU0: `get_page(T)` (the `__get_page_tail` slow path), `put_page(T)`, `put_page(T)`.
/// * CPU1: `split_huge_page(H)`, then the owner's `put_page(H)`.
/// * end: both frames freed exactly once, never while referenced; counts balanced.
pub fn thp_get_put_vs_split<V: Compound>() {
    let m = machine();
    let (head, owner) = alloc_thp::<V>(&m, false);
    let tail = head + 1;
    let pin0 = gup_pin::<V>(&m, tail);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        let pin1 = PageRef::get::<V>(&m0, tail);
        pin1.put::<V>(&m0);
        pin0.put::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        split_huge_page::<V>(&m1, head);
        owner.put::<V>(&m1);
    });
    join(cpu0);
    join(cpu1);
    invariants::all_pages_freed(&m);
}

/// compound.2 — `get_page`/`put_page` on a hugetlbfs page's tail and head from two CPUs, with the
/// owner's final put racing them. The page is a surplus page (the pool was shrunk while it was
/// in use), so the last put gives it back to the buddy allocator.
///
/// * setup: a hugetlbfs page from the pool (head H, tail T), owner refcount 1, the pool shrunk
///   to 0 (the page is surplus); CPU0 holds a pin on T taken with `get_page(T)`.
/// * CPU0: `get_page(T)`, `put_page(T)`, writes the page through its pin (I/O done), then
///   `put_page(T)` (its pin).
/// * CPU1: `get_page(H)`, `put_page(H)`, then the owner's `put_page(H)`; if the page went back
///   to the buddy allocator by then, CPU1 allocates the block again (the new owner must see
///   CPU0's write, or CPU0's put did not order it) and frees it.
/// * end: the destructor (`free_huge_page` -> `update_and_free_page`) ran exactly once, when no
///   reference remained; `free_pages_check()` found every subpage clean (a tail `_mapcount`
///   decrement not ordered before the last put is a bad page); every frame back in the buddy
///   allocator.
pub fn hugetlb_get_put<V: Compound>() {
    let m = machine();
    let head = hugetlb_page::<V>(&m);
    set_max_huge_pages(&m, 0); // the page in use becomes surplus
    let tail = head + 1;
    let owner = PageRef::adopt(&m, head);
    let pin0 = PageRef::get::<V>(&m, tail);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        let pin1 = PageRef::get::<V>(&m0, tail);
        pin1.put::<V>(&m0);
        pin0.write_contents(&m0);
        pin0.put::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        let r = PageRef::get::<V>(&m1, head);
        r.put::<V>(&m1);
        owner.put::<V>(&m1);
        if let Some(again) = alloc_pages_for::<V>(&m1, 1, true) {
            PageRef::adopt(&m1, again).put::<V>(&m1);
        }
    });
    join(cpu0);
    join(cpu1);
    invariants::all_pages_freed(&m);
}

/// compound.3 — `put_page` of a pinned THP tail racing split and a later write of the split tail's
/// `private` (`add_to_swap()` storing the swap entry), which shares its word with
/// `first_page`.
///
/// * setup: THP mapped once by a pmd (refcount 1 for the mapping); CPU0 holds a gup pin on T.
/// * CPU0: `put_page(T)`.
/// * CPU1: `split_huge_page(H)`; `set_page_private(T, swp_entry)`; then unmaps both pages
///   (`page_remove_rmap` + `put_page` of the mapping's reference on each).
/// * end: both frames freed exactly once, never while referenced.
pub fn thp_put_vs_split_private<V: Compound>() {
    let m = machine();
    let (head, map) = alloc_thp::<V>(&m, true);
    let tail = head + 1;
    let pin0 = gup_pin::<V>(&m, tail);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        pin0.put::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        split_huge_page::<V>(&m1, head);
        let tail_maps = split_mappings(&m1, head);
        // add_to_swap() -> __add_to_swap_cache(): set_page_private(page, entry.val)
        set_page_private(m1.pg(tail), swp_entry(0, 0x51));
        ktrace!(
            "add_to_swap",
            "set_page_private({tail:?}, swp_entry(0, 0x51))"
        );
        unmap::<V>(&m1, map);
        for t in tail_maps {
            unmap::<V>(&m1, t);
        }
    });
    join(cpu0);
    join(cpu1);
    invariants::all_pages_freed(&m);
}

/// compound.4 — direct I/O into a hugetlbfs page through gup_fast (`get_huge_page_tail` raises the
/// tail's `_mapcount`), another CPU's `get_page`/`put_page` on the same tail, then munmap and a
/// pool shrink (`echo 0 > nr_hugepages`) that gives the page back to the buddy allocator.
///
/// * setup: a hugetlbfs page from the pool, mapped once (refcount 1, mapcount 1).
/// * CPU0: gup_fast pin on T (`gup_huge_pmd`), I/O completes: `put_page(T)`.
/// * CPU1: `get_page(T)`, `put_page(T)`.
/// * then: munmap (`page_remove_rmap(H)`, `put_page(H)`), `set_max_huge_pages(0)`.
/// * end: `update_and_free_page` -> `free_pages_check()` finds nothing ("Bad page state" if a
///   tail `_mapcount` leaked); every frame back in the buddy allocator.
pub fn hugetlb_gup_then_shrink<V: Compound>() {
    let m = machine();
    let head = hugetlb_page::<V>(&m);
    atomic_set(&m.pg(head)._mapcount, 0); // hugepage_add_new_anon_rmap
    let map = PageRef::adopt(&m, head);
    let tail = head + 1;

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        let page = gup::gup_huge_pmd::<V>(&m0, head, tail);
        let pin = PageRef::adopt(&m0, page);
        pin.put::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        let pin = PageRef::get::<V>(&m1, tail);
        pin.put::<V>(&m1);
    });
    join(cpu0);
    join(cpu1);
    // munmap: the mapping's reference goes; free_huge_page() puts the page back in the pool.
    unmap::<V>(&m, map);
    // echo 0 > /sys/kernel/mm/hugepages/hugepages-*/nr_hugepages
    set_max_huge_pages(&m, 0);
    invariants::all_pages_freed(&m);
}

/// The S1 soak machine: 8 frames, THP of order 2 (a head and three tails) at frames 0–3,
/// hugetlbfs pages of order 1, so the THP's head can come back as a hugetlbfs head.
pub fn soak_machine() -> Arc<Mem> {
    Arc::new(Mem::new(MemConfig {
        nr_pages: 8,
        thp_order: 2,
        huge_order: 1,
        counters_cover_count: false,
    }))
}

/// S1 soak (shuttle): the races of compound.1–compound.4 together on 4 CPUs.
///
/// * setup: THP H (frames 0–3) mapped once; gup pins on tails T2 (CPU0) and T3 (CPU1).
/// * CPU0: `get_page(T2)`, `put_page(T2)` twice (its own and the setup pin).
/// * CPU1: `put_page(T3)`.
/// * CPU2 (owner): `split_huge_page(H)`, `set_page_private(T3, swp_entry)`, unmap all four
///   pages (so H and T1 can be freed).
/// * CPU3: grows the hugetlb pool (an order-1 block: frames 0–1 if H and T1 are free by then,
///   making the old THP head a hugetlbfs head), maps a hugetlbfs page, pins its tail with
///   `get_page`, drops everything, then shrinks the pool to 0. (gup_fast on hugetlbfs is left
///   to compound.4: on 7cb2ef56 it leaks in every schedule and would hide the races.)
/// * end: every frame back in the buddy allocator, nothing freed while referenced.
pub fn thp_soak<V: Compound>() {
    let m = soak_machine();
    let (head, map) = alloc_thp::<V>(&m, true);
    let (t2, t3) = (head + 2, head + 3);
    let pin2 = gup_pin::<V>(&m, t2);
    let pin3 = gup_pin::<V>(&m, t3);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        let r = PageRef::get::<V>(&m0, t2);
        r.put::<V>(&m0);
        pin2.put::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        pin3.put::<V>(&m1);
    });
    let m2 = m.clone();
    let cpu2 = spawn_cpu(2, move || {
        split_huge_page::<V>(&m2, head);
        let tail_maps = split_mappings(&m2, head);
        set_page_private(m2.pg(t3), swp_entry(0, 0x51));
        ktrace!(
            "add_to_swap",
            "set_page_private({t3:?}, swp_entry(0, 0x51))"
        );
        unmap::<V>(&m2, map);
        for t in tail_maps {
            unmap::<V>(&m2, t);
        }
    });
    let m3 = m.clone();
    let cpu3 = spawn_cpu(3, move || {
        if alloc_fresh_huge_page::<V>(&m3) {
            if let Some(hh) = alloc_huge_page(&m3) {
                atomic_set(&m3.pg(hh)._mapcount, 0); // mapped once
                let hmap = PageRef::adopt(&m3, hh);
                let ht = hh + 1;
                let r = PageRef::get::<V>(&m3, ht);
                r.put::<V>(&m3);
                unmap::<V>(&m3, hmap);
            }
            set_max_huge_pages(&m3, 0);
        }
    });
    for h in [cpu0, cpu1, cpu2, cpu3] {
        join(h);
    }
    invariants::all_pages_freed(&m);
}

/// The compound.6 machine: THP of order 2 at frames 0–3, hugetlbfs pages of order 1, 6 frames.
pub fn realloc_machine() -> Arc<Mem> {
    Arc::new(Mem::new(MemConfig {
        nr_pages: 6,
        thp_order: 2,
        huge_order: 1,
        counters_cover_count: false,
    }))
}

/// compound.6 — `put_page` of a pinned THP tail racing split, the free of the old head, and its
/// reallocation as a hugetlbfs head (the "longstanding theoretical race" of 27c73ae7's
/// message: `page_head` may be a head again, of a smaller hugetlbfs page, when the tail put
/// pins and locks it).
///
/// * setup: THP H (frames 0–3) mapped once; CPU0 holds a gup pin on tail T2 (frame 2).
/// * CPU0: `put_page(T2)`.
/// * CPU1: `split_huge_page(H)`, unmaps the four pages (H, T1, T3 are freed), grows the
///   hugetlb pool (the order-1 block at frames 0–1: H is a hugetlbfs head now), takes that
///   page and drops it again (`free_huge_page` puts it back in the pool).
/// * then: the pool shrinks to 0.
/// * end: every frame back in the buddy allocator, none freed while referenced.
pub fn thp_put_vs_split_realloc<V: Compound>() {
    let m = realloc_machine();
    stale_tail_vs_reuse::<V, _>(&m, 2, put_pin::<V>, reuse_as_hugetlbfs::<V>);
    set_max_huge_pages(&m, 0);
    invariants::all_pages_freed(&m);
}

/// `split_huge_page(head)` of a THP mapped once, then munmap of all its pages.
fn split_and_unmap<V: Compound>(m: &Mem, head: PagePtr, map: PageRef) {
    split_huge_page::<V>(m, head);
    let tail_maps = split_mappings(m, head);
    unmap::<V>(m, map);
    for t in tail_maps {
        unmap::<V>(m, t);
    }
}

/// The frame shared by the models of a stale tail get or put against the reuse of the old
/// head (compound.6, .8, .9-realloc, .10, .14): a THP mapped once; CPU0 holds a gup pin on tail
/// `head + tail` and runs `stale` with it; CPU1 runs `split_huge_page()`, unmaps every page and
/// then `reuse` (what takes the freed frames again). Returns what `reuse` returned; the
/// caller's end steps follow the join.
fn stale_tail_vs_reuse<V: Compound, R: Send + 'static>(
    m: &Arc<Mem>,
    tail: usize,
    stale: fn(&Mem, PagePtr, PageRef),
    reuse: fn(&Mem) -> R,
) -> R {
    let (head, map) = alloc_thp::<V>(m, true);
    let page = head + tail;
    let pin = gup_pin::<V>(m, page);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || stale(&m0, page, pin));
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        split_and_unmap::<V>(&m1, head, map);
        reuse(&m1)
    });
    join(cpu0);
    join(cpu1)
}

/// CPU0 of a stale-put model: `put_page(page)` of its pin.
fn put_pin<V: Compound>(m: &Mem, _page: PagePtr, pin: PageRef) {
    pin.put::<V>(m);
}

/// CPU0 of a stale-get model: `get_page(page)`, `put_page(page)`, then `put_page(page)` of its
/// pin.
fn get_put_put_pin<V: Compound>(m: &Mem, page: PagePtr, pin: PageRef) {
    let r = PageRef::get::<V>(m, page);
    r.put::<V>(m);
    pin.put::<V>(m);
}

/// CPU1's reuse as hugetlbfs: the pool grows by one (the order-1 block at frames 0–1: the old
/// head is a hugetlbfs head now), the page is taken from it and dropped again
/// (`free_huge_page` puts it back in the pool).
fn reuse_as_hugetlbfs<V: Compound>(m: &Mem) {
    if alloc_fresh_huge_page::<V>(m) {
        if let Some(h) = alloc_huge_page(m) {
            PageRef::adopt(m, h).put::<V>(m);
        }
    }
}

/// compound.8 — H-8: `get_page`/`put_page` of a pinned THP tail racing split, the free of the old
/// head and its reallocation as a plain `__GFP_COMP` page of smaller order. 3.13's
/// `prep_new_page()` makes the page refcounted before `prep_compound_page()`, so the tail
/// get's `get_page_unless_zero(page_head)` can succeed on the new page while it is built: its
/// `compound_lock()` races the non-atomic `__SetPageHead()`, and its `put_page(page_head)`
/// may test PageCompound before PG_head is set. The tail put reaches 27c73ae7's `skip_lock`,
/// which frees such a head through `free_compound_page()`.
///
/// * setup: THP H (frames 0–3) mapped once; CPU0 holds a gup pin on tail T2 (frame 2).
/// * CPU0: `get_page(T2)`, `put_page(T2)`, `put_page(T2)` (its pin).
/// * CPU1: `split_huge_page(H)`, unmaps the four pages (H, T1, T3 are freed), allocates an
///   order-1 `__GFP_COMP` page (frames 0–1: H is a head again) and frees it
///   (`put_page` -> `free_compound_page`).
/// * end: every frame back in the buddy allocator in its free state.
pub fn thp_get_put_vs_split_realloc_compound<V: Compound>() {
    let m = realloc_machine();
    stale_tail_vs_reuse::<V, _>(&m, 2, get_put_put_pin::<V>, |m1| {
        if let Some(p) = alloc_pages_for::<V>(m1, 1, true) {
            PageRef::adopt(m1, p).put::<V>(m1);
        }
    });
    invariants::all_pages_freed(&m);
}

/// A page fault on anonymous memory, `do_anonymous_page()` (mm/memory.c; its order read in
/// 3.4.39/3.4.68 and 3.10.9 trees, the later versions the variants stand for not read), as far
/// as its new page goes: `alloc_zeroed_user_highpage_movable()` (an order-0 allocation, refcount
/// 1), `__SetPageUptodate(page)` (non-atomic), and under the pte lock
/// `page_add_new_anon_rmap(page)`. The memcg charge, the mm counter and the pte itself are not
/// modelled (no page tables in this area: a mapping is its reference and its `_mapcount`). The
/// mapping's reference is returned, dropped by [`unmap`].
fn do_anonymous_page<V: Compound>(m: &Mem) -> PageRef {
    let Some(page) = alloc_pages_for::<V>(m, 0, false) else {
        harness_fail("do_anonymous_page", "no free page".to_string())
    };
    __SetPageUptodate(m.pg(page));
    ktrace!(
        "do_anonymous_page",
        "__SetPageUptodate({page:?}) (non-atomic)"
    );
    page_add_new_anon_rmap(m, page);
    PageRef::adopt(m, page)
}

/// compound.14 — `put_page` of a pinned THP tail racing split, the free of the old head and its
/// reuse as an order-0 anonymous page by a page fault: the stale tail put pins the frame with
/// `get_page_unless_zero(page_head)` (which succeeds on any page in use) and takes
/// `compound_lock()` on it, while the new owner sets PG_uptodate with the non-atomic
/// `__SetPageUptodate()`, a load and a store of the same `flags` word.
///
/// * setup: THP H (frames 0–1) mapped once; CPU0 holds a gup pin on its tail T.
/// * CPU0: `put_page(T)` (its pin).
/// * CPU1: `split_huge_page(H)`, unmaps both pages (H is freed), a page fault takes frame 0 (H)
///   as an anonymous page, then the page is unmapped (`page_remove_rmap()`, `put_page()`).
/// * end: every frame back in the buddy allocator in its free state.
pub fn thp_put_vs_split_realloc_anon<V: Compound>() {
    let m = machine();
    stale_tail_vs_reuse::<V, _>(&m, 1, put_pin::<V>, |m1| {
        let anon = do_anonymous_page::<V>(m1);
        unmap::<V>(m1, anon);
    });
    invariants::all_pages_freed(&m);
}

/// compound.10 — `get_page` on a pinned THP tail racing split, the free of the old head and its
/// reallocation as a hugetlbfs head: the model that needs 27c73ae7's PG_tail re-check on the
/// get side (`PageHeadHuge(page_head)` true, `PageTail(page)` false: "page" was a THP tail).
///
/// * setup: THP H (frames 0–3) mapped once; CPU0 holds a gup pin on tail T2.
/// * CPU0: `get_page(T2)`, `put_page(T2)`, `put_page(T2)` (its pin).
/// * CPU1: `split_huge_page(H)`, unmaps the four pages, grows the hugetlb pool (frames 0–1),
///   takes the hugetlbfs page and drops it again.
/// * then: the pool shrinks to 0. End: every frame back in the buddy allocator.
pub fn thp_get_vs_split_realloc<V: Compound>() {
    let m = realloc_machine();
    stale_tail_vs_reuse::<V, _>(&m, 2, get_put_put_pin::<V>, reuse_as_hugetlbfs::<V>);
    set_max_huge_pages(&m, 0);
    invariants::all_pages_freed(&m);
}

/// compound.9 (slab reallocation) — `put_page` of a pinned THP tail racing split, the free of the
/// old head and its reallocation as an order-1 SLUB slab: the slab path of
/// `put_compound_page()` must re-check PG_tail (Andrea's objection to v1 of 5bf5f03c).
///
/// * setup: THP H (frames 0–3) mapped once; CPU0 holds a gup pin on tail T2.
/// * CPU0: `put_page(T2)`.
/// * CPU1: `split_huge_page(H)`, unmaps the four pages, `new_slab()` of order 1 (frames 0–1:
///   H is a slab head now).
/// * then: the slab is destroyed (`__free_slab`). End: every frame back in the buddy allocator.
pub fn thp_put_vs_split_realloc_slab<V: Compound>() {
    let m = realloc_machine();
    if let Some(slab) = stale_tail_vs_reuse::<V, _>(&m, 2, put_pin::<V>, |m1| new_slab::<V>(m1, 1))
    {
        __free_slab(&m, slab);
    }
    invariants::all_pages_freed(&m);
}

/// The compound.9 and compound.11 machine: one order-1 slab (frames 0–1); SLUB's
/// `page->counters` covers the head's `_count` when `counters_cover_count` (x86-64), not with a
/// 4-byte `counters`.
pub fn slab_machine(counters_cover_count: bool) -> Arc<Mem> {
    Arc::new(Mem::new(MemConfig {
        nr_pages: 2,
        thp_order: 1,
        huge_order: 1,
        counters_cover_count,
    }))
}

/// A SLUB update of a slab's `counters` in the shape every caller of `__cmpxchg_double_slab()`
/// has (`acquire_slab()`, `deactivate_slab()`, `unfreeze_partials()`; `__slab_free()` and
/// `get_freelist()` through its irq-saving twin): `counters = page->counters; new.counters =
/// counters;`, a change of its SLUB fields (here `__slab_free()`'s `new.inuse--`), and the
/// fallback, retried until it succeeds (the callers' `do { ... } while (!...)`). A harness, not
/// a kernel function: which caller runs does not matter to the `_count` half of the word, which
/// every caller copies from its snapshot (proofs/compound.11.md, "The caller").
fn slub_update_counters<V: Compound>(m: &Mem, page: PagePtr) {
    loop {
        let counters = page_counters(m, page);
        let new = counters.dec_inuse();
        ktrace!(
            "slub caller",
            "counters = {page:?}->counters = {counters}; new.counters = {new}"
        );
        if V::__cmpxchg_double_slab(m, page, counters, new) {
            break;
        }
    }
}

/// A driver's `put_page()` on the tail of an order-1 slab racing a SLUB update of the head's
/// `counters` under `slab_lock()`, then the slab's destruction (compound.9 and compound.11).
fn slab_tail_put_vs_slub_update<V: Compound>(counters_cover_count: bool) {
    let m = slab_machine(counters_cover_count);
    let Some(slab) = new_slab::<V>(&m, 1) else {
        harness_fail("new_slab", "no free order-1 block".to_string())
    };
    let tail = slab + 1;
    let pin = PageRef::get::<V>(&m, tail);

    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        pin.put::<V>(&m0);
    });
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        slub_update_counters::<V>(&m1, slab);
    });
    join(cpu0);
    join(cpu1);
    __free_slab(&m, slab);
    invariants::all_pages_freed(&m);
}

/// compound.9 — H-6: a driver's `put_page()` on the tail of an order-1 SLUB slab (kmalloc memory
/// it pinned with `get_page()` for DMA, as Open vSwitch did) racing SLUB's `slab_lock()` /
/// `slab_unlock()` of the same head page (the `__cmpxchg_double_slab()` fallback). Before
/// 5bf5f03c the put takes `compound_lock()`, an atomic bit operation on the head's flags, and
/// `slab_unlock()` rewrites the whole word non-atomically: one of the two updates is lost.
/// A 4-byte `page->counters` (32-bit, or 64-bit without both cmpxchg_double options after
/// abca7c496584): the head's `_mapcount` word alone.
///
/// * setup: `new_slab()` of order 1 (head S, tail T, `__GFP_COMP`); the driver's `get_page(T)`.
/// * CPU0: the driver's `put_page(T)`.
/// * CPU1: a SLUB update of S's counters: the snapshot, then `__cmpxchg_double_slab(S)`:
///   `slab_lock(S)`, the compare and store of `counters`, `slab_unlock(S)`, until it succeeds.
/// * then: the slab is destroyed (`__free_slab(S)`): `free_pages_check()` finds PG_locked or
///   PG_compound_lock left set ("Bad page state") if an update was lost.
pub fn slab_tail_put_vs_slab_unlock<V: Compound>() {
    slab_tail_put_vs_slub_update::<V>(false)
}

/// compound.11 — the same race on x86-64 with a debug cache (or a CPU without CMPXCHG16B):
/// `page->counters` is an 8-byte `unsigned long` over the head's `_mapcount` word and its
/// `_count`, and the fallback's `page->counters = counters_new` writes back the `_count` the
/// update read, undoing the put's `get_page_unless_zero()` or `put_page_testzero()` of the head
/// that ran between the compare and the store: the slab leaks, or (where the put pinned the
/// head first, 27c73ae7) may be freed while in use. The bug Pravin B Shelar's abca7c496584
/// fixed for the configurations with a 4-byte `counters` but left for this one, fixed by Dave
/// Hansen's a03208652dad.
pub fn slab_tail_put_vs_counters_store<V: Compound>() {
    slab_tail_put_vs_slub_update::<V>(true)
}

/// The compound.7 machine: one order-1 block (frames 0–1), never used before.
pub fn pfn_machine() -> Arc<Mem> {
    Arc::new(Mem::new(MemConfig {
        nr_pages: 2,
        thp_order: 1,
        huge_order: 1,
        counters_cover_count: false,
    }))
}

/// compound.7 — H-7: a pfn scanner's `page_count()` on a page nobody holds (compaction's
/// `isolate_migratepages_range()` -> `balloon_page_movable()`, bf6bddf1924e) racing
/// `prep_compound_page()` of a new `__GFP_COMP` allocation: `compound_head()` may see PG_tail
/// and a `first_page` not written yet (NULL on a never-used frame).
///
/// * CPU1: `alloc_pages(__GFP_COMP, 1)` (frames 0–1).
/// * CPU0: `page_count(page#1)`.
/// * then: the page is freed. End: every frame back in the buddy allocator.
pub fn pfn_scan_vs_prep_compound<V: Compound>() {
    let m = pfn_machine();
    let scanned = m.pfn_to_page(1);

    // The allocator is started first: loom 0.7.3's DPOR keeps one last access per atomic, so
    // a scanner load that ran first would be shadowed by the allocator's own loads of the same
    // words (check_new_page, __SetPageTail's read) and never be scheduled after its stores
    // (proofs/compound.7.md, "Bound").
    let m1 = m.clone();
    let cpu1 = spawn_cpu(1, move || {
        alloc_pages_for::<V>(&m1, 1, true).map(|p| PageRef::adopt(&m1, p))
    });
    let m0 = m.clone();
    let cpu0 = spawn_cpu(0, move || {
        // isolate_migratepages_range(): !PageLRU(page) -> balloon_page_movable(page) ->
        // page_count(page) == 1
        let _ = page_count::<V>(&m0, scanned);
    });
    join(cpu0);
    if let Some(r) = join(cpu1) {
        r.put::<V>(&m);
    }
    invariants::all_pages_freed(&m);
}

/// One step of the sequential model (proptest drives random sequences of these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeqOp {
    /// `get_page(tail)` of the hugetlbfs page (`thp == false`) or of the THP.
    GetTail { thp: bool },
    /// A gup pin on the tail: gup_fast (`gup_huge_pmd`) for hugetlbfs, `get_page_foll` for THP.
    Gup { thp: bool },
    /// `put_page` of the i-th reference held (modulo how many are held).
    Put(usize),
    /// `split_huge_page(THP)` (once; later ones do nothing).
    Split,
}

/// The S1 sequential machine: THP at frames 0–1 (unmapped, owner refcount 1), a hugetlbfs page
/// at frames 2–3 (mapped once), two spare frames.
///
/// Reference model: the list of references held. After every step the kernel's counts must
/// agree with it (a hugetlbfs head and an unsplit THP head carry 1 + every pin on the page;
/// a split THP tail carries its own pins); at the end every reference is dropped, both pages
/// are unmapped and freed, the pool is shrunk to 0 and every frame must be back in the buddy
/// allocator with no "Bad page state".
pub fn sequential<V: Compound>(ops: &[SeqOp]) {
    let m = Arc::new(Mem::new(MemConfig {
        nr_pages: 6,
        thp_order: 1,
        huge_order: 1,
        counters_cover_count: false,
    }));
    let (thp, thp_owner) = alloc_thp::<V>(&m, false);
    let huge = hugetlb_page::<V>(&m);
    atomic_set(&m.pg(huge)._mapcount, 0);
    let huge_map = PageRef::adopt(&m, huge);
    let mut held: Vec<PageRef> = Vec::new();
    let mut split = false;
    for op in ops {
        // A split THP tail is a page of its own: only a holder of a reference may get another
        // (nobody maps the model's THP), so such steps are skipped when nobody holds it.
        let split_tail_unheld = split && !held.iter().any(|r| r.page() == (thp + 1));
        match *op {
            SeqOp::GetTail { thp: true } | SeqOp::Gup { thp: true } if split_tail_unheld => {}
            SeqOp::GetTail { thp: t } => {
                held.push(PageRef::get::<V>(&m, if t { thp + 1 } else { huge + 1 }))
            }
            SeqOp::Gup { thp: true } => {
                if split {
                    // after split the pmd is gone: gup takes a normal reference on the page
                    held.push(PageRef::get::<V>(&m, thp + 1));
                } else {
                    held.push(gup_pin::<V>(&m, thp + 1));
                }
            }
            SeqOp::Gup { thp: false } => {
                let page = gup::gup_huge_pmd::<V>(&m, huge, huge + 1);
                held.push(PageRef::adopt(&m, page));
            }
            SeqOp::Put(i) => {
                if !held.is_empty() {
                    let r = held.remove(i % held.len());
                    r.put::<V>(&m);
                }
            }
            SeqOp::Split => {
                if !split {
                    split_huge_page::<V>(&m, thp);
                    split = true;
                }
            }
        }
        // Reference model vs kernel counts.
        let pins = |p: PagePtr| held.iter().filter(|r| r.page() == p).count() as i32;
        let expect = |what: &str, page: PagePtr, want: i32| {
            let got = page_count_raw(m.pg(page));
            if got != want {
                fail(
                    "sequential",
                    Invariant::RefcountBalance,
                    format!(
                        "after {op:?}: {what} {page:?}._count {got}, reference model says {want}"
                    ),
                );
            }
        };
        expect("hugetlbfs head", huge, 1 + pins(huge) + pins(huge + 1));
        if split {
            expect("THP head", thp, 1 + pins(thp));
            expect("split THP tail", thp + 1, pins(thp + 1));
        } else {
            expect("THP head", thp, 1 + pins(thp) + pins(thp + 1));
        }
    }
    for r in held {
        r.put::<V>(&m);
    }
    thp_owner.put::<V>(&m); // the THP owner's reference
    unmap::<V>(&m, huge_map); // munmap of the hugetlbfs page
    set_max_huge_pages(&m, 0);
    invariants::all_pages_freed(&m);
}

/// proptest's operations for [`sequential`].
fn seq_op() -> impl Strategy<Value = SeqOp> {
    prop_oneof![
        any::<bool>().prop_map(|thp| SeqOp::GetTail { thp }),
        any::<bool>().prop_map(|thp| SeqOp::Gup { thp }),
        (0usize..8).prop_map(SeqOp::Put),
        Just(SeqOp::Split),
    ]
}

/// [`sequential`] on random sequences of up to 24 steps.
fn sequential_proptest<V: Compound>(settings: &Settings) -> Exploration {
    sequential::run(
        settings,
        prop::collection::vec(seq_op(), 0..24),
        sequential::<V>,
    )
}
