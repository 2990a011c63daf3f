/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.31
 * file:      include/linux/swapops.h
 * source:    luckasfb/OT_903D-kernel-2.6.35.7 kernel/include/linux/swapops.h
 *            @ 0fb9ec99c0836cee641c90720887e8cf5c678681 (a 2.6.35.7 tree; the neighbour)
 * status:    partial
 * holds:     make_migration_entry, migration_entry_to_page
 * unchanged: (root variant)
 * notes:     No 2.6.31 copy of swapops.h was found. These two inlines date from the
 *            page-migration entries of 2.6.18 and are believed unchanged through 2.6.35
 *            (UNVERIFIED for the exact 2.6.31 text). The BUG_ON in migration_entry_to_page
 *            is "include/linux/swapops.h:105" of the April 2010 oopses (2.6.34-rc4-mm1,
 *            2.6.34-rc5): exec's shift_arg_pages race with migration, fixed by a8bef8ff,
 *            not the vma_adjust race of vma.9 (H-9), which had no reported reproduction.
 */

#ifdef CONFIG_MIGRATION
static inline swp_entry_t make_migration_entry(struct page *page, int write)
{
	BUG_ON(!PageLocked(page));
	return swp_entry(write ? SWP_MIGRATION_WRITE : SWP_MIGRATION_READ,
			page_to_pfn(page));
}

static inline struct page *migration_entry_to_page(swp_entry_t entry)
{
	struct page *p = pfn_to_page(swp_offset(entry));
	/*
	 * Any use of migration entries may only occur while the
	 * corresponding page is locked
	 */
	BUG_ON(!PageLocked(p));
	return p;
}
#endif
