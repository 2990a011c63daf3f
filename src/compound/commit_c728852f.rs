//! 26296ad2 plus c728852f "mm: thp: __get_page_tail_foll() can use get_huge_page_tail()" (Oleg
//! Nesterov; mainline c728852f5dd4, committed 2014-01-21 16:19:43 -0800, 22 Jan UTC, with the
//! rest of the series; in v3.14-rc1, inferred from the date): "Cleanup. Change
//! __get_page_tail_foll() to use get_huge_page_tail() to avoid the code duplication." The
//! tail's checks and its `_mapcount` pin are now `get_huge_page_tail()`'s (44518d2b's text,
//! `compound_tail_refcounted(compound_head(page))`), after the head's `_count` increment instead
//! of before it. Mainline's parent is "mm/hugetlb.c: defer PageHeadHuge() symbol export" (named
//! by subject on the commit page; its id UNVERIFIED; per its posting it deletes only the export
//! line), whose parent is 26296ad2 (inferred from the mmotm order and the author times): the
//! META parent is 26296ad2.

use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_inc, atomic_read};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

/// 26296ad2 + c728852f: `__get_page_tail_foll()` pins the tail through `get_huge_page_tail()`.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "c728852f",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: thp: __get_page_tail_foll() can use get_huge_page_tail()",
        },
        parent: Some("26296ad2"),
        source: "mainline c728852f5dd41ce34e7ce0a179cf28cd5f4dc301 (Oleg Nesterov, 'mm: thp: __get_page_tail_foll() can use get_huge_page_tail()', Acked-by Andrea Arcangeli; commit page https://git.zx2c4.com/linux-dev/commit/include?id=c728852f5dd41ce34e7ce0a179cf28cd5f4dc301: author date 2014-01-21 15:49:02 -0800, committed 16:19:43 -0800, parent 'mm/hugetlb.c: defer PageHeadHuge() symbol export' named by its subject, its id UNVERIFIED; in v3.14-rc1, inferred from the date). Verified against kernel/c728852f/mm/internal.h (status partial: 44518d2b's verbatim text with the posted hunk, LKML 'mm: thp: __get_page_tail_foll() can use get_huge_page_tail()', https://www.mail-archive.com/linux-kernel@vger.kernel.org/msg556096.html, applied; with 309381fe's one-line change it equals torvalds/linux mm/internal.h stored at 309381fe byte for byte). The META parent is 26296ad2: the defer commit between them changes no modelled function.",
    };
    crate::compound_fns! {
        self: __get_page_tail_foll;
        super::commit_26296ad2: put_compound_page;
        super::commit_3bfcd13e: __get_page_tail;
        super::commit_44518d2b: get_huge_page_tail, __compound_tail_refcounted;
        super::commit_ca641514: compound_trans_head;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `__get_page_tail_foll(page, get_page_head)` (mm/internal.h, c728852f).
///
/// If we're getting a tail page, the elevated page->_count is required only in the head page
/// and we will elevate the head page->_count and tail page->_mapcount.
///
/// We elevate page_tail->_mapcount for tail pages to force page_tail->_count to be zero at all
/// times to avoid getting false positives from get_page_unless_zero() with speculative page
/// access (like in page_cache_get_speculative()) on tail pages.
pub fn __get_page_tail_foll<V: Compound>(m: &Mem, page: PagePtr, get_page_head: bool) {
    const F: &str = "__get_page_tail_foll";
    // MODEL: `page->first_page` read once into `head`; the C reads it here and at the
    // increment below: the caller holds the PT lock, the compound_lock or a pin on a head split
    // cannot touch, so both reads see the same word
    let head = first_page(m.pg(page));
    VM_BUG_ON!(F, atomic_read(&m.pg(head)._count) <= 0);
    if get_page_head {
        // LEFT OUT: `atomic_inc(&page->first_page->_count);` is the next line, with
        // MODEL: `first_page` read once into `head` (above) and the old count kept for the trace
        let old = atomic_inc(&m.pg(head)._count);
        ghost_count_op(m.pg(head), head, F, old, old + 1);
        ktrace!(F, "{head:?}._count {old} -> {}", old + 1);
    }
    V::get_huge_page_tail(m, page);
}
