/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   8d63d99a
 * file:      include/linux/mm.h
 * source:    torvalds/linux include/linux/mm.h at 8d63d99a5dfbdb997d12dd3c07b2070ca723db3b
 *            (stored, index id 2912173488), verbatim
 * status:    verbatim
 * holds:     compound_head, __compound_tail_refcounted
 * unchanged: compound_head_by_tail, compound_tail_refcounted, get_huge_page_tail, get_page
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is byte-identical
 *            to the stored text (the functions compared byte for byte with the stored text,
 *            tabs included). Before, the source was: commit
 *            8d63d99a5dfbdb997d12dd3c07b2070ca723db3b 'mm: avoid tail page refcounting on
 *            non-THP compound pages' (Kirill A. Shutemov, 4.1 merge window), commit page
 *            gerrit-public.fairphone.software kernel/msm-4.9 (message); hunk from its
 *            re-submission linux-mm, Kirill A. Shutemov, 28 Apr 2015, '[PATCH 2/2] mm: avoid
 *            tail page refcounting on non-THP compound pages', Message-Id
 *            <1430238298-80442-3-git-send-email-kirill.shutemov@linux.intel.com>;
 *            compound_head's comment from the '-' lines of linux-mm, Kirill A. Shutemov, 12 Feb
 *            2015, '[PATCHv3 12/24] thp: PMD splitting without splitting compound page',
 *            Message-Id <1423757918-197669-13-git-send-email-kirill.shutemov@linux.intel.com>
 *            (archive sjp38/lore-linux-mm, file m). Earlier notes (superseded where the text
 *            above says otherwise): compound_head differs from d2ee40ea only by the comment
 *            above it (added between 3.18 and 4.0 with compound_head_fast(); commit not
 *            identified; since 6 Dec 2026: ccaafd7fd039, Joonsoo Kim, 2015, per its diff page
 *            on git.zx2c4.com/linux-dev; posted as '[PATCH v3 2/2] mm: don't use
 *            compound_head() in virt_to_head_page()', its mainline subject unverified).
 *            Reverted by Linus during the 4.1 merge window (Andrea, 27 Apr 2015: 'Just FYI,
 *            I've done the revert in my tree', quoting Linus) because of the
 *            VM_BUG_ON_PAGE(page_mapcount(page) != 0) in put_unrefcounted_compound_page (sound
 *            driver pages mapped twice with PTEs). parent: d2ee40ea.
 */

/*
 * Since either compound page could be dismantled asynchronously in THP
 * or we access asynchronously arbitrary positioned struct page, there
 * would be tail flag race. To handle this race, we should call
 * smp_rmb() before checking tail flag. compound_head_by_tail() did it.
 */
static inline struct page *compound_head(struct page *page)
{
	if (unlikely(PageTail(page)))
		return compound_head_by_tail(page);
	return page;
}

static inline bool __compound_tail_refcounted(struct page *page)
{
	return PageAnon(page) && !PageSlab(page) && !PageHeadHuge(page);
}
