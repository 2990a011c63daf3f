//! 8d63d99a reverted: f3ca10dd "Revert "mm: avoid tail page refcounting on non-THP compound
//! pages"" (Linus Torvalds, 22 Apr 2015, 4.1 merge window): "It causes in VM mapping refcount
//! errors ... kernel BUG at mm/swap.c:134! as reported by Borislav Petkov".
//! `__compound_tail_refcounted()` is 44518d2b's again: every compound page but slab and
//! hugetlbfs is tail-refcounted. The code is d2ee40ea's.

use crate::mm::swap::*;
use crate::variant::{Area, Kind, VariantMeta};

/// 8d63d99a reverted.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "f3ca10dd",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "Revert \"mm: avoid tail page refcounting on non-THP compound pages\"",
        },
        parent: Some("8d63d99a"),
        source: "mainline f3ca10dde49043fbbb055854278b26954b549b36 (Linus Torvalds, 'Revert \"mm: avoid tail page refcounting on non-THP compound pages\"'; commit page https://git.zx2c4.com/linux-dev/commit/include/linux?id=f3ca10dde49043fbbb055854278b26954b549b36: author and commit date 2015-04-22 09:44:36 -0700, parent 'Merge tag 'mmc-4.1-rc1' of git://git.linaro.org/people/ulf.hansson/mmc'; message: 'This reverts commit 8d63d99a5dfb ... kernel BUG at mm/swap.c:134! as reported by Borislav Petkov', Reported-and-tested-by: Borislav Petkov; in v4.1-rc1, inferred from the date). Verified against kernel/f3ca10dd/include/linux/mm.h (partial: __compound_tail_refcounted as the revert leaves it, the '-' line of 8d63d99a's diff page, equal to 44518d2b's text).",
    };
    crate::compound_fns! {
        super::commit_44518d2b: __compound_tail_refcounted;
        super::commit_d2ee40ea: compound_head, put_compound_page;
        super::commit_668f9abb: prep_compound_page, __get_page_tail;
        super::commit_c747ce79: put_unrefcounted_compound_page, put_refcounted_compound_page;
        super::commit_5eaf1a9e: get_huge_page_tail;
        super::commit_c728852f: __get_page_tail_foll;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::commit_a0320865: __cmpxchg_double_slab;
        super::linux_3_4: __put_compound_page;
    }
}
