/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   668f9abb
 * file:      include/linux/mm.h
 * source:    torvalds/linux include/linux/mm.h at 668f9abbd4334e6c29fa8acd71635c4f9101caa7
 *            (stored, index id 1988891133), verbatim
 * status:    verbatim
 * holds:     compound_head, compound_tail_refcounted, get_huge_page_tail, get_page
 * unchanged: __compound_tail_refcounted (44518d2b)
 * pending:   compound_tail_refcounted (its Rust is 44518d2b's helper,
 *            src/compound/commit_44518d2b.rs, which 5eaf1a9e's get_huge_page_tail calls
 *            and the variant 668f9abb runs through that delegation; the tool lists it
 *            here because no variant's own file mirrors it)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was: compound_head:
 *            linux-mm, David Rientjes, 12 Feb 2014, '[patch -mm] mm: close PageTail race',
 *            Message-ID <alpine.DEB.2.02.1402120058370.31209@chino.kir.corp.google.com> and
 *            linux-mm/stable, David Rientjes, 28 Mar 2014, '[patch stable-3.10] mm: close
 *            PageTail race' ('commit 668f9abbd4334e6c29fa8acd71635c4f9101caa7 upstream'),
 *            Message-ID <alpine.DEB.2.02.1403281333290.18841@chino.kir.corp.google.com>;
 *            Greg KH 'Applied, thanks.' 31 Mar 2014, Message-ID
 *            <20140331235543.GB20979@kroah.com> (identical hunks);
 *            compound_tail_refcounted, get_page: linux-mm, Sasha Levin, 26 Dec 2013,
 *            '[PATCH] mm: dump page when hitting a VM_BUG_ON using VM_BUG_ON_PAGE',
 *            Message-Id <1388114452-30769-1-git-send-email-sasha.levin@oracle.com> ('+'
 *            lines); get_huge_page_tail: '-' lines of linux-mm, Kirill A. Shutemov, 12 Feb
 *            2015, '[PATCHv3 12/24] thp: PMD splitting without splitting compound page',
 *            Message-Id
 *            <1423757918-197669-13-git-send-email-kirill.shutemov@linux.intel.com> (archive
 *            sjp38/lore-linux-mm, file m). Earlier notes (superseded where the text above
 *            says otherwise): compound_head is whole in 668f9abb's hunk. get_huge_page_tail
 *            is Oleg's version (BUG_ON(!PageTail), page->first_page) as it stood in Feb
 *            2015 (3.19): assumed unchanged since 3.14 (no change to it found in between).
 *            compound_tail_refcounted/get_page: 44518d2b/3.13 text with Sasha's
 *            VM_BUG_ON_PAGE lines. Between 44518d2b and 668f9abb mainline also applied
 *            (mmotm order; commit ids NOT verified): 'mm: hugetlbfs: use
 *            __compound_tail_refcounted in __get_page_tail too' (Andrea), 'mm/hugetlb.c:
 *            simplify PageHeadHuge() and PageHuge()' (akpm), 'mm/swap.c: reorganize
 *            put_compound_page()' (akpm), 'mm/hugetlb.c: defer PageHeadHuge() symbol
 *            export' (Andrea), 'mm: thp: __get_page_tail_foll() can use
 *            get_huge_page_tail()' and 'mm: thp: turn compound_head() into
 *            BUG_ON(!PageTail) in get_huge_page_tail()' (Oleg Nesterov), and Sasha Levin's
 *            VM_BUG_ON -> VM_BUG_ON_PAGE conversion: having no folders of their own, their
 *            changes are held here (this folder is the 3.14 text of every function it
 *            holds). parent: 44518d2b.
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

static inline struct page *compound_head(struct page *page)
{
	if (unlikely(PageTail(page))) {
		struct page *head = page->first_page;

		/*
		 * page->first_page may be a dangling pointer to an old
		 * compound page, so recheck that it is still a tail
		 * page before returning.
		 */
		smp_rmb();
		if (likely(PageTail(page)))
			return head;
	}
	return page;
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
	VM_BUG_ON_PAGE(!PageHead(page), page);
	return __compound_tail_refcounted(page);
}

static inline void get_huge_page_tail(struct page *page)
{
	/*
	 * __split_huge_page_refcount() cannot run from under us.
	 */
	VM_BUG_ON_PAGE(!PageTail(page), page);
	VM_BUG_ON_PAGE(page_mapcount(page) < 0, page);
	VM_BUG_ON_PAGE(atomic_read(&page->_count) != 0, page);
	if (compound_tail_refcounted(page->first_page))
		atomic_inc(&page->_mapcount);
}

static inline void get_page(struct page *page)
{
	if (unlikely(PageTail(page)))
		if (likely(__get_page_tail(page)))
			return;
	/*
	 * Getting a normal page or the head of a compound page
	 * requires to already have an elevated page->_count.
	 */
	VM_BUG_ON_PAGE(atomic_read(&page->_count) <= 0, page);
	atomic_inc(&page->_count);
}
