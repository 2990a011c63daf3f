//! The anon rmap of the anon_vma_chain era (5beb4930, Rik van Riel, 2.6.34): each vma has a
//! list of `anon_vma_chain` entries (`vma->anon_vma_chain`, linked by `same_vma`), each also
//! on its anon_vma's list (`anon_vma->head`, linked by `same_anon_vma`); `__split_vma` links
//! the new vma with `anon_vma_clone()` before `vma_adjust`; a merged vma is unlinked after
//! `vma_adjust` dropped its locks (`anon_vma_merge` -> `unlink_anon_vmas`, each anon_vma under
//! its own lock); the walks take the page's anon_vma lock.
//!
//! Two lock flavours: [`ChainRmap`] (2.6.34, 2.6.35: `spin_lock(&anon_vma->lock)`) and
//! [`RootChainRmap`] (012f1800 "mm: always lock the root (oldest) anon_vma", 2.6.36 on:
//! `anon_vma_lock(anon_vma)` takes `anon_vma->root->lock` everywhere). 3.0 turned the lock
//! into a mutex (`anon_vma->root->mutex`): the same exclusion for these models.
//!
//! Sources (research notes s3.md §3): `__split_vma`, `vma_adjust` and `struct anon_vma_chain`
//! read from a 2.6.34/2.6.35 tree and 2.6.34-based lore patches; `rmap_walk_anon` reassembled
//! from the pre-images of Mel Gorman's and Rik van Riel's 2.6.34 patches; `anon_vma_clone`,
//! `anon_vma_chain_link`, `unlink_anon_vmas`, `try_to_unmap_anon` and `page_referenced_anon`
//! of exact 2.6.34 UNVERIFIED (their shape from the 2.6.39/3.0 patches that changed them).

use super::vma::*;
use crate::ktrace;
use crate::sync::{spin_lock, SpinGuard, READ_ONCE, WRITE_ONCE};
use crate::trace::{fail, Invariant};
use crate::VM_BUG_ON;

/// The anon_vma_chain rmap of 2.6.34 (`spin_lock(&anon_vma->lock)`).
pub struct ChainRmap;
/// The anon_vma_chain rmap of 012f1800 on (2.6.36): the root anon_vma's lock.
pub struct RootChainRmap;

/// How an era's rmap code locks an anon_vma.
pub trait ChainLock: 'static + Send + Sync {
    const ERA: &'static str;
    /// 012f1800 on: `anon_vma_fork` sets the child's `anon_vma->root` to the parent's root.
    const ROOT: bool;
    /// 2.6.34: `spin_lock(&anon_vma->lock)`; 2.6.36: `anon_vma_lock(anon_vma)` =
    /// `spin_lock(&anon_vma->root->lock)`.
    fn anon_vma_lock(mm: &Mm, anon_vma: AnonVmaId) -> SpinGuard<'_, ()>;
}

impl ChainLock for ChainRmap {
    const ERA: &'static str = "2.6.34";
    const ROOT: bool = false;
    fn anon_vma_lock(mm: &Mm, anon_vma: AnonVmaId) -> SpinGuard<'_, ()> {
        spin_lock(&mm.anon_vmas[anon_vma].lock)
    }
}

impl ChainLock for RootChainRmap {
    const ERA: &'static str = "2.6.36";
    const ROOT: bool = true;
    fn anon_vma_lock(mm: &Mm, anon_vma: AnonVmaId) -> SpinGuard<'_, ()> {
        spin_lock(&mm.anon_vmas[mm.anon_vmas[anon_vma].root.get()].lock)
    }
}

/// `anon_vma_chain_alloc()`: the next unused entry of the mm's pool (never fails here).
pub fn anon_vma_chain_alloc(mm: &Mm) -> AvcId {
    let avc = mm.avc_free.get();
    if avc >= mm.avcs.len() {
        crate::trace::harness_fail("anon_vma_chain_alloc", "the avc pool is too small".into());
    }
    mm.avc_free.set(avc + 1);
    avc
}

/// `anon_vma_chain_link(vma, avc, anon_vma)` (mm/rmap.c, 2.6.34):
/// `avc->vma = vma; avc->anon_vma = anon_vma; list_add(&avc->same_vma, &vma->anon_vma_chain);`
/// then, under the anon_vma lock, `list_add_tail(&avc->same_anon_vma, &anon_vma->head)`.
pub fn anon_vma_chain_link<L: ChainLock>(mm: &Mm, vma: VmaId, avc: AvcId, anon_vma: AnonVmaId) {
    mm.avcs[avc].vma.set(vma);
    mm.avcs[avc].anon_vma.set(anon_vma);
    list_add(
        mm,
        "anon_vma_chain_link",
        mm.same_vma(avc),
        mm.anon_vma_chain(vma),
    );

    let lock = L::anon_vma_lock(mm, anon_vma);
    list_add_tail(
        mm,
        "anon_vma_chain_link",
        mm.same_anon_vma(avc),
        mm.anon_vma_head(anon_vma),
    );
    drop(lock);
    ktrace!(
        "anon_vma_chain_link",
        "avc#{avc}: vma#{vma} linked on anon_vma#{anon_vma}'s list"
    );
}

