//! The address-space side that `vma_adjust()` and the anon rmap walks touch, for both eras of
//! the anon rmap:
//!
//! * 2.6.31 (`super::vma_2_6_31`): each vma with an anon_vma is on that anon_vma's list by its
//!   `anon_vma_node`;
//! * 2.6.34 on (`super::vma_2_6_34`): each vma has a list of `anon_vma_chain` entries
//!   (`same_vma`), each on its anon_vma's list (`same_anon_vma`); `anon_vma_clone()` links a
//!   new vma before `vma_adjust`; 012f1800 (2.6.36) locks the root anon_vma.
//!
//! The machine here holds the structures of both (`struct vm_area_struct`, `struct anon_vma`,
//! `struct anon_vma_chain`, `struct page`'s anon fields, a page table with migration entries);
//! each variant names the code of its era through [`VmaAdjust::Rmap`]. What does not depend
//! on the era is here: `vma_address`, `page_check_address`, `try_to_unmap_one`,
//! `remove_migration_pte`, the migration entry helpers, `unmap_and_move` and the fault on a
//! migration entry, the mm list, and the end checks of the models.
//!
//! `vm_start`, `vm_end`, `vm_pgoff` are written under `mmap_sem` (one writer) and read by rmap
//! under the anon_vma lock only: word-sized racy reads the kernel relies on (`READ_ONCE` /
//! `WRITE_ONCE` words). List links, `vma->anon_vma` and the avc fields are lock-protected
//! plain words (`RaceCell`): loom reports two accesses no lock orders as a data race.

use crate::ktrace;
use crate::sync::{
    atomic_add_negative, atomic_inc_return, atomic_read, atomic_t, spin_lock, test_bit,
    unsigned_long, CName, EventCounter, RaceCell, SpinGuard, SpinLock, READ_ONCE, READ_ONCE_DEP,
    WRITE_ONCE,
};
use crate::trace::{fail, Invariant};
use crate::variant::VariantMeta;
use crate::{BUG_ON, VM_BUG_ON};

/// One version of mm/mmap.c's `vma_adjust()`.
pub trait VmaAdjust: 'static + Send + Sync {
    /// What the variant is (`crate::variant`).
    const META: VariantMeta;
    /// The anon rmap of the variant's kernel: `vma_2_6_31::AnonVmaList` (2.6.31: vmas on
    /// the anon_vma's list), `vma_2_6_34::ChainRmap` (2.6.34: anon_vma_chain) or
    /// `vma_2_6_34::RootChainRmap` (012f1800 on: the root anon_vma's lock).
    type Rmap: AnonRmap;
    /// `vma_adjust(vma, start, end, pgoff, insert)`, with `mmap_sem` held for write. 0 or
    /// `-ENOMEM` (from 2.6.34; `void` before, where it returns 0 here).
    fn vma_adjust(
        mm: &Mm,
        vma: VmaId,
        start: usize,
        end: usize,
        pgoff: usize,
        insert: Option<VmaId>,
    ) -> i32;
    /// The anon_vma that `anon_vma_prepare(vma)` reuses from a neighbour, or None (then it
    /// allocates one): `find_mergeable_anon_vma(vma)` as the variant's kernel had it. The
    /// default is the era's ([`AnonRmap::find_mergeable_anon_vma`]); 5beb4930 overrides it
    /// (the chain era began with 2.6.31's text, which d0e9fe17 replaced). Read by the reuse
    /// model (models/vma.rs, `vma_reuse`).
    fn find_mergeable_anon_vma(mm: &Mm, vma: VmaId) -> Option<AnonVmaId> {
        <Self::Rmap as AnonRmap>::find_mergeable_anon_vma(mm, vma)
    }
    /// `__page_set_anon_rmap(page, vma, address)` as the variant's kernel had it: what
    /// [`page_add_anon_rmap`] writes in `page->mapping` on a page's first mapping. The default
    /// is the era's ([`AnonRmap::__page_set_anon_rmap`]); 5beb4930 and d0e9fe17 override it
    /// (the chain era began with 2.6.33's text, the vma's own anon_vma, which ea90002b
    /// replaced). Read by the swap-in model (models/vma.rs, `vma_swapin`).
    fn __page_set_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize) {
        <Self::Rmap as AnonRmap>::__page_set_anon_rmap(mm, page, vma, address)
    }
    /// `copy_vma(&vma, addr, len, pgoff)` as the variant's kernel had it, with `mmap_sem` held
    /// for write: the vma mremap moves to, `new` if it allocates one (`*vmap` is `vma`). The
    /// default is 3.1's ([`crate::mm::mremap::copy_vma`]); 948f017b overrides it (its
    /// `anon_vma_moveto_tail()` when vma_merge succeeds). Read by the default
    /// [`VmaAdjust::copy_vma_need_rmap_locks`] (`move_vma`, the mremap models).
    fn copy_vma(
        mm: &Mm,
        vma: &mut VmaId,
        new: VmaId,
        addr: usize,
        len: usize,
        pgoff: usize,
    ) -> Option<VmaId>
    where
        Self: Sized,
    {
        crate::mm::mremap::copy_vma::<Self>(mm, vma, new, addr, len, pgoff)
    }
    /// `move_ptes(vma, old_pmd, old_addr, old_end, new_vma, new_pmd, new_addr)` as the
    /// variant's kernel had it: the pte moves of one batch, under the pte lock. The default is
    /// 2.6.34's ([`crate::mm::mremap::move_ptes`]); 108d6642 overrides it (the anon_vma lock
    /// around the batch). Read by the default [`VmaAdjust::move_ptes_need_rmap_locks`]
    /// (`move_page_tables`: exec's `shift_arg_pages`, mremap's `move_vma`).
    fn move_ptes(
        mm: &Mm,
        vma: VmaId,
        old_addr: usize,
        old_end: usize,
        new_vma: VmaId,
        new_addr: usize,
    ) where
        Self: Sized,
    {
        crate::mm::mremap::move_ptes(mm, vma, old_addr, old_end, new_vma, new_addr)
    }
    /// `copy_vma(&vma, addr, len, pgoff, &need_rmap_locks)` as the variant's kernel had it
    /// (38a76013 on). The default is [`VmaAdjust::copy_vma`], the flag left as `move_vma` set
    /// it (earlier kernels have none, and their `move_ptes` ignores it). Read by `move_vma`.
    /// The shared code calls only the two `_need_rmap_locks` methods; `copy_vma` and
    /// `move_ptes` are reached through their defaults, so a variant from 38a76013 on overrides
    /// these two and leaves the older pair unused.
    fn copy_vma_need_rmap_locks(
        mm: &Mm,
        vma: &mut VmaId,
        new: VmaId,
        addr: usize,
        len: usize,
        pgoff: usize,
        need_rmap_locks: &mut bool,
    ) -> Option<VmaId>
    where
        Self: Sized,
    {
        let _ = need_rmap_locks;
        Self::copy_vma(mm, vma, new, addr, len, pgoff)
    }
    /// `move_ptes(.., new_addr, need_rmap_locks)` as the variant's kernel had it (38a76013
    /// on). The default is [`VmaAdjust::move_ptes`], which locks as its kernel does whatever
    /// the flag (108d6642 always, 2.6.34 never). Read by `move_page_tables` (exec passes
    /// false, mremap's `move_vma` what `copy_vma` said).
    fn move_ptes_need_rmap_locks(
        mm: &Mm,
        vma: VmaId,
        old_addr: usize,
        old_end: usize,
        new_vma: VmaId,
        new_addr: usize,
        need_rmap_locks: bool,
    ) where
        Self: Sized,
    {
        let _ = need_rmap_locks;
        Self::move_ptes(mm, vma, old_addr, old_end, new_vma, new_addr)
    }
}

