/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   5beb4930
 * file:      mm/mmap.c
 * source:    (1) stored file, index id 15757443285: a complete mm/mmap.c of 2.6.34 or
 *                2.6.35 (anon_vma_chain with Linus's exporter/importer anon_vma_clone form and
 *                reusable_anon_vma(); vma_link() still calls the vma-argument anon_vma_lock()
 *                renamed in 2.6.36; no vm_prev; no anon_vma lock in vma_adjust), repository not
 *                named by the index; its owner annotated other functions (do_mmap_pgoff,
 *                mmap_region) with Chinese comments, the functions stored here carry none;
 *            (2) luckasfb/OT_903D-kernel-2.6.35.7 kernel/mm/mmap.c
 *                @ 0fb9ec99c0836cee641c90720887e8cf5c678681 (a 2.6.35.7 tree, block comments
 *                outside functions stripped by its owner; has the 2.6.35.y vm_prev backport);
 *            (3) for expand_downwards: three patches against mm/mmap.c blob 456ec6f
 *                (2.6.34-rc7), linux-mm: Rik van Riel, "[PATCH 1/5] rename anon_vma_lock to
 *                vma_lock_anon_vma", 12 May 2010, <20100512133931.14c79d22@annuminas.surriel.com>
 *                (hunks @@ -1762,7 and @@ -1783,7: lines 1762-1768, 1783-1789); Rik van
 *                Riel's RFC "anon_vma_chain_lock" patch (index file 11025663682, hunk
 *                @@ -1749,6: lines 1749-1755); Eric B Munson's perf mmap_data patch (index
 *                files 11857702803 / 10896848380, hunk @@ -1781,6: lines 1781-1787);
 *            (4) for expand_downwards' lines outside those hunks: index file 18640586887 (a
 *                comment-stripped 2.6.33/2.6.34 mm/mmap.c: anon_vma_lock(vma), no
 *                perf_event_mmap) for the code, index file 18264635091 (a 2.6.38-era
 *                expand_downwards with the same comments) for the comments.
 * status:    partial
 * holds:     __vma_link, vma_adjust, is_mergeable_vma, __split_vma
 * unchanged: expand_downwards (compared with (3) and (4): linux-2.6.31's text, see below),
 *            __vma_link_list, __insert_vm_struct, __vma_unlink (compared with (1); their text
 *            is linux-2.6.31's; __insert_vm_struct no longer links the anon_vma only because
 *            __vma_link changed), is_mergeable_anon_vma, can_vma_merge_before,
 *            can_vma_merge_after (the text of (1) and of the d0e9fe17 tree, index id
 *            2985425962), find_mergeable_anon_vma (linux-2.6.31's; UNVERIFIED for 5beb4930:
 *            its hunks do not reach it, d0e9fe17 replaced it)
 * removed:   split_vma (2.6.31's body is __split_vma's; the split_vma of 2.6.34 is a wrapper
 *            that checks map_count and calls __split_vma, which no model calls)
 * notes:     5beb4930 (2.6.34; its rc UNVERIFIED) opens the anon_vma_chain era, so the chain era's texts are
 *            stored here, at its first variant; they were read in 2.6.34/2.6.35 trees, and
 *            5beb4930's own text of them was compared only where its hunks reach: the
 *            2.6.34-rc changes known to touch the modelled functions are fc148a5f and 287d97ac
 *            (vma_adjust, below), d0e9fe17 (find_mergeable_anon_vma: kernel/d0e9fe17/),
 *            ea90002b (__page_set_anon_rmap: kernel/ea90002b/; kernel/5beb4930/mm/rmap.c holds
 *            the form before it) and the chain-order fix of anon_vma_clone (id not found). So some texts stored here are later than 5beb4930: see
 *            kernel/5beb4930/mm/rmap.c's notes.
 *            vma_adjust: 5beb4930's, assembled: its '+' lines and context are the mm/mmap.c
 *            hunks of "mm: change anon_vma linking to fix multi-process server scalability
 *            issue" as queued in -mm, quoted in Andrew Morton's review (linux-mm, index id
 *            35873119482: @@ -542,6 +541,29, @@ -567,25 +589,6, @@ -616,8 +619,11,
 *            @@ -627,17 +633,25; akpm splits the first hunk to comment, Minchan Kim's review,
 *            index id 35677274111, quotes it unbroken, with the signature change), with
 *            akpm's -fix from the same message (the "When changing only vma->vm_end, we
 *            don't really need anon_vma lock." comment on one line; that the merged commit
 *            folded it is UNVERIFIED, but fc148a5f's posting, against the tree after both,
 *            shows the fixed form). The last hunk's header says +25 where the quote shows 24
 *            lines: the blank line after "importer->vm_flags &= ~VM_LOCK_RMAP;" is kept here
 *            (fc148a5f's posting removes a blank line there). The declaration
 *            "struct anon_vma *anon_vma = NULL;" and the three "anon_vma = next->anon_vma;"
 *            presets lie outside the hunks and are not in (1): they are 2.6.33's, as in
 *            kernel/252c5f94/mm/mmap.c (5beb4930 did not touch them; 287d97ac replaced them by
 *            `exporter`). The other lines outside the hunks are (1)'s (2.6.34), which has the
 *            same lines around every hunk.
 *            Check (2026-12-03): outside its VM_LOCK_RMAP lines, this assembled vma_adjust is
 *            line for line the vma_adjust of torvalds/linux @ d0e9fe17 (index id
 *            2985425962; kernel/d0e9fe17/), which came after fc148a5f and before 287d97ac.
 *            is_mergeable_vma: the VM_CAN_NONLINEAR form of (1) and of the d0e9fe17 tree,
 *            which Hugh Dickins's KSM mm interface brought in 2.6.32 (its posting against
 *            2.6.31-rc1, linux-mm index id 17090309900; mainline id UNVERIFIED), stored here
 *            as the first chain-era folder; the same test as 2.6.31's VM_MERGEABLE_FLAGS
 *            (which is VM_CAN_NONLINEAR).
 *            __vma_link: (1). The 2.6.34 vma_adjust text (kernel/linux-2.6.34) agrees with
 *            every context line of the 2.6.34-based hunks of Mel Gorman's V6/V7 (May 2010)
 *            and Rik van Riel's "always lock the root (oldest) anon_vma" v3 (26 May 2010);
 *            whether (1) is the 2.6.34 or the 2.6.35 tag is not known (no change to these
 *            functions between them is known).
 *            __split_vma: (2) (2.6.35.7); 2.6.34's is believed identical (UNVERIFIED); its
 *            anon_vma_clone(new, vma) call is in 5beb4930's hunk @@ -1868,11 +1893,14.
 *            expand_downwards: assembled from the hunks of (3) (lines 1762-1768, 1783-1789,
 *            1749-1755, 1781-1787) and (4) (lines 1756-1761 and 1769-1780, in no hunk; the gap
 *            sizes match the hunk offsets), it is word for word linux-2.6.31's text (2.6.30's
 *            file), so it is not stored here. Its anon_vma_lock(vma) is rmap.h's vma helper
 *            (kernel/linux-2.6.31), which locks vma->anon_vma->lock: in 2.6.34 a forked
 *            child's own, newest anon_vma, not the one the walks of a page shared with the
 *            parent lock (H-13, proofs/vma.18.md).
 */

