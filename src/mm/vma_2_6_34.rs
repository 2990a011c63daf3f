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
//! into a mutex (`anon_vma->root->mutex`): the same exclusion for these models. Where the
//! kernel carries a8bef8ff (a8bef8ff itself, 012f1800 and every rmap after it:
//! `ChainLock::TEMP_STACK`), exec marks its temporary stack and `try_to_unmap_anon` skips it.
//!
//! Sources (research notes s3.md §3): `__split_vma`, `vma_adjust` and `struct anon_vma_chain`
//! read from a 2.6.34/2.6.35 tree and 2.6.34-based lore patches; `rmap_walk_anon` reassembled
//! from the pre-images of Mel Gorman's and Rik van Riel's 2.6.34 patches; `anon_vma_clone`,
//! `anon_vma_chain_link`, `unlink_anon_vmas`, `try_to_unmap_anon` and `page_referenced_anon`
//! of exact 2.6.34 UNVERIFIED (their shape from the 2.6.39/3.0 patches that changed them).

use super::vma::*;
use crate::ktrace;
use crate::sync::{spin_lock, spin_unlock_lock, SpinGuard, READ_ONCE, READ_ONCE_DEP, WRITE_ONCE};
use crate::trace::{fail, Invariant};
use crate::{BUG_ON, VM_BUG_ON};

/// The anon_vma_chain rmap of 2.6.34 (`spin_lock(&anon_vma->lock)`).
pub struct ChainRmap;
/// The anon_vma_chain rmap of 012f1800 on (2.6.36): the root anon_vma's lock.
pub struct RootChainRmap;

/// How an era's rmap code locks an anon_vma.
pub trait ChainLock: 'static + Send + Sync + Sized {
    const ERA: &'static str;
    /// 012f1800 on: `anon_vma_fork` sets the child's `anon_vma->root` to the parent's root.
    const ROOT: bool;
    /// a8bef8ff (2.6.35-rc1, inferred from its author date, 24 May 2010) is in this rmap's kernel: exec marks its temporary
    /// stack `VM_STACK_INCOMPLETE_SETUP` (`__bprm_mm_init()`, cleared in `setup_arg_pages()`
    /// once the stack has moved: src/mm/exec.rs) and `try_to_unmap_anon()` skips a marked vma.
    /// By default `ROOT`: every root-lock rmap is 012f1800 (2.6.36-rc) or later, whose kernels
    /// carry a8bef8ff, and every own-lock rmap but a8bef8ff's is 2.6.34 or a posting on it
    /// (`ChainRmap`, mel-v6's); a8bef8ff's `TempStackRmap` sets it.
    const TEMP_STACK: bool = Self::ROOT;
    /// `try_to_unmap_anon()`'s test of the mark, wherever exec sets it; a mutant turns off the
    /// test alone (the stack stays marked, migration walks it anyway).
    const STACK_SKIP: bool = Self::TEMP_STACK;
    /// 2.6.34: `spin_lock(&anon_vma->lock)`; 2.6.36: `anon_vma_lock(anon_vma)` =
    /// `spin_lock(&anon_vma->root->lock)`.
    fn anon_vma_lock(mm: &Mm, anon_vma: AnonVmaId) -> SpinGuard<'_, ()>;
    /// 2.6.34: `spin_unlock(&anon_vma->lock)`; 2.6.36: `anon_vma_unlock(anon_vma)` =
    /// `spin_unlock(&anon_vma->root->lock)`, the root read again. Where the C reaches the
    /// anon_vma through a vma or an avc it holds, nothing can free it between the lock and the
    /// unlock, so the root read again is the root locked and the callers drop the guard; the
    /// callers whose anon_vma came from `page->mapping` (`page_unlock_anon_vma()`,
    /// `rmap_walk_anon()`) call this.
    fn anon_vma_unlock<'a>(mm: &'a Mm, anon_vma: AnonVmaId, lock: SpinGuard<'a, ()>);
    /// `page_lock_anon_vma(page)`: 2.6.34's and 012f1800's ([`page_lock_anon_vma`]);
    /// f18194275c39 re-checks `page_mapped()` under the root's lock.
    fn page_lock_anon_vma(mm: &Mm, page: PageId) -> Option<(AnonVmaId, SpinGuard<'_, ()>)> {
        page_lock_anon_vma::<Self>(mm, page)
    }
    /// The vma form, `expand_downwards()`'s: 2.6.34's `anon_vma_lock(vma)` (2.6.31's text,
    /// [`anon_vma_lock_vma`]: the vma's own anon_vma), the default; 012f1800's
    /// `vma_lock_anon_vma(vma)` (its root's) overrides it.
    fn vma_lock_anon_vma(mm: &Mm, vma: VmaId) -> Option<SpinGuard<'_, ()>> {
        anon_vma_lock_vma(mm, vma)
    }
    /// Its unlock: 2.6.34's `anon_vma_unlock(vma)`, 012f1800's `vma_unlock_anon_vma(vma)`.
    fn vma_unlock_anon_vma<'a>(mm: &'a Mm, vma: VmaId, lock: Option<SpinGuard<'a, ()>>) {
        anon_vma_unlock_vma(mm, vma, lock)
    }
}

impl ChainLock for ChainRmap {
    const ERA: &'static str = "2.6.34";
    const ROOT: bool = false;
    fn anon_vma_lock(mm: &Mm, anon_vma: AnonVmaId) -> SpinGuard<'_, ()> {
        spin_lock(&mm.anon_vmas[anon_vma].lock)
    }
    fn anon_vma_unlock<'a>(_mm: &'a Mm, _anon_vma: AnonVmaId, lock: SpinGuard<'a, ()>) {
        // The anon_vma's own lock: the address cannot differ from the one locked.
        drop(lock);
    }
}

