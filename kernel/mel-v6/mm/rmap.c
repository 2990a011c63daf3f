/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   mel-v6
 * file:      mm/rmap.c
 * source:    linux-mm/lkml, Thu 6 May 2010 16:33:06 +0100, Mel Gorman, "[PATCH 1/2]
 *            mm,migration: Prevent rmap_walk_[anon|ksm] seeing the wrong VMA information",
 *            Message-Id <1273159987-10167-2-git-send-email-mel@csn.ul.ie> (index id
 *            10868706240), mm/rmap.c "index 85f203e..b511710"
 * status:    partial
 * holds:     anon_vma_lock_root, page_anon_vma_lock_root, rmap_walk_anon
 * unchanged: every other modelled rmap.c function (the patch's rmap.c hunks add the two
 *            helpers and change rmap_walk_anon only; try_to_unmap_anon and
 *            page_referenced_anon still take only the page's anon_vma->lock)
 * notes:     anon_vma_lock_root, page_anon_vma_lock_root: whole in the '+' lines.
 *            rmap_walk_anon: post-image of the hunks @@ -1358,7 +1414,7 @@ and
 *            @@ -1368,16 +1424,25 @@; not in any hunk: the comment's first three lines
 *            (old 1365-1367) and the last three lines ("spin_unlock(&anon_vma->lock);",
 *            "return ret;", "}"), taken from the V7 resend's context (index id 11698283379,
 *            same rmap.c blob 85f203e) and 2.6.35.7 (luckasfb/OT_903D-kernel-2.6.35.7
 *            kernel/mm/rmap.c). The base blob 85f203e is 2.6.34-rc + the compaction series,
 *            so the comment is the compaction-era one ("Users without mmap_sem are required
 *            to take a reference count"), not 2.6.34's.
 *            The patch also changes rmap_walk_ksm (mm/ksm.c), mm_take_all_locks /
 *            mm_drop_all_locks (mm/mmap.c) and rmap.h declarations: not modelled.
 *            The variant mel-v6 runs this rmap_walk_anon for migration's
 *            remove_migration_ptes (src/vma/posting_mel_v6.rs), with the patch's vma_adjust
 *            hunk (kernel/mel-v6/mm/mmap.c).
 */

/*
 * Given an anon_vma, find the root of the chain, lock it and return it.
 * This must be called with the rcu_read_lock held
 */
struct anon_vma *anon_vma_lock_root(struct anon_vma *anon_vma)
{
	struct anon_vma *root_anon_vma;
	struct anon_vma_chain *avc, *root_avc;
	struct vm_area_struct *vma;

	/* Lock the same_anon_vma list and make sure we are on a chain */
	spin_lock(&anon_vma->lock);
	if (list_empty(&anon_vma->head)) {
		spin_unlock(&anon_vma->lock);
		return NULL;
	}

	/*
	 * Get the root anon_vma on the list by depending on the ordering
	 * of the same_vma list setup by __page_set_anon_rmap. Basically
	 * we are doing
	 *
	 * local anon_vma -> local vma -> root vma -> root anon_vma
	 */
	avc = list_first_entry(&anon_vma->head, struct anon_vma_chain, same_anon_vma);
	vma = avc->vma;
	root_avc = list_entry(vma->anon_vma_chain.prev, struct anon_vma_chain, same_vma);
	root_anon_vma = root_avc->anon_vma;

	/* Get the lock of the root anon_vma */
	if (anon_vma != root_anon_vma) {
		VM_BUG_ON(!rcu_read_lock_held());
		spin_unlock(&anon_vma->lock);
		spin_lock(&root_anon_vma->lock);
	}

	return root_anon_vma;
}

/*
 * From the anon_vma associated with this page, find and lock the
 * deepest anon_vma on the list. This allows multiple anon_vma locks
 * to be taken by guaranteeing the locks are taken in the same order
 */
struct anon_vma *page_anon_vma_lock_root(struct page *page)
{
	struct anon_vma *anon_vma;

	/* Get the local anon_vma */
	anon_vma = page_anon_vma(page);
	if (!anon_vma)
		return NULL;

	return anon_vma_lock_root(anon_vma);
}

static int rmap_walk_anon(struct page *page, int (*rmap_one)(struct page *,
		struct vm_area_struct *, unsigned long, void *), void *arg)
{
	struct anon_vma *anon_vma, *locked_vma;
	struct anon_vma_chain *avc;
	int ret = SWAP_AGAIN;

	/*
	 * Note: remove_migration_ptes() cannot use page_lock_anon_vma()
	 * because that depends on page_mapped(); but not all its usages
	 * are holding mmap_sem. Users without mmap_sem are required to
	 * take a reference count to prevent the anon_vma disappearing
	 */
	anon_vma = page_anon_vma_lock_root(page);
	if (!anon_vma)
		return ret;
	list_for_each_entry(avc, &anon_vma->head, same_anon_vma) {
		struct vm_area_struct *vma = avc->vma;
		unsigned long address;

		locked_vma = NULL;
		if (anon_vma != vma->anon_vma) {
			locked_vma = vma->anon_vma;
			spin_lock_nested(&locked_vma->lock, SINGLE_DEPTH_NESTING);
		}
		address = vma_address(page, vma);
		if (address != -EFAULT)
			ret = rmap_one(page, vma, address, arg);

		if (locked_vma)
			spin_unlock(&locked_vma->lock);

		if (ret != SWAP_AGAIN)
			break;
	}
	spin_unlock(&anon_vma->lock);
	return ret;
}
