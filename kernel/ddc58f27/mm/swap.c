/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   ddc58f27
 * file:      mm/swap.c
 * source:    torvalds/linux mm/swap.c at ddc58f27f9eee9117219936f77e90ad5b2e00e96 (stored,
 *            index id 2321251537), verbatim
 * status:    verbatim
 * holds:     __put_page
 * unchanged: __put_compound_page (linux-4.4)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was: '+' lines of
 *            linux-mm, Kirill A. Shutemov, 3 Jun 2015, '[PATCHv6 13/36] mm: drop tail page
 *            refcounting', Message-Id
 *            <1433351167-125878-14-git-send-email-kirill.shutemov@linux.intel.com> (archive
 *            sjp38/lore-linux-mm, file m); __put_page also verbatim in a later stored
 *            mm/swap.c (4.8-era, index id 20999477). Earlier notes (superseded where the
 *            text above says otherwise): Deleted: put_unrefcounted_compound_page,
 *            put_refcounted_compound_page, put_compound_page, put_page (now inline in
 *            mm.h), __get_page_tail. mm/internal.h loses __get_page_tail_foll and
 *            get_page_foll (callers use get_page()). parent: linux-4.4.
 */

void __put_page(struct page *page)
{
	if (unlikely(PageCompound(page)))
		__put_compound_page(page);
	else
		__put_single_page(page);
}