/// The anon rmap of one era: how a vma is found from its anon_vma, how `split_vma` links the
/// new vma, what the rmap walks lock. Each implementation is the era's mm/rmap.c and the
/// anon_vma parts of its mm/mmap.c.
pub trait AnonRmap: 'static + Send + Sync {
    /// The era, for traces and the proofs (`2.6.31`, `2.6.34`, `2.6.36`).
    const ERA: &'static str;
    /// Does `split_vma` link the new vma on the anon_vma with its final bounds before it calls
    /// `vma_adjust`? 2.6.34's `__split_vma` does (`anon_vma_clone(new, vma)` first); 2.6.31's
    /// links it inside `vma_adjust` (`__insert_vm_struct` -> `__anon_vma_link`), after the
    /// writes. Read by the models' lock oracle (models/vma.rs, `walker_can_miss`).
    const SPLIT_LINKS_NEW_BEFORE_ADJUST: bool;
    /// Does a `next` that `vma_adjust` removes stay on its anon_vma's list, with its bounds,
    /// until after `vma_adjust`'s writes? 2.6.34's does (`anon_vma_merge(vma, next)` runs after
    /// the anon_vma lock is dropped, and unlinks under that lock); 2.6.31's is unlinked inside
    /// `vma_adjust` (`__anon_vma_merge`). Read by the lock oracle, as above.
    const REMOVED_NEXT_UNLINKED_AFTER_ADJUST: bool;
    /// `anon_vma_prepare(vma)` for a vma whose anon_vma is `av` (the models' setup: the first
    /// anonymous fault of the vma did it).
    fn anon_vma_prepare(mm: &Mm, vma: VmaId, av: AnonVmaId);
    /// Fork's link of the child's copy `vma` of `pvma`: 2.6.31's `anon_vma_link(vma)` (the
    /// child shares the parent's anon_vma), 2.6.34's `anon_vma_fork(vma, pvma)` (the child
    /// joins the parent's anon_vmas and gets its own, `new_av`; 2.6.36: whose root is the
    /// parent's root).
    fn anon_vma_fork(mm: &Mm, vma: VmaId, pvma: VmaId, new_av: AnonVmaId) -> i32;
    /// The era's `find_mergeable_anon_vma(vma)`: 2.6.31's ([`find_mergeable_anon_vma`], here),
    /// which reuses an adjacent vma's anon_vma whenever the two could merge; d0e9fe17's in the
    /// chain era (`vma_2_6_34::find_mergeable_anon_vma`), which reuses it only when that vma's
    /// anon_vma_chain is a single entry.
    fn find_mergeable_anon_vma(mm: &Mm, vma: VmaId) -> Option<AnonVmaId>;
    /// The era's `__page_set_anon_rmap(page, vma, address)`: 2.6.31's
    /// ([`__page_set_anon_rmap`], here), `vma->anon_vma`, which a forked child shares with its
    /// parent; ea90002b's in the chain era (`vma_2_6_34::__page_set_anon_rmap`), the anon_vma
    /// of the last entry of the vma's anon_vma_chain, "the deepest ancestor". The variants after
    /// 288468c3 (2.6.36-rc: f1819427, shaohua-v1, lespinasse-v2) run that form too, where their
    /// kernels read `anon_vma->root` and return early on `PageAnon`; no claim runs them on the
    /// swap-in model (proofs/vma.swapin.md).
    fn __page_set_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize);
    /// `split_vma(mm, vma, addr, new_below)` (2.6.31) / `__split_vma` (2.6.34): the new vma
    /// is slot `new`.
    fn split_vma<V: VmaAdjust>(
        mm: &Mm,
        vma: VmaId,
        new: VmaId,
        addr: usize,
        new_below: bool,
    ) -> i32;
    /// `__bprm_mm_init(bprm)`'s flags for exec's temporary stack `vma`: 2.6.34's
    /// (`crate::mm::exec`), unless the era's exec code marks the stack for its rmap (a8bef8ff).
    fn __bprm_mm_init(mm: &Mm, vma: VmaId) {
        super::exec::__bprm_mm_init(mm, vma)
    }
    /// `setup_arg_pages(bprm, ...)`'s move of exec's temporary stack `vma` down by
    /// `stack_shift`: 2.6.34's (`crate::mm::exec`), unless the era's exec code changed it
    /// (a8bef8ff).
    fn setup_arg_pages<V: VmaAdjust>(mm: &Mm, vma: VmaId, stack_shift: usize) -> i32 {
        super::exec::setup_arg_pages::<V>(mm, vma, stack_shift)
    }
    /// What `free_pgtables()` does to a vma's rmap at munmap or exit: 2.6.31's
    /// `anon_vma_unlink(vma)`, 2.6.34's `unlink_anon_vmas(vma)`; an anon_vma left empty is
    /// freed (`anon_vma_free`).
    fn free_pgtables_unlink(mm: &Mm, vma: VmaId);
    /// The vma form of the anon_vma lock, which `expand_downwards()` takes: 2.6.31's and
    /// 2.6.34's `anon_vma_lock(vma)` (`vma->anon_vma->lock`, [`anon_vma_lock_vma`]), 012f1800's
    /// `vma_lock_anon_vma(vma)` (the root's). None: the vma has no anon_vma.
    /// The default is 2.6.31's and 2.6.34's; `chain_rmap!` overrides it for every chain-era
    /// rmap with its `ChainLock`'s (the root's for 012f1800 on).
    fn vma_lock_anon_vma(mm: &Mm, vma: VmaId) -> Option<SpinGuard<'_, ()>> {
        anon_vma_lock_vma(mm, vma)
    }
    /// Its unlock: 2.6.31's and 2.6.34's `anon_vma_unlock(vma)` ([`anon_vma_unlock_vma`]),
    /// 012f1800's `vma_unlock_anon_vma(vma)`.
    fn vma_unlock_anon_vma<'a>(mm: &'a Mm, vma: VmaId, lock: Option<SpinGuard<'a, ()>>) {
        anon_vma_unlock_vma(mm, vma, lock)
    }
    /// `page_referenced_anon(page, ...)`: the number of mappings of `page` the walk found
    /// (the kernel counts referenced ones; every mapping found counts here).
    fn page_referenced_anon(mm: &Mm, page: PageId) -> usize;
    /// `try_to_unmap_anon(page, migration)`: install a migration entry in every mapping found.
    fn try_to_unmap_anon(mm: &Mm, page: PageId) -> i32;
    /// `remove_migration_ptes(old, new)`: replace every migration entry for `old` by `new`.
    fn remove_migration_ptes(mm: &Mm, old: PageId, new: PageId);
    /// `anon_vma_clone(dst, src)` (mm/rmap.c, 2.6.34 on), which mremap's `copy_vma()` calls:
    /// the chain era's (`chain_rmap!`). 2.6.31 has none (its `copy_vma()` links the new vma
    /// through `vma_link()`'s `__anon_vma_link()`), and no model runs mremap on its rmap: the
    /// default stops the run as a harness error (proofs/vma.19.md).
    fn anon_vma_clone(_mm: &Mm, dst: VmaId, src: VmaId) -> i32 {
        crate::trace::harness_fail(
            "anon_vma_clone",
            format!(
                "anon_vma_clone(vma#{dst}, vma#{src}): the {} rmap has no anon_vma_clone \
                 (mremap is modelled from the anon_vma_chain era on)",
                Self::ERA
            ),
        )
    }
    /// The models' end check of the era's lists: each anon_vma's list holds exactly the vmas
    /// (2.6.31) or the anon_vma_chain entries of the vmas (2.6.34) that point to it, and only
    /// vmas that are in the mm.
    fn check_anon_vma_lists(mm: &Mm);
}

pub const PAGE_SHIFT: usize = 12;
pub const PAGE_SIZE: usize = 1 << PAGE_SHIFT;
/// `PAGE_MASK`.
pub const PAGE_MASK: usize = !(PAGE_SIZE - 1);
/// `-EFAULT` as `vma_address()` returns it.
pub const EFAULT: usize = usize::MAX - 13;
pub const ENOMEM: i32 = 12;
pub const EAGAIN: i32 = 11;
/// try_to_unmap's return values (include/linux/rmap.h).
pub const SWAP_SUCCESS: i32 = 0;
pub const SWAP_AGAIN: i32 = 1;
/// `VM_GROWSDOWN` (include/linux/mm.h).
pub const VM_GROWSDOWN: usize = 0x0000_0100;
/// `VM_GROWSUP`: `VM_NONE` without CONFIG_STACK_GROWSUP (x86).
pub const VM_GROWSUP: usize = 0;
/// `VM_READ`, `VM_WRITE`, `VM_EXEC` (include/linux/mm.h): the bits mprotect changes, which
/// `find_mergeable_anon_vma` ignores when it compares two vmas' flags.
pub const VM_READ: usize = 0x0000_0001;
pub const VM_WRITE: usize = 0x0000_0002;
pub const VM_EXEC: usize = 0x0000_0004;
/// `VM_CAN_NONLINEAR` (include/linux/mm.h, 2.6.23 to 3.x), which `is_mergeable_vma` ignores.
pub const VM_CAN_NONLINEAR: usize = 0x0800_0000;
/// `VM_SEQ_READ` (include/linux/mm.h).
pub const VM_SEQ_READ: usize = 0x0000_8000;
/// `VM_RAND_READ` (include/linux/mm.h).
pub const VM_RAND_READ: usize = 0x0001_0000;
/// `VM_STACK_INCOMPLETE_SETUP` (include/linux/mm.h, a8bef8ff): "Bits set in the VMA until the
/// stack is in its final location".
pub const VM_STACK_INCOMPLETE_SETUP: usize = VM_RAND_READ | VM_SEQ_READ;
pub const SWAP_FAIL: i32 = 2;
pub const SWAP_MLOCK: i32 = 3;

/// A vma's index in `Mm::vmas`.
pub type VmaId = usize;
/// An anon_vma's index in `Mm::anon_vmas`.
pub type AnonVmaId = usize;
/// An anon_vma_chain's index in `Mm::avcs`.
pub type AvcId = usize;
/// A page's index in `Mm::pages` (its pfn).
pub type PageId = usize;

/// `struct vm_area_struct`, the fields used here.
pub struct Vma {
    pub vm_start: unsigned_long,
    pub vm_end: unsigned_long,
    pub vm_pgoff: unsigned_long,
    /// `vm_file != NULL` (the models' vmas are anonymous: false).
    pub vm_file: bool,
    /// `vma->vm_flags`: only the bits the models read (`VM_GROWSDOWN`, and a8bef8ff's
    /// `VM_STACK_INCOMPLETE_SETUP`); written under `mmap_sem` for write, read by the rmap
    /// walks without it (as in the kernel).
    pub vm_flags: unsigned_long,
    /// `vma->anon_vma`.
    pub anon_vma: RaceCell<Option<AnonVmaId>>,
    /// `vma->vm_next` (mm list, changed under mmap_sem only).
    pub vm_next: RaceCell<Option<VmaId>>,
    /// `vma->vm_mm`: which of the machine's mms (0, or 1 for a forked child).
    pub vm_mm: RaceCell<usize>,
    /// Ghost: `kmem_cache_free(vm_area_cachep, vma)` was called (a walk that reaches it
    /// uses freed memory).
    pub freed: RaceCell<bool>,
}

/// `struct anon_vma`: its lock, its root (012f1800) and the head of its list.
pub struct AnonVma {
    pub lock: SpinLock<()>,
    /// `anon_vma->root` (2.6.36): the oldest anon_vma of the fork tree (itself, unless
    /// `anon_vma_fork` set it). A word read without a lock (`page_lock_anon_vma`, f18194275c39:
    /// `ACCESS_ONCE(anon_vma->root)`) while `anon_vma_prepare`/`anon_vma_fork` store it in a
    /// reused anon_vma: the plain C stores are modelled as WRITE_ONCE (an aligned pointer store
    /// is single-copy atomic on every architecture Linux runs on; the question the models ask
    /// is which root a CPU reads, not whether it tears).
    pub root: unsigned_long,
    /// Ghost: `anon_vma_free()` returned it to `anon_vma_cachep` (SLAB_DESTROY_BY_RCU: the
    /// memory stays an anon_vma, its lock keeps its state, and `anon_vma_alloc()` may hand it
    /// out again while an RCU reader still looks at it).
    pub freed: RaceCell<bool>,
    /// How often `vma_adjust` took this lock (a statistic for tests and benchmarks; a plain
    /// std atomic, invisible to the checkers).
    pub adjust_locks: EventCounter,
}

/// `struct anon_vma_chain` (include/linux/rmap.h, 2.6.34).
pub struct AnonVmaChain {
    pub vma: RaceCell<VmaId>,
    pub anon_vma: RaceCell<AnonVmaId>,
}

/// `struct page`, the anon fields: `flags` (PG_locked), `_mapcount`, `index`, `mapping`.
pub struct Page {
    pub flags: unsigned_long,
    pub _mapcount: atomic_t,
    pub index: unsigned_long,
    /// `page->mapping`: `anon_vma | PAGE_MAPPING_ANON`, or 0.
    pub mapping: unsigned_long,
}

/// `struct list_head`: links are node ids (see [`Mm`] for the id ranges).
pub struct ListHead {
    pub next: RaceCell<usize>,
    pub prev: RaceCell<usize>,
}

/// How many of each structure a model's mm has.
#[derive(Clone, Copy, Debug)]
pub struct MmSize {
    pub vmas: usize,
    pub anon_vmas: usize,
    pub pages: usize,
    /// Page-table slots of each mm.
    pub ptes: usize,
    /// mms (1; 2 for a model with a forked child).
    pub mms: usize,
}

/// The machine: one mm (or a parent and a forked child) with its vmas (slots, some unused until
/// `split_vma` takes one), anon_vmas, anon_vma_chain entries (a pool `anon_vma_chain_alloc`
/// takes from), pages and a page table per mm: mm `m`'s pte for `address` is
/// `ptes[m * ptes_per_mm + (address >> PAGE_SHIFT)]`.
///
/// List node ids, with V vmas, A anon_vmas, C avcs: `vma->anon_vma_node` `0..V`, the
/// anon_vmas' heads `V..V+A`, `avc->same_anon_vma` then `avc->same_vma` (C each), then the
/// vmas' `anon_vma_chain` heads (V).
pub struct Mm {
    pub vmas: Vec<Vma>,
    pub anon_vmas: Vec<AnonVma>,
    pub avcs: Vec<AnonVmaChain>,
    /// The next unused avc (`anon_vma_chain_alloc`; mmap_sem holder only).
    pub avc_free: RaceCell<AvcId>,
    pub nodes: Vec<ListHead>,
    pub pages: Vec<Page>,
    pub ptes: Vec<unsigned_long>,
    pub ptes_per_mm: usize,
    /// Each mm's pte lock (`pte_lockptr(mm, pmd)`): every address of the models lies under
    /// one pmd, so one pte page and, with split ptlocks, one lock per mm.
    pub ptl: Vec<SpinLock<()>>,
    /// Each mm's `mm->mmap`.
    pub mmap: Vec<RaceCell<Option<VmaId>>>,
}

