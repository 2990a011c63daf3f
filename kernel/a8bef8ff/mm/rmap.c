/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   a8bef8ff
 * file:      mm/rmap.c
 * source:    linux-mm, Mel Gorman, 10 May 2010, <20100510132431.GE26611@csn.ul.ie>
 *            (patch hunks @@ -1141,6 +1141,20 @@ and @@ -1169,7 +1183,21 @@ against
 *            rmap.c blob 85f203e, 2.6.34-rc7); identical '-' lines in Andrea
 *            Arcangeli's revert "[PATCH 02 of 66]" (linux-mm, 3 Nov 2010,
 *            <ad7a334318ea379be733.1288798057@v2.random>) against 2.6.37-rc, so the
 *            merged a8bef8ff text is the posted one
 * status:    partial
 * holds:     is_vma_temporary_stack, try_to_unmap_anon
 * unchanged: try_to_unmap_one, rmap_walk_anon, page_lock_anon_vma (a8bef8ff touches only try_to_unmap_anon and adds is_vma_temporary_stack; per the diff)
 * notes:     is_vma_temporary_stack is whole in the '+' lines. try_to_unmap_anon: the
 *            hunk covers "list_for_each_entry ..." to "ret = try_to_unmap_one(...)";
 *            the 9 lines before it (header, declarations, page_lock_anon_vma) and the
 *            7 after it (break test, page_unlock_anon_vma, return) are not in any
 *            hunk: taken from the 2.6.34 function as the model mirrors it
 *            (src/mm/vma_2_6_34.rs) and checked against a comment-stripped 3.x
 *            mm/rmap.c in the index (file id 718594885, repository not named), whose
 *            code lines are the same. Line numbers agree (hunk starts at 1169,
 *            header at 1160).
 */

static bool is_vma_temporary_stack(struct vm_area_struct *vma)
{
	int maybe_stack = vma->vm_flags & (VM_GROWSDOWN | VM_GROWSUP);

	if (!maybe_stack)
		return false;

	if ((vma->vm_flags & VM_STACK_INCOMPLETE_SETUP) ==
						VM_STACK_INCOMPLETE_SETUP)
		return true;

	return false;
}

/* mmcheck: partial: the hunk of a8bef8ff from "list_for_each_entry" to
 * "ret = try_to_unmap_one"; the lines before and after are 2.6.34's (see notes) */
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
		if (PAGE_MIGRATION && (flags & TTU_MIGRATION) &&
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
