/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   eb709b0d
 * file:      mm/truncate.c
 * source:    dnobori/DN-LinuxKernel-Learn linux-2.6.39/mm/truncate.c, commit
 *            1e37c14c729472f107fb33e1bd4afe6bea0d2f2f (2.6.39 text; eb709b0d does not touch
 *            truncate.c)
 * status:    partial
 * holds:     truncate_complete_page
 * unchanged: truncate_inode_pages_range (relative to the root folder's stored text, which is
 *            2.6.39's)
 * notes:     2.6.39 replaced remove_from_page_cache() + page_cache_release() by
 *            delete_from_page_cache() (Minchan Kim's series, early 2011), which drops the page
 *            cache's reference itself, after ClearPageMappedToDisk(). v3.0's truncate.c was
 *            not found: cleancache was merged for 3.0 and the mmotm posting of that series
 *            (find_string index id 10654076634) shows, after delete_from_page_cache(), a
 *            comment and "cleancache_flush_page(mapping, page);" in this function, so v3.0
 *            may differ from this 2.6.39 text by those lines; UNVERIFIED.
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
