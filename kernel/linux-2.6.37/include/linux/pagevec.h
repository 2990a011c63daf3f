/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.37
 * file:      include/linux/pagevec.h
 * source:    dnobori/DN-LinuxKernel-Learn linux-2.6.39/include/linux/pagevec.h, commit
 *            1e37c14c729472f107fb33e1bd4afe6bea0d2f2f (2.6.39 text; no 2.6.37 tree is stored)
 * status:    unverified
 * holds:     PAGEVEC_SIZE, pagevec_init, pagevec_reinit, pagevec_count, pagevec_space,
 *            pagevec_add, pagevec_release
 * unchanged: -
 * notes:     2.6.39's text, not compared with 2.6.37 (no patch between them to these
 *            helpers was seen). The model's Pagevec keeps its own size (PAGEVEC_SIZE or
 *            smaller, proofs/lru.7.md).
 */

/* 14 pointers + two long's align the pagevec structure to a power of two */
#define PAGEVEC_SIZE	14

static inline void pagevec_init(struct pagevec *pvec, int cold)
{
	pvec->nr = 0;
	pvec->cold = cold;
}

static inline void pagevec_reinit(struct pagevec *pvec)
{
	pvec->nr = 0;
}

static inline unsigned pagevec_count(struct pagevec *pvec)
{
	return pvec->nr;
}

static inline unsigned pagevec_space(struct pagevec *pvec)
{
	return PAGEVEC_SIZE - pvec->nr;
}

/*
 * Add a page to a pagevec.  Returns the number of slots still available.
 */
static inline unsigned pagevec_add(struct pagevec *pvec, struct page *page)
{
	pvec->pages[pvec->nr++] = page;
	return pagevec_space(pvec);
}


static inline void pagevec_release(struct pagevec *pvec)
{
	if (pagevec_count(pvec))
		__pagevec_release(pvec);
}
