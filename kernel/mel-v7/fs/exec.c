/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   mel-v7
 * file:      fs/exec.c
 * source:    linux-mm, Mel Gorman (patch From: Andrea Arcangeli), Fri 7 May 2010
 *            00:20:53 +0100, "[PATCH 2/2] mm,migration: Fix race between
 *            shift_arg_pages and rmap_walk by guaranteeing rmap_walk finds PTEs
 *            created within the temporary stack", Message-Id
 *            <1273188053-26029-3-git-send-email-mel@csn.ul.ie> (series "Fix
 *            migration races in rmap_walk() V7"; hunks against fs/exec.c blob
 *            725d7ef = 2.6.34-rc)
 * status:    partial
 * holds:     shift_arg_pages
 * unchanged: setup_arg_pages (the patch touches only shift_arg_pages and adds #include <linux/rmap.h>)
 * notes:     lines 498-502 (header, mm/old_start/old_end), 510-514 (the "ensure there
 *            are no vmas" comment and find_vma test) and 532-550 (tlb_gather_mmu ..
 *            tlb_finish_mmu and the blank line) lie outside every hunk: taken from a
 *            stored fs/exec.c of 2.6.2x in the index (file id 18779933, repository
 *            not named; its shift_arg_pages has the same lines there, only its
 *            vma_adjust calls and "shrink" comment are older). The line counts of
 *            the gaps match the hunk offsets exactly (5, 5 and 19 lines).
 *            The V6 2/2 (<1273159987-10167-3-...>) is not in the archive; the V7
 *            cover letter, as quoted by KAMEZAWA Hiroyuki (linux-mm, 7 May 2010,
 *            <20100507171310.4c15c4cc.kamezawa.hiroyu@jp.fujitsu.com>), says "No
 *            major change since V6, just looks nicer"; V6's diffstat (fs/exec.c 37
 *            lines) equals V7's. "if (length != moved_length) " keeps the posting's
 *            trailing blank.
 */

/* mmcheck: partial: hunks of <1273188053-26029-3-git-send-email-mel@csn.ul.ie>;
 * lines 498-502, 510-514, 532-550 from a 2.6.2x exec.c (see notes) */
static int shift_arg_pages(struct vm_area_struct *vma, unsigned long shift)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long old_start = vma->vm_start;
	unsigned long old_end = vma->vm_end;
	unsigned long length = old_end - old_start;
	unsigned long new_start = old_start - shift;
	unsigned long new_end = old_end - shift;
	unsigned long moved_length;
	struct mmu_gather *tlb;
	struct vm_area_struct *tmp_vma;

	BUG_ON(new_start > new_end);

	/*
	 * ensure there are no vmas between where we want to go
	 * and where we are
	 */
	if (vma != find_vma(mm, new_start))
		return -EFAULT;

	/*
	 * We need to create a fake temporary vma and index it in the
	 * anon_vma list in order to allow the pages to be reachable
	 * at all times by the rmap walk for migrate, while
	 * move_page_tables() is running.
	 */
	tmp_vma = kmem_cache_alloc(vm_area_cachep, GFP_KERNEL);
	if (!tmp_vma)
		return -ENOMEM;
	*tmp_vma = *vma;
	INIT_LIST_HEAD(&tmp_vma->anon_vma_chain);
	/*
	 * cover the whole range: [new_start, old_end)
	 */
	tmp_vma->vm_start = new_start;
	/*
	 * The tmp_vma destination of the copy (with the new vm_start)
	 * has to be at the end of the anon_vma list for the rmap_walk
	 * to find the moved pages at all times.
	 */
	if (unlikely(anon_vma_clone(tmp_vma, vma))) {
		kmem_cache_free(vm_area_cachep, tmp_vma);
		return -ENOMEM;
	}

	/*
	 * move the page tables downwards, on failure we rely on
	 * process cleanup to remove whatever mess we made.
	 */
	moved_length = move_page_tables(vma, old_start,
					vma, new_start, length);

	vma->vm_start = new_start;
	/* rmap walk will already find all pages using the new_start */
	unlink_anon_vmas(tmp_vma);
	kmem_cache_free(vm_area_cachep, tmp_vma);

	if (length != moved_length) 
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
	vma->vm_end = new_end;

	return 0;
}
