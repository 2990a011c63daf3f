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
    __anon_vma_link(mm, vma);
}

/// `__insert_vm_struct(mm, vma)` (mm/mmap.c, 2.6.31): "Helper for vma_adjust in the
/// split_vma insert case: insert vm structure into list and rbtree and anon_vma, but it has
/// already been inserted into prio_tree earlier."
pub fn __insert_vm_struct(mm: &Mm, vma: VmaId) {
    let prev = find_vma_prev(
        mm,
        mm.vmas[vma].vm_mm.get(),
        READ_ONCE(&mm.vmas[vma].vm_start),
    );
    __vma_link(mm, vma, prev);
}

/// `page_lock_anon_vma(page)` (mm/rmap.c, 2.6.31): "Getting a lock on a stable anon_vma from
/// a page off the LRU is tricky: page_lock_anon_vma rely on RCU to guard against the races."
pub fn page_lock_anon_vma(mm: &Mm, page: PageId) -> Option<(AnonVmaId, SpinGuard<'_, ()>)> {
    // rcu_read_lock();
    let anon_vma = page_anon_vma(mm, page)?;
    if !page_mapped(mm, page) {
        return None;
    }
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
    let address = vma_address(mm, page, vma);
    if address == EFAULT {
        return 0;
    }
    if !page_check_address(mm, page, vma, address) {
        return 0;
    }
    *mapcount -= 1;
    1
}

/// `try_to_unmap_one(page, vma, migration = 1)` (mm/rmap.c, 2.6.31).
pub fn try_to_unmap_one_2_6_31(mm: &Mm, page: PageId, vma: VmaId) -> i32 {
    let address = vma_address(mm, page, vma);
    if address == EFAULT {
        return SWAP_AGAIN;
    }
    try_to_unmap_one(mm, page, vma, address)
}

/// `page_address_in_vma(page, vma)` (mm/rmap.c, 2.6.31), anon pages: -EFAULT unless
/// `vma->anon_vma` is the page's anon_vma, else `vma_address`.
pub fn page_address_in_vma(mm: &Mm, page: PageId, vma: VmaId) -> usize {
    if mm.vmas[vma].anon_vma.get() != page_anon_vma(mm, page) {
        return EFAULT;
    }
    vma_address(mm, page, vma)
}

/// `remove_migration_pte(vma, old, new)` (mm/migrate.c, 2.6.31).
pub fn remove_migration_pte_2_6_31(mm: &Mm, vma: VmaId, old: PageId, new: PageId) {
    let addr = page_address_in_vma(mm, new, vma);
    if addr == EFAULT {
        return;
    }
    remove_migration_pte(mm, new, vma, addr, old);
}

impl AnonRmap for AnonVmaList {
    const ERA: &'static str = "2.6.31";

    /// `anon_vma_prepare(vma)` (mm/rmap.c, 2.6.31): `vma->anon_vma = anon_vma;
    /// list_add_tail(&vma->anon_vma_node, &anon_vma->head);` under the lock.
    fn anon_vma_prepare(mm: &Mm, vma: VmaId, av: AnonVmaId) {
        let _l = spin_lock(&mm.anon_vmas[av].lock);
        mm.vmas[vma].anon_vma.set(Some(av));
        __anon_vma_link(mm, vma);
    }

    /// `anon_vma_link(vma)` (mm/rmap.c, 2.6.31), called by `dup_mmap` for the child's copy:
    /// `*tmp = *mpnt` copied `vma->anon_vma`, so the child is on the parent's anon_vma list.
    fn anon_vma_fork(mm: &Mm, vma: VmaId, pvma: VmaId, _new_av: AnonVmaId) -> i32 {
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
        }
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
        let v = &mm.vmas[vma];
        let n = &mm.vmas[new];
        // most fields are the same, copy all, and then fixup
        let (start, end, pgoff) = (
            READ_ONCE(&v.vm_start),
            READ_ONCE(&v.vm_end),
            READ_ONCE(&v.vm_pgoff),
        );
        WRITE_ONCE(&n.vm_start, start);
        WRITE_ONCE(&n.vm_end, end);
        WRITE_ONCE(&n.vm_pgoff, pgoff);
        n.anon_vma.set(v.anon_vma.get());
        n.vm_mm.set(v.vm_mm.get());
        n.freed.set(false);

        if new_below {
            WRITE_ONCE(&n.vm_end, addr);
        } else {
            WRITE_ONCE(&n.vm_start, addr);
            WRITE_ONCE(&n.vm_pgoff, pgoff + ((addr - start) >> PAGE_SHIFT));
        }
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
    }

    /// `page_referenced_anon(page, mem_cont, vm_flags)` (mm/rmap.c, 2.6.31).
    fn page_referenced_anon(mm: &Mm, page: PageId) -> usize {
        let mut referenced = 0;
        let Some((anon_vma, lock)) = page_lock_anon_vma(mm, page) else {
            return referenced;
        };
        let mut mapcount = page_mapcount(mm, page);
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "page_referenced_anon", head);
        while node != head {
            let vma = vma_of(mm, "page_referenced_anon", node);
            referenced += page_referenced_one(mm, page, vma, &mut mapcount);
            if mapcount == 0 {
                break;
            }
            node = list_next(mm, "page_referenced_anon", node);
        }
        drop(lock); // page_unlock_anon_vma()
        ktrace!(
            "page_referenced_anon",
            "page {page}: {referenced} mapping(s) found"
        );
        referenced
    }

    /// `try_to_unmap_anon(page, unlock = 0, migration = 1)` (mm/rmap.c, 2.6.31).
    fn try_to_unmap_anon(mm: &Mm, page: PageId) -> i32 {
        let mut ret = SWAP_AGAIN;
        let Some((anon_vma, lock)) = page_lock_anon_vma(mm, page) else {
            return ret;
        };
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "try_to_unmap_anon", head);
        while node != head {
            let vma = vma_of(mm, "try_to_unmap_anon", node);
            ret = try_to_unmap_one_2_6_31(mm, page, vma);
            if ret == SWAP_FAIL || !page_mapped(mm, page) {
                break;
            }
            node = list_next(mm, "try_to_unmap_anon", node);
        }
        drop(lock); // page_unlock_anon_vma()
        ret
    }

    /// `remove_migration_ptes(old, new)` -> `remove_anon_migration_ptes(old, new)`
    /// (mm/migrate.c, 2.6.31): "Must hold mmap_sem lock on at least one of the vmas
    /// containing the page so that the anon_vma cannot vanish."
    fn remove_migration_ptes(mm: &Mm, old: PageId, new: PageId) {
        // We hold the mmap_sem lock. So no need to call page_lock_anon_vma.
        let Some(anon_vma) = page_anon_vma(mm, new) else {
            return;
        };
        let lock = walk_lock(mm, anon_vma);
        let head = mm.anon_vma_head(anon_vma);
        let mut node = list_next(mm, "remove_anon_migration_ptes", head);
        while node != head {
            let vma = vma_of(mm, "remove_anon_migration_ptes", node);
            remove_migration_pte_2_6_31(mm, vma, old, new);
            node = list_next(mm, "remove_anon_migration_ptes", node);
        }
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
