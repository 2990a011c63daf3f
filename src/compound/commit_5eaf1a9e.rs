//! c728852f plus 5eaf1a9e "mm: thp: turn compound_head() into BUG_ON(!PageTail) in
//! get_huge_page_tail()" (Oleg Nesterov; mainline 5eaf1a9e233d, committed 2014-01-21 16:19:43
//! -0800, 22 Jan UTC, with the rest of the series; in v3.14-rc1, inferred from the date):
//! "get_huge_page_tail()->compound_head() looks confusing. Every caller must check
//! PageTail(page), otherwise atomic_inc(&page->_mapcount) is simply wrong if this page is
//! compound-trans-head." `get_huge_page_tail()` checks `VM_BUG_ON(!PageTail(page))` and tests
//! `compound_tail_refcounted(page->first_page)`. With it, every function of mm/swap.c,
//! mm/internal.h and include/linux/mm.h that the series changed has its v3.14-rc1 text
//! (inferred from the commit dates; the list's completeness is UNVERIFIED) but for 309381fe's
//! `VM_BUG_ON_PAGE()` (the same checks plus a page dump, which the model writes as
//! `VM_BUG_ON`); `PageHuge()`/`PageHeadHuge()` are 758f66a2's form of the same test;
//! `__cmpxchg_double_slab()` and the split are 3.13's. The parent is c728852f, the parent its
//! commit page names.

use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_inc, atomic_read};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

use super::commit_44518d2b::compound_tail_refcounted;

/// c728852f + 5eaf1a9e: `get_huge_page_tail()` on `page->first_page`, `!PageTail` checked.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "5eaf1a9e",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: thp: turn compound_head() into BUG_ON(!PageTail) in get_huge_page_tail()",
        },
        parent: Some("c728852f"),
        source: "mainline 5eaf1a9e233d61438377f57facb167f8208ba9fd (Oleg Nesterov, 'mm: thp: turn compound_head() into BUG_ON(!PageTail) in get_huge_page_tail()'; commit page https://git.zx2c4.com/linux-dev/commit/include/linux/debugobjects.h?id=5eaf1a9e233d61438377f57facb167f8208ba9fd: author date 2014-01-21 15:49:04 -0800, committed 16:19:43 -0800, parent c728852f; in v3.14-rc1, inferred from the date, as is 309381fe, Sasha Levin's VM_BUG_ON_PAGE conversion, committed 23 Jan 2014). Verified against kernel/5eaf1a9e/include/linux/mm.h (verbatim from torvalds/linux stored at the commit: get_huge_page_tail; compound_head, __compound_tail_refcounted, compound_tail_refcounted and get_page there are the texts the model already runs).",
    };
    crate::compound_fns! {
        self: get_huge_page_tail;
        super::commit_c728852f: __get_page_tail_foll;
        super::commit_26296ad2: put_compound_page;
        super::commit_3bfcd13e: __get_page_tail;
        super::commit_ca641514: compound_trans_head;
        super::commit_44518d2b: __compound_tail_refcounted;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `get_huge_page_tail(page)` (include/linux/mm.h, 5eaf1a9e; called by arch/x86/mm/gup.c and
/// `__get_page_tail_foll()`).
pub fn get_huge_page_tail<V: Compound>(m: &Mem, page: PagePtr) {
    const F: &str = "get_huge_page_tail";
    // __split_huge_page_refcount() cannot run from under us.
    let p = m.pg(page);
    VM_BUG_ON!(F, !PageTail(p));
    VM_BUG_ON!(F, page_mapcount(p) < 0);
    VM_BUG_ON!(F, atomic_read(&p._count) != 0);
    if compound_tail_refcounted::<V>(m, first_page(p)) {
        let old = atomic_inc(&p._mapcount);
        ktrace!(F, "{page:?}._mapcount {old} -> {}", old + 1);
    } else {
        // MODEL: the C has no else: the event says the tail pin skipped _mapcount
        ktrace!(F, "{page:?}: head not tail-refcounted, _mapcount untouched");
    }
}