/// A list entry that is on no list (the kernel poisons entries on `list_del`; a walk that
/// follows one fails).
pub const LIST_POISON: usize = usize::MAX;

/// A pte that maps nothing.
pub const PTE_NONE: usize = usize::MAX;
/// A pte holding a migration entry: `SWP_MIGRATION | pfn` (swapops.h's
/// `swp_entry(SWP_MIGRATION_*, page_to_pfn(page))`).
pub const SWP_MIGRATION: usize = 1 << 40;
/// `PAGE_MAPPING_ANON`.
pub const PAGE_MAPPING_ANON: usize = 1;
/// `PG_locked`.
pub const PG_LOCKED: u32 = 0;

/// What a list node id is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// `vma->anon_vma_node` (2.6.31).
    VmaNode(VmaId),
    /// `anon_vma->head`.
    AnonVmaHead(AnonVmaId),
    /// `avc->same_anon_vma` (2.6.34).
    SameAnonVma(AvcId),
    /// `avc->same_vma` (2.6.34).
    SameVma(AvcId),
    /// `vma->anon_vma_chain` (2.6.34).
    VmaChainHead(VmaId),
}

impl Mm {
    pub fn new(size: MmSize) -> Mm {
        let nr_avcs = 2 * size.vmas;
        let nr_nodes = 2 * size.vmas + size.anon_vmas + 2 * nr_avcs;
        let mut mm = Mm {
            vmas: (0..size.vmas)
                .map(|i| Vma {
                    vm_start: unsigned_long::named(0, CName::of("vma", i, "vm_start")),
                    vm_end: unsigned_long::named(0, CName::of("vma", i, "vm_end")),
                    vm_pgoff: unsigned_long::named(0, CName::of("vma", i, "vm_pgoff")),
                    vm_file: false,
                    vm_flags: unsigned_long::named(0, CName::of("vma", i, "vm_flags")),
                    anon_vma: RaceCell::new(None),
                    vm_next: RaceCell::new(None),
                    vm_mm: RaceCell::new(0),
                    freed: RaceCell::new(false),
                })
                .collect(),
            anon_vmas: (0..size.anon_vmas)
                .map(|i| AnonVma {
                    lock: SpinLock::named((), CName::of("anon_vma", i, "lock")),
                    root: unsigned_long::named(i, CName::of("anon_vma", i, "root")),
                    freed: RaceCell::new(false),
                    adjust_locks: EventCounter::default(),
                })
                .collect(),
            avcs: (0..nr_avcs)
                .map(|_| AnonVmaChain {
                    vma: RaceCell::new(usize::MAX),
                    anon_vma: RaceCell::new(usize::MAX),
                })
                .collect(),
            avc_free: RaceCell::new(0),
            nodes: Vec::with_capacity(nr_nodes),
            pages: (0..size.pages)
                .map(|i| Page {
                    flags: unsigned_long::named(0, CName::of("page", i, "flags")),
                    _mapcount: atomic_t::named(-1, CName::of("page", i, "_mapcount")),
                    index: unsigned_long::named(0, CName::of("page", i, "index")),
                    mapping: unsigned_long::named(0, CName::of("page", i, "mapping")),
                })
                .collect(),
            // `pte#i`: slot i of `ptes` (mm m's pte of address a is slot
            // m * ptes_per_mm + (a >> PAGE_SHIFT)).
            ptes: (0..size.ptes * size.mms.max(1))
                .map(|i| unsigned_long::named(PTE_NONE, CName::of("pte", i, "")))
                .collect(),
            ptes_per_mm: size.ptes,
            ptl: (0..size.mms.max(1))
                .map(|i| SpinLock::named((), CName::of("pte_page", i, "ptl")))
                .collect(),
            mmap: (0..size.mms.max(1)).map(|_| RaceCell::new(None)).collect(),
        };
        for id in 0..nr_nodes {
            // INIT_LIST_HEAD for heads; entries start unlinked (poisoned).
            let head = matches!(mm.node(id), Node::AnonVmaHead(_) | Node::VmaChainHead(_));
            let v = if head { id } else { LIST_POISON };
            mm.nodes.push(ListHead {
                next: RaceCell::new(v),
                prev: RaceCell::new(v),
            });
        }
        mm
    }

    fn nr_avcs(&self) -> usize {
        self.avcs.len()
    }

    /// What node `id` is.
    pub fn node(&self, id: usize) -> Node {
        let (v, a, c) = (self.vmas.len(), self.anon_vmas.len(), self.nr_avcs());
        if id < v {
            Node::VmaNode(id)
        } else if id < v + a {
            Node::AnonVmaHead(id - v)
        } else if id < v + a + c {
            Node::SameAnonVma(id - v - a)
        } else if id < v + a + 2 * c {
            Node::SameVma(id - v - a - c)
        } else {
            Node::VmaChainHead(id - v - a - 2 * c)
        }
    }

    /// `&anon_vma->head`.
    pub fn anon_vma_head(&self, av: AnonVmaId) -> usize {
        self.vmas.len() + av
    }
    /// `&vma->anon_vma_node`.
    pub fn anon_vma_node(&self, vma: VmaId) -> usize {
        vma
    }
    /// `&avc->same_anon_vma`.
    pub fn same_anon_vma(&self, avc: AvcId) -> usize {
        self.vmas.len() + self.anon_vmas.len() + avc
    }
    /// `&avc->same_vma`.
    pub fn same_vma(&self, avc: AvcId) -> usize {
        self.vmas.len() + self.anon_vmas.len() + self.nr_avcs() + avc
    }
    /// `&vma->anon_vma_chain`.
    pub fn anon_vma_chain(&self, vma: VmaId) -> usize {
        self.vmas.len() + self.anon_vmas.len() + 2 * self.nr_avcs() + vma
    }

