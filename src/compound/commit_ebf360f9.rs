//! mm/swap.c after ebf360f9 "mm: hugetlbfs: move the put/get_page slab and hugetlbfs
//! optimization in a faster path" (Andrea Arcangeli; patch 3/8 of "mm: hugetlbfs: fix hugetlbfs
//! optimization v3", 20 Nov 2013; mainline ebf360f9bb95, committed 21 Jan 2014: 3.14, inferred from
//! the date; the variant was named 3bfcd13e until 5 Dec 2026, the id issue #17 gave it, which
//! is mainline's 3bfcd13ec0b4, a separate mmotm patch after the series): `PageSlab(page_head) || PageHeadHuge(page_head)` is tested
//! before the head is pinned, on the head `compound_trans_head()` returned; `smp_rmb()` and a
//! PG_tail re-check then decide between the tail (`_mapcount` and the head's count, no
//! `get_page_unless_zero()`) and `out_put_single:`. `__get_page_tail()` pins the head through
//! `__get_page_tail_foll(page, true)`. The locked THP path is 27c73ae7's with the `skip_lock:`
//! code written in place. Parent 27c73ae7: in the posted series one patch lies between them
//! (2/8, "mm: hugetlb: use get_page_foll() in follow_hugetlb_page()", which changes no modelled
//! function); in the mmotm series of 20 and 22 Nov 2013 two more precede ebf360f9
//! ("mm-hugetlbfs-add-some-vm_bug_ons-to-catch-non-hugetlbfs-pages" and a memcg OOM-notification
//! patch, not read here). The mainline parent is 2/8, a0368d4e48fc (the commit page).

use crate::mm::hugetlb::PageHeadHuge;
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::{atomic_dec, atomic_read, smp_rmb};
use crate::variant::{Area, Kind, VariantMeta};
use crate::{ktrace, VM_BUG_ON};

use super::commit_27c73ae7::out_put_single;

