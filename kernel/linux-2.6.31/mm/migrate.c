/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.31
 * file:      mm/migrate.c
 * source:    linux-mm, 24 Nov 2009, Hugh Dickins, "[PATCH 7/9] ksm: rmap_walk to
 *            remove_migation_ptes", Message-ID <Pine.LNX.4.64.0911241651160.25288@sister.anvils>
 *            (sjp38/lore-linux-mm, index id 22408171534): the '-' and context lines of its
 *            mm/migrate.c hunks ("--- ksm6/mm/migrate.c 2009-11-14", a 2.6.32-rc tree), which
 *            hold remove_anon_migration_ptes and remove_migration_ptes whole and
 *            remove_migration_pte except 9 lines; those 9 lines (old lines 128-136, between
 *            the hunks) are read from luckasfb/OT_903D-kernel-2.6.35.7
 *            kernel/mm/migrate.c @ 0fb9ec99c0836cee641c90720887e8cf5c678681, where the same
 *            lines stand unchanged.
 * status:    partial
 * holds:     remove_migration_pte, remove_anon_migration_ptes, remove_migration_ptes
 * unchanged: (root variant)
 * notes:     The pre-image is 2.6.32-rc7-era, not the 2.6.31 tag: no change to these three
 *            functions between 2.6.31 and 2.6.32 is known, but that is UNVERIFIED.
 *            remove_migration_ptes' header comment is outside the hunks and is left out.
 *            NOT STORED (no 2.6.31 text found): unmap_and_move, move_to_new_page; their 2.6.31
 *            shapes (memcg charge, rcu_locked, try_to_unmap(page, 1), PageKsm absent) differ
 *            from the 2.6.35 text, which is therefore not usable here.
 */

/*
 * Restore a potential migration pte to a working pte entry
 */
static void remove_migration_pte(struct vm_area_struct *vma,
		struct page *old, struct page *new)
{
	struct mm_struct *mm = vma->vm_mm;
	swp_entry_t entry;
 	pgd_t *pgd;
 	pud_t *pud;
 	pmd_t *pmd;
	pte_t *ptep, pte;
 	spinlock_t *ptl;
	unsigned long addr = page_address_in_vma(new, vma);

	if (addr == -EFAULT)
		return;

 	pgd = pgd_offset(mm, addr);
	if (!pgd_present(*pgd))
                return;

	pud = pud_offset(pgd, addr);
	if (!pud_present(*pud))
                return;

	pmd = pmd_offset(pud, addr);
	if (!pmd_present(*pmd))
		return;

	ptep = pte_offset_map(pmd, addr);

	if (!is_swap_pte(*ptep)) {
		pte_unmap(ptep);
 		return;
 	}

 	ptl = pte_lockptr(mm, pmd);
 	spin_lock(ptl);
	pte = *ptep;
	if (!is_swap_pte(pte))
		goto out;

	entry = pte_to_swp_entry(pte);

	if (!is_migration_entry(entry) || migration_entry_to_page(entry) != old)
		goto out;

	get_page(new);
	pte = pte_mkold(mk_pte(new, vma->vm_page_prot));
	if (is_write_migration_entry(entry))
		pte = pte_mkwrite(pte);
	flush_cache_page(vma, addr, pte_pfn(pte));
	set_pte_at(mm, addr, ptep, pte);

	if (PageAnon(new))
		page_add_anon_rmap(new, vma, addr);
	else
		page_add_file_rmap(new);

	/* No need to invalidate - it was non-present before */
	update_mmu_cache(vma, addr, pte);

out:
	pte_unmap_unlock(ptep, ptl);
}

/*
 * Must hold mmap_sem lock on at least one of the vmas containing
 * the page so that the anon_vma cannot vanish.
 */
static void remove_anon_migration_ptes(struct page *old, struct page *new)
{
	struct anon_vma *anon_vma;
	struct vm_area_struct *vma;

	/*
	 * We hold the mmap_sem lock. So no need to call page_lock_anon_vma.
	 */
	anon_vma = page_anon_vma(new);
	if (!anon_vma)
		return;

	spin_lock(&anon_vma->lock);

	list_for_each_entry(vma, &anon_vma->head, anon_vma_node)
		remove_migration_pte(vma, old, new);

	spin_unlock(&anon_vma->lock);
}

static void remove_migration_ptes(struct page *old, struct page *new)
{
	if (PageAnon(new))
		remove_anon_migration_ptes(old, new);
	else
		remove_file_migration_ptes(old, new);
}
