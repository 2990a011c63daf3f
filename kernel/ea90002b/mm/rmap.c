/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   ea90002b
 * file:      mm/rmap.c
 * source:    the commit's diff, git.zx2c4.com linux-dev mirror,
 *            diff/?id=ea90002b0fa7bdee86ec22eba1d951f30bf043a6 (mm/rmap.c index
 *            ee97d38ed7d9..4bad3267537a, one hunk in __page_set_anon_rmap); author and date
 *            (Linus Torvalds, Mon Apr 12 12:44:29 2010) from a linux-mm mail that quotes the
 *            commit (index id 46130521919)
 * status:    partial
 * holds:     __page_set_anon_rmap
 * unchanged: every other modelled mm/rmap.c function (kernel/d0e9fe17, kernel/5beb4930);
 *            page_add_anon_rmap still calls it with three arguments (e8a03feb's '-' lines);
 *            mm/mmap.c's vma_adjust is 287d97ac's (kernel/287d97ac)
 * notes:     The post-image of the hunk, '+' and context lines; the stored diff page lost the
 *            tabs and blank lines, which are restored in the kernel's style (the blank lines
 *            as 2.6.35.7's text of the next form has them). e8a03feb (2.6.34-rc, next on
 *            mm/rmap.c: its diff starts from index 4bad3267537a) added the "exclusive"
 *            argument: kernel/linux-2.6.34. The kerneldoc comment above the function (e8a03feb's
 *            hunk has it as context) is not stored. Order: the merge 64a8920f "Merge branch
 *            'anonvma'" (12 Apr 2010, git.zx2c4.com) has ea90002b as its second parent and lists
 *            d0e9fe17, 287d97ac, "anon_vma: clone the anon_vma chain in the right order" and
 *            ea90002b. The rc of ea90002b is UNVERIFIED.
 */

static void __page_set_anon_rmap(struct page *page,
	struct vm_area_struct *vma, unsigned long address)
{
	struct anon_vma_chain *avc;
	struct anon_vma *anon_vma;

	BUG_ON(!vma->anon_vma);

	/*
	 * We must use the _oldest_ possible anon_vma for the page mapping!
	 *
	 * So take the last AVC chain entry in the vma, which is the deepest
	 * ancestor, and use the anon_vma from that.
	 */
	avc = list_entry(vma->anon_vma_chain.prev, struct anon_vma_chain, same_vma);
	anon_vma = avc->anon_vma;

	anon_vma = (void *) anon_vma + PAGE_MAPPING_ANON;
	page->mapping = (struct address_space *) anon_vma;
	page->index = linear_page_index(vma, address);
}
