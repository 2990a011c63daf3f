/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.4
 * file:      include/linux/mm_types.h
 * source:    the context lines of linux-mm, Pravin B Shelar, 30 May 2012, '[Resend PATCH v2]
 *            mm: Fix slab->page _count corruption.', Message-Id
 *            <1338405610-1788-1-git-send-email-pshelar@nicira.com> (include/linux/mm_types.h
 *            index 18b48c4..e54a6b0) (diff against 3.4-era mm_types.h).
 * status:    partial
 * holds:     struct page (the counters union only)
 * unchanged: (root variant)
 * notes:     Not a function: kept for the SLUB/_count overlap (claim compound.9). Before
 *            abca7c49 'counters' is unsigned long unconditionally: on 64-bit it spans the
 *            32-bit _mapcount/inuse-objects-frozen word AND the 32-bit _count.
 */

struct page {
	/* mmcheck: unverified: lines outside the quoted hunk omitted (flags, mapping,
	 * index/freelist union: see linux-3.11/include/linux/mm_types.h) */
		union {
			/* Used for cmpxchg_double in slub */
			unsigned long counters;

			struct {
	/* mmcheck: unverified: the rest of this struct as in 3.10 without 'int units;
	 * (SLOB)': union { atomic_t _mapcount; struct { unsigned inuse:16;
	 * unsigned objects:15; unsigned frozen:1; }; }; atomic_t _count; */
			};
		};