/// The avcs of `vma->anon_vma_chain`, in list order.
pub fn chain_of(mm: &Mm, func: &'static str, vma: VmaId) -> Vec<AvcId> {
    list_entries(mm, func, mm.anon_vma_chain(vma))
        .into_iter()
        .map(|n| match mm.node(n) {
            Node::SameVma(c) => c,
            other => fail(
                func,
                Invariant::ListCorruption,
                format!("vma#{vma}'s anon_vma_chain runs into {other:?}"),
            ),
        })
        .collect()
}

/// `anon_vma_clone(dst, src)` (mm/rmap.c, 2.6.34): "Attach the anon_vmas from src to dst."
/// `list_for_each_entry_reverse(pavc, &src->anon_vma_chain, same_vma)` allocates an avc and
/// `anon_vma_chain_link(dst, avc, pavc->anon_vma)`. 0 (`-ENOMEM` never happens here).
pub fn anon_vma_clone<L: ChainLock>(mm: &Mm, dst: VmaId, src: VmaId) -> i32 {
    for pavc in chain_of(mm, "anon_vma_clone", src).into_iter().rev() {
        let avc = anon_vma_chain_alloc(mm);
        anon_vma_chain_link::<L>(mm, dst, avc, mm.avcs[pavc].anon_vma.get());
    }
    0
}

/// `anon_vma_unlink(anon_vma_chain)` (mm/rmap.c, 2.6.34): `list_del` of `same_anon_vma` under
/// the anon_vma lock ("We must garbage collect the anon_vma if it's empty": an anon_vma is
/// never left empty in the models).
pub fn anon_vma_unlink<L: ChainLock>(mm: &Mm, avc: AvcId) {
    let anon_vma = mm.avcs[avc].anon_vma.get();
    let lock = L::anon_vma_lock(mm, anon_vma);
    list_del(mm, "anon_vma_unlink", mm.same_anon_vma(avc));
    drop(lock);
    ktrace!(
        "anon_vma_unlink",
        "avc#{avc} off anon_vma#{anon_vma}'s list"
    );
}

/// `unlink_anon_vmas(vma)` (mm/rmap.c, 2.6.34).
pub fn unlink_anon_vmas<L: ChainLock>(mm: &Mm, vma: VmaId) {
    for avc in chain_of(mm, "unlink_anon_vmas", vma) {
        anon_vma_unlink::<L>(mm, avc);
        list_del(mm, "unlink_anon_vmas", mm.same_vma(avc));
        // anon_vma_chain_free(avc);
    }
}

/// `anon_vma_merge(vma, next)` (include/linux/rmap.h, 2.6.34):
/// `VM_BUG_ON(vma->anon_vma != next->anon_vma); unlink_anon_vmas(next);`.
pub fn anon_vma_merge<L: ChainLock>(mm: &Mm, vma: VmaId, next: VmaId) {
    VM_BUG_ON!(
        "anon_vma_merge",
        mm.vmas[vma].anon_vma.get() != mm.vmas[next].anon_vma.get()
    );
    unlink_anon_vmas::<L>(mm, next);
}

/// `__insert_vm_struct(mm, vma)` (mm/mmap.c, 2.6.34): `__vma_link` no longer calls
/// `__anon_vma_link` (the vma was linked by `anon_vma_clone` in `__split_vma`).
pub fn __insert_vm_struct(mm: &Mm, vma: VmaId) {
    let prev = find_vma_prev(
        mm,
        mm.vmas[vma].vm_mm.get(),
        READ_ONCE(&mm.vmas[vma].vm_start),
    );
    __vma_link_list(mm, vma, prev);
}

/// `page_lock_anon_vma(page)` (mm/rmap.c, 2.6.34; 2.6.36: `anon_vma_lock(anon_vma)`).
pub fn page_lock_anon_vma<L: ChainLock>(
    mm: &Mm,
    page: PageId,
) -> Option<(AnonVmaId, SpinGuard<'_, ()>)> {
    // rcu_read_lock();
    let anon_vma = page_anon_vma(mm, page)?;
    if !page_mapped(mm, page) {
        return None;
    }
    Some((anon_vma, L::anon_vma_lock(mm, anon_vma)))
}