    fn describe(&self, id: usize) -> String {
        if id >= self.nodes.len() {
            return format!("{id:#x} (poisoned)");
        }
        match self.node(id) {
            Node::VmaNode(v) => format!("vma#{v}"),
            Node::AnonVmaHead(a) => format!("anon_vma#{a} head"),
            Node::SameAnonVma(c) => format!("avc#{c}"),
            Node::SameVma(c) => format!("avc#{c}.same_vma"),
            Node::VmaChainHead(v) => format!("vma#{v}->anon_vma_chain"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// include/linux/list.h with CONFIG_DEBUG_LIST (lib/list_debug.c)

/// `__list_add(new, prev, next)` with CONFIG_DEBUG_LIST's checks.
fn __list_add(mm: &Mm, func: &'static str, new: usize, prev: usize, next: usize) {
    let np = mm.nodes[next].prev.get();
    if np != prev {
        fail(
            func,
            Invariant::ListCorruption,
            format!(
                "list_add corruption. next->prev should be prev ({}), but was {}",
                mm.describe(prev),
                mm.describe(np)
            ),
        );
    }
    let pn = mm.nodes[prev].next.get();
    if pn != next {
        fail(
            func,
            Invariant::ListCorruption,
            format!(
                "list_add corruption. prev->next should be next ({}), but was {}",
                mm.describe(next),
                mm.describe(pn)
            ),
        );
    }
    mm.nodes[next].prev.set(new);
    mm.nodes[new].next.set(next);
    mm.nodes[new].prev.set(prev);
    mm.nodes[prev].next.set(new);
}

/// `list_add_tail(new, head)`.
pub fn list_add_tail(mm: &Mm, func: &'static str, new: usize, head: usize) {
    let prev = mm.nodes[head].prev.get();
    __list_add(mm, func, new, prev, head);
}

/// `list_add(new, head)`.
pub fn list_add(mm: &Mm, func: &'static str, new: usize, head: usize) {
    let next = mm.nodes[head].next.get();
    __list_add(mm, func, new, head, next);
}

/// `list_del(entry)` with CONFIG_DEBUG_LIST's checks; the entry is poisoned.
pub fn list_del(mm: &Mm, func: &'static str, entry: usize) {
    let prev = mm.nodes[entry].prev.get();
    let next = mm.nodes[entry].next.get();
    if prev >= mm.nodes.len() || next >= mm.nodes.len() {
        fail(
            func,
            Invariant::ListCorruption,
            format!(
                "list_del corruption: {} is not on a list",
                mm.describe(entry)
            ),
        );
    }
    if mm.nodes[prev].next.get() != entry || mm.nodes[next].prev.get() != entry {
        fail(
            func,
            Invariant::ListCorruption,
            format!("list_del corruption at {}", mm.describe(entry)),
        );
    }
    mm.nodes[next].prev.set(prev);
    mm.nodes[prev].next.set(next);
    mm.nodes[entry].next.set(LIST_POISON);
    mm.nodes[entry].prev.set(LIST_POISON);
}

/// `list_empty(head)`.
pub fn list_empty(mm: &Mm, head: usize) -> bool {
    mm.nodes[head].next.get() == head
}

/// `list_is_singular(head)` (include/linux/list.h): the list has exactly one entry.
pub fn list_is_singular(mm: &Mm, head: usize) -> bool {
    !list_empty(mm, head) && mm.nodes[head].next.get() == mm.nodes[head].prev.get()
}

/// The entries of the list at `head`, in order (`list_for_each`): a walk that runs into a
/// poisoned or foreign node, or loops, is list corruption.
pub fn list_entries(mm: &Mm, func: &'static str, head: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut cur = mm.nodes[head].next.get();
    while cur != head {
        if cur >= mm.nodes.len() || out.len() > mm.nodes.len() {
            fail(
                func,
                Invariant::ListCorruption,
                format!(
                    "the list at {} runs into {}",
                    mm.describe(head),
                    mm.describe(cur)
                ),
            );
        }
        out.push(cur);
        cur = mm.nodes[cur].next.get();
    }
    out
}

/// The next entry after `cur` on a list being walked (one step of `list_for_each_entry`).
pub fn list_next(mm: &Mm, func: &'static str, cur: usize) -> usize {
    let next = mm.nodes[cur].next.get();
    if next >= mm.nodes.len() {
        fail(
            func,
            Invariant::ListCorruption,
            format!(
                "list walk runs from {} into a poisoned entry",
                mm.describe(cur)
            ),
        );
    }
    next
}

// ---------------------------------------------------------------------------------------------
// The anon_vma lock as vma_adjust takes it

/// `spin_lock(&anon_vma->lock)` as `vma_adjust` takes it (2.6.31; counted for the lock
/// decision table and the benchmarks).
pub fn anon_vma_lock_for_adjust(mm: &Mm, av: AnonVmaId) -> SpinGuard<'_, ()> {
    mm.anon_vmas[av].adjust_locks.count();
    spin_lock(&mm.anon_vmas[av].lock)
}

/// `anon_vma_lock(anon_vma)` of 012f1800 (include/linux/rmap.h, 2.6.36):
/// `spin_lock(&anon_vma->root->lock)`, as `vma_adjust` takes it (counted on `anon_vma`).
pub fn anon_vma_root_lock_for_adjust(mm: &Mm, av: AnonVmaId) -> SpinGuard<'_, ()> {
    mm.anon_vmas[av].adjust_locks.count();
    spin_lock(&mm.anon_vmas[READ_ONCE_DEP(&mm.anon_vmas[av].root)].lock)
}

/// The model's `anon_vma_alloc()` (mm/rmap.c: `kmem_cache_alloc(anon_vma_cachep,
/// GFP_KERNEL)`): the setup or the scenario names the object the slab hands out (`av`: the
/// most recently freed one, as the slab's per-CPU freelist gives it, or one never used). A
/// harness check: it must not be in use (on a vma, or with a vma on its list).
pub fn anon_vma_alloc(mm: &Mm, av: AnonVmaId) -> AnonVmaId {
    let in_use = !list_empty(mm, mm.anon_vma_head(av))
        || mm
            .vmas
            .iter()
            .any(|v| !v.freed.get() && v.anon_vma.get() == Some(av));
    if in_use {
        crate::trace::harness_fail(
            "anon_vma_alloc",
            format!("anon_vma#{av} is handed out while in use"),
        );
    }
    if mm.anon_vmas[av].freed.get() {
        mm.anon_vmas[av].freed.set(false);
        ktrace!(
            "anon_vma_alloc",
            "anon_vma#{av} reused (SLAB_DESTROY_BY_RCU: its lock and root are as it was freed)"
        );
    }
    av
}

/// The model's `anon_vma_free(anon_vma)` (mm/rmap.c: `kmem_cache_free(anon_vma_cachep,
/// anon_vma)`): ghost state only. `anon_vma_cachep` is SLAB_DESTROY_BY_RCU, so the memory
/// stays an anon_vma that `page_lock_anon_vma()` may still lock, and `anon_vma_alloc()` may
/// hand it out again at once.
pub fn anon_vma_free(mm: &Mm, av: AnonVmaId) {
    mm.anon_vmas[av].freed.set(true);
    ktrace!("anon_vma_free", "anon_vma#{av} freed");
}

/// How often `vma_adjust` took any anon_vma lock (the decision table, the benchmarks).
pub fn adjust_locks(mm: &Mm) -> u64 {
    mm.anon_vmas.iter().map(|a| a.adjust_locks.get()).sum()
}

// ---------------------------------------------------------------------------------------------
// struct page: anon fields, PG_locked, mapcount

/// `PageLocked(page)`.
pub fn PageLocked(mm: &Mm, page: PageId) -> bool {
    test_bit(PG_LOCKED, &mm.pages[page].flags)
}

/// `trylock_page(page)` (`crate::page::trylock_page_bit`).
pub fn trylock_page(mm: &Mm, page: PageId) -> bool {
    crate::page::trylock_page_bit(&mm.pages[page].flags, || format!("page {page}"))
}

/// `unlock_page(page)` (`crate::page::unlock_page_bit`).
pub fn unlock_page(mm: &Mm, page: PageId) {
    crate::page::unlock_page_bit(&mm.pages[page].flags, || format!("page {page}"))
}

/// `page_mapped(page)`: `atomic_read(&page->_mapcount) >= 0`.
pub fn page_mapped(mm: &Mm, page: PageId) -> bool {
    atomic_read(&mm.pages[page]._mapcount) >= 0
}

/// `page_mapcount(page)`: `atomic_read(&page->_mapcount) + 1`.
pub fn page_mapcount(mm: &Mm, page: PageId) -> usize {
    (atomic_read(&mm.pages[page]._mapcount) + 1).max(0) as usize
}

/// `page_anon_vma(page)`: the anon_vma `page->mapping` points to, if the page is anon.
pub fn page_anon_vma(mm: &Mm, page: PageId) -> Option<AnonVmaId> {
    let anon_mapping = READ_ONCE(&mm.pages[page].mapping);
    if anon_mapping & PAGE_MAPPING_ANON == 0 {
        return None;
    }
    Some(anon_mapping >> 1)
}

/// The mapcount part of `page_add_anon_rmap(page, vma, address)`, which the loom models'
/// `remove_migration_pte` runs (it takes the call's arguments; `vma` and `address` are not
/// read); the whole function, as the swap-in model runs it, is [`page_add_anon_rmap`].
pub fn page_add_anon_rmap_mapcount(mm: &Mm, page: PageId, _vma: VmaId, _address: usize) {
    // DISCREPANCY (reported): remove_migration_pte's `page_add_anon_rmap(new, vma, addr)`
    // rewrites a first mapping's `new->mapping` and `new->index` (`__page_set_anon_rmap`,
    // from the vma's chain and its moving fields); these models keep what move_to_new_page
    // copied from the old page. Making them run [`page_add_anon_rmap`] is open work (#19);
    // 5f70b962, 5dbe0af4, 486cf46f, 948f017b and 108d6642 run their kernel's whole function
    // (proofs/vma.21.md); the bounds check, in the kernel until 5dbe0af47f8a, is what fails
    // there (H-19).
    atomic_inc_return(&mm.pages[page]._mapcount);
}

/// `page_add_anon_rmap(page, vma, address)` (mm/rmap.c, 2.6.31; 2.6.33's and 2.6.34's bodies
/// differ in what is left out below): "add pte mapping to an anonymous page". The caller needs
/// to hold the pte lock and the page must be locked. The first mapping sets `page->mapping`
/// (the variant's [`VmaAdjust::__page_set_anon_rmap`]): a page that comes back from the swap
/// cache is mapped again this way, by whichever process faults it first.
pub fn page_add_anon_rmap<V: VmaAdjust>(mm: &Mm, page: PageId, vma: VmaId, address: usize) {
    // LEFT OUT: 2.6.32 on: `first = atomic_inc_and_test(..)` first (the test below), then `if
    // (first) __inc_zone_page_state(page, NR_ANON_PAGES)`: statistics; `if
    // (unlikely(PageKsm(page))) return`: no KSM pages in the models.
    VM_BUG_ON!("page_add_anon_rmap", !PageLocked(mm, page));
    let (start, end) = (
        READ_ONCE(&mm.vmas[vma].vm_start),
        READ_ONCE(&mm.vmas[vma].vm_end),
    );
    // MODEL: the bounds read for the test below.
    VM_BUG_ON!("page_add_anon_rmap", address < start || address >= end);
    // LEFT OUT: `if (first)`: the test of the increment, next.
    // MODEL: `atomic_inc_and_test(&page->_mapcount)` (2.6.31's test; 2.6.32 on, `first`): the
    // new value is 0.
    if atomic_inc_return(&mm.pages[page]._mapcount) == 0 {
        V::__page_set_anon_rmap(mm, page, vma, address);
        // LEFT OUT: 2.6.34's `, 0` (e8a03feb's `exclusive` argument): see the chain era's
        // `__page_set_anon_rmap` (src/mm/vma_2_6_34.rs).
    }
    // LEFT OUT: `else __page_check_anon_rmap(page, vma, address)`: CONFIG_DEBUG_VM sanity
    // checks of a mapping that is not the first (2.6.31's also checks `page->mapping` against
    // `vma->anon_vma`; 2.6.34's only the index); the models check the rmap by walking it.
}

/// `__page_set_anon_rmap(page, vma, address)` (mm/rmap.c, 2.6.31; 2.6.33's and 5beb4930's
/// are the same without its last statement, which 2.6.32 moved to page_add_anon_rmap; ea90002b
/// replaced it in the chain era): "setup new anonymous rmap". `page->mapping` becomes the
/// vma's own anon_vma: in 2.6.31 a forked child shares its parent's, so any process that maps
/// the page names the anon_vma every mapping of the page is on.
pub fn __page_set_anon_rmap(mm: &Mm, page: PageId, vma: VmaId, address: usize) {
    let anon_vma = mm.vmas[vma].anon_vma.get();

    BUG_ON!("__page_set_anon_rmap", anon_vma.is_none());
    // MODEL: `anon_vma + PAGE_MAPPING_ANON` is the models' mapping word of that anon_vma.
    let anon_vma = anon_vma.map_or(0, |av| (av << 1) | PAGE_MAPPING_ANON);
    WRITE_ONCE(&mm.pages[page].mapping, anon_vma);

    WRITE_ONCE(&mm.pages[page].index, linear_page_index(mm, vma, address));
    ktrace!(
        "__page_set_anon_rmap",
        "page {page}: mapping = vma#{vma}'s anon_vma#{}",
        anon_vma >> 1
    );
    // LEFT OUT: 2.6.31's `__inc_zone_page_state(page, NR_ANON_PAGES)` (with its comment):
    // statistics (2.6.32 moved it to page_add_anon_rmap).
}

/// `linear_page_index(vma, address)` (include/linux/pagemap.h): the page offset `address` has
/// in `vma`, `((address - vma->vm_start) >> PAGE_SHIFT) + vma->vm_pgoff` (no hugetlb vmas in
/// the models). C: not stored (an inline of one expression).
pub fn linear_page_index(mm: &Mm, vma: VmaId, address: usize) -> usize {
    let v = &mm.vmas[vma];
    ((address - READ_ONCE(&v.vm_start)) >> PAGE_SHIFT) + READ_ONCE(&v.vm_pgoff)
}

/// `page_remove_rmap(page)` (mm/rmap.c), the mapcount part.
pub fn page_remove_rmap(mm: &Mm, page: PageId) {
    atomic_add_negative(-1, &mm.pages[page]._mapcount);
    // LEFT OUT: what the last unmap does (`return` if not last; s390 dirty transfer, memcg
    // uncharge, zone and file-mapped statistics): the models' pages have no dirty bit, memcg
    // or statistics, and nothing reads them.
}

// ---------------------------------------------------------------------------------------------
// include/linux/swapops.h: migration entries

/// `make_migration_entry(page, write)` (include/linux/swapops.h).
pub fn make_migration_entry(mm: &Mm, page: PageId) -> usize {
    BUG_ON!("make_migration_entry", !PageLocked(mm, page));
    // LEFT OUT: `swp_entry(write ? SWP_MIGRATION_WRITE : SWP_MIGRATION_READ, pfn)`: one
    // migration type (no write bit: the models' ptes have no protection bits).
    // MODEL: the entry as the pte word `SWP_MIGRATION | pfn` (swp_entry_to_pte folded in).
    SWP_MIGRATION | page
}

/// `is_swap_pte(pte) && is_migration_entry(pte_to_swp_entry(pte))`.
pub fn is_migration_entry(pte: usize) -> bool {
    pte != PTE_NONE && pte & SWP_MIGRATION != 0
}

/// `migration_entry_to_page(entry)` (include/linux/swapops.h): "Any use of migration
/// entries may only occur while the corresponding page is locked":
/// `BUG_ON(!PageLocked(p))`.
pub fn migration_entry_to_page(mm: &Mm, entry: usize) -> PageId {
    let p = entry & !SWP_MIGRATION;
    // Any use of migration entries may only occur while the corresponding page is locked
    BUG_ON!("migration_entry_to_page", !PageLocked(mm, p));
    p
}

// ---------------------------------------------------------------------------------------------
// mm/rmap.c, the parts both eras share

/// `vma_address(page, vma)` (mm/rmap.c, 2.6.31; the same through 3.6).
pub fn vma_address(mm: &Mm, page: PageId, vma: VmaId) -> usize {
    let v = &mm.vmas[vma];
    // MODEL: ghost check: a walk that reads a vma after kmem_cache_free is a use after free.
    if v.freed.get() {
        fail(
            "vma_address",
            Invariant::UseAfterFree,
            format!("rmap walk reads vma#{vma} after kmem_cache_free"),
        );
    }
    let pgoff = READ_ONCE(&mm.pages[page].index); // page->index
    let start = READ_ONCE(&v.vm_start);
    // MODEL: the C's two plain loads `vma->vm_start`, `vma->vm_pgoff` (of words vma_adjust
    // writes under mmap_sem only) in one order; either order admits both torn pairs (old
    // start with new pgoff and the reverse) against the writer's stores.
    let vm_pgoff = READ_ONCE(&v.vm_pgoff);
    let address = start.wrapping_add(pgoff.wrapping_sub(vm_pgoff) << PAGE_SHIFT);
    let (start2, end) = (READ_ONCE(&v.vm_start), READ_ONCE(&v.vm_end));
    // MODEL: the event is recorded after the last load. The line's vm_start is the first load
    // (the one the address is computed from); its vm_end and the range check's verdict come
    // from the re-loads. When the re-load of vm_start differs (a store came between the two
    // loads, or under loom the first load read an older store), the line says so.
    ktrace!(
        "vma_address",
        "page {page} index {pgoff:#x} in vma#{vma} [{start:#x}, {end:#x}) pgoff {vm_pgoff:#x}: address {address:#x}{}",
        if start2 == start {
            String::new()
        } else {
            format!(" (computed from vm_start {start:#x}; the range check re-read vm_start {start2:#x})")
        }
    );
    // MODEL: the test of the `if` above, on fresh loads of vm_start and vm_end (the C may
    // reuse its first vm_start load or load again).
    // LEFT OUT: 5beb4930's `if (unlikely(vma->vm_flags & VM_LOCK_RMAP)) return -EFAULT;`, after
    // this range check (fc148a5f removed it): the flag is never set in these models; 5beb4930
    // is checked on the sequential model only, where no walk runs inside a vma_adjust
    // (proofs/vma.seq.md, H-14).
    if vma_address_out_of_range(address, start2, end) {
        // page should be within @vma mapping range
        ktrace!("vma_address", "-EFAULT: {address:#x} is outside vma#{vma}");
        return EFAULT;
    }
    address
}

/// `vma_address`'s range check: `address < vma->vm_start || address >= vma->vm_end`.
#[inline]
fn vma_address_out_of_range(address: usize, vm_start: usize, vm_end: usize) -> bool {
    address < vm_start || address >= vm_end
}

/// The pte of `address` in the page table of `vma->vm_mm` (None: beyond the page table).
pub fn pte_slot(mm: &Mm, vma: VmaId, address: usize) -> Option<usize> {
    let slot = address >> PAGE_SHIFT;
    (slot < mm.ptes_per_mm).then(|| mm.vmas[vma].vm_mm.get() * mm.ptes_per_mm + slot)
}

/// `pte_lockptr(mm, pmd)`: the lock of the pte page that maps `vma`'s addresses (one per mm:
/// see `Mm::ptl`).
pub fn pte_lockptr(mm: &Mm, vma: VmaId) -> &SpinLock<()> {
    &mm.ptl[mm.vmas[vma].vm_mm.get()]
}

/// `page_check_address(page, vma->vm_mm, address, &ptl, sync)` (mm/rmap.c): is `page` mapped
/// (present) at `address` in `vma`'s mm? If so, the pte lock is held: the guard is `*ptlp`,
/// and dropping it is the caller's `pte_unmap_unlock(pte, ptl)`.
pub fn page_check_address(
    mm: &Mm,
    page: PageId,
    vma: VmaId,
    address: usize,
) -> Option<SpinGuard<'_, ()>> {
    // LEFT OUT: the pgd/pud/pmd walk and its `return NULL`s: the models' page table has one
    // level (`pte_slot`; beyond it there is no pte).
    // MODEL: `pte = pte_offset_map(pmd, address)` as the slot of the address.
    let slot = pte_slot(mm, vma, address)?;
    // Make a quick check before getting the lock
    // LEFT OUT: `!sync`: every caller in the models passes sync = 0; `pte_unmap`: no kmap.
    // MODEL: `!pte_present(*pte)`: none, or a swap pte (the models' only swap ptes are
    // migration entries).
    let pte = READ_ONCE(&mm.ptes[slot]);
    if pte == PTE_NONE || is_migration_entry(pte) {
        return None;
    }
    // LEFT OUT: `ptl = pte_lockptr(mm, pmd)` is the argument of the lock below.
    let ptl = spin_lock(pte_lockptr(mm, vma));
    // MODEL: `pte_present(*pte) && page_to_pfn(page) == pte_pfn(*pte)` as one compare of the
    // slot's word with the page (a migration entry or PTE_NONE is no page).
    if READ_ONCE(&mm.ptes[slot]) == page {
        // LEFT OUT: `*ptlp = ptl; return pte;` is the guard returned.
        return Some(ptl);
    }
    // LEFT OUT: the C's `return pte` is the `return Some(ptl)` above, its
    // `pte_unmap_unlock(pte, ptl)` the drop below.
    // MODEL: `pte_unmap_unlock(pte, ptl)` is the guard's drop; `return NULL`.
    drop(ptl);
    None
}

/// `try_to_unmap_one(page, vma, address, TTU_MIGRATION)` (mm/rmap.c, 2.6.34; in 2.6.31
/// `try_to_unmap_one(page, vma, 1)` computes the address first, then the same): the
/// migration path, "Store the pfn of the page in a special migration pte".
pub fn try_to_unmap_one(mm: &Mm, page: PageId, vma: VmaId, address: usize) -> i32 {
    // LEFT OUT: `mm = vma->vm_mm` (`pte_slot` reads the vma's mm); `ret = SWAP_AGAIN`: the
    // migration path returns SWAP_AGAIN (the literals below).
    let Some(ptl) = page_check_address(mm, page, vma, address) else {
        // MODEL: `if (!pte) goto out; ... out: return ret;`.
        return SWAP_AGAIN;
    };
    // LEFT OUT: 2.6.31, whose `address = vma_address(page, vma)` the tool pairs with the `if`
    // above: `if (address == -EFAULT) goto out;` is the caller's (`try_to_unmap_one_2_6_31`),
    // and `pte = page_check_address(page, mm, address, &ptl, 0); if (!pte)` is that `if`.
    // LEFT OUT: the mlock and young checks: migration passes TTU_IGNORE_MLOCK |
    // TTU_IGNORE_ACCESS (2.6.31: `if (!migration)`), so they are skipped.
    // LEFT OUT: flush_cache_page, and ptep_clear_flush_notify's clear, TLB flush and mmu
    // notifier: one store of the entry below replaces the pte (under the kernel's pte lock no
    // walker sees the cleared pte; to a lockless model walker either is "not this page").
    // LEFT OUT: the dirty bit, update_hiwater_rss, the HWPoison branch and the swap cache
    // branch: the models' pages are clean, unpoisoned anon pages outside the swap cache, so
    // the `else if (PAGE_MIGRATION)` branch runs; its BUG_ON holds (migration only).
    // Nuke the page table entry.
    // MODEL: the pte's slot (the `pte` page_check_address returned).
    let slot = pte_slot(mm, vma, address).expect("page_check_address found it");
    // Store the pfn of the page in a special migration pte. do_swap_page() will wait until
    // the migration pte is removed and then restart fault handling.
    let entry = make_migration_entry(mm, page);
    // MODEL: `set_pte_at(mm, address, pte, swp_entry_to_pte(entry))` as one store.
    // LEFT OUT: `BUG_ON(pte_file(*pte))` (an entry is no file pte); the file page branch
    // (anon pages only); `dec_mm_counter`: statistics.
    WRITE_ONCE(&mm.ptes[slot], entry);
    ktrace!(
        "try_to_unmap_one",
        "page {page} at {address:#x} (vma#{vma}): migration entry installed"
    );
    page_remove_rmap(mm, page);
    // LEFT OUT: `page_cache_release(page)`: no page refcounts in these models.
    // MODEL: `pte_unmap_unlock(pte, ptl)` as the guard's drop.
    drop(ptl);
    // LEFT OUT: `out_mlock:` is not reached (TTU_IGNORE_MLOCK).
    // MODEL: `return ret`, SWAP_AGAIN.
    SWAP_AGAIN
}

/// `remove_migration_pte(new, vma, addr, old)` (mm/migrate.c, 2.6.34; 2.6.31's
/// `remove_migration_pte(vma, old, new)` computes `addr` first, then the same): "Restore a
/// potential migration pte to a working pte entry".
pub fn remove_migration_pte(mm: &Mm, new: PageId, vma: VmaId, addr: usize, old: PageId) -> i32 {
    // LEFT OUT: `mm = vma->vm_mm` (`pte_slot` reads the vma's mm); the pgd/pud/pmd walk: the
    // models' page table has one level (`pte_slot`; beyond it is the walk's `goto out`).
    // MODEL: `goto out` for an address beyond the page table.
    let Some(slot) = pte_slot(mm, vma, addr) else {
        return SWAP_AGAIN;
    };
    // LEFT OUT: `ptep = pte_offset_map(pmd, addr)` is the slot above.
    // MODEL: the unlocked peek `if (!is_swap_pte(*ptep)) { pte_unmap(ptep); goto out; }`: the
    // models' only swap ptes are migration entries.
    if !is_migration_entry(READ_ONCE(&mm.ptes[slot])) {
        ktrace!(
            "remove_migration_pte",
            "{addr:#x} (vma#{vma}): no migration entry there (unlocked peek)"
        );
        return SWAP_AGAIN;
    }
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
    // vma->vm_page_prot))`, `is_write_migration_entry`/`pte_mkwrite`: the models' pte is the
    // page's pfn, without protection, young or write bits; `flush_cache_page`: no caches;
    // `if (PageAnon(new))`: the models' pages are anon.
    // MODEL: `set_pte_at(mm, addr, ptep, pte)` as one store of the page.
    WRITE_ONCE(&mm.ptes[slot], new);
    // MODEL: DISCREPANCY (reported): only the mapcount part of `page_add_anon_rmap(new, vma,
    // addr)` runs: a first mapping's `new->mapping` and `new->index` are not rewritten here.
    page_add_anon_rmap_mapcount(mm, new, vma, addr);
    // LEFT OUT: `else page_add_file_rmap(new)` (anon pages only); `update_mmu_cache`: no MMU
    // cache.
    ktrace!(
        "remove_migration_pte",
        "{addr:#x} (vma#{vma}): migration entry of page {old} replaced by page {new}"
    );
    // MODEL: `unlock: pte_unmap_unlock(ptep, ptl)` as the guard's drop.
    drop(ptl);
    SWAP_AGAIN
}

// ---------------------------------------------------------------------------------------------
// mm/migrate.c: unmap_and_move (2.6.31; 2.6.34 the same in these steps)

/// `unmap_and_move(get_new_page, private, page, force)` (mm/migrate.c, 2.6.31) for an anon
/// page: lock it, `try_to_unmap(page, 1)` (migration entries in every mapping found), move
/// it to `newpage` if it is no longer mapped, remove the migration entries (pointing them at
/// `newpage`, or back at `page` on failure), unlock. Returns 0 when the page moved.
///
/// C: not found (no 2.6.31 or 2.6.34 text was found in the stored trees or linux-mm postings)
/// (2.6.35.7's has the compaction series' changes).
pub fn unmap_and_move<R: AnonRmap>(mm: &Mm, page: PageId, newpage: PageId) -> i32 {
    let mut rc = -EAGAIN;
    if !trylock_page(mm, page) {
        return rc;
    }
    ktrace!(
        "unmap_and_move",
        "page {page} locked for migration to page {newpage}"
    );
    // rcu_read_lock(): the anon_vma cannot be freed under us.

    // Establish migration ptes or remove ptes
    R::try_to_unmap_anon(mm, page);

    if !page_mapped(mm, page) {
        rc = move_to_new_page::<R>(mm, newpage, page);
    }

    if rc != 0 {
        R::remove_migration_ptes(mm, page, page);
    }
    unlock_page(mm, page);
    ktrace!("unmap_and_move", "page {page}: rc {rc}");
    rc
}

/// `move_to_new_page(newpage, page)` (mm/migrate.c, 2.6.31): "Move a page to a newly
/// allocated page. The page is locked and all ptes have been successfully removed."
///
/// C: not found (no 2.6.31 or 2.6.34 text was found in the stored trees or linux-mm postings)
fn move_to_new_page<R: AnonRmap>(mm: &Mm, newpage: PageId, page: PageId) -> i32 {
    // Block others from accessing the page when we get around to establishing additional
    // references. We are the only one holding a reference to the new page at this point.
    BUG_ON!("move_to_new_page", !trylock_page(mm, newpage));

    // Prepare mapping for the new page.
    WRITE_ONCE(&mm.pages[newpage].index, READ_ONCE(&mm.pages[page].index));
    WRITE_ONCE(
        &mm.pages[newpage].mapping,
        READ_ONCE(&mm.pages[page].mapping),
    );

    // mapping = page_mapping(page) is NULL for an anon page not in the swap cache:
    // rc = migrate_page(mapping, newpage, page) -> migrate_page_copy(), which ends with
    // page->mapping = NULL.
    WRITE_ONCE(&mm.pages[page].mapping, 0);
    let rc = 0;

    if rc == 0 {
        R::remove_migration_ptes(mm, page, newpage);
    } else {
        WRITE_ONCE(&mm.pages[newpage].mapping, 0);
    }
    unlock_page(mm, newpage);
    rc
}

/// A later fault at `address` (`handle_mm_fault` -> `handle_pte_fault` -> `do_swap_page`,
/// mm/memory.c): a migration entry sends it to `migration_entry_wait(mm, pmd, address)`
/// (mm/migrate.c), which calls `migration_entry_to_page(entry)` under the pte lock. A
/// migration entry left behind after the page was unlocked is the kernel's BUG there
/// ("kernel BUG at include/linux/swapops.h:105!").
pub fn do_swap_page(mm: &Mm, vm_mm: usize, address: usize) {
    let pte = READ_ONCE(&mm.ptes[vm_mm * mm.ptes_per_mm + (address >> PAGE_SHIFT)]);
    if !is_migration_entry(pte) {
        return;
    }
    ktrace!(
        "do_swap_page",
        "fault at {address:#x} (mm {vm_mm}): migration entry for page {}: migration_entry_wait()",
        pte & !SWP_MIGRATION
    );
    // migration_entry_wait(): page = migration_entry_to_page(entry); get_page(page);
    // pte_unmap_unlock(ptep, ptl); wait_on_page_locked(page); put_page(page);
    let _page = migration_entry_to_page(mm, pte);
}

// ---------------------------------------------------------------------------------------------
// mm/mmap.c, the parts both eras share

/// `__vma_unlink(mm, vma, prev)` (mm/mmap.c): take `vma` off the mm list (the rb-tree and
/// mmap_cache are not modelled).
pub fn __vma_unlink(mm: &Mm, vma: VmaId, prev: VmaId) {
    mm.vmas[prev].vm_next.set(mm.vmas[vma].vm_next.get());
    // LEFT OUT: `rb_erase(&vma->vm_rb, &mm->mm_rb)` and the `mmap_cache` reset: the models have
    // no rb-tree and no find_vma cache (vmas are found by walking the list).
    ktrace!("__vma_unlink", "vma#{vma} unlinked from the mm");
}

/// The step of `zap_pte_range()` (mm/memory.c) for one anon pte of `vma` at `address`, as
/// munmap's and exit's `unmap_vmas()` run it: under the pte lock, `ptent =
/// ptep_get_and_clear_full(...)`, then `page_remove_rmap(page)`. The page's last reference is
/// not dropped here: in the models a CPU that walks the page holds one (reclaim isolated it),
/// so `page->mapping` stays, as the kernel leaves it on an anon page it unmaps. The rest of
/// zap_pte_range (the tlb gather, rss counters, the dirty and young bits, swap entries) has
/// nothing the models read. C: not stored (the models need only these two steps).
pub fn zap_pte(mm: &Mm, vma: VmaId, address: usize) {
    let ptl = spin_lock(pte_lockptr(mm, vma));
    let Some(slot) = pte_slot(mm, vma, address) else {
        crate::trace::harness_fail(
            "zap_pte_range",
            format!("{address:#x} is outside the page table"),
        );
    };
    let page = READ_ONCE(&mm.ptes[slot]);
    WRITE_ONCE(&mm.ptes[slot], PTE_NONE);
    // The event right after the store (an unlocked peek at this pte may follow it), under the
    // pte lock: recorded after the unlock it stood after the lock's release.
    ktrace!(
        "zap_pte_range",
        "vma#{vma} {address:#x}: pte cleared, page {page} unmapped"
    );
    if page < mm.pages.len() {
        page_remove_rmap(mm, page);
    }
    drop(ptl);
}

/// Which anon_vma's lock `lock` holds, for a trace (no access to the machine's memory).
pub(crate) fn lock_name(mm: &Mm, lock: &SpinGuard<'_, ()>) -> String {
    (0..mm.anon_vmas.len())
        .find(|&a| lock.holds(&mm.anon_vmas[a].lock))
        .map_or("a lock".to_string(), |a| format!("anon_vma#{a}'s lock"))
}

/// `anon_vma_lock(vma)` (include/linux/rmap.h, 2.6.31): the vma form (2.6.34 the same);
/// the lock is returned as a guard, None when the vma has no anon_vma.
pub fn anon_vma_lock_vma(mm: &Mm, vma: VmaId) -> Option<SpinGuard<'_, ()>> {
    let anon_vma = mm.vmas[vma].anon_vma.get();
    if let Some(anon_vma) = anon_vma {
        // MODEL: the guard is returned (the C's caller holds the lock until its unlock).
        return Some(spin_lock(&mm.anon_vmas[anon_vma].lock));
    }
    // MODEL: no anon_vma, no lock.
    None
}

