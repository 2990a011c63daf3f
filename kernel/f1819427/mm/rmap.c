/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   f1819427
 * file:      mm/rmap.c
 * source:    linux-mm, Hugh Dickins, Wed 25 Aug 2010 23:12:54 -0700, "[PATCH] mm: fix
 *            hang on anon_vma->root->lock", Message-ID
 *            <alpine.LSU.2.00.1008252305540.19107@sister.anvils>, diff against
 *            2.6.36-rc2 (hunks @@ -316,7 +316,7 @@ and @@ -327,8 +327,21 @@). The
 *            mainline id f18194275c39 is named by Hugh in eee0f252c653 ("This is a
 *            replay of last year's f18194275c39 "mm: fix hang on
 *            anon_vma->root->lock"")
 * status:    partial
 * holds:     page_lock_anon_vma
 * unchanged: page_unlock_anon_vma (still anon_vma_unlock(anon_vma); rcu_read_unlock(); the diff touches nothing else), anon_vma_lock/anon_vma_unlock (include/linux/rmap.h)
 * notes:     lines 323-326 (the ACCESS_ONCE(page->mapping) read, the
 *            PAGE_MAPPING_ANON test and "if (!page_mapped(page))") lie between the two
 *            hunks: the hunk offsets leave exactly 4 lines there, and those 4 lines
 *            are the same in every page_lock_anon_vma/page_get_anon_vma text found
 *            (index hits 14310021779, 718594885, 30655077441, all later versions).
 *            Whether the merged commit differs from the posting: UNVERIFIED.
 */

/* mmcheck: partial: lines 323-326 fill the gap between the two hunks (see notes) */
struct anon_vma *page_lock_anon_vma(struct page *page)
{
	struct anon_vma *anon_vma, *root_anon_vma;
	unsigned long anon_mapping;

	rcu_read_lock();
	anon_mapping = (unsigned long) ACCESS_ONCE(page->mapping);
	if ((anon_mapping & PAGE_MAPPING_FLAGS) != PAGE_MAPPING_ANON)
		goto out;
	if (!page_mapped(page))
		goto out;

	anon_vma = (struct anon_vma *) (anon_mapping - PAGE_MAPPING_ANON);
	root_anon_vma = ACCESS_ONCE(anon_vma->root);
	spin_lock(&root_anon_vma->lock);

	/*
	 * If this page is still mapped, then its anon_vma cannot have been
	 * freed.  But if it has been unmapped, we have no security against
	 * the anon_vma structure being freed and reused (for another anon_vma:
	 * SLAB_DESTROY_BY_RCU guarantees that - so the spin_lock above cannot
	 * corrupt): with anon_vma_prepare() or anon_vma_fork() redirecting
	 * anon_vma->root before page_unlock_anon_vma() is called to unlock.
	 */
	if (page_mapped(page))
		return anon_vma;

	spin_unlock(&root_anon_vma->lock);
out:
	rcu_read_unlock();
	return NULL;
}
