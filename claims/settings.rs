//! Settings read from the environment by the generated tests. A malformed value is an error
//! that names the setting, never a silent default.

use crate::table::Bound;
use mmcheck::variant::Area;

/// The largest preemption bound accepted: far beyond what finishes on these models (bound 6
/// of the largest takes minutes); a larger number is a typo.
pub const MAX_BOUND: usize = 20;

/// Parse a preemption bound: a number from 0 to [`MAX_BOUND`], or `none` / `unbounded`.
pub fn parse_bound(v: &str) -> Result<Bound, String> {
    let v = v.trim();
    if v.eq_ignore_ascii_case("none") || v.eq_ignore_ascii_case("unbounded") {
        return Ok(Bound::Unbounded);
    }
    match v.parse::<usize>() {
        Ok(n) if n <= MAX_BOUND => Ok(Bound::Preemption(n)),
        Ok(n) => Err(format!(
            "bound {n} is too large (0..={MAX_BOUND}, or 'none')"
        )),
        Err(_) => Err(format!(
            "'{v}' is not a bound (a number 0..={MAX_BOUND}, or 'none')"
        )),
    }
}

/// Parse an area name (`compound`, `lru`, `vma`).
pub fn parse_area(s: &str) -> Result<Area, String> {
    Area::from_name(s).ok_or_else(|| {
        let known: Vec<_> = Area::ALL.iter().map(|a| a.name()).collect();
        format!("no area '{s}' (known: {})", known.join(", "))
    })
}

fn var(name: &str) -> Result<Option<String>, String> {
    match std::env::var(name) {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(e) => Err(format!("{name}: {e}")),
        Ok(v) => Ok(Some(v)),
    }
}

/// `MMCHECK_BOUND`: a bound for every loom claim instead of each claim's own.
pub fn bound() -> Result<Option<Bound>, String> {
    var("MMCHECK_BOUND")?
        .map(|v| parse_bound(&v).map_err(|e| format!("MMCHECK_BOUND: {e}")))
        .transpose()
}

/// `MMCHECK_SOAK_SEED`: the shuttle seed (default 0).
pub fn soak_seed() -> Result<u64, String> {
    match var("MMCHECK_SOAK_SEED")? {
        None => Ok(0),
        Some(v) => v
            .trim()
            .parse::<u64>()
            .map_err(|_| format!("MMCHECK_SOAK_SEED: '{v}' is not a seed (0..=2^64-1)")),
    }
}

/// `MMCHECK_SOAK_ITERATIONS`: shuttle iterations per scheduler instead of each claim's own.
pub fn soak_iterations() -> Result<Option<usize>, String> {
    match var("MMCHECK_SOAK_ITERATIONS")? {
        None => Ok(None),
        Some(v) => match v.trim().parse::<usize>() {
            Ok(n) if n > 0 => Ok(Some(n)),
            _ => Err(format!(
                "MMCHECK_SOAK_ITERATIONS: '{v}' is not a positive iteration count"
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_validated() {
        assert_eq!(parse_bound("3"), Ok(Bound::Preemption(3)));
        assert_eq!(parse_bound("none"), Ok(Bound::Unbounded));
        assert_eq!(parse_bound(" unbounded "), Ok(Bound::Unbounded));
        for bad in ["-1", "x", "", "3.5", "21", "99999999999999999999999"] {
            assert!(parse_bound(bad).is_err(), "bound {bad:?} accepted");
        }
    }
}
