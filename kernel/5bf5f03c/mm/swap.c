/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   5bf5f03c
 * file:      mm/swap.c
 * source:    torvalds/linux mm/swap.c at 5bf5f03c271907978489868a4c72aeb42b5127d2 (stored,
 *            index id 1463687693), verbatim
 * status:    verbatim
 * holds:     put_compound_page, __get_page_tail
 * unchanged: __page_cache_release, __put_single_page, __put_compound_page, put_page
 *            (linux-3.4; 5bf5f03c does not touch them and the variant is 3.4 + this commit)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was: commit
 *            5bf5f03c271907978489868a4c72aeb42b5127d2 'mm: fix slab->page flags corruption'
 *            (author date 29 May 2012, per Johannes Weiner's quote, linux-mm, 2 Aug 2012,
 *            Message-ID <20120802164203.GA30111@cmpxchg.org>). Text: function-level
 *            extracts of a 3.5..3.11 mm/swap.c in the search index (file ids 18520631901
 *            put_compound_page, 18634259588 __get_page_tail; the extract tool prefixes
 *            '__attribute__((used)) static', removed here), i.e. the merged form (Andrew
 *            Morton's comment wording, labels at column 0), which differs from linux-mm,
 *            Pravin B Shelar, 22 May 2012, '[PATCH v4] mm: Fix slab->page flags
 *            corruption.', Message-Id
 *            <1337729116-10151-1-git-send-email-pshelar@nicira.com> (diff against 3.4:
 *            mm/swap.c index 8ff73d8..93c709b, include/linux/mm.h index 8437e93..ddd58ce)
 *            only in the comment text, the blank line after it and the label indentation.
 *            Earlier notes (superseded where the text above says otherwise): The extract
 *            has no blank line after 'struct page *page_head = compound_trans_head(page);'
 *            in put_compound_page; that blank line is present in the 3.4 vendor copy, in
 *            3.10 (AndreiLux/ref-3.10) and is implied by the hunk line numbers of the
 *            3.11-rc5 RFC and of 27c73ae7's posting (3.12), so it is kept here. The merged
 *            commit's own diff was not found: UNVERIFIED byte-exactness of the comment text
 *            against the commit.
 */

static void put_compound_page(struct page *page)
{
	if (unlikely(PageTail(page))) {
		/* __split_huge_page_refcount can run under us */
		struct page *page_head = compound_trans_head(page);

		if (likely(page != page_head &&
			   get_page_unless_zero(page_head))) {
			unsigned long flags;

			/*
			 * THP can not break up slab pages so avoid taking
			 * compound_lock().  Slab performs non-atomic bit ops
			 * on page->flags for better performance.  In particular
			 * slab_unlock() in slub used to be a hot path.  It is
			 * still hot on arches that do not support
			 * this_cpu_cmpxchg_double().
			 */
			if (PageSlab(page_head)) {
				if (PageTail(page)) {
					if (put_page_testzero(page_head))
						VM_BUG_ON(1);

					atomic_dec(&page->_mapcount);
					goto skip_lock_tail;
				} else
					goto skip_lock;
			}
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
skip_lock:
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

skip_lock_tail:
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

		/* Ref to put_compound_page() comment. */
		if (PageSlab(page_head)) {
			if (likely(PageTail(page))) {
				__get_page_tail_foll(page, false);
				return true;
			} else {
				put_page(page_head);
				return false;
			}
		}

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
