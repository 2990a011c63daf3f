//! mm/swap.c after 7cb2ef56 "mm: fix aio performance regression for database caused by THP"
//! (Khalid Aziz, 3.12): `__get_page_tail()` and `put_compound_page()` skip `compound_lock` and
//! the tail pin accounting when `PageHuge(page)`, since hugetlbfs pages are never split.
//! `PageHuge()` follows `first_page` of a page that may stop being a tail under it, and a
//! hugetlbfs tail pin taken by gup_fast (which raises the tail's `_mapcount`) is dropped
//! without it (both fixed by 27c73ae7). `#include <linux/hugetlb.h>` is the `PageHuge` import.

use crate::mm::hugetlb::PageHuge;
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_inc, atomic_read};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

/// Linux 3.11 + 7cb2ef56: the hugetlbfs bypass.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "7cb2ef56",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: fix aio performance regression for database caused by THP",
        },
        parent: Some("linux-3.11"),
        source: "commit 7cb2ef56e6a8b7b368b2e883a0a47d02fed66911 'mm: fix aio performance regression for database caused by THP' (Khalid Aziz, 3.12; id as quoted in 27c73ae7's posting, Andrea Arcangeli, linux-mm, 20 Nov 2013, <1384969876-6374-2-git-send-email-aarcange@redhat.com>). Verified against kernel/7cb2ef56/mm/swap.c, verbatim since 4 Dec 2026 (torvalds/linux mm/swap.c stored at the commit, byte-identical to the text assembled before from the context and '-' lines of that posting's hunks and 3.11's lines outside them). __put_compound_page is unchanged (3.12 has no PageHuge guard: that is 822fc61367f0, 4.1). The merged commit's own diff was not read (the RFC of 15 Aug 2013 differs in comments); its result is the stored tree.",
    };
    crate::compound_fns! {
        self: put_compound_page, __get_page_tail;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `put_compound_page(page)` (mm/swap.c, 7cb2ef56).
pub fn put_compound_page<V: Compound>(m: &Mem, page: PagePtr) {
    const F: &str = "put_compound_page";
    // hugetlbfs pages cannot be split from under us.  If this is a hugetlbfs page, check
    // refcount on head page and release the page if the refcount becomes zero.
    if PageHuge(m, page) {
        let page = V::compound_head(m, page);
        if put_page_testzero(m, page) {
            V::__put_compound_page(m, page);
        }

        return;
    }

    if PageTail(m.pg(page)) {
        // __split_huge_page_refcount can run under us
        let page_head = V::compound_trans_head(m, page);

        if page != page_head && get_page_unless_zero(m, page_head) {
            // THP can not break up slab pages so avoid taking compound_lock().  Slab
            // performs non-atomic bit ops on page->flags for better performance.  In
            // particular slab_unlock() in slub used to be a hot path.  It is still hot on
            // arches that do not support this_cpu_cmpxchg_double().
            if PageSlab(m.pg(page_head)) {
                if PageTail(m.pg(page)) {
                    if put_page_testzero(m, page_head) {
                        VM_BUG_ON!(F, true);
                    }

                    let p = m.pg(page);
                    let old = atomic_dec(&p._mapcount);
                    ktrace!(F, "slab tail {page:?}._mapcount {old} -> {}", old - 1);
                    skip_lock_tail::<V>(m, page_head);
                    // MODEL: `goto skip_lock_tail;`: the label's code (skip_lock_tail()) ends the
                    // function
                    return;
                } else {
                    skip_lock(m, page_head, page);
                    // MODEL: `goto skip_lock;`: the label's code (skip_lock(), falling through to
                    // out_put_single:) ends the function
                    return;
                }
            }
            // page_head wasn't a dangling pointer but it may not be a head page anymore
            // by the time we obtain the lock. That is ok as long as it can't be freed
            // from under us.
            V::compound_lock(m, page_head);
            if !PageTail(m.pg(page)) {
                // __split_huge_page_refcount run before us
                ktrace!(F, "{page:?} was split before we took the lock");
                V::compound_unlock(m, page_head);
                skip_lock(m, page_head, page);
                // LEFT OUT: the code of the `skip_lock:` and `out_put_single:` labels stands here
                // in the C: skip_lock() above, which falls through to out_put_single()
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

            skip_lock_tail::<V>(m, page_head);
            // LEFT OUT: the `skip_lock_tail:` label's code stands here in the C:
            // skip_lock_tail() above
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

/// `__get_page_tail(page)` (mm/swap.c, 7cb2ef56).
///
/// This takes care of get_page() if run on a tail page returned by one of the
/// get_user_pages/follow_page variants. get_user_pages/follow_page itself doesn't need
/// the compound lock because it runs __get_page_tail_foll() under the proper PT lock that
/// already serializes against split_huge_page().
pub fn __get_page_tail<V: Compound>(m: &Mem, page: PagePtr) -> bool {
    let mut got = false;

    // If this is a hugetlbfs page it cannot be split under us.  Simply increment refcount
    // for the head page.
    // (mmcheck: only the head's; the tail's `_mapcount`, which a gup_fast pin raises, is
    // not counted here nor dropped at the put: that is claim compound.4.)
    if PageHuge(m, page) {
        let page_head = V::compound_head(m, page);
        let old = atomic_inc(&m.pg(page_head)._count);
        ktrace!(
            "__get_page_tail",
            "bypass: {page_head:?}._count {old} -> {}",
            old + 1
        );
        got = true;
    } else {
        let page_head = V::compound_trans_head(m, page);

        if page != page_head && get_page_unless_zero(m, page_head) {
            // Ref to put_compound_page() comment.
            if PageSlab(m.pg(page_head)) {
                if PageTail(m.pg(page)) {
                    V::__get_page_tail_foll(m, page, false);
                    // LEFT OUT: `return true;` is the next line (the table reads Rust's
                    // MODEL: `true` as 1, C's as a name)
                    return true;
                } else {
                    put_page::<V>(m, page_head);
                    // LEFT OUT: `return false;` is the next line (the table reads Rust's
                    // MODEL: `false` as 0, C's as a name)
                    return false;
                }
            }

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
    }
    got
}

/// The code at the `skip_lock:` label of put_compound_page() (3.5–3.12), falling through to
/// `out_put_single:`.
/// (Not a label mirror in kernel/README.md's sense: the fidelity tool takes a label's C up to
/// the next label, and this label sits inside a block that the function's own code follows;
/// `put_compound_page()` marks where this code stands in its C.)
fn skip_lock(m: &Mem, page_head: PagePtr, page: PagePtr) {
    if put_page_testzero(m, page_head) {
        __put_single_page(m, page_head);
    }
    out_put_single(m, page);
}

/// The code at the `skip_lock_tail:` label of put_compound_page() (3.5–3.12).
/// (Not a label mirror in kernel/README.md's sense: the fidelity tool takes a label's C up to
/// the next label, and this label sits inside a block that the function's own code follows;
/// `put_compound_page()` marks where this code stands in its C.)
fn skip_lock_tail<V: Compound>(m: &Mem, page_head: PagePtr) {
    if put_page_testzero(m, page_head) {
        if PageHead(m.pg(page_head)) {
            V::__put_compound_page(m, page_head);
        } else {
            __put_single_page(m, page_head);
        }
    }
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
