/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   5beb4930 (the chain era's first variant: texts read as 2.6.34's, stored here;
 *            linux-2.6.34, its child, holds only what 2.6.34-rc changed, see
 *            kernel/5beb4930/mm/mmap.c)
 * file:      mm/mremap.c
 * source:    torvalds/linux mm/mremap.c at 5beb49305251e5669852ed541e8e2f2f7696c53e
 *            (stored, index id 783595483), verbatim
 * status:    verbatim
 * holds:     move_ptes, LATENCY_LIMIT, move_page_tables
 * unchanged: (first variant of this chain: no parent text)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was:
 *            DarkforestGroup/sony-kernel-msm7x30-ics mm/mremap.c, commit
 *            7bca0f2b508fb0ed7943dd9cab19196c2ae44f46 (index file id 26211501523), a vendor
 *            2.6.3x tree (not a mainline tag: it carries mm/mremap.c.orig and a
 *            mm/mremap.c.rej of failed do_mremap hunks), checked hunk by hunk against: the
 *            context of Mel Gorman's "[PATCH 3/3] mm,migration: Remove straggling migration
 *            PTEs when page tables are being moved after the VMA has already moved"
 *            (linux-mm, 27 Apr 2010, <1272403852-10479-4-git-send-email-mel@csn.ul.ie>,
 *            mm/mremap.c blob cde56ee = 2.6.34-rc, @@ -78,10, @@ -111,6, @@ -123,6),
 *            KAMEZAWA Hiroyuki's patch against 2.6.34-rc5-mm1 (linux-mm, 7 May 2010,
 *            <20100507131924.e75db6fc.kamezawa.hiroyu@jp.fujitsu.com>, @@ -128,7, @@
 *            -162,7), and Peter Zijlstra's "[PATCH 3/5] mm: Remove pte_*map_nested()"
 *            (linux-mm, 18 Sep 2010, <20100918155652.756091448@chello.nl>, against
 *            2.6.36-rc, @@ -101,7, @@ -119,7). Earlier notes (superseded where the text
 *            above says otherwise): Line numbers are 2.6.34-rc's (blob cde56ee); the stored
 *            tree has every line one further down (one more #include before <linux/ksm.h>),
 *            at every checked point: move_ptes 71-127, LATENCY_LIMIT 129, move_page_tables
 *            131-163. move_ptes: read in the patches' context/'-' lines: 78-87 ("pte_t
 *            *old_pte" .. " * Subtle point ..."), 101-107 (" * pte locks because ..." ..
 *            "spin_lock_nested(new_ptl, SINGLE_DEPTH_NESTING);", with the " \t" indent of
 *            the pte_offset_map_nested line), 111-116 ("new_pte++, ..." ..
 *            "set_pte_at(...)"), 119-128 ("arch_leave_lazy_mmu_mode();" .. "}"); from the
 *            stored tree only: 71-77 (header, "{", mapping, mm), 88-100 (rest of the Rajesh
 *            comment, mapping =, spin_lock(&mapping->i_mmap_lock), the 3-line
 *            vm_truncate_count test, "}", "", the comment opener, " * We don't have ..."),
 *            108-110 (arch_enter_lazy_mmu_mode, "", "for (..."), 117-118 ("}", ""). The gap
 *            sizes match the hunk offsets of both 2.6.34-rc and 2.6.36-rc.
 *            move_page_tables: the header (131-134), "return len + old_addr - old_end;" and
 *            "}" (162-163) are KAMEZAWA's context; the body (135-161, 27 lines, the count
 *            matching) is the stored tree's; its lines agree with the context and '-' lines
 *            of Andrea Arcangeli's "[PATCH] THP: mremap support and TLB optimization #2"
 *            (linux-mm, 28 Jul 2011, <20110728142631.GI3087@redhat.com>, against a
 *            3.0/3.1-rc mm/mremap.c), except "alloc_new_pmd(vma->vm_mm, new_addr)", which
 *            there has a vma argument (THP's, later than 2.6.34) and "if (!old_pmd)
 *            continue;" and "if (extent > LATENCY_LIMIT)", which fall in no hunk there; a
 *            whole-function copy identical to the stored body is kpatsakis/primevul6
 *            128953.c in the index (version not named). Compared with 3.x (read in
 *            postings; AndreiLux/ref-3.10 holds no mm/mremap.c in the index, and no stored
 *            3.10 mm/mremap.c was found): 3.0/3.1 has mutex_lock(&mapping->i_mmap_mutex)
 *            for i_mmap_lock, no vm_truncate_count test, pte_offset_map/pte_unmap for the
 *            _nested forms; Hugh Dickins's "[PATCH] mm: add anon_vma locking to mremap
 *            move" (linux-mm, 13 Oct 2011,
 *            <alpine.LSU.2.00.1110131629530.1410@sister.anvils>, against 3.1-rc9) adds "if
 *            (anon_vma) anon_vma_lock(anon_vma);" after the file lock and the unlock before
 *            it, and says "It appears that Mel's a8bef8ff6ea1 ... was actually a workaround
 *            for this in the special common case of exec's use of move_pagetables()";
 *            Michel Lespinasse's "[PATCH 7/7] mm: avoid taking rmap locks in move_ptes()"
 *            (linux-mm, 4 Sep 2012, <1346750457-12385-8-git-send-email-walken@google.com>)
 *            adds a "bool need_rmap_locks" parameter and takes i_mmap_mutex and the
 *            anon_vma lock only "if (need_rmap_locks)", citing exec's
 *            is_vma_temporary_stack() as the reason shift_arg_pages can skip them; Andrea's
 *            THP mremap patch (above) moves the mmu notifier calls from move_ptes to
 *            move_page_tables, replaces ptep_clear_flush by ptep_get_and_clear plus one
 *            final flush_tlb_range, and drops the "- 1" of "if (next - 1 > old_end)". Which
 *            releases these went into is not checked here. 2.6.34 move_ptes takes no
 *            anon_vma lock.
 */

