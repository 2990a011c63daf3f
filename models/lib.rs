//! mmcheck's scenarios: who does what on which CPU, and the invariants checked at the end.
//! Each scenario is a function generic over the kernel variant, run once per execution by
//! loom, shuttle or std; a sequential model is run on random operation sequences by proptest.
//!
//! [`registry`] lists, for each area, every variant (from the kernel crate's variant folders)
//! with every model of the area instantiated for it: the claims table names a (model,
//! variant) pair, and `verify --matrix` runs all of them.
//!
//! Layer: above the kernel crate (`mmcheck`), below the claims (`mmcheck-claims`).
//! Naming: a scenario is named for the race it contains.

pub mod compound;
pub mod invariants;
pub mod litmus;
pub mod lru;
pub mod registry;
pub mod sequential;
pub mod vma;

use mmcheck::checker::Exploration;

/// How a model runs.
#[derive(Clone, Copy)]
pub enum Runner {
    /// One execution of a concurrent scenario, explored by loom or soaked by shuttle.
    Scenario(fn()),
    /// A sequential model: proptest runs random operation sequences against a reference model
    /// and shrinks a failure (`sequential::run`).
    Sequential(fn(&sequential::Settings) -> Exploration),
}

/// One model of an area, instantiated for one variant.
#[derive(Clone, Copy)]
pub struct Model {
    /// The scenario's function name (`thp_get_put_vs_split`): stable, used by the claims.
    pub name: &'static str,
    /// CPUs that run at once (0: a sequential model on the main thread).
    pub cpus: usize,
    /// One line: what the scenario does.
    pub about: &'static str,
    pub run: Runner,
}

/// `model!(module::function, cpus, "about")` for a scenario generic over `V`.
#[macro_export]
macro_rules! scenario {
    ($f:ident :: <$v:ty>, $cpus:expr, $about:expr) => {
        $crate::Model {
            name: stringify!($f),
            cpus: $cpus,
            about: $about,
            run: $crate::Runner::Scenario($f::<$v>),
        }
    };
}
