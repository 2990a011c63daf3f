/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   44518d2b
 * file:      mm/internal.h
 * source:    torvalds/linux mm/internal.h at 44518d2b32646e37b4b7a0813bbbe98dc21c7f8f
 *            (stored, index id 804009139), verbatim
 * status:    verbatim
 * holds:     __get_page_tail_foll
 * unchanged: get_page_foll (3.13 text)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was: posting: linux-mm,
 *            Andrea Arcangeli, 20 Nov 2013, '[PATCH 5/8] mm: tail page refcounting
 *            optimization for slab and hugetlbfs', Message-Id
 *            <1384969876-6374-6-git-send-email-aarcange@redhat.com>; lines above the hunk
 *            from AndreiLux/ref-3.10 mm/internal.h, commit
 *            45da1f3dda0bfc190f717887054118ef079bf279 (3.10 = 3.13 text of this function).
 *            Earlier notes (superseded where the text above says otherwise): The hunk (@@
 *            -51,7 +51,8 @@) covers the last lines (get_page_head ...
 *            compound_tail_refcounted); the signature, comment and three VM_BUG_ONs are
 *            3.10/3.13's, confirmed by the '-' lines of linux-mm, Sasha Levin, 26 Dec 2013,
 *            '[PATCH] mm: dump page when hitting a VM_BUG_ON using VM_BUG_ON_PAGE',
 *            Message-Id <1388114452-30769-1-git-send-email-sasha.levin@oracle.com>.
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
	VM_BUG_ON(atomic_read(&page->_count) != 0);
	VM_BUG_ON(page_mapcount(page) < 0);
	if (get_page_head)
		atomic_inc(&page->first_page->_count);
	if (compound_tail_refcounted(page->first_page))
		atomic_inc(&page->_mapcount);
}
