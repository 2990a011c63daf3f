/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   5beb4930 (the chain era's first variant: texts read as 2.6.34's, stored here;
 *            linux-2.6.34, its child, holds only what 2.6.34-rc changed, see
 *            kernel/5beb4930/mm/mmap.c)
 * file:      fs/exec.c
 * source:    the '-' and context lines of the hunks of fs/exec.c blob 725d7ef
 *            (2.6.34-rc7) in <1273188053-26029-3-git-send-email-mel@csn.ul.ie>
 *            (linux-mm, 7 May 2010); the same lines as '-'/context in
 *            <ad7a334318ea379be733.1288798057@v2.random> (linux-mm, 3 Nov 2010,
 *            against 2.6.37-rc: shift_arg_pages unchanged 2.6.34 -> 2.6.37-rc)
 * status:    partial
 * holds:     __bprm_mm_init, shift_arg_pages, setup_arg_pages
 * unchanged: (no fs/exec.c text in the older folders)
 * notes:     __bprm_mm_init and setup_arg_pages: see the comment above each. Read on 4 Dec
 *            2026 against torvalds/linux fs/exec.c stored at 5beb4930 itself (index id
 *            2047627861) and at a8bef8ff (7389439801): neither has the 2.6.2x
 *            security_file_mmap() call in __bprm_mm_init, which this text had and no
 *            longer has; shift_arg_pages is the same text in both trees. setup_arg_pages
 *            here is the later 2.6.34 form (rlimit_max(RLIMIT_STACK), stack_expand =
 *            131072UL), which the tree at a8bef8ff has; the tree at 5beb4930 itself still
 *            has current->signal->rlim[RLIMIT_STACK].rlim_max and EXTRA_STACK_VM_PAGES *
 *            PAGE_SIZE: these texts stand for 2.6.34, and which form 2.6.34 final had is
 *            UNVERIFIED (the stack-size lines are not modelled).
 *            shift_arg_pages: lines 498-502 (header, mm/old_start/old_end), 510-514 (the "ensure there
 *            are no vmas" comment and find_vma test) and 532-550 (tlb_gather_mmu ..
 *            tlb_finish_mmu and the blank line) lie outside every hunk: taken from a
 *            stored fs/exec.c of 2.6.2x in the index (file id 18779933, repository
 *            not named; its shift_arg_pages has the same lines there, only its
 *            vma_adjust calls and "shrink" comment are older). The line counts of
 *            the gaps match the hunk offsets exactly (5, 5 and 19 lines).
 *            Not yet verified against a stored 2.6.34 tree (none found in the index).
 */

/* mmcheck: partial: index file id 18779933 (a stored 2.6.2x fs/exec.c, repository not
 * named), with the INIT_LIST_HEAD(&vma->anon_vma_chain) line of 5beb4930 (2.6.34) read as
 * context in Andrea Arcangeli's revert <ad7a334318ea379be733.1288798057@v2.random> */
static int __bprm_mm_init(struct linux_binprm *bprm)
{
	int err;
	struct vm_area_struct *vma = NULL;
	struct mm_struct *mm = bprm->mm;

	bprm->vma = vma = kmem_cache_zalloc(vm_area_cachep, GFP_KERNEL);
	if (!vma)
		return -ENOMEM;

	down_write(&mm->mmap_sem);
	vma->vm_mm = mm;

	/*
	 * Place the stack at the largest stack address the architecture
	 * supports. Later, we'll move this to an appropriate place. We don't
	 * use STACK_TOP because that can depend on attributes which aren't
	 * configured yet.
	 */
	vma->vm_end = STACK_TOP_MAX;
	vma->vm_start = vma->vm_end - PAGE_SIZE;
	vma->vm_flags = VM_STACK_FLAGS;
	vma->vm_page_prot = vm_get_page_prot(vma->vm_flags);
	INIT_LIST_HEAD(&vma->anon_vma_chain);
	err = insert_vm_struct(mm, vma);
	if (err)
		goto err;

	mm->stack_vm = mm->total_vm = 1;
	up_write(&mm->mmap_sem);
	bprm->p = vma->vm_end - sizeof(void *);
	return 0;
err:
	up_write(&mm->mmap_sem);
	bprm->vma = NULL;
	kmem_cache_free(vm_area_cachep, vma);
	return err;
}

