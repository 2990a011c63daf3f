/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   012f1800
 * file:      mm/rmap.c
 * source:    012f1800 itself does not touch mm/rmap.c (its four files are rmap.h, ksm.c,
 *            migrate.c, mmap.c): the rmap.c of this variant is the state at 012f1800, i.e.
 *            2.6.35 plus the series' earlier patches, posted 26 May 2010 by Rik van Riel:
 *            (a) "[PATCH 2/5] change direct call of spin_lock(anon_vma->lock) to inline
 *                function", Message-ID <20100526112553.65724b12@annuminas.surriel.com>
 *                (index id 11009320326): every spin_lock/spin_unlock(&anon_vma->lock) below
 *                becomes anon_vma_lock/anon_vma_unlock;
 *            (b) "[PATCH 3/5] track the root (oldest) anon_vma", Message-ID
 *                <20100526154010.3904df5c@annuminas.surriel.com> (index id 11032719670),
 *                merged as 5c341ee1dfc8fe69d66b1c8b19e463c6d7201ae1 "mm: track the root
 *                (oldest) anon_vma" (commit page, pages corpus: LeafOS gitiles
 *                .../+/5c341ee1dfc8fe69d66b1c8b19e463c6d7201ae1%5E%21/mm/rmap.c, whose diff
 *                spells the comment "The root anon_vma's spinlock" after akpm's typo fix);
 *            lines outside their hunks from luckasfb/OT_903D-kernel-2.6.35.7
 *            kernel/mm/rmap.c @ 0fb9ec99c0836cee641c90720887e8cf5c678681 (2.6.35.7).
 *            page_lock_anon_vma and page_unlock_anon_vma also agree with the '-' and context
 *            lines of Hugh Dickins's <alpine.LSU.2.00.1008252305540.19107@sister.anvils>
 *            (linux-mm, 25 Aug 2010, against 2.6.36-rc2) and with Rik van Riel's anon_vma_lock
 *            conversion as quoted in linux-mm (index file 11460551863, hunk @@ -311,7 +311,7
 *            @@ "page_unlock_anon_vma").
 * status:    partial
 * holds:     anon_vma_prepare, anon_vma_chain_link, anon_vma_fork, anon_vma_unlink,
 *            page_lock_anon_vma, page_unlock_anon_vma, is_vma_temporary_stack,
 *            try_to_unmap_anon, rmap_walk_anon
 * unchanged: anon_vma_clone, unlink_anon_vmas, page_address_in_vma, page_referenced_one,
 *            page_referenced_anon, page_add_anon_rmap, page_remove_rmap, try_to_unmap_one
 *            (as in kernel/5beb4930, 2.6.34's texts; 2.6.35.7 has the same text for these, except the
 *            unlink_anon_vmas comment that (b) rewrites - see below)
 * notes:     anon_vma_unlink: the "empty =" line is 2.6.35's (anonvma_external_refcount),
 *            as in (a)'s context. try_to_unmap_anon: 2.6.35's, with a8bef8ff's
 *            temporary-stack skip (2.6.35-rc1, UNVERIFIED); is_vma_temporary_stack: a8bef8ff's,
 *            2.6.35.7's text (the same as kernel/a8bef8ff/mm/rmap.c's).
 *            page_lock_anon_vma: 2.6.35.7's body with (a)'s '+' line; (a)'s pre-image (an
 *            mmotm of May 2010) re-checks page_rmapping(page) in an "again:" loop that
 *            2.6.35.7 does not have - which of the two 012f1800 sits on is UNVERIFIED.
 *            Hugh Dickins's later 2.6.36-rc fix ("mm: fix hang on anon_vma->root->lock",
 *            Aug 2010) re-checks page_mapped() after taking the root lock; not in this text.
 *            unlink_anon_vmas: (b) replaces its first comment; the code is unchanged and the
 *            model has no comment text, so it is not copied here.
 */

int anon_vma_prepare(struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	struct anon_vma_chain *avc;

	might_sleep();
	if (unlikely(!anon_vma)) {
		struct mm_struct *mm = vma->vm_mm;
		struct anon_vma *allocated;

		avc = anon_vma_chain_alloc();
		if (!avc)
			goto out_enomem;

		anon_vma = find_mergeable_anon_vma(vma);
		allocated = NULL;
		if (!anon_vma) {
			anon_vma = anon_vma_alloc();
			if (unlikely(!anon_vma))
				goto out_enomem_free_avc;
			allocated = anon_vma;
			/*
			 * This VMA had no anon_vma yet.  This anon_vma is
			 * the root of any anon_vma tree that might form.
			 */
			anon_vma->root = anon_vma;
		}

		anon_vma_lock(anon_vma);
		/* page_table_lock to protect against threads */
		spin_lock(&mm->page_table_lock);
		if (likely(!vma->anon_vma)) {
			vma->anon_vma = anon_vma;
			avc->anon_vma = anon_vma;
			avc->vma = vma;
			list_add(&avc->same_vma, &vma->anon_vma_chain);
			list_add(&avc->same_anon_vma, &anon_vma->head);
			allocated = NULL;
			avc = NULL;
		}
		spin_unlock(&mm->page_table_lock);
		anon_vma_unlock(anon_vma);

		if (unlikely(allocated))
			anon_vma_free(allocated);
		if (unlikely(avc))
			anon_vma_chain_free(avc);
	}
	return 0;

 out_enomem_free_avc:
	anon_vma_chain_free(avc);
 out_enomem:
	return -ENOMEM;
}

