/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   012f1800
 * file:      include/linux/rmap.h
 * source:    linux-mm, 26 May 2010, Rik van Riel, "[PATCH 4/5] always lock the root (oldest)
 *            anon_vma", Message-ID <20100526112706.145f72eb@annuminas.surriel.com> (index id
 *            11149639632): '+' lines of its include/linux/rmap.h hunk (@@ -104,24 +104,24 @@);
 *            the inlines themselves were added by the series' 2/5, "change direct call of
 *            spin_lock(anon_vma->lock) to inline function", Message-ID
 *            <20100526112553.65724b12@annuminas.surriel.com> (index id 11009320326).
 * status:    partial
 * holds:     anon_vma_lock, anon_vma_unlock
 * unchanged: anon_vma_merge
 * notes:     The whole of both inlines is inside the 4/5 hunk. The vma-argument forms are
 *            renamed vma_lock_anon_vma / vma_unlock_anon_vma by the series' 1/5 and also take
 *            anon_vma->root->lock after 4/5 (not modelled).
 */

static inline void anon_vma_lock(struct anon_vma *anon_vma)
{
	spin_lock(&anon_vma->root->lock);
}

static inline void anon_vma_unlock(struct anon_vma *anon_vma)
{
	spin_unlock(&anon_vma->root->lock);
}
