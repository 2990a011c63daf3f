/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   668f9abb
 * file:      mm/page_alloc.c
 * source:    torvalds/linux mm/page_alloc.c at 668f9abbd4334e6c29fa8acd71635c4f9101caa7
 *            (stored, index id 1569844075), verbatim
 * status:    verbatim
 * holds:     prep_compound_page
 * unchanged: prep_new_page (set_page_refcounted() before prep_compound_page(), as in 3.10:
 *            see AndreiLux/ref-3.10 mm/page_alloc.c; carried over to 3.14 without a 3.14
 *            text read, UNVERIFIED for 3.14)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was: hunk of
 *            linux-mm/stable, David Rientjes, 28 Mar 2014, '[patch stable-3.10] mm: close
 *            PageTail race' ('commit 668f9abbd4334e6c29fa8acd71635c4f9101caa7 upstream'),
 *            Message-ID <alpine.DEB.2.02.1403281333290.18841@chino.kir.corp.google.com>;
 *            Greg KH 'Applied, thanks.' 31 Mar 2014, Message-ID
 *            <20140331235543.GB20979@kroah.com> (mainline 668f9abb carries the folded 'mm,
 *            page_alloc: make first_page visible before PageTail'); the function as a whole
 *            verbatim in AndreiLux/ref-3.10 mm/page_alloc.c, commit
 *            018bce42ef4a2d7ccfe48c05df22591d61f33c38 (3.10 with this backport) Earlier
 *            notes: The mainline commit message (commit page
 *            gerrit-public.fairphone.software kernel/msm-4.9
 *            668f9abbd4334e6c29fa8acd71635c4f9101caa7) says 'The patch then adds a store
 *            memory barrier to prep_compound_page()'; the -mm posting did not carry this
 *            hunk (it was the separate mmotm patch
 *            mm-page_alloc-make-first_page-visible-before-pagetail.patch, folded on merge).
 *            Mainline hunk text taken from the stable backport; the same lines are the hunk
 *            ('@@ -369,9 +369,11 @@') of that mmotm patch as posted: linux-mm, David
 *            Rientjes, 4 Feb 2014, '[patch v2] mm, page_alloc: make first_page visible
 *            before PageTail', Message-ID
 *            <alpine.DEB.2.02.1402041621350.14962@chino.kir.corp.google.com> (archive
 *            sjp38/lore-linux-mm). parent: 44518d2b.
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

void prep_compound_page(struct page *page, unsigned long order)
{
	int i;
	int nr_pages = 1 << order;

	set_compound_page_dtor(page, free_compound_page);
	set_compound_order(page, order);
	__SetPageHead(page);
	for (i = 1; i < nr_pages; i++) {
		struct page *p = page + i;
		set_page_count(p, 0);
		p->first_page = page;
		/* Make sure p->first_page is always valid for PageTail() */
		smp_wmb();
		__SetPageTail(p);
	}
}
