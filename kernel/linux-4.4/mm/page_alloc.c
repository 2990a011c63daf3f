/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-4.4
 * file:      mm/page_alloc.c
 * source:    prep_compound_page: torvalds/linux mm/page_alloc.c at
 *            1d798ca3f16437c71ff63e36597ff07f9c12e4d6 (index id 10521662797) with the signature
 *            line of d00181b96eb8 "mm: use unsigned int for page order" (linux-mm, Kirill A.
 *            Shutemov, 15 Sep 2015, [PATCHv6 6/7],
 *            <1442312895-124384-7-git-send-email-kirill.shutemov@linux.intel.com>);
 *            free_tail_pages_check, free_pages_prepare: the same stored file, whole functions
 * status:    partial
 * holds:     prep_compound_page, free_tail_pages_check, free_pages_prepare
 * pending:   prep_compound_page, free_tail_pages_check, free_pages_prepare (the linux-4.4 variant
 *            is still to come)
 * unchanged: -
 * notes:     Read 6 Dec 2026. prep_compound_page as assembled is byte-identical to
 *            scpcom/linux-ayufan-4.4.y (index id 21640362846, comments stripped there, sublevel
 *            unknown). 4.4 has no p->mapping = TAIL_MAPPING (4.5) and no smp_wmb():
 *            set_compound_head() is one WRITE_ONCE of page->compound_head, after
 *            set_page_count(p, 0). destroy_compound_page() no longer exists in 4.4
 *            (free_tail_pages_check() checks each tail at the free).
 */

void prep_compound_page(struct page *page, unsigned int order)
{
	int i;
	int nr_pages = 1 << order;

	set_compound_page_dtor(page, COMPOUND_PAGE_DTOR);
	set_compound_order(page, order);
	__SetPageHead(page);
	for (i = 1; i < nr_pages; i++) {
		struct page *p = page + i;
		set_page_count(p, 0);
		set_compound_head(p, page);
	}
}

static int free_tail_pages_check(struct page *head_page, struct page *page)
{
	int ret = 1;

	/*
	 * We rely page->lru.next never has bit 0 set, unless the page
	 * is PageTail(). Let's make sure that's true even for poisoned ->lru.
	 */
	BUILD_BUG_ON((unsigned long)LIST_POISON1 & 1);

	if (!IS_ENABLED(CONFIG_DEBUG_VM)) {
		ret = 0;
		goto out;
	}
	if (unlikely(!PageTail(page))) {
		bad_page(page, "PageTail not set", 0);
		goto out;
	}
	if (unlikely(compound_head(page) != head_page)) {
		bad_page(page, "compound_head not consistent", 0);
		goto out;
	}
	ret = 0;
out:
	clear_compound_head(page);
	return ret;
}

static bool free_pages_prepare(struct page *page, unsigned int order)
{
	bool compound = PageCompound(page);
	int i, bad = 0;

	VM_BUG_ON_PAGE(PageTail(page), page);
	VM_BUG_ON_PAGE(compound && compound_order(page) != order, page);

	trace_mm_page_free(page, order);
	kmemcheck_free_shadow(page, order);
	kasan_free_pages(page, order);

	if (PageAnon(page))
		page->mapping = NULL;
	bad += free_pages_check(page);
	for (i = 1; i < (1 << order); i++) {
		if (compound)
			bad += free_tail_pages_check(page, page + i);
		bad += free_pages_check(page + i);
	}
	if (bad)
		return false;

	reset_page_owner(page, order);

	if (!PageHighMem(page)) {
		debug_check_no_locks_freed(page_address(page),
					   PAGE_SIZE << order);
		debug_check_no_obj_freed(page_address(page),
					   PAGE_SIZE << order);
	}
	arch_free_page(page, order);
	kernel_map_pages(page, 1 << order, 0);

	return true;
}
