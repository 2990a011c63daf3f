//! `struct page` of the 3.10–3.12 era, the memmap, and the ghost state checked builds keep.
//!
//! Only the fields the modelled code touches are kept, each a shim word (`atomic_t`,
//! `unsigned_long`) because the kernel reads them locklessly (proofs/README.md, "Kernel
//! primitives in C11"):
//!
//! | kernel field                    | here          | note                                             |
//! |---------------------------------|---------------|--------------------------------------------------|
//! | `flags`                         | `flags`       | PG_* bits incl. PG_compound_lock (bit spinlock)   |
//! | `_count`                        | `_count`      | 0 on a tail page; pins live in the head's count  |
//! | `_mapcount`                     | `_mapcount`   | starts at -1; on a tail it also counts tail pins  |
//! | `private` / `first_page` (union)| `private`     | one word: a split tail's `private` overwrites it  |
//! | `lru.next` / `lru.prev`         | `lru_next/prev` | in page[1] of a compound page: dtor and order   |
//! | `lru` as a `list_head`          | `lru`         | LRU / isolation list links of an order-0 page     |
//! | `mapping`                       | `mapping`     | its PAGE_MAPPING_ANON bit only (see below)        |
//!
//! In the kernel `lru` is one field: a compound page's first tail keeps its destructor and
//! order in it, an order-0 page its list links. Here they are two fields (atomics for the
//! lockless dtor reads of `PageHuge()`, [`RaceCell`]s for the lock-protected links); no model
//! has a page that is both a compound tail and on a list.
//!
//! `mapping` is kept for `PageAnon()` only (8d63d99a, 4.1, makes it decide whether a compound
//! page's tails are refcounted): `page_add_new_anon_rmap()` sets the anon bit on a THP head
//! before any other CPU sees the page, split copies it to the tails, `free_pages_prepare()`
//! clears it, `PageAnon()` reads it. A shim word like `flags`: a reader that sees the clear
//! synchronizes with the free's barriers as in the kernel. Only a run of a variant whose code
//! reads `PageAnon()` touches it (`Mem::models_mapping`): the others keep their scheduling
//! points, and with them their explorations and soak schedules.
//!
//! A `struct page *` is a [`PagePtr`]: an address in the virtual memmap. Dereferencing one that
//! does not point at a `struct page` is an oops, which is how a dangling `first_page` shows.

//!
//! Layer: kernel primitives (above the shim and the trace, below `mm`).

use crate::sync::{
    __clear_bit, __set_bit, atomic_read, atomic_set, atomic_t, clear_bit, clear_bit_unlock,
    set_bit, smp_wmb, test_and_clear_bit, test_and_set_bit, test_and_set_bit_lock, test_bit,
    unsigned_long, CName, RaceCell, CHECKED, READ_ONCE, WRITE_ONCE,
};
use crate::trace::{fail, Invariant};
use std::fmt;
// Ghost state: plain std atomics, invisible to the checkers (no scheduling points).
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{
    AtomicBool as GhostBool, AtomicI32 as GhostI32, AtomicIsize, AtomicU32 as GhostU32,
    AtomicU64 as GhostU64, AtomicUsize as GhostUsize,
};

