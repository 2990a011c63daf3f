/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.37
 * file:      mm/truncate.c
 * source:    [C] a patch of Minchan Kim's series introducing delete_from_page_cache (linux-mm,
 *                early 2011; signed-off-by Minchan Kim, reviewed-by KAMEZAWA Hiroyuki; its
 *                subject line was not read; find_string index id 10654076634; hunk "@@ -108,13 +108,12 @@ truncate_complete_page(struct
 *                address_space *mapping, struct page *page)", against an mmotm that already
 *                carried cleancache);
 *            [N] dnobori/DN-LinuxKernel-Learn linux-2.6.39/mm/truncate.c, commit
 *                1e37c14c729472f107fb33e1bd4afe6bea0d2f2f (2.6.39 text);
 *            [H] Hugh Dickins, "[PATCH] memcg: more mem_cgroup_uncharge batching", linux-mm,
 *                23 Feb 2011, <alpine.LSU.2.00.1102232139560.2239@sister.anvils>, against
 *                2.6.38-rc6/mm/truncate.c: adds mem_cgroup_uncharge_start()/_end() to
 *                truncate_inode_pages_range's first pass (2.6.39); its pre-image is the
 *                first pass without them;
 *            [T] Dm47021/Jellybear_kernel_2.6.35.14 mm/truncate.c, commit
 *                d7a18a2d01f3eb4c1acbc4f3044f5c70052c73ad (a 2.6.35.14 vendor tree with
 *                cleancache backported): truncate_inode_pages_range's body without those lines,
 *                truncate_inode_page as below.
 * status:    unverified
 * holds:     truncate_complete_page, truncate_inode_page, truncate_inode_pages_range
 * unchanged: -
 * notes:     no 2.6.37 truncate.c was found. truncate_complete_page below is [C]'s pre-image
 *            with its two cleancache lines (the comment and cleancache_flush_page(), which were
 *            in mmotm/linux-next only, not in 2.6.37) left out, and its head from [N]:
 *            written from those texts, not copied from a 2.6.37 file. It is the text the model
 *            mirrors ("2.6.38": remove_from_page_cache(), then page_cache_release() of the page
 *            cache's reference). truncate_inode_pages_range is [N]'s without [H]'s two lines
 *            (a research helper's reading, 6 Dec 2026: [T] and [H]'s pre-image agree on it;
 *            until then this file held [N]'s text with them); truncate_inode_page is [N]'s,
 *            the same in [T] and in a 3.0.x tree (kernel/eb709b0d/mm/truncate.c).
 */

/* mmcheck: unverified: see the file header. */
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
	remove_from_page_cache(page);
	ClearPageMappedToDisk(page);
	page_cache_release(page);	/* pagecache ref */
	return 0;
}

/* mmcheck: unverified: [N]'s text; [T] and a 3.0.x tree have the same. */
int truncate_inode_page(struct address_space *mapping, struct page *page)
{
	if (page_mapped(page)) {
		unmap_mapping_range(mapping,
				   (loff_t)page->index << PAGE_CACHE_SHIFT,
				   PAGE_CACHE_SIZE, 0);
	}
	return truncate_complete_page(mapping, page);
}

/* mmcheck: unverified: [N] without [H]'s two lines of the first pass, as [T] and [H]'s
 * pre-image have it. pagevec_lookup() takes a reference on each page; pagevec_release() ->
 * __pagevec_release() does lru_add_drain() then release_pages(). */
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

	if (mapping->nrpages == 0)
		return;

	BUG_ON((lend & (PAGE_CACHE_SIZE - 1)) != (PAGE_CACHE_SIZE - 1));
	end = (lend >> PAGE_CACHE_SHIFT);

	pagevec_init(&pvec, 0);
	next = start;
	while (next <= end &&
	       pagevec_lookup(&pvec, mapping, next, PAGEVEC_SIZE)) {
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
}
EXPORT_SYMBOL(truncate_inode_pages_range);
