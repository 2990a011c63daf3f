//! The address-space side of Linux 2.6.31 that vma_adjust and the anon rmap walks touch:
//! `struct vm_area_struct` (start, end, pgoff, anon_vma, the anon_vma list entry), the
//! `anon_vma` with its lock and list of vmas, a page table small enough to check a lookup,
//! mm/mmap.c (`vma_merge`'s calls, `__split_vma`, `__insert_vm_struct`, `__anon_vma_link`)
//! and mm/rmap.c (`vma_address`, `page_check_address`, `page_referenced_anon`,
//! `try_to_unmap_anon`), and the trait the variants implement (`crate::vma` holds one file
//! per version of `vma_adjust`).
//!
//! `vm_start`, `vm_end`, `vm_pgoff` are written under `mmap_sem` (one writer) and read by rmap
//! under `anon_vma->lock` only: word-sized racy reads the kernel relies on (`READ_ONCE` /
//! `WRITE_ONCE` words). The anon_vma list links are lock-protected plain words (`RaceCell`).

use crate::ktrace;
use crate::sync::{
    spin_lock, unsigned_long, EventCounter, RaceCell, SpinGuard, SpinLock, READ_ONCE, WRITE_ONCE,
};
use crate::trace::{fail, Invariant};
use crate::variant::VariantMeta;

/// One version of mm/mmap.c's `vma_adjust()`.
pub trait VmaAdjust: 'static + Send + Sync {
    /// What the variant is (`crate::variant`).
    const META: VariantMeta;
    /// `vma_adjust(vma, start, end, pgoff, insert)`, with `mmap_sem` held for write.
    fn vma_adjust(
        mm: &Mm,
        vma: VmaId,
        start: usize,
        end: usize,
        pgoff: usize,
        insert: Option<VmaId>,
    );
}

pub const PAGE_SHIFT: usize = 12;
pub const PAGE_SIZE: usize = 1 << PAGE_SHIFT;
/// `-EFAULT` as `vma_address()` returns it.
pub const EFAULT: usize = usize::MAX - 13;

/// A vma's index in the model's `Mm::vmas`.
pub type VmaId = usize;

/// `struct vm_area_struct`, the fields used here.
pub struct Vma {
    pub vm_start: unsigned_long,
    pub vm_end: unsigned_long,
    pub vm_pgoff: unsigned_long,
    /// `vm_file != NULL` (the models' vmas are anonymous: false).
    pub vm_file: bool,
    /// `vma->anon_vma` (the model has one anon_vma: Some(0)).
    pub anon_vma: RaceCell<Option<usize>>,
    /// `vma->vm_next` (mm list, changed under mmap_sem only).
    pub vm_next: RaceCell<Option<VmaId>>,
    /// `vma->anon_vma_node`: links in the anon_vma's list (ids: vmas, then the head).
    pub node_next: RaceCell<usize>,
    pub node_prev: RaceCell<usize>,
}

/// `struct anon_vma`: its lock and the list of vmas.
pub struct AnonVma {
    pub lock: SpinLock<()>,
    /// How often `vma_adjust` took the lock (a statistic for tests and benchmarks; a plain
    /// std atomic, invisible to the checkers).
    pub adjust_locks: EventCounter,
    pub head_next: RaceCell<usize>,
    pub head_prev: RaceCell<usize>,
}

/// One mm: its vmas (slots, some unused until `__split_vma` takes one), one anon_vma, and a
/// page table: `ptes[address >> PAGE_SHIFT]` holds the page mapped there.
pub struct Mm {
    pub vmas: Vec<Vma>,
    pub anon_vma: AnonVma,
    pub ptes: Vec<unsigned_long>,
    /// `page->index` of the anon pages mapped (by pfn-like page number).
    pub page_index: Vec<unsigned_long>,
    pub mmap: RaceCell<Option<VmaId>>,
}

/// A vma's anon_vma list links when it is on no list (the kernel's entries are poisoned
/// after `list_del`; a walk that follows one fails).
const NOT_LINKED: usize = usize::MAX;

/// A pte that maps nothing.
const NO_PAGE: usize = usize::MAX;

/// Node id of the anon_vma list head.
fn head_id(mm: &Mm) -> usize {
    mm.vmas.len()
}

impl Mm {
    /// An mm with `nr_vmas` vma slots and a page table of `nr_ptes` entries.
    pub fn new(nr_vmas: usize, nr_ptes: usize, nr_pages: usize) -> Mm {
        let head = nr_vmas;
        Mm {
            vmas: (0..nr_vmas)
                .map(|_| Vma {
                    vm_start: unsigned_long::new(0),
                    vm_end: unsigned_long::new(0),
                    vm_pgoff: unsigned_long::new(0),
                    vm_file: false,
                    anon_vma: RaceCell::new(None),
                    vm_next: RaceCell::new(None),
                    node_next: RaceCell::new(NOT_LINKED),
                    node_prev: RaceCell::new(NOT_LINKED),
                })
                .collect(),
            anon_vma: AnonVma {
                lock: SpinLock::new(()),
                adjust_locks: EventCounter::default(),
                head_next: RaceCell::new(head),
                head_prev: RaceCell::new(head),
            },
            ptes: (0..nr_ptes).map(|_| unsigned_long::new(NO_PAGE)).collect(),
            page_index: (0..nr_pages).map(|_| unsigned_long::new(0)).collect(),
            mmap: RaceCell::new(None),
        }
    }

