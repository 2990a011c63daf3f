/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   d2ee40ea
 * file:      mm/swap.c
 * source:    torvalds/linux mm/swap.c at d2ee40eae98d8a41ff27dcdd13b1b656c4c1ad00 (stored,
 *            index id 5638390637), verbatim
 * status:    verbatim
 * holds:     put_compound_page
 * unchanged: put_unrefcounted_compound_page, put_refcounted_compound_page (c747ce79),
 *            __get_page_tail, put_page
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is byte-identical
 *            to the stored text (the functions compared byte for byte with the stored text,
 *            tabs included). Before, the source was: '-' lines of linux-mm, Kirill A. Shutemov,
 *            12 Feb 2015, '[PATCHv3 12/24] thp: PMD splitting without splitting compound page',
 *            Message-Id <1423757918-197669-13-git-send-email-kirill.shutemov@linux.intel.com>
 *            and of linux-mm, Kirill A. Shutemov, 5 Nov 2014, '[PATCH 10/19] thp: PMD splitting
 *            without splitting compound page', Message-Id
 *            <1415198994-15252-11-git-send-email-kirill.shutemov@linux.intel.com>; the
 *            compound_head -> compound_head_by_tail line per the posting of this patch (index
 *            id 15337258720) (archive sjp38/lore-linux-mm, file m). Earlier notes (superseded
 *            where the text above says otherwise): Holds also the change of Jianyu Zhan's
 *            'mm/swap.c: split put_compound_page function' (posted 29 Apr 2014, linux-mm,
 *            Jianyu Zhan, 29 Apr 2014, '[PATCH 2/3] mm/swap.c: split put_compound_page
 *            function', Message-Id
 *            <1fc028045336844fe9ba9ee27c406e6ebe4726f4.1398764420.git.nasa4836@gmail.com>;
 *            mainline id NOT found), which made put_compound_page call the two helpers; this
 *            commit then replaced compound_head() by compound_head_by_tail() there. parent:
 *            c747ce79. Update (6 Dec 2026, superseding the above where it differs): 'mm/swap.c:
 *            split put_compound_page()' is mainline 4bd3e8f7b94785a6f65665fee21ff3dbc2bf4ef8
 *            (commit page git.zx2c4.com/linux-dev, parent of this commit) and has its own
 *            folder (kernel/4bd3e8f7/, verbatim) and variant: this commit's change to
 *            put_compound_page is the compound_head -> compound_head_by_tail line. parent:
 *            4bd3e8f7.
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
	page_head = compound_head_by_tail(page);
	if (!__compound_tail_refcounted(page_head))
		put_unrefcounted_compound_page(page_head, page);
	else
		put_refcounted_compound_page(page_head, page);
}
