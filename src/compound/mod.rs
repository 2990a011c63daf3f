//! Compound-page refcounting of Linux 3.11–3.13, one file per variant.
//!
//! Each variant holds its version of the three functions the patches changed in mm/swap.c:
//! `__get_page_tail`, `put_compound_page` and `__put_compound_page`. Everything they call is
//! shared (`crate::mm`). `diff linux_3_11.rs commit_7cb2ef56.rs` reads like 7cb2ef56, and
//! `diff commit_7cb2ef56.rs commit_27c73ae7.rs` like 27c73ae7.
//!
//! Variants are zero-sized types selected by generics: no cost in the production build.

mod bypass_thp;
mod commit_27c73ae7;
mod commit_7cb2ef56;
mod linux_3_11;
mod mutant_7cb2ef56_dec_read;

pub use bypass_thp::BypassThp;
pub use commit_27c73ae7::Commit27c73ae7;
pub use commit_7cb2ef56::Commit7cb2ef56;
pub use linux_3_11::Linux311;
pub use mutant_7cb2ef56_dec_read::Mutant7cb2ef56DecRead;

use crate::mm::swap::{get_page, put_page};
use crate::mm::Mem;
use crate::page::PagePtr;
use crate::sync::{Ordering, CHECKED};
use crate::trace::{fail, Invariant};

/// One version of the compound refcounting code of mm/swap.c.
pub trait Compound: 'static + Send + Sync {
    /// Stable id used by the claims registry (`linux-3.11`, `7cb2ef56`, ...).
    const ID: &'static str;
    /// `__get_page_tail(page)`: the slow path of `get_page()` on a tail page.
    fn __get_page_tail(m: &Mem, page: PagePtr) -> bool;
    /// `put_compound_page(page)`: `put_page()` of a head or tail page.
    fn put_compound_page(m: &Mem, page: PagePtr);
    /// `__put_compound_page(page)`: the last reference to a compound page went away.
    fn __put_compound_page(m: &Mem, page: PagePtr);
}

/// A reference a CPU holds on a page: made by a get, consumed by a put. A double put does not
/// compile; a leaked one is reported by the end-of-scenario checks (ghost pins).
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
        if CHECKED {
            p.ghost.pins.fetch_add(1, Ordering::Relaxed);
        }
        PageRef {
            page,
            gen: p.ghost_gen(),
        }
    }

    /// `put_page(page)`.
    pub fn put<V: Compound>(self, m: &Mem) {
        let page = self.forget(m);
        put_page::<V>(m, page);
    }

    /// Drop the ghost record only (the kernel-level reference is released by other code,
    /// e.g. the unmap path).
    pub fn forget(self, m: &Mem) -> PagePtr {
        let p = m.pg(self.page);
        if CHECKED {
            if p.ghost_gen() != self.gen || !p.ghost_allocated() {
                fail(
                    "put_page",
                    Invariant::UseAfterFree,
                    format!("{:?} was freed (and maybe reallocated) while this CPU still held a reference", self.page),
                );
            }
            p.ghost.pins.fetch_sub(1, Ordering::Relaxed);
        }
        self.page
    }

    pub fn page(&self) -> PagePtr {
        self.page
    }
}