    fn next_of(&self, id: usize) -> &RaceCell<usize> {
        if id == head_id(self) {
            &self.anon_vma.head_next
        } else {
            &self.vmas[id].node_next
        }
    }
    fn prev_of(&self, id: usize) -> &RaceCell<usize> {
        if id == head_id(self) {
            &self.anon_vma.head_prev
        } else {
            &self.vmas[id].node_prev
        }
    }
    fn describe(&self, id: usize) -> String {
        if id == head_id(self) {
            "anon_vma head".to_string()
        } else if id < self.vmas.len() {
            format!("vma#{id}")
        } else {
            format!("{id:#x}")
        }
    }
}

/// `__anon_vma_link(vma)` (mm/rmap.c, 2.6.31): `list_add_tail(&vma->anon_vma_node,
/// &anon_vma->head)`, with CONFIG_DEBUG_LIST's `__list_add` checks. Caller holds the lock
/// (or, for a vma nobody can see yet, needs none).
pub fn __anon_vma_link(mm: &Mm, vma: VmaId) {
    let head = head_id(mm);
    let prev = mm.anon_vma.head_prev.get();
    let np = mm.prev_of(head).get();
    if np != prev {
        fail(
            "__anon_vma_link",
            Invariant::ListCorruption,
            format!(
                "list_add corruption: next->prev should be {}",
                mm.describe(prev)
            ),
        );
    }
    let pn = mm.next_of(prev).get();
    if pn != head {
        fail(
            "__anon_vma_link",
            Invariant::ListCorruption,
            format!(
                "list_add corruption: prev->next should be the head, was {}",
                mm.describe(pn)
            ),
        );
    }
    mm.prev_of(head).set(vma);
    mm.vmas[vma].node_next.set(head);
    mm.vmas[vma].node_prev.set(prev);
    mm.next_of(prev).set(vma);
    ktrace!("__anon_vma_link", "vma#{vma} linked on the anon_vma list");
}

/// `spin_lock(&anon_vma->lock)` as `vma_adjust` takes it (counted).
pub fn anon_vma_lock_for_adjust(mm: &Mm) -> SpinGuard<'_, ()> {
    mm.anon_vma.adjust_locks.count();
    spin_lock(&mm.anon_vma.lock)
}

/// `vma_address(page, vma)` (mm/rmap.c, 2.6.31).
pub fn vma_address(mm: &Mm, page: usize, vma: VmaId) -> usize {
    let v = &mm.vmas[vma];
    let pgoff = READ_ONCE(&mm.page_index[page]); // page->index
    let start = READ_ONCE(&v.vm_start);
    let vm_pgoff = READ_ONCE(&v.vm_pgoff);
    let address = start.wrapping_add(pgoff.wrapping_sub(vm_pgoff) << PAGE_SHIFT);
    let (start2, end) = (READ_ONCE(&v.vm_start), READ_ONCE(&v.vm_end));
    ktrace!(
        "vma_address",
        "page {page} index {pgoff:#x} in vma#{vma} [{start:#x}, {end:#x}) pgoff {vm_pgoff:#x}: address {address:#x}"
    );
    if address < start2 || address >= end {
        // page should be within @vma mapping range
        return EFAULT;
    }
    address
}

/// `page_check_address(page, mm, address, ...)` (mm/rmap.c): is `page` mapped at `address`?
pub fn page_check_address(mm: &Mm, page: usize, address: usize) -> bool {
    let slot = address >> PAGE_SHIFT;
    slot < mm.ptes.len() && READ_ONCE(&mm.ptes[slot]) == page
}

/// `page_referenced_anon(page, ...)` (mm/rmap.c, 2.6.31) reduced to its walk: take
/// `anon_vma->lock`, visit every vma on the list, compute the address, look the page up.
/// Returns how many mappings it found.
pub fn page_referenced_anon(mm: &Mm, page: usize) -> usize {
    let _lock = spin_lock(&mm.anon_vma.lock); // page_lock_anon_vma()
    let head = head_id(mm);
    let mut found = 0;
    let mut cur = mm.anon_vma.head_next.get();
    let mut steps = 0;
    while cur != head {
        if cur >= mm.vmas.len() || steps > mm.vmas.len() {
            fail(
                "page_referenced_anon",
                Invariant::ListCorruption,
                format!("anon_vma list runs into {}", mm.describe(cur)),
            );
        }
        let address = vma_address(mm, page, cur);
        if address != EFAULT && page_check_address(mm, page, address) {
            found += 1;
        }
        cur = mm.vmas[cur].node_next.get();
        steps += 1;
    }
    ktrace!(
        "page_referenced_anon",
        "page {page}: {found} mapping(s) found"
    );
    found
}

