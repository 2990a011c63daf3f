/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.31
 * file:      include/linux/rmap.h
 * source:    luckasfb/OT_903D-kernel-2.6.35.7 kernel/include/linux/rmap.h
 *            @ 0fb9ec99c0836cee641c90720887e8cf5c678681 (a 2.6.35.7 tree; the neighbour)
 * status:    partial
 * holds:     anon_vma_lock, anon_vma_unlock
 * unchanged: (root variant)
 * notes:     The vma-argument forms, used by vma_link() and expand_*(), not by vma_adjust()
 *            (which calls spin_lock(&anon_vma->lock) itself in 2.6.31). They stand the same
 *            in 2.6.35.7 (renamed vma_lock_anon_vma by the 2.6.36 root-anon_vma series);
 *            the 2.6.31 text is believed identical (UNVERIFIED).
 */

static inline void anon_vma_lock(struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	if (anon_vma)
		spin_lock(&anon_vma->lock);
}

static inline void anon_vma_unlock(struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	if (anon_vma)
		spin_unlock(&anon_vma->lock);
}
