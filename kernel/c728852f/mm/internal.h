/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   c728852f
 * file:      mm/internal.h
 * source:    kernel/44518d2b/mm/internal.h (verbatim at 44518d2b) with the hunk of Oleg
 *            Nesterov's posting applied: LKML, 'mm: thp: __get_page_tail_foll() can use
 *            get_huge_page_tail()', mm/internal.h only, '1 files changed, 1 insertions(+),
 *            4 deletions(-)', https://www.mail-archive.com/linux-kernel@vger.kernel.org/msg556096.html
 * status:    partial
 * holds:     __get_page_tail_foll
 * unchanged: get_page_foll (3.13 text)
 * notes:     mm/internal.h is not stored at this commit. The archive shows the hunk with
 *            tabs turned into spaces: the indentation is 44518d2b's. Cross-check: this
 *            text with 309381fe's one-line VM_BUG_ON -> VM_BUG_ON_PAGE change equals the
 *            stored torvalds/linux mm/internal.h at
 *            309381feaee564281c3d9e90fbca8963bb7428ad byte for byte. Mainline
 *            c728852f5dd4 (Oleg Nesterov, author date 2014-01-21 15:49:02 -0800, committed
 *            16:19:43 -0800; 'Cleanup. Change __get_page_tail_foll() to use
 *            get_huge_page_tail() to avoid the code duplication.'; commit page
 *            https://git.zx2c4.com/linux-dev/commit/include?id=c728852f5dd41ce34e7ce0a179cf28cd5f4dc301).
 *            Its mainline parent is 'mm/hugetlb.c: defer PageHeadHuge() symbol export'
 *            (by subject on the commit page; id UNVERIFIED; it deletes only
 *            EXPORT_SYMBOL_GPL(PageHeadHuge)), whose parent is 26296ad2 (inferred from
 *            the mmotm order and author times). UNVERIFIED: that mainline c728852f
 *            touched no other file. parent (model chain): 26296ad2.
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
	VM_BUG_ON(atomic_read(&page->first_page->_count) <= 0);
	if (get_page_head)
		atomic_inc(&page->first_page->_count);
	get_huge_page_tail(page);
}
