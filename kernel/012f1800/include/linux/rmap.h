/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   012f1800
 * file:      include/linux/rmap.h
 * source:    torvalds/linux include/linux/rmap.h at
 *            012f18004da33ba672e3c60838cc4898126174d3 (stored, index id 2704976680),
 *            verbatim
 * status:    verbatim
 * holds:     vma_lock_anon_vma, vma_unlock_anon_vma, anon_vma_lock, anon_vma_unlock
 * unchanged: anon_vma_merge
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was: linux-mm, 26 May
 *            2010, Rik van Riel, "[PATCH 4/5] always lock the root (oldest) anon_vma",
 *            Message-ID <20100526112706.145f72eb@annuminas.surriel.com> (index id
 *            11149639632): '+' lines of its include/linux/rmap.h hunk (@@ -104,24 +104,24
 *            @@); the inlines themselves were added by the series' 2/5, "change direct call
 *            of spin_lock(anon_vma->lock) to inline function", Message-ID
 *            <20100526112553.65724b12@annuminas.surriel.com> (index id 11009320326). Also:
 *            a stored include/linux/rmap.h of 2.6.36 or 2.6.37 in the index (file id
 *            147791257, repository not named by the index: it has anon_vma->root,
 *            external_refcount, drop_anon_vma, do_page_add_anon_rmap and
 *            hugepage_add_anon_rmap, and no anon_vma_moveto_tail / refcount), whose four
 *            inlines below are the same text. Earlier notes (superseded where the text
 *            above says otherwise): The whole of anon_vma_lock and anon_vma_unlock is
 *            inside the 4/5 hunk. The vma-argument forms are renamed vma_lock_anon_vma /
 *            vma_unlock_anon_vma by the series' 1/5 and also take anon_vma->root->lock
 *            after 4/5 (anon_vma_lock and anon_vma_unlock are new functions of the old
 *            names); their text is the stored 2.6.36/37 file's. Every helper re-reads
 *            anon_vma->root at lock and at unlock time: what f18194275c39 is about.
 */

static inline void vma_lock_anon_vma(struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	if (anon_vma)
		spin_lock(&anon_vma->root->lock);
}

static inline void vma_unlock_anon_vma(struct vm_area_struct *vma)
{
	struct anon_vma *anon_vma = vma->anon_vma;
	if (anon_vma)
		spin_unlock(&anon_vma->root->lock);
}

static inline void anon_vma_lock(struct anon_vma *anon_vma)
{
	spin_lock(&anon_vma->root->lock);
}

static inline void anon_vma_unlock(struct anon_vma *anon_vma)
{
	spin_unlock(&anon_vma->root->lock);
}
