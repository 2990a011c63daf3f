//! mm/swap.c of Linux 3.4 (before 5bf5f03c): every tail get/put goes through
//! `compound_trans_head()`, pins the head with `get_page_unless_zero()` and takes
//! `compound_lock` so that `__split_huge_page_refcount()` cannot run in between, slab pages
//! included: `compound_lock()` is an atomic bit operation on the head's `flags`, which SLUB
//! rewrites non-atomically (fixed by 5bf5f03c, claim compound.9).

use crate::mm::page_alloc::{call_compound_dtor, get_compound_page_dtor};
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

/// The locked path of Linux 3.4.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "linux-3.4",
        area: Area::Compound,
        kind: Kind::Release { version: "3.4" },
        parent: None,
        source: "3.4's put_compound_page, __get_page_tail and __put_compound_page, verified against kernel/linux-3.4/mm/swap.c (status partial; cargo xtask fidelity aligns them): put_compound_page and __get_page_tail are the context and '-' lines of 5bf5f03c's v4 and v3 postings (Pravin B Shelar, linux-mm, 22 May 2012, <1337729116-10151-1-git-send-email-pshelar@nicira.com>, diff against 3.4 'index 8ff73d8..93c709b'; 17 May 2012, <1337293069-22443-1-git-send-email-pshelar@nicira.com>), the lines outside their hunks from the 2011 posting of 70b50f94 and from function-level extracts of a 3.5..3.11 mm/swap.c in the search index; their statements were checked against a comment-stripped 3.4-based vendor mm/swap.c in the search index (file id 868697097), as was __put_compound_page (also AndreiLux/ref-3.10's, unchanged 3.4-3.13). UNVERIFIED: comments, blank lines and label indentation against a vanilla 3.4 tree (none is stored).",
    };
    crate::compound_fns! {
        self: __put_compound_page, put_compound_page, __get_page_tail;
    }
}

/// `__put_compound_page(page)` (mm/swap.c, 3.4–3.13).
pub fn __put_compound_page<V: Compound>(m: &Mem, page: PagePtr) {
    __page_cache_release(m, page);
    let dtor = get_compound_page_dtor(m, page);
    call_compound_dtor(m, dtor, page);
}

/// `put_compound_page(page)` (mm/swap.c, 3.4).
pub fn put_compound_page<V: Compound>(m: &Mem, page: PagePtr) {
    const F: &str = "put_compound_page";
    if PageTail(m.pg(page)) {
        // __split_huge_page_refcount can run under us
        let page_head = V::compound_trans_head(m, page);

        if page != page_head && get_page_unless_zero(m, page_head) {
            // page_head wasn't a dangling pointer but it may not be a head page anymore
            // by the time we obtain the lock. That is ok as long as it can't be freed
            // from under us.
            V::compound_lock(m, page_head);
            if !PageTail(m.pg(page)) {
                // __split_huge_page_refcount run before us
                ktrace!(F, "{page:?} was split before we took the lock");
                V::compound_unlock(m, page_head);
                VM_BUG_ON!(F, PageHead(m.pg(page_head)));
                if put_page_testzero(m, page_head) {
                    __put_single_page(m, page_head);
                }
                out_put_single(m, page);
                // LEFT OUT: the `out_put_single:` label's `if (put_page_testzero(page))
                // __put_single_page(page);` stands here in the C: out_put_single() above
                return;
            }
            VM_BUG_ON!(F, page_head != first_page(m.pg(page)));
            // We can release the refcount taken by get_page_unless_zero() now that
            // __split_huge_page_refcount() is blocked on the compound_lock.
            if put_page_testzero(m, page_head) {
                VM_BUG_ON!(F, true);
            }
            // __split_huge_page_refcount will wait now
            let p = m.pg(page);
            VM_BUG_ON!(F, page_mapcount(p) <= 0);
            let old = atomic_dec(&p._mapcount);
            ktrace!(F, "{page:?}._mapcount {old} -> {}", old - 1);
            VM_BUG_ON!(F, atomic_read(&m.pg(page_head)._count) <= 0);
            VM_BUG_ON!(F, atomic_read(&p._count) != 0);
            V::compound_unlock(m, page_head);

            if put_page_testzero(m, page_head) {
                if PageHead(m.pg(page_head)) {
                    V::__put_compound_page(m, page_head);
                } else {
                    __put_single_page(m, page_head);
                }
            }
        } else {
            // page_head is a dangling pointer
            VM_BUG_ON!(F, PageTail(m.pg(page)));
            out_put_single(m, page);
        }
    } else if put_page_testzero(m, page) {
        if PageHead(m.pg(page)) {
            V::__put_compound_page(m, page);
        } else {
            __put_single_page(m, page);
        }
    }
}

/// `__get_page_tail(page)` (mm/swap.c, 3.4).
///
/// This takes care of get_page() if run on a tail page returned by one of the
/// get_user_pages/follow_page variants. get_user_pages/follow_page itself doesn't need
/// the compound lock because it runs __get_page_tail_foll() under the proper PT lock that
/// already serializes against split_huge_page().
pub fn __get_page_tail<V: Compound>(m: &Mem, page: PagePtr) -> bool {
    let mut got = false;
    let page_head = V::compound_trans_head(m, page);

    if page != page_head && get_page_unless_zero(m, page_head) {
        // page_head wasn't a dangling pointer but it may not be a head page anymore by
        // the time we obtain the lock. That is ok as long as it can't be freed from
        // under us.
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

/// The code at the `out_put_single:` label of put_compound_page().
/// (Not a label mirror in kernel/README.md's sense: the fidelity tool takes a label's C up to
/// the next label, and this label sits inside a block that the function's own code follows;
/// `put_compound_page()` marks where this code stands in its C.)
fn out_put_single(m: &Mem, page: PagePtr) {
    if put_page_testzero(m, page) {
        __put_single_page(m, page);
    }
}
