//! Settings read from the environment by the generated tests. A malformed value is an error
//! that names the setting, never a silent default.

use crate::table::Bound;
use mmcheck::variant::Area;

pub use mmcheck_cli::{parse_bound, MAX_BOUND};

/// The kernel crate's area of a command-line area name (the same names, checked by a test).
pub fn area(a: mmcheck_cli::AreaName) -> Area {
    Area::from_name(a.name())
        .unwrap_or_else(|| panic!("mmcheck-cli names an area '{a}' the kernel crate lacks"))
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

/// `MMCHECK_REPORT_DIR`: where the generated claim tests write each claim's report as
/// `<id>.json` (the `verify --json` shape: `cargo xtask proof-traces` reads them); a shuttle
/// claim the store-buffer build runs again writes none (claims/testing.rs).
pub fn report_dir() -> Result<Option<std::path::PathBuf>, String> {
    Ok(var("MMCHECK_REPORT_DIR")?.map(std::path::PathBuf::from))
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
    fn the_command_line_names_every_area() {
        let cli: Vec<_> = mmcheck_cli::AreaName::ALL
            .iter()
            .map(|a| a.name())
            .collect();
        let kernel: Vec<_> = Area::ALL.iter().map(|a| a.name()).collect();
        assert_eq!(cli, kernel);
    }

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