// include/linux/page-flags.h (3.10), bit numbers as in the kernel.
pub const PG_LOCKED: u32 = 0;
pub const PG_REFERENCED: u32 = 2;
pub const PG_UPTODATE: u32 = 3;
pub const PG_DIRTY: u32 = 4;
pub const PG_WRITEBACK: u32 = 13;
pub const PG_RECLAIM: u32 = 18;
pub const PG_LRU: u32 = 5;
pub const PG_ACTIVE: u32 = 6;
pub const PG_SLAB: u32 = 7;
pub const PG_PRIVATE: u32 = 11;
pub const PG_HEAD: u32 = 14;
pub const PG_TAIL: u32 = 15;
pub const PG_SWAPBACKED: u32 = 19;
pub const PG_UNEVICTABLE: u32 = 20;
pub const PG_MLOCKED: u32 = 21;
pub const PG_COMPOUND_LOCK: u32 = 24;
/// NR_PAGEFLAGS: PAGE_FLAGS_CHECK_AT_PREP = (1 << NR_PAGEFLAGS) - 1.
pub const NR_PAGEFLAGS: u32 = 25;
pub const PAGE_FLAGS_CHECK_AT_PREP: usize = (1 << NR_PAGEFLAGS) - 1;
/// PAGE_FLAGS_CHECK_AT_FREE (include/linux/page-flags.h, 2.6.38–4.4): flags a page must not
/// carry when freed, `__PG_COMPOUND_LOCK` included (CONFIG_TRANSPARENT_HUGEPAGE): a
/// PG_compound_lock left set by a lost update is "Bad page state" at the free, and so is a
/// PG_writeback (lru.22-mlock-plain-set). The kernel's PG_private_2, PG_reserved,
/// PG_swapcache and __PG_HWPOISON are not here: no model has those bits.
pub const PAGE_FLAGS_CHECK_AT_FREE: usize = (1 << PG_LRU)
    | (1 << PG_LOCKED)
    | (1 << PG_PRIVATE)
    | (1 << PG_WRITEBACK)
    | (1 << PG_SLAB)
    | (1 << PG_ACTIVE)
    | (1 << PG_UNEVICTABLE)
    | (1 << PG_MLOCKED)
    | (1 << PG_COMPOUND_LOCK);

pub const fn bit(nr: u32) -> usize {
    1 << nr
}

/// Base of the virtual memmap (x86_64 vmemmap) and sizeof(struct page).
pub const VMEMMAP_START: usize = 0xffff_ea00_0000_0000;
pub const STRUCT_PAGE_SIZE: usize = 64;

/// A `struct page *`: may dangle. Dereference through [`MemMap::page`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PagePtr(pub usize);

impl PagePtr {
    pub const NULL: PagePtr = PagePtr(0);

    /// `pfn_to_page(pfn)`.
    pub const fn from_pfn(pfn: usize) -> PagePtr {
        PagePtr(VMEMMAP_START + pfn * STRUCT_PAGE_SIZE)
    }

    /// `page_to_pfn(page)` if this points at a struct page of some memmap.
    pub fn pfn(self) -> Option<usize> {
        let off = self.0.checked_sub(VMEMMAP_START)?;
        (off % STRUCT_PAGE_SIZE == 0).then_some(off / STRUCT_PAGE_SIZE)
    }
}

/// `page + i`: pointer arithmetic on `struct page *` (may leave the memmap).
impl std::ops::Add<usize> for PagePtr {
    type Output = PagePtr;
    fn add(self, i: usize) -> PagePtr {
        PagePtr(self.0.wrapping_add(i.wrapping_mul(STRUCT_PAGE_SIZE)))
    }
}

impl fmt::Debug for PagePtr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pfn() {
            Some(pfn) if pfn < (1 << 20) => write!(f, "page#{pfn}"),
            _ => write!(f, "{:#x}", self.0),
        }
    }
}

impl fmt::Display for PagePtr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Values stored in `page[1].lru.next` as the compound destructor (`compound_page_dtor *`).
pub const DTOR_NULL: usize = 0;
pub const DTOR_FREE_COMPOUND_PAGE: usize = 0xffff_ffff_8115_0000;
pub const DTOR_FREE_HUGE_PAGE: usize = 0xffff_ffff_8119_0000;

/// `struct page`.
pub struct Page {
    pub flags: unsigned_long,
    pub _count: atomic_t,
    pub _mapcount: atomic_t,
    /// `private`, in a union with `first_page`.
    pub private: unsigned_long,
    /// `lru.next` / `lru.prev` as a compound page's `page[1]` uses them (destructor, order).
    pub lru_next: unsigned_long,
    pub lru_prev: unsigned_long,
    /// `page->lru` as a list entry.
    pub lru: ListLinks,
    /// One word of the page's *contents* (not of `struct page`): what a reference holder
    /// writes through its reference (the I/O a pin is for). A model opts in
    /// ([`page_contents_write`]); allocation then checks that it reads the last holder's write
    /// (a write not ordered before its put shows as a stale read) and zeroes it.
    pub data: unsigned_long,
    /// `page->mapping`: only its PAGE_MAPPING_ANON bit (module doc).
    pub mapping: unsigned_long,
    /// Ghost state (checked builds): never read by kernel code.
    pub ghost: Ghost,
}