impl ChainLock for RootChainRmap {
    const ERA: &'static str = "2.6.36";
    const ROOT: bool = true;
    /// `anon_vma_lock(anon_vma)` (include/linux/rmap.h, 012f1800): the lock is returned as
    /// a guard.
    fn anon_vma_lock(mm: &Mm, anon_vma: AnonVmaId) -> SpinGuard<'_, ()> {
        // MODEL: `anon_vma->root` read into a local, for the trace (a pointer the lock is
        // taken through: READ_ONCE_DEP).
        let root = READ_ONCE_DEP(&mm.anon_vmas[anon_vma].root);
        if root != anon_vma {
            ktrace!(
                "anon_vma_lock",
                "anon_vma#{anon_vma}'s root is anon_vma#{root}"
            );
        }
        spin_lock(&mm.anon_vmas[root].lock)
    }
    /// `anon_vma_unlock(anon_vma)` (include/linux/rmap.h, 012f1800): the root is read again.
    /// If the anon_vma was freed and reused with another root since `anon_vma_lock()` read
    /// it, this is another lock than the one held: CONFIG_DEBUG_SPINLOCK's `spin_bug()`, and
    /// the lock held stays held (the hang f18194275c39 fixes).
    fn anon_vma_unlock<'a>(mm: &'a Mm, anon_vma: AnonVmaId, lock: SpinGuard<'a, ()>) {
        // LEFT OUT: `spin_unlock(&anon_vma->root->lock)` is the two lines below: the root read
        // (a relaxed load: the unlock, a release, is all that goes through it) and the unlock
        // of that lock given the guard held.
        // MODEL: `anon_vma->root` read into a local; the unlock's report of a lock not held.
        let root = READ_ONCE(&mm.anon_vmas[anon_vma].root);
        if let Err(held) = spin_unlock_lock(lock, &mm.anon_vmas[root].lock) {
            // MODEL: the kernel's CONFIG_DEBUG_SPINLOCK report, naming the lock held.
            fail(
                "anon_vma_unlock",
                Invariant::SpinBug,
                format!(
                    "spin_unlock(&anon_vma#{anon_vma}->root->lock): its root is now \
                     anon_vma#{root}, whose lock this CPU does not hold (\"already unlocked\" \
                     or \"wrong owner\"); {}, which it took, stays held",
                    lock_name(mm, &held)
                ),
            );
        }
    }
    /// `vma_lock_anon_vma(vma)` (include/linux/rmap.h, 012f1800): the lock is returned as a
    /// guard, None when the vma has no anon_vma.
    fn vma_lock_anon_vma(mm: &Mm, vma: VmaId) -> Option<SpinGuard<'_, ()>> {
        let anon_vma = mm.vmas[vma].anon_vma.get();
        if let Some(anon_vma) = anon_vma {
            // MODEL: the guard is returned; `anon_vma->root` is READ_ONCE_DEP (the lock is
            // taken through it).
            return Some(spin_lock(
                &mm.anon_vmas[READ_ONCE_DEP(&mm.anon_vmas[anon_vma].root)].lock,
            ));
        }
        // MODEL: no anon_vma, no lock.
        None
    }
    /// `vma_unlock_anon_vma(vma)` (include/linux/rmap.h, 012f1800).
    fn vma_unlock_anon_vma<'a>(mm: &'a Mm, vma: VmaId, lock: Option<SpinGuard<'a, ()>>) {
        let anon_vma = mm.vmas[vma].anon_vma.get();
        if anon_vma.is_some() {
            // LEFT OUT: `spin_unlock(&anon_vma->root->lock)` is the guard's drop below: an
            // anon_vma reached through a vma its caller holds cannot be freed, so its root read
            // again is the root locked (see `anon_vma_unlock`).
            // MODEL: the guard taken by `vma_lock_anon_vma` dropped.
            drop(lock);
        }
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
    // MODEL: the event is recorded under the lock, where the link happened.
    ktrace!(
        "anon_vma_chain_link",
        "avc#{avc}: vma#{vma} linked on anon_vma#{anon_vma}'s list"
    );
    // LEFT OUT: `spin_unlock(&anon_vma->lock)` (012f1800: `anon_vma_unlock(anon_vma)`) is
    // this drop of the guard.
    // MODEL: the guard's drop.
    drop(lock);
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
    // MODEL: `list_for_each_entry_reverse(pavc, &src->anon_vma_chain, same_vma)` over a
    // snapshot of src's chain (`chain_of`): the same entries, as no one else changes src's
    // chain (mmap_sem is held for write).
    // LEFT OUT: that loop header is this `for`; `avc = anon_vma_chain_alloc()` is the
    // `let avc` line (which the tool reads as a name), and its failure (`goto
    // enomem_failure`): the models' pool never runs dry.
    for pavc in chain_of(mm, "anon_vma_clone", src).into_iter().rev() {
        let avc = anon_vma_chain_alloc(mm);
        anon_vma_chain_link::<L>(mm, dst, avc, mm.avcs[pavc].anon_vma.get());
    }
    0
    // LEFT OUT: `enomem_failure: unlink_anon_vmas(dst); return -ENOMEM;`: never reached (see
    // above).
}