static void anon_vma_chain_link(struct vm_area_struct *vma,
				struct anon_vma_chain *avc,
				struct anon_vma *anon_vma)
{
	avc->vma = vma;
	avc->anon_vma = anon_vma;
	list_add(&avc->same_vma, &vma->anon_vma_chain);

	anon_vma_lock(anon_vma);
	list_add_tail(&avc->same_anon_vma, &anon_vma->head);
	anon_vma_unlock(anon_vma);
}

int anon_vma_fork(struct vm_area_struct *vma, struct vm_area_struct *pvma)
{
	struct anon_vma_chain *avc;
	struct anon_vma *anon_vma;

	/* Don't bother if the parent process has no anon_vma here. */
	if (!pvma->anon_vma)
		return 0;

	/*
	 * First, attach the new VMA to the parent VMA's anon_vmas,
	 * so rmap can find non-COWed pages in child processes.
	 */
	if (anon_vma_clone(vma, pvma))
		return -ENOMEM;

	/* Then add our own anon_vma. */
	anon_vma = anon_vma_alloc();
	if (!anon_vma)
		goto out_error;
	avc = anon_vma_chain_alloc();
	if (!avc)
		goto out_error_free_anon_vma;

	/*
	 * The root anon_vma's spinlock is the lock actually used when we
	 * lock any of the anon_vmas in this anon_vma tree.
	 */
	anon_vma->root = pvma->anon_vma->root;
	/* Mark this anon_vma as the one where our new (COWed) pages go. */
	vma->anon_vma = anon_vma;
	anon_vma_chain_link(vma, avc, anon_vma);

	return 0;

 out_error_free_anon_vma:
	anon_vma_free(anon_vma);
 out_error:
	unlink_anon_vmas(vma);
	return -ENOMEM;
}

static void anon_vma_unlink(struct anon_vma_chain *anon_vma_chain)
{
	struct anon_vma *anon_vma = anon_vma_chain->anon_vma;
	int empty;

	/* If anon_vma_fork fails, we can get an empty anon_vma_chain. */
	if (!anon_vma)
		return;

	anon_vma_lock(anon_vma);
	list_del(&anon_vma_chain->same_anon_vma);

	/* We must garbage collect the anon_vma if it's empty */
	empty = list_empty(&anon_vma->head) && !anonvma_external_refcount(anon_vma);
	anon_vma_unlock(anon_vma);

	if (empty)
		anon_vma_free(anon_vma);
}

struct anon_vma *page_lock_anon_vma(struct page *page)
{
	struct anon_vma *anon_vma;
	unsigned long anon_mapping;

	rcu_read_lock();
	anon_mapping = (unsigned long) ACCESS_ONCE(page->mapping);
	if ((anon_mapping & PAGE_MAPPING_FLAGS) != PAGE_MAPPING_ANON)
		goto out;
	if (!page_mapped(page))
		goto out;

	anon_vma = (struct anon_vma *) (anon_mapping - PAGE_MAPPING_ANON);
	anon_vma_lock(anon_vma);
	return anon_vma;
out:
	rcu_read_unlock();
	return NULL;
}

void page_unlock_anon_vma(struct anon_vma *anon_vma)
{
	anon_vma_unlock(anon_vma);
	rcu_read_unlock();
}

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

static int rmap_walk_anon(struct page *page, int (*rmap_one)(struct page *,
		struct vm_area_struct *, unsigned long, void *), void *arg)
{
	struct anon_vma *anon_vma;
	struct anon_vma_chain *avc;
	int ret = SWAP_AGAIN;

	/*
	 * Note: remove_migration_ptes() cannot use page_lock_anon_vma()
	 * because that depends on page_mapped(); but not all its usages
	 * are holding mmap_sem. Users without mmap_sem are required to
	 * take a reference count to prevent the anon_vma disappearing
	 */
	anon_vma = page_anon_vma(page);
	if (!anon_vma)
		return ret;
	anon_vma_lock(anon_vma);
	list_for_each_entry(avc, &anon_vma->head, same_anon_vma) {
		struct vm_area_struct *vma = avc->vma;
		unsigned long address = vma_address(page, vma);
		if (address == -EFAULT)
			continue;
		ret = rmap_one(page, vma, address, arg);
		if (ret != SWAP_AGAIN)
			break;
	}
	anon_vma_unlock(anon_vma);
	return ret;
}
