//! mm/filemap.c: the end of a page's writeback (the caller of `rotate_reclaimable_page()`).

use super::lru::Lru;
use super::Mem;
use crate::page::*;
use crate::sync::smp_mb__after_clear_bit;
use crate::{ktrace, BUG_ON};

/// `end_page_writeback(page)` (mm/filemap.c, 2.6.37–3.0, bracketed: the text of Miklos
/// Szeredi's "mm: rotate_reclaimable_page() cleanup", posted in the 2.6.26 cycle, 2008, and of
/// 2.6.39 and 3.0.27): "end writeback against a page". Called from the block layer's completion, in interrupt context. The rotation comes
/// first, while PG_writeback still keeps the page from being truncated or migrated (both wait
/// for it): that is the caller's pin `rotate_reclaimable_page()` relies on for its
/// `page_cache_get()`.
pub fn end_page_writeback<V: Lru>(m: &Mem, page: PagePtr) {
    let p = m.pg(page);
    if TestClearPageReclaim(p) {
        V::rotate_reclaimable_page(m, page);
    }

    // MODEL: UNPAIRED: `BUG_ON!(.., !TestClearPageWriteback(p))` is `if
    // (!test_clear_page_writeback(page)) BUG()`: test_clear_page_writeback() is
    // TestClearPageWriteback() here (its mapping's tree_lock, radix-tree tag and writeback
    // counts are not modelled: no model looks at them).
    BUG_ON!("end_page_writeback", !TestClearPageWriteback(p));
    // LEFT OUT: UNPAIRED: `if (!test_clear_page_writeback(page)) BUG()`: the BUG_ON! above.

    smp_mb__after_clear_bit();
    ktrace!("end_page_writeback", "{page:?}: writeback ended");
    // LEFT OUT: `wake_up_page(page, PG_writeback)`: no task of the models sleeps on the bit.
}

/// `trylock_page(page)` (`crate::page::trylock_page_bit`) on an LRU model's page. Only lru.22
/// locks a page (mlock's caller); the other LRU models leave the page lock out (their proofs
/// say why).
pub fn trylock_page(m: &Mem, page: PagePtr) -> bool {
    trylock_page_bit(&m.pg(page).flags, || format!("{page:?}"))
}

/// `unlock_page(page)` (`crate::page::unlock_page_bit`) on an LRU model's page.
pub fn unlock_page(m: &Mem, page: PagePtr) {
    unlock_page_bit(&m.pg(page).flags, || format!("{page:?}"))
}