/// `anon_vma_unlink(anon_vma_chain)` (mm/rmap.c, 2.6.34): `list_del` of `same_anon_vma` under
/// the anon_vma lock; "We must garbage collect the anon_vma if it's empty": an anon_vma left
/// empty is freed (`anon_vma_free`, after the unlock).
pub fn anon_vma_unlink<L: ChainLock>(mm: &Mm, avc: AvcId) {
    let anon_vma = mm.avcs[avc].anon_vma.get();
    // LEFT OUT: `if (!anon_vma) return;` ("If anon_vma_fork fails, we can get an empty
    // anon_vma_chain"): anon_vma_fork never fails in the models, so every avc has one.
    // LEFT OUT: `int empty` (declared where it is set, below).
    let lock = L::anon_vma_lock(mm, anon_vma);
    list_del(mm, "anon_vma_unlink", mm.same_anon_vma(avc));
    ktrace!(
        "anon_vma_unlink",
        "avc#{avc} off anon_vma#{anon_vma}'s list"
    );

    // We must garbage collect the anon_vma if it's empty
    // LEFT OUT: `&& !ksm_refcount(anon_vma)` (2.6.35: `!anonvma_external_refcount(anon_vma)`):
    // no model has KSM, and no model's migration holds a reference while an anon_vma empties
    // (the only model that empties one, root_reuse_vs_reclaim, walks it for reclaim).
    let empty = list_empty(mm, mm.anon_vma_head(anon_vma));
    // LEFT OUT: `spin_unlock(&anon_vma->lock)` (012f1800: `anon_vma_unlock(anon_vma)`) is the
    // drop of the guard: the avc named this anon_vma until the list_del above, under the lock,
    // so it was not freed since the lock was taken and its root is the one locked.
    // MODEL: the guard's drop.
    drop(lock);

    if empty {
        anon_vma_free(mm, anon_vma);
    }
}

