/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   eb709b0d
 * file:      mm/truncate.c
 * source:    dnobori/DN-LinuxKernel-Learn linux-2.6.39/mm/truncate.c, commit
 *            1e37c14c729472f107fb33e1bd4afe6bea0d2f2f (2.6.39 text; eb709b0d does not touch
 *            truncate.c);
 *            [V] CyanogenMod/android_kernel_samsung_smdk4412 mm/truncate.c, commit
 *            c6da2cfeb05178a11c6d062a06f8078150ee492f (a 3.0.x vendor tree: i_alloc_sem still
 *            there; vendor lines under CONFIG_MACH_P4NOTE in truncate_inode_page, not copied).
 * status:    partial
 * holds:     truncate_complete_page, truncate_inode_pages_range
 * unchanged: truncate_inode_page (relative to the root folder's stored text; [V] has the same
 *            lines besides its vendor ones)
 * notes:     2.6.39 replaced remove_from_page_cache() + page_cache_release() by
 *            delete_from_page_cache() (Minchan Kim's series, early 2011), which drops the page
 *            cache's reference itself, after ClearPageMappedToDisk(). truncate_complete_page
 *            is 2.6.39's and [V]'s (the same lines: no cleancache line in it; the mmotm posting
 *            of the delete_from_page_cache series, find_string index id 10654076634, had
 *            put cleancache_flush_page() there, the merged cleancache hooks did not).
 *            truncate_inode_pages_range is [V]'s, 3.0: 2.6.39's (Hugh Dickins'
 *            mem_cgroup_uncharge_start()/_end() in the first pass,
 *            <alpine.LSU.2.00.1102232139560.2239@sister.anvils>) plus cleancache's
 *            cleancache_flush_inode(mapping) at both ends (Dan Magenheimer, "[PATCH V8 4/8]
 *            mm/fs: add hooks to support cleancache", <20110414211732.GA27761@ca-server1.us.oracle.com>,
 *            in 3.0: [V] has them). Whether eb709b0d's own tree already had the cleancache lines
 *            (both landed in the 3.0 merge window) is unverified; without a cleancache backend
 *            they do nothing.
 */

/*
 * If truncate cannot remove the fs-private metadata from the page, the page
 * becomes orphaned.  It will be left on the LRU and may even be mapped into
 * user pagetables if we're racing with filemap_fault().
 *
 * We need to bale out if page->mapping is no longer equal to the original
 * mapping.  This happens a) when the VM reclaimed the page while we waited on
 * its lock, b) when a concurrent invalidate_mapping_pages got there first and
 * c) when tmpfs swizzles a page between a tmpfs inode and swapper_space.
 */
static int
truncate_complete_page(struct address_space *mapping, struct page *page)
{
	if (page->mapping != mapping)
		return -EIO;

	if (page_has_private(page))
		do_invalidatepage(page, 0);

	cancel_dirty_page(page, PAGE_CACHE_SIZE);

	clear_page_mlock(page);
	ClearPageMappedToDisk(page);
	delete_from_page_cache(page);
	return 0;
}

/* mmcheck: partial: [V]'s text (3.0.x). */
/**
 * truncate_inode_pages - truncate range of pages specified by start & end byte offsets
 * @mapping: mapping to truncate
 * @lstart: offset from which to truncate
 * @lend: offset to which to truncate
 *
 * Truncate the page cache, removing the pages that are between
 * specified offsets (and zeroing out partial page
 * (if lstart is not page aligned)).
 *
 * Truncate takes two passes - the first pass is nonblocking.  It will not
 * block on page locks and it will not block on writeback.  The second pass
 * will wait.  This is to prevent as much IO as possible in the affected region.
 * The first pass will remove most pages, so the search cost of the second pass
 * is low.
 *
 * When looking at page->index outside the page lock we need to be careful to
 * copy it into a local to avoid races (it could change at any time).
 *
 * We pass down the cache-hot hint to the page freeing code.  Even if the
 * mapping is large, it is probably the case that the final pages are the most
 * recently touched, and freeing happens in ascending file offset order.
 */
void truncate_inode_pages_range(struct address_space *mapping,
				loff_t lstart, loff_t lend)
{
	const pgoff_t start = (lstart + PAGE_CACHE_SIZE-1) >> PAGE_CACHE_SHIFT;
	pgoff_t end;
	const unsigned partial = lstart & (PAGE_CACHE_SIZE - 1);
	struct pagevec pvec;
	pgoff_t next;
	int i;

	cleancache_flush_inode(mapping);
	if (mapping->nrpages == 0)
		return;

	BUG_ON((lend & (PAGE_CACHE_SIZE - 1)) != (PAGE_CACHE_SIZE - 1));
	end = (lend >> PAGE_CACHE_SHIFT);

	pagevec_init(&pvec, 0);
	next = start;
	while (next <= end &&
	       pagevec_lookup(&pvec, mapping, next, PAGEVEC_SIZE)) {
		mem_cgroup_uncharge_start();
		for (i = 0; i < pagevec_count(&pvec); i++) {
			struct page *page = pvec.pages[i];
			pgoff_t page_index = page->index;

			if (page_index > end) {
				next = page_index;
				break;
			}

			if (page_index > next)
				next = page_index;
			next++;
			if (!trylock_page(page))
				continue;
			if (PageWriteback(page)) {
				unlock_page(page);
				continue;
			}
			truncate_inode_page(mapping, page);
			unlock_page(page);
		}
		pagevec_release(&pvec);
		mem_cgroup_uncharge_end();
		cond_resched();
	}

	if (partial) {
		struct page *page = find_lock_page(mapping, start - 1);
		if (page) {
			wait_on_page_writeback(page);
			truncate_partial_page(page, partial);
			unlock_page(page);
			page_cache_release(page);
		}
	}

	next = start;
	for ( ; ; ) {
		cond_resched();
		if (!pagevec_lookup(&pvec, mapping, next, PAGEVEC_SIZE)) {
			if (next == start)
				break;
			next = start;
			continue;
		}
		if (pvec.pages[0]->index > end) {
			pagevec_release(&pvec);
			break;
		}
		mem_cgroup_uncharge_start();
		for (i = 0; i < pagevec_count(&pvec); i++) {
			struct page *page = pvec.pages[i];

			if (page->index > end)
				break;
			lock_page(page);
			wait_on_page_writeback(page);
			truncate_inode_page(mapping, page);
			if (page->index > next)
				next = page->index;
			next++;
			unlock_page(page);
		}
		pagevec_release(&pvec);
		mem_cgroup_uncharge_end();
	}
	cleancache_flush_inode(mapping);
}
EXPORT_SYMBOL(truncate_inode_pages_range);
