//! Safeguard coverage: for every SAFE variant, each safeguard (barrier, lock, re-check, fully
//! ordered atomic, reference) with the mutant that removes it and the claim that kills it, or
//! the proof section that argues why no model needs it. `verify --safeguards` prints it and
//! fails while a safeguard has neither, or a SAFE variant lists none.

use crate::table::{self, Coverage, Expected, Safeguard};
use mmcheck::variant::Kind;
use mmcheck_models::registry;
use std::fmt::Write;

/// The kernel variants (releases, commits, postings) some claim finds SAFE, in table order.
/// A mutant some claim finds SAFE shows a safeguard redundant; it has no safeguards of its
/// own to list.
pub fn safe_variants() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for c in table::all() {
        let mutant = registry::variant(c.variant)
            .is_some_and(|v| matches!(v.meta.kind, Kind::Mutant { .. }));
        if c.expected == Expected::Safe && !mutant && !out.contains(&c.variant) {
            out.push(c.variant);
        }
    }
    out
}

/// What is missing: uncovered rows, and SAFE variants with no row at all.
pub fn problems() -> Vec<String> {
    let mut p = Vec::new();
    for s in table::safeguards() {
        if s.coverage == Coverage::Uncovered {
            p.push(format!(
                "{}: '{}' has neither a killing mutant nor an argument",
                s.variants.join(", "),
                s.name
            ));
        }
    }
    for v in safe_variants() {
        if !table::safeguards().any(|s| s.variants.contains(&v)) {
            p.push(format!("{v}: a SAFE variant that lists no safeguard"));
        }
    }
    p
}

/// How a row is covered, in one line.
pub fn coverage_text(s: &Safeguard) -> String {
    match s.coverage {
        Coverage::Killed { mutant, claim } => format!("killed: mutant {mutant}, claim {claim}"),
        Coverage::Redundant { proof, because } => format!("redundant ({because}): {proof}"),
        Coverage::OutOfScope { proof, because } => {
            format!("out of the models' scope ({because}): {proof}")
        }
        Coverage::Unneeded { proof, because } => {
            format!("not needed by the modelled readers ({because}): {proof}")
        }
        Coverage::BlindSpot { proof, because } => {
            format!("checker blind spot ({because}): {proof}")
        }
        Coverage::Uncovered => "UNCOVERED".to_string(),
    }
}

/// The coverage table (Markdown): variant, safeguard, kind, coverage.
pub fn markdown() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| variant | safeguard | kind | mutant | killed by / argued in |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    for v in safe_variants() {
        for g in table::safeguards().filter(|g| g.variants.contains(&v)) {
            let (mutant, by) = match g.coverage {
                Coverage::Killed { mutant, claim } => (mutant.to_string(), claim.to_string()),
                Coverage::Redundant { proof, because } => {
                    ("-".to_string(), format!("redundant: {because} ({proof})"))
                }
                Coverage::OutOfScope { proof, because } => (
                    "-".to_string(),
                    format!("out of the models' scope: {because} ({proof})"),
                ),
                Coverage::Unneeded { proof, because } => (
                    "-".to_string(),
                    format!("not needed by the modelled readers: {because} ({proof})"),
                ),
                Coverage::BlindSpot { proof, because } => (
                    "-".to_string(),
                    format!("checker blind spot: {because} ({proof})"),
                ),
                Coverage::Uncovered => ("-".to_string(), "**UNCOVERED**".to_string()),
            };
            // A row of shared code is written once, on its first variant (the one that has
            // the code first); the others inherit it.
            let name = if g.variants.len() > 1 && g.variants[0] != v {
                format!("{} (inherited: the row of {})", g.name, g.variants[0])
            } else {
                g.name.to_string()
            };
            let _ = writeln!(
                s,
                "| {v} | {name} | {} | {mutant} | {by} |",
                serde_json::to_value(g.kind)
                    .ok()
                    .and_then(|k| k.as_str().map(str::to_string))
                    .unwrap_or_default()
            );
        }
    }
    s
}
