//! The areas mmcheck checks and what a variant says about itself.
//!
//! **Area** names are used everywhere for the same thing: the variant folder (`src/compound/`),
//! the scenarios (`models/compound.rs`), the tests (`tests/compound.rs`), the benchmark
//! (`benches/compound.rs`), `--area compound`, and the claim ids (`compound.3-fix`). The
//! design documents call them S1, S2 and S3.
//!
//! **Variants**: every file in an area folder except `mod.rs` is one variant, found by the build
//! script (no list to edit). Its file name follows one grammar, checked at build time:
//!
//! | kind | file | id |
//! |---|---|---|
//! | a release | `linux_3_11.rs` | `linux-3.11` |
//! | a commit | `commit_27c73ae7.rs` | `27c73ae7` |
//! | a posting | `posting_lee_v1.rs` | `lee-v1` |
//! | a mutant | `mutants/7cb2ef56-dec-read.patch` | `7cb2ef56-dec-read` |
//!
//! Each file defines `pub struct Variant;`, implements the area's trait for it, and declares
//! `pub const META: VariantMeta`. A kernel variant with a parent has a golden diff beside it
//! (`commit_27c73ae7.diff` = `diff -u <parent file> commit_27c73ae7.rs`), which
//! `tests/golden.rs` keeps equal to the files. A **mutant is only its patch**: the unified diff
//! against its parent's file, with its own `META` and a `MUTANT(<id>)` comment at the mutation
//! site; `build.rs` applies it (module `mutant_<id>`), `cargo xtask show <id>` prints the
//! applied file.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The areas, in reporting order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Area {
    /// S1: compound-page refcounting, THP split, the hugetlbfs bypass (7cb2ef56, 27c73ae7).
    Compound,
    /// S2: `activate_page()` batched through per-CPU pagevecs (744ed144, eb709b0d).
    Lru,
    /// S3: `vma_adjust()` and the anon_vma lock skip (252c5f94).
    Vma,
}

impl Area {
    pub const ALL: [Area; 3] = [Area::Compound, Area::Lru, Area::Vma];

    /// The one name of the area.
    pub const fn name(self) -> &'static str {
        match self {
            Area::Compound => "compound",
            Area::Lru => "lru",
            Area::Vma => "vma",
        }
    }

    /// The design documents' name (S1, S2, S3).
    pub const fn design_name(self) -> &'static str {
        match self {
            Area::Compound => "S1",
            Area::Lru => "S2",
            Area::Vma => "S3",
        }
    }

    pub fn from_name(name: &str) -> Option<Area> {
        Area::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name.trim()))
    }
}

impl fmt::Display for Area {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What kind of code a variant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The code of a kernel release (`version` as in `linux-3.11`).
    Release { version: &'static str },
    /// The code after one kernel commit (`subject` is the commit's subject line).
    Commit { subject: &'static str },
    /// A patch as posted to a mailing list, never merged as such.
    Posting {
        subject: &'static str,
        date: &'static str,
    },
    /// The parent minus one safeguard: kills are what show the safeguard is needed.
    Mutant { removes: &'static str },
}

impl Kind {
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Release { .. } => "release",
            Kind::Commit { .. } => "commit",
            Kind::Posting { .. } => "posting",
            Kind::Mutant { .. } => "mutant",
        }
    }
}

/// What a variant says about itself: the registry, the matrix and the golden diffs read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantMeta {
    /// Stable id (see the module doc for the grammar).
    pub id: &'static str,
    pub area: Area,
    pub kind: Kind,
    /// The variant this one is a diff against (None for the first release of an area).
    pub parent: Option<&'static str>,
    /// Where its code was read: a tree and version, a commit, a posting; and what could not
    /// be checked against it.
    pub source: &'static str,
}

impl VariantMeta {
    /// The file name (without `.rs`) this id must have, from the grammar.
    pub fn file_stem(&self) -> String {
        match self.kind {
            Kind::Release { version } => format!("linux_{}", version.replace('.', "_")),
            Kind::Commit { .. } => format!("commit_{}", self.id),
            Kind::Posting { .. } => format!("posting_{}", self.id.replace(['-', '.'], "_")),
            Kind::Mutant { .. } => format!("mutant_{}", self.id.replace(['-', '.'], "_")),
        }
    }

    /// The file a reviewer reads, relative to the repository root: a kernel variant's source
    /// file, or a mutant's patch.
    pub fn path(&self) -> String {
        match self.kind {
            Kind::Mutant { .. } => format!("src/{}/mutants/{}.patch", self.area, self.id),
            _ => format!("src/{}/{}.rs", self.area, self.file_stem()),
        }
    }

    /// A kernel variant's golden diff against its parent (a mutant is its patch: none).
    pub fn golden_diff_path(&self) -> Option<String> {
        match (self.kind, self.parent) {
            (Kind::Mutant { .. }, _) | (_, None) => None,
            _ => Some(format!("src/{}/{}.diff", self.area, self.file_stem())),
        }
    }
}