/// `anon_vma_unlock(vma)` (include/linux/rmap.h, 2.6.31): the vma form (2.6.34 the same).
pub fn anon_vma_unlock_vma<'a>(mm: &'a Mm, vma: VmaId, lock: Option<SpinGuard<'a, ()>>) {
    let anon_vma = mm.vmas[vma].anon_vma.get();
    if anon_vma.is_some() {
        // LEFT OUT: `spin_unlock(&anon_vma->lock)` is the guard's drop below: `vma->anon_vma`
        // read again is the one locked (the caller holds mmap_sem, and an anon_vma once set is
        // not changed under it).
        // MODEL: the guard taken by `anon_vma_lock_vma` dropped.
        drop(lock);
    }
}

/// `expand_downwards(vma, address)` (mm/mmap.c, 2.6.31): the stack vma grows down to
/// `address` (`expand_stack()` on x86, from a fault below the stack, with `mmap_sem` held for
/// read only: the rmap walks are kept out by the anon_vma lock alone). Its lock is the era's
/// vma form ([`AnonRmap::vma_lock_anon_vma`]): the vma's own anon_vma in 2.6.31 (which a
/// forked child shares with its parent) and 2.6.34 (the child's own, newest one), the root's
/// from 012f1800, whose message names expand_stack among the operations the root lock now
/// excludes the rmap walks from.
pub fn expand_downwards<R: AnonRmap>(mm: &Mm, vma: VmaId, address: usize) -> i32 {
    // LEFT OUT: `int error`: every check that sets it is left out below (the tail is 0).

    // We must make sure the anon_vma is allocated
    // so that the anon_vma locking is not a noop.
    // LEFT OUT: `if (unlikely(anon_vma_prepare(vma))) return -ENOMEM;`: the models' stack has
    // its anon_vma (its first fault made it), so anon_vma_prepare() returns 0 at its first test.
    if mm.vmas[vma].anon_vma.get().is_none() {
        // LEFT OUT: its `return -ENOMEM` (the harness stops instead).
        // MODEL: the harness check of that.
        crate::trace::harness_fail("expand_downwards", format!("vma#{vma} has no anon_vma"));
    }

    let address = address & PAGE_MASK;
    // LEFT OUT: `error = security_file_mmap(NULL, 0, 0, 0, address, 1); if (error) return
    // error;`: no security module in the models (the address is above mmap_min_addr).

    // LEFT OUT: `anon_vma_lock(vma)` (2.6.31, 2.6.34; 012f1800 `vma_lock_anon_vma(vma)`) is
    // the era's vma form of the lock below.
    // MODEL: the era's lock (`AnonRmap::vma_lock_anon_vma`), held as a guard.
    let lock = R::vma_lock_anon_vma(mm, vma);

    // vma->vm_start/vm_end cannot change under us because the caller
    // is required to hold the mmap_sem in read mode.  We need the
    // anon_vma lock to serialize against concurrent expand_stacks.

    let v = &mm.vmas[vma];
    // Somebody else might have raced and expanded it already
    if address < READ_ONCE(&v.vm_start) {
        let size = READ_ONCE(&v.vm_end) - address;
        let grow = (READ_ONCE(&v.vm_start) - address) >> PAGE_SHIFT;

        // LEFT OUT: `error = acct_stack_growth(vma, size, grow); if (!error)`: the rlimit,
        // overcommit and accounting checks, which the models' growth of one page passes.
        ktrace!(
            "expand_downwards",
            "vma#{vma} grows down to {address:#x} ({grow} page(s), {size:#x} bytes) under {}",
            lock.as_ref()
                .map_or("no lock".to_string(), |l| lock_name(mm, l))
        );
        WRITE_ONCE(&v.vm_start, address);
        WRITE_ONCE(&v.vm_pgoff, READ_ONCE(&v.vm_pgoff) - grow);
        // LEFT OUT: `perf_event_mmap(vma)` (012f1800's text: Eric B Munson's perf mmap_data
        // patch, not in 2.6.35.7's): no perf in the models.
    }
    // LEFT OUT: `anon_vma_unlock(vma)` (012f1800 `vma_unlock_anon_vma(vma)`) is the era's
    // unlock below.
    // MODEL: the era's unlock (`AnonRmap::vma_unlock_anon_vma`) of the guard.
    R::vma_unlock_anon_vma(mm, vma, lock);
    // LEFT OUT: `return error` is the tail 0: `error` is 0 on every path the models take (the
    // checks that set it are left out above).
    // MODEL: the tail 0.
    0
}

