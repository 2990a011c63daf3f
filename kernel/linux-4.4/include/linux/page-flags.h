/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-4.4
 * file:      include/linux/page-flags.h
 * source:    '+' lines of linux-mm, Kirill A. Shutemov, 3 Sep 2015, '[PATCHv5 5/7] mm:
 *            make compound_head() robust', Message-Id
 *            <1441283758-92774-6-git-send-email-kirill.shutemov@linux.intel.com>
 *            (archive sjp38/lore-linux-mm, file m)
 * status:    partial
 * holds:     compound_head
 * unchanged: -
 * notes:     compound_head moved from mm.h to page-flags.h; compound_head_by_tail() and
 *            compound_head_fast() are deleted; PageTail() is
 *            READ_ONCE(page->compound_head) & 1,
 *            set_compound_head()/clear_compound_head() WRITE_ONCE the word. Assembled:
 *            4.1 text (c761471b) plus 1d798ca3f16437c71ff63e36597ff07f9c12e4d6 'mm:
 *            make compound_head() robust' (4.4-rc1; commit page
 *            gerrit-public.fairphone.software kernel/msm-4.19; text from its v5
 *            posting, the mainline message has one more paragraph than v5, so code
 *            details may differ) and Naoya Horiguchi's __put_compound_page change
 *            (4.1). No stored 4.4 tree was found (find_string for 'page_head !=
 *            compound_head(page), page);' hits only postings). parent: c761471b.
 */

static inline struct page *compound_head(struct page *page)
{
	unsigned long head = READ_ONCE(page->compound_head);

	if (unlikely(head & 1))
		return (struct page *) (head - 1);
	return page;
}
