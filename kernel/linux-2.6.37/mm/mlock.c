/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.37
 * file:      mm/mlock.c
 * source:    [ML39] dnobori/DN-LinuxKernel-Learn linux-2.6.39/mm/mlock.c, commit
 *                   1e37c14c729472f107fb33e1bd4afe6bea0d2f2f (vanilla 2.6.39; stored, index id
 *                   35807748621; the repo adds a first line including autoconf.h);
 *            [ML35] a full mm/mlock.c of the find_string index (id 94401847, no repository
 *                   named): rlimit() (2.6.33 on), get_gate_vma(current) (before 2.6.39),
 *                   16-page FOLL_GET batches (before 2.6.38) and no stack-guard-page check
 *                   (added in the 2.6.36 cycle): about 2.6.33-2.6.35;
 *            [HD31] Hugh Dickins, "[PATCH] mm: munlock use mapcount to avoid terrible
 *                   overhead", linux-mm, 18 Oct 2011,
 *                   <alpine.LSU.2.00.1110181700400.3361@sister.anvils> (pre-image
 *                   "3.1-rc10/mm/mlock.c 2011-07-21", the 3.0 release date; hunk @@ -110,7).
 * status:    unverified
 * holds:     mlock_vma_page, munlock_vma_page
 * unchanged: -
 * notes:     no 2.6.37 or 3.0 mlock.c is stored. mlock_vma_page and munlock_vma_page are
 *            [ML39]'s text; each is byte-identical in [ML35], so both are BRACKETED (before
 *            2.6.36 and at 2.6.39). munlock_vma_page sits at the same lines in both
 *            (TestClearPageMlocked on line 110; v2.6.36's blob b70919c, which Michel
 *            Lespinasse's Nov 2010 patches diff against, differs from [ML35] only after it, by
 *            the 7-line stack_guard_page helper). [HD31]'s hunk against 3.0's file starts on
 *            that line 110 and shows "if (TestClearPageMlocked(page)) {",
 *            "dec_zone_page_state(page, NR_MLOCK);", "if (!isolate_lru_page(page)) {", "int
 *            ret = try_to_munlock(page);" as context: the same lines in 3.0 (the rest of
 *            munlock_vma_page in 3.0 is unverified, and so is mlock_vma_page's 3.0 text). So
 *            the same text stands for linux-2.6.37, 744ed144 and eb709b0d (3.0), none of which
 *            changed mm/mlock.c. Callers are the model's, not mirrored: mlock_vma_page's
 *            (models/lru.rs, mlock_one_page) as 2.6.37's __mlock_vma_pages_range has it
 *            ([ML35]: lru_add_drain, then per page lock_page, the page->mapping test,
 *            mlock_vma_page, unlock_page) and 3.0's follow_page with FOLL_MLOCK (page->mapping
 *            && trylock_page, lru_add_drain, the page->mapping test, mlock_vma_page,
 *            unlock_page: mm/memory.c of that era in the find_string index, id 2044028467, no
 *            repository named; [ML39]'s gup_flags have FOLL_MLOCK); munlock_vma_page's
 *            (models/lru.rs, munlock_one_page) as munlock_vma_pages_range has it
 *            (lru_add_drain, the vma's VM_LOCKED cleared, follow_page(FOLL_GET), lock_page,
 *            the page->mapping test, unlock_page, put_page).
 */

/*
 * Mark page as mlocked if not already.
 * If page on LRU, isolate and putback to move to unevictable list.
 */
void mlock_vma_page(struct page *page)
{
	BUG_ON(!PageLocked(page));

	if (!TestSetPageMlocked(page)) {
		inc_zone_page_state(page, NR_MLOCK);
		count_vm_event(UNEVICTABLE_PGMLOCKED);
		if (!isolate_lru_page(page))
			putback_lru_page(page);
	}
}

/**
 * munlock_vma_page - munlock a vma page
 * @page - page to be unlocked
 *
 * called from munlock()/munmap() path with page supposedly on the LRU.
 * When we munlock a page, because the vma where we found the page is being
 * munlock()ed or munmap()ed, we want to check whether other vmas hold the
 * page locked so that we can leave it on the unevictable lru list and not
 * bother vmscan with it.  However, to walk the page's rmap list in
 * try_to_munlock() we must isolate the page from the LRU.  If some other
 * task has removed the page from the LRU, we won't be able to do that.
 * So we clear the PageMlocked as we might not get another chance.  If we
 * can't isolate the page, we leave it for putback_lru_page() and vmscan
 * [page_referenced()/try_to_unmap()] to deal with.
 */
void munlock_vma_page(struct page *page)
{
	BUG_ON(!PageLocked(page));

	if (TestClearPageMlocked(page)) {
		dec_zone_page_state(page, NR_MLOCK);
		if (!isolate_lru_page(page)) {
			int ret = try_to_munlock(page);
			/*
			 * did try_to_unlock() succeed or punt?
			 */
			if (ret != SWAP_MLOCK)
				count_vm_event(UNEVICTABLE_PGMUNLOCKED);

			putback_lru_page(page);
		} else {
			/*
			 * Some other task has removed the page from the LRU.
			 * putback_lru_page() will take care of removing the
			 * page from the unevictable list, if necessary.
			 * vmscan [page_referenced()] will move the page back
			 * to the unevictable list if some other vma has it
			 * mlocked.
			 */
			if (PageUnevictable(page))
				count_vm_event(UNEVICTABLE_PGSTRANDED);
			else
				count_vm_event(UNEVICTABLE_PGMUNLOCKED);
		}
	}
}
