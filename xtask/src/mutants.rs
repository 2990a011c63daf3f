//! Mutants are patches (`src/<area>/mutants/<id>.patch`, applied by build.rs). This module
//! shows them applied (`show`), takes in edited copies and rebases them onto parents that
//! changed (`bless`). It reads only files and git: it works even when the crate does not build.

use crate::areas;
use crate::run::{cargo, root, status_code};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct BlessArgs {
    /// The revision whose parent files the patches were written against (for the 3-way
    /// merge of a patch that no longer applies).
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    base: String,
}

#[derive(clap::Args)]
pub struct ShowArgs {
    /// A variant id (`27c73ae7`, `27c73ae7-relaxed-get`).
    id: String,
    /// Also write the file to target/mmcheck/edit/<id>.rs to edit it; `cargo xtask bless`
    /// turns the edited copy back into the mutant's patch.
    #[arg(long)]
    edit: bool,
}

/// One mutant patch.
pub struct Mutant {
    pub id: String,
    pub area: &'static str,
    pub patch: PathBuf,
}

impl Mutant {
    fn rel(&self) -> String {
        format!("src/{}/mutants/{}.patch", self.area, self.id)
    }
    /// The module file the build generates (named on the patch's `+++` line).
    fn module(&self) -> String {
        format!(
            "src/{}/mutant_{}.rs",
            self.area,
            self.id.replace(['-', '.'], "_")
        )
    }
}

/// Every mutant patch, area by area, in name order.
pub fn all() -> Vec<Mutant> {
    let mut out = Vec::new();
    for area in areas() {
        let dir = root().join("src").join(area).join("mutants");
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut v: Vec<Mutant> = rd
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "patch"))
            .filter_map(|p| {
                let id = p.file_stem()?.to_string_lossy().into_owned();
                Some(Mutant { id, area, patch: p })
            })
            .collect();
        v.sort_by(|a, b| a.id.cmp(&b.id));
        out.extend(v);
    }
    out
}

fn read(p: &Path) -> Result<String, String> {
    std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
}

/// The parent file a patch names on its first line.
fn parent_of(text: &str, m: &Mutant) -> Result<String, String> {
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix("--- "))
        .map(|p| p.trim().to_string())
        .ok_or_else(|| format!("{}: the first line is not `--- <parent file>`", m.rel()))
}

/// The patch as the golden diffs are written (`tests/golden.rs`: three lines of context).
fn make_patch(parent: &str, parent_text: &str, m: &Mutant, text: &str) -> String {
    diffy::DiffOptions::new()
        .set_context_len(3)
        .set_original_filename(parent.to_string())
        .set_modified_filename(m.module())
        .create_patch(parent_text, text)
        .to_string()
}

/// The mutant's file: its patch applied to its parent as it is now.
pub fn applied(m: &Mutant) -> Result<String, String> {
    let text = read(&m.patch)?;
    let parent = parent_of(&text, m)?;
    let patch = diffy::Patch::from_str(&text)
        .map_err(|e| format!("{}: not a unified diff: {e}", m.rel()))?;
    diffy::apply(&read(&root().join(&parent))?, &patch)
        .map_err(|e| format!("{} does not apply to {parent}: {e}", m.rel()))
}

fn edit_dir() -> PathBuf {
    root().join("target/mmcheck/edit")
}

/// `cargo xtask show ID [--edit]`.
pub fn show(a: &ShowArgs) -> u8 {
    let text = if let Some(m) = all().into_iter().find(|m| m.id == a.id) {
        applied(&m)
    } else if let Some(p) = crate::new_variant::variant_file(&a.id) {
        read(&p)
    } else {
        Err(format!(
            "no variant '{}' (`cargo xtask list` names the claims' variants)",
            a.id
        ))
    };
    match text {
        Ok(t) => {
            if a.edit {
                let p = edit_dir().join(format!("{}.rs", a.id));
                if let Err(e) =
                    std::fs::create_dir_all(edit_dir()).and_then(|_| std::fs::write(&p, &t))
                {
                    eprintln!("xtask show: cannot write {}: {e}", p.display());
                    return 1;
                }
                eprintln!(
                    "wrote {}: edit it, then `cargo xtask bless` makes it the patch again",
                    p.display()
                );
            } else {
                print!("{t}");
            }
            0
        }
        Err(e) => {
            eprintln!("xtask show: {e}");
            2
        }
    }
}

