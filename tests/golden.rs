//! Every kernel variant with a parent has a golden diff beside it (`src/<area>/<file>.diff`):
//! the unified diff of the parent's file and its own. This test fails when the files no longer
//! produce that diff: a shared part that drifted, or a variant that changes more than its
//! kernel commit did, shows up as a changed golden diff in review. After a deliberate change,
//! `cargo xtask bless` rewrites them.
//!
//! A mutant is only its patch (`src/<area>/mutants/<id>.patch`), applied by `build.rs`: every
//! patch must apply cleanly to the parent its META names, and mark its mutation site.
//!
//! It also checks what each variant says about itself: its file name follows the grammar of
//! `src/variant.rs` and its parent exists in the same area.

use mmcheck::variant::{Area, Kind, VariantMeta};
use mmcheck_models::registry;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `diff -u parent child` as the golden files and the mutant patches hold it (`cargo xtask
/// bless` writes the same form).
pub fn golden(parent: &str, parent_text: &str, child: &str, child_text: &str) -> String {
    diffy::DiffOptions::new()
        .set_context_len(3)
        .set_original_filename(parent.to_string())
        .set_modified_filename(child.to_string())
        .create_patch(parent_text, child_text)
        .to_string()
}

fn parent_of(m: &VariantMeta) -> Option<VariantMeta> {
    m.parent.map(|p| {
        registry::variant(p)
            .unwrap_or_else(|| panic!("{}: no parent variant {p}", m.id))
            .meta
    })
}

/// A mutant's applied text, as build.rs makes it.
fn applied(m: &VariantMeta) -> String {
    let parent = parent_of(m).expect("a mutant has a parent");
    let text = read(&m.path());
    let patch = diffy::Patch::from_str(&text)
        .unwrap_or_else(|e| panic!("{}: not a unified diff: {e}", m.path()));
    diffy::apply(&read(&parent.path()), &patch)
        .unwrap_or_else(|e| panic!("{} does not apply to {}: {e}", m.path(), parent.path()))
}

#[test]
fn golden_diffs_match_the_files() {
    let bless = std::env::var_os("MMCHECK_BLESS").is_some();
    let mut stale = Vec::new();
    for area in Area::ALL {
        for v in registry::variants(area) {
            let (Some(file), Some(p)) = (v.meta.golden_diff_path(), parent_of(&v.meta)) else {
                continue;
            };
            let (pp, vp) = (p.path(), v.meta.path());
            let diff = golden(&pp, &read(&pp), &vp, &read(&vp));
            let path = root().join(&file);
            if bless {
                std::fs::write(&path, &diff).unwrap();
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(want) if want == diff => {}
                Ok(_) => stale.push(format!("{file}: differs from diff -u {pp} {vp}:\n{diff}")),
                Err(_) => stale.push(format!("{file}: missing; diff -u {pp} {vp} is:\n{diff}")),
            }
        }
    }
    assert!(
        stale.is_empty(),
        "{}\n(a deliberate change: `cargo xtask bless` rewrites the golden diffs; review them)",
        stale.join("\n")
    );
}

#[test]
fn every_mutant_patch_applies_cleanly_to_its_parent() {
    let mut mutants = 0;
    for area in Area::ALL {
        for v in registry::variants(area) {
            let m = &v.meta;
            let Kind::Mutant { removes } = m.kind else {
                continue;
            };
            mutants += 1;
            assert!(
                !removes.is_empty(),
                "{}: a mutant names what it removes",
                m.id
            );
            let parent = parent_of(m).unwrap_or_else(|| panic!("{}: a mutant has a parent", m.id));
            assert!(
                !matches!(parent.kind, Kind::Mutant { .. }),
                "{}: a mutant's parent is a kernel variant",
                m.id
            );
            let text = read(&m.path());
            assert_eq!(
                text.lines().next(),
                Some(format!("--- {}", parent.path()).as_str()),
                "{}: the patch's first line names its parent's file",
                m.path()
            );
            let code = applied(m);
            assert!(
                code.contains(&format!("MUTANT({})", m.id)),
                "{}: a mutant marks its mutation site with MUTANT({})",
                m.path(),
                m.id
            );
            assert!(
                code.contains(&format!("id: \"{}\",", m.id)),
                "{}: the applied file's META has its id",
                m.path()
            );
        }
    }
    assert!(mutants > 0, "no mutant patch found");
}

#[test]
fn variants_follow_the_grammar_and_name_their_parent() {
    for area in Area::ALL {
        for v in registry::variants(area) {
            let m = &v.meta;
            assert_eq!(m.area, area, "{}: declared in another area", m.id);
            assert!(
                root().join(m.path()).is_file(),
                "{}: its file should be {} (grammar of src/variant.rs)",
                m.id,
                m.path()
            );
            if let Some(p) = parent_of(m) {
                assert_eq!(p.area, area, "{}: parent of another area", m.id);
            }
        }
        let golden_files: Vec<_> = std::fs::read_dir(root().join("src").join(area.name()))
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "diff"))
            .collect();
        for g in golden_files {
            let rel = g.strip_prefix(root()).unwrap().display().to_string();
            assert!(
                registry::variants(area)
                    .iter()
                    .any(|v| v.meta.golden_diff_path().as_deref() == Some(rel.as_str())),
                "{rel}: a golden diff of no kernel variant with a parent"
            );
        }
    }
}