/// The vma of a `same_anon_vma` entry met on a walk: `avc->vma`.
pub fn avc_vma(mm: &Mm, func: &'static str, node: usize) -> VmaId {
    match mm.node(node) {
        Node::SameAnonVma(c) => mm.avcs[c].vma.get(),
        other => fail(
            func,
            Invariant::ListCorruption,
            format!("anon_vma list runs into {other:?}"),
        ),
    }
}

/// `rmap_walk_anon(page, rmap_one, arg)` (mm/rmap.c, 2.6.34; 2.6.36 `anon_vma_lock`) with
/// `rmap_one` = `remove_migration_pte`, `arg` = `old`.
fn rmap_walk_anon<L: ChainLock>(mm: &Mm, page: PageId, old: PageId) -> i32 {
    let mut ret = SWAP_AGAIN;
    let Some(anon_vma) = page_anon_vma(mm, page) else {
        return ret;
    };
    let lock = L::anon_vma_lock(mm, anon_vma);
    let head = mm.anon_vma_head(anon_vma);
    let mut node = list_next(mm, "rmap_walk_anon", head);
    while node != head {
        let vma = avc_vma(mm, "rmap_walk_anon", node);
        let address = vma_address(mm, page, vma);
        if address != EFAULT {
            ret = remove_migration_pte(mm, page, vma, address, old);
            if ret != SWAP_AGAIN {
                break;
            }
        }
        node = list_next(mm, "rmap_walk_anon", node);
    }
    drop(lock);
    ret
}