/// Ghost bookkeeping of a page. Plain std atomics: invisible to the checkers (no scheduling
/// points, no extra interleavings), and only touched when `CHECKED`.
#[derive(Default)]
pub struct Ghost {
    /// Bumped on every allocation: a reference taken under one generation must be dropped
    /// under the same one.
    pub gen: GhostU32,
    /// References the scenario's CPUs hold on this page (PageRef tokens alive).
    pub pins: GhostI32,
    /// Allocated (not in the buddy allocator's free lists).
    pub allocated: GhostBool,
    /// Sitting in the hugetlb pool's free list.
    pub in_hugepool: GhostBool,
    /// Which list the page's `lru` is linked on (`mm::list` names the lists).
    pub on_list: GhostListSlot,
    /// How many per-CPU pagevecs hold this page.
    pub queued: GhostI32,
    /// CPUs (bit per CPU; the main thread is bit 63) whose `put_page()` of a reference to this
    /// frame is in flight: their pin is dropped only after the kernel put returns.
    pub in_put: GhostU64,
    /// The last value a reference holder wrote to the page's contents (`Page::data`) since the
    /// frame was allocated; 0 when nobody wrote.
    pub data: GhostUsize,
}

/// Ghost: which list (by index, `mm::list::ListId::index`) an entry is linked on.
#[derive(Default)]
pub struct GhostListSlot(GhostUsize);

impl GhostListSlot {
    pub fn get(&self) -> Option<usize> {
        self.0.load(Relaxed).checked_sub(1)
    }
    pub fn set(&self, list: Option<usize>) {
        self.0.store(list.map_or(0, |l| l + 1), Relaxed);
    }
}

/// Ghost: a signed count that kernel-side bookkeeping keeps beside kernel state (a plain std
/// atomic, invisible to the checkers), such as the pages a mover has linked on an LRU list and
/// not yet counted (`mm::lru::ZoneLruStat`).
#[derive(Default)]
pub struct GhostCount(AtomicIsize);

impl GhostCount {
    pub fn get(&self) -> isize {
        self.0.load(Relaxed)
    }
    pub fn add(&self, delta: isize) {
        self.0.fetch_add(delta, Relaxed);
    }
}

impl Page {
    /// The struct page of frame `pfn`; its words carry their names (`page#0->_count`) for the
    /// trace's weak-memory notes.
    fn new(pfn: usize) -> Page {
        let name = |field| CName::of("page", pfn, field);
        Page {
            flags: unsigned_long::named(0, name("flags")),
            _count: atomic_t::named(0, name("_count")),
            _mapcount: atomic_t::named(-1, name("_mapcount")),
            // The union's member the modelled code reads (set_page_private writes it too).
            private: unsigned_long::named(0, name("first_page")),
            lru_next: unsigned_long::named(0, name("lru.next")),
            lru_prev: unsigned_long::named(0, name("lru.prev")),
            lru: ListLinks {
                next: RaceCell::new(LIST_POISON1),
                prev: RaceCell::new(LIST_POISON2),
            },
            data: unsigned_long::named(0, CName::of("contents of page", pfn, "")),
            mapping: unsigned_long::named(0, name("mapping")),
            ghost: Ghost::default(),
        }
    }
}

/// LIST_POISON1 / LIST_POISON2 (include/linux/poison.h): what `list_del` leaves in an entry.
pub const LIST_POISON1: usize = 0x0010_0100;
pub const LIST_POISON2: usize = 0x0020_0200;

/// A `struct list_head`: node ids of the next and previous entries. Changed under a lock or
/// by the one CPU that owns the list.
pub struct ListLinks {
    pub next: RaceCell<usize>,
    pub prev: RaceCell<usize>,
}

impl ListLinks {
    pub fn new(self_id: usize) -> ListLinks {
        ListLinks {
            next: RaceCell::new(self_id),
            prev: RaceCell::new(self_id),
        }
    }
}