/// What `bless` did to one patch.
enum Outcome {
    Same,
    Rewritten(&'static str),
    Conflict(PathBuf),
}

fn bless_one(m: &Mutant, base: &str) -> Result<Outcome, String> {
    let text = read(&m.patch)?;
    let parent = parent_of(&text, m)?;
    let parent_text = read(&root().join(&parent))?;
    let edited = edit_dir().join(format!("{}.rs", m.id));
    let (new_text, why) = if edited.is_file() {
        (read(&edited)?, "taken in from target/mmcheck/edit/")
    } else {
        match applied(m) {
            Ok(t) => (t, "context refreshed"),
            Err(_) => {
                // The parent changed under the patch: merge the patch's change into it, with
                // the parent as `base` has it as the common ancestor.
                let out = std::process::Command::new("git")
                    .current_dir(root())
                    .args(["show", &format!("{base}:{parent}")])
                    .output()
                    .map_err(|e| format!("git show: {e}"))?;
                if !out.status.success() {
                    return Err(format!(
                        "{}: does not apply to {parent}, and git has no {parent} at {base}",
                        m.rel()
                    ));
                }
                let ancestor = String::from_utf8_lossy(&out.stdout).into_owned();
                let patch = diffy::Patch::from_str(&text)
                    .map_err(|e| format!("{}: not a unified diff: {e}", m.rel()))?;
                let old = diffy::apply(&ancestor, &patch).map_err(|e| {
                    format!(
                        "{}: applies neither to {parent} nor to {base}:{parent} ({e})",
                        m.rel()
                    )
                })?;
                match diffy::merge(&ancestor, &parent_text, &old) {
                    Ok(t) => (t, "rebased by a 3-way merge"),
                    Err(conflict) => {
                        std::fs::create_dir_all(edit_dir()).map_err(|e| e.to_string())?;
                        std::fs::write(&edited, conflict).map_err(|e| e.to_string())?;
                        return Ok(Outcome::Conflict(edited));
                    }
                }
            }
        }
    };
    if new_text.contains("<<<<<<<") {
        return Ok(Outcome::Conflict(edited));
    }
    let patch = make_patch(&parent, &parent_text, m, &new_text);
    let changed = patch != text;
    if changed {
        std::fs::write(&m.patch, &patch).map_err(|e| format!("{}: {e}", m.rel()))?;
    }
    if edited.is_file() {
        std::fs::remove_file(&edited).map_err(|e| format!("{}: {e}", edited.display()))?;
    }
    Ok(if changed {
        Outcome::Rewritten(why)
    } else {
        Outcome::Same
    })
}

/// `cargo xtask bless`: the mutant patches first (they must apply for the crate to build),
/// then the golden diffs of the kernel variants.
pub fn bless(a: &BlessArgs) -> u8 {
    let mut failed = false;
    for m in all() {
        match bless_one(&m, &a.base) {
            Ok(Outcome::Same) => {}
            Ok(Outcome::Rewritten(why)) => eprintln!("{}: {why}", m.rel()),
            Ok(Outcome::Conflict(p)) => {
                failed = true;
                eprintln!(
                    "{}: the parent's change and the mutation overlap: resolve the conflict markers in {}, then `cargo xtask bless` again",
                    m.rel(),
                    p.display()
                );
            }
            Err(e) => {
                failed = true;
                eprintln!("xtask bless: {e}");
            }
        }
    }
    if failed {
        return 1;
    }
    let mut c = cargo();
    c.args([
        "test",
        "-p",
        "mmcheck",
        "--test",
        "golden",
        "--",
        "golden_diffs_match_the_files",
    ])
    .env("MMCHECK_BLESS", "1");
    let code = status_code(c.status(), "cargo test --test golden");
    if code == 0 {
        eprintln!(
            "golden diffs and mutant patches rewritten: review them with `git diff -- 'src/*.diff' 'src/*/mutants'`"
        );
    }
    code
}
