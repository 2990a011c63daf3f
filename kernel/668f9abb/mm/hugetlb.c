/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   668f9abb
 * file:      mm/hugetlb.c
 * source:    '+' lines of linux-mm, 20 Nov 2013, '[PATCH 6/8] mm/hugetlb.c: simplify
 *            PageHeadHuge() and PageHuge()' (From: Andrew Morton), Message-Id
 *            <1384969876-6374-7-git-send-email-aarcange@redhat.com>;
 *            EXPORT_SYMBOL_GPL(PageHeadHuge) removed by linux-mm, 20 Nov 2013, '[PATCH
 *            8/8] mm/hugetlb.c: defer PageHeadHuge() symbol export', Message-Id
 *            <1384969876-6374-9-git-send-email-aarcange@redhat.com> (archive
 *            sjp38/lore-linux-mm, file m)
 * status:    partial
 * holds:     PageHuge, PageHeadHuge
 * unchanged: -
 * notes:     Both functions whole inside 6/8's hunks. EXPORT_SYMBOL lines are not
 *            stored. Between 44518d2b and 668f9abb mainline also applied (mmotm order;
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

int PageHuge(struct page *page)
{
	if (!PageCompound(page))
		return 0;

	page = compound_head(page);
	return get_compound_page_dtor(page) == free_huge_page;
}

/*
 * PageHeadHuge() only returns true for hugetlbfs head page, but not for
 * normal or transparent huge pages.
 */
int PageHeadHuge(struct page *page_head)
{
	if (!PageHead(page_head))
		return 0;

	return get_compound_page_dtor(page_head) == free_huge_page;
}
