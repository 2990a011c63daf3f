/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   744ed144
 * file:      mm/swap.c
 * source:    torvalds/linux mm/swap.c at 744ed1442757767ffede5008bb13e0805085902e (stored,
 *            index id 2054784427), verbatim
 * status:    verbatim
 * holds:     __page_cache_release, __put_single_page, put_page, pagevec_lru_move_fn,
 *            pagevec_move_tail_fn, pagevec_move_tail, rotate_reclaimable_page,
 *            __activate_page, activate_page_drain, activate_page, putback_active_lru_page,
 *            drain_cpu_pagevecs, ____pagevec_lru_add_fn, ____pagevec_lru_add
 * unchanged: mark_page_accessed, __lru_cache_add, lru_cache_add_lru, lru_add_drain,
 *            release_pages, __pagevec_release (the root folder's texts, compared byte for
 *            byte with the stored tree at this commit, index id 2054784427, comment blocks
 *            included: identical; before, argued only from [P1]'s, [P2]'s and THP's [P3]
 *            hunks, none of which touches them); add_page_to_unevictable_list (compared
 *            with the stored tree at this commit, index id 2054784427, on 7 Dec 2026,
 *            comment block included: the root's text)
 * pending:   - (the lru_rotate pagevec's functions are modelled since 7 Dec 2026, claim
 *            lru.18)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included, after two corrections: the !CONFIG_SMP stub is
 *            'static inline void' in the tree, not 'static void inline', and
 *            drain_cpu_pagevecs has no blank line before activate_page_drain(cpu); the full
 *            id is the one the stored tree answers to at this path, and the one the project
 *            brief's seed text names). Compared again by the lru audit, function by function
 *            with the comment block above each, against index id 2054784427 (offsets 0 and
 *            16000): all 16 texts identical. Before, the source was: postings
 *            (linux-mm archive, sjp38/lore-linux-mm): [P1] Shaohua Li, "[PATCH 1/2]mm:
 *            simplify code of swap.c", Wed, 05 Jan 2011 16:00:04 +0800,
 *            <1294214404.1949.572.camel@sli10-conroe> (= d8505dee, the parent of 744ed144
 *            in mainline); [P2] Shaohua Li, "[PATCH v2 2/2]mm: batch activate_page() to
 *            reduce lock contention", Wed, 05 Jan 2011 16:00:09 +0800,
 *            <1294214409.1949.573.camel@sli10-conroe> (744ed144's posting); [P3] Andrea
 *            Arcangeli, "[PATCH 06 of 66] alter compound get_page/put_page", 03 Nov 2010,
 *            <a5372413f6faf8c52784.1288798061@v2.random> (THP, merged for 2.6.38-rc1 before
 *            744ed144); [N]  dnobori/DN-LinuxKernel-Learn linux-2.6.39/mm/swap.c, commit
 *            1e37c14c729472f107fb33e1bd4afe6bea0d2f2f. Earlier notes (superseded where the
 *            text above says otherwise): [P1] and [P2] applied to the 2011-01-04 file. That
 *            the merged d8505dee is byte-identical to [P1] is UNVERIFIED. The merged 744ed144
 *            is not [P2] byte for byte: its tree has the corrections above (and, from THP,
 *            the numpages lines in vmscan.c), and its changelog, read on free-git.org
 *            (FEX-Emu/linux commit 744ed14427, pages corpus), keeps [P2]'s first two
 *            paragraphs (with the 58% figure), drops [P2]'s "V1->v2" notes and the link to
 *            the initial post, and adds the microbenchmark table ("case-mmap-pread-seq
 *            -69.72%") and "[akpm@linux-foundation.org: coding-style fixes]" (the
 *            'static void inline' -> 'static inline void' correction). The
 *            git.karo-electronics.de page (mv-sheeva.git, ?a=commit&h=744ed1442757) showed
 *            only the first two paragraphs, which is why it had seemed to match [P2]'s.
 *            CONFIG_SMP and !CONFIG_SMP forms are both kept (the model runs the SMP one).
 *            __page_cache_release/__put_single_page/put_page are the THP (2.6.38-rc1) texts
 *            that 744ed144's tree had: [P3]'s '+' lines for __put_single_page and put_page,
 *            [N] for __page_cache_release (= the 2.6.37 head without free_hot_cold_page).
 */

/* mmcheck: verbatim: torvalds/linux mm/swap.c at 744ed1442757 (stored) */
/*
 * This path almost never happens for VM activity - pages are normally
 * freed via pagevecs.  But it gets used by networking.
 */
static void __page_cache_release(struct page *page)
{
	if (PageLRU(page)) {
		unsigned long flags;
		struct zone *zone = page_zone(page);

		spin_lock_irqsave(&zone->lru_lock, flags);
		VM_BUG_ON(!PageLRU(page));
		__ClearPageLRU(page);
		del_page_from_lru(zone, page);
		spin_unlock_irqrestore(&zone->lru_lock, flags);
	}
}

/* mmcheck: verbatim: torvalds/linux mm/swap.c at 744ed1442757 (stored) */
static void __put_single_page(struct page *page)
{
	__page_cache_release(page);
	free_hot_cold_page(page, 0);
}

/* mmcheck: verbatim: torvalds/linux mm/swap.c at 744ed1442757 (stored) */
void put_page(struct page *page)
{
	if (unlikely(PageCompound(page)))
		put_compound_page(page);
	else if (put_page_testzero(page))
		__put_single_page(page);
}
EXPORT_SYMBOL(put_page);

/* mmcheck: verbatim: torvalds/linux mm/swap.c at 744ed1442757 (stored) */
static void pagevec_lru_move_fn(struct pagevec *pvec,
				void (*move_fn)(struct page *page, void *arg),
				void *arg)
{
	int i;
	struct zone *zone = NULL;
	unsigned long flags = 0;

	for (i = 0; i < pagevec_count(pvec); i++) {
		struct page *page = pvec->pages[i];
		struct zone *pagezone = page_zone(page);

		if (pagezone != zone) {
			if (zone)
				spin_unlock_irqrestore(&zone->lru_lock, flags);
			zone = pagezone;
			spin_lock_irqsave(&zone->lru_lock, flags);
		}

		(*move_fn)(page, arg);
	}
	if (zone)
		spin_unlock_irqrestore(&zone->lru_lock, flags);
	release_pages(pvec->pages, pagevec_count(pvec), pvec->cold);
	pagevec_reinit(pvec);
}

/* mmcheck: verbatim: torvalds/linux mm/swap.c at 744ed1442757 (stored) */
static void pagevec_move_tail_fn(struct page *page, void *arg)
{
	int *pgmoved = arg;
	struct zone *zone = page_zone(page);

	if (PageLRU(page) && !PageActive(page) && !PageUnevictable(page)) {
		int lru = page_lru_base_type(page);
		list_move_tail(&page->lru, &zone->lru[lru].list);
		(*pgmoved)++;
	}
}

/* mmcheck: verbatim: torvalds/linux mm/swap.c at 744ed1442757 (stored) */
/*
 * pagevec_move_tail() must be called with IRQ disabled.
 * Otherwise this may cause nasty races.
 */
static void pagevec_move_tail(struct pagevec *pvec)
{
	int pgmoved = 0;

	pagevec_lru_move_fn(pvec, pagevec_move_tail_fn, &pgmoved);
	__count_vm_events(PGROTATED, pgmoved);
}

/* mmcheck: verbatim: torvalds/linux mm/swap.c at 744ed1442757 (stored) */
/*
 * Writeback is about to end against a page which has been marked for immediate
 * reclaim.  If it still appears to be reclaimable, move it to the tail of the
 * inactive list.
 */
void rotate_reclaimable_page(struct page *page)
{
	if (!PageLocked(page) && !PageDirty(page) && !PageActive(page) &&
	    !PageUnevictable(page) && PageLRU(page)) {
		struct pagevec *pvec;
		unsigned long flags;

		page_cache_get(page);
		local_irq_save(flags);
		pvec = &__get_cpu_var(lru_rotate_pvecs);
		if (!pagevec_add(pvec, page))
			pagevec_move_tail(pvec);
		local_irq_restore(flags);
	}
}

/* mmcheck: verbatim: torvalds/linux mm/swap.c at 744ed1442757 (stored) */
/*
 * A page will go to active list either by activate_page or putback_lru_page.
 * In the activate_page case, the page hasn't active bit set. The page might
 * not in LRU list because it's isolated before it gets a chance to be moved to
 * active list. The window is small because pagevec just stores several pages.
 * For such case, we do nothing for such page.
 * In the putback_lru_page case, the page isn't in lru list but has active
 * bit set
 */
static void __activate_page(struct page *page, void *arg)
{
	struct zone *zone = page_zone(page);
	int file = page_is_file_cache(page);
	int lru = page_lru_base_type(page);
	bool putback = !PageLRU(page);

	/* The page is isolated before it's moved to active list */
	if (!PageLRU(page) && !PageActive(page))
		return;
	if ((PageLRU(page) && PageActive(page)) || PageUnevictable(page))
		return;

	if (!putback)
		del_page_from_lru_list(zone, page, lru);
	else
		SetPageLRU(page);

	SetPageActive(page);
	lru += LRU_ACTIVE;
	add_page_to_lru_list(zone, page, lru);

	if (putback)
		return;
	__count_vm_event(PGACTIVATE);
	update_page_reclaim_stat(zone, page, file, 1);
}

#ifdef CONFIG_SMP
static DEFINE_PER_CPU(struct pagevec, activate_page_pvecs);

static void activate_page_drain(int cpu)
{
	struct pagevec *pvec = &per_cpu(activate_page_pvecs, cpu);

	if (pagevec_count(pvec))
		pagevec_lru_move_fn(pvec, __activate_page, NULL);
}

void activate_page(struct page *page)
{
	if (PageLRU(page) && !PageActive(page) && !PageUnevictable(page)) {
		struct pagevec *pvec = &get_cpu_var(activate_page_pvecs);

		page_cache_get(page);
		if (!pagevec_add(pvec, page))
			pagevec_lru_move_fn(pvec, __activate_page, NULL);
		put_cpu_var(activate_page_pvecs);
	}
}

/* Caller should hold zone->lru_lock */
int putback_active_lru_page(struct zone *zone, struct page *page)
{
	struct pagevec *pvec = &get_cpu_var(activate_page_pvecs);

	if (!pagevec_add(pvec, page)) {
		spin_unlock_irq(&zone->lru_lock);
		pagevec_lru_move_fn(pvec, __activate_page, NULL);
		spin_lock_irq(&zone->lru_lock);
	}
	put_cpu_var(activate_page_pvecs);
	return 1;
}

#else
static inline void activate_page_drain(int cpu)
{
}

void activate_page(struct page *page)
{
	struct zone *zone = page_zone(page);

	spin_lock_irq(&zone->lru_lock);
	if (PageLRU(page) && !PageActive(page) && !PageUnevictable(page))
		__activate_page(page, NULL);
	spin_unlock_irq(&zone->lru_lock);
}
#endif

/* mmcheck: verbatim: torvalds/linux mm/swap.c at 744ed1442757 (stored) */
/*
 * Drain pages out of the cpu's pagevecs.
 * Either "cpu" is the current CPU, and preemption has already been
 * disabled; or "cpu" is being hot-unplugged, and is already dead.
 */
static void drain_cpu_pagevecs(int cpu)
{
	struct pagevec *pvecs = per_cpu(lru_add_pvecs, cpu);
	struct pagevec *pvec;
	int lru;

	for_each_lru(lru) {
		pvec = &pvecs[lru - LRU_BASE];
		if (pagevec_count(pvec))
			____pagevec_lru_add(pvec, lru);
	}

	pvec = &per_cpu(lru_rotate_pvecs, cpu);
	if (pagevec_count(pvec)) {
		unsigned long flags;

		/* No harm done if a racing interrupt already did this */
		local_irq_save(flags);
		pagevec_move_tail(pvec);
		local_irq_restore(flags);
	}
	activate_page_drain(cpu);
}

/* mmcheck: verbatim: torvalds/linux mm/swap.c at 744ed1442757 (stored) */
static void ____pagevec_lru_add_fn(struct page *page, void *arg)
{
	enum lru_list lru = (enum lru_list)arg;
	struct zone *zone = page_zone(page);
	int file = is_file_lru(lru);
	int active = is_active_lru(lru);

	VM_BUG_ON(PageActive(page));
	VM_BUG_ON(PageUnevictable(page));
	VM_BUG_ON(PageLRU(page));

	SetPageLRU(page);
	if (active)
		SetPageActive(page);
	update_page_reclaim_stat(zone, page, file, active);
	add_page_to_lru_list(zone, page, lru);
}

/* mmcheck: verbatim: torvalds/linux mm/swap.c at 744ed1442757 (stored) */
/*
 * Add the passed pages to the LRU, then drop the caller's refcount
 * on them.  Reinitialises the caller's pagevec.
 */
void ____pagevec_lru_add(struct pagevec *pvec, enum lru_list lru)
{
	VM_BUG_ON(is_unevictable_lru(lru));

	pagevec_lru_move_fn(pvec, ____pagevec_lru_add_fn, (void *)lru);
}

EXPORT_SYMBOL(____pagevec_lru_add);