/// `unlink_anon_vmas(vma)` (mm/rmap.c, 2.6.34).
pub fn unlink_anon_vmas<L: ChainLock>(mm: &Mm, vma: VmaId) {
    // MODEL: `list_for_each_entry_safe(avc, next, &vma->anon_vma_chain, same_vma)` over a
    // snapshot of the chain (`chain_of`): what _safe gives, the walk survives each list_del.
    // LEFT OUT: that loop header is this `for`.
    for avc in chain_of(mm, "unlink_anon_vmas", vma) {
        anon_vma_unlink::<L>(mm, avc);
        list_del(mm, "unlink_anon_vmas", mm.same_vma(avc));
        // LEFT OUT: `anon_vma_chain_free(avc)`: the pool entry is not reused in the models.
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

/// `__insert_vm_struct(mm, vma)` + `__vma_link(mm, vma, prev, rb_link, rb_parent)` (mm/mmap.c,
/// 2.6.34): `__vma_link` no longer calls `__anon_vma_link` (the vma was linked by
/// `anon_vma_clone` in `__split_vma`), and is written here inline.
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
    // LEFT OUT: the call `__vma_link(mm, vma, prev, rb_link, rb_parent)`, whose body follows
    // inline; `mm->map_count++`: no map count in the models.
    __vma_link_list(mm, vma, prev);
    // LEFT OUT: `__vma_link_rb(mm, vma, rb_link, rb_parent)`: no rb-tree in the models.
}

/// `page_lock_anon_vma(page)` (mm/rmap.c, 2.6.34; 2.6.36: `anon_vma_lock(anon_vma)`): the
/// lock is returned as a guard, which the caller hands to [`page_unlock_anon_vma`].
pub fn page_lock_anon_vma<L: ChainLock>(
    mm: &Mm,
    page: PageId,
) -> Option<(AnonVmaId, SpinGuard<'_, ()>)> {
    // LEFT OUT: `rcu_read_lock()`: anon_vma_cachep is SLAB_DESTROY_BY_RCU, so the read-side
    // section keeps a freed anon_vma an anon_vma (it may be reused as another); the models'
    // anon_vmas are never returned to the page allocator, so every reader has that without it.
    // MODEL: `anon_mapping = ACCESS_ONCE(page->mapping)`, the PAGE_MAPPING_FLAGS test (no KSM
    // pages: the ANON bit alone) and the cast are `page_anon_vma()`; None returns NULL (`?`).
    let anon_vma = page_anon_vma(mm, page)?;
    if !page_mapped(mm, page) {
        // LEFT OUT: `goto out; ... out: rcu_read_unlock(); return NULL;` is this return (no
        // RCU); the cast, the lock and `return anon_vma` are the last line.
        return None;
    }
    // MODEL: `spin_lock(&anon_vma->lock)` (012f1800: `anon_vma_lock(anon_vma)`) and `return
    // anon_vma`, the lock as a guard.
    Some((anon_vma, L::anon_vma_lock(mm, anon_vma)))
}

/// `page_unlock_anon_vma(anon_vma)` (mm/rmap.c, 2.6.34; 2.6.36: `anon_vma_unlock(anon_vma)`).
pub fn page_unlock_anon_vma<'a, L: ChainLock>(
    mm: &'a Mm,
    anon_vma: AnonVmaId,
    lock: SpinGuard<'a, ()>,
) {
    // MODEL: `spin_unlock(&anon_vma->lock)` (012f1800: `anon_vma_unlock(anon_vma)`), the era's
    // unlock given the guard page_lock_anon_vma returned.
    L::anon_vma_unlock(mm, anon_vma, lock);
    // LEFT OUT: `rcu_read_unlock()`: see page_lock_anon_vma.
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

/// The `rmap_one` a walk calls: `remove_migration_pte(new, vma, addr, old)`, the era's.
pub type RmapOne = fn(&Mm, PageId, VmaId, usize, PageId) -> i32;

/// `rmap_walk_anon(page, rmap_one, arg)` (mm/rmap.c, 2.6.34; 2.6.36 `anon_vma_lock`) with
/// `arg` = `old`: what `remove_migration_ptes(old, new)` -> `rmap_walk(new,
/// remove_migration_pte, old)` runs for an anon page (`rmap_one`: the era's
/// `remove_migration_pte`, 486cf46f's from 3.1 on).
pub fn rmap_walk_anon<L: ChainLock>(mm: &Mm, page: PageId, rmap_one: RmapOne, old: PageId) -> i32 {
    // LEFT OUT: `int ret = SWAP_AGAIN` is the next line (which the tool reads as a name for
    // SWAP_AGAIN).
    let mut ret = SWAP_AGAIN;
    let Some(anon_vma) = page_anon_vma(mm, page) else {
        // LEFT OUT: `if (!anon_vma)` is the `let ... else` above.
        // MODEL: `return ret`.
        return ret;
    };
    let lock = L::anon_vma_lock(mm, anon_vma);
    // MODEL: `list_for_each_entry(avc, &anon_vma->head, same_anon_vma)` as a walk of the
    // list's nodes: `list_next` fails on a poisoned link, `avc_vma` is `avc->vma`.
    // LEFT OUT: that loop header is this `while`, `vma = avc->vma` is `avc_vma`.
    let head = mm.anon_vma_head(anon_vma);
    let mut node = list_next(mm, "rmap_walk_anon", head);
    while node != head {
        let vma = avc_vma(mm, "rmap_walk_anon", node);
        let address = vma_address(mm, page, vma);
        if address != EFAULT {
            // LEFT OUT: `continue` on -EFAULT is the `if` above.
            // MODEL: `arg` is `old`.
            ret = rmap_one(mm, page, vma, address, old);
            if ret != SWAP_AGAIN {
                break;
            }
        }
        // MODEL: the loop's step to the next entry.
        node = list_next(mm, "rmap_walk_anon", node);
    }
    // MODEL: `spin_unlock(&anon_vma->lock)` (012f1800: `anon_vma_unlock(anon_vma)`, the root
    // read again: this anon_vma came from page->mapping, not from a vma or avc held).
    L::anon_vma_unlock(mm, anon_vma, lock);
    // LEFT OUT: `return ret` is the tail `ret`.
    // MODEL: the tail `ret`.
    ret
}

/// `is_vma_temporary_stack(vma)` (mm/rmap.c, a8bef8ff; non-static `bool`, the same body, first
/// seen in 5dbe0af4's stored tree): the stack exec has not finished setting up.
pub fn is_vma_temporary_stack(mm: &Mm, vma: VmaId) -> bool {
    // MODEL: one load of `vma->vm_flags` for the C's two reads (mmap_sem is not held here: a
    // concurrent setup_arg_pages may clear the bit between them; either value is a state the
    // C can read, and the test below reads the bits it needs from the same load).
    let vm_flags = READ_ONCE(&mm.vmas[vma].vm_flags);
    let maybe_stack = vm_flags & (VM_GROWSDOWN | VM_GROWSUP);

    if maybe_stack == 0 {
        // LEFT OUT: the C's `return false;` is this one.
        // MODEL: `return false`.
        return false;
    }

    if (vm_flags & VM_STACK_INCOMPLETE_SETUP) == VM_STACK_INCOMPLETE_SETUP {
        // LEFT OUT: the C's `return true;` and its last `return false;` are the two below.
        // MODEL: `return true`, then the tail `false`.
        return true;
    }

    false
}

/// The `AnonRmap` of a chain-era rmap `$t` (a `ChainLock`): 2.6.34's code with `$t`'s locks.
/// `chain_rmap!($t, walk)` names the `rmap_walk_anon` that `remove_migration_ptes` runs when
/// the variant's differs from 2.6.34's (mel-v6's); `chain_rmap!($t, walk, rmap_one)` also
/// the `remove_migration_pte` it calls when that differs (486cf46f's).
macro_rules! chain_rmap {
    ($t:ty) => {
        chain_rmap!($t, rmap_walk_anon::<$t>);
    };
    ($t:ty, $walk:expr) => {
        chain_rmap!($t, $walk, remove_migration_pte);
    };
    ($t:ty, $walk:expr, $rmap_one:expr) => {
        impl AnonRmap for $t {
            const ERA: &'static str = <$t as ChainLock>::ERA;
            const SPLIT_LINKS_NEW_BEFORE_ADJUST: bool = true;
            const REMOVED_NEXT_UNLINKED_AFTER_ADJUST: bool = true;

            /// `anon_vma_prepare(vma)` (mm/rmap.c, 2.6.34): `vma->anon_vma = anon_vma;
            /// anon_vma_chain_link(vma, avc, anon_vma);`.
            fn anon_vma_prepare(mm: &Mm, vma: VmaId, av: AnonVmaId) {
                // LEFT OUT: `anon_vma = vma->anon_vma; might_sleep(); if (!anon_vma)`, `mm`:
                // the caller (a model's setup, or a CPU's first fault in the vma) passes the
                // anon_vma the fault gets (`av`; the vma has none yet); `avc = anon_vma_chain_alloc()` is the `let avc` line
                // (which the tool reads as a name), its failure: never (the pool is sized).
                let avc = anon_vma_chain_alloc(mm);
                // MODEL: `anon_vma = find_mergeable_anon_vma(vma); allocated = NULL; if
                // (!anon_vma) { anon_vma = anon_vma_alloc(); ... }`: the caller passes the
                // anon_vma the fault gets (`av`): one a neighbour already has (what
                // find_mergeable_anon_vma found: the reuse model's fault calls the variant's
                // `find_mergeable_anon_vma` first) or, if no vma is on it, a new one from
                // anon_vma_alloc() (a harness check that it is free; `allocated` and the
                // failure: nothing is freed back or fails here). The emptiness test reads the
                // list without its lock: no other CPU of the models links on an anon_vma while
                // one is handed out (loom would report a race if one did).
                if list_empty(mm, mm.anon_vma_head(av)) {
                    anon_vma_alloc(mm, av);
                    if <$t as ChainLock>::ROOT {
                        // This VMA had no anon_vma yet.  This anon_vma is the root of any
                        // anon_vma tree that might form.
                        WRITE_ONCE(&mm.anon_vmas[av].root, av);
                    }
                }
                mm.vmas[vma].anon_vma.set(Some(av));
                // LEFT OUT: DISCREPANCY (reported): the C does not call anon_vma_chain_link:
                // under the anon_vma lock and page_table_lock (and `if (!vma->anon_vma)`) it
                // sets vma->anon_vma, avc->anon_vma, avc->vma, `list_add(&avc->same_vma, ..)`
                // and `list_add(&avc->same_anon_vma, &anon_vma->head)`, a head insertion;
                // anon_vma_chain_link below adds at the tail, so a later set-up vma is walked
                // last instead of first. `allocated`/`avc = NULL`, the frees, `return 0` and
                // the -ENOMEM labels: no fault races this one for the vma, so nothing is freed
                // back, and nothing fails here.
                // MODEL: DISCREPANCY (reported): the link by anon_vma_chain_link (tail).
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
                // LEFT OUT: `avc = anon_vma_chain_alloc()` is the `let avc` line (which the
                // tool reads as a name); the failures (`goto out_error...`): never here.
                // MODEL: `anon_vma = anon_vma_alloc()`: the caller names the object
                // (`new_av`), checked free.
                let new_av = anon_vma_alloc(mm, new_av);
                let avc = anon_vma_chain_alloc(mm);
                // MODEL: 012f1800 (5c341ee1): `anon_vma->root = pvma->anon_vma->root`; 2.6.34
                // (ChainRmap, ROOT false) has no root.
                if <$t as ChainLock>::ROOT {
                    // The root anon_vma's spinlock is the lock actually used when we lock any
                    // of the anon_vmas in this anon_vma tree.
                    let root = READ_ONCE(&mm.anon_vmas[parent_av].root);
                    // MODEL: the C's one assignment, as the read above and this store.
                    WRITE_ONCE(&mm.anon_vmas[new_av].root, root);
                }
                // LEFT OUT: DISCREPANCY (reported): 012f1800 sets `vma->anon_vma = anon_vma`
                // here, before the link; the Rust sets it after the link (2.6.34's order).
                // Setup only (fork before any CPU runs): the same end state.
                anon_vma_chain_link::<$t>(mm, vma, avc, new_av);
                // Mark this anon_vma as the one where our new (COWed) pages go.
                // MODEL: DISCREPANCY (reported): 2.6.34's place of `vma->anon_vma =
                // anon_vma`, also for 012f1800 (see above).
                mm.vmas[vma].anon_vma.set(Some(new_av));
                // LEFT OUT: DISCREPANCY (reported): 012f1800's `anon_vma_chain_link(vma, avc,
                // anon_vma)` comes here, after `vma->anon_vma = anon_vma`: the Rust links above.
                0
                // LEFT OUT: the error labels (`anon_vma_free`, `unlink_anon_vmas(vma)`,
                // `return -ENOMEM`): nothing fails here.
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
                // LEFT OUT: `err = -ENOMEM` (the error paths below are never taken); the
                // hugetlb alignment check (no hugetlb vmas); `kmem_cache_alloc`: the new vma
                // is the unused slot `new` the caller gives.
                let v = &mm.vmas[vma];
                let n = &mm.vmas[new];
                // most fields are the same, copy all, and then fixup
                // MODEL: `*new = *vma` as a copy of the fields the model has: vm_start, vm_end
                // and vm_pgoff here, anon_vma and vm_mm below (the tool pairs `*new = *vma`
                // with vm_mm's).
                let (start, end, pgoff) = (
                    READ_ONCE(&v.vm_start),
                    READ_ONCE(&v.vm_end),
                    READ_ONCE(&v.vm_pgoff),
                );
                WRITE_ONCE(&n.vm_start, start);
                WRITE_ONCE(&n.vm_end, end);
                WRITE_ONCE(&n.vm_pgoff, pgoff);
                // LEFT OUT: `if (!new) goto out_err;` (the tool pairs its `if` with the copy
                // of vm_pgoff above): the slot always exists.
                // MODEL: the copy of `anon_vma`, part of `*new = *vma`.
                n.anon_vma.set(v.anon_vma.get());
                n.vm_mm.set(v.vm_mm.get());
                // LEFT OUT: `INIT_LIST_HEAD(&new->anon_vma_chain)`: the slot's chain head is
                // empty (the machine starts every head empty, and a slot is used once).
                // MODEL: ghost state: the slot is a live vma (a walk may reach it).
                n.freed.set(false);

                if new_below {
                    WRITE_ONCE(&n.vm_end, addr);
                } else {
                    WRITE_ONCE(&n.vm_start, addr);
                    WRITE_ONCE(&n.vm_pgoff, pgoff + ((addr - start) >> PAGE_SHIFT));
                }
                // LEFT OUT: `mpol_dup`/`vma_set_policy` and its error: the models' vmas have no
                // mempolicy.
                // MODEL: new's bounds, for the trace and for `new->vm_start` in the call below.
                let (ns, ne) = (READ_ONCE(&n.vm_start), READ_ONCE(&n.vm_end));
                ktrace!(
                    "__split_vma",
                    "vma#{vma} at {addr:#x}: new vma#{new} [{ns:#x}, {ne:#x})"
                );

                if anon_vma_clone::<$t>(mm, new, vma) != 0 {
                    // MODEL: `goto out_free_mpol` (never taken: the pool never runs dry).
                    return -ENOMEM;
                }
                // LEFT OUT: `get_file`/`added_exe_file_vma` and `vm_ops->open`: anonymous
                // vmas, without vm_ops.

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
                // LEFT OUT: `if (!err) return 0;` and the error path (vm_ops->close, fput,
                // `unlink_anon_vmas(new)`, `mpol_put`, `kmem_cache_free`): vma_adjust fails
                // only if anon_vma_clone does, which the models' pool never lets happen.
                err
            }

            /// `page_referenced_anon(page, mem_cont, vm_flags)` (mm/rmap.c, 2.6.34), with
            /// `page_referenced_one(page, vma, address, &mapcount, vm_flags)` written inline.
            fn page_referenced_anon(mm: &Mm, page: PageId) -> usize {
                let mut referenced = 0;
                let Some((anon_vma, lock)) = <$t as ChainLock>::page_lock_anon_vma(mm, page) else {
                    // LEFT OUT: `if (!anon_vma)` is the `let ... else` above.
                    return referenced;
                };
                let mut mapcount = page_mapcount(mm, page);
                // MODEL: `list_for_each_entry(avc, &anon_vma->head, same_anon_vma)` as a walk
                // of the list's nodes: `list_next` fails on a poisoned link, `avc_vma` is
                // `avc->vma`.
                // LEFT OUT: that loop header is this `while`, `vma = avc->vma` is `avc_vma`.
                let head = mm.anon_vma_head(anon_vma);
                let mut node = list_next(mm, "page_referenced_anon", head);
                while node != head {
                    let vma = avc_vma(mm, "page_referenced_anon", node);
                    let address = vma_address(mm, page, vma);
                    // page_referenced_one(page, vma, address, &mapcount, vm_flags)
                    if address != EFAULT && page_check_address(mm, page, vma, address).is_some() {
                        // LEFT OUT: `continue` on -EFAULT is the `if` above; the `mem_cont`
                        // skip: no memcg (the model's reclaim walks the whole machine).
                        // `referenced += page_referenced_one(...)` is written inline: its
                        // `pte = page_check_address(...); if (!pte) goto out;` is the `&&`
                        // above; its VM_LOCKED branch (no mlocked vmas), young bit test and
                        // swap token (the model counts every mapping found as referenced:
                        // its rmap invariant) and vm_flags: left out; its pte unlock is the
                        // drop of page_check_address's guard in the test above.
                        // MODEL: page_referenced_one's `referenced++` and `(*mapcount)--`,
                        // for every mapping found.
                        referenced += 1;
                        mapcount -= 1;
                        // MODEL: the C tests `if (!mapcount) break;` after every vma; here
                        // only after a mapping found, the only time mapcount changes.
                        if mapcount == 0 {
                            break;
                        }
                    }
                    // MODEL: the loop's step to the next entry.
                    node = list_next(mm, "page_referenced_anon", node);
                }
                page_unlock_anon_vma::<$t>(mm, anon_vma, lock);
                ktrace!(
                    "page_referenced_anon",
                    "page {page}: {referenced} mapping(s) found"
                );
                referenced
            }

            /// `try_to_unmap_anon(page, TTU_MIGRATION)` (mm/rmap.c, 2.6.34; a8bef8ff's skip of a
            /// temporary stack where `$t`'s kernel has it: `ChainLock::STACK_SKIP`).
            fn try_to_unmap_anon(mm: &Mm, page: PageId) -> i32 {
                // LEFT OUT: `int ret = SWAP_AGAIN` is the next line (which the tool reads as
                // a name for SWAP_AGAIN).
                let mut ret = SWAP_AGAIN;
                let Some((anon_vma, lock)) = <$t as ChainLock>::page_lock_anon_vma(mm, page) else {
                    // LEFT OUT: `if (!anon_vma)` is the `let ... else` above.
                    // MODEL: `return ret`.
                    return ret;
                };
                // MODEL: `list_for_each_entry(avc, &anon_vma->head, same_anon_vma)` as a walk
                // of the list's nodes: `list_next` fails on a poisoned link, `avc_vma` is
                // `avc->vma`.
                // LEFT OUT: that loop header is this `while`, `vma = avc->vma` is `avc_vma`.
                let head = mm.anon_vma_head(anon_vma);
                let mut node = list_next(mm, "try_to_unmap_anon", head);
                while node != head {
                    let vma = avc_vma(mm, "try_to_unmap_anon", node);

                    // During exec, a temporary VMA is setup and later moved.
                    // The VMA is moved under the anon_vma lock but not the
                    // page tables leading to a race where migration cannot
                    // find the migration ptes. Rather than increasing the
                    // locking requirements of exec(), migration skips
                    // temporary VMAs until after exec() completes.
                    // MODEL: the test only where the kernel has it (a8bef8ff on:
                    // `ChainLock::STACK_SKIP`); the const is read first, so 2.6.34's walk
                    // makes no load of vm_flags.
                    // LEFT OUT: `PAGE_MIGRATION && (flags & TTU_MIGRATION)` (by 108d6642's
                    // tree `IS_ENABLED(CONFIG_MIGRATION)`; the commit UNVERIFIED): the models'
                    // only try_to_unmap is migration's (CONFIG_MIGRATION).
                    if <$t as ChainLock>::STACK_SKIP && is_vma_temporary_stack(mm, vma) {
                        ktrace!(
                            "try_to_unmap_anon",
                            "vma#{vma} is a temporary stack: skipped"
                        );
                        // MODEL: `continue`: the step to the next entry.
                        node = list_next(mm, "try_to_unmap_anon", node);
                        continue;
                    }

                    let address = vma_address(mm, page, vma);
                    if address != EFAULT {
                        // LEFT OUT: `continue` on -EFAULT is the `if` above.
                        ret = try_to_unmap_one(mm, page, vma, address);
                        if ret != SWAP_AGAIN || !page_mapped(mm, page) {
                            break;
                        }
                    }
                    // MODEL: the loop's step to the next entry.
                    node = list_next(mm, "try_to_unmap_anon", node);
                }
                page_unlock_anon_vma::<$t>(mm, anon_vma, lock);
                // LEFT OUT: `return ret` is the tail `ret`.
                // MODEL: the tail `ret`.
                ret
            }

            /// `remove_migration_ptes(old, new)` (mm/migrate.c, 2.6.34):
            /// `rmap_walk(new, remove_migration_pte, old)`.
            fn remove_migration_ptes(mm: &Mm, old: PageId, new: PageId) {
                $walk(mm, new, $rmap_one, old);
            }

            /// `anon_vma_clone(dst, src)` (the shared [`anon_vma_clone`]) with `$t`'s locks.
            fn anon_vma_clone(mm: &Mm, dst: VmaId, src: VmaId) -> i32 {
                anon_vma_clone::<$t>(mm, dst, src)
            }

            fn find_mergeable_anon_vma(mm: &Mm, vma: VmaId) -> Option<AnonVmaId> {
                crate::mm::vma_2_6_34::find_mergeable_anon_vma(mm, vma)
            }

            fn __page_set_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize) {
                crate::mm::vma_2_6_34::__page_set_anon_rmap(mm, page, vma, address)
            }

            fn vma_lock_anon_vma(mm: &Mm, vma: VmaId) -> Option<SpinGuard<'_, ()>> {
                <$t as ChainLock>::vma_lock_anon_vma(mm, vma)
            }

            fn vma_unlock_anon_vma<'a>(mm: &'a Mm, vma: VmaId, lock: Option<SpinGuard<'a, ()>>) {
                <$t as ChainLock>::vma_unlock_anon_vma(mm, vma, lock)
            }

            /// `unlink_anon_vmas(vma)`, as `free_pgtables()` calls it.
            fn free_pgtables_unlink(mm: &Mm, vma: VmaId) {
                unlink_anon_vmas::<$t>(mm, vma);
            }

            fn check_anon_vma_lists(mm: &Mm) {
                check_chains(mm);
            }

            // The exec side of a8bef8ff where `$t`'s kernel has it (`TEMP_STACK`), 2.6.34's
            // otherwise (src/mm/exec.rs).
            fn __bprm_mm_init(mm: &Mm, vma: VmaId) {
                if <$t as ChainLock>::TEMP_STACK {
                    crate::mm::exec::__bprm_mm_init_temp_stack(mm, vma)
                } else {
                    crate::mm::exec::__bprm_mm_init(mm, vma)
                }
            }

            fn setup_arg_pages<V: VmaAdjust>(mm: &Mm, vma: VmaId, stack_shift: usize) -> i32 {
                if <$t as ChainLock>::TEMP_STACK {
                    crate::mm::exec::setup_arg_pages_temp_stack::<V>(mm, vma, stack_shift)
                } else {
                    crate::mm::exec::setup_arg_pages::<V>(mm, vma, stack_shift)
                }
            }
        }
    };
}
pub(crate) use chain_rmap;

