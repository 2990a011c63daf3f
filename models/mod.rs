//! The concurrent scenarios: who does what on which CPU, and the invariants checked at the
//! end. Each scenario is one function run once per execution by loom, shuttle or std.
//!
//! Naming: a scenario is named for the race it contains; the claims registry
//! (`crate::claims`) says which variant runs on it and what verdict to expect.

pub mod invariants;
pub mod lru;
pub mod thp;
pub mod vma;

use crate::sync::JoinHandle;

/// Join a CPU; a panic on it (an invariant already recorded) is passed on.
pub fn join<T>(h: JoinHandle<T>) -> T {
    match h.join() {
        Ok(v) => v,
        Err(e) => std::panic::resume_unwind(e),
    }
}
