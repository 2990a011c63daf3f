/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   ebf360f9
 * file:      mm/swap.c
 * source:    posting: linux-mm, Andrea Arcangeli, 20 Nov 2013, '[PATCH 3/8] mm:
 *            hugetlbfs: move the put/get_page slab and hugetlbfs optimization in a
 *            faster path', Message-Id
 *            <1384969876-6374-4-git-send-email-aarcange@redhat.com>, applied to the
 *            27c73ae7 text as posted in linux-mm, Andrea Arcangeli, 20 Nov 2013,
 *            '[PATCH 1/8] mm: hugetlbfs: fix hugetlbfs optimization' (v3), Message-Id
 *            <1384969876-6374-2-git-send-email-aarcange@redhat.com> (archive
 *            sjp38/lore-linux-mm, file m)
 * status:    partial
 * holds:     put_compound_page, __get_page_tail
 * unchanged: __put_compound_page, put_page (not in the patch)
 * notes:     Mainline ebf360f9bb957f68e19e88f5067c015997dc26a6 (commit page on
 *            git.zx2c4.com linux-dev: author Andrea Arcangeli 2014-01-21 15:48:51 -0800,
 *            committed by Linus Torvalds 2014-01-21 16:19:43 -0800, parent "mm: hugetlb: use
 *            get_page_foll() in follow_hugetlb_page()", message ending "[akpm@linux-
 *            foundation.org: fix typo in comment]"); its release, 3.14, is inferred from that
 *            date (after v3.13, before v3.14-rc1). Until 5 Dec 2026 this folder was named
 *            3bfcd13e, the id issue #17 gave the patch: mainline's 3bfcd13ec0b4 is "mm:
 *            hugetlbfs: use __compound_tail_refcounted in __get_page_tail too", a separate
 *            mmotm patch after the series (its commit page on the same site, parent
 *            44518d2b; kernel/3bfcd13e). Lines inside the two swap.c hunks of 3/8
 *            (context and '+') are the patch's; the remaining lines are 27c73ae7's from
 *            1/8's '+'/context lines (identical to AndreiLux/ref-3.10 mm/swap.c except
 *            compound_trans_head). Cross-check: put_compound_page after 5/8 appears
 *            whole as the '-' lines of 7/8 and differs from this text only by 5/8's own
 *            hunk. mmotm carried
 *            mm-hugetlbfs-move-the-put-get_page-slab-and-hugetlbfs-optimization-in-a-faster-path-fix.patch
 *            and -fix-2.patch (folded into this commit): their content was NOT found,
 *            so this is the posted v3 text. 'threat' is as posted; mainline 44518d2b (5/8;
 *            torvalds/linux mm/swap.c stored at 44518d2b32646e37, index id 2980550662)
 *            already reads 'treat': the commit's own "[akpm@linux-foundation.org: fix typo
 *            in comment]" is likely that fix (the merged hunk was not read). parent: 27c73ae7 (in the posted series
 *            2/8 'mm: hugetlb: use get_page_foll() in follow_hugetlb_page()' lies between,
 *            no modelled function; the mmotm series of 20 and 22 Nov 2013 also puts
 *            mm-hugetlbfs-add-some-vm_bug_ons-to-catch-non-hugetlbfs-pages and a memcg
 *            OOM-notification patch before it, not read here; the mainline parent is 2/8,
 *            a0368d4e48fc, by the commit page).
 */

