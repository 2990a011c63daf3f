/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   eb709b0d
 * file:      mm/swap.c
 * source:    [S]  a stored mm/swap.c of the 3.0 era, find_string index file id 24827678
 *                 (20,334 characters; the index does not name its repository). It has
 *                 eb709b0d's batched activate_page, lru_deactivate_fn/deactivate_page with the
 *                 PageUnevictable test, THP's put_compound_page and no 3.2 changes; its size
 *                 matches the "swap.c 19.9 KB" that a linux-stable blob page whose last
 *                 commit is eb709b0d shows (gitlab.ublinux.ru .../blob/5f1a19070b16.../mm/swap.c,
 *                 pages corpus). Read in full (characters 0-16000 and 16000-20334; the
 *                 16000-19000 stretch was first read by the lru audit).
 *            [V4] Shaohua Li, "[PATCH 2/2 v4]mm: batch activate_page() to reduce lock
 *                 contention", Thu, 10 Mar 2011 13:30:19 +0800,
 *                 <1299735019.2337.63.camel@sli10-conroe>, as quoted in Minchan Kim's reply
 *                 <AANLkTin2h0YFe70vYj7cExAJbbPS+oDjvfunfGPNZfB1@mail.gmail.com> (15 Mar 2011);
 *                 [V3] <1299486978.2337.29.camel@sli10-conroe> (7 Mar 2011, same code);
 *            [S1] Shaohua Li, "[PATCH 1/2 v4]mm: simplify code of swap.c", Thu, 10 Mar 2011
 *                 13:30:18 +0800, <1299735018.2337.62.camel@sli10-conroe> (the re-landed
 *                 pagevec_lru_move_fn, 3dd7ae8e in 2.6.39);
 *            [N]  dnobori/DN-LinuxKernel-Learn linux-2.6.39/mm/swap.c, commit
 *                 1e37c14c729472f107fb33e1bd4afe6bea0d2f2f (the mainline parent's text).
 * status:    partial
 * holds:     __page_cache_release, __put_single_page, put_page, pagevec_lru_move_fn,
 *            pagevec_move_tail_fn, pagevec_move_tail, rotate_reclaimable_page,
 *            __activate_page, activate_page_drain, activate_page, lru_deactivate_fn,
 *            drain_cpu_pagevecs, deactivate_page, ____pagevec_lru_add_fn, ____pagevec_lru_add
 * unchanged: mark_page_accessed, __lru_cache_add, lru_cache_add_lru, lru_add_drain,
 *            release_pages, __pagevec_release ([S] = [N] = the root folder's text; the root
 *            texts compared byte for byte with [S], comment blocks included, by the lru
 *            audit: identical); add_page_to_unevictable_list (compared with [S], with
 *            torvalds/linux mm/swap.c at 7a608572a282a74978e10fd6cd63090aebe29f5c, index id
 *            2115516635, Jan 2011, and at 70b50f94f1644e2aa7cb374819cfd93f3c28d725, index
 *            id 454049177, 3.2-rc, Nov 2011: the root's text in all three, comment block
 *            included; bracketed for 3.0)
 * pending:   - (pagevec_move_tail_fn, pagevec_move_tail and rotate_reclaimable_page are
 *            modelled since 7 Dec 2026, claim lru.18; lru_deactivate_fn and deactivate_page
 *            since 6 Dec 2026, claim lru.9)
 * notes:     eb709b0d itself changes only __activate_page (new, from activate_page's body),
 *            activate_page_drain (new), activate_page (batched, CONFIG_SMP; UP form calls
 *            __activate_page under lru_lock) and drain_cpu_pagevecs (+activate_page_drain);
 *            these four are [S]'s text and equal [V3]/[V4]'s '+' lines. The other functions
 *            here differ from the root (2.6.37) because of commits between 2.6.37 and
 *            eb709b0d's real parent (2.6.39+): THP (2.6.38: __put_single_page, put_page,
 *            __page_cache_release), 3dd7ae8e (2.6.39: pagevec_lru_move_fn and its users),
 *            memcg's mem_cgroup_rotate_reclaimable_page in pagevec_move_tail_fn, 31560180
 *            (2.6.39: lru_deactivate_fn, deactivate_page, drain of lru_deactivate_pvecs) and
 *            the PageUnevictable test in deactivate_page (3.0-rc). ____pagevec_lru_add_fn and
 *            ____pagevec_lru_add are [S]'s text (= [N] = [S1]'s '+' lines). Every function
 *            this file holds (17 texts with the SMP and !SMP forms), and the comment block
 *            above each, is byte-identical to [S] (compared function by function by the lru
 *            audit). Whether [S] is exactly v3.0's file or a 3.0.y/3.1 one is UNVERIFIED,
 *            narrowed: no stored tree holds mm/swap.c at eb709b0d or at the v3.0 tag
 *            (02f8c6aee8df), nor does any stored linux-3.0.x repository; [S] has no lines of
 *            the known later changes and its size (20,334 characters, about 19.9 KB) matches
 *            the blob page's; that page's commit, 5f1a19070b16 (Steven Rostedt, author-dated
 *            2011-06-15 by a blame line, find_string id 45735915428, a mainline 3.0-rc
 *            commit), has eb709b0d as mm/swap.c's last commit, so eb709b0d's swap.c was
 *            still mainline's in mid-June 2011. The five weeks from there to v3.0 (22 Jul
 *            2011) are not covered.
 */

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