/* mmcheck: partial: see notes */
static int shift_arg_pages(struct vm_area_struct *vma, unsigned long shift)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long old_start = vma->vm_start;
	unsigned long old_end = vma->vm_end;
	unsigned long length = old_end - old_start;
	unsigned long new_start = old_start - shift;
	unsigned long new_end = old_end - shift;
	struct mmu_gather *tlb;

	BUG_ON(new_start > new_end);

	/*
	 * ensure there are no vmas between where we want to go
	 * and where we are
	 */
	if (vma != find_vma(mm, new_start))
		return -EFAULT;

	/*
	 * cover the whole range: [new_start, old_end)
	 */
	if (vma_adjust(vma, new_start, old_end, vma->vm_pgoff, NULL))
		return -ENOMEM;

	/*
	 * move the page tables downwards, on failure we rely on
	 * process cleanup to remove whatever mess we made.
	 */
	if (length != move_page_tables(vma, old_start,
				       vma, new_start, length))
		return -ENOMEM;

	lru_add_drain();
	tlb = tlb_gather_mmu(mm, 0);
	if (new_end > old_start) {
		/*
		 * when the old and new regions overlap clear from new_end.
		 */
		free_pgd_range(tlb, new_end, old_end, new_end,
			vma->vm_next ? vma->vm_next->vm_start : 0);
	} else {
		/*
		 * otherwise, clean from old_start; this is done to not touch
		 * the address space in [new_end, old_start) some architectures
		 * have constraints on va-space that make this illegal (IA64) -
		 * for the others its just a little faster.
		 */
		free_pgd_range(tlb, old_start, old_end, new_end,
			vma->vm_next ? vma->vm_next->vm_start : 0);
	}
	tlb_finish_mmu(tlb, new_end, old_end);

	/*
	 * Shrink the vma to just the new range.  Always succeeds.
	 */
	vma_adjust(vma, new_start, new_end, vma->vm_pgoff, NULL);

	return 0;
}

/* mmcheck: partial: kernel/a8bef8ff/fs/exec.c's setup_arg_pages (see its notes) without
 * a8bef8ff's four '+' lines */
int setup_arg_pages(struct linux_binprm *bprm,
		    unsigned long stack_top,
		    int executable_stack)
{
	unsigned long ret;
	unsigned long stack_shift;
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma = bprm->vma;
	struct vm_area_struct *prev = NULL;
	unsigned long vm_flags;
	unsigned long stack_base;
	unsigned long stack_size;
	unsigned long stack_expand;
	unsigned long rlim_stack;

#ifdef CONFIG_STACK_GROWSUP
	/* Limit stack size to 1GB */
	stack_base = rlimit_max(RLIMIT_STACK);
	if (stack_base > (1 << 30))
		stack_base = 1 << 30;

	/* Make sure we didn't let the argument array grow too large. */
	if (vma->vm_end - vma->vm_start > stack_base)
		return -ENOMEM;

	stack_base = PAGE_ALIGN(stack_top - stack_base);

	stack_shift = vma->vm_start - stack_base;
	mm->arg_start = bprm->p - stack_shift;
	bprm->p = vma->vm_end - stack_shift;
#else
	stack_top = arch_align_stack(stack_top);
	stack_top = PAGE_ALIGN(stack_top);
	stack_shift = vma->vm_end - stack_top;

	bprm->p -= stack_shift;
	mm->arg_start = bprm->p;
#endif

	if (bprm->loader)
		bprm->loader -= stack_shift;
	bprm->exec -= stack_shift;

	down_write(&mm->mmap_sem);
	vm_flags = VM_STACK_FLAGS;

	/*
	 * Adjust stack execute permissions; explicitly enable for
	 * EXSTACK_ENABLE_X, disable for EXSTACK_DISABLE_X and leave alone
	 * (arch default) otherwise.
	 */
	if (unlikely(executable_stack == EXSTACK_ENABLE_X))
		vm_flags |= VM_EXEC;
	else if (executable_stack == EXSTACK_DISABLE_X)
		vm_flags &= ~VM_EXEC;
	vm_flags |= mm->def_flags;

	ret = mprotect_fixup(vma, &prev, vma->vm_start, vma->vm_end,
			vm_flags);
	if (ret)
		goto out_unlock;
	BUG_ON(prev != vma);

	/* Move stack pages down in memory. */
	if (stack_shift) {
		ret = shift_arg_pages(vma, stack_shift);
		if (ret)
			goto out_unlock;
	}

	stack_expand = 131072UL; /* randomly 32*4k (or 2*64k) pages */
	stack_size = vma->vm_end - vma->vm_start;
	/*
	 * Align this down to a page boundary as expand_stack
	 * will align it up.
	 */
	rlim_stack = rlimit(RLIMIT_STACK) & PAGE_MASK;
#ifdef CONFIG_STACK_GROWSUP
	if (stack_size + stack_expand > rlim_stack)
		stack_base = vma->vm_start + rlim_stack;
	else
		stack_base = vma->vm_end + stack_expand;
#else
	if (stack_size + stack_expand > rlim_stack)
		stack_base = vma->vm_end - rlim_stack;
	else
		stack_base = vma->vm_start - stack_expand;
#endif
	ret = expand_stack(vma, stack_base);
	if (ret)
		ret = -EFAULT;

out_unlock:
	up_write(&mm->mmap_sem);
	return ret;
}
