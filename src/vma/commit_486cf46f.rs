//! 5dbe0af4's kernel with 486cf46f "mm: fix race between mremap and removing migration entry"
//! (Hugh Dickins, posted 19 Oct 2011 against 3.1-rc10, in 3.1): "The danger is that
//! move_ptes() lets a migration entry dodge around behind remove_migration_pte()'s back, so
//! it's in the old location when looking at the new, then in the new location when looking at
//! the old. Either mremap's move_ptes() must additionally take anon_vma lock(), or migration's
//! remove_migration_pte() must stop peeking for is_swap_entry() before it takes pagetable
//! lock. Consensus chooses the latter". `remove_migration_pte()` takes the pte lock before it
//! looks at the pte, so it waits for a `move_ptes()` that holds it. The fix of H-17 (vma.19).
//! The kernel between 3.0 and 3.1 is not modelled: the rest of this file is 5dbe0af4's
//! (5f70b962's `vma_adjust()`, Shaohua Li's condition, which two 3.1.x trees have; what else
//! changed in the modelled functions by 3.1, and why the models do not depend on it:
//! proofs/vma.19.md).

use crate::ktrace;
use crate::mm::vma::*;
use crate::mm::vma_2_6_34::*;
use crate::sync::{
    atomic_inc_return, spin_lock, spin_unlock, SpinGuard, READ_ONCE, READ_ONCE_DEP, WRITE_ONCE,
};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{BUG_ON, VM_BUG_ON};

/// 486cf46f.
pub struct Variant;

impl VmaAdjust for Variant {
    const META: VariantMeta = VariantMeta {
        id: "486cf46f",
        area: Area::Vma,
        kind: Kind::Commit {
            subject: "mm: fix race between mremap and removing migration entry",
        },
        parent: Some("5dbe0af4"),
        source: "Hugh Dickins's patch as posted on linux-mm, 19 Oct 2011, <alpine.LSU.2.00.1110191243300.6980@sister.anvils>, a diff against 3.1-rc10/mm/migrate.c (kernel/486cf46f/mm/migrate.c, partial: the lines outside its one hunk from a 3.1-3.7 copy of the function); mainline 486cf46f3f9be5f2a966016c1a8fe01e32cde09e, in 3.1 (Andrea Arcangeli, 5 Nov 2011: 'already merged in kernel v3.1'; Linus's 'applied and pushed out' of 19 Oct 2011 answers Pawel Sikora's test of 'the latest patch (mm/migrate.c)' and names no commit: that it is this one is our reading); the rest of the file is 5dbe0af4's, the kernel between 3.0 and 3.1 not modelled (proofs/vma.19.md).",
    };
    type Rmap = HangFixRmap;