static void __put_single_page(struct page *page)
{
	__page_cache_release(page);
	free_hot_cold_page(page, 0);
}

void put_page(struct page *page)
{
	if (unlikely(PageCompound(page)))
		put_compound_page(page);
	else if (put_page_testzero(page))
		__put_single_page(page);
}
EXPORT_SYMBOL(put_page);

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
	release_pages(pvec->pages, pvec->nr, pvec->cold);
	pagevec_reinit(pvec);
}

static void pagevec_move_tail_fn(struct page *page, void *arg)
{
	int *pgmoved = arg;
	struct zone *zone = page_zone(page);

	if (PageLRU(page) && !PageActive(page) && !PageUnevictable(page)) {
		enum lru_list lru = page_lru_base_type(page);
		list_move_tail(&page->lru, &zone->lru[lru].list);
		mem_cgroup_rotate_reclaimable_page(page);
		(*pgmoved)++;
	}
}

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

static void __activate_page(struct page *page, void *arg)
{
	struct zone *zone = page_zone(page);

	if (PageLRU(page) && !PageActive(page) && !PageUnevictable(page)) {
		int file = page_is_file_cache(page);
		int lru = page_lru_base_type(page);
		del_page_from_lru_list(zone, page, lru);

		SetPageActive(page);
		lru += LRU_ACTIVE;
		add_page_to_lru_list(zone, page, lru);
		__count_vm_event(PGACTIVATE);

		update_page_reclaim_stat(zone, page, file, 1);
	}
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

#else
static inline void activate_page_drain(int cpu)
{
}

void activate_page(struct page *page)
{
	struct zone *zone = page_zone(page);

	spin_lock_irq(&zone->lru_lock);
	__activate_page(page, NULL);
	spin_unlock_irq(&zone->lru_lock);
}
#endif

/*
 * If the page can not be invalidated, it is moved to the
 * inactive list to speed up its reclaim.  It is moved to the
 * head of the list, rather than the tail, to give the flusher
 * threads some time to write it out, as this is much more
 * effective than the single-page writeout from reclaim.
 *
 * If the page isn't page_mapped and dirty/writeback, the page
 * could reclaim asap using PG_reclaim.
 *
 * 1. active, mapped page -> none
 * 2. active, dirty/writeback page -> inactive, head, PG_reclaim
 * 3. inactive, mapped page -> none
 * 4. inactive, dirty/writeback page -> inactive, head, PG_reclaim
 * 5. inactive, clean -> inactive, tail
 * 6. Others -> none
 *
 * In 4, why it moves inactive's head, the VM expects the page would
 * be write it out by flusher threads as this is much more effective
 * than the single-page writeout from reclaim.
 */
static void lru_deactivate_fn(struct page *page, void *arg)
{
	int lru, file;
	bool active;
	struct zone *zone = page_zone(page);

	if (!PageLRU(page))
		return;

	if (PageUnevictable(page))
		return;

	/* Some processes are using the page */
	if (page_mapped(page))
		return;

	active = PageActive(page);

	file = page_is_file_cache(page);
	lru = page_lru_base_type(page);
	del_page_from_lru_list(zone, page, lru + active);
	ClearPageActive(page);
	ClearPageReferenced(page);
	add_page_to_lru_list(zone, page, lru);

	if (PageWriteback(page) || PageDirty(page)) {
		/*
		 * PG_reclaim could be raced with end_page_writeback
		 * It can make readahead confusing.  But race window
		 * is _really_ small and  it's non-critical problem.
		 */
		SetPageReclaim(page);
	} else {
		/*
		 * The page's writeback ends up during pagevec
		 * We moves tha page into tail of inactive.
		 */
		list_move_tail(&page->lru, &zone->lru[lru].list);
		mem_cgroup_rotate_reclaimable_page(page);
		__count_vm_event(PGROTATED);
	}

	if (active)
		__count_vm_event(PGDEACTIVATE);
	update_page_reclaim_stat(zone, page, file, 0);
}

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

	pvec = &per_cpu(lru_deactivate_pvecs, cpu);
	if (pagevec_count(pvec))
		pagevec_lru_move_fn(pvec, lru_deactivate_fn, NULL);

	activate_page_drain(cpu);
}

/**
 * deactivate_page - forcefully deactivate a page
 * @page: page to deactivate
 *
 * This function hints the VM that @page is a good reclaim candidate,
 * for example if its invalidation fails due to the page being dirty
 * or under writeback.
 */
void deactivate_page(struct page *page)
{
	/*
	 * In a workload with many unevictable page such as mprotect, unevictable
	 * page deactivation for accelerating reclaim is pointless.
	 */
	if (PageUnevictable(page))
		return;

	if (likely(get_page_unless_zero(page))) {
		struct pagevec *pvec = &get_cpu_var(lru_deactivate_pvecs);

		if (!pagevec_add(pvec, page))
			pagevec_lru_move_fn(pvec, lru_deactivate_fn, NULL);
		put_cpu_var(lru_deactivate_pvecs);
	}
}

/* mmcheck: partial: [S]'s text (= [N] = [S1]'s '+' lines), compared byte for byte. */
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

/* mmcheck: partial: [S]'s text (= [N] = [S1]'s '+' and context lines), compared byte for
 * byte. */
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