/// The memmap: `mem_map[]`, a fixed array of struct pages.
pub struct MemMap {
    pages: Box<[Page]>,
    /// Whether this run models `page->mapping` (module doc): model bookkeeping, a ghost.
    models_mapping: GhostBool,
    /// Whether this run has an unevictable mapping (`crate::mm::unevictable`): a ghost.
    models_unevictable: GhostBool,
    /// Whether this run models mlock (PG_mlocked: `crate::mm::mlock`): a ghost.
    models_mlock: GhostBool,
}

impl MemMap {
    pub fn new(nr_pages: usize) -> MemMap {
        MemMap {
            pages: (0..nr_pages).map(Page::new).collect(),
            models_mapping: GhostBool::new(false),
            models_unevictable: GhostBool::new(false),
            models_mlock: GhostBool::new(false),
        }
    }

    /// Whether this run models `page->mapping`: set by a model whose variant's code reads
    /// `PageAnon()` before it sets an anon bit (`Compound::READS_PAGE_ANON`). With it false no
    /// code touches the word, so the other variants' runs keep the scheduling points they had
    /// before the word was modelled.
    pub fn models_mapping(&self) -> bool {
        self.models_mapping.load(Relaxed)
    }

    /// Marks this run as one that models `page->mapping` (see [`MemMap::models_mapping`]).
    pub fn set_models_mapping(&self) {
        self.models_mapping.store(true, Relaxed);
    }

    /// Whether this run has an unevictable mapping (lru.14): with it false, `page_evictable()`
    /// answers 1 without a load and the PageUnevictable tests of `page_lru()` and
    /// `del_page_from_lru()` are skipped, so the other models keep their scheduling points
    /// (`crate::mm::unevictable`).
    pub fn models_unevictable(&self) -> bool {
        self.models_unevictable.load(Relaxed)
    }

    /// Marks this run as one with an unevictable mapping (see
    /// [`MemMap::models_unevictable`]), before its CPUs start.
    pub fn set_models_unevictable(&self) {
        self.models_unevictable.store(true, Relaxed);
    }

    /// Whether this run models mlock (lru.16, lru.17, lru.21, lru.22): with it false,
    /// `page_evictable()` does not load PG_mlocked (no page of the run has it set), so lru.14 and
    /// lru.15 keep their scheduling points (`crate::mm::mlock`).
    pub fn models_mlock(&self) -> bool {
        self.models_mlock.load(Relaxed)
    }

    /// Marks this run as one that models mlock (see [`MemMap::models_mlock`]), before its CPUs
    /// start. A run that models mlock has an unevictable list, so this marks that too.
    pub fn set_models_mlock(&self) {
        self.models_unevictable.store(true, Relaxed);
        self.models_mlock.store(true, Relaxed);
    }

    pub fn nr_pages(&self) -> usize {
        self.pages.len()
    }

    /// Dereference a `struct page *`. A pointer that is not a struct page in this memmap is
    /// what the kernel would oops on ("unable to handle kernel paging request").
    #[inline]
    pub fn page(&self, p: PagePtr) -> &Page {
        match p.pfn() {
            Some(pfn) if pfn < self.pages.len() => &self.pages[pfn],
            _ => fail(
                "page deref",
                Invariant::Oops,
                format!("BUG: unable to handle kernel paging request at {:#x} (dereference of {p:?}, not a struct page)", p.0),
            ),
        }
    }

    pub fn pfn_to_page(&self, pfn: usize) -> PagePtr {
        PagePtr::from_pfn(pfn)
    }

    pub fn pfn(&self, p: PagePtr) -> usize {
        p.pfn()
            .filter(|&n| n < self.pages.len())
            .unwrap_or_else(|| {
                fail(
                    "page_to_pfn",
                    Invariant::Oops,
                    format!("{p:?} is not a struct page"),
                )
            })
    }

    pub fn iter(&self) -> impl Iterator<Item = (PagePtr, &Page)> {
        self.pages
            .iter()
            .enumerate()
            .map(|(i, p)| (PagePtr::from_pfn(i), p))
    }
}

