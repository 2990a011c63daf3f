//! 44518d2b plus 3bfcd13e "mm: hugetlbfs: use __compound_tail_refcounted in __get_page_tail
//! too" (Andrea Arcangeli; a separate mmotm patch after the 8-patch series, not one of its
//! eight; mainline 3bfcd13ec0b4, committed 2014-01-21 16:19:43 -0800, 22 Jan UTC, with the
//! series; in v3.14-rc1, inferred from the date): `__get_page_tail()` tests
//! `!__compound_tail_refcounted(page_head)` where ebf360f9 wrote `PageSlab(page_head) ||
//! PageHeadHuge(page_head)`: the same test, now written once with the put's. The parent is
//! 44518d2b, the parent its commit page names.

use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::smp_rmb;
use crate::variant::{Area, Kind, VariantMeta};
use crate::VM_BUG_ON;

/// 44518d2b + 3bfcd13e: `__get_page_tail()` tests `!__compound_tail_refcounted()`.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "3bfcd13e",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: hugetlbfs: use __compound_tail_refcounted in __get_page_tail too",
        },
        parent: Some("44518d2b"),
        source: "mainline 3bfcd13ec0b43b39b02072ba67bf197d15379387 (Andrea Arcangeli, 'mm: hugetlbfs: use __compound_tail_refcounted in __get_page_tail too'; commit page https://git.zx2c4.com/linux-dev/commit/include?id=3bfcd13ec0b43b39b02072ba67bf197d15379387: author date 2014-01-21 15:48:56 -0800, committed 16:19:43 -0800, parent 44518d2b named by its subject; in v3.14-rc1, inferred from the date). Verified against kernel/3bfcd13e/mm/swap.c (verbatim from torvalds/linux stored at the commit: __get_page_tail; put_compound_page there is byte-identical to 44518d2b's). Not modelled: the commit's removal of the hugetlb.h include.",
    };
    crate::compound_fns! {
        self: __get_page_tail;
        super::commit_44518d2b: put_compound_page, __get_page_tail_foll, get_huge_page_tail, __compound_tail_refcounted;
        super::commit_ca641514: compound_trans_head;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `__get_page_tail(page)` (mm/swap.c, 3bfcd13e).
///
/// This takes care of get_page() if run on a tail page returned by one of the
/// get_user_pages/follow_page variants. get_user_pages/follow_page itself doesn't need
/// the compound lock because it runs __get_page_tail_foll() under the proper PT lock that
/// already serializes against split_huge_page().
pub fn __get_page_tail<V: Compound>(m: &Mem, page: PagePtr) -> bool {
    let page_head = V::compound_trans_head(m, page);

    // Ref to put_compound_page() comment.
    if !V::__compound_tail_refcounted(m, page_head) {
        smp_rmb();
        if PageTail(m.pg(page)) {
            // This is a hugetlbfs page or a slab page. __split_huge_page_refcount cannot
            // race here.
            VM_BUG_ON!("__get_page_tail", !PageHead(m.pg(page_head)));
            V::__get_page_tail_foll(m, page, true);
            // LEFT OUT: `return true;` is the next line (the table reads Rust's
            // MODEL: `true` as 1, C's as a name)
            return true;
        } else {
            // __split_huge_page_refcount run before us, "page" was a THP tail. The split
            // page_head has been freed and reallocated as slab or hugetlbfs page of smaller
            // order (only possible if reallocated as slab on x86).
            // LEFT OUT: `return false;` is the next line (the table reads Rust's
            // MODEL: `false` as 0, C's as a name)
            return false;
        }
    }

    let mut got = false;
    if page != page_head && get_page_unless_zero(m, page_head) {
        // page_head wasn't a dangling pointer but it may not be a head page anymore by the
        // time we obtain the lock. That is ok as long as it can't be freed from under us.
        V::compound_lock(m, page_head);
        // here __split_huge_page_refcount won't run anymore
        if PageTail(m.pg(page)) {
            V::__get_page_tail_foll(m, page, false);
            got = true;
        }
        V::compound_unlock(m, page_head);
        if !got {
            put_page::<V>(m, page_head);
        }
    }
    got
}
