/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-4.4
 * file:      mm/internal.h
 * source:    hunk of linux-mm, Kirill A. Shutemov, 3 Sep 2015, '[PATCHv5 5/7] mm: make
 *            compound_head() robust', Message-Id
 *            <1441283758-92774-6-git-send-email-kirill.shutemov@linux.intel.com>
 *            (archive sjp38/lore-linux-mm, file m)
 * status:    partial
 * holds:     __get_page_tail_foll
 * unchanged: get_page_foll (668f9abb)
 * notes:     Assembled: 4.1 text (c761471b) plus
 *            1d798ca3f16437c71ff63e36597ff07f9c12e4d6 'mm: make compound_head() robust'
 *            (4.4-rc1; commit page gerrit-public.fairphone.software kernel/msm-4.19;
 *            text from its v5 posting, the mainline message has one more paragraph than
 *            v5, so code details may differ) and Naoya Horiguchi's __put_compound_page
 *            change (4.1). No stored 4.4 tree was found (find_string for 'page_head !=
 *            compound_head(page), page);' hits only postings). parent: c761471b.
 */

static inline void __get_page_tail_foll(struct page *page,
					bool get_page_head)
{
	/*
	 * If we're getting a tail page, the elevated page->_count is
	 * required only in the head page and we will elevate the head
	 * page->_count and tail page->_mapcount.
	 *
	 * We elevate page_tail->_mapcount for tail pages to force
	 * page_tail->_count to be zero at all times to avoid getting
	 * false positives from get_page_unless_zero() with
	 * speculative page access (like in
	 * page_cache_get_speculative()) on tail pages.
	 */
	VM_BUG_ON_PAGE(atomic_read(&compound_head(page)->_count) <= 0, page);
	if (get_page_head)
		atomic_inc(&compound_head(page)->_count);
	get_huge_page_tail(page);
}
