//! `cargo xtask new-variant --area A --from PARENT ID`: start a variant from its parent. A
//! kernel variant (release, commit, posting) is a copy of the parent's file under the name the
//! grammar gives `ID` (src/variant.rs) with a new `META`; a mutant is only a patch
//! (`src/<area>/mutants/<ID>.patch`, the new META against the parent), with an editable copy
//! in target/mmcheck/edit/. The developer then applies the kernel change (or the mutation),
//! runs `cargo xtask bless` and `cargo xtask verify --variant ID`.

use crate::run::root;
use mmcheck_cli::{parse_area, AreaName};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    /// The area (compound, lru, vma).
    #[arg(long, value_parser = parse_area)]
    area: AreaName,
    /// The parent variant's id.
    #[arg(long = "from", value_name = "PARENT")]
    parent: String,
    /// What the variant is (default: from the id's form).
    #[arg(long, value_parser = ["release", "commit", "posting", "mutant"])]
    kind: Option<String>,
    /// The new variant's id: linux-<version>, a commit sha, <author>-v<n>, or <parent>-<what>
    /// for a mutant.
    id: String,
}

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

fn meta_block(id: &str, area: AreaName, kind: &Kind, parent: &str) -> String {
    let area_ident = match area {
        AreaName::Compound => "Compound",
        AreaName::Lru => "Lru",
        AreaName::Vma => "Vma",
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

/// The `id: "<id>",` line of a META block.
fn id_line(id: &str) -> String {
    format!("        id: \"{id}\",")
}

/// The file of a kernel variant (not a mutant), found by its META's id line.
pub fn variant_file(id: &str) -> Option<PathBuf> {
    crate::areas().find_map(|area| {
        std::fs::read_dir(root().join("src").join(area))
            .ok()?
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs") && !p.ends_with("mod.rs"))
            .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.lines().any(|l| l == id_line(id))))
    })
}

/// Replace the META block of a variant's text.
fn with_meta(text: &str, meta: &str, file: &Path) -> Result<String, String> {
    let start = text
        .find("    const META: VariantMeta = VariantMeta {")
        .ok_or_else(|| format!("{}: no META block", file.display()))?;
    let end = text[start..]
        .find("\n    };\n")
        .map(|e| start + e + "\n    };\n".len())
        .ok_or_else(|| format!("{}: META block not closed", file.display()))?;
    Ok(format!("{}{meta}{}", &text[..start], &text[end..]))
}

/// Create the variant; the path of what to edit next.
fn create(a: &Args) -> Result<String, String> {
    let (area, parent, id) = (a.area, a.parent.as_str(), a.id.as_str());
    let kind = infer_kind(id, parent, a.kind.as_deref())?;
    if variant_file(id).is_some() || crate::mutants::all().iter().any(|m| m.id == id) {
        return Err(format!("a variant '{id}' already exists"));
    }
    let parent_file = variant_file(parent)
        .filter(|p| p.starts_with(root().join("src").join(area.name())))
        .ok_or_else(|| format!("--from: no kernel variant '{parent}' in area {area}"))?;
    let text = std::fs::read_to_string(&parent_file).map_err(|e| e.to_string())?;
    let new = with_meta(&text, &meta_block(id, area, &kind, parent), &parent_file)?;
    if kind == Kind::Mutant {
        // The patch: the new META against the parent; the mutation is made in the editable
        // copy and taken in by `cargo xtask bless`.
        let dir = root().join("src").join(area.name()).join("mutants");
        let patch_path = dir.join(format!("{id}.patch"));
        let parent_rel = parent_file
            .strip_prefix(root())
            .map_err(|e| e.to_string())?
            .display()
            .to_string();
        let patch = diffy::DiffOptions::new()
            .set_context_len(3)
            .set_original_filename(parent_rel)
            .set_modified_filename(format!("src/{area}/{}.rs", file_stem(id, &kind)))
            .create_patch(&text, &new)
            .to_string();
        let edit = root().join("target/mmcheck/edit").join(format!("{id}.rs"));
        std::fs::create_dir_all(&dir)
            .and_then(|_| std::fs::write(&patch_path, patch))
            .and_then(|_| std::fs::create_dir_all(edit.parent().expect("a folder")))
            .and_then(|_| std::fs::write(&edit, &new))
            .map_err(|e| format!("{}: {e}", patch_path.display()))?;
        eprintln!(
            "created {} (the new META against {parent})",
            patch_path.display()
        );
        return Ok(edit.display().to_string());
    }
    let target = root()
        .join("src")
        .join(area.name())
        .join(format!("{}.rs", file_stem(id, &kind)));
    if target.exists() {
        return Err(format!("{} already exists", target.display()));
    }
    std::fs::write(&target, new).map_err(|e| format!("{}: {e}", target.display()))?;
    eprintln!(
        "created {} (a copy of {parent} with a new META)",
        target.display()
    );
    Ok(target.display().to_string())
}

/// `cargo xtask new-variant`.
pub fn run(a: &Args) -> u8 {
    match create(a) {
        Ok(file) => {
            eprintln!(
                "next: make the change in {file} (the kernel's text, or the mutation with its \
                 MUTANT({}) marker), fill in META (subject, source), `cargo xtask bless`, \
                 `cargo xtask verify --variant {}`, then its claim rows (claims/table/<area>.rs), \
                 its C (kernel/, for a kernel variant) and its proof (proofs/) - CONTRIBUTING.md",
                a.id, a.id
            );
            0
        }
        Err(e) => {
            eprintln!("xtask new-variant: {e}");
            2
        }
    }
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
