//! The matrix: every loom model of an area run on every variant of the area. A cell that a
//! claim covers carries the claim's expectation (and runs with its bound and kernel config);
//! a cell no claim covers is shown as new, never as a failure: it is what a reviewer reads
//! after adding a patch (`verify --variant ID` is the matrix column of one variant).

use crate::explore::Job;
use crate::table::{self, Bound, Checker, CheckerKind, Claim, Expected};
use mmcheck::variant::{Area, Kind};
use mmcheck_models::registry;

/// One model on one variant.
#[derive(Clone, Copy, Debug)]
pub struct Cell {
    pub area: Area,
    pub model: &'static str,
    pub variant: &'static str,
    pub job: Job<'static>,
    /// The claim that states this cell's expectation, if any.
    pub claim: Option<&'static Claim>,
}

impl Cell {
    pub fn expected(&self) -> Option<Expected> {
        self.claim.map(|c| c.expected)
    }
}

fn loom_claims_of(area: Area, model: &str) -> impl Iterator<Item = &'static Claim> + '_ {
    table::of_area(area)
        .iter()
        .filter(move |c| c.model == model && c.checker.kind() == CheckerKind::Loom)
}

/// The models of `area` that loom runs (those some loom claim uses), in table order.
pub fn loom_models(area: Area) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for c in table::of_area(area) {
        if c.checker.kind() == CheckerKind::Loom && !out.contains(&c.model) {
            out.push(c.model);
        }
    }
    out
}

/// The largest of some bounds (no bound is the largest).
fn largest(bounds: impl Iterator<Item = Bound>) -> Option<Bound> {
    bounds.max_by_key(|b| match b {
        Bound::Preemption(n) => *n,
        Bound::Unbounded => usize::MAX,
    })
}

/// The cell of `model` on `variant`. Its bound is the claim's; without one, that of the
/// nearest ancestor (parent links, a mutant's first) with claims on the model, the variant
/// being its ancestor's text plus a change (an unbounded claim on 44518d2b does not make
/// ca641514's cell unbounded where 27c73ae7's bound-4 claim is its ancestor's): the largest
/// bound of that ancestor's SAFE claims there, or of its BUG claims if it has no SAFE one (a
/// BUG claim's bound is set to find its bug, not to cover the model); else the largest bound
/// of the model's loom claims. Its kernel config is the claim's, or the one the
/// model's SAFE claims state (the production config a SAFE verdict is given for).
pub fn cell(area: Area, model: &'static str, variant: &'static str) -> Cell {
    let of_model: Vec<_> = loom_claims_of(area, model).collect();
    let safe_config = of_model
        .iter()
        .find(|c| c.expected == Expected::Safe)
        .or(of_model.first())
        .is_none_or(|c| c.config_debug_vm);
    let claim = of_model
        .iter()
        .filter(|c| c.variant == variant)
        .min_by_key(|c| c.config_debug_vm != safe_config)
        .copied();
    let ancestors = std::iter::successors(
        registry::variant(variant).and_then(|v| v.meta.parent),
        |id| registry::variant(id).and_then(|v| v.meta.parent),
    );
    let inherited = ancestors
        .take(64)
        .map(|a| {
            let of = |safe: bool| {
                largest(
                    of_model
                        .iter()
                        .filter(|c| c.variant == a && (c.expected == Expected::Safe) == safe)
                        .filter_map(|c| c.bound()),
                )
            };
            of(true).or_else(|| of(false))
        })
        .find(Option::is_some)
        .flatten();
    let bound = claim
        .and_then(|c| c.bound())
        .or(inherited)
        .or_else(|| largest(of_model.iter().filter_map(|c| c.bound())))
        .unwrap_or(Bound::Unbounded);
    Cell {
        area,
        model,
        variant,
        job: Job {
            variant,
            model,
            checker: Checker::Loom { bound },
            config_debug_vm: claim.map_or(safe_config, |c| c.config_debug_vm),
        },
        claim,
    }
}

