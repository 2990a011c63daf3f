/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmcheck kernel text: modelled functions only, verbatim.
 * variant:   108d6642
 * file:      mm/rmap.c
 * source:    Michel Lespinasse, "[PATCH 3/7] mm anon rmap: remove anon_vma_moveto_tail"
 *            (linux-mm, Tue 4 Sep 2012,
 *            <1346750457-12385-4-git-send-email-walken@google.com>; index
 *            7b5b51d25fc5..8cbd62fde0f1, hunk @@ -269,51 +269,6 @@: the whole function
 *            and its comment are '-' lines)
 * status:    partial
 * holds:     (none: this commit deletes anon_vma_moveto_tail)
 * unchanged: -
 * removed:   anon_vma_moveto_tail
 * notes:     header-only file: it records the deletion so the fidelity tool does not
 *            inherit 948f017b's anon_vma_moveto_tail.
 */
