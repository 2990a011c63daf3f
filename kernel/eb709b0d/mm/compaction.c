/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   eb709b0d
 * file:      mm/compaction.c
 * source:    dnobori/DN-LinuxKernel-Learn linux-2.6.39/mm/compaction.c, commit
 *            1e37c14c729472f107fb33e1bd4afe6bea0d2f2f (2.6.39 text; eb709b0d does not touch
 *            compaction.c)
 * status:    unverified
 * holds:     isolate_migratepages
 * unchanged: -
 * notes:     NOT v3.0's text for certain: no 3.0 tree holds this file. What 2.6.38 and 2.6.39
 *            added to the root folder's 2.6.37 text: the tracepoint and its nr_scanned,
 *            nr_isolated (Mel Gorman, <1290440635-30071-2-git-send-email-mel@csn.ul.ie>,
 *            b7aba698), THP's PageLRU/PageTransHuge skip and VM_BUG_ON(PageTransCompound)
 *            (<deca9009a1afa678b7e0.1288798111@v2.random>), the async-compaction
 *            MIGRATE_MOVABLE skip (Mel Gorman, 2.6.38), and the lru_lock release every
 *            SWAP_CLUSTER_MAX pfns and on need_resched()/spin_is_contended() (Andrea
 *            Arcangeli / Mel Gorman, "[PATCH 2/2] mm: compaction: Minimise the time IRQs are
 *            disabled while isolating pages for migration", linux-mm, 25 Feb 2011,
 *            <1298656856-6074-3-git-send-email-mel@csn.ul.ie>, b2eef8c0). 744ed144 (the 2.6.38
 *            merge window) runs the root folder's 2.6.37 text in the model, though its tree
 *            may already have the 2.6.38 lines (which of them preceded it is unverified);
 *            none of them changes what an order-0 page of a synchronous one-frame block sees
 *            (the release on contention between two frames is left out: proofs/lru.soak.md).
 */

/*
 * Isolate all pages that can be migrated from the block pointed to by
 * the migrate scanner within compact_control.
 */
static unsigned long isolate_migratepages(struct zone *zone,
					struct compact_control *cc)
{
	unsigned long low_pfn, end_pfn;
	unsigned long last_pageblock_nr = 0, pageblock_nr;
	unsigned long nr_scanned = 0, nr_isolated = 0;
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
	cond_resched();
	spin_lock_irq(&zone->lru_lock);
	for (; low_pfn < end_pfn; low_pfn++) {
		struct page *page;
		bool locked = true;

		/* give a chance to irqs before checking need_resched() */
		if (!((low_pfn+1) % SWAP_CLUSTER_MAX)) {
			spin_unlock_irq(&zone->lru_lock);
			locked = false;
		}
		if (need_resched() || spin_is_contended(&zone->lru_lock)) {
			if (locked)
				spin_unlock_irq(&zone->lru_lock);
			cond_resched();
			spin_lock_irq(&zone->lru_lock);
			if (fatal_signal_pending(current))
				break;
		} else if (!locked)
			spin_lock_irq(&zone->lru_lock);

		if (!pfn_valid_within(low_pfn))
			continue;
		nr_scanned++;

		/* Get the page and skip if free */
		page = pfn_to_page(low_pfn);
		if (PageBuddy(page))
			continue;

		/*
		 * For async migration, also only scan in MOVABLE blocks. Async
		 * migration is optimistic to see if the minimum amount of work
		 * satisfies the allocation
		 */
		pageblock_nr = low_pfn >> pageblock_order;
		if (!cc->sync && last_pageblock_nr != pageblock_nr &&
				get_pageblock_migratetype(page) != MIGRATE_MOVABLE) {
			low_pfn += pageblock_nr_pages;
			low_pfn = ALIGN(low_pfn, pageblock_nr_pages) - 1;
			last_pageblock_nr = pageblock_nr;
			continue;
		}

		if (!PageLRU(page))
			continue;

		/*
		 * PageLRU is set, and lru_lock excludes isolation,
		 * splitting and collapsing (collapsing has already
		 * happened if PageLRU is set).
		 */
		if (PageTransHuge(page)) {
			low_pfn += (1 << compound_order(page)) - 1;
			continue;
		}

		/* Try isolate the page */
		if (__isolate_lru_page(page, ISOLATE_BOTH, 0) != 0)
			continue;

		VM_BUG_ON(PageTransCompound(page));

		/* Successfully isolated */
		del_page_from_lru_list(zone, page, page_lru(page));
		list_add(&page->lru, migratelist);
		cc->nr_migratepages++;
		nr_isolated++;

		/* Avoid isolating too much */
		if (cc->nr_migratepages == COMPACT_CLUSTER_MAX)
			break;
	}

	acct_isolated(zone, cc);

	spin_unlock_irq(&zone->lru_lock);
	cc->migrate_pfn = low_pfn;

	trace_mm_compaction_isolate_migratepages(nr_scanned, nr_isolated);

	return cc->nr_migratepages;
}
