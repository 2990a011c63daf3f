/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.37
 * file:      mm/swap.c
 * source:    no 2.6.37 tree is stored in the index (searched: find_repos "2.6.37",
 *            find_files linux-2.6.37/mm/swap.c, find_string of 2.6.37-only lines: only
 *            postings answer). Assembled from postings whose pre-image is the 2.6.37 file
 *            (linux-mm archive, sjp38/lore-linux-mm):
 *            [P1] Shaohua Li, "[PATCH 1/2]mm: simplify code of swap.c", Wed, 05 Jan 2011
 *                 16:00:04 +0800, <1294214404.1949.572.camel@sli10-conroe>, base file dated
 *                 "linux.orig/mm/swap.c 2011-01-04 11:06:33" (2.6.37 was released 4 Jan 2011;
 *                 the base has no THP and no lru_deactivate, i.e. the 2.6.37 file);
 *            [P2] Shaohua Li, "[PATCH v2 2/2]mm: batch activate_page() to reduce lock
 *                 contention", Wed, 05 Jan 2011 16:00:09 +0800,
 *                 <1294214409.1949.573.camel@sli10-conroe>;
 *            [P3] Andrea Arcangeli, "[PATCH 06 of 66] alter compound get_page/put_page",
 *                 Wed, 03 Nov 2010 16:27:41 +0100, <a5372413f6faf8c52784.1288798061@v2.random>
 *                 (THP v6, base 2.6.37-rc);
 *            [N] neighbour text: dnobori/DN-LinuxKernel-Learn, linux-2.6.39/mm/swap.c,
 *                commit 1e37c14c729472f107fb33e1bd4afe6bea0d2f2f (a vanilla 2.6.39 tree whose
 *                files carry one extra first line '#include "linux/generated/autoconf.h"');
 *            [T] torvalds/linux mm/swap.c at 744ed1442757767ffede5008bb13e0805085902e
 *                (stored, index id 2054784427; the 2.6.38 merge window, Jan 2011) and
 *            [S] the 3.0-era mm/swap.c of kernel/eb709b0d (index id 24827678), used only to
 *                narrow the gap of the "[N] only" functions (compared byte for byte,
 *                comment blocks included, by the lru audit);
 *            [S28] torvalds/linux mm/swap.c at 894bc310419ac95f4fa4142dc364401a7e607f65
 *                ("Unevictable LRU Infrastructure", 2.6.28; stored, index id 9126860605) and
 *            [S38b] torvalds/linux mm/swap.c at 7a608572a282a74978e10fd6cd63090aebe29f5c
 *                (the revert of 744ed144, Jan 2011; stored, index id 2115516635):
 *                add_page_to_unevictable_list is [S38b]'s text, compared byte for byte;
 *                [S28], [T] and [S] read the same (bracketed: identical at 894bc310
 *                (2.6.28) and 744ed144 / 7a608572 (Jan 2011, after v2.6.37)).
 * status:    partial
 * holds:     __page_cache_release, put_page, pagevec_move_tail, rotate_reclaimable_page,
 *            activate_page, mark_page_accessed, __lru_cache_add, lru_cache_add_lru,
 *            add_page_to_unevictable_list, drain_cpu_pagevecs, lru_add_drain, release_pages,
 *            __pagevec_release, ____pagevec_lru_add, pagevec_lookup
 * unchanged: -
 * pending:   -
 * notes:     each function says where its lines come from. Functions marked "[N] only" are
 *            2.6.39's text, which no 2.6.38/2.6.39 patch read here touched; they were NOT
 *            compared with a 2.6.37 tree (none is stored: find_repos "2.6.37" lists 8
 *            repositories, none holding mm/swap.c; dfshan/linux-2.6.38.3 has none either).
 *            They, and lru_add_drain's body, are byte-identical to [T] and to [S], so
 *            unchanged from Jan 2011 to the 3.0 era; the gap left is 2.6.37 -> [T] (the
 *            2.6.38 merge window up to 744ed144: THP and d8505dee among others; the hunks of
 *            those two read here do not touch them).
 */

