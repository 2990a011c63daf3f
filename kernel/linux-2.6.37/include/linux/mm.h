/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.37
 * file:      include/linux/mm.h
 * source:    Andrea Arcangeli, "[PATCH 06 of 66] alter compound get_page/put_page",
 *            linux-mm, Wed, 03 Nov 2010 16:27:41 +0100,
 *            <a5372413f6faf8c52784.1288798061@v2.random> (THP v6; hunk
 *            "@@ -351,9 +351,17 @@ static inline int page_count(struct page")
 * status:    partial
 * holds:     get_page
 * unchanged: -
 * notes:     the whole function is the hunk's context and '-' lines (pre-THP get_page). The
 *            model's page_cache_get() mirrors 2.6.38's THP get_page for an order-0 page
 *            (VM_BUG_ON(count <= 0)); 2.6.37 checks "== 0" on compound_head(page).
 */

static inline void get_page(struct page *page)
{
	page = compound_head(page);
	VM_BUG_ON(atomic_read(&page->_count) == 0);
	atomic_inc(&page->_count);
}
