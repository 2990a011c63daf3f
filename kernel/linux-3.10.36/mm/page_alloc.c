/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.10.36
 * file:      mm/page_alloc.c
 * source:    AndreiLux/ref-3.10 mm/page_alloc.c, commit
 *            018bce42ef4a2d7ccfe48c05df22591d61f33c38; the changed lines match the hunk
 *            of linux-mm/stable, David Rientjes, 28 Mar 2014, '[patch stable-3.10] mm:
 *            close PageTail race' ('commit 668f9abbd4334e6c29fa8acd71635c4f9101caa7
 *            upstream'), Message-ID
 *            <alpine.DEB.2.02.1403281333290.18841@chino.kir.corp.google.com>; Greg KH
 *            'Applied, thanks.' 31 Mar 2014, Message-ID
 *            <20140331235543.GB20979@kroah.com>
 * status:    verbatim
 * holds:     prep_compound_page
 * unchanged: prep_new_page (same file: set_page_refcounted() before
 *            prep_compound_page())
 * notes:     Release number UNVERIFIED: Greg KH applied the backport on 31 Mar 2014
 *            (after 3.10.35 was cut); 3.10.36 is inferred, no 3.10.36 changelog or
 *            stable-queue mail was found. parent: 27c73ae7 (3.10-stable carried the
 *            27c73ae7 backport; its swap.c equals 27c73ae7's text with compound_head()
 *            for compound_trans_head()).
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
