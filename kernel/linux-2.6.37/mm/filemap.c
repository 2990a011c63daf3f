/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.37
 * file:      mm/filemap.c
 * source:    [F39] dnobori/DN-LinuxKernel-Learn linux-2.6.39/mm/filemap.c, commit
 *                  1e37c14c729472f107fb33e1bd4afe6bea0d2f2f (vanilla 2.6.39; stored, index
 *                  id 35677094467);
 *            [F30] 1299030893/linux-3.0.27 mm/filemap.c, commit
 *                  e0f8a7f442dec7717804f9e80e73216c39b735a1 (3.0.27; stored, index id
 *                  4152552801);
 *            [F38] a vendor tree of about 2.6.38 (Intel MIC; find_string index id
 *                  31530644290, no repository named);
 *            [MS26] Miklos Szeredi, "[patch 3/8] mm: rotate_reclaimable_page() cleanup",
 *                  linux-mm, 17 Mar 2008, <20080317191944.208962764@szeredi.hu> (the 2.6.26
 *                  cycle): its '+' lines are this text.
 * status:    unverified
 * holds:     end_page_writeback
 * unchanged: -
 * notes:     no 2.6.36-2.6.38 tree stored in the index holds mm/filemap.c. The function is
 *            byte-identical in [MS26]'s '+' lines (2008), [F38], [F39] and [F30], so it is
 *            BRACKETED for 2.6.37, 744ed144 (2.6.38-rc) and eb709b0d (3.0), none of which
 *            touched mm/filemap.c; the first later change found is Mel Gorman's 2014
 *            replacement of TestClearPageReclaim by PageReclaim + ClearPageReclaim (3.16
 *            era). Its callee test_clear_page_writeback() (mm/page-writeback.c: the mapping's
 *            tree_lock, the radix-tree tag, the bdi and zone writeback counts around
 *            TestClearPageWriteback) is not mirrored: the model calls TestClearPageWriteback.
 */

/**
 * end_page_writeback - end writeback against a page
 * @page: the page
 */
void end_page_writeback(struct page *page)
{
	if (TestClearPageReclaim(page))
		rotate_reclaimable_page(page);

	if (!test_clear_page_writeback(page))
		BUG();

	smp_mb__after_clear_bit();
	wake_up_page(page, PG_writeback);
}
