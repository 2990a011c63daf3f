/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.34
 * file:      fs/exec.c
 * source:    the '-' and context lines of the hunks of fs/exec.c blob 725d7ef
 *            (2.6.34-rc7) in <1273188053-26029-3-git-send-email-mel@csn.ul.ie>
 *            (linux-mm, 7 May 2010); the same lines as '-'/context in
 *            <ad7a334318ea379be733.1288798057@v2.random> (linux-mm, 3 Nov 2010,
 *            against 2.6.37-rc: shift_arg_pages unchanged 2.6.34 -> 2.6.37-rc)
 * status:    partial
 * holds:     shift_arg_pages
 * unchanged: (no fs/exec.c text in the older folders)
 * pending:   shift_arg_pages (exec's stack move against the rmap walks: no model yet)
 * notes:     lines 498-502 (header, mm/old_start/old_end), 510-514 (the "ensure there
 *            are no vmas" comment and find_vma test) and 532-550 (tlb_gather_mmu ..
 *            tlb_finish_mmu and the blank line) lie outside every hunk: taken from a
 *            stored fs/exec.c of 2.6.2x in the index (file id 18779933, repository
 *            not named; its shift_arg_pages has the same lines there, only its
 *            vma_adjust calls and "shrink" comment are older). The line counts of
 *            the gaps match the hunk offsets exactly (5, 5 and 19 lines).
 *            Not yet verified against a stored 2.6.34 tree (none found in the index).
 */

/* mmcheck: partial: see notes */
static int shift_arg_pages(struct vm_area_struct *vma, unsigned long shift)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long old_start = vma->vm_start;
	unsigned long old_end = vma->vm_end;
	unsigned long length = old_end - old_start;
	unsigned long new_start = old_start - shift;
	unsigned long new_end = old_end - shift;
	struct mmu_gather *tlb;

	BUG_ON(new_start > new_end);

	/*
	 * ensure there are no vmas between where we want to go
	 * and where we are
	 */
	if (vma != find_vma(mm, new_start))
		return -EFAULT;

	/*
	 * cover the whole range: [new_start, old_end)
	 */
	if (vma_adjust(vma, new_start, old_end, vma->vm_pgoff, NULL))
		return -ENOMEM;

	/*
	 * move the page tables downwards, on failure we rely on
	 * process cleanup to remove whatever mess we made.
	 */
	if (length != move_page_tables(vma, old_start,
				       vma, new_start, length))
		return -ENOMEM;

	lru_add_drain();
	tlb = tlb_gather_mmu(mm, 0);
	if (new_end > old_start) {
		/*
		 * when the old and new regions overlap clear from new_end.
		 */
		free_pgd_range(tlb, new_end, old_end, new_end,
			vma->vm_next ? vma->vm_next->vm_start : 0);
	} else {
		/*
		 * otherwise, clean from old_start; this is done to not touch
		 * the address space in [new_end, old_start) some architectures
		 * have constraints on va-space that make this illegal (IA64) -
		 * for the others its just a little faster.
		 */
		free_pgd_range(tlb, old_start, old_end, new_end,
			vma->vm_next ? vma->vm_next->vm_start : 0);
	}
	tlb_finish_mmu(tlb, new_end, old_end);

	/*
	 * Shrink the vma to just the new range.  Always succeeds.
	 */
	vma_adjust(vma, new_start, new_end, vma->vm_pgoff, NULL);

	return 0;
}
