/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.1
 * file:      mm/mremap.c
 * source:    the '-' and context lines of Andrea Arcangeli's "[PATCH 2 of 3] mremap:
 *            avoid sending one IPI per page" (linux-mm, Sat 6 Aug 2011,
 *            <cbe9e822c59a912e9f76.1312649884@localhost>; hunks @@ -80,11, @@ -111,7,
 *            @@ -123,7 of move_ptes, against a 3.0/3.1-rc mm/mremap.c)
 * status:    partial
 * holds:     move_ptes
 * unchanged: (first variant of this chain: no parent text)
 * notes:     lines 91-110 and 118-122 are in no hunk of that patch. They are taken
 *            from: the '-' lines of Michel Lespinasse's "[PATCH 7/7] mm: avoid taking
 *            rmap locks in move_ptes()" (linux-mm, 4 Sep 2012,
 *            <1346750457-12385-8-git-send-email-walken@google.com>) for the vm_file
 *            block (comment, f_mapping, mutex_lock(&mapping->i_mmap_mutex)); the
 *            context of his "[PATCH 3/7] mm anon rmap: remove anon_vma_moveto_tail"
 *            (<1346750457-12385-4-...>) for "pte_unmap(new_pte - 1);"; the '+' side
 *            of the 2.6.37 "remove pte_*map_nested()" patch (index file 13568066321)
 *            for "new_pte = pte_offset_map(new_pmd, new_addr);" and the ptl lines.
 *            The gap sizes (20 and 5 lines) match the hunk offsets. That this is
 *            exactly 3.1's text (and not 3.0's or a 3.1-rc's) is UNVERIFIED: the
 *            Aug 2011 patch names no base; 7b6efc2b (its mainline form) is believed
 *            to be 3.2.
 */

/* mmcheck: partial: see notes */
static void move_ptes(struct vm_area_struct *vma, pmd_t *old_pmd,
		unsigned long old_addr, unsigned long old_end,
		struct vm_area_struct *new_vma, pmd_t *new_pmd,
		unsigned long new_addr)
{
	struct address_space *mapping = NULL;
	struct mm_struct *mm = vma->vm_mm;
	pte_t *old_pte, *new_pte, pte;
	spinlock_t *old_ptl, *new_ptl;
	unsigned long old_start;

	old_start = old_addr;
	mmu_notifier_invalidate_range_start(vma->vm_mm,
					    old_start, old_end);
	if (vma->vm_file) {
		/*
		 * Subtle point from Rajesh Venkatasubramanian: before
		 * moving file-based ptes, we must lock truncate_pagecache
		 * out, since it might clean the dst vma before the src vma,
		 * and we propagate stale pages into the dst afterward.
		 */
		mapping = vma->vm_file->f_mapping;
		mutex_lock(&mapping->i_mmap_mutex);
	}

	/*
	 * We don't have to worry about the ordering of src and dst
	 * pte locks because exclusive mmap_sem prevents deadlock.
	 */
	old_pte = pte_offset_map_lock(mm, old_pmd, old_addr, &old_ptl);
	new_pte = pte_offset_map(new_pmd, new_addr);
	new_ptl = pte_lockptr(mm, new_pmd);
	if (new_ptl != old_ptl)
		spin_lock_nested(new_ptl, SINGLE_DEPTH_NESTING);
	arch_enter_lazy_mmu_mode();

	for (; old_addr < old_end; old_pte++, old_addr += PAGE_SIZE,
				   new_pte++, new_addr += PAGE_SIZE) {
		if (pte_none(*old_pte))
			continue;
		pte = ptep_clear_flush(vma, old_addr, old_pte);
		pte = move_pte(pte, new_vma->vm_page_prot, old_addr, new_addr);
		set_pte_at(mm, new_addr, new_pte, pte);
	}

	arch_leave_lazy_mmu_mode();
	if (new_ptl != old_ptl)
		spin_unlock(new_ptl);
	pte_unmap(new_pte - 1);
	pte_unmap_unlock(old_pte - 1, old_ptl);
	if (mapping)
		mutex_unlock(&mapping->i_mmap_mutex);
	mmu_notifier_invalidate_range_end(vma->vm_mm, old_start, old_end);
}
