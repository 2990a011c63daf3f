//! d2ee40ea plus 8d63d99a "mm: avoid tail page refcounting on non-THP compound pages" (Kirill
//! A. Shutemov; committed 15 Apr 2015, 4.1 merge window; reverted a week later, f3ca10dd):
//! `__compound_tail_refcounted()` adds `PageAnon(page)`: "THP is the only user of tail page
//! refcounting. Let's avoid it for other compound pages." A compound page that is neither
//! anonymous, slab nor hugetlbfs (a driver's `__GFP_COMP` buffer) now takes the unrefcounted
//! path, whose `VM_BUG_ON_PAGE(page_mapcount(page) != 0, page)` assumed that such a tail is never
//! mapped: the sound subsystem maps its compound buffers to userspace with PTEs, and a put of a
//! tail that another PTE still maps fires it (Borislav Petkov's "kernel BUG at mm/swap.c:134!",
//! claim compound.13). `compound_head()` at this commit is d2ee40ea's with the comment ccaafd7f
//! (Joonsoo Kim, 2015) put above it (no statement changed, no variant).

use crate::mm::hugetlb::PageHeadHuge;
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::variant::{Area, Kind, VariantMeta};

/// d2ee40ea + 8d63d99a: only anonymous (THP) compound pages are tail-refcounted.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "8d63d99a",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: avoid tail page refcounting on non-THP compound pages",
        },
        parent: Some("d2ee40ea"),
        source: "mainline 8d63d99a5dfbdb997d12dd3c07b2070ca723db3b (Kirill A. Shutemov, 'mm: avoid tail page refcounting on non-THP compound pages'; commit page https://git.zx2c4.com/linux-dev/commit/include/linux?id=8d63d99a5dfbdb997d12dd3c07b2070ca723db3b: author date 2015-04-15 16:13:12 -0700, committed by Linus Torvalds 16:35:17 -0700, parent 'mm: consolidate all page-flags helpers in <linux/page-flags.h>'; reverted by f3ca10dd on 22 Apr 2015, both in the 4.1 merge window, inferred from the dates). Verified against kernel/8d63d99a/include/linux/mm.h (verbatim from torvalds/linux stored at the commit: __compound_tail_refcounted, compound_head). The META parent is d2ee40ea: between them the modelled functions change only by ccaafd7f's comment above compound_head() (the list of commits between 3.16 and 4.1 was not read in full: UNVERIFIED).",
    };
    const READS_PAGE_ANON: bool = true;
    crate::compound_fns! {
        self: __compound_tail_refcounted;
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

/// `__compound_tail_refcounted(page)` (include/linux/mm.h, 8d63d99a).
pub fn __compound_tail_refcounted<V: Compound>(m: &Mem, page: PagePtr) -> bool {
    PageAnon(m.pg(page)) && !PageSlab(m.pg(page)) && !PageHeadHuge(m, page)
}