/// The variants of `area` in reading order: releases, postings, commits, then mutants (each
/// group in file-name order).
pub fn variants_in_order(area: Area) -> Vec<&'static str> {
    let rank = |k: &Kind| match k {
        Kind::Release { .. } => 0,
        Kind::Posting { .. } => 1,
        Kind::Commit { .. } => 2,
        Kind::Mutant { .. } => 3,
    };
    let mut v: Vec<_> = registry::variants(area).iter().collect();
    v.sort_by_key(|e| rank(&e.meta.kind));
    v.into_iter().map(|e| e.meta.id).collect()
}

/// Every loom model of `area` on every variant that has it: models are rows, variants columns
/// (a variant without the model, lru.9's on 2.6.37, has no cell).
pub fn plan(area: Area) -> Vec<Cell> {
    let models = loom_models(area);
    let mut cells = Vec::new();
    for m in &models {
        for v in variants_in_order(area) {
            if registry::model(v, m).is_some() {
                cells.push(cell(area, m, v));
            }
        }
    }
    cells
}

/// Every loom model of the variant's area on the variant `id` (those its code has:
/// `deactivate_page()` exists in 3.0's text only, lru.9).
pub fn plan_variant(id: &str) -> Result<Vec<Cell>, String> {
    let v = registry::variant(id).ok_or_else(|| {
        let mut known: Vec<&str> = Area::ALL
            .into_iter()
            .flat_map(registry::variants)
            .map(|v| v.meta.id)
            .collect();
        known.sort();
        format!("no variant '{id}' (known: {})", known.join(", "))
    })?;
    let area = v.meta.area;
    Ok(loom_models(area)
        .into_iter()
        .filter(|m| registry::model(v.meta.id, m).is_some())
        .map(|m| cell(area, m, v.meta.id))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(model: &'static str, variant: &'static str) -> Bound {
        match cell(Area::Compound, model, variant).job.checker {
            Checker::Loom { bound } => bound,
            other => panic!("{model} on {variant}: not a loom cell: {other:?}"),
        }
    }

    #[test]
    fn a_cell_without_a_claim_takes_its_nearest_ancestors_bound() {
        // compound.12-gup (44518d2b) is unbounded; compound.4-fix (27c73ae7) is at bound 4.
        assert!(matches!(
            bound("hugetlb_gup_then_shrink", "44518d2b"),
            Bound::Unbounded
        ));
        // ca641514 -> ebf360f9 -> 27c73ae7: 27c73ae7's bound, not the model's largest.
        assert!(matches!(
            bound("hugetlb_gup_then_shrink", "ca641514"),
            Bound::Preemption(4)
        ));
        // 3bfcd13e -> 44518d2b: the child of an unbounded claim's variant runs unbounded.
        assert!(matches!(
            bound("hugetlb_gup_then_shrink", "3bfcd13e"),
            Bound::Unbounded
        ));
        // A mutant of 27c73ae7 runs at its parent's bound.
        assert!(matches!(
            bound("hugetlb_gup_then_shrink", "27c73ae7-relaxed-put"),
            Bound::Preemption(4)
        ));
        // 7cb2ef56's only claim on the model is a BUG (compound.4, bound 4): its mutants
        // take that bound.
        assert!(matches!(
            bound("hugetlb_gup_then_shrink", "7cb2ef56-dec-read"),
            Bound::Preemption(4)
        ));
        // A root with no claim on the model: the model's largest bound (compound.2's none).
        assert!(matches!(
            bound("hugetlb_get_put", "linux-3.4"),
            Bound::Unbounded
        ));
        // The ancestor's SAFE claims decide: ebf360f9 -> 27c73ae7, whose SAFE
        // compound.2-27c73ae7 is at bound 5 on this model.
        assert!(matches!(
            bound("hugetlb_get_put", "ebf360f9"),
            Bound::Preemption(5)
        ));
    }
}
