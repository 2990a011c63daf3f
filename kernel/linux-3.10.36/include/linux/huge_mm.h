/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-3.10.36
 * file:      include/linux/huge_mm.h
 * source:    linux-mm/stable, David Rientjes, 28 Mar 2014, '[patch stable-3.10] mm:
 *            close PageTail race' ('commit 668f9abbd4334e6c29fa8acd71635c4f9101caa7
 *            upstream'), Message-ID
 *            <alpine.DEB.2.02.1403281333290.18841@chino.kir.corp.google.com>; Greg KH
 *            'Applied, thanks.' 31 Mar 2014, Message-ID
 *            <20140331235543.GB20979@kroah.com> ('-' lines: the 3.10 smp_rmb()
 *            compound_trans_head and the !THP #define are deleted)
 * status:    partial
 * holds:     (none: compound_trans_head deleted)
 * unchanged: -
 * notes:     Header-only file recording the deletion (no README convention for
 *            deletions). Release number UNVERIFIED: Greg KH applied the backport on 31
 *            Mar 2014 (after 3.10.35 was cut); 3.10.36 is inferred, no 3.10.36
 *            changelog or stable-queue mail was found. parent: 27c73ae7 (3.10-stable
 *            carried the 27c73ae7 backport; its swap.c equals 27c73ae7's text with
 *            compound_head() for compound_trans_head()).
 */
