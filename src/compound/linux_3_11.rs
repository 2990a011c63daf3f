//! mm/swap.c of Linux 3.11 (as in 3.5–3.11: 5bf5f03c was the last change to these functions
//! before 7cb2ef56): the locked path with 5bf5f03c's PageSlab shortcut. Every tail get/put
//! goes through `compound_trans_head()`, pins the head with `get_page_unless_zero()`, and
//! takes `compound_lock` unless the pinned head is a slab page.

use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

/// The locked path of Linux 3.11.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "linux-3.11",
        area: Area::Compound,
        kind: Kind::Release { version: "3.11" },
        parent: Some("5bf5f03c"),
        source: "3.11's put_compound_page and __get_page_tail, verified against kernel/5bf5f03c/mm/swap.c (verbatim at 5bf5f03c since 4 Dec 2026; kernel/linux-3.11/mm/swap.c names them unchanged since 5bf5f03c), whose text equals the 3.11-rc5 context and '-' lines of Khalid Aziz's RFC (linux-mm, 15 Aug 2013, '[RFC PATCH] Fix aio performance regression for database caused by THP', <1376590389.24607.33.camel@concerto>, 'index 62b78a6..cc8326f') and, for put_compound_page, the '-' lines of 27c73ae7's posting (Andrea Arcangeli, linux-mm, 20 Nov 2013, <1384969876-6374-2-git-send-email-aarcange@redhat.com>; 3.12 = 3.11 + 7cb2ef56's PageHuge prefix); __put_compound_page from kernel/linux-3.4/ (unchanged 3.4-3.13); compound_lock/unlock from kernel/5bf5f03c/include/linux/mm.h (verbatim). The shared code's 3.11 texts (kernel/linux-3.11/, status partial) are AndreiLux/ref-3.10 or 3.10-3.12 copies standing for 3.11. UNVERIFIED: byte-exactness against a mainline 3.11 tree (none is stored).",
    };
    crate::compound_fns! {
        self: put_compound_page, __get_page_tail;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `put_compound_page(page)` (mm/swap.c, 3.11).
pub fn put_compound_page<V: Compound>(m: &Mem, page: PagePtr) {
    const F: &str = "put_compound_page";
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

/// `__get_page_tail(page)` (mm/swap.c, 3.11).
///
/// This takes care of get_page() if run on a tail page returned by one of the
/// get_user_pages/follow_page variants. get_user_pages/follow_page itself doesn't need
/// the compound lock because it runs __get_page_tail_foll() under the proper PT lock that
/// already serializes against split_huge_page().
pub fn __get_page_tail<V: Compound>(m: &Mem, page: PagePtr) -> bool {
    let mut got = false;
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
    got
}

/// The code at the `skip_lock:` label of put_compound_page() (3.11), falling through to
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

/// The code at the `skip_lock_tail:` label of put_compound_page() (3.11).
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
