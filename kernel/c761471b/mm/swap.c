/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   c761471b
 * file:      mm/swap.c
 * source:    the hunk of Kirill's 'mm: drop bogus VM_BUG_ON_PAGE assert in put_page()
 *            codepath' as quoted in linux-mm, Andrea Arcangeli, 27 Apr 2015, 'Re:
 *            kernel BUG at mm/swap.c:134! ...', Message-ID
 *            <20150427164050.GA24035@redhat.com>, quoting Kirill's '[PATCH] mm: drop
 *            bogus VM_BUG_ON_PAGE assert in put_page() codepath'; whole function in the
 *            '-' lines of linux-mm, Kirill A. Shutemov, 3 Jun 2015, '[PATCHv6 13/36]
 *            mm: drop tail page refcounting', Message-Id
 *            <1433351167-125878-14-git-send-email-kirill.shutemov@linux.intel.com>
 *            (archive sjp38/lore-linux-mm, file m)
 * status:    partial
 * holds:     put_unrefcounted_compound_page
 * unchanged: put_refcounted_compound_page, put_compound_page, __get_page_tail, put_page
 * notes:     c761471b58e6 'mm: avoid tail page refcounting on non-THP compound pages' (commit
 *            page gerrit-public.fairphone.software kernel/msm-4.9
 *            c761471b58e6138938ebc6eafec20b2f60cb3397: 'Reintroduce 8d63d99a5dfb ... after
 *            removing bogus VM_BUG_ON_PAGE() in put_unrefcounted_compound_page()'). Its own
 *            change (include/linux/mm.h, PageAnon in __compound_tail_refcounted) equals
 *            8d63d99a's, so mm.h is not copied; the VM_BUG_ON removal came in the preceding
 *            commit (mainline id not found) and is held here. parent: 8d63d99a. Update (6 Dec
 *            2026): the variant c761471b has META parent f3ca10dd (the revert of 8d63d99a, 22
 *            Apr 2015; kernel/f3ca10dd/), the model chain's: the assert's removal, c761471b's
 *            mainline parent, is folded into this folder, and what lies between f3ca10dd and it
 *            in mainline was not read (UNVERIFIED). 'parent: 8d63d99a' above names where the
 *            lookup of the other functions ends up either way (f3ca10dd's folder holds only
 *            __compound_tail_refcounted).
 */

/**
 * Two special cases here: we could avoid taking compound_lock_irqsave
 * and could skip the tail refcounting(in _mapcount).
 *
 * 1. Hugetlbfs page:
 *
 *    PageHeadHuge will remain true until the compound page
 *    is released and enters the buddy allocator, and it could
 *    not be split by __split_huge_page_refcount().
 *
 *    So if we see PageHeadHuge set, and we have the tail page pin,
 *    then we could safely put head page.
 *
 * 2. Slab THP page:
 *
 *    PG_slab is cleared before the slab frees the head page, and
 *    tail pin cannot be the last reference left on the head page,
 *    because the slab code is free to reuse the compound page
 *    after a kfree/kmem_cache_free without having to check if
 *    there's any tail pin left.  In turn all tail pinsmust be always
 *    released while the head is still pinned by the slab code
 *    and so we know PG_slab will be still set too.
 *
 *    So if we see PageSlab set, and we have the tail page pin,
 *    then we could safely put head page.
 */
static __always_inline
void put_unrefcounted_compound_page(struct page *page_head, struct page *page)
{
	/*
	 * If @page is a THP tail, we must read the tail page
	 * flags after the head page flags. The
	 * __split_huge_page_refcount side enforces write memory barriers
	 * between clearing PageTail and before the head page
	 * can be freed and reallocated.
	 */
	smp_rmb();
	if (likely(PageTail(page))) {
		/*
		 * __split_huge_page_refcount cannot race
		 * here, see the comment above this function.
		 */
		VM_BUG_ON_PAGE(!PageHead(page_head), page_head);
		if (put_page_testzero(page_head)) {
			/*
			 * If this is the tail of a slab THP page,
			 * the tail pin must not be the last reference
			 * held on the page, because the PG_slab cannot
			 * be cleared before all tail pins (which skips
			 * the _mapcount tail refcounting) have been
			 * released.
			 *
			 * If this is the tail of a hugetlbfs page,
			 * the tail pin may be the last reference on
			 * the page instead, because PageHeadHuge will
			 * not go away until the compound page enters
			 * the buddy allocator.
			 */
			VM_BUG_ON_PAGE(PageSlab(page_head), page_head);
			__put_compound_page(page_head);
		}
	} else
		/*
		 * __split_huge_page_refcount run before us,
		 * @page was a THP tail. The split @page_head
		 * has been freed and reallocated as slab or
		 * hugetlbfs page of smaller order (only
		 * possible if reallocated as slab on x86).
		 */
		if (put_page_testzero(page))
			__put_single_page(page);
}
