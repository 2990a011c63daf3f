/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   38a76013
 * file:      mm/mmap.c
 * source:    torvalds/linux mm/mmap.c at 108d6642ad81 (stored, index id 3626662118;
 *            kernel/108d6642/mm/mmap.c) with Michel Lespinasse's "[PATCH] mm anon rmap: in
 *            mremap, set the new vma's position before anon_vma_clone()" (linux-mm, Fri 14
 *            Sep 2012, in <20120915000029.GA29426@google.com>; index
 *            cc8c64077a42..7e672800b5d4, @@ -2446,16 +2446,16 @@) and the mm/mmap.c hunks of
 *            "[PATCH 7/7] mm: avoid taking rmap locks in move_ptes()" (linux-mm, Tue 4 Sep
 *            2012, <1346750457-12385-8-git-send-email-walken@google.com>; index
 *            884bda4cd3ea..cc8c64077a42, @@ -2397,7 +2397,8 @@, @@ -2438,8 +2439,9 @@,
 *            @@ -2466,6 +2468,7 @@)
 * status:    partial
 * holds:     copy_vma
 * unchanged: vma_merge (neither patch touches it)
 * notes:     the reorder hunk's last context line is `if (new_vma->vm_file) {` (its base
 *            still had the VM_EXECUTABLE block there); 108d6642's stored line has no brace, so
 *            the hunk applies with fuzz 1, its '+' and '-' lines unchanged.
 *            No torvalds/linux mm/mmap.c is stored at 38a76013. The result equals
 *            AndreiLux/ref-3.10 mm/mmap.c's copy_vma (commit 147ee33213f0, index id
 *            24944609235) but for Android's vma_get_anon_name(vma) argument of vma_merge.
 *            The reorder precedes 7/7 in mmotm 2012-09-27 (either order of the two gives
 *            this text); its mainline id is UNVERIFIED. vma_adjust at 38a76013 is NOT
 *            108d6642's: bf181b9f (mainline's [PATCH 4/7], the interval tree; torvalds/linux
 *            mm/mmap.c stored at bf181b9f9d8dfbba, index id 4001752280) takes the anon_vma
 *            lock whenever there is one ([PATCH 2/7]'s form) and re-indexes the vma in the
 *            interval tree under it; its copy_vma still has the old order (the reorder came
 *            later). No text at 38a76013 is stored; the variant runs (and fidelity aligns)
 *            108d6642's, kernel/108d6642/mm/mmap.c (proofs/vma.20.md). Release 3.7 inferred
 *            (mmotm 2012-09-27, against 3.6-rc7, still queues it after 108d6642, which is
 *            3.7); no source names it.
 */

/* mmcheck: partial: 108d6642's stored copy_vma with the two postings' hunks (see above) */
/*
 * Copy the vma structure to a new location in the same mm,
 * prior to moving page table entries, to effect an mremap move.
 */
struct vm_area_struct *copy_vma(struct vm_area_struct **vmap,
	unsigned long addr, unsigned long len, pgoff_t pgoff,
	bool *need_rmap_locks)
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

	if (find_vma_links(mm, addr, addr + len, &prev, &rb_link, &rb_parent))
		return NULL;	/* should never get here */
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
			*vmap = vma = new_vma;
		}
		*need_rmap_locks = (new_vma->vm_pgoff <= vma->vm_pgoff);
	} else {
		new_vma = kmem_cache_alloc(vm_area_cachep, GFP_KERNEL);
		if (new_vma) {
			*new_vma = *vma;
			new_vma->vm_start = addr;
			new_vma->vm_end = addr + len;
			new_vma->vm_pgoff = pgoff;
			pol = mpol_dup(vma_policy(vma));
			if (IS_ERR(pol))
				goto out_free_vma;
			vma_set_policy(new_vma, pol);
			INIT_LIST_HEAD(&new_vma->anon_vma_chain);
			if (anon_vma_clone(new_vma, vma))
				goto out_free_mempol;
			if (new_vma->vm_file)
				get_file(new_vma->vm_file);
			if (new_vma->vm_ops && new_vma->vm_ops->open)
				new_vma->vm_ops->open(new_vma);
			vma_link(mm, new_vma, prev, rb_link, rb_parent);
			*need_rmap_locks = false;
		}
	}
	return new_vma;

 out_free_mempol:
	mpol_put(pol);
 out_free_vma:
	kmem_cache_free(vm_area_cachep, new_vma);
	return NULL;
}
