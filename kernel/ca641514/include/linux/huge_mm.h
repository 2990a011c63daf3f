/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   ca641514
 * file:      include/linux/huge_mm.h
 * source:    posting: linux-mm, Andrea Arcangeli, 20 Nov 2013, '[PATCH 4/8] mm: thp:
 *            optimize compound_trans_huge', Message-Id
 *            <1384969876-6374-5-git-send-email-aarcange@redhat.com>; the whole block
 *            (comment, #if 0 function, #else define) also appears as '-' lines of
 *            linux-mm, David Rientjes, 12 Feb 2014, '[patch -mm] mm: close PageTail
 *            race', Message-ID
 *            <alpine.DEB.2.02.1402120058370.31209@chino.kir.corp.google.com> (archive
 *            sjp38/lore-linux-mm, file m)
 * status:    partial
 * holds:     compound_trans_head
 * unchanged: the !CONFIG_TRANSPARENT_HUGEPAGE '#define compound_trans_head(page)
 *            compound_head(page)' (not modelled)
 * notes:     Every line is from a hunk ('+' lines of 4/8, context of 4/8 for the
 *            function body kept under #if 0, and the complete '-' block of the 668f9abb
 *            -mm posting): nothing filled from a neighbour. Full id
 *            ca641514f4056deee1fb2eb356e2c99b98718ade: the parent line of 44518d2b's commit
 *            page (git.cascardo.info cascardo/linux.git, h=44518d2b32646e37b4b7a0813bbbe98dc21c7f8f;
 *            44518d2b, 5/8, committed 22 Jan 2014 00:19:43 +0000) and ca641514's own commit page
 *            (git.zx2c4.com linux-dev: "mm: thp: optimize compound_trans_huge", author date
 *            2014-01-21 15:48:52 -0800, committed 2014-01-21 16:19:43 -0800, parent "mm:
 *            hugetlbfs: move the put/get_page slab and hugetlbfs optimization in a faster
 *            path", i.e. ebf360f9). parent: ebf360f9 (the commit page; mmotm order:
 *            ...faster-path.patch, ...faster-path-fix-2.patch,
 *            mm-thp-optimize-compound_trans_huge.patch). The live definition is the
 *            #else branch: compound_trans_head(page) == compound_head(page), which at
 *            this point is 3.13's barrier-free compound_head().
 */

/*
 * compound_trans_head() should be used instead of compound_head(),
 * whenever the "page" passed as parameter could be the tail of a
 * transparent hugepage that could be undergoing a
 * __split_huge_page_refcount(). The page structure layout often
 * changes across releases and it makes extensive use of unions. So if
 * the page structure layout will change in a way that
 * page->first_page gets clobbered by __split_huge_page_refcount, the
 * implementation making use of smp_rmb() will be required.
 *
 * Currently we define compound_trans_head as compound_head, because
 * page->private is in the same union with page->first_page, and
 * page->private isn't clobbered. However this also means we're
 * currently leaving dirt into the page->private field of anonymous
 * pages resulting from a THP split, instead of setting page->private
 * to zero like for every other page that has PG_private not set. But
 * anonymous pages don't use page->private so this is not a problem.
 */
#if 0
/* This will be needed if page->private will be clobbered in split_huge_page */
static inline struct page *compound_trans_head(struct page *page)
{
	if (PageTail(page)) {
		struct page *head;
		head = page->first_page;
		smp_rmb();
		/*
		 * head may be a dangling pointer.
		 * __split_huge_page_refcount clears PageTail before
		 * overwriting first_page, so if PageTail is still
		 * there it means the head pointer isn't dangling.
		 */
		if (PageTail(page))
			return head;
	}
	return page;
}
#else
#define compound_trans_head(page) compound_head(page)
#endif
