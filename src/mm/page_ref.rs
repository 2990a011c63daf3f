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

    /// `put_page(page)` with compound-refcounting variant `V`. The ghost pin goes only after
    /// the kernel put returns: while the put is in flight the frame must not be freed by
    /// anyone but the put itself (the free-time check exempts CPUs whose put is in flight; a
    /// put that then touches a freed frame breaks the ghost count checks).
    pub fn put<V: Compound>(self, m: &Mem) {
        let page = self.check(m);
        let p = m.pg(page);
        p.ghost.put_begins();
        put_page::<V>(m, page);
        p.ghost.put_ends();
    }

    /// `page_cache_release(page)` of an order-0 page (the LRU models' pages).
    pub fn release(self, m: &Mem) {
        let page = self.check(m);
        let p = m.pg(page);
        p.ghost.put_begins();
        page_cache_release(m, page);
        p.ghost.put_ends();
    }

    /// Write to the page's contents through this reference (the I/O a pin is for): the next
    /// owner of the frame must see it (`page::ghost_contents_handover`).
    pub fn write_contents(&self, m: &Mem) {
        let cpu = crate::sync::cpu_of_thread().map_or(0xff, |c| c + 1);
        let token = ((self.gen as usize) << 8) | cpu | 0x5a00_0000;
        crate::page::page_contents_write(m.pg(self.page), token);
        crate::ktrace!(
            "write_contents",
            "{:?}: holder writes {token:#x}",
            self.page
        );
    }

    /// Drop the ghost record only (the kernel-level reference is released by other code,
    /// e.g. the unmap path).
    pub fn forget(self, m: &Mem) -> PagePtr {
        let page = self.check(m);
        m.pg(page).ghost.unpin();
        page
    }

    /// The reference is still to the frame's generation it was taken on.
    fn check(&self, m: &Mem) -> PagePtr {
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
        self.page
    }

    pub fn page(&self) -> PagePtr {
        self.page
    }
}
