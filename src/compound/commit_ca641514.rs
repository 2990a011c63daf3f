//! 27c73ae7 plus ca641514 "mm: thp: optimize compound_trans_huge" (Andrea Arcangeli, 3.14):
//! "Currently we don't clobber page_tail->first_page during split_huge_page, so
//! compound_trans_head can be set to compound_head without adverse effects, and this mostly
//! optimizes away a smp_rmb." The smp_rmb() version is kept under `#if 0`;
//! `#define compound_trans_head(page) compound_head(page)`: the tail get/put paths lose the
//! PG_tail re-check. Only this commit of Andrea's 3.14 series is applied (see META).

use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::variant::{Area, Kind, VariantMeta};

/// 27c73ae7 + ca641514: compound_trans_head() is compound_head().
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "ca641514",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: thp: optimize compound_trans_huge",
        },
        parent: Some("27c73ae7"),
        source: "the posting (linux-mm, Andrea Arcangeli, 20 Nov 2013, '[PATCH 4/8] mm: thp: optimize compound_trans_huge', <1384969876-6374-5-git-send-email-aarcange@redhat.com>; include/linux/huge_mm.h only), merged for 3.14 per the mmotm shortlog of Feb 2014. Verified against kernel/ca641514/include/linux/huge_mm.h (status partial: every line from that posting's hunk and from the '-' lines of the 668f9abb -mm posting, linux-mm, 12 Feb 2014, <alpine.DEB.2.02.1402120058370.31209@chino.kir.corp.google.com>, which deletes the same block). UNVERIFIED: the commit id (given by the brief; no commit page found). Not applied: the rest of the series merged with it for 3.14 (3/8 'move the put/get_page slab and hugetlbfs optimization in a faster path', 5/8 'tail page refcounting optimization for slab and hugetlbfs' (44518d2b), 7/8 'reorganize put_compound_page()'): this variant is 27c73ae7's mm/swap.c with this one change.",
    };
    crate::compound_fns! {
        self: compound_trans_head;
        super::commit_27c73ae7: put_compound_page, __get_page_tail;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `compound_trans_head(page)` (include/linux/huge_mm.h, ca641514):
/// `#define compound_trans_head(page) compound_head(page)`.
///
/// compound_trans_head() should be used instead of compound_head(), whenever the "page"
/// passed as parameter could be the tail of a transparent hugepage that could be
/// undergoing a __split_huge_page_refcount(). [...] Currently we define
/// compound_trans_head as compound_head, because page->private is in the same union with
/// page->first_page, and page->private isn't clobbered.
pub fn compound_trans_head<V: Compound>(m: &Mem, page: PagePtr) -> PagePtr {
    V::compound_head(m, page)
}