/// 27c73ae7 + ebf360f9: the slab/hugetlbfs test moved before the head pin.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "ebf360f9",
        area: Area::Compound,
        kind: Kind::Commit {
            subject: "mm: hugetlbfs: move the put/get_page slab and hugetlbfs optimization in a faster path",
        },
        parent: Some("27c73ae7"),
        source: "the posting (linux-mm, Andrea Arcangeli, 20 Nov 2013, '[PATCH 3/8] mm: hugetlbfs: move the put/get_page slab and hugetlbfs optimization in a faster path', <1384969876-6374-4-git-send-email-aarcange@redhat.com>) applied to 27c73ae7's text as posted (1/8, <1384969876-6374-2-git-send-email-aarcange@redhat.com>); queued in the mmotm series of 22 Nov 2013 and 2 Jan 2014 and listed in Michal Hocko's since-3.13 shortlog of 6 Feb 2014 (a branch he describes as based on v3.12); its release, 3.14, is inferred from these, UNVERIFIED. Verified against kernel/ebf360f9/mm/swap.c (status partial: the lines inside 3/8's two hunks are the posting's, the rest 27c73ae7's; cross-checked against the '-' lines of 7/8 'mm/swap.c: reorganize put_compound_page()', which hold put_compound_page after 5/8 and differ from this text only by 5/8's hunk). Mainline ebf360f9bb957f68e19e88f5067c015997dc26a6 (commit page https://git.zx2c4.com/linux-dev/commit/?id=ebf360f9bb957f68e19e88f5067c015997dc26a6: author date 2014-01-21 15:48:51 -0800, committed 2014-01-21 16:19:43 -0800, parent a0368d4e48fc 'mm: hugetlb: use get_page_foll() in follow_hugetlb_page()', message ending '[akpm@linux-foundation.org: fix typo in comment]'); issue #17 called it 3bfcd13e, which is mainline's 'mm: hugetlbfs: use __compound_tail_refcounted in __get_page_tail too', a separate mmotm patch after the series (variant 3bfcd13e). UNVERIFIED: the content of the two -fix patches mmotm folded into it and the merged hunk itself (not read): this is the posted v3 text.",
    };
    crate::compound_fns! {
        self: put_compound_page, __get_page_tail;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `put_compound_page(page)` (mm/swap.c, ebf360f9).
pub fn put_compound_page<V: Compound>(m: &Mem, page: PagePtr) {
    const F: &str = "put_compound_page";
    if PageTail(m.pg(page)) {
        // __split_huge_page_refcount can run under us
        let page_head = V::compound_trans_head(m, page);

        // THP can not break up slab pages so avoid taking compound_lock(). Slab performs
        // non-atomic bit ops on page->flags for better performance. In particular
        // slab_unlock() in slub used to be a hot path. It is still hot on arches that do not
        // support this_cpu_cmpxchg_double().
        //
        // If "page" is part of a slab or hugetlbfs page it cannot be splitted and the head
        // page cannot change from under us. And if "page" is part of a THP page under
        // splitting, if the head page pointed by the THP tail isn't a THP head anymore, we'll
        // find PageTail clear after smp_rmb() and we'll threat it as a single page.
        if PageSlab(m.pg(page_head)) || PageHeadHuge(m, page_head) {
            // If "page" is a THP tail, we must read the tail page flags after the head page
            // flags. The split_huge_page side enforces write memory barriers between clearing
            // PageTail and before the head page can be freed and reallocated.
            smp_rmb();
            if PageTail(m.pg(page)) {
                // __split_huge_page_refcount cannot race here.
                VM_BUG_ON!(F, !PageHead(m.pg(page_head)));
                let p = m.pg(page);
                VM_BUG_ON!(F, page_mapcount(p) <= 0);
                let old = atomic_dec(&p._mapcount);
                ktrace!(F, "{page:?}._mapcount {old} -> {}", old - 1);
                if put_page_testzero(m, page_head) {
                    V::__put_compound_page(m, page_head);
                }
                return;
            } else {
                // __split_huge_page_refcount run before us, "page" was a THP tail. The split
                // page_head has been freed and reallocated as slab or hugetlbfs page of
                // smaller order (only possible if reallocated as slab on x86).
                out_put_single(m, page);
                // MODEL: `goto out_put_single;`: the label's code (out_put_single()) ends the
                // function
                return;
            }
        }

        if page != page_head && get_page_unless_zero(m, page_head) {
            // page_head wasn't a dangling pointer but it may not be a head page anymore by
            // the time we obtain the lock. That is ok as long as it can't be freed from
            // under us.
            V::compound_lock(m, page_head);
            if !PageTail(m.pg(page)) {
                // __split_huge_page_refcount run before us
                ktrace!(F, "{page:?} was split before we took the lock");
                V::compound_unlock(m, page_head);
                if put_page_testzero(m, page_head) {
                    // The head page may have been freed and reallocated as a compound page
                    // of smaller order and then freed again. All we know is that it cannot
                    // have become: a THP page, a compound page of higher order, a tail page.
                    // That is because we still hold the refcount of the split THP tail and
                    // page_head was the THP head before the split.
                    if PageHead(m.pg(page_head)) {
                        V::__put_compound_page(m, page_head);
                    } else {
                        __put_single_page(m, page_head);
                    }
                }
                // LEFT OUT: the label `out_put_single:` (the two gotos call out_put_single(),
                // which holds the two lines below)
                if put_page_testzero(m, page) {
                    __put_single_page(m, page);
                }
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
            // MODEL: `goto out_put_single;`: the label's code (out_put_single()) ends the
            // function
        }
    } else if put_page_testzero(m, page) {
        if PageHead(m.pg(page)) {
            V::__put_compound_page(m, page);
        } else {
            __put_single_page(m, page);
        }
    }
}

/// `__get_page_tail(page)` (mm/swap.c, ebf360f9).
///
/// This takes care of get_page() if run on a tail page returned by one of the
/// get_user_pages/follow_page variants. get_user_pages/follow_page itself doesn't need
/// the compound lock because it runs __get_page_tail_foll() under the proper PT lock that
/// already serializes against split_huge_page().
pub fn __get_page_tail<V: Compound>(m: &Mem, page: PagePtr) -> bool {
    let page_head = V::compound_trans_head(m, page);

    // Ref to put_compound_page() comment.
    if PageSlab(m.pg(page_head)) || PageHeadHuge(m, page_head) {
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
