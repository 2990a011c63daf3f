/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   44518d2b
 * file:      include/linux/mm.h
 * source:    torvalds/linux include/linux/mm.h at 44518d2b32646e37b4b7a0813bbbe98dc21c7f8f
 *            (stored, index id 2841190754), verbatim
 * status:    verbatim
 * holds:     __compound_tail_refcounted, compound_tail_refcounted, get_huge_page_tail
 * unchanged: compound_head, get_page (3.13 text)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was: posting: linux-mm,
 *            Andrea Arcangeli, 20 Nov 2013, '[PATCH 5/8] mm: tail page refcounting
 *            optimization for slab and hugetlbfs', Message-Id
 *            <1384969876-6374-6-git-send-email-aarcange@redhat.com> (archive
 *            sjp38/lore-linux-mm, file m); commit 44518d2b32646e37b4b7a0813bbbe98dc21c7f8f
 *            verified on commit pages (git.lede-project.org openwrt/staging/blogic,
 *            gerrit-public.fairphone.software kernel/msm-4.9, lab.nexedi.cn). Earlier notes
 *            (superseded where the text above says otherwise): All three functions lie
 *            whole inside the mm.h hunk of 5/8 ('+' and context lines). The hunk also adds
 *            the extern/inline PageHeadHuge declaration (moved from hugetlb.h), not
 *            modelled. parent: ca641514 (the parent line of
 *            44518d2b's commit page, git.cascardo.info cascardo/linux.git).
 */

static inline bool __compound_tail_refcounted(struct page *page)
{
	return !PageSlab(page) && !PageHeadHuge(page);
}

/*
 * This takes a head page as parameter and tells if the
 * tail page reference counting can be skipped.
 *
 * For this to be safe, PageSlab and PageHeadHuge must remain true on
 * any given page where they return true here, until all tail pins
 * have been released.
 */
static inline bool compound_tail_refcounted(struct page *page)
{
	VM_BUG_ON(!PageHead(page));
	return __compound_tail_refcounted(page);
}

static inline void get_huge_page_tail(struct page *page)
{
	/*
	 * __split_huge_page_refcount() cannot run
	 * from under us.
	 * In turn no need of compound_trans_head here.
	 */
	VM_BUG_ON(page_mapcount(page) < 0);
	VM_BUG_ON(atomic_read(&page->_count) != 0);
	if (compound_tail_refcounted(compound_head(page)))
		atomic_inc(&page->_mapcount);
}
