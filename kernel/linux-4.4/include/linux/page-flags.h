/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-4.4
 * file:      include/linux/page-flags.h
 * source:    compound_head: the '+' lines of linux-mm, Kirill A. Shutemov, 3 Sep 2015, '[PATCHv5
 *            5/7] mm: make compound_head() robust', Message-Id
 *            <1441283758-92774-6-git-send-email-kirill.shutemov@linux.intel.com> (archive
 *            sjp38/lore-linux-mm, file m); PageTail, set_compound_head, clear_compound_head,
 *            PageCompound: the same '+' lines, agreeing line for line with the '-' and context
 *            lines of linux-mm, Kirill A. Shutemov, 24 Sep 2015, '[PATCH 02/16] page-flags: move
 *            code around', Message-Id
 *            <1443106264-78075-3-git-send-email-kirill.shutemov@linux.intel.com> (index id
 *            20116939871); PageTail, set_compound_head, clear_compound_head and compound_head
 *            also byte for byte in the 4.5 file torvalds/linux include/linux/page-flags.h at
 *            95ad97554ac8 (index id 1454527893)
 * status:    partial
 * holds:     PageTail, set_compound_head, clear_compound_head, compound_head, PageCompound
 * pending:   PageTail, set_compound_head, clear_compound_head, PageCompound (added 6 Dec 2026;
 *            the linux-4.4 variant is still to come)
 * unchanged: -
 * notes:     compound_head moved from mm.h to page-flags.h; compound_head_by_tail() and
 *            compound_head_fast() are deleted; PG_tail and CONFIG_PAGEFLAGS_EXTENDED are gone:
 *            PageTail() is READ_ONCE(page->compound_head) & 1,
 *            set_compound_head()/clear_compound_head() WRITE_ONCE the word. In the file these
 *            follow __PAGEFLAG(Head, head) CLEARPAGEFLAG(Head, head), in this order.
 *            1d798ca3f16437c71ff63e36597ff07f9c12e4d6 'mm: make compound_head() robust' is
 *            4.4-rc1 (commit page gerrit-public.fairphone.software kernel/msm-4.19);
 *            include/linux/page-flags.h is stored neither at 1d798ca3 nor at v4.4, and the v6
 *            posting was not found. parent: c761471b.
 */

static inline int PageTail(struct page *page)
{
	return READ_ONCE(page->compound_head) & 1;
}

static inline void set_compound_head(struct page *page, struct page *head)
{
	WRITE_ONCE(page->compound_head, (unsigned long)head + 1);
}

static inline void clear_compound_head(struct page *page)
{
	WRITE_ONCE(page->compound_head, 0);
}

static inline struct page *compound_head(struct page *page)
{
	unsigned long head = READ_ONCE(page->compound_head);

	if (unlikely(head & 1))
		return (struct page *) (head - 1);
	return page;
}

static inline int PageCompound(struct page *page)
{
	return PageHead(page) || PageTail(page);

}
