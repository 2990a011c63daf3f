/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.11
 * file:      mm/rmap.c
 * source:    page_remove_rmap: a function-level extract of a 3.9..3.12 page_remove_rmap in the search index
 *            (file id 30929174596: no s390 storage-key block, MEM_CGROUP_STAT_FILE_MAPPED).
 *            page_add_new_anon_rmap: AndreiLux/ref-3.10, mm/rmap.c at
 *            0c51414c7455f68e1cc2d3efbd2dcc51c7b1ad0c (index file id 3424674185), a 3.10.9
 *            vendor tree (its CONFIG_ZOOM_KILLER hunks are elsewhere in rmap.c, none inside
 *            this function), read 6 Dec 2026
 * status:    partial
 * holds:     page_add_new_anon_rmap, page_remove_rmap
 * unchanged: (no parent holds page_remove_rmap)
 * notes:     Version range of page_remove_rmap inferred from its contents; not checked
 *            against a 3.11 tree. page_add_new_anon_rmap is 3.10.9's (no 3.11 copy found),
 *            without its doc comment (cut in the read); it differs from linux-3.4's in one
 *            line, `if (!mlocked_vma_newpage(vma, page))` for 3.4's
 *            `if (page_evictable(page, vma))`; when that changed was not read (variants between
 *            linux-3.4 and linux-3.11 show 3.4's line).
 */

/* mmcheck: unverified for 3.11 and the variants after it: 3.10.9's text. Mel Gorman's
 * '[PATCH 5/5] mm: Remove lru parameter from __lru_cache_add and lru_cache_add_lru' (linux-mm,
 * 17 May 2013, <1368784087-956-6-git-send-email-mgorman@suse.de>) rewrites its LRU branch to
 * SetPageActive() + lru_cache_add(); its release (3.11?) was not checked. The model leaves that
 * branch out. */
void page_add_new_anon_rmap(struct page *page,
	struct vm_area_struct *vma, unsigned long address)
{
	VM_BUG_ON(address < vma->vm_start || address >= vma->vm_end);
	SetPageSwapBacked(page);
	atomic_set(&page->_mapcount, 0); /* increment count (starts at -1) */
	if (!PageTransHuge(page))
		__inc_zone_page_state(page, NR_ANON_PAGES);
	else
		__inc_zone_page_state(page, NR_ANON_TRANSPARENT_HUGEPAGES);
	__page_set_anon_rmap(page, vma, address, 1);
	if (!mlocked_vma_newpage(vma, page))
		lru_cache_add_lru(page, LRU_ACTIVE_ANON);
	else
		add_page_to_unevictable_list(page);
}

void page_remove_rmap(struct page *page)
{
	bool anon = PageAnon(page);
	bool locked;
	unsigned long flags;

	/*
	 * The anon case has no mem_cgroup page_stat to update; but may
	 * uncharge_page() below, where the lock ordering can deadlock if
	 * we hold the lock against page_stat move: so avoid it on anon.
	 */
	if (!anon)
		mem_cgroup_begin_update_page_stat(page, &locked, &flags);

	/* page still mapped by someone else? */
	if (!atomic_add_negative(-1, &page->_mapcount))
		goto out;

	/*
	 * Hugepages are not counted in NR_ANON_PAGES nor NR_FILE_MAPPED
	 * and not charged by memcg for now.
	 */
	if (unlikely(PageHuge(page)))
		goto out;
	if (anon) {
		mem_cgroup_uncharge_page(page);
		if (PageTransHuge(page))
			__dec_zone_page_state(page,
					      NR_ANON_TRANSPARENT_HUGEPAGES);
		__mod_zone_page_state(page_zone(page), NR_ANON_PAGES,
				-hpage_nr_pages(page));
	} else {
		__dec_zone_page_state(page, NR_FILE_MAPPED);
		mem_cgroup_dec_page_stat(page, MEM_CGROUP_STAT_FILE_MAPPED);
		mem_cgroup_end_update_page_stat(page, &locked, &flags);
	}
	if (unlikely(PageMlocked(page)))
		clear_page_mlock(page);
	/*
	 * It would be tidy to reset the PageAnon mapping here,
	 * but that might overwrite a racing page_add_anon_rmap
	 * which increments mapcount after us but sets mapping
	 * before us: so leave the reset to free_hot_cold_page,
	 * and remember that it's only reliable while mapped.
	 * Leaving it set also helps swapoff to reinstate ptes
	 * faster for those pages still in swapcache.
	 */
	return;
out:
	if (!anon)
		mem_cgroup_end_update_page_stat(page, &locked, &flags);
}