// ---------------------------------------------------------------------------------------------
// Page flag operations (include/linux/page-flags.h): `PageX` is `test_bit`, `SetPageX` /
// `ClearPageX` are atomic `set_bit` / `clear_bit`, and the `__SetPageX` / `__ClearPageX` forms
// are non-atomic (`__set_bit`): they can lose a concurrent update exactly as the kernel's can.

macro_rules! pageflag {
    ($test:ident, $set:ident, $clear:ident, $nonatomic_set:ident, $nonatomic_clear:ident, $bit:expr) => {
        #[inline]
        pub fn $test(page: &Page) -> bool {
            test_bit($bit, &page.flags)
        }
        #[inline]
        pub fn $set(page: &Page) {
            set_bit($bit, &page.flags)
        }
        #[inline]
        pub fn $clear(page: &Page) {
            clear_bit($bit, &page.flags)
        }
        #[inline]
        pub fn $nonatomic_set(page: &Page) {
            __set_bit($bit, &page.flags)
        }
        #[inline]
        pub fn $nonatomic_clear(page: &Page) {
            __clear_bit($bit, &page.flags)
        }
    };
}

pageflag!(
    PageHead,
    SetPageHead,
    ClearPageHead,
    __SetPageHead,
    __ClearPageHead,
    PG_HEAD
);
pageflag!(
    PageTail,
    SetPageTail,
    ClearPageTail,
    __SetPageTail,
    __ClearPageTail,
    PG_TAIL
);
pageflag!(
    PageLRU,
    SetPageLRU,
    ClearPageLRU,
    __SetPageLRU,
    __ClearPageLRU,
    PG_LRU
);
pageflag!(
    PageActive,
    SetPageActive,
    ClearPageActive,
    __SetPageActive,
    __ClearPageActive,
    PG_ACTIVE
);
pageflag!(
    PageUnevictable,
    SetPageUnevictable,
    ClearPageUnevictable,
    __SetPageUnevictable,
    __ClearPageUnevictable,
    PG_UNEVICTABLE
);
pageflag!(
    PageReferenced,
    SetPageReferenced,
    ClearPageReferenced,
    __SetPageReferenced,
    __ClearPageReferenced,
    PG_REFERENCED
);
pageflag!(
    PageSlab,
    SetPageSlab,
    ClearPageSlab,
    __SetPageSlab,
    __ClearPageSlab,
    PG_SLAB
);

/// `TestClearPageActive(page)`: `test_and_clear_bit(PG_active, &page->flags)`, fully ordered.
#[inline]
pub fn TestClearPageActive(page: &Page) -> bool {
    test_and_clear_bit(PG_ACTIVE, &page.flags)
}

// PG_mlocked (include/linux/page-flags.h, 2.6.37–3.0, CONFIG_MMU: `PAGEFLAG(Mlocked, mlocked)
// __CLEARPAGEFLAG(Mlocked, mlocked) TESTSCFLAG(Mlocked, mlocked) __TESTCLEARFLAG(Mlocked,
// mlocked)`): a bit of the one word page->flags, beside PG_lru and PG_unevictable. The macro
// also makes `__SetPageMlocked()`, which the kernel does not have; no code calls it (the mutant
// eb709b0d-mlock-plain-set open-codes it, so that its trace shows the load).
pageflag!(
    PageMlocked,
    SetPageMlocked,
    ClearPageMlocked,
    __SetPageMlocked,
    __ClearPageMlocked,
    PG_MLOCKED
);

/// `TestClearPageMlocked(page)`: `test_and_clear_bit(PG_mlocked, &page->flags)`, fully ordered
/// (a value-returning atomic: "TestClearPageMlocked() [...] already provides full memory
/// barrier semantics", Johannes Weiner, "[patch] mm: order evictable rescue in LRU putback",
/// linux-mm, 7 Oct 2009, <1254940610-27324-1-git-send-email-hannes@cmpxchg.org>).
#[inline]
pub fn TestClearPageMlocked(page: &Page) -> bool {
    test_and_clear_bit(PG_MLOCKED, &page.flags)
}

/// `TestSetPageMlocked(page)`: `test_and_set_bit(PG_mlocked, &page->flags)`, fully ordered
/// (`TESTSCFLAG(Mlocked, mlocked)`).
#[inline]
pub fn TestSetPageMlocked(page: &Page) -> bool {
    test_and_set_bit(PG_MLOCKED, &page.flags)
}

