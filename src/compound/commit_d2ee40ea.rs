//! 4bd3e8f7 plus d2ee40ea "mm: introdule compound_head_by_tail()" (Jianyu Zhan; committed 4 Jun
//! 2014, merged for 3.16: see META): `compound_head()`'s tail branch becomes
//! `compound_head_by_tail()` (`first_page`, `smp_rmb()`, PG_tail re-check), and
//! `put_compound_page()`, which has just seen PG_tail set, calls it directly instead of
//! `compound_head()`: one PG_tail read fewer on the tail put. "This patch has no functional
//! change."

use crate::ktrace;
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::smp_rmb;
use crate::variant::{Area, Kind, VariantMeta};

/// 4bd3e8f7 + d2ee40ea: compound_head_by_tail().
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "d2ee40ea",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: introdule compound_head_by_tail()",
        },
        parent: Some("4bd3e8f7"),
        source: "mainline d2ee40eae98d8a41ff27dcdd13b1b656c4c1ad00 (Jianyu Zhan, 'mm: introdule compound_head_by_tail()'; commit page https://git.zx2c4.com/linux-dev/commit/?id=d2ee40eae98d8a41ff27dcdd13b1b656c4c1ad00: author date 2014-06-04 16:08:02 -0700, committed by Linus Torvalds 16:54:03 -0700, parent 4bd3e8f7 (named by its subject); merged for 3.16, inferred: committed four days before v3.15's release, in the 3.16 work Linus merged early, not checked against a v3.15 tree, UNVERIFIED). Verified against kernel/d2ee40ea/: mm/swap.c (verbatim from torvalds/linux stored at the commit: put_compound_page) and include/linux/mm.h (partial: compound_head_by_tail and compound_head from the '-' lines of a Nov 2014 posting; the commit's diff adds only the 'dangling pointer' comment to what it moves, per its diff page; the 'tail flag race' comment above compound_head() came later, with ccaafd7f, Joonsoo Kim, 2015).",
    };
    crate::compound_fns! {
        self: compound_head, put_compound_page;
        super::commit_668f9abb: prep_compound_page, __get_page_tail;
        super::commit_c747ce79: put_unrefcounted_compound_page, put_refcounted_compound_page;
        super::commit_5eaf1a9e: get_huge_page_tail;
        super::commit_c728852f: __get_page_tail_foll;
        super::commit_44518d2b: __compound_tail_refcounted;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::commit_a0320865: __cmpxchg_double_slab;
        super::linux_3_4: __put_compound_page;
    }
}

/// `compound_head_by_tail(tail)` (include/linux/mm.h, d2ee40ea).
pub fn compound_head_by_tail(m: &Mem, tail: PagePtr) -> PagePtr {
    let p = m.pg(tail);
    let head = first_page(p);
    ktrace!("compound_head_by_tail", "{tail:?}->first_page = {head:?}");

    // page->first_page may be a dangling pointer to an old compound page, so recheck that it
    // is still a tail page before returning.
    smp_rmb();
    if PageTail(p) {
        ktrace!(
            "compound_head_by_tail",
            "{tail:?} still a tail: head = {head:?}"
        );
        return head;
    }
    ktrace!("compound_head_by_tail", "{tail:?} stopped being a tail");
    tail
}

/// `compound_head(page)` (include/linux/mm.h, d2ee40ea).
pub fn compound_head<V: Compound>(m: &Mem, page: PagePtr) -> PagePtr {
    let tail = PageTail(m.pg(page));
    ktrace!("compound_head", "PageTail({page:?}) = {tail}");
    // MODEL: the C's `if (unlikely(PageTail(page)))`, PageTail() read into `tail` for the trace
    if tail {
        return compound_head_by_tail(m, page);
    }
    page
}

/// `put_compound_page(page)` (mm/swap.c, d2ee40ea).
pub fn put_compound_page<V: Compound>(m: &Mem, page: PagePtr) {
    // We see the PageCompound set and PageTail not set, so @page maybe:
    //  1. hugetlbfs head page, or
    //  2. THP head page.
    if !PageTail(m.pg(page)) {
        if put_page_testzero(m, page) {
            // By the time all refcounts have been released split_huge_page cannot run anymore
            // from under us.
            if PageHead(m.pg(page)) {
                V::__put_compound_page(m, page);
            } else {
                __put_single_page(m, page);
            }
        }
        return;
    }

    // We see the PageCompound set and PageTail set, so @page maybe:
    //  1. a tail hugetlbfs page, or
    //  2. a tail THP page, or
    //  3. a split THP page.
    //
    //  Case 3 is possible, as we may race with __split_huge_page_refcount tearing down a THP
    //  page.
    let page_head = compound_head_by_tail(m, page);
    if !V::__compound_tail_refcounted(m, page_head) {
        V::put_unrefcounted_compound_page(m, page_head, page);
    } else {
        V::put_refcounted_compound_page(m, page_head, page);
    }
}
