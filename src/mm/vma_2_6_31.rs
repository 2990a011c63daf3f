//! The anon rmap of Linux 2.6.31 (mm/rmap.c, the anon_vma parts of mm/mmap.c and
//! mm/migrate.c): a vma with an anon_vma is on that anon_vma's list by its `anon_vma_node`;
//! `__insert_vm_struct` links a split-off vma there inside `vma_adjust` (`__vma_link` ->
//! `__anon_vma_link`); `vma_adjust` removes a merged vma with `__anon_vma_merge` under the
//! lock; the walks take `anon_vma->lock` of the page's anon_vma.
//!
//! Sources (research notes s3.md §1): mm/mmap.c and mm/rmap.c read from a 2.6.30/2.6.31
//! tree, mm/migrate.c from a 2.6.29/2.6.30 tree (`remove_anon_migration_ptes` believed
//! unchanged through 2.6.31: UNVERIFIED for the exact release).

use super::vma::*;
use crate::ktrace;
use crate::sync::{spin_lock, SpinGuard, READ_ONCE, WRITE_ONCE};
use crate::trace::{fail, Invariant};
use crate::BUG_ON;

/// The 2.6.31 anon rmap.
pub struct AnonVmaList;

/// `__anon_vma_link(vma)` (mm/rmap.c, 2.6.31): `list_add_tail(&vma->anon_vma_node,
/// &anon_vma->head)` if the vma has an anon_vma. Caller holds the lock (or, for a vma nobody
/// can see yet, needs none).
pub fn __anon_vma_link(mm: &Mm, vma: VmaId) {
    if let Some(anon_vma) = mm.vmas[vma].anon_vma.get() {
        // LEFT OUT: `if (anon_vma)` is the `if let` above (paired with the declaration).
        list_add_tail(
            mm,
            "__anon_vma_link",
            mm.anon_vma_node(vma),
            mm.anon_vma_head(anon_vma),
        );
        ktrace!(
            "__anon_vma_link",
            "vma#{vma} linked on anon_vma#{anon_vma}'s list"
        );
    }
}

/// `__anon_vma_merge(vma, next)` (mm/rmap.c, 2.6.31). Caller holds the lock.
pub fn __anon_vma_merge(mm: &Mm, vma: VmaId, next: VmaId) {
    BUG_ON!(
        "__anon_vma_merge",
        mm.vmas[vma].anon_vma.get() != mm.vmas[next].anon_vma.get()
    );
    list_del(mm, "__anon_vma_merge", mm.anon_vma_node(next));
    ktrace!("__anon_vma_merge", "vma#{next} off its anon_vma's list");
}

/// `__vma_link(mm, vma, prev, rb_link, rb_parent)` (mm/mmap.c, 2.6.31):
/// `__vma_link_list`, `__vma_link_rb` (not modelled), `__anon_vma_link`.
pub fn __vma_link(mm: &Mm, vma: VmaId, prev: Option<VmaId>) {
    __vma_link_list(mm, vma, prev);
    // LEFT OUT: `__vma_link_rb(mm, vma, rb_link, rb_parent)`: no rb-tree in the models (vmas
    // are found by walking the mm list).
    __anon_vma_link(mm, vma);
}

/// `__insert_vm_struct(mm, vma)` (mm/mmap.c, 2.6.31): "Helper for vma_adjust in the
/// split_vma insert case: insert vm structure into list and rbtree and anon_vma, but it has
/// already been inserted into prio_tree earlier."
pub fn __insert_vm_struct(mm: &Mm, vma: VmaId) {
    // LEFT OUT: `__vma = find_vma_prepare(mm, vma->vm_start, &prev, &rb_link, &rb_parent)` is
    // the `find_vma_prev` list walk below (its `prev`); the `BUG_ON(__vma && __vma->vm_start
    // < vma->vm_end)` overlap check: the models' inserts never overlap.
    // MODEL: `prev` by a walk of the mm list (no rb-tree).
    let prev = find_vma_prev(
        mm,
        mm.vmas[vma].vm_mm.get(),
        READ_ONCE(&mm.vmas[vma].vm_start),
    );
    __vma_link(mm, vma, prev);
    // LEFT OUT: `mm->map_count++`: no map count in the models.
}