static void
__vma_link(struct mm_struct *mm, struct vm_area_struct *vma,
	struct vm_area_struct *prev, struct rb_node **rb_link,
	struct rb_node *rb_parent)
{
	__vma_link_list(mm, vma, prev, rb_parent);
	__vma_link_rb(mm, vma, rb_link, rb_parent);
}

/*
 * We cannot adjust vm_start, vm_end, vm_pgoff fields of a vma that
 * is already present in an i_mmap tree without adjusting the tree.
 * The following helper function should be used when such adjustments
 * are necessary.  The "insert" vma (if any) is to be inserted
 * before we drop the necessary locks.
 */
int vma_adjust(struct vm_area_struct *vma, unsigned long start,
	unsigned long end, pgoff_t pgoff, struct vm_area_struct *insert)
{
	struct mm_struct *mm = vma->vm_mm;
	struct vm_area_struct *next = vma->vm_next;
	struct vm_area_struct *importer = NULL;
	struct address_space *mapping = NULL;
	struct prio_tree_root *root = NULL;
	struct file *file = vma->vm_file;
	struct anon_vma *anon_vma = NULL;
	long adjust_next = 0;
	int remove_next = 0;

	if (next && !insert) {
		if (end >= next->vm_end) {
			/*
			 * vma expands, overlapping all the next, and
			 * perhaps the one after too (mprotect case 6).
			 */
again:			remove_next = 1 + (end > next->vm_end);
			end = next->vm_end;
			anon_vma = next->anon_vma;
			importer = vma;
		} else if (end > next->vm_start) {
			/*
			 * vma expands, overlapping part of the next:
			 * mprotect case 5 shifting the boundary up.
			 */
			adjust_next = (end - next->vm_start) >> PAGE_SHIFT;
			anon_vma = next->anon_vma;
			importer = vma;
		} else if (end < vma->vm_end) {
			/*
			 * vma shrinks, and !insert tells it's not
			 * split_vma inserting another: so it must be
			 * mprotect case 4 shifting the boundary down.
			 */
			adjust_next = - ((vma->vm_end - end) >> PAGE_SHIFT);
			anon_vma = next->anon_vma;
			importer = next;
		}
	}

	/*
	 * When changing only vma->vm_end, we don't really need anon_vma lock.
	 */
	if (vma->anon_vma && (insert || importer || start != vma->vm_start))
		anon_vma = vma->anon_vma;
	if (anon_vma) {
		/*
		 * Easily overlooked: when mprotect shifts the boundary,
		 * make sure the expanding vma has anon_vma set if the
		 * shrinking vma had, to cover any anon pages imported.
		 */
		if (importer && !importer->anon_vma) {
			/* Block reverse map lookups until things are set up. */
			importer->vm_flags |= VM_LOCK_RMAP;
			if (anon_vma_clone(importer, vma)) {
				importer->vm_flags &= ~VM_LOCK_RMAP;
				return -ENOMEM;
			}
			importer->anon_vma = anon_vma;
		}
	}

	if (file) {
		mapping = file->f_mapping;
		if (!(vma->vm_flags & VM_NONLINEAR))
			root = &mapping->i_mmap;
		spin_lock(&mapping->i_mmap_lock);
		if (importer &&
		    vma->vm_truncate_count != next->vm_truncate_count) {
			/*
			 * unmap_mapping_range might be in progress:
			 * ensure that the expanding vma is rescanned.
			 */
			importer->vm_truncate_count = 0;
		}
		if (insert) {
			insert->vm_truncate_count = vma->vm_truncate_count;
			/*
			 * Put into prio_tree now, so instantiated pages
			 * are visible to arm/parisc __flush_dcache_page
			 * throughout; but we cannot insert into address
			 * space until vma start or end is updated.
			 */
			__vma_link_file(insert);
		}
	}

	if (root) {
		flush_dcache_mmap_lock(mapping);
		vma_prio_tree_remove(vma, root);
		if (adjust_next)
			vma_prio_tree_remove(next, root);
	}

	vma->vm_start = start;
	vma->vm_end = end;
	vma->vm_pgoff = pgoff;
	if (adjust_next) {
		next->vm_start += adjust_next << PAGE_SHIFT;
		next->vm_pgoff += adjust_next;
	}

	if (root) {
		if (adjust_next)
			vma_prio_tree_insert(next, root);
		vma_prio_tree_insert(vma, root);
		flush_dcache_mmap_unlock(mapping);
	}

	if (remove_next) {
		/*
		 * vma_merge has merged next into vma, and needs
		 * us to remove next before dropping the locks.
		 */
		__vma_unlink(mm, next, vma);
		if (file)
			__remove_shared_vm_struct(next, file, mapping);
		/*
		 * This VMA is now dead, no need for rmap to follow it.
		 * Call anon_vma_merge below, outside of i_mmap_lock.
		 */
		next->vm_flags |= VM_LOCK_RMAP;
	} else if (insert) {
		/*
		 * split_vma has split insert from vma, and needs
		 * us to insert it before dropping the locks
		 * (it may either follow vma or precede it).
		 */
		__insert_vm_struct(mm, insert);
	}

	if (mapping)
		spin_unlock(&mapping->i_mmap_lock);

	/*
	 * The current VMA has been set up. It is now safe for the
	 * rmap code to get from the pages to the ptes.
	 */
	if (anon_vma && importer)
		importer->vm_flags &= ~VM_LOCK_RMAP;

	if (remove_next) {
		if (file) {
			fput(file);
			if (next->vm_flags & VM_EXECUTABLE)
				removed_exe_file_vma(mm);
		}
		/* Protected by mmap_sem and VM_LOCK_RMAP. */
		if (next->anon_vma)
			anon_vma_merge(vma, next);
		mm->map_count--;
		mpol_put(vma_policy(next));
		kmem_cache_free(vm_area_cachep, next);
		/*
		 * In mprotect's case 6 (see comments on vma_merge),
		 * we must remove another next too. It would clutter
		 * up the code too much to do both in one go.
		 */
		if (remove_next == 2) {
			next = vma->vm_next;
			goto again;
		}
	}

	validate_mm(mm);

	return 0;
}

