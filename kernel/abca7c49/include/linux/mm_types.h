/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   abca7c49
 * file:      include/linux/mm_types.h
 * source:    AndreiLux/ref-3.10 include/linux/mm_types.h (3.10), which carries the merged
 *            text. Posting: linux-mm, Pravin B Shelar, 30 May 2012, '[Resend PATCH v2] mm: Fix
 *            slab->page _count corruption.', Message-Id
 *            <1338405610-1788-1-git-send-email-pshelar@nicira.com> (include/linux/mm_types.h
 *            index 18b48c4..e54a6b0); commit id abca7c496584 from Dave Hansen's later fix
 *            'mm/slub.c: fix page->_count corruption (again)' (a03208652dad), whose message
 *            says 'Commit abca7c496584 ("mm: fix slab->page _count corruption when using
 *            slub")'; mmotm for 3.5-rc3 lists
 *            mm-fix-slab-page-_count-corruption-when-using-slub.patch and its -fix.patch among
 *            the hotfixes (linux-mm, June 2012, index file id 35094551363).
 * status:    partial
 * holds:     struct page (first and second double word blocks)
 * unchanged: all functions (this commit only changes struct page)
 * notes:     Not a function. The full 40-hex commit id was not found (only the 12-hex
 *            abca7c496584). The posted comment ('Keep _count separate from slub cmpxchg_double
 *            data, As rest of double word is protected by slab_lock but _count is not.') was
 *            reworded by the -fix patch; the merged wording is taken from 3.10. Landing
 *            release 3.5 inferred from the 3.5-rc3 mmotm hotfix list (UNVERIFIED tag). With
 *            CONFIG_HAVE_CMPXCHG_DOUBLE && CONFIG_HAVE_ALIGNED_STRUCT_PAGE (x86-64) counters
 *            stays 'unsigned long' and still overlaps _count: the slab_lock() fallback of
 *            __cmpxchg_double_slab() (debug caches, or a CPU without cmpxchg16b) keeps storing
 *            _count, fixed only by a03208652dad (release UNVERIFIED).
 */

struct page {
	/* First double word block */
	unsigned long flags;		/* Atomic flags, some possibly
					 * updated asynchronously */
	struct address_space *mapping;	/* If low bit clear, points to
					 * inode address_space, or NULL.
					 * If page mapped as anonymous
					 * memory, low bit is set, and
					 * it points to anon_vma object:
					 * see PAGE_MAPPING_ANON below.
					 */
	/* Second double word */
	struct {
		union {
			pgoff_t index;		/* Our offset within mapping. */
			void *freelist;		/* slub/slob first free object */
			bool pfmemalloc;	/* If set by the page allocator,
						 * ALLOC_NO_WATERMARKS was set
						 * and the low watermark was not
						 * met implying that the system
						 * is under some pressure. The
						 * caller should try ensure
						 * this page is only used to
						 * free other pages.
						 */
		};

		union {
#if defined(CONFIG_HAVE_CMPXCHG_DOUBLE) && \
	defined(CONFIG_HAVE_ALIGNED_STRUCT_PAGE)
			/* Used for cmpxchg_double in slub */
			unsigned long counters;
#else
			/*
			 * Keep _count separate from slub cmpxchg_double data.
			 * As the rest of the double word is protected by
			 * slab_lock but _count is not.
			 */
			unsigned counters;
#endif

			struct {

				union {
					/*
					 * Count of ptes mapped in
					 * mms, to show when page is
					 * mapped & limit reverse map
					 * searches.
					 *
					 * Used also for tail pages
					 * refcounting instead of
					 * _count. Tail pages cannot
					 * be mapped and keeping the
					 * tail page _count zero at
					 * all times guarantees
					 * get_page_unless_zero() will
					 * never succeed on tail
					 * pages.
					 */
					atomic_t _mapcount;

					struct { /* SLUB */
						unsigned inuse:16;
						unsigned objects:15;
						unsigned frozen:1;
					};
					int units;	/* SLOB */
				};
				atomic_t _count;		/* Usage count, see below. */
			};
		};
	};
