/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   ddc58f27
 * file:      include/linux/mm.h
 * source:    torvalds/linux include/linux/mm.h at ddc58f27f9eee9117219936f77e90ad5b2e00e96
 *            (stored, index id 2071862457), verbatim
 * status:    verbatim
 * holds:     get_page, put_page
 * unchanged: compound_head (page-flags.h, linux-4.4)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was: commit
 *            ddc58f27f9eee9117219936f77e90ad5b2e00e96 'mm: drop tail page refcounting'
 *            (Kirill A. Shutemov, 4.5), commit pages gerrit-public.fairphone.software
 *            kernel/msm-4.9 and review.shift-gmbh.com (message, other files); text from
 *            linux-mm, Kirill A. Shutemov, 3 Jun 2015, '[PATCHv6 13/36] mm: drop tail page
 *            refcounting', Message-Id
 *            <1433351167-125878-14-git-send-email-kirill.shutemov@linux.intel.com> (archive
 *            sjp38/lore-linux-mm, file m). Earlier notes (superseded where the text above
 *            says otherwise): Deleted from this file: __compound_tail_refcounted,
 *            compound_tail_refcounted, get_huge_page_tail, __get_page_tail declaration.
 *            put_page() becomes an inline here calling __put_page(). Taken from v6 (Jun
 *            2015); the merged version (Nov 2015, on 4.4-rc) was not seen. The 4.5 release
 *            adds ZONE_DEVICE get/put hooks to both functions in a later commit. parent:
 *            linux-4.4.
 */

static inline void get_page(struct page *page)
{
	page = compound_head(page);
	/*
	 * Getting a normal page or the head of a compound page
	 * requires to already have an elevated page->_count.
	 */
	VM_BUG_ON_PAGE(atomic_read(&page->_count) <= 0, page);
	atomic_inc(&page->_count);
}

static inline void put_page(struct page *page)
{
	page = compound_head(page);
	if (put_page_testzero(page))
		__put_page(page);
}
