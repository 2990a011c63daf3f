/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   26296ad2
 * file:      mm/hugetlb.c
 * source:    torvalds/linux mm/hugetlb.c at 758f66a29ccc6383353fd395aa04be15e8dea445
 *            (stored, index id 2831897946), verbatim
 * status:    verbatim
 * holds:     PageHuge, PageHeadHuge
 * unchanged: -
 * notes:     Read at 758f66a2 on 6 Dec 2026 (the EXPORT_SYMBOL_GPL lines after each
 *            function are not stored). 758f66a29ccc 'mm/hugetlb.c: simplify
 *            PageHeadHuge() and PageHuge()' (Andrew Morton; posted as 6/8 of the series;
 *            author date 2014-01-21 15:48:57 -0800, committed 16:19:43 -0800; parent
 *            3bfcd13e, commit page
 *            https://git.zx2c4.com/linux-dev/commit/include?id=758f66a29ccc6383353fd395aa04be15e8dea445)
 *            is 26296ad2's mainline parent and no variant of its own (it drops the dtor
 *            local of both functions: the same test); its text is held here, in the
 *            folder of its child, so that 26296ad2 and its descendants align with it.
 *            The next commit, 'mm/hugetlb.c: defer PageHeadHuge() symbol export' (id
 *            UNVERIFIED), deletes only EXPORT_SYMBOL_GPL(PageHeadHuge).
 */

/*
 * PageHuge() only returns true for hugetlbfs pages, but not for normal or
 * transparent huge pages.  See the PageTransHuge() documentation for more
 * details.
 */
int PageHuge(struct page *page)
{
	if (!PageCompound(page))
		return 0;

	page = compound_head(page);
	return get_compound_page_dtor(page) == free_huge_page;
}

/*
 * PageHeadHuge() only returns true for hugetlbfs head page, but not for
 * normal or transparent huge pages.
 */
int PageHeadHuge(struct page *page_head)
{
	if (!PageHead(page_head))
		return 0;

	return get_compound_page_dtor(page_head) == free_huge_page;
}
