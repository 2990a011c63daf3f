/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.34
 * file:      mm/rmap.c
 * source:    luckasfb/OT_903D-kernel-2.6.35.7 kernel/mm/rmap.c
 *            @ 0fb9ec99c0836cee641c90720887e8cf5c678681 (2.6.35.7, the neighbour; index id
 *            2655414311)
 * status:    partial
 * holds:     __page_set_anon_rmap, page_add_anon_rmap
 * unchanged: every other modelled mm/rmap.c function (kernel/ea90002b, kernel/d0e9fe17,
 *            kernel/5beb4930); mm/mmap.c's vma_adjust is 287d97ac's (kernel/287d97ac)
 * notes:     e8a03feb "rmap: add exclusively owned pages to the newest anon_vma" (Rik van
 *            Riel; committed 19 Apr 2010, the parent of the 2.6.34-rc5 tag commit, both on the
 *            git.zx2c4.com mirror; after ea90002b: its diff, git.zx2c4.com linux-dev
 *            diff/?id=e8a03feb54ca7f1768bbdc2b491f9ef654e6d01d, starts from the index ea90002b
 *            ends at) gave __page_set_anon_rmap its "exclusive" argument (page_add_anon_rmap
 *            passes 0: the chain's last entry, as ea90002b; page_add_new_anon_rmap passes 1:
 *            vma->anon_vma, which no model runs). Both texts are 2.6.35.7's; that 2.6.34 had
 *            them unchanged is UNVERIFIED (288468c3, 2.6.36-rc, is the next change to
 *            __page_set_anon_rmap, whose '-' lines these are).
 */

static void __page_set_anon_rmap(struct page *page,
	struct vm_area_struct *vma, unsigned long address, int exclusive)
{
	struct anon_vma *anon_vma = vma->anon_vma;

	BUG_ON(!anon_vma);

	/*
	 * If the page isn't exclusively mapped into this vma,
	 * we must use the _oldest_ possible anon_vma for the
	 * page mapping!
	 *
	 * So take the last AVC chain entry in the vma, which is
	 * the deepest ancestor, and use the anon_vma from that.
	 */
	if (!exclusive) {
		struct anon_vma_chain *avc;
		avc = list_entry(vma->anon_vma_chain.prev, struct anon_vma_chain, same_vma);
		anon_vma = avc->anon_vma;
	}

	anon_vma = (void *) anon_vma + PAGE_MAPPING_ANON;
	page->mapping = (struct address_space *) anon_vma;
	page->index = linear_page_index(vma, address);
}

void page_add_anon_rmap(struct page *page,
	struct vm_area_struct *vma, unsigned long address)
{
	int first = atomic_inc_and_test(&page->_mapcount);
	if (first)
		__inc_zone_page_state(page, NR_ANON_PAGES);
	if (unlikely(PageKsm(page)))
		return;

	VM_BUG_ON(!PageLocked(page));
	VM_BUG_ON(address < vma->vm_start || address >= vma->vm_end);
	if (first)
		__page_set_anon_rmap(page, vma, address, 0);
	else
		__page_check_anon_rmap(page, vma, address);
}