/// `page_lock_anon_vma(page)` + `page_unlock_anon_vma(anon_vma)` (mm/rmap.c, 2.6.31):
/// "Getting a lock on a stable anon_vma from a page off the LRU is tricky: page_lock_anon_vma
/// rely on RCU to guard against the races." The lock is returned as a guard: dropping it is
/// `page_unlock_anon_vma()` (in the callers, `drop(lock)`).
pub fn page_lock_anon_vma(mm: &Mm, page: PageId) -> Option<(AnonVmaId, SpinGuard<'_, ()>)> {
    // LEFT OUT: `rcu_read_lock()`: anon_vma_cachep is SLAB_DESTROY_BY_RCU, so the read-side
    // section keeps a freed anon_vma an anon_vma (it may be reused as another); the models'
    // anon_vmas are never returned to the page allocator, so every reader has that without it.
    // MODEL: `anon_mapping = page->mapping; if (!(anon_mapping & PAGE_MAPPING_ANON)) goto out;`
    // and the cast are `page_anon_vma()`, whose None returns NULL (`?`).
    let anon_vma = page_anon_vma(mm, page)?;
    if !page_mapped(mm, page) {
        // LEFT OUT: `goto out; ... out: rcu_read_unlock(); return NULL;` is this return (no
        // RCU); the cast, `spin_lock(&anon_vma->lock)` and `return anon_vma` are the last line.
        return None;
    }
    // MODEL: `spin_lock(&anon_vma->lock); return anon_vma;` with the lock as a guard.
    // LEFT OUT: `page_unlock_anon_vma`'s `spin_unlock(&anon_vma->lock)` is the guard's drop in
    // the caller (the anon_vma's own lock: the address cannot differ from the one locked);
    // its `rcu_read_unlock()`: see above.
    Some((anon_vma, walk_lock(mm, anon_vma)))
}

/// `spin_lock(&anon_vma->lock)` as the walks take it.
fn walk_lock(mm: &Mm, anon_vma: AnonVmaId) -> SpinGuard<'_, ()> {
    spin_lock(&mm.anon_vmas[anon_vma].lock)
}

/// The vma of an `anon_vma_node` met on a walk.
pub fn vma_of(mm: &Mm, func: &'static str, node: usize) -> VmaId {
    match mm.node(node) {
        Node::VmaNode(v) => v,
        other => fail(
            func,
            Invariant::ListCorruption,
            format!("anon_vma list runs into {other:?}"),
        ),
    }
}

/// `page_referenced_one(page, vma, &mapcount, vm_flags)` (mm/rmap.c, 2.6.31), reduced to the
/// lookup: 1 if `page` is mapped in `vma` (`*mapcount` counts down).
pub fn page_referenced_one(mm: &Mm, page: PageId, vma: VmaId, mapcount: &mut usize) -> usize {
    // LEFT OUT: `mm = vma->vm_mm` (`pte_slot` reads the vma's mm); `referenced = 0`: the
    // model returns its count as literals.
    let address = vma_address(mm, page, vma);
    if address == EFAULT {
        // MODEL: `goto out; ... out: return referenced;` with nothing referenced: 0.
        return 0;
    }
    // LEFT OUT: `pte = page_check_address(page, mm, address, &ptl, 0)` is this test.
    let Some(ptl) = page_check_address(mm, page, vma, address) else {
        // MODEL: `if (!pte) goto out;`: 0.
        return 0;
    };
    // LEFT OUT: the VM_LOCKED branch (`*mapcount = 1; *vm_flags |= VM_LOCKED;`, the tool pairs
    // its first line with the decrement below): the models' vmas are not mlocked; the young
    // bit test and the swap token: the model counts every mapping found as referenced (what
    // its rmap invariant checks), not whether the pte was young.
    *mapcount -= 1;
    // LEFT OUT: `(*mapcount)--` is the line above.
    // MODEL: `pte_unmap_unlock(pte, ptl)` as the guard's drop.
    drop(ptl);
    // LEFT OUT: `*vm_flags |= vma->vm_flags`: the walk reports no flags.
    // MODEL: `return referenced`: 1, the mapping found.
    1
}

