/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   108d6642
 * file:      mm/rmap.c
 * source:    Michel Lespinasse, "[PATCH 3/7] mm anon rmap: remove anon_vma_moveto_tail"
 *            (linux-mm, Tue 4 Sep 2012,
 *            <1346750457-12385-4-git-send-email-walken@google.com>; index
 *            7b5b51d25fc5..8cbd62fde0f1, hunk @@ -269,51 +269,6 @@: the whole function
 *            and its comment are '-' lines)
 *            and, for the two functions below, torvalds/linux mm/rmap.c stored at 108d6642
 *            (index id 3966057494), verbatim
 * status:    partial
 * holds:     is_vma_temporary_stack, try_to_unmap_anon
 * unchanged: the other modelled rmap.c functions (as 948f017b's chain of folders has them;
 *            this commit deletes anon_vma_moveto_tail)
 * removed:   anon_vma_moveto_tail
 * notes:     the deletion is recorded so the fidelity tool does not inherit 948f017b's
 *            anon_vma_moveto_tail. The two functions are not changed by 108d6642: they are
 *            here because the tree differs from 012f1800's text (the nearest folder that holds
 *            them): is_vma_temporary_stack is non-static `bool` (first read so in 5dbe0af4's
 *            stored tree, id 3700931709; 5dbe0af4 to 948f017b inherit 012f1800's static text
 *            from the folders, a difference of signature only), and try_to_unmap_anon tests IS_ENABLED(CONFIG_MIGRATION) for
 *            PAGE_MIGRATION (Konstantin Khlebnikov, "[PATCH] mm: replace PAGE_MIGRATION with
 *            IS_ENABLED(CONFIG_MIGRATION)", linux-mm, 11 Feb 2012; mainline id UNVERIFIED).
 */

/* mmcheck: verbatim: torvalds/linux mm/rmap.c at 108d6642 (stored, index id 3966057494) */
bool is_vma_temporary_stack(struct vm_area_struct *vma)
{
	int maybe_stack = vma->vm_flags & (VM_GROWSDOWN | VM_GROWSUP);

	if (!maybe_stack)
		return false;

	if ((vma->vm_flags & VM_STACK_INCOMPLETE_SETUP) ==
						VM_STACK_INCOMPLETE_SETUP)
		return true;

	return false;
}

/**
 * try_to_unmap_anon - unmap or unlock anonymous page using the object-based
 * rmap method
 * @page: the page to unmap/unlock
 * @flags: action and flags
 *
 * Find all the mappings of a page using the mapping pointer and the vma chains
 * contained in the anon_vma struct it points to.
 *
 * This function is only called from try_to_unmap/try_to_munlock for
 * anonymous pages.
 * When called from try_to_munlock(), the mmap_sem of the mm containing the vma
 * where the page was found will be held for write.  So, we won't recheck
 * vm_flags for that VMA.  That should be OK, because that vma shouldn't be
 * 'LOCKED.
 */
/* mmcheck: verbatim: torvalds/linux mm/rmap.c at 108d6642 (stored, index id 3966057494) */
static int try_to_unmap_anon(struct page *page, enum ttu_flags flags)
{
	struct anon_vma *anon_vma;
	struct anon_vma_chain *avc;
	int ret = SWAP_AGAIN;

	anon_vma = page_lock_anon_vma(page);
	if (!anon_vma)
		return ret;

	list_for_each_entry(avc, &anon_vma->head, same_anon_vma) {
		struct vm_area_struct *vma = avc->vma;
		unsigned long address;

		/*
		 * During exec, a temporary VMA is setup and later moved.
		 * The VMA is moved under the anon_vma lock but not the
		 * page tables leading to a race where migration cannot
		 * find the migration ptes. Rather than increasing the
		 * locking requirements of exec(), migration skips
		 * temporary VMAs until after exec() completes.
		 */
		if (IS_ENABLED(CONFIG_MIGRATION) && (flags & TTU_MIGRATION) &&
				is_vma_temporary_stack(vma))
			continue;

		address = vma_address(page, vma);
		if (address == -EFAULT)
			continue;
		ret = try_to_unmap_one(page, vma, address, flags);
		if (ret != SWAP_AGAIN || !page_mapped(page))
			break;
	}

	page_unlock_anon_vma(anon_vma);
	return ret;
}
