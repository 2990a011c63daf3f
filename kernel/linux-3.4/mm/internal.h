/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.4
 * file:      mm/internal.h
 * source:    AndreiLux/ref-3.10 mm/internal.h (3.10). __get_page_tail_foll and get_page_foll:
 *            same statements and comments in the 2011 linux-mm posting of Andrea Arcangeli's
 *            'mm: thp: tail page refcounting fix' (70b50f94, 3.2; index file id 47091499625),
 *            '+' lines.
 * status:    unverified
 * holds:     set_page_count, set_page_refcounted, __get_page_tail_foll, get_page_foll
 * unchanged: (root variant)
 * pending:   set_page_count (mirrored by src/page.rs, the model's struct page primitives,
 *            which the fidelity tool does not read: listed here so that the tool
 *            reports it instead of failing; added by the compound fidelity helper)
 * notes:     3.10 text; no 3.4 copy found. The 70b50f94 posting (3.2) has the two _foll
 *            functions with the same bodies (get_page_foll without its leading comment block).
 *            set_page_count/set_page_refcounted: long-standing, not checked for 3.4.
 */

static inline void set_page_count(struct page *page, int v)
{
	atomic_set(&page->_count, v);
}

/*
 * Turn a non-refcounted page (->_count == 0) into refcounted with
 * a count of one.
 */
static inline void set_page_refcounted(struct page *page)
{
	VM_BUG_ON(PageTail(page));
	VM_BUG_ON(atomic_read(&page->_count));
	set_page_count(page, 1);
}

static inline void __get_page_tail_foll(struct page *page,
					bool get_page_head)
{
	/*
	 * If we're getting a tail page, the elevated page->_count is
	 * required only in the head page and we will elevate the head
	 * page->_count and tail page->_mapcount.
	 *
	 * We elevate page_tail->_mapcount for tail pages to force
	 * page_tail->_count to be zero at all times to avoid getting
	 * false positives from get_page_unless_zero() with
	 * speculative page access (like in
	 * page_cache_get_speculative()) on tail pages.
	 */
	VM_BUG_ON(atomic_read(&page->first_page->_count) <= 0);
	VM_BUG_ON(atomic_read(&page->_count) != 0);
	VM_BUG_ON(page_mapcount(page) < 0);
	if (get_page_head)
		atomic_inc(&page->first_page->_count);
	atomic_inc(&page->_mapcount);
}

/*
 * This is meant to be called as the FOLL_GET operation of
 * follow_page() and it must be called while holding the proper PT
 * lock while the pte (or pmd_trans_huge) is still mapping the page.
 */
static inline void get_page_foll(struct page *page)
{
	if (unlikely(PageTail(page)))
		/*
		 * This is safe only because
		 * __split_huge_page_refcount() can't run under
		 * get_page_foll() because we hold the proper PT lock.
		 */
		__get_page_tail_foll(page, true);
	else {
		/*
		 * Getting a normal page or the head of a compound page
		 * requires to already have an elevated page->_count.
		 */
		VM_BUG_ON(atomic_read(&page->_count) <= 0);
		atomic_inc(&page->_count);
	}
}
