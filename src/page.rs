//! `struct page` of the 3.10–3.12 era, the memmap, and the ghost state checked builds keep.
//!
//! Only the fields the modelled code touches are kept, each an atomic word because the kernel
//! reads them locklessly (design.md section 2):
//!
//! | kernel field                    | here          | note                                             |
//! |---------------------------------|---------------|--------------------------------------------------|
//! | `flags`                         | `flags`       | PG_* bits incl. PG_compound_lock (bit spinlock)   |
//! | `_count`                        | `_count`      | 0 on a tail page; pins live in the head's count  |
//! | `_mapcount`                     | `_mapcount`   | starts at -1; on a tail it also counts tail pins  |
//! | `private` / `first_page` (union)| `private`     | one word: a split tail's `private` overwrites it  |
//! | `lru.next` / `lru.prev`         | `lru_next/prev` | in page[1] of a compound page: dtor and order   |
//! | `lru` as a `list_head`          | `lru`         | LRU / isolation list links of an order-0 page     |
//!
//! In the kernel `lru` is one field: a compound page's first tail keeps its destructor and
//! order in it, an order-0 page its list links. Here they are two fields (atomics for the
//! lockless dtor reads of `PageHuge()`, [`RaceCell`]s for the lock-protected links); no model
//! has a page that is both a compound tail and on a list.
//!
//! A `struct page *` is a [`PagePtr`]: an address in the virtual memmap. Dereferencing one that
//! does not point at a `struct page` is an oops, which is how a dangling `first_page` shows.

use crate::sync::{AtomicI32, AtomicUsize, Ordering, RaceCell, RacyStore, CHECKED};
use crate::trace::{fail, Invariant};
use std::fmt;
use std::sync::atomic::{AtomicBool as GhostBool, AtomicI32 as GhostI32, AtomicU32 as GhostU32};

// include/linux/page-flags.h (3.10), bit numbers as in the kernel.
pub const PG_LOCKED: u32 = 0;
pub const PG_REFERENCED: u32 = 2;
pub const PG_UPTODATE: u32 = 3;
pub const PG_DIRTY: u32 = 4;
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
/// PAGE_FLAGS_CHECK_AT_FREE (3.10): flags a page must not carry when freed.
pub const PAGE_FLAGS_CHECK_AT_FREE: usize = (1 << PG_LRU)
    | (1 << PG_LOCKED)
    | (1 << PG_PRIVATE)
    | (1 << PG_SLAB)
    | (1 << PG_ACTIVE)
    | (1 << PG_UNEVICTABLE)
    | (1 << PG_MLOCKED);

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
    pub flags: AtomicUsize,
    pub _count: AtomicI32,
    pub _mapcount: AtomicI32,
    /// `private`, in a union with `first_page`.
    pub private: AtomicUsize,
    pub lru_next: AtomicUsize,
    pub lru_prev: AtomicUsize,
    /// `page->lru` as a list entry.
    pub lru: ListLinks,
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
    /// Which list the page's `lru` is linked on.
    pub on_list: crate::mm::list::GhostList,
    /// How many per-CPU pagevecs hold this page.
    pub queued: GhostI32,
}

impl Page {
    fn new() -> Page {
        Page {
            flags: AtomicUsize::new(0),
            _count: AtomicI32::new(0),
            _mapcount: AtomicI32::new(-1),
            private: AtomicUsize::new(0),
            lru_next: AtomicUsize::new(0),
            lru_prev: AtomicUsize::new(0),
            lru: ListLinks {
                next: RaceCell::new(crate::mm::list::LIST_POISON1),
                prev: RaceCell::new(crate::mm::list::LIST_POISON2),
            },
            ghost: Ghost::default(),
        }
    }
}

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
}

impl MemMap {
    pub fn new(nr_pages: usize) -> MemMap {
        MemMap {
            pages: (0..nr_pages).map(|_| Page::new()).collect(),
        }
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
// Page flag operations (include/linux/page-flags.h). test_bit/set_bit/clear_bit are Relaxed
// (no ordering in the kernel); the __SetPageX forms are non-atomic: a load and a store, which
// can lose a concurrent update exactly as the kernel's can.

macro_rules! pageflag {
    ($test:ident, $set:ident, $clear:ident, $nonatomic_set:ident, $nonatomic_clear:ident, $bit:expr) => {
        #[inline]
        pub fn $test(page: &Page) -> bool {
            page.flags.load(Ordering::Relaxed) & bit($bit) != 0
        }
        #[inline]
        pub fn $set(page: &Page) {
            page.flags.fetch_or(bit($bit), Ordering::Relaxed);
        }
        #[inline]
        pub fn $clear(page: &Page) {
            page.flags.fetch_and(!bit($bit), Ordering::Relaxed);
        }
        #[inline]
        pub fn $nonatomic_set(page: &Page) {
            let f = page.flags.load(Ordering::Relaxed);
            page.flags.racy_store(f | bit($bit));
        }
        #[inline]
        pub fn $nonatomic_clear(page: &Page) {
            let f = page.flags.load(Ordering::Relaxed);
            page.flags.racy_store(f & !bit($bit));
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

/// `PageCompound(page)`: PG_head or PG_tail (CONFIG_PAGEFLAGS_EXTENDED).
#[inline]
pub fn PageCompound(page: &Page) -> bool {
    page.flags.load(Ordering::Relaxed) & (bit(PG_HEAD) | bit(PG_TAIL)) != 0
}

/// `page_mapcount(page)`: `atomic_read(&page->_mapcount) + 1` (Relaxed).
#[inline]
pub fn page_mapcount(page: &Page) -> i32 {
    page._mapcount.load(Ordering::Relaxed) + 1
}

/// `page_count(page)` on the page itself: `atomic_read(&page->_count)` (Relaxed).
#[inline]
pub fn page_count_raw(page: &Page) -> i32 {
    page._count.load(Ordering::Relaxed)
}

/// `set_page_private(page, v)`: a plain store of the word `first_page` shares.
#[inline]
pub fn set_page_private(page: &Page, v: usize) {
    page.private.racy_store(v);
}

/// `page->first_page` (the same word as `private`).
#[inline]
pub fn first_page(page: &Page) -> PagePtr {
    PagePtr(page.private.load(Ordering::Relaxed))
}

/// `set_page_count(page, v)`: `atomic_set` (Relaxed store).
#[inline]
pub fn set_page_count(page: &Page, v: i32) {
    page._count.racy_store(v);
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
        self.ghost.gen.load(Ordering::Relaxed)
    }
    pub fn ghost_pins(&self) -> i32 {
        self.ghost.pins.load(Ordering::Relaxed)
    }
    pub fn ghost_allocated(&self) -> bool {
        self.ghost.allocated.load(Ordering::Relaxed)
    }
}

/// Ghost: this page changes hands (allocation): new generation, no pins.
pub fn ghost_on_alloc(page: &Page) {
    if CHECKED {
        page.ghost.gen.fetch_add(1, Ordering::Relaxed);
        page.ghost.allocated.store(true, Ordering::Relaxed);
    }
}
