//! 5eaf1a9e plus a03208652dad "mm/slub.c: fix page->_count corruption (again)" (Dave Hansen;
//! posted to linux-mm on 28 Jan 2014; release 3.14 inferred from that date, UNVERIFIED): the
//! `slab_lock()` fallback of `__cmpxchg_double_slab()` no longer stores `page->counters`, the
//! word that covers the head's `_count` on x86-64, but only the SLUB fields in it
//! (`set_page_slub_counters()`: `frozen`, `inuse`, `objects`), so a `get_page()`/`put_page()`
//! of the slab head between the compare and the store is no longer undone (claim compound.11).
//! "That is an absolute rule: You may not *set* page->counters except via a cmpxchg." The
//! fallback runs for debug caches ("Turning on slub debugging at runtime") and on 64-bit CPUs
//! without CMPXCHG16B. The parent is 5eaf1a9e, the model chain's last mainline variant before
//! it (committed 21 Jan 2014; the fix was posted a week later and went in through Andrew
//! Morton's tree, so 5eaf1a9e is inferred to be its ancestor, UNVERIFIED: its committer date
//! and mainline parent were not read); the compound functions are 5eaf1a9e's (3.14-rc1's
//! text). Until 6 Dec 2026 this variant sat on ca641514, which mainline had long passed when
//! the fix was posted. `cmpxchg_double_slab()`, the irq-saving twin the commit changes the
//! same way, is not modelled (no model calls it).

use crate::ktrace;
use crate::mm::slab::{page_counters, slab_lock, slab_unlock, Counters};
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_read, atomic_set, cpu_relax};
use crate::variant::{Area, Kind, VariantMeta};

/// 5eaf1a9e + a03208652dad: the fallback stores only the SLUB fields of `counters`.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "a0320865",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm/slub.c: fix page->_count corruption (again)",
        },
        parent: Some("5eaf1a9e"),
        source: "mainline a03208652dad18232e9ec3432df69f9c19c856ec (Dave Hansen, 'mm/slub.c: fix page->_count corruption (again)'; its message is on the commit page https://gerrit-public.fairphone.software/plugins/gitiles/kernel/msm-4.9/+/a03208652dad18232e9ec3432df69f9c19c856ec%5E%21/mm/slub.c), posted to linux-mm on 28 Jan 2014 as '[PATCH] mm: slub: fix page->_count corruption (again)', Message-Id <20140128231722.E7387E6B@viggo.jf.intel.com>. Verified against kernel/a0320865/mm/slub.c (verbatim from torvalds/linux stored at the commit: set_page_slub_counters, __cmpxchg_double_slab). Its release (3.14) is inferred from the posting date, UNVERIFIED; its mainline parent was not read. Parent 5eaf1a9e, the model chain's last mainline commit before it (committed 21 Jan 2014 with the rest of the 3.14 series, a week before the posting: inferred to be a mainline ancestor, UNVERIFIED; until 6 Dec 2026 the parent was ca641514); the compound functions are 5eaf1a9e's. Not modelled: cmpxchg_double_slab() (the same change; no model calls it).",
    };
    crate::compound_fns! {
        self: __cmpxchg_double_slab;
        super::commit_5eaf1a9e: get_huge_page_tail;
        super::commit_c728852f: __get_page_tail_foll;
        super::commit_26296ad2: put_compound_page;
        super::commit_3bfcd13e: __get_page_tail;
        super::commit_ca641514: compound_trans_head;
        super::commit_44518d2b: __compound_tail_refcounted;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `set_page_slub_counters(page, counters_new)` (mm/slub.c, a0320865): three bitfield
/// assignments, each a plain read-modify-write of the `_mapcount` word (`inuse:16`,
/// `objects:15`, `frozen:1`, little-endian x86-64 layout); `_count` is not written.
pub fn set_page_slub_counters(m: &Mem, page: PagePtr, counters_new: Counters) {
    let p = m.pg(page);
    // LEFT OUT: `struct page tmp; tmp.counters = counters_new;` (a copy into a local struct
    // page, to read its bitfields)
    // MODEL: the fields are read from `counters_new`'s `_mapcount` word (`tmp.frozen` is its
    // bit 31, `tmp.inuse` bits 0-15, `tmp.objects` bits 16-30)
    let tmp = counters_new.word;

    // page->counters can cover frozen/inuse/objects as well
    // as page->_count.  If we assign to ->counters directly
    // we run the risk of losing updates to page->_count, so
    // be careful and only assign to the fields we need.
    // LEFT OUT: `page->frozen = tmp.frozen; page->inuse = tmp.inuse; page->objects =
    // tmp.objects;` as C bitfield stores: each is
    // MODEL: a plain load of the `_mapcount` word and a plain store of it with the field
    // replaced (what the compiler emits for a bitfield store); `_count` is not touched
    let word = atomic_read(&p._mapcount) as u32;
    atomic_set(&p._mapcount, ((word & !FROZEN) | (tmp & FROZEN)) as i32);
    let word = atomic_read(&p._mapcount) as u32;
    atomic_set(&p._mapcount, ((word & !INUSE) | (tmp & INUSE)) as i32);
    let word = atomic_read(&p._mapcount) as u32;
    let last = (word & !OBJECTS) | (tmp & OBJECTS);
    atomic_set(&p._mapcount, last as i32);
    ktrace!(
        "set_page_slub_counters",
        "{page:?}: frozen, inuse, objects stored, word {last:#x}; _count not written"
    );
}

/// `frozen:1`, `inuse:16`, `objects:15` of `struct page` (include/linux/mm_types.h) as bit
/// masks of the `_mapcount` word (GCC's little-endian bitfield order).
const INUSE: u32 = 0x0000_ffff;
const OBJECTS: u32 = 0x7fff_0000;
const FROZEN: u32 = 0x8000_0000;

/// `__cmpxchg_double_slab(s, page, freelist_old, counters_old, freelist_new, counters_new, n)`
/// (mm/slub.c, a0320865): the fallback compares `page->counters` as before and stores through
/// `set_page_slub_counters()`.
pub fn __cmpxchg_double_slab<V: Compound>(
    m: &Mem,
    page: PagePtr,
    counters_old: Counters,
    counters_new: Counters,
) -> bool {
    // LEFT OUT: `VM_BUG_ON(!irqs_disabled())` (no interrupts) and the cmpxchg_double() branch:
    // this is the fallback (no __CMPXCHG_DOUBLE: an arch without it, or a debug cache)
    slab_lock(m, page);
    // MODEL: `page->freelist == freelist_old` is left out (no objects: both NULL), the
    // compare is of `page->counters` alone
    let counters = page_counters(m, page);
    if counters == counters_old {
        ktrace!(
            "__cmpxchg_double_slab",
            "{page:?}->counters = {counters} == counters_old"
        );
        // LEFT OUT: `page->freelist = freelist_new;` (no objects)
        set_page_slub_counters(m, page, counters_new);
        slab_unlock(m, page);
        return true;
    }
    ktrace!(
        "__cmpxchg_double_slab",
        "{page:?}->counters = {counters} != counters_old {counters_old}"
    );
    slab_unlock(m, page);

    cpu_relax();
    // LEFT OUT: stat(s, CMPXCHG_DOUBLE_FAIL) and the SLUB_DEBUG_CMPXCHG printk (no statistics
    // or log)
    false
}
