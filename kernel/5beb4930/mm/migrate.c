/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   5beb4930 (the chain era's first variant: texts read as 2.6.34's, stored here;
 *            linux-2.6.34, its child, holds only what 2.6.34-rc changed, see
 *            kernel/5beb4930/mm/mmap.c)
 * file:      mm/migrate.c
 * source:    (1) linux-mm, 24 Nov 2009, Hugh Dickins, "[PATCH 7/9] ksm: rmap_walk to
 *                remove_migation_ptes", Message-ID <Pine.LNX.4.64.0911241651160.25288@sister.anvils>
 *                (index id 22408171534; merged for 2.6.33): the '+' and context lines of its
 *                mm/migrate.c hunks;
 *            (2) luckasfb/OT_903D-kernel-2.6.35.7 kernel/mm/migrate.c
 *                @ 0fb9ec99c0836cee641c90720887e8cf5c678681 (2.6.35.7, the neighbour).
 * status:    partial
 * holds:     remove_migration_pte, remove_migration_ptes
 * unchanged: (none of the modelled migrate.c functions is unchanged from linux-2.6.31:
 *            remove_anon_migration_ptes is gone, replaced by rmap_walk() -> rmap_walk_anon)
 * removed:   remove_anon_migration_ptes (Hugh Dickins's ksm 7/9, 2.6.33: rmap_walk instead)
 * pending:   remove_migration_ptes (modelled all the same: ChainRmap's remove_migration_ptes is
 *            its one call, rmap_walk_anon with rmap_one = remove_migration_pte, which the
 *            fidelity tool reads as a trait's dispatch, not as a mirror; see rmap_walk_anon)
 * notes:     remove_migration_pte: (1)'s post-image; its 9 lines between the hunks
 *            (is_write_migration_entry ... page_add_file_rmap) from (2). The last statement is
 *            "update_mmu_cache(vma, addr, pte);" as in (1): 2.6.35 passes ptep (2.6.35.7 reads
 *            "update_mmu_cache(vma, addr, ptep);"). remove_migration_ptes: (1) and (2) agree.
 *            NOT STORED: unmap_and_move, move_to_new_page (2.6.35.7's carry the 2.6.35
 *            compaction-series changes - remap_swapcache, external_refcount - so they are not
 *            2.6.34's; no 2.6.34 text found).
 */

/*
 * Restore a potential migration pte to a working pte entry
 */
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

 	pgd = pgd_offset(mm, addr);
	if (!pgd_present(*pgd))
		goto out;

	pud = pud_offset(pgd, addr);
	if (!pud_present(*pud))
		goto out;

	pmd = pmd_offset(pud, addr);
	if (!pmd_present(*pmd))
		goto out;

	ptep = pte_offset_map(pmd, addr);

	if (!is_swap_pte(*ptep)) {
		pte_unmap(ptep);
		goto out;
 	}

 	ptl = pte_lockptr(mm, pmd);
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
	flush_cache_page(vma, addr, pte_pfn(pte));
	set_pte_at(mm, addr, ptep, pte);

	if (PageAnon(new))
		page_add_anon_rmap(new, vma, addr);
	else
		page_add_file_rmap(new);

	/* No need to invalidate - it was non-present before */
	update_mmu_cache(vma, addr, pte);
unlock:
	pte_unmap_unlock(ptep, ptl);
out:
	return SWAP_AGAIN;
}

static void remove_migration_ptes(struct page *old, struct page *new)
{
	rmap_walk(new, remove_migration_pte, old);
}