/// `PageLocked(page)`: `test_bit(PG_locked, &page->flags)` (include/linux/page-flags.h,
/// `TESTPAGEFLAG(Locked, locked)`).
#[inline]
pub fn PageLocked(page: &Page) -> bool {
    test_bit(PG_LOCKED, &page.flags)
}

/// The bit operation of `trylock_page(page)` (include/linux/pagemap.h:
/// `!test_and_set_bit_lock(PG_locked, &page->flags)`) on a page's `flags` word, for the areas'
/// own `trylock_page()`s (each area has its `struct page`), which name the page their way
/// (`name`: "page 0", "page#0"). A success is a lock event (the trace's consistency check reads
/// it): recorded after the bit is taken, before this CPU's next operation.
pub fn trylock_page_bit(flags: &unsigned_long, name: impl Fn() -> String) -> bool {
    let locked = !test_and_set_bit_lock(PG_LOCKED, flags);
    if locked {
        crate::trace::record_lock(
            "trylock_page",
            || format!("{} PG_locked", name()),
            true,
            || format!("{} locked", name()),
        );
    }
    locked
}

/// The bit operation of `unlock_page(page)` (mm/filemap.c: `clear_bit_unlock(PG_locked,
/// &page->flags)`; no task of the models sleeps on the bit, so neither the
/// `smp_mb__after_clear_bit()` nor the `wake_up_page()` after it is modelled), for the areas'
/// own `unlock_page()`s. The release's event is recorded right after the bit is cleared, as the
/// bit-lock events of `compound_unlock` are: the checkers schedule before an atomic operation,
/// never between it and the next line, so no other CPU can take the lock (or record anything)
/// between the clear and its event. Recorded before the clear, the event would sit before the
/// other CPUs' steps that the clear's scheduling point lets run.
pub fn unlock_page_bit(flags: &unsigned_long, name: impl Fn() -> String) {
    clear_bit_unlock(PG_LOCKED, flags);
    crate::trace::record_lock(
        "unlock_page",
        || format!("{} PG_locked", name()),
        false,
        || format!("{} unlocked", name()),
    );
}

/// `TestClearPageWriteback(page)`: `test_and_clear_bit(PG_writeback, &page->flags)`, fully
/// ordered (`TESTSCFLAG(Writeback, writeback)`).
#[inline]
pub fn TestClearPageWriteback(page: &Page) -> bool {
    test_and_clear_bit(PG_WRITEBACK, &page.flags)
}

/// `TestClearPageReclaim(page)`: `test_and_clear_bit(PG_reclaim, &page->flags)`, fully
/// ordered (`TESTCLEARFLAG(Reclaim, reclaim)`).
#[inline]
pub fn TestClearPageReclaim(page: &Page) -> bool {
    test_and_clear_bit(PG_RECLAIM, &page.flags)
}

/// `PageCompound(page)`: PG_head or PG_tail (CONFIG_PAGEFLAGS_EXTENDED).
#[inline]
pub fn PageCompound(page: &Page) -> bool {
    READ_ONCE(&page.flags) & (bit(PG_HEAD) | bit(PG_TAIL)) != 0
}

pageflag!(
    PageDirty,
    SetPageDirty,
    ClearPageDirty,
    __SetPageDirty,
    __ClearPageDirty,
    PG_DIRTY
);
pageflag!(
    PageWriteback,
    SetPageWriteback,
    ClearPageWriteback,
    __SetPageWriteback,
    __ClearPageWriteback,
    PG_WRITEBACK
);
pageflag!(
    PageReclaim,
    SetPageReclaim,
    ClearPageReclaim,
    __SetPageReclaim,
    __ClearPageReclaim,
    PG_RECLAIM
);

// The macro also makes `__SetPageSwapBacked()`, which the kernel has from 3.16 on
// (07a427884348): no modelled 3.x path calls it (they use the atomic `SetPageSwapBacked()`).
pageflag!(
    PageSwapBacked,
    SetPageSwapBacked,
    ClearPageSwapBacked,
    __SetPageSwapBacked,
    __ClearPageSwapBacked,
    PG_SWAPBACKED
);

