//! References as values: a reference a CPU holds on a page is a [`PageRef`], made by a get
//! and consumed by a put. A double put does not compile; a leaked one is reported by the
//! end-of-scenario checks (ghost pins). Harness bookkeeping only: the kernel code below it
//! does the counting.

use super::lru::page_cache_release;
use super::swap::{get_page, put_page, Compound};
use super::Mem;
use crate::page::PagePtr;
use crate::sync::CHECKED;
use crate::trace::{fail, Invariant};

/// A reference a CPU holds on a page.
#[must_use = "a page reference must be dropped with put()"]
#[derive(Debug)]
pub struct PageRef {
    page: PagePtr,
    gen: u32,
}

impl PageRef {
    /// `get_page(page)` by a caller that already holds a reference to `page` (or maps it).
    pub fn get<V: Compound>(m: &Mem, page: PagePtr) -> PageRef {
        let r = PageRef::adopt(m, page);
        get_page::<V>(m, page);
        r
    }

    /// Take over a reference obtained some other way (allocation, gup_fast, the page cache).
    pub fn adopt(m: &Mem, page: PagePtr) -> PageRef {
        let p = m.pg(page);
        p.ghost.pin();
        PageRef {
            page,
            gen: p.ghost_gen(),
        }
    }

    /// `put_page(page)` with compound-refcounting variant `V`.
    pub fn put<V: Compound>(self, m: &Mem) {
        let page = self.forget(m);
        put_page::<V>(m, page);
    }

    /// `page_cache_release(page)` of an order-0 page (the LRU models' pages).
    pub fn release(self, m: &Mem) {
        let page = self.forget(m);
        page_cache_release(m, page);
    }

    /// Drop the ghost record only (the kernel-level reference is released by other code,
    /// e.g. the unmap path).
    pub fn forget(self, m: &Mem) -> PagePtr {
        let p = m.pg(self.page);
        if CHECKED && (p.ghost_gen() != self.gen || !p.ghost_allocated()) {
            fail(
                "put_page",
                Invariant::UseAfterFree,
                format!(
                    "{:?} was freed (and maybe reallocated) while this CPU still held a reference",
                    self.page
                ),
            );
        }
        p.ghost.unpin();
        self.page
    }

    pub fn page(&self) -> PagePtr {
        self.page
    }
}
