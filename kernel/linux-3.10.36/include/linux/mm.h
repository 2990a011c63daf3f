/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.10.36
 * file:      include/linux/mm.h
 * source:    hunk of linux-mm/stable, David Rientjes, 28 Mar 2014, '[patch stable-3.10]
 *            mm: close PageTail race' ('commit 668f9abbd4334e6c29fa8acd71635c4f9101caa7
 *            upstream'), Message-ID
 *            <alpine.DEB.2.02.1403281333290.18841@chino.kir.corp.google.com>; Greg KH
 *            'Applied, thanks.' 31 Mar 2014, Message-ID
 *            <20140331235543.GB20979@kroah.com>
 * status:    partial
 * holds:     compound_head
 * unchanged: get_page, get_huge_page_tail (3.10 text: AndreiLux/ref-3.10
 *            include/linux/mm.h, whose stored version 147ee332 lacks this backport)
 * notes:     compound_head is whole inside the hunk. Release number UNVERIFIED: Greg KH
 *            applied the backport on 31 Mar 2014 (after 3.10.35 was cut); 3.10.36 is
 *            inferred, no 3.10.36 changelog or stable-queue mail was found. parent:
 *            27c73ae7 (3.10-stable carried the 27c73ae7 backport; its swap.c equals
 *            27c73ae7's text with compound_head() for compound_trans_head()).
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