/// `__SetPageUptodate(page)` (include/linux/page-flags.h, 3.4).
///
/// The barrier orders the page's contents before the flag; the flag is written with the
/// non-atomic `__set_bit()`, a load and a store of `page->flags`: a bit another CPU sets or
/// clears atomically in between is undone (compound.14: a stale tail put's `compound_lock()`).
pub fn __SetPageUptodate(page: &Page) {
    smp_wmb();
    __set_bit(PG_UPTODATE, &page.flags);
}

/// `page_mapped(page)` (include/linux/mm.h): `atomic_read(&(page)->_mapcount) >= 0`.
#[inline]
pub fn page_mapped(page: &Page) -> bool {
    atomic_read(&page._mapcount) >= 0
}

/// `page_mapcount(page)`: `atomic_read(&page->_mapcount) + 1`.
#[inline]
pub fn page_mapcount(page: &Page) -> i32 {
    atomic_read(&page._mapcount) + 1
}

/// `atomic_read(&page->_count)`: the page's own count (`page_count()` reads the head's).
#[inline]
pub fn page_count_raw(page: &Page) -> i32 {
    atomic_read(&page._count)
}

/// PAGE_MAPPING_ANON (include/linux/mm.h): bit 0 of `page->mapping` marks an anon_vma.
pub const PAGE_MAPPING_ANON: usize = 1;

/// `PageAnon(page)` (include/linux/mm.h): `((unsigned long)page->mapping & PAGE_MAPPING_ANON)
/// != 0`.
pub fn PageAnon(page: &Page) -> bool {
    READ_ONCE(&page.mapping) & PAGE_MAPPING_ANON != 0
}

/// `page->mapping` as a word (the model keeps only the anon bit).
pub fn page_mapping_word(page: &Page) -> usize {
    READ_ONCE(&page.mapping)
}

/// `page->mapping = v` (the model keeps only the anon bit: `v` is 0 or PAGE_MAPPING_ANON).
pub fn set_page_mapping(page: &Page, v: usize) {
    WRITE_ONCE(&page.mapping, v);
}

/// `set_page_private(page, v)`: a plain store of the word `first_page` shares.
#[inline]
pub fn set_page_private(page: &Page, v: usize) {
    WRITE_ONCE(&page.private, v);
}

/// `page->first_page` (the same word as `private`).
#[inline]
pub fn first_page(page: &Page) -> PagePtr {
    PagePtr(READ_ONCE(&page.private))
}

/// `page->first_page = head` (a plain store of the word `private` shares).
#[inline]
pub fn set_first_page(page: &Page, head: PagePtr) {
    WRITE_ONCE(&page.private, head.0);
}

/// `set_page_count(page, v)`: `atomic_set(&page->_count, v)`.
#[inline]
pub fn set_page_count(page: &Page, v: i32) {
    atomic_set(&page._count, v);
}

/// A swap entry value as `add_to_swap()` stores it in `page->private` (`swp_entry_t.val`):
/// `swp_entry(type, offset)` with the x86_64 layout. As a pointer it points nowhere.
pub fn swp_entry(ty: usize, offset: usize) -> usize {
    (offset << 5) | ty
}

// ---------------------------------------------------------------------------------------------
// Ghost helpers (checked builds).

impl Page {
    pub fn ghost_gen(&self) -> u32 {
        self.ghost.gen.load(Relaxed)
    }
    pub fn ghost_pins(&self) -> i32 {
        self.ghost.pins.load(Relaxed)
    }
    pub fn ghost_allocated(&self) -> bool {
        self.ghost.allocated.load(Relaxed)
    }
    pub fn ghost_in_hugepool(&self) -> bool {
        self.ghost.in_hugepool.load(Relaxed)
    }
    pub fn ghost_queued(&self) -> i32 {
        self.ghost.queued.load(Relaxed)
    }
}

