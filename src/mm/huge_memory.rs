//! mm/huge_memory.c (Linux 3.9–3.12): `__split_huge_page_refcount`, the THP split that hands
//! each tail its own reference count.

use super::swap::{put_page, Compound};
use super::Mem;
use crate::page::*;
use crate::sync::{
    atomic_add, atomic_read, atomic_set, atomic_sub, bit_spin_lock, bit_spin_unlock, smp_mb,
    smp_wmb, spin_lock, spin_unlock, READ_ONCE, WRITE_ONCE,
};
use crate::trace;
use crate::{ktrace, BUG_ON};

/// `compound_lock(page)` + `compound_lock_irqsave(page)` (include/linux/mm.h, 2.6.38–3.4):
/// `bit_spin_lock(PG_compound_lock, &page->flags)`; the irqsave form, which put_compound_page()
/// and __get_page_tail() call, is `local_irq_save()` + this lock. 5bf5f03c (3.5) adds
/// `VM_BUG_ON(PageSlab(page))`: its variants carry that text.
pub fn compound_lock(m: &Mem, page: PagePtr) {
    bit_spin_lock(PG_COMPOUND_LOCK, &m.pg(page).flags);
    trace::record_lock(
        "compound_lock",
        || format!("{page:?} PG_compound_lock"),
        true,
        || format!("locked {page:?}"),
    );
    // LEFT OUT: compound_lock_irqsave()'s `local_irq_save(flags)` and its `flags` result: no
    // interrupts are modelled (proofs/README.md); its `compound_lock(page)` is the lock above
}

/// `compound_unlock(page)` + `compound_unlock_irqrestore(page, flags)` (include/linux/mm.h,
/// 2.6.38–3.4): `bit_spin_unlock(PG_compound_lock, ...)`; the irqrestore form is this unlock +
/// `local_irq_restore()`.
pub fn compound_unlock(m: &Mem, page: PagePtr) {
    let old = bit_spin_unlock(PG_COMPOUND_LOCK, &m.pg(page).flags);
    trace::record_lock(
        "compound_unlock",
        || format!("{page:?} PG_compound_lock"),
        false,
        || {
            format!(
                "unlocked {page:?} (flags {:#x} -> {:#x})",
                *old,
                *old & !bit(PG_COMPOUND_LOCK)
            )
        },
    );
    // MODEL: the waiters wake after the event is recorded (src/sync `BitUnlocked`: the trace
    // shows the unlock before the next holder's lock).
    drop(old);
    // LEFT OUT: compound_unlock_irqrestore()'s `local_irq_restore(flags)`: no compound model
    // raises an interrupt; its `compound_unlock(page)` is the unlock above
}

