/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   5dbe0af4
 * file:      mm/rmap.c
 * source:    torvalds/linux mm/rmap.c at 5dbe0af47f8a8f968bac2991c3ec974c6e3eaabc (stored,
 *            index id 3700931709), verbatim
 * status:    verbatim
 * holds:     do_page_add_anon_rmap
 * unchanged: __page_set_anon_rmap, page_add_anon_rmap (the patch's other hunk is
 *            hugepage_add_anon_rmap, which no model runs)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). The full id is the one the stored tree
 *            answers to at this path; that tree carries the commit's comment ("address
 *            might be in next vma when migration races vma_adjust"), so the id names this
 *            commit; the release stays UNVERIFIED. Before, the source was: Hugh Dickins,
 *            "[PATCH] mm: fix kernel BUG at mm/rmap.c:1017!" (linux-mm, 28 May 2011,
 *            <alpine.LSU.2.00.1105281314220.13319@sister.anvils>, index id 41051930820),
 *            its do_page_add_anon_rmap hunk applied to 3d48ae45's text
 *            (kernel/5f70b962/mm/rmap.c); mainline 5dbe0af47f8a (David Hildenbrand,
 *            <20230913125113.313322-2-david@redhat.com>; a kernel test robot blame,
 *            <202202252038.ij1YGn0d-lkp@intel.com>: "5dbe0af47f8a8f Hugh Dickins
 *            2011-05-28"). Earlier notes (superseded where the text above says otherwise):
 *            AndreiLux/ref-3.10 mm/rmap.c has the same do_page_add_anon_rmap byte for byte
 *            (the helper's comparison); the full id and the release (3.0-rc) UNVERIFIED.
 */

/*
 * Special version of the above for do_swap_page, which often runs
 * into pages that are exclusively owned by the current process.
 * Everybody else should continue to use page_add_anon_rmap above.
 */
void do_page_add_anon_rmap(struct page *page,
	struct vm_area_struct *vma, unsigned long address, int exclusive)
{
	int first = atomic_inc_and_test(&page->_mapcount);
	if (first) {
		if (!PageTransHuge(page))
			__inc_zone_page_state(page, NR_ANON_PAGES);
		else
			__inc_zone_page_state(page,
					      NR_ANON_TRANSPARENT_HUGEPAGES);
	}
	if (unlikely(PageKsm(page)))
		return;

	VM_BUG_ON(!PageLocked(page));
	/* address might be in next vma when migration races vma_adjust */
	if (first)
		__page_set_anon_rmap(page, vma, address, exclusive);
	else
		__page_check_anon_rmap(page, vma, address);
}