    /// `vma_adjust(vma, start, end, pgoff, insert)` (mm/mmap.c, 3d48ae45's tree:
    /// kernel/5dbe0af4/mm/mmap.c; 5f70b962's function with `i_mmap_mutex`), anonymous vmas: the
    /// file (`mapping`, prio tree) paths are left out.
    fn vma_adjust(
        mm: &Mm,
        vma: VmaId,
        start: usize,
        end: usize,
        pgoff: usize,
        insert: Option<VmaId>,
    ) -> i32 {
        // LEFT OUT: `mm = vma->vm_mm`: the machine `mm` is passed in; a vma's mm is its
        // `vm_mm` index, read where the page table is (`pte_slot`).
        let v = &mm.vmas[vma];
        let mut next = v.vm_next.get();
        let mut end = end;
        let mut importer: Option<VmaId> = None;
        // LEFT OUT: `mapping`, `root`, `file`: the models' vmas are anonymous (`vm_file` is
        // false), so every file path below (i_mmap_mutex, prio tree) is dead code for them.
        let mut anon_vma: Option<AnonVmaId> = None;
        // LEFT OUT: the declarations this version's C has after `anon_vma` (`root`, `file`):
        // anonymous vmas, see above.
        let mut adjust_next: isize = 0;
        let mut remove_next = 0;
        // MODEL: `goto again` (into the first branch below) is the loop's `continue` with
        // `again` set; the loop re-tests `next && !insert`, which holds there (mprotect case 6
        // removes a second next that exists, and has no insert).
        let mut again = false;

        loop {
            if let (Some(nx), None) = (next, insert) {
                let nv = &mm.vmas[nx];
                // MODEL: next's bounds read once (only this mmap_sem holder writes them).
                let (n_start, n_end) = (READ_ONCE(&nv.vm_start), READ_ONCE(&nv.vm_end));
                let mut exporter: Option<VmaId> = None;
                // LEFT OUT: `if (end >= next->vm_end)` is the test below: its `again ||` is the
                // `again:` label inside that branch.

                if again || end >= n_end {
                    // vma expands, overlapping all the next, and perhaps the one after too
                    // (mprotect case 6).
                    // again:
                    remove_next = 1 + usize::from(end > n_end);
                    end = n_end;
                    exporter = Some(nx);
                    importer = Some(vma);
                } else if end > n_start {
                    // vma expands, overlapping part of the next: mprotect case 5 shifting the
                    // boundary up.
                    adjust_next = ((end - n_start) >> PAGE_SHIFT) as isize;
                    exporter = Some(nx);
                    importer = Some(vma);
                } else if end < READ_ONCE(&v.vm_end) {
                    // vma shrinks, and !insert tells it's not split_vma inserting another: so
                    // it must be mprotect case 4 shifting the boundary down.
                    adjust_next = -(((READ_ONCE(&v.vm_end) - end) >> PAGE_SHIFT) as isize);
                    exporter = Some(vma);
                    importer = Some(nx);
                }

                // Easily overlooked: when mprotect shifts the boundary, make sure the expanding
                // vma has anon_vma set if the shrinking vma had, to cover any anon pages
                // imported.
                // LEFT OUT: `if (exporter && exporter->anon_vma && !importer->anon_vma)` and
                // `if (anon_vma_clone(importer, exporter))` are the next three lines, with the
                // model's names `exp` and `imp`.
                // MODEL: those tests and the call, as `if let` on the Options.
                if let (Some(exp), Some(imp)) = (exporter, importer) {
                    if mm.vmas[exp].anon_vma.get().is_some()
                        && mm.vmas[imp].anon_vma.get().is_none()
                    {
                        if anon_vma_clone::<RootChainRmap>(mm, imp, exp) != 0 {
                            return -ENOMEM;
                        }
                        // LEFT OUT: `importer->anon_vma = exporter->anon_vma` is the next line.
                        // MODEL: that assignment, with the model's names.
                        mm.vmas[imp].anon_vma.set(mm.vmas[exp].anon_vma.get());
                    }
                }
            }

            // LEFT OUT: `if (file) { ... mutex_lock(&mapping->i_mmap_mutex); ... }`: anonymous
            // vmas only (no mapping or prio tree).
            // LEFT OUT: `vma_adjust_trans_huge(vma, start, end, adjust_next)` (THP, 2.6.38):
            // the models' pages are small, there is no huge pmd to split.

            // When changing only vma->vm_end, we don't really need anon_vma lock. This is a
            // fairly rare case by itself, but the anon_vma lock may be shared between many
            // sibling processes.  Skipping the lock for brk adjustments makes a difference
            // sometimes.
            if v.anon_vma.get().is_some() && (importer.is_some() || start != READ_ONCE(&v.vm_start))
            {
                anon_vma = v.anon_vma.get();
            }
            // MODEL: the anon_vma lock as a guard (counted for the lock statistics), released by
            // `drop(lock)` below.
            // LEFT OUT: `anon_vma_lock(anon_vma)` (= `spin_lock(&anon_vma->root->lock)`) is this
            // guard (the tool cannot pair the two); `if (root) { flush_dcache_mmap_lock;
            // vma_prio_tree_remove ... }`: file vmas only.
            let lock = anon_vma.map(|av| anon_vma_root_lock_for_adjust(mm, av));
            ktrace!(
                "vma_adjust",
                "vma#{vma}: [{start:#x}, {end:#x}) pgoff {pgoff:#x}: anon_vma lock {}",
                match anon_vma {
                    Some(av) => format!("of anon_vma#{av} taken"),
                    None => "skipped".to_string(),
                }
            );

            // MODEL: the C's plain stores of vm_start, vm_end, vm_pgoff (and next's below) in
            // program order: a compiler reordering of them is not explored (x86 keeps the
            // order of stores it is given).
            WRITE_ONCE(&v.vm_start, start);
            WRITE_ONCE(&v.vm_end, end);
            WRITE_ONCE(&v.vm_pgoff, pgoff);
            if adjust_next != 0 {
                // MODEL: `next` as the vma it names.
                let nv = &mm.vmas[next.expect("adjust_next needs next")];
                let ns = READ_ONCE(&nv.vm_start) as isize + (adjust_next << PAGE_SHIFT);
                // MODEL: each `+=` is a read and a store of the word (rmap walks read it
                // racily), signed arithmetic for the negative `adjust_next`.
                WRITE_ONCE(&nv.vm_start, ns as usize);
                // LEFT OUT: `next->vm_pgoff += adjust_next;` is the two lines below; `if (root)
                // { vma_prio_tree_insert ...; flush_dcache_mmap_unlock }`: file vmas only.
                let np = READ_ONCE(&nv.vm_pgoff) as isize + adjust_next;
                WRITE_ONCE(&nv.vm_pgoff, np as usize);
            }

            if remove_next != 0 {
                // vma_merge has merged next into vma, and needs us to remove next before
                // dropping the locks.
                __vma_unlink(mm, next.expect("remove_next needs next"), vma);
                // LEFT OUT: `if (file) __remove_shared_vm_struct(next, file, mapping)`: file
                // vmas only.
            } else if let Some(insert) = insert {
                // split_vma has split insert from vma, and needs us to insert it before
                // dropping the locks (it may either follow vma or precede it).
                __insert_vm_struct(mm, insert);
            }

            // LEFT OUT: `if (anon_vma) anon_vma_unlock(anon_vma)` is this drop of the guard; `if
            // (mapping) mutex_unlock(&mapping->i_mmap_mutex)`: file vmas only.
            // MODEL: the guard's drop.
            drop(lock); // if (anon_vma) anon_vma_unlock(anon_vma);

            if remove_next != 0 {
                // LEFT OUT: `if (file) { fput(file); ... removed_exe_file_vma }`: file vmas.
                // `if (next->anon_vma)` is the test below (`nx` is next).
                // MODEL: `next` as the vma it names; `if (next->anon_vma)` with that name.
                let nx = next.expect("remove_next needs next");
                if mm.vmas[nx].anon_vma.get().is_some() {
                    anon_vma_merge::<RootChainRmap>(mm, vma, nx);
                }
                // LEFT OUT: `mm->map_count--`, `mpol_put(vma_policy(next))`: no map count or
                // mempolicy in the models; `kmem_cache_free(vm_area_cachep, next)` is the next
                // line.
                // MODEL: the free marks the slot freed, so that a walk reaching it fails.
                kmem_cache_free_vma(mm, nx);
                // In mprotect's case 6 (see comments on vma_merge), we must remove another next
                // too. It would clutter up the code too much to do both in one go.
                if remove_next == 2 {
                    next = v.vm_next.get();
                    again = true;
                    // MODEL: `goto again` (with `again` set above); `break` ends the loop.
                    // LEFT OUT: `validate_mm(mm)`: a debug check of the rb-tree (DEBUG_MM_RB),
                    // which the models do not have.
                    continue;
                }
            }
            break;
        }
        0
    }
}

