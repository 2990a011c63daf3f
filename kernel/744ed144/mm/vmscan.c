/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   744ed144
 * file:      mm/vmscan.c
 * source:    torvalds/linux mm/vmscan.c at 744ed1442757767ffede5008bb13e0805085902e
 *            (stored, index id 1318829865), verbatim
 * status:    verbatim
 * holds:     putback_lru_pages
 * unchanged: every other vmscan.c function of the root folder, as far as this commit goes
 *            (the posting's only vmscan.c hunk is this one). The tree stored at 744ed144
 *            differs from the root's 2.6.37 texts in THP's hpage_nr_pages() lines of
 *            isolate_lru_pages, clear_active_flags, move_active_pages_to_lru and
 *            shrink_active_list (a THP page counts its pages; the models' pages are small,
 *            and those counters are not modelled); kernel/eb709b0d/mm/vmscan.c holds those
 *            forms. page_evictable, check_move_unevictable_page and
 *            scan_mapping_unevictable_pages compared with the stored tree at this commit,
 *            index id 1318829865, on 7 Dec 2026, comment blocks included: the root's text
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the function compared byte for byte with
 *            the stored text, tabs included; this settles the question below: at 744ed144
 *            putback_lru_pages already has THP's 'int numpages = hpage_nr_pages(page);
 *            reclaim_stat->recent_rotated[file] += numpages;', which replaces the 2.6.37
 *            line '++' here). Compared again by the lru audit against index id 1318829865
 *            (offset ~34000), comment block included: identical. Before, the source was:
 *            Shaohua Li, "[PATCH v2 2/2]mm: batch activate_page() to reduce lock
 *            contention", linux-mm, Wed, 05 Jan 2011 16:00:09 +0800,
 *            <1294214409.1949.573.camel@sli10-conroe>, hunk "@@ -1253,13 +1253,15 @@
 *            putback_lru_pages(struct zone *zone, str" (vmscan.c base dated 2011-01-04),
 *            applied to the 2.6.37 function of the root folder. Earlier notes
 *            (superseded where the text above says otherwise): lines outside the hunk are
 *            the root folder's (2.6.37, itself partial). In the mainline tree 744ed144 was
 *            merged into (the 2.6.38 merge window, after THP), other vmscan.c functions
 *            already had THP's hpage_nr_pages() lines (see the eb709b0d folder); whether
 *            this function's rotated-statistics line was "recent_rotated[file]++" or THP's
 *            "+= numpages" at that commit is UNVERIFIED (settled above: "+= numpages").
 */

/*
 * TODO: Try merging with migrations version of putback_lru_pages
 */
static noinline_for_stack void
putback_lru_pages(struct zone *zone, struct scan_control *sc,
				unsigned long nr_anon, unsigned long nr_file,
				struct list_head *page_list)
{
	struct page *page;
	struct pagevec pvec;
	struct zone_reclaim_stat *reclaim_stat = get_reclaim_stat(zone, sc);

	pagevec_init(&pvec, 1);

	/*
	 * Put back any unfreeable pages.
	 */
	spin_lock(&zone->lru_lock);
	while (!list_empty(page_list)) {
		int lru;
		page = lru_to_page(page_list);
		VM_BUG_ON(PageLRU(page));
		list_del(&page->lru);
		if (unlikely(!page_evictable(page, NULL))) {
			spin_unlock_irq(&zone->lru_lock);
			putback_lru_page(page);
			spin_lock_irq(&zone->lru_lock);
			continue;
		}
		lru = page_lru(page);
		if (is_active_lru(lru)) {
			int file = is_file_lru(lru);
			int numpages = hpage_nr_pages(page);
			reclaim_stat->recent_rotated[file] += numpages;
			if (putback_active_lru_page(zone, page))
				continue;
		}
		SetPageLRU(page);
		add_page_to_lru_list(zone, page, lru);
		if (!pagevec_add(&pvec, page)) {
			spin_unlock_irq(&zone->lru_lock);
			__pagevec_release(&pvec);
			spin_lock_irq(&zone->lru_lock);
		}
	}
	__mod_zone_page_state(zone, NR_ISOLATED_ANON, -nr_anon);
	__mod_zone_page_state(zone, NR_ISOLATED_FILE, -nr_file);

	spin_unlock_irq(&zone->lru_lock);
	pagevec_release(&pvec);
}
