/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   668f9abb
 * file:      mm/internal.h
 * source:    '-' lines of linux-mm, Kirill A. Shutemov, 12 Feb 2015, '[PATCHv3 12/24]
 *            thp: PMD splitting without splitting compound page', Message-Id
 *            <1423757918-197669-13-git-send-email-kirill.shutemov@linux.intel.com>
 *            (complete functions); VM_BUG_ON_PAGE lines also in linux-mm, Sasha Levin,
 *            26 Dec 2013, '[PATCH] mm: dump page when hitting a VM_BUG_ON using
 *            VM_BUG_ON_PAGE', Message-Id
 *            <1388114452-30769-1-git-send-email-sasha.levin@oracle.com>
 * status:    partial
 * holds:     __get_page_tail_foll, get_page_foll
 * unchanged: -
 * notes:     __get_page_tail_foll is Oleg's version (delegates the _mapcount to
 *            get_huge_page_tail()); text as of Feb 2015 (3.19), assumed unchanged since
 *            3.14. Between 44518d2b and 668f9abb mainline also applied (mmotm order;
 *            commit ids NOT verified): 'mm: hugetlbfs: use __compound_tail_refcounted
 *            in __get_page_tail too' (Andrea), 'mm/hugetlb.c: simplify PageHeadHuge()
 *            and PageHuge()' (akpm), 'mm/swap.c: reorganize put_compound_page()'
 *            (akpm), 'mm/hugetlb.c: defer PageHeadHuge() symbol export' (Andrea), 'mm:
 *            thp: __get_page_tail_foll() can use get_huge_page_tail()' and 'mm: thp:
 *            turn compound_head() into BUG_ON(!PageTail) in get_huge_page_tail()' (Oleg
 *            Nesterov), and Sasha Levin's VM_BUG_ON -> VM_BUG_ON_PAGE conversion:
 *            having no folders of their own, their changes are held here (this folder
 *            is the 3.14 text of every function it holds). parent: 44518d2b.
 *            Update (6 Dec 2026, superseding the above where it differs): the commits named
 *            above have verified mainline ids, read on their commit pages
 *            (git.zx2c4.com/linux-dev): 3bfcd13ec0b4, 758f66a29ccc, 26296ad2dfb4, c728852f5dd4,
 *            5eaf1a9e233d and 309381feaee5 (the PageHeadHuge export commit's id is UNVERIFIED);
 *            each but 758f66a2, the export commit and 309381fe has a folder and a variant of
 *            its own. This folder is the text of the variant 668f9abb, mainline's commit (David
 *            Rientjes, authored 2014-03-03 15:38:18 -0800, committed by Linus Torvalds
 *            2014-03-04 07:55:47 -0800, after v3.14-rc5: in -rc6, inferred), whose META parent
 *            is a0320865 (5eaf1a9e until 6 Dec 2026, which left 3.14's SLUB fix out;
 *            no modelled function changes between them but for 309381fe's
 *            VM_BUG_ON_PAGE, which the fidelity tool reads as VM_BUG_ON); 'parent: 44518d2b'
 *            above is superseded. Mainline's own parent, per the commit page, is 'MAINTAINERS:
 *            EDAC: add Mauro and Borislav as interim patch collectors' (its id UNVERIFIED). The
 *            3.10-stable backport is the variant linux-3.10.36 (kernel/linux-3.10.36/, parent
 *            27c73ae7); until this update it was the variant named 668f9abb.
 */

static inline void __get_page_tail_foll(struct page *page,
					bool get_page_head)
{
	/*
	 * If we're getting a tail page, the elevated page->_count is
	 * required only in the head page and we will elevate the head
	 * page->_count and tail page->_mapcount.
	 *
	 * We elevate page_tail->_mapcount for tail pages to force
	 * page_tail->_count to be zero at all times to avoid getting
	 * false positives from get_page_unless_zero() with
	 * speculative page access (like in
	 * page_cache_get_speculative()) on tail pages.
	 */
	VM_BUG_ON_PAGE(atomic_read(&page->first_page->_count) <= 0, page);
	if (get_page_head)
		atomic_inc(&page->first_page->_count);
	get_huge_page_tail(page);
}

/*
 * This is meant to be called as the FOLL_GET operation of
 * follow_page() and it must be called while holding the proper PT
 * lock while the pte (or pmd_trans_huge) is still mapping the page.
 */
static inline void get_page_foll(struct page *page)
{
	if (unlikely(PageTail(page)))
		/*
		 * This is safe only because
		 * __split_huge_page_refcount() can't run under
		 * get_page_foll() because we hold the proper PT lock.
		 */
		__get_page_tail_foll(page, true);
	else {
		/*
		 * Getting a normal page or the head of a compound page
		 * requires to already have an elevated page->_count.
		 */
		VM_BUG_ON_PAGE(atomic_read(&page->_count) <= 0, page);
		atomic_inc(&page->_count);
	}
}
