//! 668f9abb (its 3.10-stable text, linux-3.10.36) plus the fix for the `compound_lock()` vs `prep_new_page()` race as described
//! (attributed to Oleg Nesterov, early 2014; NOT FOUND in the stored archives, see META):
//! `get_page_unless_zero()` + `compound_lock()` on a former THP head that was freed and
//! reallocated as a smaller `__GFP_COMP` page can succeed right after `set_page_refcounted()`
//! and race the non-atomic `__SetPageHead()` of `prep_compound_page()`. The fix makes the page
//! refcounted only after the compound setup, with `smp_wmb()` so `_count != 0` is the last
//! change others can see.

use crate::mm::page_alloc::{check_new_page, set_page_refcounted};
use crate::mm::swap::*;
use crate::mm::Mem;
use crate::page::*;
use crate::sync::smp_wmb;
use crate::variant::{Area, Kind, VariantMeta};

/// linux-3.10.36 (668f9abb's backport) + the described prep_new_page() fix.
pub struct Variant;

impl Compound for Variant {
    const META: VariantMeta = VariantMeta {
        id: "nesterov-v1",
        area: Area::Compound,
        kind: Kind::Posting {
            subject: "mm: fix the theoretical compound_lock() vs prep_new_page() race (subject UNVERIFIED)",
            date: "2014 (UNVERIFIED)",
        },
        parent: Some("linux-3.10.36"),
        source: "UNVERIFIED: the fix as described by issue #9 (\"the page refcounted only after compound setup\"); no posting, commit id or diff was found in the stored archives (research note s1 section 5: find_string and semantic searches of lore, Jan-Mar 2014). The smp_wmb() before set_page_refcounted() is this model's reading of \"_count != 0 comes as a last change\", not a quoted text. Evidence against a lasting mainline change: 3.10-stable and 4.x prep_new_page() still refcount before prep_compound_page(). The parent is linux-3.10.36, the text of 668f9abb's 3.10-stable backport (until 6 Dec 2026 the variant named 668f9abb), so the fix is modelled on 27c73ae7's put/get shape; mainline 668f9abb (3.14's reorganised put/get) is its own variant.",
    };
    crate::compound_fns! {
        self: prep_new_page;
        super::linux_3_10_36: put_compound_page, __get_page_tail;
        super::commit_668f9abb: compound_head, prep_compound_page;
        super::commit_5bf5f03c: compound_lock, compound_unlock;
        super::linux_3_4: __put_compound_page;
    }
}

/// `prep_new_page(page, order, gfp_flags)` (mm/page_alloc.c) with the described fix:
/// `set_page_refcounted()` moved after `prep_compound_page()`, behind `smp_wmb()`.
/// UNVERIFIED text (see META).
pub fn prep_new_page<V: Compound>(m: &Mem, page: PagePtr, order: u32, gfp_comp: bool) {
    // (Aligned against the unpatched prep_new_page() that this variant inherits from
    // kernel/linux-3.4: no text of the described fix was found, see META.)
    for i in 0..(1usize << order) {
        check_new_page(m, page + i);
        // LEFT OUT: `if (unlikely(check_new_page(p))) return 1;` as a test (`p = page + i` is
        // the argument above): check_new_page() ends the run at bad_page(), never returns 1
    }

    set_page_private(m.pg(page), 0);
    // LEFT OUT: `set_page_refcounted(page)` here: the described fix moves it below; also
    // arch_alloc_page() (empty on x86), kernel_map_pages() (debug) and __GFP_ZERO's
    // prep_zero_page() (page contents are not modelled)

    if order > 0 && gfp_comp {
        V::prep_compound_page(m, page, order);
    }

    // get_page_unless_zero() on a stale pointer to this page may succeed from here on:
    // make every change above visible before _count != 0.
    // MODEL: the described fix (UNVERIFIED: no posted text, see META): `smp_wmb()` then
    // `set_page_refcounted(page)` after prep_compound_page()
    // LEFT OUT: `return 0;`: the allocation cannot fail here (see above)
    smp_wmb();
    set_page_refcounted(m, page);
}
