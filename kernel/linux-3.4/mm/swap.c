/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.4
 * file:      mm/swap.c
 * source:    put_compound_page, __get_page_tail: the context and '-' lines of linux-mm, Pravin
 *            B Shelar, 22 May 2012, '[PATCH v4] mm: Fix slab->page flags corruption.',
 *            Message-Id <1337729116-10151-1-git-send-email-pshelar@nicira.com> (diff against
 *            3.4: mm/swap.c index 8ff73d8..93c709b, include/linux/mm.h index 8437e93..ddd58ce)
 *            and of linux-mm, Pravin B Shelar, 17 May 2012, '[PATCH v3] mm: Fix slab->page
 *            flags corruption.', Message-Id
 *            <1337293069-22443-1-git-send-email-pshelar@nicira.com>; the lines outside their
 *            hunks from the 2011 linux-mm posting of Andrea Arcangeli's 'mm: thp: tail page
 *            refcounting fix' (70b50f94, 3.2; index file id 47091499625), '+' lines and
 *            function-level extracts of a 3.5..3.11 mm/swap.c in the search index (file ids
 *            18520631901 put_compound_page, 18634259588 __get_page_tail; the extract tool
 *            prefixes '__attribute__((used)) static', removed here); statements checked
 *            against a comment-stripped 3.4-based vendor mm/swap.c in the search index (file
 *            id 868697097; statements only, comments removed by the vendor).
 *            __page_cache_release: linux-mm, Hugh Dickins, Feb 2012 mmotm lruvec series
 *            (mm/swap.c hunk '@@ -47,13 +47,15 @@', index file id 32781303209), '-' lines.
 *            __put_single_page, __put_compound_page, put_page: a comment-stripped 3.4-based
 *            vendor mm/swap.c in the search index (file id 868697097; statements only,
 *            comments removed by the vendor) (identical to AndreiLux/ref-3.10 mm/swap.c).
 * status:    partial
 * holds:     __page_cache_release, __put_single_page, __put_compound_page, put_compound_page,
 *            put_page, __get_page_tail
 * unchanged: (root variant)
 * notes:     No byte-exact 3.4 mm/swap.c was found in the index. put_compound_page: the 3.4
 *            labels are indented (out_put_single: with three tabs, per the v3/v4 context); the
 *            blank line after the page_head declaration is in the vendor 3.4 copy (the 3.2 '+'
 *            lines of 70b50f94 do not have it). __get_page_tail: 'bool' per the v3 hunk
 *            header, 'got = true' per v3 context; 'unsigned long flags; bool got = false;' and
 *            the leading comment as in 3.5. The comment block that precedes __get_page_tail in
 *            3.10 ('This function is exported but must not be called...') is not reproduced
 *            for 3.4 (not seen in any 3.4 text).
 */

static void __page_cache_release(struct page *page)
{
	if (PageLRU(page)) {
		unsigned long flags;
		struct zone *zone = page_zone(page);

		spin_lock_irqsave(&zone->lru_lock, flags);
		VM_BUG_ON(!PageLRU(page));
		__ClearPageLRU(page);
		del_page_from_lru_list(zone, page, page_off_lru(page));
		spin_unlock_irqrestore(&zone->lru_lock, flags);
	}
}

static void __put_single_page(struct page *page)
{
	__page_cache_release(page);
	free_hot_cold_page(page, 0);
}

static void __put_compound_page(struct page *page)
{
	compound_page_dtor *dtor;

	__page_cache_release(page);
	dtor = get_compound_page_dtor(page);
	(*dtor)(page);
}

static void put_compound_page(struct page *page)
{
	if (unlikely(PageTail(page))) {
		/* __split_huge_page_refcount can run under us */
		struct page *page_head = compound_trans_head(page);

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
				VM_BUG_ON(PageHead(page_head));
				if (put_page_testzero(page_head))
					__put_single_page(page_head);
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

void put_page(struct page *page)
{
	if (unlikely(PageCompound(page)))
		put_compound_page(page);
	else if (put_page_testzero(page))
		__put_single_page(page);
}

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
	bool got = false;
	struct page *page_head = compound_trans_head(page);

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