/// `__split_huge_page_refcount(page)` (mm/huge_memory.c, 3.9–3.12; `Compound::__split_huge_page_refcount`
/// calls it unless a mutant overrides it).
///
/// Left out (see proofs/README.md): memcg fixup, LRU insertion of the tails
/// (`lru_add_page_tail`; the S1 models keep the THP off the LRU), `mapping`/`index` copies,
/// and the NR_ANON_* statistics. The steps that touch what get/put read are all here, in the
/// kernel's order.
pub fn __split_huge_page_refcount<V: Compound>(m: &Mem, page: PagePtr) {
    let head = m.pg(page);
    // LEFT OUT: `zone = page_zone(page)`: the model has one zone, `m.zone`
    let mut tail_count = 0;
    let hpage_pmd_nr = m.hpage_pmd_nr();

    // prevent PageLRU to go away from under us, and freeze lru stats
    let lru_lock = spin_lock(&m.zone.lru_lock);
    // LEFT OUT: (3.7+) `lruvec = mem_cgroup_page_lruvec(page, zone)`: no memcg in the model
    V::compound_lock(m, page);

    // LEFT OUT: `mem_cgroup_split_huge_fixup(page)` (no memcg), and the C's loop header
    // `for (i = HPAGE_PMD_NR - 1; i >= 1; i--)`, which is
    // MODEL: this loop: i from HPAGE_PMD_NR - 1 down to 1
    for i in (1..hpage_pmd_nr).rev() {
        let tail_ptr = page + i;
        let page_tail = m.pg(tail_ptr);

        // tail_page->_mapcount cannot change
        BUG_ON!("__split_huge_page_refcount", page_mapcount(page_tail) < 0);
        tail_count += page_mapcount(page_tail);
        // check for overflow
        BUG_ON!("__split_huge_page_refcount", tail_count < 0);
        BUG_ON!("__split_huge_page_refcount", page_count_raw(page_tail) != 0);
        // tail_page->_count is zero and not changing from under us, but
        // get_page_unless_zero() may be running on it: atomic_add, not atomic_set.
        // LEFT OUT: `atomic_add(page_mapcount(page) + page_mapcount(page_tail) + 1,
        // &page_tail->_count);` as one statement: it is
        // MODEL: these three steps (the same two reads, then the add; values kept for the trace)
        let (head_maps, tail_pins) = (page_mapcount(head), page_mapcount(page_tail));
        let add = head_maps + tail_pins + 1;
        let old = atomic_add(add, &page_tail._count);
        ghost_count_op(
            page_tail,
            tail_ptr,
            "__split_huge_page_refcount",
            old,
            old + add,
        );
        ktrace!(
            "__split_huge_page_refcount",
            "{tail_ptr:?}._count {old} -> {} (mapcount(head) {head_maps} + tail pins {tail_pins} + 1)",
            old + add
        );

        // after clearing PageTail the gup refcount can be released
        smp_mb();

        // page_tail->flags &= ~PAGE_FLAGS_CHECK_AT_PREP; |= head's referenced, swapbacked,
        // mlocked, uptodate; |= PG_dirty. Non-atomic, as in the kernel.
        // LEFT OUT: the C's three plain read-modify-writes of page_tail->flags (no barrier
        // between them: the compiler may fuse them into one load and one store), and in the
        // 3.10+ text the PG_active/PG_unevictable copy and the __PG_HWPOISON retention: the
        // compound models never set those flags
        // MODEL: the fused form: one load of each word and one store, non-atomic
        let keep = READ_ONCE(&head.flags)
            & (bit(PG_REFERENCED) | bit(PG_SWAPBACKED) | bit(PG_MLOCKED) | bit(PG_UPTODATE));
        let f = READ_ONCE(&page_tail.flags);
        WRITE_ONCE(
            &page_tail.flags,
            (f & !PAGE_FLAGS_CHECK_AT_PREP) | keep | bit(PG_DIRTY),
        );
        ktrace!("__split_huge_page_refcount", "ClearPageTail({tail_ptr:?})");

        // clear PageTail before overwriting first_page
        smp_wmb();

        // The mapcount is only accounted in the head page; it is transferred to the tails.
        // MODEL: `page_tail->_mapcount = page->_mapcount;`, a plain copy of the atomic_t
        atomic_set(&page_tail._mapcount, atomic_read(&head._mapcount));
        // LEFT OUT: `BUG_ON(page_tail->mapping);`: no model sets a tail's mapping before this
        // copy, and the free clears an anon one
        // MODEL: only in a run that models the word (Mem::models_mapping)
        if m.models_mapping() {
            set_page_mapping(page_tail, page_mapping_word(head));
        }
        // LEFT OUT: the `index` copy, `page_nid_xchg_last()` (3.8+), the
        // BUG_ON(!PageAnon/!PageUptodate/!PageDirty/!PageSwapBacked) checks and
        // `lru_add_page_tail()`: the model's THP has no index, page-cache or LRU state
    }
    let old = atomic_sub(tail_count, &head._count);
    ghost_count_op(
        head,
        page,
        "__split_huge_page_refcount",
        old,
        old - tail_count,
    );
    ktrace!(
        "__split_huge_page_refcount",
        "{page:?}._count {old} -> {} (tail pins moved)",
        old - tail_count
    );
    BUG_ON!("__split_huge_page_refcount", atomic_read(&head._count) <= 0);

    // LEFT OUT: the NR_ANON_TRANSPARENT_HUGEPAGES/NR_ANON_PAGES statistics (not modelled),
    // and `ClearPageCompound(page)` as one call: it is
    // MODEL: its body, written out below
    // ClearPageCompound(page): BUG_ON(!PageHead(page)); ClearPageHead(page);
    BUG_ON!("__split_huge_page_refcount", !PageHead(head));
    ClearPageHead(head);
    ktrace!("__split_huge_page_refcount", "ClearPageCompound({page:?})");
    V::compound_unlock(m, page);
    spin_unlock(lru_lock);

    for i in 1..hpage_pmd_nr {
        let tail_ptr = page + i;
        BUG_ON!(
            "__split_huge_page_refcount",
            page_count_raw(m.pg(tail_ptr)) <= 0
        );
        // Tail pages may be freed if there wasn't any mapping; freeing takes the lru_lock,
        // so the put of the tails comes after the split is complete.
        put_page::<V>(m, tail_ptr);
    }
    // LEFT OUT: the final `BUG_ON(page_count(page) <= 0);`: a check only; the caller's pin on
    // the head keeps it, and the ghost count checks report a lost head reference
}

/// `split_huge_page_to_list(page, list)` (mm/huge_memory.c, 3.10) as `split_huge_page(page)`
/// (include/linux/huge_mm.h: `list` NULL), reduced to the refcount split: the anon_vma walk and
/// pmd splitting (`__split_huge_page_splitting` / `_map`) serialize split against
/// `get_page_foll` and gup_fast, which the S1 models do not run against split.
pub fn split_huge_page<V: Compound>(m: &Mem, page: PagePtr) {
    ktrace!("split_huge_page", "{page:?}");
    // LEFT OUT: the huge zero page and PageAnon/PageSwapBacked checks, the anon_vma reference
    // and write lock, the PageCompound re-check, THP_SPLIT and the return value: the model's
    // THP has no anon_vma and no mappings, and no other CPU splits it
    // MODEL: of `__split_huge_page(page, anon_vma, list)` only its __split_huge_page_refcount()
    // step runs (no pmd to mark splitting or to remap)
    V::__split_huge_page_refcount(m, page);
}
