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
 *            Update (6 Dec 2026, superseding the above where it differs): the commits named
 *            above have verified mainline ids, read on their commit pages
 *            (git.zx2c4.com/linux-dev): 3bfcd13ec0b4, 758f66a29ccc, 26296ad2dfb4, c728852f5dd4,
 *            5eaf1a9e233d and 309381feaee5 (the PageHeadHuge export commit's id is UNVERIFIED);
 *            each but 758f66a2, the export commit and 309381fe has a folder and a variant of
 *            its own. This folder is the text of the variant 668f9abb, mainline's commit (David
 *            Rientjes, authored 2014-03-03 15:38:18 -0800, committed by Linus Torvalds
 *            2014-03-04 07:55:47 -0800, after v3.14-rc5: in -rc6, inferred), whose META parent
 *            is a0320865 (5eaf1a9e until 6 Dec 2026, which left 3.14's SLUB fix out;
 *            no modelled function changes between them but for 309381fe's
 *            VM_BUG_ON_PAGE, which the fidelity tool reads as VM_BUG_ON); 'parent: 44518d2b'
 *            above is superseded. Mainline's own parent, per the commit page, is 'MAINTAINERS:
 *            EDAC: add Mauro and Borislav as interim patch collectors' (its id UNVERIFIED). The
 *            3.10-stable backport is the variant linux-3.10.36 (kernel/linux-3.10.36/, parent
 *            27c73ae7); until this update it was the variant named 668f9abb.
 */
