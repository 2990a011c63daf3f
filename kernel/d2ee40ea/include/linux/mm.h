/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   d2ee40ea
 * file:      include/linux/mm.h
 * source:    commit d2ee40eae98d8a41ff27dcdd13b1b656c4c1ad00 'mm: introdule
 *            compound_head_by_tail()' (Jianyu Zhan), commit page review.shift-gmbh.com
 *            SHIFTPHONES/android_kernel_shift_sdm845 (message); text from the '-' lines
 *            of linux-mm, Kirill A. Shutemov, 5 Nov 2014, '[PATCH 10/19] thp: PMD
 *            splitting without splitting compound page', Message-Id
 *            <1415198994-15252-11-git-send-email-kirill.shutemov@linux.intel.com>
 *            (archive sjp38/lore-linux-mm, file m)
 * status:    partial
 * holds:     compound_head_by_tail, compound_head
 * unchanged: compound_tail_refcounted, __compound_tail_refcounted, get_huge_page_tail,
 *            get_page
 * notes:     Text as of Nov 2014 (3.18-rc mmotm); the commit message says 'This patch
 *            has no functional change'. parent: 4bd3e8f7
 *            (mainline 4bd3e8f7 'mm/swap.c: split put_compound_page()', the parent its
 *            commit page names).
 */

static inline struct page *compound_head_by_tail(struct page *tail)
{
	struct page *head = tail->first_page;

	/*
	 * page->first_page may be a dangling pointer to an old
	 * compound page, so recheck that it is still a tail
	 * page before returning.
	 */
	smp_rmb();
	if (likely(PageTail(tail)))
		return head;
	return tail;
}

static inline struct page *compound_head(struct page *page)
{
	if (unlikely(PageTail(page)))
		return compound_head_by_tail(page);
	return page;
}
