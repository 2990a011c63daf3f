/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-4.4
 * file:      mm/swap.c
 * source:    __put_compound_page: linux-mm, Michal Hocko's reply (16223475838 in the
 *            index) quoting Naoya Horiguchi's patch against v4.0-rc6 'don't call
 *            __page_cache_release for hugetlb' (__put_compound_page hunk); the same
 *            text in a later stored mm/swap.c (4.8-era, index id 20999477);
 *            put_refcounted_compound_page, put_compound_page: '-' text of linux-mm,
 *            Kirill A. Shutemov, 3 Jun 2015, '[PATCHv6 13/36] mm: drop tail page
 *            refcounting', Message-Id
 *            <1433351167-125878-14-git-send-email-kirill.shutemov@linux.intel.com> with
 *            the two swap.c hunks of linux-mm, Kirill A. Shutemov, 3 Sep 2015,
 *            '[PATCHv5 5/7] mm: make compound_head() robust', Message-Id
 *            <1441283758-92774-6-git-send-email-kirill.shutemov@linux.intel.com>
 *            (archive sjp38/lore-linux-mm, file m)
 * status:    partial
 * holds:     __put_compound_page, put_refcounted_compound_page, put_compound_page
 * unchanged: put_unrefcounted_compound_page (c761471b), __get_page_tail (668f9abb),
 *            put_page (3.x)
 * notes:     Assembled: 4.1 text (c761471b) plus
 *            1d798ca3f16437c71ff63e36597ff07f9c12e4d6 'mm: make compound_head() robust'
 *            (4.4-rc1; commit page gerrit-public.fairphone.software kernel/msm-4.19;
 *            text from its v5 posting, the mainline message has one more paragraph than
 *            v5, so code details may differ) and Naoya Horiguchi's __put_compound_page
 *            change (4.1). No stored 4.4 tree was found (find_string for 'page_head !=
 *            compound_head(page), page);' hits only postings). parent: c761471b.
 */

static void __put_compound_page(struct page *page)
{
	compound_page_dtor *dtor;

	/*
	 * __page_cache_release() is supposed to be called for thp, not for
	 * hugetlb. This is because hugetlb page does never have PageLRU set
	 * (it's never listed to any LRU lists) and no memcg routines should
	 * be called for hugetlb (it has a separate hugetlb_cgroup.)
	 */
	if (!PageHuge(page))
		__page_cache_release(page);
	dtor = get_compound_page_dtor(page);
	(*dtor)(page);
}

static __always_inline
void put_refcounted_compound_page(struct page *page_head, struct page *page)
{
	if (likely(page != page_head && get_page_unless_zero(page_head))) {
		unsigned long flags;

		/*
		 * @page_head wasn't a dangling pointer but it may not
		 * be a head page anymore by the time we obtain the
		 * lock. That is ok as long as it can't be freed from
		 * under us.
		 */
		flags = compound_lock_irqsave(page_head);
		if (unlikely(!PageTail(page))) {
			/* __split_huge_page_refcount run before us */
			compound_unlock_irqrestore(page_head, flags);
			if (put_page_testzero(page_head)) {
				/*
				 * The @page_head may have been freed
				 * and reallocated as a compound page
				 * of smaller order and then freed
				 * again.  All we know is that it
				 * cannot have become: a THP page, a
				 * compound page of higher order, a
				 * tail page.  That is because we
				 * still hold the refcount of the
				 * split THP tail and page_head was
				 * the THP head before the split.
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
		VM_BUG_ON_PAGE(page_head != compound_head(page), page);
		/*
		 * We can release the refcount taken by
		 * get_page_unless_zero() now that
		 * __split_huge_page_refcount() is blocked on the
		 * compound_lock.
		 */
		if (put_page_testzero(page_head))
			VM_BUG_ON_PAGE(1, page_head);
		/* __split_huge_page_refcount will wait now */
		VM_BUG_ON_PAGE(page_mapcount(page) <= 0, page);
		atomic_dec(&page->_mapcount);
		VM_BUG_ON_PAGE(atomic_read(&page_head->_count) <= 0, page_head);
		VM_BUG_ON_PAGE(atomic_read(&page->_count) != 0, page);
		compound_unlock_irqrestore(page_head, flags);

		if (put_page_testzero(page_head)) {
			if (PageHead(page_head))
				__put_compound_page(page_head);
			else
				__put_single_page(page_head);
		}
	} else {
		/* @page_head is a dangling pointer */
		VM_BUG_ON_PAGE(PageTail(page), page);
		goto out_put_single;
	}
}

static void put_compound_page(struct page *page)
{
	struct page *page_head;

	/*
	 * We see the PageCompound set and PageTail not set, so @page maybe:
	 *  1. hugetlbfs head page, or
	 *  2. THP head page.
	 */
	if (likely(!PageTail(page))) {
		if (put_page_testzero(page)) {
			/*
			 * By the time all refcounts have been released
			 * split_huge_page cannot run anymore from under us.
			 */
			if (PageHead(page))
				__put_compound_page(page);
			else
				__put_single_page(page);
		}
		return;
	}

	/*
	 * We see the PageCompound set and PageTail set, so @page maybe:
	 *  1. a tail hugetlbfs page, or
	 *  2. a tail THP page, or
	 *  3. a split THP page.
	 *
	 *  Case 3 is possible, as we may race with
	 *  __split_huge_page_refcount tearing down a THP page.
	 */
	page_head = compound_head(page);
	if (!__compound_tail_refcounted(page_head))
		put_unrefcounted_compound_page(page_head, page);
	else
		put_refcounted_compound_page(page_head, page);
}
