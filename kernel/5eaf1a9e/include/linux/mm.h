/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   5eaf1a9e
 * file:      include/linux/mm.h
 * source:    torvalds/linux include/linux/mm.h at 5eaf1a9e233d61438377f57facb167f8208ba9fd
 *            (stored, index id 2487210529), verbatim
 * status:    verbatim
 * holds:     get_huge_page_tail
 * unchanged: compound_head, get_page (3.13 text), __compound_tail_refcounted,
 *            compound_tail_refcounted (44518d2b's; compared in the stored tree)
 * notes:     Read at the commit on 6 Dec 2026. Mainline 5eaf1a9e233d 'mm: thp: turn
 *            compound_head() into BUG_ON(!PageTail) in get_huge_page_tail()' (Oleg
 *            Nesterov, author date 2014-01-21 15:49:04 -0800, committed 16:19:43 -0800;
 *            'get_huge_page_tail()->compound_head() looks confusing. Every caller must
 *            check PageTail(page), otherwise atomic_inc(&page->_mapcount) is simply wrong
 *            if this page is compound-trans-head.'; parent c728852f on the commit page
 *            https://git.zx2c4.com/linux-dev/commit/include/linux/debugobjects.h?id=5eaf1a9e233d61438377f57facb167f8208ba9fd).
 *            The last commit of the series to change a modelled function before
 *            v3.14-rc1 but 309381fe (Sasha Levin, VM_BUG_ON -> VM_BUG_ON_PAGE: the same
 *            checks plus a page dump, which the model does not write; no variant).
 *            parent: c728852f.
 */

static inline void get_huge_page_tail(struct page *page)
{
	/*
	 * __split_huge_page_refcount() cannot run from under us.
	 */
	VM_BUG_ON(!PageTail(page));
	VM_BUG_ON(page_mapcount(page) < 0);
	VM_BUG_ON(atomic_read(&page->_count) != 0);
	if (compound_tail_refcounted(page->first_page))
		atomic_inc(&page->_mapcount);
}