chain_rmap!(ChainRmap);
chain_rmap!(RootChainRmap);

/// `anon_vma_compatible(a, b)` (mm/mmap.c, d0e9fe17): "Rough compatbility check to quickly
/// see if it's even worth looking at sharing an anon_vma. They need to have the same vm_file,
/// and the flags can only differ in things that mprotect may change."
fn anon_vma_compatible(mm: &Mm, a: VmaId, b: VmaId) -> bool {
    // MODEL: the two vmas by name.
    let (va, vb) = (&mm.vmas[a], &mm.vmas[b]);
    // LEFT OUT: `mpol_equal(vma_policy(a), vma_policy(b))`: no mempolicies in the models (both
    // NULL, equal).
    READ_ONCE(&va.vm_end) == READ_ONCE(&vb.vm_start)
        && va.vm_file == vb.vm_file
        && (READ_ONCE(&va.vm_flags) ^ READ_ONCE(&vb.vm_flags)) & !(VM_READ | VM_WRITE | VM_EXEC)
            == 0
        && READ_ONCE(&vb.vm_pgoff)
            == READ_ONCE(&va.vm_pgoff)
                + ((READ_ONCE(&vb.vm_start) - READ_ONCE(&va.vm_start)) >> PAGE_SHIFT)
}

/// `reusable_anon_vma(old, a, b)` (mm/mmap.c, d0e9fe17): "Do some basic sanity checking to see
/// if we can re-use the anon_vma from 'old'. The 'a'/'b' vma's are in VM order - one of them
/// will be the same as 'old', the other will be the new one that is trying to share the
/// anon_vma. [...] IOW: that the "list_is_singular()" test on the anon_vma_chain only matters
/// for the 'stable anon_vma' case (ie the thing we want to avoid is to return an anon_vma that
/// is "complex" due to having gone through a fork)."
fn reusable_anon_vma(mm: &Mm, old: VmaId, a: VmaId, b: VmaId) -> Option<AnonVmaId> {
    if anon_vma_compatible(mm, a, b) {
        // MODEL: `ACCESS_ONCE(old->anon_vma)` as a plain read: the models run this in one
        // CPU's fault, and no other CPU sets `old`'s anon_vma meanwhile.
        let anon_vma = mm.vmas[old].anon_vma.get();

        if anon_vma.is_some() && list_is_singular(mm, mm.anon_vma_chain(old)) {
            return anon_vma;
        }
        ktrace!(
            "reusable_anon_vma",
            "vma#{old}'s anon_vma {} not reused: {} entries on its anon_vma_chain",
            anon_vma.map_or("(none)".to_string(), |a| format!("#{a}")),
            anon_vma_chain_len(mm, old)
        );
    }
    None
}

