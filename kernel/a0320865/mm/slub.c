/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   a0320865
 * file:      mm/slub.c
 * source:    torvalds/linux mm/slub.c stored at a03208652dad18232e9ec3432df69f9c19c856ec
 *            (search index id 9521302215), Dave Hansen, "mm/slub.c: fix page->_count
 *            corruption (again)"; posted to linux-mm on 28 Jan 2014, "[PATCH] mm: slub: fix
 *            page->_count corruption (again)", Message-Id
 *            <20140128231722.E7387E6B@viggo.jf.intel.com> (index id 46163435097), whose '+'
 *            lines are this text.
 * status:    verbatim
 * holds:     set_page_slub_counters, __cmpxchg_double_slab
 * unchanged: slab_lock, slab_unlock (kernel/linux-3.4/mm/slub.c)
 * notes:     Run by variant a0320865 (src/compound/commit_a0320865.rs, parent 5eaf1a9e in the
 *            model chain) on compound.11's model: before this commit the slab_lock()
 *            fallback stored `page->counters = counters_new;`, and on x86-64
 *            (CONFIG_HAVE_CMPXCHG_DOUBLE && CONFIG_HAVE_ALIGNED_STRUCT_PAGE, where abca7c496584
 *            left counters an unsigned long) that 8-byte store covers page->_count, so a
 *            get_page()/put_page() of the slab head between the compare and the store is
 *            undone (debug caches, or CPUs without CMPXCHG16B). The commit's release (3.14) is
 *            inferred from the posting date; its committer date was not read.
 *            cmpxchg_double_slab() (the irq-saving twin) changes the same way; it is not held
 *            here because no model calls it.
 */

static inline void set_page_slub_counters(struct page *page, unsigned long counters_new)
{
	struct page tmp;
	tmp.counters = counters_new;
	/*
	 * page->counters can cover frozen/inuse/objects as well
	 * as page->_count.  If we assign to ->counters directly
	 * we run the risk of losing updates to page->_count, so
	 * be careful and only assign to the fields we need.
	 */
	page->frozen  = tmp.frozen;
	page->inuse   = tmp.inuse;
	page->objects = tmp.objects;
}

/* Interrupts must be disabled (for the fallback code to work right) */
static inline bool __cmpxchg_double_slab(struct kmem_cache *s, struct page *page,
		void *freelist_old, unsigned long counters_old,
		void *freelist_new, unsigned long counters_new,
		const char *n)
{
	VM_BUG_ON(!irqs_disabled());
#if defined(CONFIG_HAVE_CMPXCHG_DOUBLE) && \
    defined(CONFIG_HAVE_ALIGNED_STRUCT_PAGE)
	if (s->flags & __CMPXCHG_DOUBLE) {
		if (cmpxchg_double(&page->freelist, &page->counters,
			freelist_old, counters_old,
			freelist_new, counters_new))
		return 1;
	} else
#endif
	{
		slab_lock(page);
		if (page->freelist == freelist_old &&
					page->counters == counters_old) {
			page->freelist = freelist_new;
			set_page_slub_counters(page, counters_new);
			slab_unlock(page);
			return 1;
		}
		slab_unlock(page);
	}

	cpu_relax();
	stat(s, CMPXCHG_DOUBLE_FAIL);

#ifdef SLUB_DEBUG_CMPXCHG
	printk(KERN_INFO "%s %s: cmpxchg double redo ", n, s->name);
#endif

	return 0;
}
