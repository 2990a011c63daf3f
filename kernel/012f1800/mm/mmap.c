/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   012f1800
 * file:      mm/mmap.c
 * source:    torvalds/linux mm/mmap.c at 012f18004da33ba672e3c60838cc4898126174d3 (stored,
 *            index id 2575100088), verbatim
 * status:    verbatim
 * holds:     vma_adjust, expand_downwards
 * unchanged: __vma_link, __split_vma, __insert_vm_struct, __vma_link_list, __vma_unlink,
 *            is_mergeable_vma, is_mergeable_anon_vma, can_vma_merge_before,
 *            can_vma_merge_after, anon_vma_compatible, reusable_anon_vma,
 *            find_mergeable_anon_vma (the patch's mmap.c hunks touch only vma_adjust and
 *            vm_lock_anon_vma / vm_unlock_anon_vma, which are not modelled)
 * notes:     Read at the commit on 4 Dec 2026: every function this file holds is
 *            byte-identical to the stored text (the functions compared byte for byte with
 *            the stored text, tabs included). Before, the source was:
 *            012f18004da33ba672e3c60838cc4898126174d3 "mm: always lock the root (oldest)
 *            anon_vma" (Rik van Riel; id and subject from the commit page
 *            https://gerrit-public.fairphone.software/plugins/gitiles/kernel/msm-4.9/+/012f18004da33ba672e3c60838cc4898126174d3,
 *            "4 files changed"); text from its posting: linux-mm/lkml, Wed 26 May 2010
 *            11:27:06 -0400, Rik van Riel, "[PATCH 4/5] always lock the root (oldest)
 *            anon_vma", Message-ID <20100526112706.145f72eb@annuminas.surriel.com>, v3
 *            ("fix locking inversion in vma_adjust, spotted by Andrea"), "Index:
 *            linux-2.6.34/mm/mmap.c" (sjp38/lore-linux-mm, index id 11149639632); its
 *            diffstat (rmap.h, ksm.c, migrate.c, mmap.c: 4 files) matches the commit's.
 *            Earlier notes (superseded where the text above says otherwise): The three
 *            vma_adjust hunks (@@ -506,6 +506,7 @@, @@ -578,6 +579,17 @@, @@ -617,6 +629,8
 *            @@) applied to linux-2.6.34's vma_adjust (kernel/287d97ac/mm/mmap.c, also
 *            2.6.34's), whose lines match every context line. The lock is taken after the
 *            i_mmap_lock section and dropped before i_mmap_lock (v3's "locking inversion"
 *            fix). The merged commit sits on a 2.6.35-rc base; the posting's "linux-2.6.34"
 *            base is 2.6.34 plus mmotm (it has external_refcount), whose vma_adjust is the
 *            same. Release: not in 2.6.35.7's tree (which still locks anon_vma->lock), so
 *            2.6.36 (see the report). expand_downwards is not touched by 012f1800 itself:
 *            its text here is the one at 012f1800, after the series' 1/5 ("[PATCH 1/5]
 *            rename anon_vma_lock to vma_lock_anon_vma", Rik van Riel, linux-mm 12 May
 *            2010, <20100512133931.14c79d22@annuminas.surriel.com>, hunks @@ -1762,7 and @@
 *            -1783,7) and Eric B Munson's perf mmap_data patch (index files 11857702803 /
 *            10896848380, hunk @@ -1781,6, perf_event_mmap), on linux-2.6.34's text (lines
 *            outside the hunks as there). That both are in the tree at 012f1800 and that
 *            nothing else touched expand_downwards before 2.6.36 is UNVERIFIED (no 2.6.36
 *            mm/mmap.c was found); 2.6.35.7's (luckasfb/OT_903D-kernel-2.6.35.7 @ 0fb9ec99)
 *            is 2.6.34's word for word: anon_vma_lock(vma), no perf_event_mmap. The root
 *            lock comes from rmap.h's vma_lock_anon_vma at 012f1800, not from this
 *            function.
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
	struct anon_vma *anon_vma = NULL;
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

	/*
	 * When changing only vma->vm_end, we don't really need anon_vma
	 * lock. This is a fairly rare case by itself, but the anon_vma
	 * lock may be shared between many sibling processes.  Skipping
	 * the lock for brk adjustments makes a difference sometimes.
	 */
	if (vma->anon_vma && (insert || importer || start != vma->vm_start)) {
		anon_vma = vma->anon_vma;
		anon_vma_lock(anon_vma);
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

	if (anon_vma)
		anon_vma_unlock(anon_vma);
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

/* mmcheck: verbatim: torvalds/linux mm/mmap.c at 012f18004da3 (stored) */
static int expand_downwards(struct vm_area_struct *vma,
				   unsigned long address)
{
	int error;

	/*
	 * We must make sure the anon_vma is allocated
	 * so that the anon_vma locking is not a noop.
	 */
	if (unlikely(anon_vma_prepare(vma)))
		return -ENOMEM;

	address &= PAGE_MASK;
	error = security_file_mmap(NULL, 0, 0, 0, address, 1);
	if (error)
		return error;

	vma_lock_anon_vma(vma);

	/*
	 * vma->vm_start/vm_end cannot change under us because the caller
	 * is required to hold the mmap_sem in read mode.  We need the
	 * anon_vma lock to serialize against concurrent expand_stacks.
	 */

	/* Somebody else might have raced and expanded it already */
	if (address < vma->vm_start) {
		unsigned long size, grow;

		size = vma->vm_end - address;
		grow = (vma->vm_start - address) >> PAGE_SHIFT;

		error = acct_stack_growth(vma, size, grow);
		if (!error) {
			vma->vm_start = address;
			vma->vm_pgoff -= grow;
			perf_event_mmap(vma);
		}
	}
	vma_unlock_anon_vma(vma);
	return error;
}
