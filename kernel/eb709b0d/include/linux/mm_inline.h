/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   eb709b0d
 * file:      include/linux/mm_inline.h
 * source:    dnobori/DN-LinuxKernel-Learn linux-2.6.39/include/linux/mm_inline.h, commit
 *            1e37c14c729472f107fb33e1bd4afe6bea0d2f2f (2.6.39, eb709b0d's mainline parent
 *            line; eb709b0d does not touch this file)
 * status:    partial
 * holds:     __add_page_to_lru_list, add_page_to_lru_list, del_page_from_lru_list,
 *            del_page_from_lru
 * unchanged: page_lru_base_type, page_lru
 * notes:     2.6.39's text, copied verbatim. That 3.0 has it too: several postings against
 *            3.0/3.1 trees diff this file from blob "index 8f7d247..." and their context and
 *            '-' lines are exactly these functions (e.g. find_string index ids 10327342338,
 *            41568332112); the 2.6.39 blob id itself was not read. Differences from the root
 *            (2.6.37): THP's __add_page_to_lru_list and the __mod_zone_page_state(...,
 *            +-hpage_nr_pages(page)) counts ("[PATCH 63 of 66] fix anon memory statistics
 *            with transparent hugepages", <63f97c307774c2f2ec4b.1288798118@v2.random>).
 */

static inline void
__add_page_to_lru_list(struct zone *zone, struct page *page, enum lru_list l,
		       struct list_head *head)
{
	list_add(&page->lru, head);
	__mod_zone_page_state(zone, NR_LRU_BASE + l, hpage_nr_pages(page));
	mem_cgroup_add_lru_list(page, l);
}

static inline void
add_page_to_lru_list(struct zone *zone, struct page *page, enum lru_list l)
{
	__add_page_to_lru_list(zone, page, l, &zone->lru[l].list);
}

static inline void
del_page_from_lru_list(struct zone *zone, struct page *page, enum lru_list l)
{
	list_del(&page->lru);
	__mod_zone_page_state(zone, NR_LRU_BASE + l, -hpage_nr_pages(page));
	mem_cgroup_del_lru_list(page, l);
}

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
	__mod_zone_page_state(zone, NR_LRU_BASE + l, -hpage_nr_pages(page));
	mem_cgroup_del_lru_list(page, l);
}
