/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   5bf5f03c
 * file:      include/linux/mm.h
 * source:    the include/linux/mm.h hunks of linux-mm, Pravin B Shelar, 22 May 2012, '[PATCH
 *            v4] mm: Fix slab->page flags corruption.', Message-Id
 *            <1337729116-10151-1-git-send-email-pshelar@nicira.com> (diff against 3.4:
 *            mm/swap.c index 8ff73d8..93c709b, include/linux/mm.h index 8437e93..ddd58ce) ('+'
 *            and context lines).
 * status:    verbatim
 * holds:     compound_lock, compound_unlock
 * unchanged: every other function of linux-3.4/include/linux/mm.h
 * notes:     Same text in AndreiLux/ref-3.10 include/linux/mm.h (3.10), so the merge did not
 *            change these two hunks.
 */

static inline void compound_lock(struct page *page)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	VM_BUG_ON(PageSlab(page));
	bit_spin_lock(PG_compound_lock, &page->flags);
#endif
}

static inline void compound_unlock(struct page *page)
{
#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	VM_BUG_ON(PageSlab(page));
	bit_spin_unlock(PG_compound_lock, &page->flags);
#endif
}