/* mmcheck: partial: the last four lines (from "del_page_from_lru") and free_hot_cold_page()
 * are the context of [P3]'s hunk "@@ -56,17 +56,83 @@ static void __page_cache_release";
 * the head is [N]'s (THP split the tail off into __put_single_page in 2.6.38). */
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
	free_hot_cold_page(page, 0);
}

/* mmcheck: partial: [P3] hunk "@@ -75,7 +141,7 @@ void put_page(struct page *page)":
 * context and the '-' line; the signature line is the hunk header's. */
void put_page(struct page *page)
{
	if (unlikely(PageCompound(page)))
		put_compound_page(page);
	else if (put_page_testzero(page))
		__page_cache_release(page);
}
EXPORT_SYMBOL(put_page);

/* mmcheck: partial: [P1]'s '-' and context lines; the line "struct zone *pagezone =
 * page_zone(page);" falls between [P1]'s two hunks and is [N]'s (pagevec_lru_move_fn). */
/*
 * pagevec_move_tail() must be called with IRQ disabled.
 * Otherwise this may cause nasty races.
 */
static void pagevec_move_tail(struct pagevec *pvec)
{
	int i;
	int pgmoved = 0;
	struct zone *zone = NULL;

	for (i = 0; i < pagevec_count(pvec); i++) {
		struct page *page = pvec->pages[i];
		struct zone *pagezone = page_zone(page);

		if (pagezone != zone) {
			if (zone)
				spin_unlock(&zone->lru_lock);
			zone = pagezone;
			spin_lock(&zone->lru_lock);
		}
		if (PageLRU(page) && !PageActive(page) && !PageUnevictable(page)) {
			int lru = page_lru_base_type(page);
			list_move_tail(&page->lru, &zone->lru[lru].list);
			pgmoved++;
		}
	}
	if (zone)
		spin_unlock(&zone->lru_lock);
	__count_vm_events(PGROTATED, pgmoved);
	release_pages(pvec->pages, pvec->nr, pvec->cold);
	pagevec_reinit(pvec);
}

/* mmcheck: partial: comment, signature (with its two spaces) and the first condition line
 * are [P1]'s '-'/context lines; the body after "!PageUnevictable(page) && PageLRU(page)) {"
 * is [N]'s. */
/*
 * Writeback is about to end against a page which has been marked for immediate
 * reclaim.  If it still appears to be reclaimable, move it to the tail of the
 * inactive list.
 */
void  rotate_reclaimable_page(struct page *page)
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

/* mmcheck: partial: the whole function is [P2]'s '-' and context lines (hunk
 * "@@ -191,27 +191,94 @@"); it is identical to [N]'s activate_page (2.6.39 is unbatched). */
/*
 * FIXME: speed this up?
 */
void activate_page(struct page *page)
{
	struct zone *zone = page_zone(page);

	spin_lock_irq(&zone->lru_lock);
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
	spin_unlock_irq(&zone->lru_lock);
}

/* mmcheck: unverified: [N] only (2.6.39 text); byte-identical to [T] (Jan 2011) and [S];
 * no 2.6.37 tree stored. */
/*
 * Mark a page as having seen activity.
 *
 * inactive,unreferenced	->	inactive,referenced
 * inactive,referenced		->	active,unreferenced
 * active,unreferenced		->	active,referenced
 */
void mark_page_accessed(struct page *page)
{
	if (!PageActive(page) && !PageUnevictable(page) &&
			PageReferenced(page) && PageLRU(page)) {
		activate_page(page);
		ClearPageReferenced(page);
	} else if (!PageReferenced(page)) {
		SetPageReferenced(page);
	}
}

EXPORT_SYMBOL(mark_page_accessed);

/* mmcheck: unverified: [N] only (2.6.39 text); byte-identical to [T] (Jan 2011) and [S];
 * no 2.6.37 tree stored. */
void __lru_cache_add(struct page *page, enum lru_list lru)
{
	struct pagevec *pvec = &get_cpu_var(lru_add_pvecs)[lru];

	page_cache_get(page);
	if (!pagevec_add(pvec, page))
		____pagevec_lru_add(pvec, lru);
	put_cpu_var(lru_add_pvecs);
}
EXPORT_SYMBOL(__lru_cache_add);

/* mmcheck: unverified: [N] only (2.6.39 text); byte-identical to [T] (Jan 2011) and [S];
 * no 2.6.37 tree stored. */
