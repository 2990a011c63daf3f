/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.4
 * file:      arch/x86/mm/gup.c
 * source:    a comment-stripped pre-3.8 arch/x86/mm/gup.c in the search index (file id
 *            501858048: gup_pmd_range tests pmd_large(pmd) only); the comment 'hugepages are
 *            never "special"' in gup_huge_pmd from a 3.14+ arch/x86/mm/gup.c in the search
 *            index (file id 65875868117, VM_BUG_ON_PAGE form). (Header fixed by the compound
 *            fidelity helper: it quoted that comment with its delimiters, which ended this
 *            header comment early, so the fidelity tool could not read the functions.)
 * status:    partial
 * holds:     get_head_page_multiple, gup_huge_pmd
 * unchanged: (root variant)
 * notes:     Statements as in the pre-3.8 stripped copy; the same two functions are unchanged
 *            up to 3.13 (the 3.14 copy differs only by VM_BUG_ON_PAGE). get_huge_page_tail()
 *            is in include/linux/mm.h.
 */

static inline void get_head_page_multiple(struct page *page, int nr)
{
	VM_BUG_ON(page != compound_head(page));
	VM_BUG_ON(page_count(page) == 0);
	atomic_add(nr, &page->_count);
	SetPageReferenced(page);
}

static noinline int gup_huge_pmd(pmd_t pmd, unsigned long addr,
		unsigned long end, int write, struct page **pages, int *nr)
{
	unsigned long mask;
	pte_t pte = *(pte_t *)&pmd;
	struct page *head, *page;
	int refs;

	mask = _PAGE_PRESENT|_PAGE_USER;
	if (write)
		mask |= _PAGE_RW;
	if ((pte_flags(pte) & mask) != mask)
		return 0;
	/* hugepages are never "special" */
	VM_BUG_ON(pte_flags(pte) & _PAGE_SPECIAL);
	VM_BUG_ON(!pfn_valid(pte_pfn(pte)));

	refs = 0;
	head = pte_page(pte);
	page = head + ((addr & ~PMD_MASK) >> PAGE_SHIFT);
	do {
		VM_BUG_ON(compound_head(page) != head);
		pages[*nr] = page;
		if (PageTail(page))
			get_huge_page_tail(page);
		(*nr)++;
		page++;
		refs++;
	} while (addr += PAGE_SIZE, addr != end);
	get_head_page_multiple(head, refs);

	return 1;
}
