//! ebf360f9 plus ca641514 "mm: thp: optimize compound_trans_huge" (Andrea Arcangeli; patch 4/8
//! of "mm: hugetlbfs: fix hugetlbfs optimization v3", 20 Nov 2013; release 3.14 inferred,
//! UNVERIFIED): "Currently we don't clobber
//! page_tail->first_page during split_huge_page, so compound_trans_head can be set to
//! compound_head without adverse effects, and this mostly optimizes away a smp_rmb." The
//! smp_rmb() version is kept under `#if 0`; `#define compound_trans_head(page)
//! compound_head(page)`: the tail get/put paths lose the PG_tail re-check, and the head they
//! test `PageSlab() || PageHeadHuge()` on (ebf360f9 moved that test before the pin) is
//! whatever `first_page` held. The parent is ebf360f9, the patch before it in the series as
//! mmotm applied it; 5/8 (44518d2b) and the rest of the series are later variants' business.

use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::variant::{Area, Kind, VariantMeta};

/// ebf360f9 + ca641514: compound_trans_head() is compound_head().
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "ca641514",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: thp: optimize compound_trans_huge",
        },
        parent: Some("ebf360f9"),
        source: "the posting (linux-mm, Andrea Arcangeli, 20 Nov 2013, '[PATCH 4/8] mm: thp: optimize compound_trans_huge', <1384969876-6374-5-git-send-email-aarcange@redhat.com>; include/linux/huge_mm.h only), queued in the mmotm series of 22 Nov 2013 and 2 Jan 2014 and listed in Michal Hocko's since-3.13 shortlog of 6 Feb 2014 (a branch he describes as based on v3.12; its release, 3.14, is inferred, UNVERIFIED), applied on ebf360f9 (3/8), its predecessor in the mmotm series of 22 Nov 2013. Verified against kernel/ca641514/include/linux/huge_mm.h (status partial: every line from that posting's hunk and from the '-' lines of the 668f9abb -mm posting, linux-mm, 12 Feb 2014, <alpine.DEB.2.02.1402120058370.31209@chino.kir.corp.google.com>, which deletes the same block); put_compound_page and __get_page_tail are ebf360f9's (kernel/ebf360f9/mm/swap.c, partial). The full id ca641514f4056deee1fb2eb356e2c99b98718ade is the parent line of 44518d2b's commit page (http://git.cascardo.info/?p=cascardo/linux.git;a=commit;h=44518d2b32646e37b4b7a0813bbbe98dc21c7f8f, 5/8, committed by Linus Torvalds on 22 Jan 2014 00:19:43 +0000, after v3.13); its own commit page (https://git.zx2c4.com/linux-dev/commit/?id=ca641514f4056deee1fb2eb356e2c99b98718ade) names it 'mm: thp: optimize compound_trans_huge', author date 2014-01-21 15:48:52 -0800, committed 2014-01-21 16:19:43 -0800, parent ebf360f9 (3/8). Its release, 3.14, is inferred from that date.",
    };
    crate::compound_fns! {
        self: compound_trans_head;
        super::commit_ebf360f9: put_compound_page, __get_page_tail;
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
