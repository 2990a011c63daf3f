/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   mel-v6
 * file:      mm/mmap.c
 * source:    linux-mm/lkml, Thu 6 May 2010 16:33:06 +0100, Mel Gorman, "[PATCH 1/2]
 *            mm,migration: Prevent rmap_walk_[anon|ksm] seeing the wrong VMA information",
 *            Message-Id <1273159987-10167-2-git-send-email-mel@csn.ul.ie>, series "[PATCH 0/2]
 *            Fix migration races in rmap_walk() V6" (<1273159987-10167-1-...>)
 *            (sjp38/lore-linux-mm, index ids 10868706240 and 10930628110); mm/mmap.c
 *            "index f90ea92..b447d5b" (a 2.6.34-rc/mmotm blob).
 * status:    partial
 * holds:     vma_adjust
 * unchanged: __vma_link, __split_vma, __insert_vm_struct, __vma_link_list, __vma_unlink,
 *            is_mergeable_vma, is_mergeable_anon_vma, can_vma_merge_before,
 *            can_vma_merge_after, anon_vma_compatible, reusable_anon_vma,
 *            find_mergeable_anon_vma (its hunks touch vma_adjust only)
 * notes:     The three vma_adjust hunks (@@ -505,6 +505,7 @@, @@ -578,6 +579,11 @@,
 *            @@ -620,6 +626,9 @@) applied to linux-2.6.34's vma_adjust, whose lines match all
 *            their context. The lock is taken after the i_mmap_lock section and dropped after
 *            i_mmap_lock is dropped (before anon_vma_merge). The V7 resend of the same day
 *            (Fri 7 May 2010 00:20:52 +0100, <1273188053-26029-2-git-send-email-mel@csn.ul.ie>,
 *            index id 11698283379) has the identical mm/mmap.c hunks. Not merged: Rik van
 *            Riel's root-anon_vma series (012f1800) replaced it (its [PATCH 4/5] of 26 May
 *            2010, <20100526112706.145f72eb@annuminas.surriel.com>, adds the lock to a
 *            vma_adjust that has none, and 2.6.35.7's vma_adjust has none).
 *            The same patch changed rmap_walk_anon (lock the root anon_vma, walk the root's
 *            list, lock each vma->anon_vma met, nested; kernel/mel-v6/mm/rmap.c), which the
 *            variant runs too (src/vma/posting_mel_v6.rs).
 */

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
	struct anon_vma *anon_vma = NULL;
	struct prio_tree_root *root = NULL;
	struct file *file = vma->vm_file;
	long adjust_next = 0;
	int remove_next = 0;

	if (next && !insert) {
		struct vm_area_struct *exporter = NULL;

		if (end >= next->vm_end) {
			/*
			 * vma expands, overlapping all the next, and
			 * perhaps the one after too (mprotect case 6).
			 */
again:			remove_next = 1 + (end > next->vm_end);
			end = next->vm_end;
			exporter = next;
			importer = vma;
		} else if (end > next->vm_start) {
			/*
			 * vma expands, overlapping part of the next:
			 * mprotect case 5 shifting the boundary up.
			 */
			adjust_next = (end - next->vm_start) >> PAGE_SHIFT;
			exporter = next;
			importer = vma;
		} else if (end < vma->vm_end) {
			/*
			 * vma shrinks, and !insert tells it's not
			 * split_vma inserting another: so it must be
			 * mprotect case 4 shifting the boundary down.
			 */
			adjust_next = - ((vma->vm_end - end) >> PAGE_SHIFT);
			exporter = vma;
			importer = next;
		}

		/*
		 * Easily overlooked: when mprotect shifts the boundary,
		 * make sure the expanding vma has anon_vma set if the
		 * shrinking vma had, to cover any anon pages imported.
		 */
		if (exporter && exporter->anon_vma && !importer->anon_vma) {
			if (anon_vma_clone(importer, exporter))
				return -ENOMEM;
			importer->anon_vma = exporter->anon_vma;
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

	if (vma->anon_vma && (insert || importer || start != vma->vm_start)) {
		anon_vma = vma->anon_vma;
		spin_lock(&anon_vma->lock);
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

	if (anon_vma)
		spin_unlock(&anon_vma->lock);

	if (remove_next) {
		if (file) {
			fput(file);
			if (next->vm_flags & VM_EXECUTABLE)
				removed_exe_file_vma(mm);
		}
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
