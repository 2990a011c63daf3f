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
                CheckerKind::Loom | CheckerKind::Shuttle | CheckerKind::StoreBuffer,
                Runner::Scenario(_)
            ) | (
                CheckerKind::Proptest | CheckerKind::Enumerate,
                Runner::Sequential(_)
            )
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
    // The index links every proof document (a claim added to an existing document needs no
    // index line: a new variant touches its file, its golden diff, its rows and its proof).
    let index = read("proofs/README.md");
    for c in table::all() {
        assert!(
            index.contains(&format!("({}.md)", c.base())),
            "proofs/README.md does not link {}.md (claim {})",
            c.base(),
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

/// GitHub's anchor of a Markdown heading: lower case, punctuation other than `-` and `_`
/// dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// `proofs/<file>.md#<anchor>` names a file with such a heading.
fn proof_section_exists(link: &str) -> Result<(), String> {
    let (file, want) = link
        .split_once('#')
        .ok_or_else(|| format!("{link}: not <file>#<anchor>"))?;
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let found = text
        .lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .any(|a| a == want);
    if found {
        Ok(())
    } else {
        Err(format!("{file} has no heading with anchor #{want}"))
    }
}

/// Every safeguard row is consistent: its variant is SAFE somewhere; a kill names a mutant of
/// it (removing what the row names) and a BUG claim that runs that mutant; an argument names a
/// proof section that exists.
#[test]
fn safeguard_rows_are_consistent() {
    use mmcheck::variant::Kind;
    use mmcheck_claims::table::Coverage;
    for s in table::safeguards() {
        assert!(!s.variants.is_empty(), "safeguard '{}': no variant", s.name);
        for v in s.variants {
            assert!(
                table::all().any(|c| c.variant == *v && c.expected == Expected::Safe),
                "safeguard '{}': variant {v} has no SAFE claim",
                s.name,
            );
        }
        match s.coverage {
            Coverage::Killed { mutant, claim: id } => {
                let m = registry::variant(mutant)
                    .unwrap_or_else(|| panic!("safeguard '{}': no mutant {mutant}", s.name));
                assert!(
                    matches!(m.meta.kind, Kind::Mutant { .. }),
                    "safeguard '{}': {mutant} is not a mutant",
                    s.name
                );
                let c = claim(id);
                assert_eq!(
                    c.variant, mutant,
                    "safeguard '{}': {id} runs another variant",
                    s.name
                );
                assert!(
                    matches!(c.expected, Expected::Bug(_) | Expected::AnyBug),
                    "safeguard '{}': {id} is not a BUG claim",
                    s.name
                );
            }
            Coverage::Redundant { proof, because }
            | Coverage::OutOfScope { proof, because }
            | Coverage::Unneeded { proof, because }
            | Coverage::BlindSpot { proof, because } => {
                assert!(!because.is_empty(), "safeguard '{}': say why", s.name);
                proof_section_exists(proof)
                    .unwrap_or_else(|e| panic!("safeguard '{}': {e}", s.name));
            }
            Coverage::Uncovered => {}
        }
    }
}

/// A safeguard is written once (issue #21): no two rows carry the same kill or the same
/// argument; a safeguard of shared code lists every variant that runs it in one row.
#[test]
fn every_safeguard_is_written_once() {
    use mmcheck_claims::table::Coverage;
    let rows: Vec<_> = table::safeguards().collect();
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            // An argument is its proof section: the same kind argued in one section twice is
            // the same argument written twice, whatever the wording.
            let argued = |c: &Coverage| match *c {
                Coverage::Redundant { proof, .. }
                | Coverage::OutOfScope { proof, .. }
                | Coverage::Unneeded { proof, .. }
                | Coverage::BlindSpot { proof, .. } => Some(proof),
                Coverage::Killed { .. } | Coverage::Uncovered => None,
            };
            let same_kill_or_argument = a.kind == b.kind
                && (a.coverage == b.coverage
                    || argued(&a.coverage).is_some_and(|p| argued(&b.coverage) == Some(p)));
            assert!(
                !same_kill_or_argument,
                "'{}' ({:?}) and '{}' ({:?}) are one safeguard written twice: list both variants in one row",
                a.name,
                a.variants,
                b.name,
                b.variants
            );
        }
    }
}