/// `try_to_unmap_one(page, vma, migration = 1)` (mm/rmap.c, 2.6.31).
pub fn try_to_unmap_one_2_6_31(mm: &Mm, page: PageId, vma: VmaId) -> i32 {
    // LEFT OUT: `mm = vma->vm_mm` and `ret = SWAP_AGAIN`: in the shared `try_to_unmap_one`.
    let address = vma_address(mm, page, vma);
    if address == EFAULT {
        // MODEL: `goto out; ... out: return ret;` with ret SWAP_AGAIN.
        return SWAP_AGAIN;
    }
    // LEFT OUT: the rest, from `pte = page_check_address(...)` to `return ret`, is the shared
    // `try_to_unmap_one()` (src/mm/vma.rs) called below: its migration path is 2.6.34's.
    // MODEL: the call of that shared rest (2.6.34 passes the address in).
    try_to_unmap_one(mm, page, vma, address)
}

/// `page_address_in_vma(page, vma)` (mm/rmap.c, 2.6.31), anon pages: -EFAULT unless
/// `vma->anon_vma` is the page's anon_vma, else `vma_address`.
pub fn page_address_in_vma(mm: &Mm, page: PageId, vma: VmaId) -> usize {
    // LEFT OUT: `if (PageAnon(page))`: the models' pages are anon. The compare of
    // `vma->anon_vma` with `page->mapping - PAGE_MAPPING_ANON` is the test below.
    if mm.vmas[vma].anon_vma.get() != page_anon_vma(mm, page) {
        // LEFT OUT: this `return -EFAULT` (the tool pairs the line below with the last
        // branch's) and the file page branch (`else if (page->mapping && ...)`, `else`): the
        // models' pages are anon.
        return EFAULT;
    }
    vma_address(mm, page, vma)
}

/// `remove_migration_pte(vma, old, new)` (mm/migrate.c, 2.6.31).
pub fn remove_migration_pte_2_6_31(mm: &Mm, vma: VmaId, old: PageId, new: PageId) {
    // LEFT OUT: `mm = vma->vm_mm`: in the shared `remove_migration_pte`.
    let addr = page_address_in_vma(mm, new, vma);
    if addr == EFAULT {
        // LEFT OUT: the tool pairs this `return` with the walk's last one: the page table walk
        // and the peek are the shared `remove_migration_pte()` called below.
        return;
    }
    // LEFT OUT: the rest, from the pte lock to `set_pte_at`, is the shared
    // `remove_migration_pte()` (src/mm/vma.rs) called below: 2.6.34's form, whose `goto out`
    // and `unlock:` are 2.6.31's `return` and `out:`.
    // MODEL: the call of that shared rest (the tool pairs it with the C's `page_add_anon_rmap`
    // call, whose mapcount part it runs; its SWAP_AGAIN is unused: 2.6.31's is void).
    remove_migration_pte(mm, new, vma, addr, old);
    // LEFT OUT: the file page branch, `update_mmu_cache` and `out: pte_unmap_unlock`: in the
    // shared `remove_migration_pte()` (see there).
}

impl AnonRmap for AnonVmaList {
    const ERA: &'static str = "2.6.31";
    const SPLIT_LINKS_NEW_BEFORE_ADJUST: bool = false;
    const REMOVED_NEXT_UNLINKED_AFTER_ADJUST: bool = false;

    /// `anon_vma_prepare(vma)` (mm/rmap.c, 2.6.31): `vma->anon_vma = anon_vma;
    /// list_add_tail(&vma->anon_vma_node, &anon_vma->head);` under the lock.
    fn anon_vma_prepare(mm: &Mm, vma: VmaId, av: AnonVmaId) {
        // LEFT OUT: `anon_vma = vma->anon_vma; might_sleep(); if (unlikely(!anon_vma))`,
        // `find_mergeable_anon_vma`: the caller passes the anon_vma the vma's first anonymous
        // fault gets (`av`; the vma has none yet): one a neighbour already has (what
        // find_mergeable_anon_vma found: the reuse model's fault calls the variant's
        // `find_mergeable_anon_vma` first), or a new one (below); `allocated`: see below.
        // MODEL: `if (!anon_vma) { anon_vma = anon_vma_alloc(); ... }`: an anon_vma no vma is
        // on is one find_mergeable_anon_vma could not have found, so anon_vma_alloc() gave it
        // (a harness check that it is free); its -ENOMEM: never.
        if list_empty(mm, mm.anon_vma_head(av)) {
            anon_vma_alloc(mm, av);
        }
        let _l = spin_lock(&mm.anon_vmas[av].lock);
        // LEFT OUT: `mm->page_table_lock` and the `likely(!vma->anon_vma)` re-check: no other
        // CPU of the models faults in the same vma, so no racing fault can set it first.
        mm.vmas[vma].anon_vma.set(Some(av));
        // MODEL: `list_add_tail(&vma->anon_vma_node, &anon_vma->head)` through
        // `__anon_vma_link`, whose only statement it is for the anon_vma just set.
        // LEFT OUT: `allocated = NULL` and `anon_vma_free(allocated)`: nothing was allocated;
        // the two unlocks are the guard's drop at the end; `return 0`: the setup hook is void.
        __anon_vma_link(mm, vma);
    }

