/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.4
 * file:      mm/page_alloc.c
 * source:    AndreiLux/ref-3.10 mm/page_alloc.c (commit
 *            018bce42ef4a2d7ccfe48c05df22591d61f33c38, which carries the 668f9abb backport);
 *            prep_compound_page: its head lines from that file and the rest from the '-' lines
 *            of linux-mm/stable, David Rientjes, 28 Mar 2014, '[patch stable-3.10] mm: close
 *            PageTail race' ('commit 668f9abbd4334e6c29fa8acd71635c4f9101caa7 upstream'),
 *            Message-ID <alpine.DEB.2.02.1403281333290.18841@chino.kir.corp.google.com>;
 *            __free_pages: identical text in an unversioned page_alloc.c of the index (file id
 *            4582795181).
 * status:    unverified
 * holds:     free_compound_page, prep_compound_page, destroy_compound_page, free_pages_check,
 *            check_new_page, prep_new_page, __free_pages
 * unchanged: (root variant)
 * notes:     3.10 texts; no 3.4 mm/page_alloc.c was found. free_pages_check is written as the
 *            3.10 text without 'page_nid_reset_last(page);' (that call came with NUMA
 *            balancing, 3.8): derived, not seen. Not held for 3.4 (no text found):
 *            __free_pages_ok, free_hot_cold_page, bad_page (3.10 __free_pages_ok is in
 *            linux-3.11/).
 */

static void free_compound_page(struct page *page)
{
	__free_pages_ok(page, compound_order(page));
}

void prep_compound_page(struct page *page, unsigned long order)
{
	int i;
	int nr_pages = 1 << order;

	set_compound_page_dtor(page, free_compound_page);
	set_compound_order(page, order);
	__SetPageHead(page);
	for (i = 1; i < nr_pages; i++) {
		struct page *p = page + i;
		__SetPageTail(p);
		set_page_count(p, 0);
		p->first_page = page;
	}
}

/* update __split_huge_page_refcount if you change this function */
static int destroy_compound_page(struct page *page, unsigned long order)
{
	int i;
	int nr_pages = 1 << order;
	int bad = 0;

	if (unlikely(compound_order(page) != order)) {
		bad_page(page);
		bad++;
	}

	__ClearPageHead(page);

	for (i = 1; i < nr_pages; i++) {
		struct page *p = page + i;

		if (unlikely(!PageTail(p) || (p->first_page != page))) {
			bad_page(page);
			bad++;
		}
		__ClearPageTail(p);
	}

	return bad;
}

/* mmcheck: unverified: 3.10 text minus page_nid_reset_last(); no 3.4 text seen */
static inline int free_pages_check(struct page *page)
{
	if (unlikely(page_mapcount(page) |
		(page->mapping != NULL)  |
		(atomic_read(&page->_count) != 0) |
		(page->flags & PAGE_FLAGS_CHECK_AT_FREE) |
		(mem_cgroup_bad_page_check(page)))) {
		bad_page(page);
		return 1;
	}
	if (page->flags & PAGE_FLAGS_CHECK_AT_PREP)
		page->flags &= ~PAGE_FLAGS_CHECK_AT_PREP;
	return 0;
}

static inline int check_new_page(struct page *page)
{
	if (unlikely(page_mapcount(page) |
		(page->mapping != NULL)  |
		(atomic_read(&page->_count) != 0)  |
		(page->flags & PAGE_FLAGS_CHECK_AT_PREP) |
		(mem_cgroup_bad_page_check(page)))) {
		bad_page(page);
		return 1;
	}
	return 0;
}

static int prep_new_page(struct page *page, int order, gfp_t gfp_flags)
{
	int i;

	for (i = 0; i < (1 << order); i++) {
		struct page *p = page + i;
		if (unlikely(check_new_page(p)))
			return 1;
	}

	set_page_private(page, 0);
	set_page_refcounted(page);

	arch_alloc_page(page, order);
	kernel_map_pages(page, 1 << order, 1);

	if (gfp_flags & __GFP_ZERO)
		prep_zero_page(page, order, gfp_flags);

	if (order && (gfp_flags & __GFP_COMP))
		prep_compound_page(page, order);

	return 0;
}

void __free_pages(struct page *page, unsigned int order)
{
	if (put_page_testzero(page)) {
		if (order == 0)
			free_hot_cold_page(page, 0);
		else
			__free_pages_ok(page, order);
	}
}