/**
 * lru_cache_add_lru - add a page to a page list
 * @page: the page to be added to the LRU.
 * @lru: the LRU list to which the page is added.
 */
void lru_cache_add_lru(struct page *page, enum lru_list lru)
{
	if (PageActive(page)) {
		VM_BUG_ON(PageUnevictable(page));
		ClearPageActive(page);
	} else if (PageUnevictable(page)) {
		VM_BUG_ON(PageActive(page));
		ClearPageUnevictable(page);
	}

	VM_BUG_ON(PageLRU(page) || PageActive(page) || PageUnevictable(page));
	__lru_cache_add(page, lru);
}

/* mmcheck: verbatim: [S38b]'s text (comment block included); [S28], [T] and [S] read the
 * same. Bracketed: identical at 894bc310 (2.6.28) and 744ed144 (Jan 2011, after v2.6.37). */
/**
 * add_page_to_unevictable_list - add a page to the unevictable list
 * @page:  the page to be added to the unevictable list
 *
 * Add page directly to its zone's unevictable list.  To avoid races with
 * tasks that might be making the page evictable, through eg. munlock,
 * munmap or exit, while it's not on the lru, we want to add the page
 * while it's locked or otherwise "invisible" to other tasks.  This is
 * difficult to do when using the pagevec cache, so bypass that.
 */
void add_page_to_unevictable_list(struct page *page)
{
	struct zone *zone = page_zone(page);

	spin_lock_irq(&zone->lru_lock);
	SetPageUnevictable(page);
	SetPageLRU(page);
	add_page_to_lru_list(zone, page, LRU_UNEVICTABLE);
	spin_unlock_irq(&zone->lru_lock);
}

/* mmcheck: partial: [N]'s drain_cpu_pagevecs without its lru_deactivate_pvecs block (added by
 * 31560180 "mm: deactivate invalidated pages", 2.6.39); that 2.6.37's function ends right
 * after the lru_rotate_pvecs block is [P2]'s context ("pagevec_move_tail(pvec);
 * local_irq_restore(flags); }" then "}" at "@@ -310,6 +377,8 @@ static void
 * drain_cpu_pagevecs(int cpu)"). */
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
}

/* mmcheck: partial: [P2] shows the first line as context ("void lru_add_drain(void)"); the
 * body is [N]'s, byte-identical to [T] (Jan 2011) and [S]. */
void lru_add_drain(void)
{
	drain_cpu_pagevecs(get_cpu());
	put_cpu();
}

/* mmcheck: unverified: [N] only (2.6.39 text); byte-identical to [T] (Jan 2011) and [S];
 * no 2.6.37 tree stored. */
/*
 * Batched page_cache_release().  Decrement the reference count on all the
 * passed pages.  If it fell to zero then remove the page from the LRU and
 * free it.
 *
 * Avoid taking zone->lru_lock if possible, but if it is taken, retain it
 * for the remainder of the operation.
 *
 * The locking in this function is against shrink_inactive_list(): we recheck
 * the page count inside the lock to see whether shrink_inactive_list()
 * grabbed the page via the LRU.  If it did, give up: shrink_inactive_list()
 * will free it.
 */
void release_pages(struct page **pages, int nr, int cold)
{
	int i;
	struct pagevec pages_to_free;
	struct zone *zone = NULL;
	unsigned long uninitialized_var(flags);

	pagevec_init(&pages_to_free, cold);
	for (i = 0; i < nr; i++) {
		struct page *page = pages[i];

		if (unlikely(PageCompound(page))) {
			if (zone) {
				spin_unlock_irqrestore(&zone->lru_lock, flags);
				zone = NULL;
			}
			put_compound_page(page);
			continue;
		}

		if (!put_page_testzero(page))
			continue;

		if (PageLRU(page)) {
			struct zone *pagezone = page_zone(page);

			if (pagezone != zone) {
				if (zone)
					spin_unlock_irqrestore(&zone->lru_lock,
									flags);
				zone = pagezone;
				spin_lock_irqsave(&zone->lru_lock, flags);
			}
			VM_BUG_ON(!PageLRU(page));
			__ClearPageLRU(page);
			del_page_from_lru(zone, page);
		}

		if (!pagevec_add(&pages_to_free, page)) {
			if (zone) {
				spin_unlock_irqrestore(&zone->lru_lock, flags);
				zone = NULL;
			}
			__pagevec_free(&pages_to_free);
			pagevec_reinit(&pages_to_free);
  		}
	}
	if (zone)
		spin_unlock_irqrestore(&zone->lru_lock, flags);

	pagevec_free(&pages_to_free);
}
EXPORT_SYMBOL(release_pages);

