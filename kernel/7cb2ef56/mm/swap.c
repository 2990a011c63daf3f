/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   7cb2ef56
 * file:      mm/swap.c
 * source:    torvalds/linux mm/swap.c at 7cb2ef56e6a8b7b368b2e883a0a47d02fed66911 (stored,
 *            index id 767597324), verbatim
 * status:    verbatim
 * holds:     put_compound_page, __get_page_tail
 * unchanged: __page_cache_release (linux-3.11), __put_single_page, __put_compound_page,
 *            put_page
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was: commit
 *            7cb2ef56e6a8b7b368b2e883a0a47d02fed66911 (id as quoted in linux-mm, Andrea
 *            Arcangeli, 20 Nov 2013, '[PATCH 1/8] mm: hugetlbfs: fix hugetlbfs
 *            optimization', Message-Id
 *            <1384969876-6374-2-git-send-email-aarcange@redhat.com> (mm/swap.c index
 *            7a9f80d..84b26aa, mm/hugetlb.c index 7d57af2..14737f8e)). Text: the context
 *            and '-' lines of that posting's mm/swap.c hunks (3.12 text); the lines outside
 *            the hunks (put_compound_page between its hunks, the head of __get_page_tail)
 *            are 3.11's (linux-3.11 / 5bf5f03c), which 7cb2ef56 did not touch. Earlier
 *            notes: The last hunk of the posting has one context line '\t\t}' more than its
 *            header count (-198,51) allows; the old side is taken with 51 lines, which is
 *            also the only brace-balanced reading. The merged commit's own diff was not
 *            found; its comments differ from linux-mm, Khalid Aziz, 15 Aug 2013, '[RFC
 *            PATCH] Fix aio performance regression for database caused by THP', Message-ID
 *            <1376590389.24607.33.camel@concerto> (against 3.11-rc5, mm/swap.c index
 *            62b78a6..cc8326f) ('hugetlbfs pages can not be split from under us. If
 *            this...'), the merged wording is the one 27c73ae7 removes. 7cb2ef56 also adds
 *            '#include <linux/hugetlb.h>' to mm/swap.c.
 */

static void put_compound_page(struct page *page)
{
	/*
	 * hugetlbfs pages cannot be split from under us.  If this is a
	 * hugetlbfs page, check refcount on head page and release the page if
	 * the refcount becomes zero.
	 */
	if (PageHuge(page)) {
		page = compound_head(page);
		if (put_page_testzero(page))
			__put_compound_page(page);

		return;
	}

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
	bool got = false;
	struct page *page_head;

	/*
	 * If this is a hugetlbfs page it cannot be split under us.  Simply
	 * increment refcount for the head page.
	 */
	if (PageHuge(page)) {
		page_head = compound_head(page);
		atomic_inc(&page_head->_count);
		got = true;
	} else {
		unsigned long flags;

		page_head = compound_trans_head(page);
		if (likely(page != page_head &&
					get_page_unless_zero(page_head))) {

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
	}
	return got;
}
