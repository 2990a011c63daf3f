//! f3ca10dd plus "mm: drop bogus VM_BUG_ON_PAGE assert in put_page() codepath" and c761471b
//! "mm: avoid tail page refcounting on non-THP compound pages" (Kirill A. Shutemov; committed
//! 24 Jun 2015, 4.2 merge window): "Reintroduce 8d63d99a5dfb ... after removing bogus
//! VM_BUG_ON_PAGE() in put_unrefcounted_compound_page()." `__compound_tail_refcounted()` is
//! 8d63d99a's (`PageAnon()`), and `put_unrefcounted_compound_page()` no longer checks that the
//! tail is unmapped: "Sound subsystem uses compound pages for its buffers ... maps compound
//! pages to userspace with PTEs". The assert's removal is its own mainline commit, the parent
//! of c761471b, whose id was not found: it is folded in here (kernel/c761471b/ holds its text).

use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::smp_rmb;
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// f3ca10dd + the assert's removal + c761471b.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "c761471b",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: avoid tail page refcounting on non-THP compound pages",
        },
        parent: Some("f3ca10dd"),
        source: "mainline c761471b58e6138938ebc6eafec20b2f60cb3397 (Kirill A. Shutemov, 'mm: avoid tail page refcounting on non-THP compound pages'; commit page https://git.zx2c4.com/linux-dev/commit/include?id=c761471b58e6138938ebc6eafec20b2f60cb3397: author date 2015-06-24 16:56:33 -0700, committed by Linus Torvalds 17:49:42 -0700, parent 'mm: drop bogus VM_BUG_ON_PAGE assert in put_page() codepath' (named by its subject; its id UNVERIFIED: 854cdc961b7f is the id of the posted patch, linux-mm, 24 Apr 2015, not mainline's); in v4.2, inferred from the date). Verified against kernel/c761471b/mm/swap.c (partial: put_unrefcounted_compound_page from the '-' lines of a Jun 2015 posting with the assert's removal as quoted by Andrea Arcangeli, 27 Apr 2015) and, for __compound_tail_refcounted, 8d63d99a's verbatim text (c761471b's own change equals 8d63d99a's). The META parent is f3ca10dd (the revert), the model chain's: the assert's removal, c761471b's mainline parent, is folded in, and what else lies between them in mainline was not read (UNVERIFIED).",
    };
    const READS_PAGE_ANON: bool = true;
    crate::compound_fns! {
        self: put_unrefcounted_compound_page;
        super::commit_8d63d99a: __compound_tail_refcounted;
        super::commit_d2ee40ea: compound_head, put_compound_page;
        super::commit_668f9abb: prep_compound_page, __get_page_tail;
        super::commit_c747ce79: put_refcounted_compound_page;
        super::commit_5eaf1a9e: get_huge_page_tail;
        super::commit_c728852f: __get_page_tail_foll;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::commit_a0320865: __cmpxchg_double_slab;
        super::linux_3_4: __put_compound_page;
    }
}

/// `put_unrefcounted_compound_page(page_head, page)` (mm/swap.c, c761471b: the `VM_BUG_ON_PAGE(page_mapcount(page) != 0, page)` dropped by
/// "mm: drop bogus VM_BUG_ON_PAGE assert in put_page() codepath", its parent).
///
/// Two special cases here: we could avoid taking compound_lock_irqsave and could skip the tail
/// refcounting(in _mapcount).
///
/// 1. Hugetlbfs page: PageHeadHuge will remain true until the compound page is released and
///    enters the buddy allocator, and it could not be split by __split_huge_page_refcount().
///    So if we see PageHeadHuge set, and we have the tail page pin, then we could safely put
///    head page.
///
/// 2. Slab THP page: PG_slab is cleared before the slab frees the head page, and tail pin
///    cannot be the last reference left on the head page, because the slab code is free to
///    reuse the compound page after a kfree/kmem_cache_free without having to check if there's
///    any tail pin left. In turn all tail pinsmust be always released while the head is still
///    pinned by the slab code and so we know PG_slab will be still set too. So if we see
///    PageSlab set, and we have the tail page pin, then we could safely put head page.
pub fn put_unrefcounted_compound_page<V: Compound>(m: &Mem, page_head: PagePtr, page: PagePtr) {
    const F: &str = "put_unrefcounted_compound_page";
    // If @page is a THP tail, we must read the tail page flags after the head page flags. The
    // __split_huge_page_refcount side enforces write memory barriers between clearing PageTail
    // and before the head page can be freed and reallocated.
    smp_rmb();
    if PageTail(m.pg(page)) {
        // __split_huge_page_refcount cannot race here, see the comment above this function.
        VM_BUG_ON!(F, !PageHead(m.pg(page_head)));
        if put_page_testzero(m, page_head) {
            // If this is the tail of a slab THP page, the tail pin must not be the last
            // reference held on the page, because the PG_slab cannot be cleared before all tail
            // pins (which skips the _mapcount tail refcounting) have been released.
            //
            // If this is the tail of a hugetlbfs page, the tail pin may be the last reference on
            // the page instead, because PageHeadHuge will not go away until the compound page
            // enters the buddy allocator.
            VM_BUG_ON!(F, PageSlab(m.pg(page_head)));
            V::__put_compound_page(m, page_head);
        }
    } else if put_page_testzero(m, page) {
        // __split_huge_page_refcount run before us, @page was a THP tail. The split @page_head
        // has been freed and reallocated as slab or hugetlbfs page of smaller order (only
        // possible if reallocated as slab on x86).
        // MODEL: the C's `else if (put_page_testzero(page))` (an if nested in the else, no
        // braces) read as one `else if`
        __put_single_page(m, page);
    }
}
