//! mm/swap.c after 5bf5f03c "mm: fix slab->page flags corruption" (Pravin B Shelar, 3.5):
//! THP cannot split slab pages, so a tail get/put on a slab compound page skips
//! `compound_lock()` (whose atomic bit operation SLUB's non-atomic `slab_unlock()` could undo)
//! once the pinned head tests PageSlab; PG_tail is re-checked after the pin (Andrea's review of
//! v1). `VM_BUG_ON(PageHead(page_head))` goes: the old head may be a head again, of a smaller
//! compound page. `compound_lock()`/`compound_unlock()` gain `VM_BUG_ON(PageSlab(page))`. The
//! goto labels `skip_lock:` and `skip_lock_tail:` are functions here.

use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

/// 3.4 + 5bf5f03c: the PageSlab shortcut.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "5bf5f03c",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: fix slab->page flags corruption",
        },
        parent: Some("linux-3.4"),
        source: "commit 5bf5f03c271907978489868a4c72aeb42b5127d2 'mm: fix slab->page flags corruption' (Pravin B Shelar; id and author date 29 May 2012 from Johannes Weiner's quote, linux-mm, 2 Aug 2012, <20120802164203.GA30111@cmpxchg.org>). Verified against kernel/5bf5f03c/: mm/swap.c (verbatim since 4 Dec 2026: torvalds/linux mm/swap.c stored at the commit is byte-identical to put_compound_page and __get_page_tail as read before from function-level extracts of a 3.5..3.11 mm/swap.c, the merged form, which differs from the v4 posting, linux-mm, 22 May 2012, <1337729116-10151-1-git-send-email-pshelar@nicira.com>, only in Andrew Morton's comment wording, one blank line and the label indentation) and include/linux/mm.h (status verbatim: compound_lock and compound_unlock from the v4 posting's hunks, the same in AndreiLux/ref-3.10). The merged commit's own diff was not read; its result is the stored tree.",
    };
    crate::compound_fns! {
        self: compound_lock, compound_unlock, put_compound_page, __get_page_tail;
        super::linux_3_4: __put_compound_page;
    }
}

/// `compound_lock(page)` + `compound_lock_irqsave(page)` (include/linux/mm.h, 5bf5f03c): the
/// irqsave form (unchanged, linux-3.4) is `local_irq_save()` + this lock.
pub fn compound_lock<V: Compound>(m: &Mem, page: PagePtr) {
    VM_BUG_ON!("compound_lock", PageSlab(m.pg(page)));
    // LEFT OUT: `bit_spin_lock(PG_compound_lock, &page->flags)` is not written out here, nor
    // compound_lock_irqsave()'s `local_irq_save(flags)` (no interrupts are modelled):
    // MODEL: the 3.4 compound_lock() of mm/huge_memory.rs is that bit_spin_lock
    crate::mm::huge_memory::compound_lock(m, page);
    // LEFT OUT: compound_lock_irqsave()'s `return flags;` (no interrupts are modelled)
}

/// `compound_unlock(page)` + `compound_unlock_irqrestore(page, flags)` (include/linux/mm.h,
/// 5bf5f03c): the irqrestore form (unchanged, linux-3.4) is this unlock +
/// `local_irq_restore()`.
pub fn compound_unlock<V: Compound>(m: &Mem, page: PagePtr) {
    VM_BUG_ON!("compound_unlock", PageSlab(m.pg(page)));
    // LEFT OUT: `bit_spin_unlock(PG_compound_lock, &page->flags)` is not written out here:
    // MODEL: the 3.4 compound_unlock() of mm/huge_memory.rs is that bit_spin_unlock
    crate::mm::huge_memory::compound_unlock(m, page);
    // LEFT OUT: compound_unlock_irqrestore()'s `local_irq_restore(flags)` (no interrupts)
}

/// `put_compound_page(page)` (mm/swap.c, 5bf5f03c).
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

/// `__get_page_tail(page)` (mm/swap.c, 5bf5f03c).
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

/// The code at the `skip_lock:` label of put_compound_page() (5bf5f03c), falling through to
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

/// The code at the `skip_lock_tail:` label of put_compound_page() (5bf5f03c).
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
