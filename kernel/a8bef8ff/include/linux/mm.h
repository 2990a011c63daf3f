/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   a8bef8ff
 * file:      include/linux/mm.h
 * source:    torvalds/linux include/linux/mm.h at a8bef8ff6ea15fa4c67433cab0f5f3484574ef7c
 *            (stored, index id 22379555772), verbatim
 * status:    verbatim
 * holds:     VM_STACK_INCOMPLETE_SETUP
 * unchanged: (new macro)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). The full id is the one the stored tree
 *            answers to at this path; that tree defines VM_STACK_INCOMPLETE_SETUP, so the
 *            id names this commit; the release stays UNVERIFIED. Before, the source was:
 *            linux-mm, Mel Gorman, Mon 10 May 2010 14:24:31 +0100, "Re: [PATCH 2/2]
 *            mm,migration: Fix race between shift_arg_pages and rmap_walk ...", Message-ID
 *            <20100510132431.GE26611@csn.ul.ie> (the "==== CUT HERE ====" patch
 *            "mm,migration: Avoid race between shift_arg_pages() and rmap_walk() during
 *            migration by not migrating temporary stacks", hunk @@ -106,6 +106,9 @@ against
 *            mm.h blob eb21256); the same line is a '-' line of Andrea Arcangeli's revert
 *            in "[PATCH 02 of 66]" (linux-mm, 3 Nov 2010,
 *            <ad7a334318ea379be733.1288798057@v2.random>, against 2.6.37-rc), i.e. it is
 *            what mainline carried from a8bef8ff on. Earlier notes (superseded where the
 *            text above says otherwise): the macro is whole in the '+' lines (no line
 *            outside a hunk); "partial" only because it was read from postings, not from a
 *            stored a8bef8ff tree.
 */

/* Bits set in the VMA until the stack is in its final location */
#define VM_STACK_INCOMPLETE_SETUP	(VM_RAND_READ | VM_SEQ_READ)