macro_rules! chain_rmap {
    ($t:ty) => {
        impl AnonRmap for $t {
            const ERA: &'static str = <$t as ChainLock>::ERA;

            /// `anon_vma_prepare(vma)` (mm/rmap.c, 2.6.34): `vma->anon_vma = anon_vma;
            /// anon_vma_chain_link(vma, avc, anon_vma);`.
            fn anon_vma_prepare(mm: &Mm, vma: VmaId, av: AnonVmaId) {
                let avc = anon_vma_chain_alloc(mm);
                mm.vmas[vma].anon_vma.set(Some(av));
                anon_vma_chain_link::<$t>(mm, vma, avc, av);
            }

            /// `anon_vma_fork(vma, pvma)` (mm/rmap.c, 2.6.34; 2.6.36 sets the root):
            /// "Attach vma to its own anon_vma, as well as to the anon_vmas that the
            /// corresponding VMA in the parent process is attached to."
            fn anon_vma_fork(mm: &Mm, vma: VmaId, pvma: VmaId, new_av: AnonVmaId) -> i32 {
                // Don't bother if the parent process has no anon_vma here.
                let Some(parent_av) = mm.vmas[pvma].anon_vma.get() else {
                    return 0;
                };
                // First, attach the new VMA to the parent VMA's anon_vmas, so rmap can find
                // non-COWed pages in child processes.
                if anon_vma_clone::<$t>(mm, vma, pvma) != 0 {
                    return -ENOMEM;
                }
                // Then add our own anon_vma.
                let avc = anon_vma_chain_alloc(mm);
                if <$t as ChainLock>::ROOT {
                    // The root anon_vma's spinlock is the lock actually used when we lock any
                    // of the anon_vmas in this anon_vma tree.
                    let root = mm.anon_vmas[parent_av].root.get();
                    mm.anon_vmas[new_av].root.set(root);
                }
                anon_vma_chain_link::<$t>(mm, vma, avc, new_av);
                // Mark this anon_vma as the one where our new (COWed) pages go.
                mm.vmas[vma].anon_vma.set(Some(new_av));
                0
            }

            /// `__split_vma(mm, vma, addr, new_below)` (mm/mmap.c, 2.6.34): the new vma is
            /// linked on every anon_vma of `vma` by `anon_vma_clone(new, vma)` before
            /// `vma_adjust`.
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

                // INIT_LIST_HEAD(&new->anon_vma_chain): the slot's chain head is empty.

                if new_below {
                    WRITE_ONCE(&n.vm_end, addr);
                } else {
                    WRITE_ONCE(&n.vm_start, addr);
                    WRITE_ONCE(&n.vm_pgoff, pgoff + ((addr - start) >> PAGE_SHIFT));
                }
                let (ns, ne) = (READ_ONCE(&n.vm_start), READ_ONCE(&n.vm_end));
                ktrace!(
                    "__split_vma",
                    "vma#{vma} at {addr:#x}: new vma#{new} [{ns:#x}, {ne:#x})"
                );

                if anon_vma_clone::<$t>(mm, new, vma) != 0 {
                    return -ENOMEM;
                }

                let err = if new_below {
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
                };

                // Success.
                err
            }

            /// `page_referenced_anon(page, mem_cont, vm_flags)` (mm/rmap.c, 2.6.34).
            fn page_referenced_anon(mm: &Mm, page: PageId) -> usize {
                let mut referenced = 0;
                let Some((anon_vma, lock)) = page_lock_anon_vma::<$t>(mm, page) else {
                    return referenced;
                };
                let mut mapcount = page_mapcount(mm, page);
                let head = mm.anon_vma_head(anon_vma);
                let mut node = list_next(mm, "page_referenced_anon", head);
                while node != head {
                    let vma = avc_vma(mm, "page_referenced_anon", node);
                    let address = vma_address(mm, page, vma);
                    // page_referenced_one(page, vma, address, &mapcount, vm_flags)
                    if address != EFAULT && page_check_address(mm, page, vma, address) {
                        referenced += 1;
                        mapcount -= 1;
                        if mapcount == 0 {
                            break;
                        }
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

            /// `try_to_unmap_anon(page, TTU_MIGRATION)` (mm/rmap.c, 2.6.34).
            fn try_to_unmap_anon(mm: &Mm, page: PageId) -> i32 {
                let mut ret = SWAP_AGAIN;
                let Some((anon_vma, lock)) = page_lock_anon_vma::<$t>(mm, page) else {
                    return ret;
                };
                let head = mm.anon_vma_head(anon_vma);
                let mut node = list_next(mm, "try_to_unmap_anon", head);
                while node != head {
                    let vma = avc_vma(mm, "try_to_unmap_anon", node);
                    let address = vma_address(mm, page, vma);
                    if address != EFAULT {
                        ret = try_to_unmap_one(mm, page, vma, address);
                        if ret != SWAP_AGAIN || !page_mapped(mm, page) {
                            break;
                        }
                    }
                    node = list_next(mm, "try_to_unmap_anon", node);
                }
                drop(lock); // page_unlock_anon_vma()
                ret
            }

            /// `remove_migration_ptes(old, new)` (mm/migrate.c, 2.6.34):
            /// `rmap_walk(new, remove_migration_pte, old)`.
            fn remove_migration_ptes(mm: &Mm, old: PageId, new: PageId) {
                rmap_walk_anon::<$t>(mm, new, old);
            }

            fn check_anon_vma_lists(mm: &Mm) {
                check_chains(mm);
            }
        }
    };
}

chain_rmap!(ChainRmap);
chain_rmap!(RootChainRmap);

/// The chain era's end check: each anon_vma's list holds exactly the avcs of the mm's vmas
/// that name it; each vma with an anon_vma has an avc for it.
fn check_chains(mm: &Mm) {
    let vmas = mm_vmas(mm);
    for av in 0..mm.anon_vmas.len() {
        let mut want: Vec<AvcId> = Vec::new();
        for &v in &vmas {
            for c in chain_of(mm, "check_anon_vma_lists", v) {
                if mm.avcs[c].vma.get() != v {
                    fail(
                        "check_anon_vma_lists",
                        Invariant::ListCorruption,
                        format!("avc#{c} on vma#{v}'s chain names another vma"),
                    );
                }
                if mm.avcs[c].anon_vma.get() == av {
                    want.push(c);
                }
            }
        }
        want.sort_unstable();
        let mut on_list: Vec<AvcId> =
            list_entries(mm, "check_anon_vma_lists", mm.anon_vma_head(av))
                .into_iter()
                .map(|n| match mm.node(n) {
                    Node::SameAnonVma(c) => c,
                    other => fail(
                        "check_anon_vma_lists",
                        Invariant::ListCorruption,
                        format!("anon_vma#{av}'s list runs into {other:?}"),
                    ),
                })
                .collect();
        on_list.sort_unstable();
        for c in &want {
            if !on_list.contains(c) {
                fail(
                    "check_anon_vma_lists",
                    Invariant::RmapMiss,
                    format!(
                        "avc#{c} of vma#{} names anon_vma#{av} but is not on its list",
                        mm.avcs[*c].vma.get()
                    ),
                );
            }
        }
        for c in &on_list {
            if !want.contains(c) {
                fail(
                    "check_anon_vma_lists",
                    Invariant::ListCorruption,
                    format!(
                        "anon_vma#{av}'s list holds avc#{c} (vma#{}), not an avc of an mm vma",
                        mm.avcs[*c].vma.get()
                    ),
                );
            }
        }
        for &v in &vmas {
            if mm.vmas[v].anon_vma.get() == Some(av)
                && !chain_of(mm, "check_anon_vma_lists", v)
                    .iter()
                    .any(|&c| mm.avcs[c].anon_vma.get() == av)
            {
                fail(
                    "check_anon_vma_lists",
                    Invariant::RmapMiss,
                    format!("vma#{v} points to anon_vma#{av} but has no avc on its list"),
                );
            }
        }
    }
}