/// `__page_set_anon_rmap(page, vma, address)` (mm/rmap.c, ea90002b "anonvma: when setting up
/// page->mapping, we need to pick the _oldest_ anonvma", Linus Torvalds, 2.6.34-rc; e8a03feb,
/// next in 2.6.34-rc, added the `exclusive` argument, 0 from page_add_anon_rmap; 288468c3,
/// 2.6.36-rc, reads `anon_vma->root` instead of the chain): "setup new anonymous rmap".
/// `page->mapping` becomes the anon_vma of the last entry of the vma's anon_vma_chain, the
/// oldest: `anon_vma_fork` adds the child's own anon_vma at the chain's head, after the
/// parent's, so the last entry is the one every process that may map the page is on.
pub fn __page_set_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize) {
    // LEFT OUT: the declarations `struct anon_vma_chain *avc; struct anon_vma *anon_vma;`
    // (e8a03feb: `*anon_vma = vma->anon_vma`): each is declared where it is set.
    BUG_ON!(
        "__page_set_anon_rmap",
        mm.vmas[vma].anon_vma.get().is_none()
    );

    // We must use the _oldest_ possible anon_vma for the page mapping!
    //
    // So take the last AVC chain entry in the vma, which is the deepest ancestor, and use
    // the anon_vma from that.
    // LEFT OUT: e8a03feb's `if (!exclusive) {`: page_add_anon_rmap, the only caller here,
    // passes 0 (the models set up new pages' mappings themselves, as page_add_new_anon_rmap
    // would with `exclusive` 1).
    // MODEL: `list_entry(vma->anon_vma_chain.prev, struct anon_vma_chain, same_vma)` is the
    // last entry of the chain as `chain_of` walks it (the vma has one: BUG_ON above).
    let Some(avc) = chain_of(mm, "__page_set_anon_rmap", vma).last().copied() else {
        return;
    };
    let anon_vma = mm.avcs[avc].anon_vma.get();

    ktrace!(
        "__page_set_anon_rmap",
        "page {page}: mapping = anon_vma#{anon_vma} (last of vma#{vma}'s chain, avc#{avc})"
    );

    // MODEL: `anon_vma + PAGE_MAPPING_ANON` is the models' mapping word of that anon_vma.
    let anon_vma = (anon_vma << 1) | PAGE_MAPPING_ANON;
    WRITE_ONCE(&mm.pages[page].mapping, anon_vma);
    WRITE_ONCE(&mm.pages[page].index, linear_page_index(mm, vma, address));
}