/// `kmem_cache_free(vm_area_cachep, vma)`.
pub fn kmem_cache_free_vma(mm: &Mm, vma: VmaId) {
    mm.vmas[vma].freed.set(true);
    ktrace!("kmem_cache_free", "vma#{vma} freed");
}

/// `__vma_link_list(mm, vma, prev, rb_parent)` (mm/mmap.c, before 2.6.36): after `prev`, or
/// first.
pub fn __vma_link_list(mm: &Mm, vma: VmaId, prev: Option<VmaId>) {
    let v = &mm.vmas[vma];
    // MODEL: `mm->mmap` of the vma's own mm (the machine holds one list per mm).
    let mmap = &mm.mmap[v.vm_mm.get()];
    match prev {
        // MODEL: `if (prev)` as a match on the Option.
        Some(p) => {
            v.vm_next.set(mm.vmas[p].vm_next.get());
            // MODEL: `prev->vm_next = vma` (the tool pairs it with the `None` arm's first
            // line); `None =>` is the `else`.
            mm.vmas[p].vm_next.set(Some(vma));
        }
        None => {
            v.vm_next.set(mmap.get());
            // LEFT OUT: `else` is the `None =>` above.
            mmap.set(Some(vma));
            // LEFT OUT: `vma->vm_next = rb_parent ? rb_entry(rb_parent, ...) : NULL` is the
            // `v.vm_next.set(mmap.get())` above: with no prev, the vma after the insertion
            // point (rb_parent's) is the list's old first vma, or none.
        }
    }
}