    fn find_mergeable_anon_vma(mm: &Mm, vma: VmaId) -> Option<AnonVmaId> {
        find_mergeable_anon_vma(mm, vma)
    }

    fn __page_set_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize) {
        __page_set_anon_rmap(mm, page, vma, address)
    }

    /// `anon_vma_unlink(vma)` (mm/rmap.c, 2.6.31), called by `free_pgtables()` at munmap or
    /// exit: the vma leaves its anon_vma's list, and an anon_vma left empty is freed.
    fn free_pgtables_unlink(mm: &Mm, vma: VmaId) {
        let Some(anon_vma) = mm.vmas[vma].anon_vma.get() else {
            // LEFT OUT: `if (!anon_vma)` is the `let ... else` above (the tool pairs it with the
            // declaration).
            return;
        };
        // LEFT OUT: `int empty` (declared where it is set, below).

        let lock = spin_lock(&mm.anon_vmas[anon_vma].lock);
        list_del(mm, "anon_vma_unlink", mm.anon_vma_node(vma));
        ktrace!(
            "anon_vma_unlink",
            "vma#{vma} off anon_vma#{anon_vma}'s list"
        );

        // We must garbage collect the anon_vma if it's empty
        let empty = list_empty(mm, mm.anon_vma_head(anon_vma));
        // LEFT OUT: `spin_unlock(&anon_vma->lock)` is this drop of the guard.
        // MODEL: the guard's drop.
        drop(lock);

        if empty {
            anon_vma_free(mm, anon_vma);
        }
    }

    /// `anon_vma_link(vma)` (mm/rmap.c, 2.6.31), called by `dup_mmap` for the child's copy:
    /// `*tmp = *mpnt` copied `vma->anon_vma`, so the child is on the parent's anon_vma list.
    fn anon_vma_fork(mm: &Mm, vma: VmaId, pvma: VmaId, _new_av: AnonVmaId) -> i32 {
        // MODEL: dup_mmap's `*tmp = *mpnt` for `vma->anon_vma` (the next line sets it), which
        // the kernel does before calling anon_vma_link.
        let anon_vma = mm.vmas[pvma].anon_vma.get();
        mm.vmas[vma].anon_vma.set(anon_vma);
        if let Some(av) = anon_vma {
            let _l = spin_lock(&mm.anon_vmas[av].lock);
            list_add_tail(
                mm,
                "anon_vma_link",
                mm.anon_vma_node(vma),
                mm.anon_vma_head(av),
            );
            // LEFT OUT: `spin_unlock(&anon_vma->lock)` is the guard's drop here.
        }
        // MODEL: anon_vma_link is void; the era's fork hook returns 2.6.34's int: 0.
        0
    }

    /// `split_vma(mm, vma, addr, new_below)` (mm/mmap.c, 2.6.31): "Split a vma into two pieces
    /// at address 'addr', a new vma is allocated either for the first part or the tail." The
    /// new vma is linked (mm list and anon_vma list) by `vma_adjust`'s `__insert_vm_struct`.
    fn split_vma<V: VmaAdjust>(
        mm: &Mm,
        vma: VmaId,
        new: VmaId,
        addr: usize,
        new_below: bool,
    ) -> i32 {
        // LEFT OUT: the hugetlb alignment check (no hugetlb vmas), the `map_count` limit (no
        // map count), `kmem_cache_alloc`: the new vma is the unused slot `new` the caller gives.
        let v = &mm.vmas[vma];
        let n = &mm.vmas[new];
        // most fields are the same, copy all, and then fixup
        // MODEL: `*new = *vma` as a copy of the fields the model has: vm_start, vm_end and
        // vm_pgoff here, anon_vma and vm_mm below (the tool pairs `*new = *vma` with vm_mm's).
        let (start, end, pgoff) = (
            READ_ONCE(&v.vm_start),
            READ_ONCE(&v.vm_end),
            READ_ONCE(&v.vm_pgoff),
        );
        WRITE_ONCE(&n.vm_start, start);
        WRITE_ONCE(&n.vm_end, end);
        WRITE_ONCE(&n.vm_pgoff, pgoff);
        // LEFT OUT: `if (!new) return -ENOMEM` (the tool pairs its `if` with the copy of
        // vm_pgoff above): the slot always exists.
        // MODEL: the copy of `anon_vma`, part of `*new = *vma`.
        n.anon_vma.set(v.anon_vma.get());
        n.vm_mm.set(v.vm_mm.get());
        // MODEL: ghost state: the slot is a live vma (a walk may reach it).
        n.freed.set(false);

        if new_below {
            WRITE_ONCE(&n.vm_end, addr);
        } else {
            WRITE_ONCE(&n.vm_start, addr);
            WRITE_ONCE(&n.vm_pgoff, pgoff + ((addr - start) >> PAGE_SHIFT));
        }
        // LEFT OUT: `mpol_dup`/`vma_set_policy`, `get_file`/`added_exe_file_vma` and
        // `vm_ops->open`: the models' vmas are anonymous, without mempolicy or vm_ops.
        // MODEL: new's bounds, for the trace and for `new->vm_start` in the call below.
        let (ns, ne) = (READ_ONCE(&n.vm_start), READ_ONCE(&n.vm_end));
        ktrace!(
            "split_vma",
            "vma#{vma} at {addr:#x}: new vma#{new} [{ns:#x}, {ne:#x})"
        );

        if new_below {
            V::vma_adjust(
                mm,
                vma,
                addr,
                end,
                pgoff + ((addr - ns) >> PAGE_SHIFT),
                Some(new),
            )
        } else {
            V::vma_adjust(mm, vma, start, addr, pgoff, Some(new))
        }
        // LEFT OUT: `return 0`: the value is vma_adjust's, 0 (void in 2.6.31).
    }

    /// `page_referenced_anon(page, mem_cont, vm_flags)` (mm/rmap.c, 2.6.31).
    fn page_referenced_anon(mm: &Mm, page: PageId) -> usize {
        let mut referenced = 0;
        let Some((anon_vma, lock)) = page_lock_anon_vma(mm, page) else {
            // LEFT OUT: `if (!anon_vma)` is the `let ... else` above.
            return referenced;
        };
        let mut mapcount = page_mapcount(mm, page);
        // MODEL: `list_for_each_entry(vma, &anon_vma->head, anon_vma_node)` as a walk of the
        // list's nodes: `list_next` fails on a poisoned link, `vma_of` is the list_entry.
        // LEFT OUT: that loop header is this `while`; the `mem_cont` skip: no memcg (the
        // model's reclaim walks for the whole machine).
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "page_referenced_anon", head);
        while node != head {
            let vma = vma_of(mm, "page_referenced_anon", node);
            referenced += page_referenced_one(mm, page, vma, &mut mapcount);
            if mapcount == 0 {
                break;
            }
            // MODEL: the loop's step to the next entry.
            node = list_next(mm, "page_referenced_anon", node);
        }
        // LEFT OUT: `page_unlock_anon_vma(anon_vma)` is this drop of the guard.
        drop(lock); // page_unlock_anon_vma()
        ktrace!(
            "page_referenced_anon",
            "page {page}: {referenced} mapping(s) found"
        );
        referenced
    }

    /// `try_to_unmap_anon(page, unlock = 0, migration = 1)` (mm/rmap.c, 2.6.31).
    fn try_to_unmap_anon(mm: &Mm, page: PageId) -> i32 {
        // LEFT OUT: `mlocked` and `if (MLOCK_PAGES && unlikely(unlock))`: the models migrate
        // (unlock = 0, migration = 1); `int ret = SWAP_AGAIN` is the next line (which the tool
        // reads as a name for SWAP_AGAIN).
        let mut ret = SWAP_AGAIN;
        let Some((anon_vma, lock)) = page_lock_anon_vma(mm, page) else {
            // LEFT OUT: `if (!anon_vma)` is the `let ... else` above.
            // MODEL: `return ret`.
            return ret;
        };
        // MODEL: `list_for_each_entry(vma, &anon_vma->head, anon_vma_node)` as a walk of the
        // list's nodes: `list_next` fails on a poisoned link, `vma_of` is the list_entry.
        // LEFT OUT: that loop header is this `while`; the `unlock` branch (try_to_munlock's):
        // the models migrate, so the `else` branch runs.
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "try_to_unmap_anon", head);
        while node != head {
            let vma = vma_of(mm, "try_to_unmap_anon", node);
            // MODEL: `ret = try_to_unmap_one(page, vma, migration)` (the 2.6.31 head, with
            // migration = 1).
            ret = try_to_unmap_one_2_6_31(mm, page, vma);
            if ret == SWAP_FAIL || !page_mapped(mm, page) {
                break;
            }
            // LEFT OUT: `if (ret == SWAP_MLOCK)` and `try_to_mlock_page`: the migration path
            // never returns SWAP_MLOCK.
            // MODEL: the loop's step to the next entry.
            node = list_next(mm, "try_to_unmap_anon", node);
        }
        // LEFT OUT: `page_unlock_anon_vma(anon_vma)` is this drop of the guard; the `mlocked`
        // and SWAP_MLOCK fix-ups of `ret`: never taken (see above).
        drop(lock); // page_unlock_anon_vma()
        ret
        // LEFT OUT: `return ret` is the tail `ret` (the tool pairs it with `ret = SWAP_AGAIN`).
    }

    /// `remove_migration_ptes(old, new)` + `remove_anon_migration_ptes(old, new)`
    /// (mm/migrate.c, 2.6.31): the first calls the second for an anon page; "Must hold mmap_sem
    /// lock on at least one of the vmas containing the page so that the anon_vma cannot
    /// vanish."
    fn remove_migration_ptes(mm: &Mm, old: PageId, new: PageId) {
        // LEFT OUT: `if (PageAnon(new)) remove_anon_migration_ptes(old, new); else
        // remove_file_migration_ptes(old, new);`: anon pages only; the body below is
        // remove_anon_migration_ptes'.
        // We hold the mmap_sem lock. So no need to call page_lock_anon_vma.
        let Some(anon_vma) = page_anon_vma(mm, new) else {
            // LEFT OUT: `if (!anon_vma)` is the `let ... else` above.
            return;
        };
        let lock = walk_lock(mm, anon_vma);
        // MODEL: `list_for_each_entry(vma, &anon_vma->head, anon_vma_node)` as a walk of the
        // list's nodes: `list_next` fails on a poisoned link, `vma_of` is the list_entry; its
        // body is the call in the loop.
        // LEFT OUT: that loop (the tool reads loop and body as one C statement) is this walk.
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "remove_anon_migration_ptes", head);
        while node != head {
            let vma = vma_of(mm, "remove_anon_migration_ptes", node);
            remove_migration_pte_2_6_31(mm, vma, old, new);
            node = list_next(mm, "remove_anon_migration_ptes", node);
        }
        // LEFT OUT: `spin_unlock(&anon_vma->lock)` is this drop of the guard.
        drop(lock);
    }

    fn check_anon_vma_lists(mm: &Mm) {
        for av in 0..mm.anon_vmas.len() {
            let want = vmas_of_anon_vma(mm, av);
            let mut on_list: Vec<VmaId> =
                list_entries(mm, "check_anon_vma_lists", mm.anon_vma_head(av))
                    .into_iter()
                    .map(|n| vma_of(mm, "check_anon_vma_lists", n))
                    .collect();
            on_list.sort_unstable();
            for v in &want {
                if !on_list.contains(v) {
                    fail(
                        "check_anon_vma_lists",
                        Invariant::RmapMiss,
                        format!("vma#{v} points to anon_vma#{av} but is not on its list: its pages cannot be found"),
                    );
                }
            }
            for v in &on_list {
                if !want.contains(v) {
                    fail(
                        "check_anon_vma_lists",
                        Invariant::ListCorruption,
                        format!("anon_vma#{av}'s list holds vma#{v}, which is not an mm vma pointing to it"),
                    );
                }
            }
        }
    }
}