/* mmcheck: unverified: [N] only (2.6.39 text); byte-identical to [T] (Jan 2011) and [S];
 * no 2.6.37 tree stored. [P1] shows "EXPORT_SYMBOL(__pagevec_release);" as context after
 * the hunk header "@@ -399,44 +417,33 @@ void __pagevec_release(...)". */
/*
 * The pages which we're about to release may be in the deferred lru-addition
 * queues.  That would prevent them from really being freed right now.  That's
 * OK from a correctness point of view but is inefficient - those pages may be
 * cache-warm and we want to give them back to the page allocator ASAP.
 *
 * So __pagevec_release() will drain those queues here.  __pagevec_lru_add()
 * and __pagevec_lru_add_active() call release_pages() directly to avoid
 * mutual recursion.
 */
void __pagevec_release(struct pagevec *pvec)
{
	lru_add_drain();
	release_pages(pvec->pages, pagevec_count(pvec), pvec->cold);
	pagevec_reinit(pvec);
}

EXPORT_SYMBOL(__pagevec_release);

/* mmcheck: partial: whole function from [P1]'s context and '-' lines (hunk
 * "@@ -399,44 +417,33 @@"), nothing taken from [N]. */
/*
 * Add the passed pages to the LRU, then drop the caller's refcount
 * on them.  Reinitialises the caller's pagevec.
 */
void ____pagevec_lru_add(struct pagevec *pvec, enum lru_list lru)
{
	int i;
	struct zone *zone = NULL;

	VM_BUG_ON(is_unevictable_lru(lru));

	for (i = 0; i < pagevec_count(pvec); i++) {
		struct page *page = pvec->pages[i];
		struct zone *pagezone = page_zone(page);
		int file;
		int active;

		if (pagezone != zone) {
			if (zone)
				spin_unlock_irq(&zone->lru_lock);
			zone = pagezone;
			spin_lock_irq(&zone->lru_lock);
		}
		VM_BUG_ON(PageActive(page));
		VM_BUG_ON(PageUnevictable(page));
		VM_BUG_ON(PageLRU(page));
		SetPageLRU(page);
		active = is_active_lru(lru);
		file = is_file_lru(lru);
		if (active)
			SetPageActive(page);
		update_page_reclaim_stat(zone, page, file, active);
		add_page_to_lru_list(zone, page, lru);
	}
	if (zone)
		spin_unlock_irq(&zone->lru_lock);
	release_pages(pvec->pages, pvec->nr, pvec->cold);
	pagevec_reinit(pvec);
}

EXPORT_SYMBOL(____pagevec_lru_add);

/* mmcheck: unverified: [N] only (2.6.39 text; a research helper's reading of 6 Dec 2026:
 * unchanged for years before and after, not compared with a 2.6.37 tree). */
/**
 * pagevec_lookup - gang pagecache lookup
 * @pvec:	Where the resulting pages are placed
 * @mapping:	The address_space to search
 * @start:	The starting page index
 * @nr_pages:	The maximum number of pages
 *
 * pagevec_lookup() will search for and return a group of up to @nr_pages pages
 * in the mapping.  The pages are placed in @pvec.  pagevec_lookup() takes a
 * reference against the pages in @pvec.
 *
 * The search returns a group of mapping-contiguous pages with ascending
 * indexes.  There may be holes in the indices due to not-present pages.
 *
 * pagevec_lookup() returns the number of pages which were found.
 */
unsigned pagevec_lookup(struct pagevec *pvec, struct address_space *mapping,
		pgoff_t start, unsigned nr_pages)
{
	pvec->nr = find_get_pages(mapping, start, nr_pages, pvec->pages);
	return pagevec_count(pvec);
}

EXPORT_SYMBOL(pagevec_lookup);
