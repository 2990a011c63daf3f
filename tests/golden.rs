//! Every variant with a parent has a golden diff beside it (`src/<area>/<file>.diff`): the
//! unified diff of the parent's file and its own. This test fails when the files no longer
//! produce that diff: a shared part that drifted, or a variant that changes more than its
//! kernel commit did, shows up as a changed golden diff in review. After a deliberate change,
//! `cargo xtask bless` (or `MMCHECK_BLESS=1 cargo test --test golden`) rewrites them.
//!
//! It also checks what each variant says about itself: its file name follows the grammar of
//! `src/variant.rs`, its parent exists in the same area, and a mutant marks its mutation site
//! with `MUTANT(<id>)`.

use mmcheck::variant::Area;
use mmcheck::variant::Kind;
use mmcheck_models::registry;
use similar::TextDiff;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `diff -u parent child` as the golden files hold it.
pub fn golden(parent: &str, child: &str) -> String {
    TextDiff::from_lines(&read(parent), &read(child))
        .unified_diff()
        .context_radius(3)
        .header(parent, child)
        .to_string()
}

#[test]
fn golden_diffs_match_the_files() {
    let bless = std::env::var_os("MMCHECK_BLESS").is_some();
    let mut stale = Vec::new();
    for area in Area::ALL {
        for v in registry::variants(area) {
            let Some(parent) = v.meta.parent else {
                continue;
            };
            let p = registry::variant(parent)
                .unwrap_or_else(|| panic!("{}: no parent variant {parent}", v.meta.id));
            let diff = golden(&p.meta.path(), &v.meta.path());
            let file = v.meta.golden_diff_path();
            let path = root().join(&file);
            if bless {
                std::fs::write(&path, &diff).unwrap();
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(want) if want == diff => {}
                Ok(_) => stale.push(format!(
                    "{file}: differs from diff -u {} {}:\n{diff}",
                    p.meta.path(),
                    v.meta.path()
                )),
                Err(_) => stale.push(format!(
                    "{file}: missing; diff -u {} {} is:\n{diff}",
                    p.meta.path(),
                    v.meta.path()
                )),
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
            if let Some(parent) = m.parent {
                let p = registry::variant(parent)
                    .unwrap_or_else(|| panic!("{}: no parent {parent}", m.id));
                assert_eq!(p.meta.area, area, "{}: parent of another area", m.id);
            }
            if let Kind::Mutant { removes } = m.kind {
                assert!(m.parent.is_some(), "{}: a mutant has a parent", m.id);
                assert!(
                    !removes.is_empty(),
                    "{}: a mutant names what it removes",
                    m.id
                );
                assert!(
                    read(&m.path()).contains(&format!("MUTANT({})", m.id)),
                    "{}: a mutant marks its mutation site with MUTANT({})",
                    m.id,
                    m.id
                );
            }
        }
        let golden_files: Vec<_> = std::fs::read_dir(root().join("src").join(area.name()))
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "diff"))
            .collect();
        for g in golden_files {
            let stem = g.file_stem().unwrap().to_string_lossy().to_string();
            assert!(
                registry::variants(area)
                    .iter()
                    .any(|v| v.meta.file_stem() == stem && v.meta.parent.is_some()),
                "{}: a golden diff of no variant with a parent",
                g.display()
            );
        }
    }
}