static void put_compound_page(struct page *page)
{
	if (unlikely(PageTail(page))) {
		/* __split_huge_page_refcount can run under us */
		struct page *page_head = compound_trans_head(page);

		/*
		 * THP can not break up slab pages so avoid taking
		 * compound_lock(). Slab performs non-atomic bit ops
		 * on page->flags for better performance. In
		 * particular slab_unlock() in slub used to be a hot
		 * path. It is still hot on arches that do not support
		 * this_cpu_cmpxchg_double().
		 *
		 * If "page" is part of a slab or hugetlbfs page it
		 * cannot be splitted and the head page cannot change
		 * from under us. And if "page" is part of a THP page
		 * under splitting, if the head page pointed by the
		 * THP tail isn't a THP head anymore, we'll find
		 * PageTail clear after smp_rmb() and we'll threat it
		 * as a single page.
		 */
		if (PageSlab(page_head) || PageHeadHuge(page_head)) {
			/*
			 * If "page" is a THP tail, we must read the tail page
			 * flags after the head page flags. The
			 * split_huge_page side enforces write memory
			 * barriers between clearing PageTail and before the
			 * head page can be freed and reallocated.
			 */
			smp_rmb();
			if (likely(PageTail(page))) {
				/*
				 * __split_huge_page_refcount
				 * cannot race here.
				 */
				VM_BUG_ON(!PageHead(page_head));
				VM_BUG_ON(page_mapcount(page) <= 0);
				atomic_dec(&page->_mapcount);
				if (put_page_testzero(page_head))
					__put_compound_page(page_head);
				return;
			} else
				/*
				 * __split_huge_page_refcount
				 * run before us, "page" was a
				 * THP tail. The split
				 * page_head has been freed
				 * and reallocated as slab or
				 * hugetlbfs page of smaller
				 * order (only possible if
				 * reallocated as slab on
				 * x86).
				 */
				goto out_put_single;
		}

		if (likely(page != page_head &&
			   get_page_unless_zero(page_head))) {
			unsigned long flags;

			/*
			 * page_head wasn't a dangling pointer but it
			 * may not be a head page anymore by the time
			 * we obtain the lock. That is ok as long as it
			 * can't be freed from under us.
			 */
			flags = compound_lock_irqsave(page_head);
			if (unlikely(!PageTail(page))) {
				/* __split_huge_page_refcount run before us */
				compound_unlock_irqrestore(page_head, flags);
				if (put_page_testzero(page_head)) {
					/*
					 * The head page may have been
					 * freed and reallocated as a
					 * compound page of smaller
					 * order and then freed again.
					 * All we know is that it
					 * cannot have become: a THP
					 * page, a compound page of
					 * higher order, a tail page.
					 * That is because we still
					 * hold the refcount of the
					 * split THP tail and
					 * page_head was the THP head
					 * before the split.
					 */
					if (PageHead(page_head))
						__put_compound_page(page_head);
					else
						__put_single_page(page_head);
				}
out_put_single:
				if (put_page_testzero(page))
					__put_single_page(page);
				return;
			}
			VM_BUG_ON(page_head != page->first_page);
			/*
			 * We can release the refcount taken by
			 * get_page_unless_zero() now that
			 * __split_huge_page_refcount() is blocked on
			 * the compound_lock.
			 */
			if (put_page_testzero(page_head))
				VM_BUG_ON(1);
			/* __split_huge_page_refcount will wait now */
			VM_BUG_ON(page_mapcount(page) <= 0);
			atomic_dec(&page->_mapcount);
			VM_BUG_ON(atomic_read(&page_head->_count) <= 0);
			VM_BUG_ON(atomic_read(&page->_count) != 0);
			compound_unlock_irqrestore(page_head, flags);

			if (put_page_testzero(page_head)) {
				if (PageHead(page_head))
					__put_compound_page(page_head);
				else
					__put_single_page(page_head);
			}
		} else {
			/* page_head is a dangling pointer */
			VM_BUG_ON(PageTail(page));
			goto out_put_single;
		}
	} else if (put_page_testzero(page)) {
		if (PageHead(page))
			__put_compound_page(page);
		else
			__put_single_page(page);
	}
}

/*
 * This function is exported but must not be called by anything other
 * than get_page(). It implements the slow path of get_page().
 */
bool __get_page_tail(struct page *page)
{
	/*
	 * This takes care of get_page() if run on a tail page
	 * returned by one of the get_user_pages/follow_page variants.
	 * get_user_pages/follow_page itself doesn't need the compound
	 * lock because it runs __get_page_tail_foll() under the
	 * proper PT lock that already serializes against
	 * split_huge_page().
	 */
	unsigned long flags;
	bool got;
	struct page *page_head = compound_trans_head(page);

	/* Ref to put_compound_page() comment. */
	if (PageSlab(page_head) || PageHeadHuge(page_head)) {
		smp_rmb();
		if (likely(PageTail(page))) {
			/*
			 * This is a hugetlbfs page or a slab
			 * page. __split_huge_page_refcount
			 * cannot race here.
			 */
			VM_BUG_ON(!PageHead(page_head));
			__get_page_tail_foll(page, true);
			return true;
		} else {
			/*
			 * __split_huge_page_refcount run
			 * before us, "page" was a THP
			 * tail. The split page_head has been
			 * freed and reallocated as slab or
			 * hugetlbfs page of smaller order
			 * (only possible if reallocated as
			 * slab on x86).
			 */
			return false;
		}
	}

	got = false;
	if (likely(page != page_head && get_page_unless_zero(page_head))) {
		/*
		 * page_head wasn't a dangling pointer but it
		 * may not be a head page anymore by the time
		 * we obtain the lock. That is ok as long as it
		 * can't be freed from under us.
		 */
		flags = compound_lock_irqsave(page_head);
		/* here __split_huge_page_refcount won't run anymore */
		if (likely(PageTail(page))) {
			__get_page_tail_foll(page, false);
			got = true;
		}
		compound_unlock_irqrestore(page_head, flags);
		if (unlikely(!got))
			put_page(page_head);
	}
	return got;
}
