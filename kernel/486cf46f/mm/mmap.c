/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   486cf46f
 * file:      mm/mmap.c
 * source:    repository 303750856/linux-3.1, mm/mmap.c (commits 1be35cbd7af1 and
 *            49378241a692: a 3.1.1 tree with distro patches elsewhere in the file) and
 *            kangsterizer/linux-3.1.y-rsbac, mm/mmap.c (commit 5e60335f6528): the
 *            function byte-identical in both
 * status:    unverified
 * holds:     copy_vma
 * unchanged: (first modelled here: 486cf46f does not touch mm/mmap.c; this is 3.1's
 *            copy_vma, the one the mremap model runs for every variant it runs on)
 * notes:     no vanilla v3.1 tree is stored. Checked against mainline postings of the
 *            time: the context and '-' lines of Andrea Arcangeli's "[PATCH] mremap:
 *            enforce rmap src/dst vma ordering in case of vma_merge succeeding in
 *            copy_vma" (linux-mm, 5 Nov 2011,
 *            <1320512782-12209-1-git-send-email-aarcange@redhat.com>; 9 Dec 2011,
 *            <20111209015506.GE15343@redhat.com>) match; the second vma_merge argument
 *            line, the allocation branch and the error labels are seen only in the
 *            3.1.x trees. Whether 2.6.36's copy_vma (f1819427's kernel) is the same
 *            text is UNVERIFIED (proofs/vma.19.md).
 */

/*
 * Copy the vma structure to a new location in the same mm,
 * prior to moving page table entries, to effect an mremap move.
 */
struct vm_area_struct *copy_vma(struct vm_area_struct **vmap,
	unsigned long addr, unsigned long len, pgoff_t pgoff)
{
	struct vm_area_struct *vma = *vmap;
	unsigned long vma_start = vma->vm_start;
	struct mm_struct *mm = vma->vm_mm;
	struct vm_area_struct *new_vma, *prev;
	struct rb_node **rb_link, *rb_parent;
	struct mempolicy *pol;

	/*
	 * If anonymous vma has not yet been faulted, update new pgoff
	 * to match new location, to increase its chance of merging.
	 */
	if (!vma->vm_file && !vma->anon_vma)
		pgoff = addr >> PAGE_SHIFT;

	find_vma_prepare(mm, addr, &prev, &rb_link, &rb_parent);
	new_vma = vma_merge(mm, prev, addr, addr + len, vma->vm_flags,
			vma->anon_vma, vma->vm_file, pgoff, vma_policy(vma));
	if (new_vma) {
		/*
		 * Source vma may have been merged into new_vma
		 */
		if (vma_start >= new_vma->vm_start &&
		    vma_start < new_vma->vm_end)
			*vmap = new_vma;
	} else {
		new_vma = kmem_cache_alloc(vm_area_cachep, GFP_KERNEL);
		if (new_vma) {
			*new_vma = *vma;
			pol = mpol_dup(vma_policy(vma));
			if (IS_ERR(pol))
				goto out_free_vma;
			INIT_LIST_HEAD(&new_vma->anon_vma_chain);
			if (anon_vma_clone(new_vma, vma))
				goto out_free_mempol;
			vma_set_policy(new_vma, pol);
			new_vma->vm_start = addr;
			new_vma->vm_end = addr + len;
			new_vma->vm_pgoff = pgoff;
			if (new_vma->vm_file) {
				get_file(new_vma->vm_file);
				if (vma->vm_flags & VM_EXECUTABLE)
					added_exe_file_vma(mm);
			}
			if (new_vma->vm_ops && new_vma->vm_ops->open)
				new_vma->vm_ops->open(new_vma);
			vma_link(mm, new_vma, prev, rb_link, rb_parent);
		}
	}
	return new_vma;

 out_free_mempol:
	mpol_put(pol);
 out_free_vma:
	kmem_cache_free(vm_area_cachep, new_vma);
	return NULL;
}
