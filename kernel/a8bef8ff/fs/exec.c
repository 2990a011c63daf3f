/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   a8bef8ff
 * file:      fs/exec.c
 * source:    torvalds/linux fs/exec.c at a8bef8ff6ea15fa4c67433cab0f5f3484574ef7c (stored,
 *            index id 7389439801), verbatim
 * status:    verbatim
 * holds:     __bprm_mm_init, setup_arg_pages
 * unchanged: shift_arg_pages (a8bef8ff's fs/exec.c hunks touch only __bprm_mm_init and
 *            setup_arg_pages; per the diff)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (both functions compared byte for byte with
 *            the stored text, tabs included, after one correction: __bprm_mm_init has no
 *            security_file_mmap() call (the four lines and a blank after INIT_LIST_HEAD,
 *            2.6.2x's, were in the assembled text); the full id is the one the stored tree
 *            answers to at this path, whose fs/exec.c has a8bef8ff's
 *            VM_STACK_INCOMPLETE_SETUP lines, so the id names this commit; the release
 *            stays UNVERIFIED). Before, the source was: linux-mm, Mel Gorman, Mon 10 May
 *            2010 14:24:31 +0100, "Re: [PATCH 2/2] mm,migration: Fix race between
 *            shift_arg_pages and rmap_walk ...", Message-ID
 *            <20100510132431.GE26611@csn.ul.ie> (the "==== CUT HERE ====" patch; fs/exec.c
 *            hunks @@ -616,6 +617,7 @@ and @@ -630,6 +632,9 @@ of setup_arg_pages against
 *            fs/exec.c blob 725d7ef, 2.6.34-rc7); the same lines are '-' lines of Andrea
 *            Arcangeli's revert "[PATCH 02 of 66]" (linux-mm, 3 Nov 2010,
 *            <ad7a334318ea379be733.1288798057@v2.random>, hunks @@ -638,7 and @@ -653,9
 *            against 2.6.37-rc), i.e. mainline carried them. Lines outside the hunks:
 *            1299030893/linux-3.0.27 fs/exec.c, commit
 *            e0f8a7f442dec7717804f9e80e73216c39b735a1 (index file id 4249124054), less two
 *            later additions (see notes). Earlier notes (superseded where the text above
 *            says otherwise): Line numbers below are 2.6.34-rc7's (blob 725d7ef; header at
 *            563). From the hunks: "else if (executable_stack == EXSTACK_DISABLE_X)" ..
 *            "vm_flags);" (616-621, plus the '+' "vm_flags |= VM_STACK_INCOMPLETE_SETUP;")
 *            and "goto out_unlock;" .. the comment opener before "Align this down"
 *            (630-635, plus the three '+' lines: the "mprotect_fixup is overkill" comment,
 *            the clear, a blank). Lines 625-633 ("" .. "stack_expand = 131072UL;") are also
 *            context of KAMEZAWA Hiroyuki's patch against 2.6.34-rc5-mm1 (linux-mm, 7 May
 *            2010, <20100507131924.e75db6fc.kamezawa.hiroyu@jp.fujitsu.com>, @@ -625,9),
 *            and 648-653 ("else" .. "ret = -EFAULT;") context of Eric B Munson's "[PATCH]
 *            Split executable and non-executable mmap tracking V2" (linux-mm, 17 May 2010,
 *            <1274109965-25456-1-git-send-email-ebmunson@us.ibm.com>, @@ -648,6, blob
 *            e6e94c6). The rest (563-615 header to "vm_flags |= VM_EXEC;", 622-624 "if
 *            (ret)" .. "BUG_ON(prev != vma);", 636-end) is linux-3.0.27's text without: (1)
 *            the 5-line "if (unlikely(stack_top < mmap_min_addr) || ... return -ENOMEM;"
 *            block (and its blank lines) after "stack_top = PAGE_ALIGN(stack_top);":
 *            2.6.34-rc7 has "else if" 53 lines after the header (hunk at 616,
 *            shift_arg_pages 498-557), 3.0.27 has it 58 after, and the 5 lines are the
 *            block; the block-less form "PAGE_ALIGN(stack_top);" + "stack_shift =
 *            vma->vm_end - stack_top;" with no blank between is read in older stored exec.c
 *            texts (index ids 49103826, 19041630707). A RHEL changelog in the index (id
 *            14182658306) names the block's patch "setup_arg_pages: diagnose excessive
 *            argument size" {CVE-2010-3858}; (2) "current->mm->start_stack = bprm->p;"
 *            before expand_stack: it is the '+' line of Munson's patch; his V4 (linux-mm, 1
 *            Jun 2010, <1275374698-10170-1-git-send-email-ebmunson@us.ibm.com>) adds it at
 *            @@ -653,6 of blob e19de6a, i.e. 648 + 5 = a tree already holding a8bef8ff's 5
 *            fs/exec.c lines and not yet that line. Not checked against any text of
 *            2.6.34/2.6.35 (count-neutral, taken from 3.0.27 as is): "stack_base =
 *            rlimit_max(RLIMIT_STACK);" in the CONFIG_STACK_GROWSUP branch (the RHEL-style
 *            tree 18779933 has "current->signal->rlim[RLIMIT_STACK].rlim_max" there),
 *            "vm_flags = VM_STACK_FLAGS;", "rlim_stack = rlimit(RLIMIT_STACK) &
 *            PAGE_MASK;". No stored 2.6.34 or 2.6.35 fs/exec.c was found in the index.
 *            __bprm_mm_init: a8bef8ff's other fs/exec.c hunk (@@ -242,9 +242,10 in the
 *            posting): '+' "BUG_ON(VM_STACK_FLAGS & VM_STACK_INCOMPLETE_SETUP);" before
 *            "vma->vm_end = STACK_TOP_MAX;", and "vma->vm_flags = VM_STACK_FLAGS;" becoming
 *            "vma->vm_flags = VM_STACK_FLAGS | VM_STACK_INCOMPLETE_SETUP;", read as the '-'
 *            lines of Andrea Arcangeli's revert (@@ -248,10); the rest of the function is
 *            linux-2.6.34's as stored in kernel/5beb4930/fs/exec.c (partial). (Andrew
 *            Morton's BUILD_BUG_ON change, <20100512125427.d1b170ba...>, was objected to by
 *            Mel as VM_STACK_FLAGS depends on current->personality; the 2.6.37-rc revert's
 *            '-' line is still BUG_ON.) 2.6.34's own setup_arg_pages (parent linux-2.6.34)
 *            is this text without the four '+' lines.
 */

/* mmcheck: verbatim: torvalds/linux fs/exec.c at a8bef8ff6ea1 (stored) */
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
	BUG_ON(VM_STACK_FLAGS & VM_STACK_INCOMPLETE_SETUP);
	vma->vm_end = STACK_TOP_MAX;
	vma->vm_start = vma->vm_end - PAGE_SIZE;
	vma->vm_flags = VM_STACK_FLAGS | VM_STACK_INCOMPLETE_SETUP;
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

/* mmcheck: verbatim: torvalds/linux fs/exec.c at a8bef8ff6ea1 (stored) */
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
	vm_flags |= VM_STACK_INCOMPLETE_SETUP;

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

	/* mprotect_fixup is overkill to remove the temporary stack flags */
	vma->vm_flags &= ~VM_STACK_INCOMPLETE_SETUP;

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