/// The rmap invariant: a walk that runs while `page` is mapped finds every mapping (a missed
/// one is what becomes a stale pte after migration or reclaim).
pub fn check_walk(mm: &Mm, page: usize, mapped: usize) {
    let found = page_referenced_anon(mm, page);
    if found != mapped {
        fail(
            "page_referenced_anon",
            Invariant::RmapMiss,
            format!("rmap walk of page {page} found {found} of its {mapped} mapping(s)"),
        );
    }
}

/// Map `page` (with `page->index` = `index`) at `address` (setup, single-threaded).
pub fn map_page(mm: &Mm, page: usize, index: usize, address: usize) {
    WRITE_ONCE(&mm.page_index[page], index);
    WRITE_ONCE(&mm.ptes[address >> PAGE_SHIFT], page);
}

/// Link `vma` = [start, end) pgoff into the mm (after `prev`) and on the anon_vma (setup).
pub fn setup_vma(mm: &Mm, vma: VmaId, start: usize, end: usize, pgoff: usize, prev: Option<VmaId>) {
    let v = &mm.vmas[vma];
    WRITE_ONCE(&v.vm_start, start);
    WRITE_ONCE(&v.vm_end, end);
    WRITE_ONCE(&v.vm_pgoff, pgoff);
    v.anon_vma.set(Some(0));
    match prev {
        Some(p) => {
            v.vm_next.set(mm.vmas[p].vm_next.get());
            mm.vmas[p].vm_next.set(Some(vma));
        }
        None => {
            v.vm_next.set(mm.mmap.get());
            mm.mmap.set(Some(vma));
        }
    }
    __anon_vma_link(mm, vma);
}

/// `__insert_vm_struct(mm, vma)` (mm/mmap.c, 2.6.31): link into the mm list (`__vma_link`)
/// and onto the anon_vma list (`__anon_vma_link`).
pub fn __insert_vm_struct(mm: &Mm, vma: VmaId, prev: VmaId) {
    let v = &mm.vmas[vma];
    v.vm_next.set(mm.vmas[prev].vm_next.get());
    mm.vmas[prev].vm_next.set(Some(vma));
    __anon_vma_link(mm, vma);
}

/// `__anon_vma_merge(vma, next)` (mm/rmap.c, 2.6.31): `list_del(&next->anon_vma_node)`.
/// Caller holds the lock.
pub fn __anon_vma_merge(mm: &Mm, next: VmaId) {
    let prev = mm.vmas[next].node_prev.get();
    let nx = mm.vmas[next].node_next.get();
    if mm.next_of(prev).get() != next || mm.prev_of(nx).get() != next {
        fail(
            "__anon_vma_merge",
            Invariant::ListCorruption,
            format!("list_del corruption at vma#{next}"),
        );
    }
    mm.next_of(prev).set(nx);
    mm.prev_of(nx).set(prev);
    mm.vmas[next].node_next.set(NOT_LINKED);
    mm.vmas[next].node_prev.set(NOT_LINKED);
}

/// `__vma_unlink(mm, next, prev)` (mm/mmap.c, 2.6.31): take `next` off the mm list.
pub fn __vma_unlink(mm: &Mm, next: VmaId, prev: VmaId) {
    mm.vmas[prev].vm_next.set(mm.vmas[next].vm_next.get());
}

/// The vma before `vma` in the mm list (what `find_vma_prepare` finds for an insert).
pub fn vma_prev(mm: &Mm, start: usize) -> Option<VmaId> {
    let mut prev = None;
    let mut cur = mm.mmap.get();
    while let Some(c) = cur {
        if READ_ONCE(&mm.vmas[c].vm_start) >= start {
            break;
        }
        prev = Some(c);
        cur = mm.vmas[c].vm_next.get();
    }
    prev
}

/// `__split_vma(mm, vma, addr, new_below = 0)` (mm/mmap.c, 2.6.31): the new vma (slot `new`)
/// takes [addr, end) and is inserted by `vma_adjust` under the anon_vma lock.
pub fn __split_vma<V: VmaAdjust>(mm: &Mm, vma: VmaId, new: VmaId, addr: usize) {
    let v = &mm.vmas[vma];
    let n = &mm.vmas[new];
    // *new = *vma;
    let (start, end, pgoff) = (
        READ_ONCE(&v.vm_start),
        READ_ONCE(&v.vm_end),
        READ_ONCE(&v.vm_pgoff),
    );
    WRITE_ONCE(&n.vm_start, start);
    WRITE_ONCE(&n.vm_end, end);
    WRITE_ONCE(&n.vm_pgoff, pgoff);
    n.anon_vma.set(v.anon_vma.get());
    // !new_below
    WRITE_ONCE(&n.vm_start, addr);
    WRITE_ONCE(&n.vm_pgoff, pgoff + ((addr - start) >> PAGE_SHIFT));
    ktrace!(
        "__split_vma",
        "vma#{vma} at {addr:#x}: new vma#{new} [{addr:#x}, {end:#x})"
    );
    V::vma_adjust(mm, vma, start, addr, pgoff, Some(new));
}