/// `find_vma_prepare(mm, addr, &prev, ...)`'s `prev`: the last vma of mm `vm_mm` starting
/// below `start`.
pub fn find_vma_prev(mm: &Mm, vm_mm: usize, start: usize) -> Option<VmaId> {
    let mut prev = None;
    let mut cur = mm.mmap[vm_mm].get();
    while let Some(c) = cur {
        if READ_ONCE(&mm.vmas[c].vm_start) >= start {
            break;
        }
        prev = Some(c);
        cur = mm.vmas[c].vm_next.get();
    }
    prev
}

/// `is_mergeable_vma(vma, file, vm_flags)` (mm/mmap.c, 2.6.31; 2.6.32's KSM interface wrote
/// the mask as `VM_CAN_NONLINEAR` with a comment, kernel/5beb4930/): "If the vma has a ->close
/// operation then the driver probably needs to release per-vma resources, so we don't
/// attempt to merge those."
pub fn is_mergeable_vma(mm: &Mm, vma: VmaId, file: bool, vm_flags: usize) -> bool {
    let v = &mm.vmas[vma];
    // MODEL: 2.6.31 writes the mask as VM_MERGEABLE_FLAGS, #defined as VM_CAN_NONLINEAR (the
    // 2.6.32 form, for the chain era).
    if (READ_ONCE(&v.vm_flags) ^ vm_flags) & !VM_CAN_NONLINEAR != 0 {
        return false;
    }
    if v.vm_file != file {
        // LEFT OUT: `return 0;` (the tool pairs this `return false` with the next test's) and
        // `if (vma->vm_ops && vma->vm_ops->close)`: the models' vmas are anonymous, with no
        // vm_ops.
        return false;
    }
    true
}

/// `is_mergeable_anon_vma(anon_vma1, anon_vma2)` (mm/mmap.c, 2.6.31; 2.6.34 has the same
/// text): two vmas can merge if at most one has an anon_vma, or both have the same.
pub fn is_mergeable_anon_vma(anon_vma1: Option<AnonVmaId>, anon_vma2: Option<AnonVmaId>) -> bool {
    anon_vma1.is_none() || anon_vma2.is_none() || (anon_vma1 == anon_vma2)
}

/// `can_vma_merge_before(vma, vm_flags, anon_vma, file, vm_pgoff)` (mm/mmap.c, 2.6.31): "Return
/// true if we can merge this (vm_flags,anon_vma,file,vm_pgoff) in front of (at a lower virtual
/// address and file offset than) the vma." (`clippy::collapsible_if` is allowed for the
/// kernel's nesting: the pgoff test inside the mergeability test.)
#[allow(clippy::collapsible_if)]
pub fn can_vma_merge_before(
    mm: &Mm,
    vma: VmaId,
    vm_flags: usize,
    anon_vma: Option<AnonVmaId>,
    file: bool,
    vm_pgoff: usize,
) -> bool {
    let v = &mm.vmas[vma];
    if is_mergeable_vma(mm, vma, file, vm_flags)
        && is_mergeable_anon_vma(anon_vma, v.anon_vma.get())
    {
        if READ_ONCE(&v.vm_pgoff) == vm_pgoff {
            return true;
        }
    }
    false
}

/// `can_vma_merge_after(vma, vm_flags, anon_vma, file, vm_pgoff)` (mm/mmap.c, 2.6.31): "Return
/// true if we can merge this (vm_flags,anon_vma,file,vm_pgoff) beyond (at a higher virtual
/// address and file offset than) the vma."
pub fn can_vma_merge_after(
    mm: &Mm,
    vma: VmaId,
    vm_flags: usize,
    anon_vma: Option<AnonVmaId>,
    file: bool,
    vm_pgoff: usize,
) -> bool {
    let v = &mm.vmas[vma];
    if is_mergeable_vma(mm, vma, file, vm_flags)
        && is_mergeable_anon_vma(anon_vma, v.anon_vma.get())
    {
        // LEFT OUT: `pgoff_t vm_pglen` is declared where it is set, below.
        let vm_pglen = (READ_ONCE(&v.vm_end) - READ_ONCE(&v.vm_start)) >> PAGE_SHIFT;
        if READ_ONCE(&v.vm_pgoff) + vm_pglen == vm_pgoff {
            return true;
        }
    }
    false
}

/// `VM_SPECIAL` (include/linux/mm.h, 3.1): `VM_IO | VM_DONTEXPAND | VM_RESERVED | VM_PFNMAP`,
/// "Special vmas that are non-mergable, non-mlock()able" (the bit values as we know them; no
/// 3.1 include/linux/mm.h is stored: UNVERIFIED). The models' vmas have none of them.
pub const VM_SPECIAL: usize = 0x0000_4000 | 0x0004_0000 | 0x0008_0000 | 0x0000_0400;

/// `vma_merge(mm, prev, addr, end, vm_flags, anon_vma, file, pgoff, policy)` (mm/mmap.c, 3.1):
/// "Given a mapping request (addr,end,vm_flags,file,pgoff), figure out whether that can be
/// merged with its predecessor or its successor. Or both (it neatly fills a hole)." Each
/// merge is the variant's `vma_adjust()`. The vma the request became part of, or None. (The
/// models call it from mremap's `copy_vma()`, where `[addr, end)` is not mapped.)
#[allow(clippy::too_many_arguments)]
pub fn vma_merge<V: VmaAdjust>(
    mm: &Mm,
    vm_mm: usize,
    prev: Option<VmaId>,
    addr: usize,
    end: usize,
    vm_flags: usize,
    anon_vma: Option<AnonVmaId>,
    file: bool,
    pgoff: usize,
) -> Option<VmaId> {
    // LEFT OUT: the `policy` argument and every `mpol_equal()` test below: the models' vmas
    // have no mempolicy (every test holds); `int err` is declared where it is set.
    let pglen = (end - addr) >> PAGE_SHIFT;

    // We later require that vma->vm_flags == vm_flags, so this tests vma->vm_flags &
    // VM_SPECIAL, too.
    if vm_flags & VM_SPECIAL != 0 {
        return None;
    }

    // LEFT OUT: `if (prev)` is the match below.
    let mut next = match prev {
        // MODEL: `if (prev) next = prev->vm_next; else next = mm->mmap;` as a match on the
        // Option (the mm is the machine's list `vm_mm`).
        // LEFT OUT: `else` and `next = mm->mmap` are the `None` arm (the tool does not pair
        // them); `area = next` is the `let area` line below (which the tool reads as a name).
        Some(p) => mm.vmas[p].vm_next.get(),
        None => mm.mmap[vm_mm].get(),
    };
    let area = next;
    if let Some(n) = next.filter(|&n| READ_ONCE(&mm.vmas[n].vm_end) == end) {
        // cases 6, 7, 8
        next = mm.vmas[n].vm_next.get();
    }

    // Can it merge with the predecessor?
    if let Some(p) = prev.filter(|&p| {
        READ_ONCE(&mm.vmas[p].vm_end) == addr
            && can_vma_merge_after(mm, p, vm_flags, anon_vma, file, pgoff)
    }) {
        // OK, it can.  Can we now merge in the successor as well?
        // MODEL: 3.1's `is_mergeable_anon_vma(prev->anon_vma, next->anon_vma, NULL)` and the
        // `vma` argument of the helpers' calls in their 2.6.31 form (no third argument: the
        // header of kernel/486cf46f/mm/mmap.c says why that is the same here).
        let err = if let Some(n) = next.filter(|&n| {
            end == READ_ONCE(&mm.vmas[n].vm_start)
                && can_vma_merge_before(mm, n, vm_flags, anon_vma, file, pgoff + pglen)
                && is_mergeable_anon_vma(mm.vmas[p].anon_vma.get(), mm.vmas[n].anon_vma.get())
        }) {
            // cases 1, 6
            V::vma_adjust(
                mm,
                p,
                READ_ONCE(&mm.vmas[p].vm_start),
                READ_ONCE(&mm.vmas[n].vm_end),
                READ_ONCE(&mm.vmas[p].vm_pgoff),
                None,
            )
        } else {
            // cases 2, 5, 7
            V::vma_adjust(
                mm,
                p,
                READ_ONCE(&mm.vmas[p].vm_start),
                end,
                READ_ONCE(&mm.vmas[p].vm_pgoff),
                None,
            )
        };
        if err != 0 {
            return None;
        }
        // LEFT OUT: `khugepaged_enter_vma_merge(prev)`: no transparent huge pages in the
        // models.
        // MODEL: `return prev` as the Option of the vma it names.
        return Some(p);
    }

    // Can this new request be merged in front of next?
    if let Some(n) = next.filter(|&n| {
        end == READ_ONCE(&mm.vmas[n].vm_start)
            && can_vma_merge_before(mm, n, vm_flags, anon_vma, file, pgoff + pglen)
    }) {
        let err = if let Some(p) = prev.filter(|&p| addr < READ_ONCE(&mm.vmas[p].vm_end)) {
            // case 4
            V::vma_adjust(
                mm,
                p,
                READ_ONCE(&mm.vmas[p].vm_start),
                addr,
                READ_ONCE(&mm.vmas[p].vm_pgoff),
                None,
            )
        } else {
            // cases 3, 8
            // MODEL: `area` as the vma it names: it is set whenever `next` is (`next` is
            // `area` or the vma after it).
            let a = area.expect("cases 3, 8 have an area");
            V::vma_adjust(
                mm,
                a,
                addr,
                READ_ONCE(&mm.vmas[n].vm_end),
                READ_ONCE(&mm.vmas[n].vm_pgoff) - pglen,
                None,
            )
        };
        if err != 0 {
            return None;
        }
        // LEFT OUT: `khugepaged_enter_vma_merge(area)`: no transparent huge pages (above).
        // MODEL: `return area` (the tool pairs it with the khugepaged call).
        return area;
    }

    None
}

