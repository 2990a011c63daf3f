/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   287d97ac
 * file:      mm/mmap.c
 * source:    stored file, index id 15757443285: a complete mm/mmap.c of 2.6.34 or 2.6.35
 *            (anon_vma_chain with the exporter/importer anon_vma_clone form and
 *            reusable_anon_vma(); no anon_vma lock in vma_adjust), repository not named by
 *            the index (the file's first source in kernel/5beb4930/mm/mmap.c, where every
 *            other modelled mm/mmap.c function of 2.6.34 is stored).
 * status:    verbatim
 * holds:     vma_adjust
 * unchanged: __vma_link, __split_vma, expand_downwards, __vma_link_list,
 *            __insert_vm_struct, __vma_unlink, is_mergeable_vma, is_mergeable_anon_vma,
 *            can_vma_merge_before, can_vma_merge_after (kernel/5beb4930/mm/mmap.c and its
 *            parents: no 2.6.34-rc change to them is known; see that file's notes);
 *            anon_vma_compatible, reusable_anon_vma, find_mergeable_anon_vma
 *            (kernel/d0e9fe17/mm/mmap.c; index ids 15757443285 and 15190265264 have
 *            reusable_anon_vma too, not compared line by line)
 * notes:     vma_adjust differs from d0e9fe17's (kernel/d0e9fe17/, a stored tree of that
 *            commit) by Linus Torvalds's 287d97ac "vma_adjust: fix the copying of anon_vma
 *            chains" (the exporter/importer form, H-14's fix). Its commit page and diff
 *            (git.zx2c4.com linux-dev mirror, commit/?id=287d97ac032136724143cde8d5964b414d562ee3)
 *            give its parent, d0e9fe17, and mm/mmap.c index acb023e2d35a..f90ea92f755a; the
 *            stored diff page lost its whitespace, so this text is the 2.6.34/2.6.35 tree's,
 *            whose exporter/importer lines are the diff's '+' lines. It is stored here, at
 *            287d97ac, and holds for ea90002b and linux-2.6.34 as far as nothing else touched
 *            vma_adjust before this text (2.6.34's or 2.6.35's: index id 15757443285 does not
 *            say which; the 12 Apr 2010 merge 64a8920f ends at mm/mmap.c f90ea92f755a, the
 *            same blob as 287d97ac's). Its rc is UNVERIFIED.
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
