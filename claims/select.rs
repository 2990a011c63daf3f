//! Choosing claims by id, id prefix or area; an unknown id is an error naming the nearest ids.

use crate::table::{self, Claim};

/// Claims by id or id prefix (case-insensitive): `compound`, `compound.3`, `compound.3-fix`.
/// A prefix matches whole parts: `compound.1` selects `compound.1` and `compound.1-27c73ae7`,
/// not `compound.10`.
pub fn select(pattern: &str) -> Result<Vec<&'static Claim>, String> {
    let p = pattern.trim().to_ascii_lowercase();
    if p.is_empty() {
        return Err("empty claim id".to_string());
    }
    let exact: Vec<_> = table::all()
        .filter(|c| c.id.eq_ignore_ascii_case(&p))
        .collect();
    if !exact.is_empty() {
        return Ok(exact);
    }
    let pre: Vec<_> = table::all()
        .filter(|c| {
            let id = c.id.to_ascii_lowercase();
            id.starts_with(&p) && matches!(id[p.len()..].chars().next(), Some('.') | Some('-'))
        })
        .collect();
    if !pre.is_empty() {
        return Ok(pre);
    }
    let mut near: Vec<(usize, &str)> = table::all()
        .map(|c| (edit_distance(&p, &c.id.to_ascii_lowercase()), c.id))
        .collect();
    near.sort();
    let suggestions: Vec<&str> = near.iter().take(3).map(|(_, id)| *id).collect();
    Err(format!(
        "unknown claim '{pattern}'; did you mean {}?",
        suggestions.join(", ")
    ))
}

/// The one claim with exactly this id.
pub fn get(id: &str) -> Result<&'static Claim, String> {
    table::all()
        .find(|c| c.id.eq_ignore_ascii_case(id))
        .ok_or_else(|| {
            select(id)
                .err()
                .unwrap_or_else(|| format!("'{id}' names several claims, not one"))
        })
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push(
                (prev[j] + usize::from(ca != *cb))
                    .min(prev[j + 1] + 1)
                    .min(cur[j] + 1),
            );
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_id_prefix_and_area() {
        assert_eq!(select("compound.3").unwrap().len(), 1);
        assert_eq!(select("COMPOUND.3-FIX").unwrap()[0].id, "compound.3-fix");
        let area = select("lru").unwrap();
        assert_eq!(
            area.len(),
            table::of_area(mmcheck::variant::Area::Lru).len()
        );
        assert!(select("compound.1")
            .unwrap()
            .iter()
            .all(|c| c.id == "compound.1"));
        let family: Vec<_> = select("compound.2").unwrap().iter().map(|c| c.id).collect();
        assert_eq!(
            family,
            vec!["compound.2"],
            "an exact id wins over the prefix"
        );
    }

    #[test]
    fn unknown_ids_are_refused_with_suggestions() {
        let err = select("compound.33").unwrap_err();
        assert!(
            err.contains("unknown claim 'compound.33'") && err.contains("compound.3"),
            "{err}"
        );
        assert!(select("").is_err());
        assert!(select("s9").is_err());
        assert!(get("compound").is_err());
    }
}
