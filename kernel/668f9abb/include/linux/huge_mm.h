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
 */
