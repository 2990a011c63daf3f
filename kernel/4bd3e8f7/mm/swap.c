/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   4bd3e8f7
 * file:      mm/swap.c
 * source:    torvalds/linux mm/swap.c at 4bd3e8f7b94785a6f65665fee21ff3dbc2bf4ef8 (stored,
 *            index id 4935402334), verbatim
 * status:    verbatim
 * holds:     put_compound_page
 * unchanged: put_unrefcounted_compound_page, put_refcounted_compound_page (c747ce79),
 *            __get_page_tail (668f9abb), put_page
 * notes:     Read at the commit on 6 Dec 2026 (put_compound_page compared line by line,
 *            tabs included, with the stored text). The commit is Jianyu Zhan's 'mm/swap.c:
 *            split put_compound_page function' (posted as linux-mm, 29 Apr 2014, '[PATCH
 *            2/3] mm/swap.c: split put_compound_page function', Message-Id
 *            <1fc028045336844fe9ba9ee27c406e6ebe4726f4.1398764420.git.nasa4836@gmail.com>);
 *            its id is the one a list of his merged commits links (linux-mm archive, index
 *            id 44241280929: git.kernel.org ... commit/?id=4bd3e8f7b947...), and the
 *            stored tree at that id has this text. parent: c747ce79.
 */

static void put_compound_page(struct page *page)
{
	struct page *page_head;

	/*
	 * We see the PageCompound set and PageTail not set, so @page maybe:
	 *  1. hugetlbfs head page, or
	 *  2. THP head page.
	 */
	if (likely(!PageTail(page))) {
		if (put_page_testzero(page)) {
			/*
			 * By the time all refcounts have been released
			 * split_huge_page cannot run anymore from under us.
			 */
			if (PageHead(page))
				__put_compound_page(page);
			else
				__put_single_page(page);
		}
		return;
	}

	/*
	 * We see the PageCompound set and PageTail set, so @page maybe:
	 *  1. a tail hugetlbfs page, or
	 *  2. a tail THP page, or
	 *  3. a split THP page.
	 *
	 *  Case 3 is possible, as we may race with
	 *  __split_huge_page_refcount tearing down a THP page.
	 */
	page_head = compound_head(page);
	if (!__compound_tail_refcounted(page_head))
		put_unrefcounted_compound_page(page_head, page);
	else
		put_refcounted_compound_page(page_head, page);
}
