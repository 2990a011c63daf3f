/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-4.4
 * file:      include/linux/mm.h
 * source:    '+' line of linux-mm, Kirill A. Shutemov, 3 Sep 2015, '[PATCHv5 5/7] mm:
 *            make compound_head() robust', Message-Id
 *            <1441283758-92774-6-git-send-email-kirill.shutemov@linux.intel.com>
 *            applied to the '-' text of linux-mm, Kirill A. Shutemov, 12 Feb 2015,
 *            '[PATCHv3 12/24] thp: PMD splitting without splitting compound page',
 *            Message-Id
 *            <1423757918-197669-13-git-send-email-kirill.shutemov@linux.intel.com>;
 *            __compound_tail_refcounted as in linux-mm, Kirill A. Shutemov, 3 Jun 2015,
 *            '[PATCHv6 13/36] mm: drop tail page refcounting', Message-Id
 *            <1433351167-125878-14-git-send-email-kirill.shutemov@linux.intel.com>
 *            (archive sjp38/lore-linux-mm, file m)
 * status:    partial
 * holds:     get_huge_page_tail
 * unchanged: __compound_tail_refcounted (8d63d99a/c761471b), compound_tail_refcounted,
 *            get_page (668f9abb); compound_head and compound_head_by_tail are no longer
 *            in this file (see page-flags.h)
 * notes:     Assembled: 4.1 text (c761471b) plus
 *            1d798ca3f16437c71ff63e36597ff07f9c12e4d6 'mm: make compound_head() robust'
 *            (4.4-rc1; commit page gerrit-public.fairphone.software kernel/msm-4.19;
 *            text from its v5 posting, the mainline message has one more paragraph than
 *            v5, so code details may differ) and Naoya Horiguchi's __put_compound_page
 *            change (4.1). No stored 4.4 tree was found (find_string for 'page_head !=
 *            compound_head(page), page);' hits only postings). parent: c761471b.
 */

static inline void get_huge_page_tail(struct page *page)
{
	/*
	 * __split_huge_page_refcount() cannot run from under us.
	 */
	VM_BUG_ON_PAGE(!PageTail(page), page);
	VM_BUG_ON_PAGE(page_mapcount(page) < 0, page);
	VM_BUG_ON_PAGE(atomic_read(&page->_count) != 0, page);
	if (compound_tail_refcounted(compound_head(page)))
		atomic_inc(&page->_mapcount);
}