/// The anon rmap of 012f1800 (the root anon_vma's lock) with f18194275c39's
/// `page_lock_anon_vma()`.
pub struct HangFixRmap;

impl ChainLock for HangFixRmap {
    const ERA: &'static str = "2.6.36";
    const ROOT: bool = true;

    fn anon_vma_lock(mm: &Mm, anon_vma: AnonVmaId) -> SpinGuard<'_, ()> {
        RootChainRmap::anon_vma_lock(mm, anon_vma)
    }

    fn anon_vma_unlock<'a>(mm: &'a Mm, anon_vma: AnonVmaId, lock: SpinGuard<'a, ()>) {
        RootChainRmap::anon_vma_unlock(mm, anon_vma, lock)
    }

    fn vma_lock_anon_vma(mm: &Mm, vma: VmaId) -> Option<SpinGuard<'_, ()>> {
        <RootChainRmap as ChainLock>::vma_lock_anon_vma(mm, vma)
    }

    fn vma_unlock_anon_vma<'a>(mm: &'a Mm, vma: VmaId, lock: Option<SpinGuard<'a, ()>>) {
        <RootChainRmap as ChainLock>::vma_unlock_anon_vma(mm, vma, lock)
    }

    /// `page_lock_anon_vma(page)` (mm/rmap.c, f18194275c39): the lock is returned as a guard,
    /// which the caller hands to `page_unlock_anon_vma()`.
    fn page_lock_anon_vma(mm: &Mm, page: PageId) -> Option<(AnonVmaId, SpinGuard<'_, ()>)> {
        // LEFT OUT: `rcu_read_lock()`: see the shared page_lock_anon_vma (SLAB_DESTROY_BY_RCU).
        // MODEL: `anon_mapping = ACCESS_ONCE(page->mapping)`, the PAGE_MAPPING_FLAGS test (no KSM
        // pages: the ANON bit alone) and the cast are `page_anon_vma()`; None returns NULL (`?`).
        let anon_vma = page_anon_vma(mm, page)?;
        if !page_mapped(mm, page) {
            // LEFT OUT: `goto out` (its `out:` tail, `rcu_read_unlock()`: see above); the cast
            // `anon_vma = (struct anon_vma *) (anon_mapping - PAGE_MAPPING_ANON)` after this
            // branch is `page_anon_vma()` above.
            // MODEL: the `out:` tail's `return NULL`.
            return None;
        }
        ktrace!(
            "page_lock_anon_vma",
            "page {page} mapped, its anon_vma is anon_vma#{anon_vma}"
        );

        // MODEL: `ACCESS_ONCE(anon_vma->root)` is READ_ONCE_DEP: the lock below is taken
        // through the pointer it loads.
        let root_anon_vma = READ_ONCE_DEP(&mm.anon_vmas[anon_vma].root);
        let lock = spin_lock(&mm.anon_vmas[root_anon_vma].lock);
        ktrace!(
            "page_lock_anon_vma",
            "root anon_vma#{root_anon_vma}'s lock taken"
        );

        // If this page is still mapped, then its anon_vma cannot have been freed.  But if it
        // has been unmapped, we have no security against the anon_vma structure being freed
        // and reused (for another anon_vma: SLAB_DESTROY_BY_RCU guarantees that - so the
        // spin_lock above cannot corrupt): with anon_vma_prepare() or anon_vma_fork()
        // redirecting anon_vma->root before page_unlock_anon_vma() is called to unlock.
        if page_mapped(mm, page) {
            return Some((anon_vma, lock));
        }

        spin_unlock(lock);
        ktrace!(
            "page_lock_anon_vma",
            "page {page} unmapped under anon_vma#{root_anon_vma}'s lock: NULL"
        );
        // LEFT OUT: `out: rcu_read_unlock(); return NULL;` is this tail (see above for RCU).
        None
    }
}

