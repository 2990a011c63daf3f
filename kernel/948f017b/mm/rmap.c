/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   948f017b
 * file:      mm/rmap.c
 * source:    torvalds/linux mm/rmap.c at 948f017b093a9baac23855fcd920d3a970b71bb6 (stored,
 *            index id 4314351761), verbatim
 * status:    verbatim
 * holds:     anon_vma_moveto_tail
 * unchanged: anon_vma_clone, anon_vma_fork (untouched by the patch). This tree's
 *            anon_vma_chain_link, anon_vma_clone, anon_vma_fork and unlink_anon_vmas are
 *            3.0-rc4's batched forms (bb4aa396 and the two commits after it), which no
 *            folder holds yet: the model runs 2.6.34's per-avc locking for them
 *            (proofs/vma.20.md, Left out)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). The full id is the one the stored tree
 *            answers to at this path; that tree has anon_vma_moveto_tail and copy_vma calls
 *            it, so the id names this commit; the release stays UNVERIFIED. Before, the
 *            source was: Andrew Morton, "Re: [PATCH] mremap: enforce rmap src/dst vma
 *            ordering in case of vma_merge succeeding in copy_vma" (linux-mm, Thu 8 Dec
 *            2011, <20111208160856.9e4ebebf.akpm@linux-foundation.org>: the patch as in
 *            -mm, "mremap: enforce rmap src/dst vma ordering in case of vma_merge()
 *            succeeding in copy_vma()", From: Andrea Arcangeli); the same function is the
 *            '-' side of Michel Lespinasse's "[PATCH 3/7] mm anon rmap: remove
 *            anon_vma_moveto_tail" (linux-mm, 4 Sep 2012,
 *            <1346750457-12385-4-git-send-email-walken@google.com>), i.e. 3.6's text.
 *            Earlier notes (superseded where the text above says otherwise): whole in both
 *            sources, identical. The mainline id 948f017b is the brief's; the commit page
 *            was not found (UNVERIFIED); karo-tx-linux carries it as 952635949d87 (a -next
 *            tree). copy_vma and move_vma of this commit are only known as hunks: see the
 *            report. The merged move_vma carries a comment before its
 *            anon_vma_moveto_tail(vma) that akpm's 8 Dec copy lacks (seen in the 3.6
 *            pre-image).
 */

/*
 * Some rmap walk that needs to find all ptes/hugepmds without false
 * negatives (like migrate and split_huge_page) running concurrent
 * with operations that copy or move pagetables (like mremap() and
 * fork()) to be safe. They depend on the anon_vma "same_anon_vma"
 * list to be in a certain order: the dst_vma must be placed after the
 * src_vma in the list. This is always guaranteed by fork() but
 * mremap() needs to call this function to enforce it in case the
 * dst_vma isn't newly allocated and chained with the anon_vma_clone()
 * function but just an extension of a pre-existing vma through
 * vma_merge.
 *
 * NOTE: the same_anon_vma list can still be changed by other
 * processes while mremap runs because mremap doesn't hold the
 * anon_vma mutex to prevent modifications to the list while it
 * runs. All we need to enforce is that the relative order of this
 * process vmas isn't changing (we don't care about other vmas
 * order). Each vma corresponds to an anon_vma_chain structure so
 * there's no risk that other processes calling anon_vma_moveto_tail()
 * and changing the same_anon_vma list under mremap() will screw with
 * the relative order of this process vmas in the list, because we
 * they can't alter the order of any vma that belongs to this
 * process. And there can't be another anon_vma_moveto_tail() running
 * concurrently with mremap() coming from this process because we hold
 * the mmap_sem for the whole mremap(). fork() ordering dependency
 * also shouldn't be affected because fork() only cares that the
 * parent vmas are placed in the list before the child vmas and
 * anon_vma_moveto_tail() won't reorder vmas from either the fork()
 * parent or child.
 */
void anon_vma_moveto_tail(struct vm_area_struct *dst)
{
	struct anon_vma_chain *pavc;
	struct anon_vma *root = NULL;

	list_for_each_entry_reverse(pavc, &dst->anon_vma_chain, same_vma) {
		struct anon_vma *anon_vma = pavc->anon_vma;
		VM_BUG_ON(pavc->vma != dst);
		root = lock_anon_vma_root(root, anon_vma);
		list_del(&pavc->same_anon_vma);
		list_add_tail(&pavc->same_anon_vma, &anon_vma->head);
	}
	unlock_anon_vma_root(root);
}
