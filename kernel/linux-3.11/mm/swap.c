/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.11
 * file:      mm/swap.c
 * source:    AndreiLux/ref-3.10 mm/swap.c (3.10; this function is not touched by the backports
 *            it carries).
 * status:    partial
 * holds:     __page_cache_release
 * unchanged: __put_single_page, __put_compound_page, put_page (linux-3.4); put_compound_page,
 *            __get_page_tail (5bf5f03c; the 3.11-rc5 text is confirmed by the context and '-'
 *            lines of linux-mm, Khalid Aziz, 15 Aug 2013, '[RFC PATCH] Fix aio performance
 *            regression for database caused by THP', Message-ID
 *            <1376590389.24607.33.camel@concerto> (against 3.11-rc5, mm/swap.c index
 *            62b78a6..cc8326f) and by the '-' lines of the 27c73ae7 posting)
 * notes:     3.10 text standing for 3.11 (lruvec from 3.5, mem_cgroup_page_lruvec from 3.7);
 *            no stored 3.11 mm/swap.c.
 */

static void __page_cache_release(struct page *page)
{
	if (PageLRU(page)) {
		struct zone *zone = page_zone(page);
		struct lruvec *lruvec;
		unsigned long flags;

		spin_lock_irqsave(&zone->lru_lock, flags);
		lruvec = mem_cgroup_page_lruvec(page, zone);
		VM_BUG_ON(!PageLRU(page));
		__ClearPageLRU(page);
		del_page_from_lru_list(page, lruvec, page_off_lru(page));
		spin_unlock_irqrestore(&zone->lru_lock, flags);
	}
}
