/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   948f017b
 * file:      mm/mmap.c
 * source:    torvalds/linux mm/mmap.c at 948f017b093a9baac23855fcd920d3a970b71bb6 (stored,
 *            index id 3981139778), verbatim
 * status:    verbatim
 * holds:     copy_vma
 * unchanged: vma_merge (the patch touches only copy_vma in mm/mmap.c)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). The full id is the one the stored tree
 *            answers to at this path; its copy_vma calls anon_vma_moveto_tail, so the id
 *            names this commit; the release stays UNVERIFIED. Before, the source was:
 *            Andrea Arcangeli, "Re: [PATCH] mremap: enforce rmap src/dst vma ordering in
 *            case of vma_merge succeeding in copy_vma" (linux-mm, Fri 9 Dec 2011,
 *            <20111209015506.GE15343@redhat.com>: "That's not the last version", the final
 *            patch, index eae90af..adea3b8, hunks @@ -2322,13 +2322,16 @@ and @@ -2337,9
 *            +2340,24 @@), applied to 3.1's copy_vma (kernel/486cf46f/mm/mmap.c) Earlier
 *            notes: the lines outside the two hunks (the allocation branch and the error
 *            labels) are 3.1's, as kernel/486cf46f holds them (from two 3.1.x trees:
 *            unverified against a vanilla tag). The mainline id 948f017b is the brief's and
 *            no stored source names it (UNVERIFIED); karo-tx-linux, a -next tree, carries
 *            the commit as 952635949d87.
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
	bool faulted_in_anon_vma = true;

	/*
	 * If anonymous vma has not yet been faulted, update new pgoff
	 * to match new location, to increase its chance of merging.
	 */
	if (unlikely(!vma->vm_file && !vma->anon_vma)) {
		pgoff = addr >> PAGE_SHIFT;
		faulted_in_anon_vma = false;
	}

	find_vma_prepare(mm, addr, &prev, &rb_link, &rb_parent);
	new_vma = vma_merge(mm, prev, addr, addr + len, vma->vm_flags,
			vma->anon_vma, vma->vm_file, pgoff, vma_policy(vma));
	if (new_vma) {
		/*
		 * Source vma may have been merged into new_vma
		 */
		if (unlikely(vma_start >= new_vma->vm_start &&
			     vma_start < new_vma->vm_end)) {
			/*
			 * The only way we can get a vma_merge with
			 * self during an mremap is if the vma hasn't
			 * been faulted in yet and we were allowed to
			 * reset the dst vma->vm_pgoff to the
			 * destination address of the mremap to allow
			 * the merge to happen. mremap must change the
			 * vm_pgoff linearity between src and dst vmas
			 * (in turn preventing a vma_merge) to be
			 * safe. It is only safe to keep the vm_pgoff
			 * linear if there are no pages mapped yet.
			 */
			VM_BUG_ON(faulted_in_anon_vma);
			*vmap = new_vma;
		} else
			anon_vma_moveto_tail(new_vma);
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
