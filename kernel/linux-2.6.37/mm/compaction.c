/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.37
 * file:      mm/compaction.c
 * source:    a stored full mm/compaction.c of the 2.6.36/2.6.37 era (find_string index id
 *            464075335; its repository is not named), checked line by line against the
 *            context and '-' lines of three postings made on the 2.6.36/2.6.37-rc file
 *            (blob 4d709ee): Mel Gorman, "[PATCH 1/7] mm: compaction: Add trace events for
 *            memory compaction activity", 22 Nov 2010,
 *            <1290440635-30071-2-git-send-email-mel@csn.ul.ie> (b7aba698, 2.6.38-rc1);
 *            Andrea Arcangeli, "[PATCH 56 of 66] transhuge isolate_migratepages()", 3 Nov 2010,
 *            <deca9009a1afa678b7e0.1288798111@v2.random> (2.6.38); Minchan Kim, "[PATCH]
 *            compaction: fix COMPACTPAGEFAILED counting", 24 Aug 2010,
 *            <1282580114-2136-1-git-send-email-minchan.kim@gmail.com>
 * status:    unverified
 * holds:     isolate_migratepages
 * unchanged: -
 * notes:     No stored v2.6.37 tree has this file: the text is a reconstruction, every line
 *            attested by the full copy and the postings' pre-images. 2.6.37 has none of the
 *            later lines (kernel/eb709b0d/mm/compaction.c holds 2.6.39's): no tracepoint nor
 *            nr_scanned/nr_isolated (2.6.38), no THP PageLRU/PageTransHuge skip nor
 *            VM_BUG_ON(PageTransCompound) (2.6.38), no async MIGRATE_MOVABLE skip (2.6.38),
 *            no cond_resched() nor lock release every SWAP_CLUSTER_MAX pfns (2.6.39): lru_lock
 *            is held, interrupts off, over the whole pageblock. One line is open:
 *            `mem_cgroup_del_lru(page);` after list_add, present in 2.6.35, 2.6.36 and
 *            2.6.37-rc, removed by Minchan Kim's "[PATCH] compaction: Remove
 *            mem_cgroup_del_lru" (7 Dec 2010, <1291734086-1405-1-git-send-email-minchan.kim@gmail.com>;
 *            Andrew Morton tagged it for -stable); mmotm 2011-01-06, against 2.6.37, no longer
 *            carries it, so 2.6.37 most likely lacks the line (its mainline id was not found).
 *            The model leaves memcg out either way.
 */

/*
 * Isolate all pages that can be migrated from the block pointed to by
 * the migrate scanner within compact_control.
 */
static unsigned long isolate_migratepages(struct zone *zone,
					struct compact_control *cc)
{
	unsigned long low_pfn, end_pfn;
	struct list_head *migratelist = &cc->migratepages;

	/* Do not scan outside zone boundaries */
	low_pfn = max(cc->migrate_pfn, zone->zone_start_pfn);

	/* Only scan within a pageblock boundary */
	end_pfn = ALIGN(low_pfn + pageblock_nr_pages, pageblock_nr_pages);

	/* Do not cross the free scanner or scan within a memory hole */
	if (end_pfn > cc->free_pfn || !pfn_valid(low_pfn)) {
		cc->migrate_pfn = end_pfn;
		return 0;
	}

	/*
	 * Ensure that there are not too many pages isolated from the LRU
	 * list by either parallel reclaimers or compaction. If there are,
	 * delay for some time until fewer pages are isolated
	 */
	while (unlikely(too_many_isolated(zone))) {
		congestion_wait(BLK_RW_ASYNC, HZ/10);

		if (fatal_signal_pending(current))
			return 0;
	}

	/* Time to isolate some pages for migration */
	spin_lock_irq(&zone->lru_lock);
	for (; low_pfn < end_pfn; low_pfn++) {
		struct page *page;
		if (!pfn_valid_within(low_pfn))
			continue;

		/* Get the page and skip if free */
		page = pfn_to_page(low_pfn);
		if (PageBuddy(page))
			continue;

		/* Try isolate the page */
		if (__isolate_lru_page(page, ISOLATE_BOTH, 0) != 0)
			continue;

		/* Successfully isolated */
		del_page_from_lru_list(zone, page, page_lru(page));
		list_add(&page->lru, migratelist);
		cc->nr_migratepages++;

		/* Avoid isolating too much */
		if (cc->nr_migratepages == COMPACT_CLUSTER_MAX)
			break;
	}

	acct_isolated(zone, cc);

	spin_unlock_irq(&zone->lru_lock);
	cc->migrate_pfn = low_pfn;

	return cc->nr_migratepages;
}
