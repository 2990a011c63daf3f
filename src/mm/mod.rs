//! The machine the kernel code runs on: memmap, zone (buddy allocator, `lru_lock`) and the
//! hugetlb pool, plus the mm/ functions shared by every variant and the traits the variants
//! implement (`swap::Compound`, `lru::Lru`, `vma::VmaAdjust`). Nothing here names a variant.

pub mod exec;
pub mod filemap;
pub mod gup;
pub mod huge_memory;
pub mod hugetlb;
pub mod list;
pub mod lru;
pub mod mlock;
pub mod mremap;
pub mod page_alloc;
pub mod page_ref;
pub mod rmap;
pub mod slab;
pub mod swap;
pub mod unevictable;
pub mod vma;
pub mod vma_2_6_31;
pub mod vma_2_6_34;

use crate::page::{MemMap, Page, PagePtr};
use crate::sync::{CName, EventCounter, PerCpu, SpinLock};
use list::Lists;
use lru::{Pagevec, ZoneLruStat, NR_LRU_LISTS};

/// `struct zone`, reduced to what the modelled code takes.
pub struct Zone {
    /// `zone->lock`: protects the free lists (here one free flag per page frame).
    pub lock: SpinLock<FreeArea>,
    /// `zone->lru_lock`.
    pub lru_lock: SpinLock<()>,
    /// `zone->vm_stat[NR_LRU_BASE + l]`: pages on each LRU list (`lru::ZoneLruStat`).
    pub vm_stat: ZoneLruStat,
    /// How often `lru_lock` was taken by the LRU code (a statistic for the benchmarks; a plain
    /// std atomic, invisible to the checkers).
    pub lru_lock_acquisitions: EventCounter,
}

/// The buddy allocator's state: which page frames are free. A block of order `n` is handed out
/// when all its `1 << n` naturally aligned frames are free.
pub struct FreeArea {
    pub free: Vec<bool>,
}

/// `struct hstate` for the one hugetlbfs page size the model has.
pub struct Hstate {
    pub order: u32,
    /// `hugetlb_lock` and what it protects.
    pub lock: SpinLock<HugePool>,
}

/// The hugetlb pool (`hugepage_freelists`, `nr_huge_pages`, `free_huge_pages`).
#[derive(Default)]
pub struct HugePool {
    pub freelist: Vec<PagePtr>,
    pub nr_huge_pages: usize,
    pub free_huge_pages: usize,
    pub surplus_huge_pages: usize,
}

/// Sizes of a model machine.
#[derive(Clone, Copy, Debug)]
pub struct MemConfig {
    pub nr_pages: usize,
    /// HPAGE_PMD_ORDER of the model's THP (the kernel's is 9; a model keeps it small).
    pub thp_order: u32,
    /// huge_page_order(h) of the hugetlbfs pool.
    pub huge_order: u32,
    /// SLUB's `page->counters` is an 8-byte `unsigned long` over the head's `_mapcount` word
    /// *and* `_count` (64-bit with CONFIG_HAVE_CMPXCHG_DOUBLE && CONFIG_HAVE_ALIGNED_STRUCT_PAGE,
    /// x86-64, in the modelled 3.5 to 3.13; any 64-bit configuration in 3.4, before
    /// abca7c496584), not a 4-byte word over `_mapcount` alone (32-bit, or 64-bit without both
    /// options after abca7c496584) (`slab::page_counters`). Only the slab models read it; later
    /// layouts of `struct page` are not modelled.
    pub counters_cover_count: bool,
}

impl MemConfig {
    /// A machine of `nr_pages` order-0 frames for the LRU models.
    pub fn small(nr_pages: usize) -> MemConfig {
        MemConfig {
            nr_pages,
            thp_order: 1,
            huge_order: 1,
            counters_cover_count: false,
        }
    }
}

/// CPUs a machine has per-CPU variables for (loom allows 4 threads besides the main one).
pub const NR_CPUS: usize = 4;