/* mmcheck: verbatim: torvalds/linux mm/mremap.c at 5beb49305251 (stored) */
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
		spin_lock(&mapping->i_mmap_lock);
		if (new_vma->vm_truncate_count &&
		    new_vma->vm_truncate_count != vma->vm_truncate_count)
			new_vma->vm_truncate_count = 0;
	}

	/*
	 * We don't have to worry about the ordering of src and dst
	 * pte locks because exclusive mmap_sem prevents deadlock.
	 */
	old_pte = pte_offset_map_lock(mm, old_pmd, old_addr, &old_ptl);
 	new_pte = pte_offset_map_nested(new_pmd, new_addr);
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
	pte_unmap_nested(new_pte - 1);
	pte_unmap_unlock(old_pte - 1, old_ptl);
	if (mapping)
		spin_unlock(&mapping->i_mmap_lock);
	mmu_notifier_invalidate_range_end(vma->vm_mm, old_start, old_end);
}

#define LATENCY_LIMIT	(64 * PAGE_SIZE)

/* mmcheck: verbatim: torvalds/linux mm/mremap.c at 5beb49305251 (stored) */
unsigned long move_page_tables(struct vm_area_struct *vma,
		unsigned long old_addr, struct vm_area_struct *new_vma,
		unsigned long new_addr, unsigned long len)
{
	unsigned long extent, next, old_end;
	pmd_t *old_pmd, *new_pmd;

	old_end = old_addr + len;
	flush_cache_range(vma, old_addr, old_end);

	for (; old_addr < old_end; old_addr += extent, new_addr += extent) {
		cond_resched();
		next = (old_addr + PMD_SIZE) & PMD_MASK;
		if (next - 1 > old_end)
			next = old_end;
		extent = next - old_addr;
		old_pmd = get_old_pmd(vma->vm_mm, old_addr);
		if (!old_pmd)
			continue;
		new_pmd = alloc_new_pmd(vma->vm_mm, new_addr);
		if (!new_pmd)
			break;
		next = (new_addr + PMD_SIZE) & PMD_MASK;
		if (extent > next - new_addr)
			extent = next - new_addr;
		if (extent > LATENCY_LIMIT)
			extent = LATENCY_LIMIT;
		move_ptes(vma, old_pmd, old_addr, old_addr + extent,
				new_vma, new_pmd, new_addr);
	}

	return len + old_addr - old_end;	/* how much done */
}
