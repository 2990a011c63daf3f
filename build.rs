//! Finds the variants. Every `.rs` file of an area folder (`src/compound`, `src/lru`,
//! `src/vma`) other than `mod.rs` is a kernel variant (a release, a commit, a posting), so adding
//! a variant is adding its file. Every `src/<area>/mutants/<id>.patch` is a mutant: its unified
//! diff against its parent's file (the `--- ` line names it), applied here with `diffy` into
//! `$OUT_DIR/<area>/mutant_<id>.rs`. For each area this writes `$OUT_DIR/<area>_variants.rs`,
//! which the area's `mod.rs` includes: the `mod` items, the list of the variants' metadata, and
//! a `for_each_<area>_variant!` macro that the models' registry uses to run every model on every
//! variant.
//!
//! A file name outside the grammar of `src/variant.rs`, or a patch that does not apply to its
//! parent, stops the build with a message (`cargo xtask bless` rebases patches whose parent
//! changed).

use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Each area folder and the trait its variants implement.
const AREAS: [(&str, &str); 3] = [
    ("compound", "crate::mm::swap::Compound"),
    ("lru", "crate::mm::lru::Lru"),
    ("vma", "crate::mm::vma::VmaAdjust"),
];

fn grammatical(stem: &str) -> bool {
    let word = |s: &str| {
        !s.is_empty()
            && s.split('_').all(|w| {
                !w.is_empty()
                    && w.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            })
    };
    if let Some(v) = stem.strip_prefix("linux_") {
        v.split('_')
            .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    } else if let Some(sha) = stem.strip_prefix("commit_") {
        (8..=40).contains(&sha.len()) && sha.chars().all(|c| c.is_ascii_hexdigit())
    } else if let Some(p) = stem.strip_prefix("posting_") {
        word(p) && p.rsplit('_').next().is_some_and(|v| v.starts_with('v'))
    } else if let Some(m) = stem.strip_prefix("mutant_") {
        word(m)
    } else {
        false
    }
}

/// The module name of a mutant id (`27c73ae7-relaxed-get` -> `mutant_27c73ae7_relaxed_get`).
fn mutant_stem(id: &str) -> String {
    format!("mutant_{}", id.replace(['-', '.'], "_"))
}

/// Apply `src/<area>/mutants/<id>.patch` to the parent file its `--- ` line names; the text.
fn apply_mutant(root: &Path, area: &str, patch_path: &Path) -> String {
    let shown = patch_path
        .strip_prefix(root)
        .unwrap_or(patch_path)
        .display()
        .to_string();
    let text =
        std::fs::read_to_string(patch_path).unwrap_or_else(|e| panic!("cannot read {shown}: {e}"));
    let parent = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("--- "))
        .map(str::trim)
        .unwrap_or_else(|| {
            panic!("{shown}: a mutant patch starts with `--- src/{area}/<parent file>.rs`")
        });
    if !parent.starts_with(&format!("src/{area}/")) || parent.contains("/mutants/") {
        panic!("{shown}: its parent must be a kernel variant of src/{area}/, not {parent}");
    }
    let parent_path = root.join(parent);
    println!("cargo:rerun-if-changed={}", parent_path.display());
    let base = std::fs::read_to_string(&parent_path)
        .unwrap_or_else(|e| panic!("{shown}: cannot read its parent {parent}: {e}"));
    let patch = diffy::Patch::from_str(&text)
        .unwrap_or_else(|e| panic!("{shown}: not a unified diff: {e}"));
    diffy::apply(&base, &patch).unwrap_or_else(|e| {
        panic!(
            "{shown} does not apply to {parent} ({e}): the parent changed under it; \
             `cargo xtask bless` rebases mutant patches onto their parents"
        )
    })
}

fn main() {
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    for (area, tr) in AREAS {
        let dir = root.join("src").join(area);
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut modules: Vec<(String, PathBuf)> = Vec::new();
        for e in std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
            .filter_map(|e| e.ok())
        {
            let p = e.path();
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let Some(s) = p.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
                continue;
            };
            if s == "mod" {
                continue;
            }
            if !grammatical(&s) || s.starts_with("mutant_") {
                panic!(
                    "src/{area}/{s}.rs: a variant file is named linux_<version>, commit_<sha> or \
                     posting_<author>_v<n> (src/variant.rs); a mutant is a patch, \
                     src/{area}/mutants/<id>.patch"
                );
            }
            modules.push((s, p));
        }
        let mutants = dir.join("mutants");
        println!("cargo:rerun-if-changed={}", mutants.display());
        if mutants.is_dir() {
            let gen = out.join(area);
            std::fs::create_dir_all(&gen).expect("create the mutants' folder in OUT_DIR");
            for e in std::fs::read_dir(&mutants)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", mutants.display()))
                .filter_map(|e| e.ok())
            {
                let p = e.path();
                let Some(id) = p.file_stem().map(|s| s.to_string_lossy().into_owned()) else {
                    continue;
                };
                if p.extension().is_none_or(|x| x != "patch") {
                    panic!(
                        "src/{area}/mutants/{}: only <id>.patch files belong here",
                        p.file_name().unwrap_or_default().to_string_lossy()
                    );
                }
                println!("cargo:rerun-if-changed={}", p.display());
                let stem = mutant_stem(&id);
                if !grammatical(&stem) {
                    panic!("src/{area}/mutants/{id}.patch: a mutant id is <parent>-<what> in lower case (src/variant.rs)");
                }
                let file = gen.join(format!("{stem}.rs"));
                let text = apply_mutant(&root, area, &p);
                // Rewrite only on change, so an unchanged mutant does not rebuild the crate.
                if std::fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
                    std::fs::write(&file, text).expect("write an applied mutant");
                }
                modules.push((stem, file));
            }
        }
        modules.sort();
        let mut g = String::new();
        writeln!(
            g,
            "// Generated by build.rs from the files of src/{area}/ and its mutants/."
        )
        .unwrap();
        for (s, path) in &modules {
            writeln!(
                g,
                "#[path = {:?}]\npub mod {s};",
                path.display().to_string()
            )
            .unwrap();
        }
        writeln!(
            g,
            "/// Every variant of this area, in file-name order (mutants as `mutant_<id>`).\npub const VARIANTS: &[crate::variant::VariantMeta] = &["
        )
        .unwrap();
        for (s, _) in &modules {
            writeln!(g, "    <{s}::Variant as {tr}>::META,").unwrap();
        }
        writeln!(g, "];").unwrap();
        let stems: Vec<&str> = modules.iter().map(|(s, _)| s.as_str()).collect();
        writeln!(
            g,
            "/// `for_each_{area}_variant!(m)` expands to `m!({area}: <module>, ...)` over every \
             variant of the area (an expression).\n#[macro_export]\nmacro_rules! for_each_{area}_variant {{\n    ($m:ident) => {{\n        $m!({area}: {})\n    }};\n}}",
            stems.join(", ")
        )
        .unwrap();
        std::fs::write(out.join(format!("{area}_variants.rs")), g)
            .expect("write generated variants");
    }
}