/// `find_mergeable_anon_vma(vma)` (mm/mmap.c, 2.6.31; d0e9fe17, 2.6.34-rc, replaced it: that
/// 2.6.32 to 5beb4930 had exactly this text is UNVERIFIED, kernel/linux-2.6.31/ says why):
/// "used by anon_vma_prepare, to check neighbouring vmas for a suitable anon_vma, before it
/// goes off to allocate a new anon_vma". It hands over the next (or else the previous) vma's
/// anon_vma whenever `vma` could merge with that vma after an mprotect, whatever else that vma
/// is linked to: in the chain era, a forked child's own anon_vma, whose vma also has the
/// parent's anon_vmas on its chain (H-15, proofs/vma.reuse.md).
pub fn find_mergeable_anon_vma(mm: &Mm, vma: VmaId) -> Option<AnonVmaId> {
    let v = &mm.vmas[vma];
    // LEFT OUT: `struct vm_area_struct *near; unsigned long vm_flags;`: declared where set.
    let near = v.vm_next.get();
    // MODEL: `if (!near) goto try_prev;` as the `if let` below: its block is the code up to
    // `try_prev:`, run when there is a next vma.
    if let Some(near) = near {
        // LEFT OUT: `goto try_prev;`: the end of the `if let` block (above).
        // Since only mprotect tries to remerge vmas, match flags which might be mprotected
        // into each other later on. Neither mlock nor madvise tries to remerge at present, so
        // leave their flags as obstructing a merge.
        let mut vm_flags = READ_ONCE(&v.vm_flags) & !(VM_READ | VM_WRITE | VM_EXEC);
        vm_flags |= READ_ONCE(&mm.vmas[near].vm_flags) & (VM_READ | VM_WRITE | VM_EXEC);

        // LEFT OUT: `mpol_equal(vma_policy(vma), vma_policy(near))`: no mempolicies in the
        // models (both NULL, equal).
        if mm.vmas[near].anon_vma.get().is_some()
            && READ_ONCE(&v.vm_end) == READ_ONCE(&mm.vmas[near].vm_start)
            && can_vma_merge_before(
                mm,
                near,
                vm_flags,
                None,
                v.vm_file,
                READ_ONCE(&v.vm_pgoff)
                    + ((READ_ONCE(&v.vm_end) - READ_ONCE(&v.vm_start)) >> PAGE_SHIFT),
            )
        {
            ktrace!(
                "find_mergeable_anon_vma",
                "vma#{vma} reuses next vma#{near}'s anon_vma#{} ({} entries on vma#{near}'s chain)",
                mm.vmas[near].anon_vma.get().expect("tested"),
                anon_vma_chain_len(mm, near)
            );
            return mm.vmas[near].anon_vma.get();
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
    let near = find_vma_prev(mm, v.vm_mm.get(), READ_ONCE(&v.vm_start));
    let Some(near) = near else {
        // LEFT OUT: `goto none;`: the `return NULL` it reaches is the next line.
        // MODEL: `return NULL` (after the `none:` label) as the `else` of the `let`.
        return None;
    };

    let mut vm_flags = READ_ONCE(&v.vm_flags) & !(VM_READ | VM_WRITE | VM_EXEC);
    vm_flags |= READ_ONCE(&mm.vmas[near].vm_flags) & (VM_READ | VM_WRITE | VM_EXEC);

    // LEFT OUT: `mpol_equal(vma_policy(near), vma_policy(vma))`: no mempolicies (above).
    if mm.vmas[near].anon_vma.get().is_some()
        && READ_ONCE(&mm.vmas[near].vm_end) == READ_ONCE(&v.vm_start)
        && can_vma_merge_after(mm, near, vm_flags, None, v.vm_file, READ_ONCE(&v.vm_pgoff))
    {
        ktrace!(
            "find_mergeable_anon_vma",
            "vma#{vma} reuses previous vma#{near}'s anon_vma#{} ({} entries on vma#{near}'s chain)",
            mm.vmas[near].anon_vma.get().expect("tested"),
            anon_vma_chain_len(mm, near)
        );
        return mm.vmas[near].anon_vma.get();
    }
    // LEFT OUT: the `none:` label and its comment ("There's no absolute need to look only at
    // touching neighbours ..."): the fall-through to the `return NULL` below.
    None
}

/// The number of entries on `vma`'s anon_vma_chain (0 in the 2.6.31 era, which has none), for
/// traces.
pub fn anon_vma_chain_len(mm: &Mm, vma: VmaId) -> usize {
    list_entries(mm, "anon_vma_chain_len", mm.anon_vma_chain(vma)).len()
}

/// The vmas in the mms' lists, in order.
pub fn mm_vmas(mm: &Mm) -> Vec<VmaId> {
    let mut out = Vec::new();
    for mmap in &mm.mmap {
        let mut cur = mmap.get();
        while let Some(c) = cur {
            if out.len() > mm.vmas.len() {
                fail(
                    "mm_vmas",
                    Invariant::ListCorruption,
                    "the mm's vma list loops".to_string(),
                );
            }
            out.push(c);
            cur = mm.vmas[c].vm_next.get();
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Model setup and end checks

/// Set up vma `vma` = [start, end) pgoff, linked into the mm after `prev`, with anon_vma
/// `anon_vma` (None: the vma never faulted an anon page).
pub fn setup_vma<R: AnonRmap>(
    mm: &Mm,
    vma: VmaId,
    (start, end, pgoff): (usize, usize, usize),
    prev: Option<VmaId>,
    anon_vma: Option<AnonVmaId>,
) {
    let v = &mm.vmas[vma];
    WRITE_ONCE(&v.vm_start, start);
    WRITE_ONCE(&v.vm_end, end);
    WRITE_ONCE(&v.vm_pgoff, pgoff);
    __vma_link_list(mm, vma, prev);
    if let Some(av) = anon_vma {
        R::anon_vma_prepare(mm, vma, av);
    }
}

/// Fork (`dup_mmap`): vma `vma` of mm 1 becomes a copy of `pvma` (mm 0), first in mm 1's
/// list, and the era's `anon_vma_fork(vma, pvma)` links it (`new_av`: the anon_vma a 2.6.34
/// child gets for its own COWed pages).
pub fn fork_vma<R: AnonRmap>(mm: &Mm, vma: VmaId, pvma: VmaId, new_av: AnonVmaId) {
    let (v, p) = (&mm.vmas[vma], &mm.vmas[pvma]);
    WRITE_ONCE(&v.vm_start, READ_ONCE(&p.vm_start));
    WRITE_ONCE(&v.vm_end, READ_ONCE(&p.vm_end));
    WRITE_ONCE(&v.vm_pgoff, READ_ONCE(&p.vm_pgoff));
    v.vm_mm.set(1);
    __vma_link_list(mm, vma, None);
    R::anon_vma_fork(mm, vma, pvma, new_av);
}

/// Map anon page `page` (of anon_vma `av`, `page->index` = `index`) at `address` of mm 0
/// (setup: `page_add_new_anon_rmap`).
pub fn map_page(mm: &Mm, page: PageId, av: AnonVmaId, index: usize, address: usize) {
    map_page_in(mm, page, av, index, 0, address);
}

/// Map anon page `page` (of anon_vma `av`, `page->index` = `index`) at `address` of mm `vm_mm`
/// only (setup: `page_add_new_anon_rmap` in a forked child's vma).
pub fn map_page_in(
    mm: &Mm,
    page: PageId,
    av: AnonVmaId,
    index: usize,
    vm_mm: usize,
    address: usize,
) {
    let p = &mm.pages[page];
    WRITE_ONCE(&p.index, index);
    WRITE_ONCE(&p.mapping, (av << 1) | PAGE_MAPPING_ANON);
    atomic_inc_return(&p._mapcount);
    WRITE_ONCE(
        &mm.ptes[vm_mm * mm.ptes_per_mm + (address >> PAGE_SHIFT)],
        page,
    );
}

/// Map the already mapped anon page `page` at `address` of mm `vm_mm` too (setup: fork's
/// `copy_one_pte` sharing the page with the child, `page_dup_rmap`).
pub fn map_page_shared(mm: &Mm, page: PageId, vm_mm: usize, address: usize) {
    atomic_inc_return(&mm.pages[page]._mapcount);
    WRITE_ONCE(
        &mm.ptes[vm_mm * mm.ptes_per_mm + (address >> PAGE_SHIFT)],
        page,
    );
}

/// The rmap invariant: a walk that runs while `page` is mapped `mapped` times finds every
/// mapping (a missed one is what becomes a stale pte after migration or reclaim).
pub fn check_walk<R: AnonRmap>(mm: &Mm, page: PageId, mapped: usize) {
    let found = R::page_referenced_anon(mm, page);
    if found != mapped {
        fail(
            "page_referenced_anon",
            Invariant::RmapMiss,
            format!("rmap walk of page {page} found {found} of its {mapped} mapping(s)"),
        );
    }
}

/// The models' end checks, after every CPU is done:
/// 1. each anon_vma's list holds exactly the vmas (or avcs) that point to it;
/// 2. every page a pte maps is found by an rmap walk (each mapping once);
/// 3. the process touches every address that was mapped: a fault on a migration entry left
///    behind runs into `migration_entry_to_page()`'s BUG_ON.
pub fn check_mm<R: AnonRmap>(mm: &Mm) {
    R::check_anon_vma_lists(mm);
    for page in 0..mm.pages.len() {
        let mapped = (0..mm.ptes.len())
            .filter(|&s| READ_ONCE(&mm.ptes[s]) == page)
            .count();
        if mapped > 0 {
            check_walk::<R>(mm, page, mapped);
        }
    }
    for slot in 0..mm.ptes.len() {
        do_swap_page(
            mm,
            slot / mm.ptes_per_mm,
            (slot % mm.ptes_per_mm) << PAGE_SHIFT,
        );
    }
}

/// The vmas of the mm that point to anon_vma `av`.
pub fn vmas_of_anon_vma(mm: &Mm, av: AnonVmaId) -> Vec<VmaId> {
    let mut v: Vec<VmaId> = mm_vmas(mm)
        .into_iter()
        .filter(|&v| mm.vmas[v].anon_vma.get() == Some(av))
        .collect();
    v.sort_unstable();
    v
}
