//! The claims registry is the single source of truth: every claim has its loom test, its
//! proof document, a twin with the opposite expectation on the same model (proof of power),
//! and bad settings are refused with a clear error. Runs in the std build.

use mmcheck::claims::{parse_bound, select, Expected, CLAIMS, SOAKS};
use std::collections::HashSet;

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn claim_ids_are_unique() {
    let mut seen = HashSet::new();
    for c in CLAIMS {
        assert!(
            seen.insert(c.id.to_ascii_lowercase()),
            "duplicate claim id {}",
            c.id
        );
    }
}

#[test]
fn every_claim_has_its_loom_test() {
    for c in CLAIMS {
        let file = format!(
            "tests/{}.rs",
            match c.area {
                "s1" => "thp",
                "s2" => "pagevec",
                "s3" => "vma",
                other => panic!("claim {} has unknown area {other}", c.id),
            }
        );
        let text = read(&file);
        assert!(
            text.contains(&format!("fn {}()", c.test)),
            "{}: no test fn {} in {file}",
            c.id,
            c.test
        );
        assert!(
            text.contains(&format!("check_claim(\"{}\")", c.id)),
            "{}: {file} never runs check_claim(\"{}\")",
            c.id,
            c.id
        );
    }
}

#[test]
fn every_claim_has_its_proof() {
    for c in CLAIMS {
        let text = read(c.proof);
        assert!(
            text.contains(c.id),
            "{} does not mention claim {}",
            c.proof,
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
                c.proof
            );
        }
    }
    let index = read("proofs/README.md");
    for c in CLAIMS {
        assert!(
            index.contains(c.id),
            "proofs/README.md does not list claim {}",
            c.id
        );
    }
}

/// No SAFE verdict without proof of power: each SAFE claim names a BUG twin that runs the same
/// model (and vice versa for the design's BUG claims).
#[test]
fn every_safe_claim_has_a_bug_twin_on_the_same_model() {
    for c in CLAIMS.iter().filter(|c| c.expected == Expected::Safe) {
        let twin = CLAIMS
            .iter()
            .find(|t| t.id == c.twin)
            .unwrap_or_else(|| panic!("{}: twin {} missing", c.id, c.twin));
        assert!(
            matches!(twin.expected, Expected::Bug(_)),
            "{}: twin {} is not a BUG claim",
            c.id,
            twin.id
        );
        assert_eq!(
            twin.model, c.model,
            "{}: twin {} runs another model",
            c.id, twin.id
        );
    }
}

#[test]
fn every_soak_model_has_a_failing_variant() {
    let areas: HashSet<_> = SOAKS.iter().map(|s| s.area).collect();
    for a in areas {
        assert!(
            SOAKS.iter().any(|s| s.area == a && s.expect_bug),
            "soak {a} has no known-bad variant"
        );
        assert!(
            SOAKS.iter().any(|s| s.area == a && !s.expect_bug),
            "soak {a} has no safe variant"
        );
    }
}

#[test]
fn claim_selection_by_id_prefix_and_area() {
    assert_eq!(select("S1.3").unwrap().len(), 1);
    assert_eq!(select("s1.3-fix").unwrap()[0].id, "S1.3-fix");
    assert!(select("s1").unwrap().len() == CLAIMS.iter().filter(|c| c.area == "s1").count());
    assert!(select("S1.1").unwrap().iter().all(|c| c.id == "S1.1"));
}

#[test]
fn unknown_claim_is_refused_with_suggestions() {
    let err = select("S1.33").unwrap_err();
    assert!(
        err.contains("unknown claim 'S1.33'") && err.contains("S1.3"),
        "{err}"
    );
    assert!(select("").is_err());
    assert!(select("s9").is_err());
}

#[test]
fn bounds_are_validated() {
    assert_eq!(parse_bound("3"), Ok(Some(3)));
    assert_eq!(parse_bound("none"), Ok(None));
    assert_eq!(parse_bound(" unbounded "), Ok(None));
    for bad in ["-1", "x", "", "3.5", "21", "99999999999999999999999"] {
        assert!(parse_bound(bad).is_err(), "bound {bad:?} accepted");
    }
}