impl Ghost {
    /// A CPU took a reference (a `PageRef` came to life).
    pub fn pin(&self) {
        if CHECKED {
            self.pins.fetch_add(1, Relaxed);
        }
    }
    /// A CPU gave its reference up.
    pub fn unpin(&self) {
        if CHECKED {
            self.pins.fetch_sub(1, Relaxed);
        }
    }
    /// The page entered (`delta` 1) or left (-1) a pagevec.
    pub fn queue(&self, delta: i32) {
        if CHECKED {
            self.queued.fetch_add(delta, Relaxed);
        }
    }
    pub fn set_in_hugepool(&self, v: bool) {
        if CHECKED {
            self.in_hugepool.store(v, Relaxed);
        }
    }
    pub fn set_allocated(&self, v: bool) {
        if CHECKED {
            self.allocated.store(v, Relaxed);
        }
    }
    /// The page changes hands: a new generation.
    pub fn new_generation(&self) {
        if CHECKED {
            self.gen.fetch_add(1, Relaxed);
        }
    }
}

/// Ghost: this page changes hands (allocation): new generation, no pins.
pub fn ghost_on_alloc(page: &Page) {
    page.ghost.new_generation();
    page.ghost.set_allocated(true);
}

/// The ghost bit of the running CPU in [`Ghost::in_put`].
fn cpu_bit() -> u64 {
    1u64 << crate::sync::cpu_of_thread().map_or(63, |c| c.min(62))
}

impl Ghost {
    /// This CPU starts a put of a reference to this frame.
    pub fn put_begins(&self) {
        if CHECKED {
            self.in_put.fetch_or(cpu_bit(), Relaxed);
        }
    }
    /// This CPU's put returned: its pin goes (after the kernel put, not before it).
    pub fn put_ends(&self) {
        if CHECKED {
            self.in_put.fetch_and(!cpu_bit(), Relaxed);
            self.unpin();
        }
    }
    /// References held on this frame by CPUs that are not in the middle of putting one.
    pub fn holders_not_putting(&self) -> i32 {
        self.pins.load(Relaxed) - self.in_put.load(Relaxed).count_ones() as i32
    }
}

/// Ghost check on a `_count` operation of the kernel code, whatever CONFIG_DEBUG_VM says: a
/// count never goes below zero, and nobody takes a reference on a frame that is free in the
/// buddy allocator (`old`/`new`: the count before and after the operation).
pub fn ghost_count_op(page: &Page, ptr: PagePtr, func: &'static str, old: i32, new: i32) {
    if !CHECKED {
        return;
    }
    if new < 0 {
        fail(
            func,
            Invariant::RefcountBalance,
            format!("{ptr:?}._count {old} -> {new}: a reference count below zero"),
        );
    }
    if new > old && !page.ghost_allocated() {
        fail(
            func,
            Invariant::UseAfterFree,
            format!("{ptr:?}._count {old} -> {new} on a frame that is free in the buddy allocator"),
        );
    }
}

/// A reference holder writes `v` to the page's contents (the I/O its reference is for): a
/// plain store of [`Page::data`]; the ghost remembers it as the value the next owner must see.
pub fn page_contents_write(page: &Page, v: usize) {
    WRITE_ONCE(&page.data, v);
    if CHECKED {
        page.ghost.data.store(v, Relaxed);
    }
}

/// The frame is handed to a new owner (`prep_new_page()`, `dequeue_huge_page_node()`): the
/// new owner's view of the contents must be the last holder's write (ghost), or a holder's
/// write was not ordered before the put that freed the frame: it can land in the next owner's
/// page (`__GFP_ZERO` already done, data already written). The contents are zeroed. Only a
/// frame some holder wrote costs a checker step.
pub fn ghost_contents_handover(page: &Page, ptr: PagePtr, func: &'static str) {
    if !CHECKED {
        return;
    }
    let want = page.ghost.data.load(Relaxed);
    if want == 0 {
        return;
    }
    let seen = READ_ONCE(&page.data);
    if seen != want {
        fail(
            func,
            Invariant::UseAfterFree,
            format!(
                "{ptr:?} handed to a new owner with stale contents {seen:#x}: the last holder wrote {want:#x} before its put, and that write is not visible (the put that freed the frame did not order it)"
            ),
        );
    }
    WRITE_ONCE(&page.data, 0);
    page.ghost.data.store(0, Relaxed);
}
