/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.1
 * file:      mm/migrate.c
 * source:    Hugh Dickins, "[PATCH] mm: fix race between mremap and removing migration
 *            entry" (linux-mm, Wed 19 Oct 2011,
 *            <alpine.LSU.2.00.1110191243300.6980@sister.anvils>), diff against
 *            "3.1-rc10/mm/migrate.c": its '-' and context lines
 * status:    partial
 * holds:     remove_migration_pte
 * unchanged: (first variant of this chain)
 * notes:     the hunk (@@ -120,10 +120,10 @@) covers only the peek. The rest is read
 *            from a single-function copy of remove_migration_pte in the index (file id
 *            18867788257, repository not named; an AnghaBench-style extraction of a
 *            3.1-3.7 tree: pgd/pud walk, pmd_trans_huge, the post-486cf46f comment,
 *            CONFIG_HUGETLB_PAGE pte_mkhuge) with one correction: that copy ends
 *            with "update_mmu_cache(vma, addr, pte);" but 3.10
 *            (AndreiLux/ref-3.10 mm/migrate.c, commit 147ee332) and every kernel
 *            since 2.6.34's update_mmu_cache(ptep) change pass "ptep": written as
 *            "ptep" here, UNVERIFIED for 3.1.
 *            This is the pre-486cf46f text (the unlocked is_swap_pte peek), i.e.
 *            3.1-rc10. 3.1 final most likely carries 486cf46f: Linus, linux-mm, 19 Oct
 *            2011, <CA+55aFwU-xwg=5ZDqsA1xwKsjeTT=8uDRygCJoW1ya7-QBitSw@mail.gmail.com>
 *            (index id 46742721784): "applied and pushed out"; Andrea Arcangeli, 5 Nov
 *            2011, <20111104235603.GT18879@redhat.com> (index id 46654324674): "the real
 *            fix for the real bug is the one already merged in kernel v3.1". No stored
 *            v3.1 mm/migrate.c was read: a variant built on this text is "3.1-rc10".
 */

/* mmcheck: partial: see notes */
static int remove_migration_pte(struct page *new, struct vm_area_struct *vma,
				 unsigned long addr, void *old)
{
	struct mm_struct *mm = vma->vm_mm;
	swp_entry_t entry;
 	pgd_t *pgd;
 	pud_t *pud;
 	pmd_t *pmd;
	pte_t *ptep, pte;
 	spinlock_t *ptl;

	if (unlikely(PageHuge(new))) {
		ptep = huge_pte_offset(mm, addr);
		if (!ptep)
			goto out;
		ptl = &mm->page_table_lock;
	} else {
		pgd = pgd_offset(mm, addr);
		if (!pgd_present(*pgd))
			goto out;

		pud = pud_offset(pgd, addr);
		if (!pud_present(*pud))
			goto out;

		pmd = pmd_offset(pud, addr);
		if (pmd_trans_huge(*pmd))
			goto out;
		if (!pmd_present(*pmd))
			goto out;

		ptep = pte_offset_map(pmd, addr);

		if (!is_swap_pte(*ptep)) {
			pte_unmap(ptep);
			goto out;
		}

		ptl = pte_lockptr(mm, pmd);
	}

 	spin_lock(ptl);
	pte = *ptep;
	if (!is_swap_pte(pte))
		goto unlock;

	entry = pte_to_swp_entry(pte);

	if (!is_migration_entry(entry) ||
	    migration_entry_to_page(entry) != old)
		goto unlock;

	get_page(new);
	pte = pte_mkold(mk_pte(new, vma->vm_page_prot));
	if (is_write_migration_entry(entry))
		pte = pte_mkwrite(pte);
#ifdef CONFIG_HUGETLB_PAGE
	if (PageHuge(new))
		pte = pte_mkhuge(pte);
#endif
	flush_cache_page(vma, addr, pte_pfn(pte));
	set_pte_at(mm, addr, ptep, pte);

	if (PageHuge(new)) {
		if (PageAnon(new))
			hugepage_add_anon_rmap(new, vma, addr);
		else
			page_dup_rmap(new);
	} else if (PageAnon(new))
		page_add_anon_rmap(new, vma, addr);
	else
		page_add_file_rmap(new);

	/* No need to invalidate - it was non-present before */
	update_mmu_cache(vma, addr, ptep);
unlock:
	pte_unmap_unlock(ptep, ptl);
out:
	return SWAP_AGAIN;
}
