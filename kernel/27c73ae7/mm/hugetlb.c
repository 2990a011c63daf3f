/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   27c73ae7
 * file:      mm/hugetlb.c
 * source:    the mm/hugetlb.c '+' lines of linux-mm, Andrea Arcangeli, 20 Nov 2013, '[PATCH
 *            1/8] mm: hugetlbfs: fix hugetlbfs optimization', Message-Id
 *            <1384969876-6374-2-git-send-email-aarcange@redhat.com> (mm/swap.c index
 *            7a9f80d..84b26aa, mm/hugetlb.c index 7d57af2..14737f8e).
 * status:    unverified
 * holds:     PageHeadHuge
 * unchanged: PageHuge (linux-3.4) and every other linux-3.11 function
 * notes:     Posted text. The v3 cover letter (Message-Id
 *            <1384969876-6374-1-git-send-email-aarcange@redhat.com>) lists 'mm/hugetlb.c:
 *            simplify PageHeadHuge() and PageHuge()' (Andrew Morton) and 'mm/hugetlb.c: defer
 *            PageHeadHuge() symbol export' as later patches of the series. The merged 27c73ae7
 *            did not have the simplified body 'return get_compound_page_dtor(page_head) ==
 *            free_huge_page;': the simplification was still a separate mmotm patch against
 *            3.13-rc1 (22 Nov 2013) and 3.13-rc6 (2 Jan 2014), after 27c73ae7 had left mmotm
 *            for mainline (mmotm order; no mainline mm/hugetlb.c at 27c73ae7 is stored, so
 *            the merged hunk's bytes are unread). Same semantics either way. The posting also adds EXPORT_SYMBOL_GPL(PageHeadHuge) (not
 *            reproduced).
 */

/*
 * PageHeadHuge() only returns true for hugetlbfs head page, but not for
 * normal or transparent huge pages.
 */
int PageHeadHuge(struct page *page_head)
{
	compound_page_dtor *dtor;

	if (!PageHead(page_head))
		return 0;

	dtor = get_compound_page_dtor(page_head);

	return dtor == free_huge_page;
}