/// One machine: memmap + zone + hstate.
pub struct Mem {
    pub map: MemMap,
    pub zone: Zone,
    pub hstate: Hstate,
    pub cfg: MemConfig,
    /// The zone's LRU lists and the CPUs' private isolation lists.
    pub lists: Lists,
    /// `DEFINE_PER_CPU(struct pagevec, activate_page_pvecs)` (mm/swap.c, 2.6.38).
    pub activate_page_pvecs: PerCpu<Pagevec>,
    /// `DEFINE_PER_CPU(struct pagevec, lru_deactivate_pvecs)` (mm/swap.c, 315601809d, 2.6.39):
    /// only `deactivate_page()` (3.0's eb709b0d) queues on it.
    pub lru_deactivate_pvecs: PerCpu<Pagevec>,
    /// `static DEFINE_PER_CPU(struct pagevec, lru_rotate_pvecs)` (mm/swap.c, 902aaed0, 2.6.24):
    /// `rotate_reclaimable_page()` queues on it from interrupt context (`end_page_writeback()`),
    /// with interrupts disabled; `drain_cpu_pagevecs()` flushes it with interrupts disabled.
    pub lru_rotate_pvecs: PerCpu<Pagevec>,
    /// `DEFINE_PER_CPU(struct pagevec[NR_LRU_LISTS], lru_add_pvecs)` (mm/swap.c, 2.6.38).
    pub lru_add_pvecs: PerCpu<[Pagevec; NR_LRU_LISTS]>,
    /// PAGEVEC_SIZE of this machine (14 in the kernel; a model may use fewer, proofs/lru.7.md).
    pub pagevec_size: usize,
    /// The `struct address_space` every file page of the LRU models belongs to (one shmem
    /// file): its `flags` (AS_UNEVICTABLE) and its shmem VM_LOCKED flag.
    pub mapping: unevictable::AddressSpace,
}

impl Mem {
    /// Whether this run models `page->mapping` ([`MemMap::models_mapping`]).
    pub fn models_mapping(&self) -> bool {
        self.map.models_mapping()
    }

    pub fn new(cfg: MemConfig) -> Mem {
        Mem::with_pagevec_size(cfg, lru::PAGEVEC_SIZE)
    }

    /// A machine whose pagevecs hold `pagevec_size` pages (PAGEVEC_SIZE is 14; a checked model
    /// may use fewer and says so in its proof).
    pub fn with_pagevec_size(cfg: MemConfig, pagevec_size: usize) -> Mem {
        Mem {
            lists: Lists::new(cfg.nr_pages),
            activate_page_pvecs: PerCpu::new(NR_CPUS, || Pagevec::new(pagevec_size)),
            lru_deactivate_pvecs: PerCpu::new(NR_CPUS, || Pagevec::new(pagevec_size)),
            lru_rotate_pvecs: PerCpu::new(NR_CPUS, || Pagevec::new(pagevec_size)),
            lru_add_pvecs: PerCpu::new(NR_CPUS, || {
                [
                    Pagevec::new(pagevec_size),
                    Pagevec::new(pagevec_size),
                    Pagevec::new(pagevec_size),
                ]
            }),
            pagevec_size,
            mapping: unevictable::AddressSpace::default(),
            map: MemMap::new(cfg.nr_pages),
            zone: Zone {
                lock: SpinLock::named(
                    FreeArea {
                        free: vec![true; cfg.nr_pages],
                    },
                    CName {
                        owner: "zone",
                        id: None,
                        field: "lock",
                    },
                ),
                lru_lock: SpinLock::named(
                    (),
                    CName {
                        owner: "zone",
                        id: None,
                        field: "lru_lock",
                    },
                ),
                vm_stat: ZoneLruStat::default(),
                lru_lock_acquisitions: EventCounter::default(),
            },
            hstate: Hstate {
                order: cfg.huge_order,
                lock: SpinLock::named(
                    HugePool::default(),
                    CName {
                        owner: "hugetlb_lock",
                        id: None,
                        field: "",
                    },
                ),
            },
            cfg,
        }
    }

    /// Dereference a `struct page *` (oops if it points nowhere).
    #[inline]
    pub fn pg(&self, p: PagePtr) -> &Page {
        self.map.page(p)
    }

    /// `pfn_to_page(pfn)`.
    pub fn pfn_to_page(&self, pfn: usize) -> PagePtr {
        self.map.pfn_to_page(pfn)
    }

    /// HPAGE_PMD_NR.
    pub fn hpage_pmd_nr(&self) -> usize {
        1 << self.cfg.thp_order
    }
}
