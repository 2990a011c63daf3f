/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   f3ca10dd
 * file:      include/linux/mm.h
 * source:    the '-' line of 8d63d99a's diff (https://git.zx2c4.com/linux-dev/diff/include?id=
 *            8d63d99a5dfbdb997d12dd3c07b2070ca723db3b: '- return !PageSlab(page) &&
 *            !PageHeadHuge(page);'), which the revert
 *            f3ca10dde49043fbbb055854278b26954b549b36 puts back (commit page
 *            https://git.zx2c4.com/linux-dev/commit/include/linux?id=f3ca10dde49043fbbb055854278b26954b549b36)
 * status:    partial
 * holds:     __compound_tail_refcounted
 * unchanged: compound_head (8d63d99a's text: the revert touches only this function)
 * notes:     The function's lines outside the changed one are 8d63d99a's (verbatim at that
 *            commit); the result equals 44518d2b's text. parent: 8d63d99a.
 */

static inline bool __compound_tail_refcounted(struct page *page)
{
	return !PageSlab(page) && !PageHeadHuge(page);
}
