/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.4
 * file:      mm/rmap.c
 * source:    tcreech/tilegx-linux-3.4.68-politestackrehome, mm/rmap.c at
 *            b751ba88061966cc6458ecf72e31eebba19392ab (index file id 29124061949), a 3.4.68
 *            research tree (Makefile at the same commit: 3.4.68)
 * status:    partial
 * holds:     page_add_new_anon_rmap
 * unchanged: (root variant)
 * notes:     Not a mainline tree: its CONFIG_HOMECACHE hunks are elsewhere in rmap.c (none
 *            inside this function); no second 3.4 copy of mm/rmap.c was found to cross-check.
 *            page_remove_rmap is held by linux-3.11 only (its text here is not stored).
 *            Read 6 Dec 2026.
 */

/**
 * page_add_new_anon_rmap - add pte mapping to a new anonymous page
 * @page:	the page to add the mapping to
 * @vma:	the vm area in which the mapping is added
 * @address:	the user virtual address mapped
 *
 * Same as page_add_anon_rmap but must only be called on *new* pages.
 * This means the inc-and-test can be bypassed.
 * Page does not have to be locked.
 */
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
	if (page_evictable(page, vma))
		lru_cache_add_lru(page, LRU_ACTIVE_ANON);
	else
		add_page_to_unevictable_list(page);
}
