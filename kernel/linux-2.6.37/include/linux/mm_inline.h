/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.37
 * file:      include/linux/mm_inline.h
 * source:    postings whose pre-image is the pre-THP (2.6.37) header, linux-mm archive
 *            (sjp38/lore-linux-mm):
 *            [T63] Rik van Riel / Andrea Arcangeli, "[PATCH 63 of 66] fix anon memory
 *                  statistics with transparent hugepages", Wed, 03 Nov 2010 16:28:38 +0100,
 *                  <63f97c307774c2f2ec4b.1288798118@v2.random>;
 *            [T04] Andrea Arcangeli's reply in the THP v6 review quoting the hunk that adds
 *                  __add_page_to_lru_list (index id 13125560341 of the find_string index; it
 *                  quotes '-' lines "list_add(&page->lru, &zone->lru[l].list);
 *                  __inc_zone_state(zone, NR_LRU_BASE + l); mem_cgroup_add_lru_list(page, l);");
 *            [N] dnobori/DN-LinuxKernel-Learn linux-2.6.39/include/linux/mm_inline.h,
 *                commit 1e37c14c729472f107fb33e1bd4afe6bea0d2f2f.
 * status:    partial
 * holds:     add_page_to_lru_list, del_page_from_lru_list, page_lru_base_type,
 *            del_page_from_lru, page_lru
 * unchanged: -
 * notes:     2.6.37 has no __add_page_to_lru_list (THP added it, 2.6.38) and counts with
 *            __inc_zone_state/__dec_zone_state (THP changed them to __mod_zone_page_state(...,
 *            +-hpage_nr_pages(page))). page_lru_base_type and page_lru are [N]'s (not
 *            touched by any THP hunk read).
 */

/* mmcheck: partial: [T04]'s context and '-' lines. */
static inline void
add_page_to_lru_list(struct zone *zone, struct page *page, enum lru_list l)
{
	list_add(&page->lru, &zone->lru[l].list);
	__inc_zone_state(zone, NR_LRU_BASE + l);
	mem_cgroup_add_lru_list(page, l);
}

/* mmcheck: partial: [T63] hunk "@@ -38,7 +40,7 @@ static inline void": context and '-' line. */
static inline void
del_page_from_lru_list(struct zone *zone, struct page *page, enum lru_list l)
{
	list_del(&page->lru);
	__dec_zone_state(zone, NR_LRU_BASE + l);
	mem_cgroup_del_lru_list(page, l);
}

/* mmcheck: unverified: [N] only. */
/**
 * page_lru_base_type - which LRU list type should a page be on?
 * @page: the page to test
 *
 * Used for LRU list index arithmetic.
 *
 * Returns the base LRU type - file or anon - @page should be on.
 */
static inline enum lru_list page_lru_base_type(struct page *page)
{
	if (page_is_file_cache(page))
		return LRU_INACTIVE_FILE;
	return LRU_INACTIVE_ANON;
}

/* mmcheck: partial: the tail from "l += LRU_ACTIVE;" is [T63]'s hunk "@@ -73,7 +75,7 @@
 * del_page_from_lru(struct zone *zone, str" (context and '-' line); the head is [N]'s. */
static inline void
del_page_from_lru(struct zone *zone, struct page *page)
{
	enum lru_list l;

	list_del(&page->lru);
	if (PageUnevictable(page)) {
		__ClearPageUnevictable(page);
		l = LRU_UNEVICTABLE;
	} else {
		l = page_lru_base_type(page);
		if (PageActive(page)) {
			__ClearPageActive(page);
			l += LRU_ACTIVE;
		}
	}
	__dec_zone_state(zone, NR_LRU_BASE + l);
	mem_cgroup_del_lru_list(page, l);
}

/* mmcheck: unverified: [N] only. */
/**
 * page_lru - which LRU list should a page be on?
 * @page: the page to test
 *
 * Returns the LRU list a page should be on, as an index
 * into the array of LRU lists.
 */
static inline enum lru_list page_lru(struct page *page)
{
	enum lru_list lru;

	if (PageUnevictable(page))
		lru = LRU_UNEVICTABLE;
	else {
		lru = page_lru_base_type(page);
		if (PageActive(page))
			lru += LRU_ACTIVE;
	}

	return lru;
}
