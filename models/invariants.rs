//! End-of-scenario invariants shared by the models. Each names the kernel fact it checks.

use mmcheck::mm::Mem;
use mmcheck::page::*;
use mmcheck::sync::{atomic_read, spin_lock, READ_ONCE};
use mmcheck::trace::{fail, Invariant};

/// Every frame the buddy allocator holds is in the state the kernel leaves a free page in
/// (`free_pages_check()` passed, `destroy_compound_page()` ran): `_count` 0, `_mapcount` -1,
/// no flag of PAGE_FLAGS_CHECK_AT_PREP (PG_head, PG_tail, PG_compound_lock, PG_slab ...);
/// and the free lists agree with the ghost state (a frame is on them exactly when no owner has
/// it).
pub fn free_frames_clean(m: &Mem) {
    let area = spin_lock(&m.zone.lock);
    for (ptr, p) in m.map.iter() {
        let pfn = m.map.pfn(ptr);
        let free = area.free[pfn];
        if free == p.ghost_allocated() {
            fail(
                "end of scenario",
                Invariant::RefcountBalance,
                format!(
                    "{ptr:?}: buddy free list says {}, but the frame is {} (ghost)",
                    if free { "free" } else { "allocated" },
                    if free { "owned" } else { "free" }
                ),
            );
        }
        if free {
            let (count, mapcount, flags) = (
                page_count_raw(p),
                atomic_read(&p._mapcount),
                READ_ONCE(&p.flags),
            );
            if count != 0 || mapcount != -1 || flags & PAGE_FLAGS_CHECK_AT_PREP != 0 {
                fail(
                    "end of scenario",
                    Invariant::BadPage,
                    format!(
                        "free {ptr:?} not in free-page state: _count {count} _mapcount {mapcount} flags {flags:#x}"
                    ),
                );
            }
        }
    }
}

/// Every page frame went back to the buddy allocator: references balanced, nothing leaked.
/// A page still allocated with no holder left is a leaked reference ("refcount balance").
/// Then every free frame is in its free state ([`free_frames_clean`]).
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
    free_frames_clean(m);
}
