/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   d0e9fe17
 * file:      mm/rmap.c
 * source:    luckasfb/OT_903D-kernel-2.6.35.7 kernel/mm/rmap.c
 *            @ 0fb9ec99c0836cee641c90720887e8cf5c678681 (2.6.35.7, the neighbour): the body;
 *            the declaration and comment lines are the context of Mel Gorman's V7 hunk of
 *            7 May 2010 (against 2.6.34); the same text as linux-2.6.31's
 * status:    partial
 * holds:     vma_address
 * unchanged: every other modelled mm/rmap.c function (kernel/5beb4930/mm/rmap.c, which holds
 *            the chain era's texts as read in 2.6.34/2.6.35 trees)
 * notes:     fc148a5f "mm: remove VM_LOCK_RMAP code" (Rik van Riel; in 2.6.34, its -rc
 *            UNVERIFIED) took 5beb4930's VM_LOCK_RMAP test out of vma_address: this is 2.6.31's
 *            text again. Stored at d0e9fe17, the first variant after fc148a5f (the mm/mmap.c
 *            of the d0e9fe17 tree has no VM_LOCK_RMAP; its mm/rmap.c is not stored, so this
 *            text is 2.6.35.7's as above), and unchanged in 2.6.34.
 */

/*
 * At what user virtual address is page expected in @vma?
 * Returns virtual address or -EFAULT if page's index/offset is not
 * within the range mapped the @vma.
 */
static inline unsigned long
vma_address(struct page *page, struct vm_area_struct *vma)
{
	pgoff_t pgoff = page->index << (PAGE_CACHE_SHIFT - PAGE_SHIFT);
	unsigned long address;

	address = vma->vm_start + ((pgoff - vma->vm_pgoff) << PAGE_SHIFT);
	if (unlikely(address < vma->vm_start || address >= vma->vm_end)) {
		/* page should be within @vma mapping range */
		return -EFAULT;
	}
	return address;
}