/*
 * If the vma has a ->close operation then the driver probably needs to release
 * per-vma resources, so we don't attempt to merge those.
 */
static inline int is_mergeable_vma(struct vm_area_struct *vma,
			struct file *file, unsigned long vm_flags)
{
	/* VM_CAN_NONLINEAR may get set later by f_op->mmap() */
	if ((vma->vm_flags ^ vm_flags) & ~VM_CAN_NONLINEAR)
		return 0;
	if (vma->vm_file != file)
		return 0;
	if (vma->vm_ops && vma->vm_ops->close)
		return 0;
	return 1;
}

/* mmcheck: partial: the 2.6.35.7 text of luckasfb/OT_903D-kernel-2.6.35.7 (neighbour) */
static int __split_vma(struct mm_struct * mm, struct vm_area_struct * vma,
	      unsigned long addr, int new_below)
{
	struct mempolicy *pol;
	struct vm_area_struct *new;
	int err = -ENOMEM;

	if (is_vm_hugetlb_page(vma) && (addr &
					~(huge_page_mask(hstate_vma(vma)))))
		return -EINVAL;

	new = kmem_cache_alloc(vm_area_cachep, GFP_KERNEL);
	if (!new)
		goto out_err;

	/* most fields are the same, copy all, and then fixup */
	*new = *vma;

	INIT_LIST_HEAD(&new->anon_vma_chain);

	if (new_below)
		new->vm_end = addr;
	else {
		new->vm_start = addr;
		new->vm_pgoff += ((addr - vma->vm_start) >> PAGE_SHIFT);
	}

	pol = mpol_dup(vma_policy(vma));
	if (IS_ERR(pol)) {
		err = PTR_ERR(pol);
		goto out_free_vma;
	}
	vma_set_policy(new, pol);

	if (anon_vma_clone(new, vma))
		goto out_free_mpol;

	if (new->vm_file) {
		get_file(new->vm_file);
		if (vma->vm_flags & VM_EXECUTABLE)
			added_exe_file_vma(mm);
	}

	if (new->vm_ops && new->vm_ops->open)
		new->vm_ops->open(new);

	if (new_below)
		err = vma_adjust(vma, addr, vma->vm_end, vma->vm_pgoff +
			((addr - new->vm_start) >> PAGE_SHIFT), new);
	else
		err = vma_adjust(vma, vma->vm_start, addr, vma->vm_pgoff, new);

	/* Success. */
	if (!err)
		return 0;

	/* Clean everything up if vma_adjust failed. */
	if (new->vm_ops && new->vm_ops->close)
		new->vm_ops->close(new);
	if (new->vm_file) {
		if (vma->vm_flags & VM_EXECUTABLE)
			removed_exe_file_vma(mm);
		fput(new->vm_file);
	}
	unlink_anon_vmas(new);
 out_free_mpol:
	mpol_put(pol);
 out_free_vma:
	kmem_cache_free(vm_area_cachep, new);
 out_err:
	return err;
}
