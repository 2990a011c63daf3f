/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   5beb4930 (the chain era's first variant: texts read as 2.6.34's, stored here;
 *            linux-2.6.34, its child, holds only what 2.6.34-rc changed, see
 *            kernel/5beb4930/mm/mmap.c)
 * file:      include/linux/rmap.h
 * source:    torvalds/linux include/linux/rmap.h at
 *            5beb49305251e5669852ed541e8e2f2f7696c53e (stored, index id 1306244125),
 *            verbatim
 * status:    verbatim
 * holds:     anon_vma_merge
 * unchanged: anon_vma_lock, anon_vma_unlock (the vma-argument forms; same text in 2.6.35.7,
 *            and in the '-' and context lines of include/linux/rmap.h blob d25bd22
 *            (2.6.34-rc7) in Rik van Riel's "[PATCH 1/5] rename anon_vma_lock to
 *            vma_lock_anon_vma" (linux-mm, 12 May 2010,
 *            <20100512133931.14c79d22@annuminas.surriel.com>, hunk @@ -90,14; its last two
 *            lines of anon_vma_unlock are outside the hunk): linux-2.6.31's text, pending
 *            there)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was:
 *            luckasfb/OT_903D-kernel-2.6.35.7 kernel/include/linux/rmap.h @
 *            0fb9ec99c0836cee641c90720887e8cf5c678681 (2.6.35.7, the neighbour) Earlier
 *            notes: anon_vma_merge came with the anon_vma_chain rework (5beb4930, 2.6.34);
 *            the 2.6.34 text is believed identical to 2.6.35.7's (UNVERIFIED). 2.6.34 has
 *            no anon_vma_lock(struct anon_vma *) yet: that inline is added by the first
 *            patches of Rik van Riel's May 2010 series (see kernel/012f1800).
 */

static inline void anon_vma_merge(struct vm_area_struct *vma,
				  struct vm_area_struct *next)
{
	VM_BUG_ON(vma->anon_vma != next->anon_vma);
	unlink_anon_vmas(next);
}
