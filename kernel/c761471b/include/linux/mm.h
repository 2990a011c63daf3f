/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   c761471b
 * file:      include/linux/mm.h
 * source:    torvalds/linux include/linux/mm.h at 8d63d99a5dfbdb997d12dd3c07b2070ca723db3b
 *            (stored, index id 2912173488): 8d63d99a's text, which c761471b reintroduces
 * status:    partial
 * holds:     __compound_tail_refcounted
 * unchanged: compound_head (d2ee40ea/8d63d99a), compound_head_by_tail,
 *            compound_tail_refcounted, get_huge_page_tail, get_page
 * notes:     c761471b's message (commit page gerrit-public.fairphone.software kernel/msm-4.9)
 *            says 'Reintroduce 8d63d99a5dfb ... after removing bogus VM_BUG_ON_PAGE() in
 *            put_unrefcounted_compound_page()': its mm.h hunk was not read at c761471b, the
 *            text below is 8d63d99a's (kernel/8d63d99a/include/linux/mm.h). Added 6 Dec 2026:
 *            before, this variant's lookup ended at its META parent f3ca10dd (the revert), whose
 *            __compound_tail_refcounted has no PageAnon().
 */

static inline bool __compound_tail_refcounted(struct page *page)
{
	return PageAnon(page) && !PageSlab(page) && !PageHeadHuge(page);
}
