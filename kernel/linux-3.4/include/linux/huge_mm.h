/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.4
 * file:      include/linux/huge_mm.h
 * source:    the '-' lines of linux-mm/stable, David Rientjes, 28 Mar 2014, '[patch
 *            stable-3.10] mm: close PageTail race' ('commit
 *            668f9abbd4334e6c29fa8acd71635c4f9101caa7 upstream'), Message-ID
 *            <alpine.DEB.2.02.1403281333290.18841@chino.kir.corp.google.com> (3.10-stable
 *            text; the function is whole in the hunk).
 * status:    unverified
 * holds:     compound_trans_head
 * unchanged: (root variant)
 * notes:     3.10 text; no 3.4 copy found. compound_trans_head() dates from 3.1/3.2 and is
 *            believed unchanged up to 3.13 (668f9abb removed it in 3.14); not checked for 3.4.
 *            The !CONFIG_TRANSPARENT_HUGEPAGE '#define compound_trans_head(page)
 *            compound_head(page)' is not the modelled configuration and is not held.
 */

static inline struct page *compound_trans_head(struct page *page)
{
	if (PageTail(page)) {
		struct page *head;
		head = page->first_page;
		smp_rmb();
		/*
		 * head may be a dangling pointer.
		 * __split_huge_page_refcount clears PageTail before
		 * overwriting first_page, so if PageTail is still
		 * there it means the head pointer isn't dangling.
		 */
		if (PageTail(page))
			return head;
	}
	return page;
}