chain_rmap!(
    HangFixRmap,
    rmap_walk_anon::<HangFixRmap>,
    remove_migration_pte
);

/// `remove_migration_pte(new, vma, addr, old)` (mm/migrate.c, 486cf46f): "Restore a potential
/// migration pte to a working pte entry", the pte looked at under the pte lock only, and the
/// whole `page_add_anon_rmap(new, vma, addr)` (5dbe0af4's: no bounds check).
pub fn remove_migration_pte(mm: &Mm, new: PageId, vma: VmaId, addr: usize, old: PageId) -> i32 {
    // LEFT OUT: `mm = vma->vm_mm` (`pte_slot` reads the vma's mm); the PageHuge branch (the
    // models' pages are small); the pgd/pud/pmd walk and its `goto out`s, `pmd_trans_huge`:
    // the models' page table has one level (`pte_slot`; beyond it is the walk's `goto out`).
    // MODEL: `goto out` for an address beyond the page table.
    let Some(slot) = pte_slot(mm, vma, addr) else {
        return SWAP_AGAIN;
    };
    // LEFT OUT: `ptep = pte_offset_map(pmd, addr)` is the slot above.

    // Peek to check is_swap_pte() before taking ptlock?  No, we
    // can race mremap's move_ptes(), which skips anon_vma lock.

    // LEFT OUT: `ptl = pte_lockptr(mm, pmd)` is the argument of the lock below.
    let ptl = spin_lock(pte_lockptr(mm, vma));
    let pte = READ_ONCE(&mm.ptes[slot]);
    // LEFT OUT: `if (!is_swap_pte(pte)) goto unlock;` is the test below (the models' only swap
    // ptes are migration entries); `entry = pte_to_swp_entry(pte)` is `let entry = pte`.
    // MODEL: `!is_swap_pte(pte)` and the `!is_migration_entry(entry)` of the C's next test as
    // one test; `goto unlock` is the return (the guard's drop unlocks).
    if !is_migration_entry(pte) {
        ktrace!(
            "remove_migration_pte",
            "{addr:#x} (vma#{vma}): no migration entry there (under the pte lock)"
        );
        return SWAP_AGAIN;
    }
    let entry = pte;
    if migration_entry_to_page(mm, entry) != old {
        // MODEL: `goto unlock`: returns (the guard's drop unlocks).
        return SWAP_AGAIN;
    }
    // LEFT OUT: `get_page(new)`: no page refcounts in these models; `pte_mkold(mk_pte(new,
    // vma->vm_page_prot))`, `is_write_migration_entry`/`pte_mkwrite`, the CONFIG_HUGETLB_PAGE
    // `pte_mkhuge`: the models' pte is the page's pfn, without protection, young, write or
    // huge bits; `flush_cache_page`: no caches.
    // MODEL: `set_pte_at(mm, addr, ptep, pte)` as one store of the page.
    WRITE_ONCE(&mm.ptes[slot], new);
    ktrace!(
        "remove_migration_pte",
        "{addr:#x} (vma#{vma}): migration entry of page {old} replaced by page {new}"
    );
    // LEFT OUT: the PageHuge rmap branch (`hugepage_add_anon_rmap`, `page_dup_rmap`) and `if
    // (PageAnon(new))`: the models' pages are small anon pages.
    page_add_anon_rmap(mm, new, vma, addr);
    // LEFT OUT: `else page_add_file_rmap(new)` (anon pages only); `update_mmu_cache`: no MMU
    // cache.
    // MODEL: `unlock: pte_unmap_unlock(ptep, ptl)` as the guard's drop.
    drop(ptl);
    // LEFT OUT: `out: return SWAP_AGAIN;` is the tail.
    // MODEL: the tail.
    SWAP_AGAIN
}

