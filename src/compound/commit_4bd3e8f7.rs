//! c747ce79 plus 4bd3e8f7 "mm/swap.c: split put_compound_page()" (Jianyu Zhan; committed 4 Jun
//! 2014, merged for 3.16: see META): `put_compound_page()` puts a page that is not a tail as
//! before, then takes the head with `compound_head()` and hands the tail to
//! `put_unrefcounted_compound_page()` (slab and hugetlbfs: `!__compound_tail_refcounted()`) or
//! `put_refcounted_compound_page()` (THP), the two helpers c747ce79 added. The statements and
//! their order are 668f9abb's.

use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::variant::{Area, Kind, VariantMeta};

/// c747ce79 + 4bd3e8f7: put_compound_page() calls the helpers.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "4bd3e8f7",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm/swap.c: split put_compound_page()",
        },
        parent: Some("c747ce79"),
        source: "mainline 4bd3e8f7b94785a6f65665fee21ff3dbc2bf4ef8 (Jianyu Zhan, 'mm/swap.c: split put_compound_page()'; commit page https://git.zx2c4.com/linux-dev/commit/?id=4bd3e8f7b94785a6f65665fee21ff3dbc2bf4ef8: author date 2014-06-04 16:08:01 -0700, committed by Linus Torvalds 16:54:03 -0700, parent c747ce79 (named by its subject); merged for 3.16, inferred: committed four days before v3.15's release, in the 3.16 work Linus merged early, not checked against a v3.15 tree, UNVERIFIED; posted as linux-mm, 29 Apr 2014, '[PATCH 2/3] mm/swap.c: split put_compound_page function', <1fc028045336844fe9ba9ee27c406e6ebe4726f4.1398764420.git.nasa4836@gmail.com>). Verified against kernel/4bd3e8f7/mm/swap.c (verbatim from torvalds/linux stored at the commit: put_compound_page).",
    };
    crate::compound_fns! {
        self: put_compound_page;
        super::commit_668f9abb: compound_head, prep_compound_page, __get_page_tail;
        super::commit_c747ce79: put_unrefcounted_compound_page, put_refcounted_compound_page;
        super::commit_5eaf1a9e: get_huge_page_tail;
        super::commit_c728852f: __get_page_tail_foll;
        super::commit_44518d2b: __compound_tail_refcounted;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::commit_a0320865: __cmpxchg_double_slab;
        super::linux_3_4: __put_compound_page;
    }
}

/// `put_compound_page(page)` (mm/swap.c, 4bd3e8f7).
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
    let page_head = V::compound_head(m, page);
    if !V::__compound_tail_refcounted(m, page_head) {
        V::put_unrefcounted_compound_page(m, page_head, page);
    } else {
        V::put_refcounted_compound_page(m, page_head, page);
    }
}
