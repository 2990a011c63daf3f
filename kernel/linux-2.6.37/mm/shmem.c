/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.37
 * file:      mm/shmem.c
 * source:    [SH37] torvalds/linux mm/shmem.c at 7de9c6ee3ecffd99e1628e81a5ea5468f7581a1f
 *                   (stored, index id 8650154427; Al Viro's "new helper: ihold()", the
 *                   2.6.37-rc1 merge window, Oct 2010)
 * status:    unverified
 * holds:     shmem_lock
 * unchanged: -
 * notes:     [SH37]'s text, compared byte for byte; it is not read from a v2.6.37 tree and
 *            no stored shmem.c after v2.6.37 was found to bracket it (find_files
 *            torvalds/linux mm/shmem.c lists only d3602444, a pre-2.6.28 tree without the
 *            unevictable LRU). No change to shmem_lock
 *            between 2.6.37-rc1 and v2.6.37 is known. 3.0 (kernel/eb709b0d has no shmem.c):
 *            PARTIALLY verified. Minchan Kim, "[PATCH v2] vmscan: add barrier to prevent
 *            evictable page in unevictable list", linux-mm, 29 Sep 2011,
 *            <1317290085-3804-1-git-send-email-minchan.kim@gmail.com> (pre-image blob
 *            2d35772, hunk "@@ -1068,6 +1068,12 @@ int shmem_lock(struct file *file, int
 *            lock, struct user_struct *user)") shows the signature and, as context, the
 *            lines from "user_shm_unlock(inode->i_size, user);" to "retval = 0;" exactly as
 *            here; the first half (declarations, spin_lock, the SHM_LOCK branch) and the
 *            out_nomem tail are UNVERIFIED for 3.0. An unnamed vendor tree with merge-conflict
 *            markers (find_string id 14187899157, a 3.0-3.2-era HEAD side) has the whole
 *            function as here, which fits, but is not a mainline 3.0 text. The barrier of
 *            that posting and Hugh Dickins' move of the scan into ipc/shm.c (Jan 2012) both
 *            come after 3.0.
 */

int shmem_lock(struct file *file, int lock, struct user_struct *user)
{
	struct inode *inode = file->f_path.dentry->d_inode;
	struct shmem_inode_info *info = SHMEM_I(inode);
	int retval = -ENOMEM;

	spin_lock(&info->lock);
	if (lock && !(info->flags & VM_LOCKED)) {
		if (!user_shm_lock(inode->i_size, user))
			goto out_nomem;
		info->flags |= VM_LOCKED;
		mapping_set_unevictable(file->f_mapping);
	}
	if (!lock && (info->flags & VM_LOCKED) && user) {
		user_shm_unlock(inode->i_size, user);
		info->flags &= ~VM_LOCKED;
		mapping_clear_unevictable(file->f_mapping);
		scan_mapping_unevictable_pages(file->f_mapping);
	}
	retval = 0;

out_nomem:
	spin_unlock(&info->lock);
	return retval;
}
