/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   668f9abb
 * file:      include/linux/huge_mm.h
 * source:    linux-mm, David Rientjes, 12 Feb 2014, '[patch -mm] mm: close PageTail
 *            race', Message-ID
 *            <alpine.DEB.2.02.1402120058370.31209@chino.kir.corp.google.com> ('-'
 *            lines: the whole ca641514 block and the !THP #define are deleted)
 * status:    partial
 * holds:     (none: this commit deletes compound_trans_head; every former caller uses
 *            compound_head)
 * unchanged: -
 * removed:   compound_trans_head (ca641514's block and the !THP #define are deleted;
 *            field added by the compound fidelity helper, per kernel/README.md)
 * notes:     kernel/README.md has no convention for a deleted function: this
 *            header-only file records the deletion so the fidelity tool does not
 *            inherit ca641514's compound_trans_head. parent: 44518d2b.
 *            Update (6 Dec 2026, superseding the above where it differs): the commits
 *            named above have verified mainline ids, read on their commit pages
 *            (git.zx2c4.com/linux-dev): 3bfcd13ec0b4, 758f66a29ccc, 26296ad2dfb4,
 *            c728852f5dd4, 5eaf1a9e233d and 309381feaee5 (the PageHeadHuge export
 *            commit's id is UNVERIFIED); 3bfcd13e, 26296ad2 (with 758f66a2's hugetlb.c),
 *            c728852f and 5eaf1a9e now have folders and variants of their own. This
 *            folder stays 668f9abb's mainline text; 'parent: 44518d2b' names the mainline
 *            lineage (mainline's parent of 668f9abb is a later commit), while the
 *            variant 668f9abb (its 3.10-stable backport's text) has the model chain's
 *            ca641514 as META parent.
 */
