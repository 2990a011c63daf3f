/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   linux-2.6.37
 * file:      include/linux/pagemap.h
 * source:    [P38] torvalds/linux include/linux/pagemap.h at
 *                  ef6a3c63112e865d632ff7c478ba7c7160cad0d1 (stored, index id 8454133286;
 *                  Miklos Szeredi "mm: add replace_page_cache_page() function", the 2.6.38
 *                  merge window, Jan 2011, after v2.6.37)
 * status:    unverified
 * holds:     mapping_set_unevictable, mapping_clear_unevictable, mapping_unevictable
 * unchanged: -
 * notes:     [P38]'s text, compared byte for byte. No pagemap.h of v2.6.37 or of a commit
 *            between 2.6.28 and v2.6.37 is stored under a named repository: find_files
 *            torvalds/linux include/linux/pagemap.h lists only a8e4300a (a folio-era tree,
 *            where mapping_unevictable is "return mapping && test_bit(...)"), and the
 *            2.6.3x-named trees tried hold no pagemap.h. The find_string index has two
 *            unnamed full copies: id 15016071703, about 2.6.34/2.6.35 (read_cache_page_gfp,
 *            no hugetlb_inline.h, no lock_page_or_retry; annotated with Chinese comments),
 *            whose mapping_unevictable reads "if (likely(mapping))"; and id 748450957, a
 *            comment-stripped 3.1-era copy (CONFIG_PREEMPT_COUNT), whose three functions are
 *            [P38]'s. So the likely() was dropped between 2.6.35 and Jan 2011; whether
 *            before or after v2.6.37 (4 Jan 2011) is NOT pinned (the removing commit was not
 *            found), and 2.6.37 may read "if (likely(mapping))". The fidelity tool drops
 *            likely(), so the statements pair the same either way. The other two functions
 *            are the same in all three copies. 3.0 (kernel/eb709b0d has no pagemap.h):
 *            bracketed by [P38] (Jan 2011) and id 748450957 (3.1 era), same text.
 */

static inline void mapping_set_unevictable(struct address_space *mapping)
{
	set_bit(AS_UNEVICTABLE, &mapping->flags);
}

static inline void mapping_clear_unevictable(struct address_space *mapping)
{
	clear_bit(AS_UNEVICTABLE, &mapping->flags);
}

static inline int mapping_unevictable(struct address_space *mapping)
{
	if (mapping)
		return test_bit(AS_UNEVICTABLE, &mapping->flags);
	return !!mapping;
}