/// `find_mergeable_anon_vma(vma)` (mm/mmap.c, d0e9fe17; the same in 2.6.34 and 2.6.35 trees;
/// later trees read `vma->vm_prev` instead of calling find_vma_prev, from a commit not
/// identified here): "used by
/// anon_vma_prepare, to check neighbouring vmas for a suitable anon_vma, before it goes off to
/// allocate a new anon_vma". Since d0e9fe17 it reuses a neighbour's anon_vma only when the
/// neighbour's anon_vma_chain is that one entry, so that "every vma that shares the same
/// anon_vma will always also have the same chain" (its commit message), which
/// `anon_vma_merge()` relies on when it drops the removed vma's chain.
pub fn find_mergeable_anon_vma(mm: &Mm, vma: VmaId) -> Option<AnonVmaId> {
    // LEFT OUT: `struct anon_vma *anon_vma; struct vm_area_struct *near;`: declared where set.
    let near = mm.vmas[vma].vm_next.get();
    // MODEL: `if (!near) goto try_prev;` as the `if let` below: its block is the code up to
    // `try_prev:`, run when there is a next vma.
    if let Some(near) = near {
        // LEFT OUT: `goto try_prev;`: the end of the `if let` block (above).
        let anon_vma = reusable_anon_vma(mm, near, vma, near);
        if anon_vma.is_some() {
            ktrace!(
                "find_mergeable_anon_vma",
                "vma#{vma} reuses next vma#{near}'s anon_vma#{} (a one-entry chain)",
                anon_vma.expect("tested")
            );
            return anon_vma;
        }
    }
    // try_prev:
    // It is potentially slow to have to call find_vma_prev here. But it's only on the first
    // write fault on the vma, not every time, and we could devise a way to avoid it later
    // (e.g. stash info in next's anon_vma_node when assigning an anon_vma, or when trying
    // vma_merge).  Another time.
    // LEFT OUT: `BUG_ON(find_vma_prev(vma->vm_mm, vma->vm_start, &near) != vma)`: the model's
    // find_vma_prev gives the `&near` it stores (below), not the vma it returns, which is `vma`
    // by construction (vma is on its mm's list).
    // MODEL: find_vma_prev's `&near`.
    let near = find_vma_prev(
        mm,
        mm.vmas[vma].vm_mm.get(),
        READ_ONCE(&mm.vmas[vma].vm_start),
    );
    let Some(near) = near else {
        // LEFT OUT: `goto none;`: the `return NULL` it reaches is the next line.
        // MODEL: `return NULL` (after the `none:` label) as the `else` of the `let`.
        return None;
    };

    let anon_vma = reusable_anon_vma(mm, near, near, vma);
    if anon_vma.is_some() {
        ktrace!(
            "find_mergeable_anon_vma",
            "vma#{vma} reuses previous vma#{near}'s anon_vma#{} (a one-entry chain)",
            anon_vma.expect("tested")
        );
        return anon_vma;
    }
    // LEFT OUT: the `none:` label and its comment ("There's no absolute need to look only at
    // touching neighbours ..."): the fall-through to the `return NULL` below.
    None
}

/// The chain era's end check: each anon_vma's list holds exactly the avcs of the mm's vmas
/// that name it; each vma with an anon_vma has an avc for it.
pub fn check_chains(mm: &Mm) {
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
