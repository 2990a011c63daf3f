//! `cargo xtask new-variant --area A --from PARENT ID`: start a variant from its parent. It
//! copies the parent's file under the name the grammar gives `ID` (src/variant.rs), rewrites
//! its `META` (id, kind, parent, source), and writes the golden diff; the reviewer then pastes
//! the kernel change into the copy, runs `cargo xtask bless` and `cargo xtask verify --variant
//! ID`.

use mmcheck::variant::Area;
use std::path::Path;

/// What the new variant is, from its id (or `--kind`).
#[derive(Debug, PartialEq)]
enum Kind {
    Release(String),
    Commit,
    Posting,
    Mutant,
}

fn infer_kind(id: &str, parent: &str, forced: Option<&str>) -> Result<Kind, String> {
    let is_sha = (8..=40).contains(&id.len()) && id.chars().all(|c| c.is_ascii_hexdigit());
    let release = id.strip_prefix("linux-").filter(|v| {
        !v.is_empty()
            && v.split('.')
                .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    });
    let posting = id.rsplit_once("-v").is_some_and(|(a, n)| {
        !a.is_empty() && !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
    });
    let word = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
    };
    let kind = match forced {
        Some("release") => Kind::Release(
            release
                .ok_or_else(|| format!("'{id}': a release id is linux-<version>"))?
                .to_string(),
        ),
        Some("commit") if is_sha => Kind::Commit,
        Some("commit") => return Err(format!("'{id}': a commit id is its sha (8 to 40 hex digits)")),
        Some("posting") if posting && word(id) => Kind::Posting,
        Some("posting") => return Err(format!("'{id}': a posting id is <author>-v<n>")),
        Some("mutant") if word(id) && id.starts_with(&format!("{parent}-")) => Kind::Mutant,
        Some("mutant") => return Err(format!("'{id}': a mutant id is <parent>-<what>")),
        Some(other) => {
            return Err(format!(
                "--kind: '{other}' is not release, commit, posting or mutant"
            ))
        }
        None if release.is_some() => Kind::Release(release.unwrap_or_default().to_string()),
        None if is_sha => Kind::Commit,
        None if word(id) && id.starts_with(&format!("{parent}-")) => Kind::Mutant,
        None if posting && word(id) => Kind::Posting,
        None => {
            return Err(format!(
                "'{id}' is not a variant id: linux-<version>, <sha>, <author>-v<n>, or <parent>-<what> for a mutant (src/variant.rs)"
            ))
        }
    };
    Ok(kind)
}

fn file_stem(id: &str, kind: &Kind) -> String {
    match kind {
        Kind::Release(v) => format!("linux_{}", v.replace('.', "_")),
        Kind::Commit => format!("commit_{id}"),
        Kind::Posting => format!("posting_{}", id.replace(['-', '.'], "_")),
        Kind::Mutant => format!("mutant_{}", id.replace(['-', '.'], "_")),
    }
}

fn meta_block(id: &str, area: Area, kind: &Kind, parent: &str) -> String {
    let area_ident = match area {
        Area::Compound => "Compound",
        Area::Lru => "Lru",
        Area::Vma => "Vma",
    };
    let kind = match kind {
        Kind::Release(v) => format!("Kind::Release {{ version: \"{v}\" }}"),
        Kind::Commit => "Kind::Commit {\n            subject: \"(the commit's subject line)\",\n        }".to_string(),
        Kind::Posting => "Kind::Posting {\n            subject: \"(the posting's subject)\",\n            date: \"(YYYY-MM-DD)\",\n        }".to_string(),
        Kind::Mutant => "Kind::Mutant {\n            removes: \"(the safeguard this mutant removes)\",\n        }".to_string(),
    };
    format!(
        "    const META: VariantMeta = VariantMeta {{\n        id: \"{id}\",\n        area: Area::{area_ident},\n        kind: {kind},\n        parent: Some(\"{parent}\"),\n        source: \"(where the code was read: tree and version, commit, or posting; what could not be verified)\",\n    }};\n"
    )
}

/// Create the variant; returns the new file's path.
pub fn run(root: &Path, args: &[String]) -> Result<String, String> {
    let mut area = None;
    let mut parent = None;
    let mut kind = None;
    let mut id = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--area" => area = it.next().cloned(),
            "--from" => parent = it.next().cloned(),
            "--kind" => kind = it.next().cloned(),
            s if s.starts_with("--") => return Err(format!("unknown option '{s}'")),
            s if id.is_none() => id = Some(s.to_string()),
            s => return Err(format!("unexpected argument '{s}'")),
        }
    }
    let usage = "usage: cargo xtask new-variant --area <area> --from <parent id> [--kind release|commit|posting|mutant] <id>";
    let area_name = area.ok_or(usage)?;
    let area = Area::from_name(&area_name).ok_or_else(|| {
        let known: Vec<_> = Area::ALL.iter().map(|a| a.name()).collect();
        format!(
            "--area: no area '{area_name}' (known: {})",
            known.join(", ")
        )
    })?;
    let parent = parent.ok_or(usage)?;
    let id = id.ok_or(usage)?;
    let kind = infer_kind(&id, &parent, kind.as_deref())?;
    let dir = root.join("src").join(area.name());
    let files: Vec<_> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs") && !p.ends_with("mod.rs"))
        .collect();
    let id_line = |v: &str| format!("        id: \"{v}\",");
    let find = |v: &str| {
        files
            .iter()
            .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.lines().any(|l| l == id_line(v))))
            .cloned()
    };
    if find(&id).is_some() {
        return Err(format!(
            "a variant '{id}' already exists in {}",
            dir.display()
        ));
    }
    let parent_file =
        find(&parent).ok_or_else(|| format!("--from: no variant '{parent}' in area {area}"))?;
    let target = dir.join(format!("{}.rs", file_stem(&id, &kind)));
    if target.exists() {
        return Err(format!("{} already exists", target.display()));
    }
    let text = std::fs::read_to_string(&parent_file).map_err(|e| e.to_string())?;
    let start = text
        .find("    const META: VariantMeta = VariantMeta {")
        .ok_or_else(|| format!("{}: no META block", parent_file.display()))?;
    let end = text[start..]
        .find("\n    };\n")
        .map(|e| start + e + "\n    };\n".len())
        .ok_or_else(|| format!("{}: META block not closed", parent_file.display()))?;
    let new = format!(
        "{}{}{}",
        &text[..start],
        meta_block(&id, area, &kind, &parent),
        &text[end..]
    );
    std::fs::write(&target, new).map_err(|e| format!("{}: {e}", target.display()))?;
    Ok(target.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_ids() {
        assert_eq!(
            infer_kind("linux-3.12", "7cb2ef56", None),
            Ok(Kind::Release("3.12".to_string()))
        );
        assert_eq!(infer_kind("668f9abb", "linux-3.13", None), Ok(Kind::Commit));
        assert_eq!(
            infer_kind("27c73ae7-no-recheck", "27c73ae7", None),
            Ok(Kind::Mutant)
        );
        assert_eq!(
            infer_kind("lee-v2", "linux-2.6.31", None),
            Ok(Kind::Posting)
        );
        assert!(infer_kind("Bad_Id", "x", None).is_err());
        assert!(infer_kind("abc", "x", Some("commit")).is_err());
        assert_eq!(
            file_stem("27c73ae7-no-recheck", &Kind::Mutant),
            "mutant_27c73ae7_no_recheck"
        );
    }
}