/// `__page_set_anon_rmap(page, vma, address, exclusive)` (mm/rmap.c, 3d48ae45): "set up new
/// anonymous rmap". A page that is already anonymous keeps its mapping: migration's new page
/// has the old page's (`move_to_new_page`), so `remove_migration_pte` changes nothing here.
/// This is what this file's `page_add_anon_rmap()` calls; the variant's
/// `VmaAdjust::__page_set_anon_rmap` (the swap-in model's, which no claim runs on this
/// variant) stays the chain era's default (ea90002b's form).
fn __page_set_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize, exclusive: bool) {
    let anon_vma = mm.vmas[vma].anon_vma.get();

    BUG_ON!("__page_set_anon_rmap", anon_vma.is_none());

    // LEFT OUT: `if (PageAnon(page))` is the test below.
    // MODEL: `PageAnon(page)` as the ANON bit of the page's mapping word.
    if READ_ONCE(&mm.pages[page].mapping) & PAGE_MAPPING_ANON != 0 {
        return;
    }

    // If the page isn't exclusively mapped into this vma, we must use the _oldest_ possible
    // anon_vma for the page mapping!
    // MODEL: `anon_vma` is set: the BUG_ON above stops the run otherwise.
    let mut anon_vma = anon_vma.expect("BUG_ON(!anon_vma) above");
    if !exclusive {
        anon_vma = READ_ONCE(&mm.anon_vmas[anon_vma].root);
    }

    ktrace!(
        "__page_set_anon_rmap",
        "page {page}: mapping = anon_vma#{anon_vma}"
    );
    // MODEL: `anon_vma = (void *) anon_vma + PAGE_MAPPING_ANON` is the models' mapping word of
    // that anon_vma.
    let anon_vma = (anon_vma << 1) | PAGE_MAPPING_ANON;
    // MODEL: `page->mapping = (struct address_space *) anon_vma` as one store.
    WRITE_ONCE(&mm.pages[page].mapping, anon_vma);
    WRITE_ONCE(&mm.pages[page].index, linear_page_index(mm, vma, address));
}

/// `page_add_anon_rmap(page, vma, address)` (mm/rmap.c, 3d48ae45): "add pte mapping to an
/// anonymous page"; "the caller needs to hold the pte lock, and the page must be locked in
/// the anon_vma case".
pub fn page_add_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize) {
    do_page_add_anon_rmap(mm, page, vma, address, false);
}

/// `do_page_add_anon_rmap(page, vma, address, exclusive)` (mm/rmap.c, 5dbe0af47f8a): the body of
/// `page_add_anon_rmap()`; the caller holds the pte lock and the page is locked.
fn do_page_add_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize, exclusive: bool) {
    // MODEL: `atomic_inc_and_test(&page->_mapcount)`: the new value is 0.
    let first = atomic_inc_return(&mm.pages[page]._mapcount) == 0;
    // LEFT OUT: `if (first) { __inc_zone_page_state(...) }`: statistics; `if
    // (unlikely(PageKsm(page))) return`: no KSM pages in the models.

    VM_BUG_ON!("do_page_add_anon_rmap", !PageLocked(mm, page));
    // address might be in next vma when migration races vma_adjust
    if first {
        __page_set_anon_rmap(mm, page, vma, address, exclusive);
    }
    // LEFT OUT: `else __page_check_anon_rmap(page, vma, address)`: CONFIG_DEBUG_VM checks of a
    // mapping that is not the first (its anon_vma's root and `page->index`); the models map
    // migration's new page once.
}
