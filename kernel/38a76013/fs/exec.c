/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   38a76013
 * file:      fs/exec.c
 * source:    Michel Lespinasse, "[PATCH 7/7] mm: avoid taking rmap locks in move_ptes()"
 *            (linux-mm, Tue 4 Sep 2012, <1346750457-12385-8-git-send-email-walken@google.com>;
 *            fs/exec.c index da27b91ff1e8..f7b4009ea327, hunk @@ -613,7 +613,7 @@: the
 *            '+' line and its context); outside the hunk: a stored shift_arg_pages with the
 *            same '+' line, comments stripped (index id 12343435156, repository not named)
 * status:    partial
 * holds:     shift_arg_pages
 * unchanged: __bprm_mm_init, setup_arg_pages (the patch does not touch them; the chain's
 *            texts are a8bef8ff's, kernel/012f1800/fs/exec.c, as for 108d6642: their
 *            VM_STACK_INCOMPLETE_SETUP lines, the ones modelled, are in linux-3.0.27's fs/exec.c
 *            (index id 4249124054); the rest of both functions is not checked at 3.6/3.7, where
 *            later trees differ (BUILD_BUG_ON for the BUG_ON, start_stack, the argument-size
 *            check))
 * notes:     no torvalds/linux fs/exec.c is stored at 38a76013 or 108d6642. The stored
 *            text's 2.6.39 on-stack mmu_gather (`struct mmu_gather tlb;`,
 *            `tlb_gather_mmu(&tlb, mm, 0)`, `&tlb`) is followed; the comments are
 *            kernel/5beb4930/fs/exec.c's (the hunk's context confirms one, the others are
 *            UNVERIFIED at 3.6). The models leave the mmu_gather lines out (no TLB, one
 *            page-table level). Release 3.7 inferred, UNVERIFIED.
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
	struct mmu_gather tlb;

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
				       vma, new_start, length, false))
		return -ENOMEM;

	lru_add_drain();
	tlb_gather_mmu(&tlb, mm, 0);
	if (new_end > old_start) {
		/*
		 * when the old and new regions overlap clear from new_end.
		 */
		free_pgd_range(&tlb, new_end, old_end, new_end,
			vma->vm_next ? vma->vm_next->vm_start : 0);
	} else {
		/*
		 * otherwise, clean from old_start; this is done to not touch
		 * the address space in [new_end, old_start) some architectures
		 * have constraints on va-space that make this illegal (IA64) -
		 * for the others its just a little faster.
		 */
		free_pgd_range(&tlb, old_start, old_end, new_end,
			vma->vm_next ? vma->vm_next->vm_start : 0);
	}
	tlb_finish_mmu(&tlb, new_end, old_end);

	/*
	 * Shrink the vma to just the new range.  Always succeeds.
	 */
	vma_adjust(vma, new_start, new_end, vma->vm_pgoff, NULL);

	return 0;
}
