//! The claims table agrees with itself and with the rest of the repository: ids are unique
//! and well formed, every claim names a variant and a model that exist and can run under its
//! checker, every SAFE claim has a BUG twin on the same model and checker (proof of power),
//! every claim has its proof document with the required sections, and the proofs index lists
//! every claim. Runs in the std build: `cargo test --test registry`.

use mmcheck::variant::Area;
use mmcheck_claims::table::{self, Claim};
use mmcheck_claims::{CheckerKind, Expected};
use mmcheck_models::{registry, Runner};
use std::collections::HashSet;

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn claim(id: &str) -> &'static Claim {
    table::all()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no claim {id}"))
}

#[test]
fn claim_ids_are_unique_and_name_their_area() {
    let mut seen = HashSet::new();
    for c in table::all() {
        assert!(
            seen.insert(c.id.to_ascii_lowercase()),
            "duplicate claim id {}",
            c.id
        );
        let area = c.area();
        assert!(
            table::of_area(area).iter().any(|x| x.id == c.id),
            "{} is listed in another area's table than {area}",
            c.id
        );
        assert!(
            c.id[area.name().len()..].starts_with('.'),
            "{}: an id is <area>.<name>",
            c.id
        );
    }
}

#[test]
fn every_claim_names_a_runnable_variant_and_model() {
    for c in table::all() {
        let v = registry::variant(c.variant)
            .unwrap_or_else(|| panic!("{}: no variant {}", c.id, c.variant));
        assert_eq!(
            v.meta.area,
            c.area(),
            "{}: variant {} is of another area",
            c.id,
            c.variant
        );
        let m = registry::model(c.variant, c.model)
            .unwrap_or_else(|| panic!("{}: area {} has no model {}", c.id, c.area(), c.model));
        let fits = matches!(
            (c.checker.kind(), m.run),
            (
                CheckerKind::Loom | CheckerKind::Shuttle,
                Runner::Scenario(_)
            ) | (CheckerKind::Proptest, Runner::Sequential(_))
        );
        assert!(
            fits,
            "{}: model {} cannot run under {}",
            c.id,
            c.model,
            c.checker.kind()
        );
        if c.checker.kind() == CheckerKind::Loom {
            assert!(
                m.cpus <= 4,
                "{}: loom allows 4 CPUs besides the main thread",
                c.id
            );
        }
    }
}

/// No SAFE verdict without proof of power: each SAFE claim names a BUG twin that runs the same
/// model under the same checker.
#[test]
fn every_safe_claim_has_a_bug_twin_on_the_same_model_and_checker() {
    for c in table::all().filter(|c| c.expected == Expected::Safe) {
        let id = c
            .twin
            .unwrap_or_else(|| panic!("{}: a SAFE claim needs a BUG twin", c.id));
        let twin = claim(id);
        assert!(
            matches!(twin.expected, Expected::Bug(_) | Expected::AnyBug),
            "{}: twin {} is not a BUG claim",
            c.id,
            twin.id
        );
        assert_eq!(
            twin.model, c.model,
            "{}: twin {} runs another model",
            c.id, twin.id
        );
        assert_eq!(
            twin.checker.kind(),
            c.checker.kind(),
            "{}: twin {} runs under another checker",
            c.id,
            twin.id
        );
    }
    for c in table::all() {
        if let Some(t) = c.twin {
            claim(t);
        }
    }
}

#[test]
fn every_claim_has_its_proof() {
    for c in table::all() {
        let text = read(&c.proof());
        assert!(
            text.contains(c.id),
            "{} does not mention claim {}",
            c.proof(),
            c.id
        );
        for section in [
            "## Statement",
            "## Kernel code",
            "## Invariants",
            "## Bound",
            "## Result",
            "## Left out",
        ] {
            assert!(
                text.contains(section),
                "{} lacks section '{section}'",
                c.proof()
            );
        }
    }
    let index = read("proofs/README.md");
    for c in table::all() {
        assert!(
            index.contains(c.id),
            "proofs/README.md does not list claim {}",
            c.id
        );
    }
}

#[test]
fn every_area_has_claims_under_every_checker_it_models() {
    for area in Area::ALL {
        let claims = table::of_area(area);
        assert!(
            claims.iter().any(|c| c.checker.kind() == CheckerKind::Loom),
            "{area} has no loom claim"
        );
    }
}
