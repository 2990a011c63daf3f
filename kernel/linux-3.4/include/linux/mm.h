/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.4
 * file:      include/linux/mm.h
 * source:    compound_lock, compound_unlock: the context lines of the include/linux/mm.h hunks
 *            of linux-mm, Pravin B Shelar, 22 May 2012, '[PATCH v4] mm: Fix slab->page flags
 *            corruption.', Message-Id <1337729116-10151-1-git-send-email-pshelar@nicira.com>
 *            (diff against 3.4: mm/swap.c index 8ff73d8..93c709b, include/linux/mm.h index
 *            8437e93..ddd58ce) (each function whole in its hunk). The other functions:
 *            AndreiLux/ref-3.10 include/linux/mm.h (3.10).
 * status:    unverified
 * holds:     put_page_testzero, get_page_unless_zero, compound_lock, compound_unlock,
 *            compound_lock_irqsave, compound_unlock_irqrestore, compound_head, page_mapcount,
 *            page_count, get_huge_page_tail, get_page, set_compound_page_dtor,
 *            get_compound_page_dtor, compound_order, set_compound_order
 * unchanged: (root variant)
 * pending:   page_mapcount (mirrored by src/page.rs, the model's struct page primitives,
 *            which the fidelity tool does not read: listed here so that the tool
 *            reports it instead of failing; added by the compound fidelity helper)
 * notes:     All but compound_lock/compound_unlock are 3.10 text: no 3.4 include/linux/mm.h
 *            was found; they are believed unchanged 3.2-3.10 (not checked).
 *            get_huge_page_tail() is defined here (include/linux/mm.h), not in
 *            arch/x86/mm/gup.c. compound_lock_irqsave()/compound_unlock_irqrestore() are what
 *            put_compound_page() and __get_page_tail() call (local_irq_save + compound_lock);
 *            __split_huge_page_refcount() calls plain compound_lock() under spin_lock_irq().
 */

static inline int put_page_testzero(struct page *page)
{
	VM_BUG_ON(atomic_read(&page->_count) == 0);
	return atomic_dec_and_test(&page->_count);
}

/*
 * Try to grab a ref unless the page has a refcount of zero, return false if
 * that is the case.
 */
static inline int get_page_unless_zero(struct page *page)
{
	return atomic_inc_not_zero(&page->_count);
}

/* mmcheck: verbatim: whole in the context of the v4 posting's mm.h hunks (3.4 text) */
static inline void compound_lock(struct page *page)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	bit_spin_lock(PG_compound_lock, &page->flags);
#endif
}

/* mmcheck: verbatim: whole in the context of the v4 posting's mm.h hunks (3.4 text) */
static inline void compound_unlock(struct page *page)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	bit_spin_unlock(PG_compound_lock, &page->flags);
#endif
}

static inline unsigned long compound_lock_irqsave(struct page *page)
{
	unsigned long uninitialized_var(flags);
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	local_irq_save(flags);
	compound_lock(page);
#endif
	return flags;
}

static inline void compound_unlock_irqrestore(struct page *page,
					      unsigned long flags)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	compound_unlock(page);
	local_irq_restore(flags);
#endif
}

static inline struct page *compound_head(struct page *page)
{
	if (unlikely(PageTail(page)))
		return page->first_page;
	return page;
}

static inline int page_mapcount(struct page *page)
{
	return atomic_read(&(page)->_mapcount) + 1;
}

static inline int page_count(struct page *page)
{
	return atomic_read(&compound_head(page)->_count);
}

static inline void get_huge_page_tail(struct page *page)
{
	/*
	 * __split_huge_page_refcount() cannot run
	 * from under us.
	 */
	VM_BUG_ON(page_mapcount(page) < 0);
	VM_BUG_ON(atomic_read(&page->_count) != 0);
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
	VM_BUG_ON(atomic_read(&page->_count) <= 0);
	atomic_inc(&page->_count);
}

static inline void set_compound_page_dtor(struct page *page,
						compound_page_dtor *dtor)
{
	page[1].lru.next = (void *)dtor;
}

static inline compound_page_dtor *get_compound_page_dtor(struct page *page)
{
	return (compound_page_dtor *)page[1].lru.next;
}

static inline int compound_order(struct page *page)
{
	if (!PageHead(page))
		return 0;
	return (unsigned long)page[1].lru.prev;
}

static inline void set_compound_order(struct page *page, unsigned long order)
{
	page[1].lru.prev = (void *)order;
}
