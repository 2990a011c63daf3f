//! The layers point one way (`src/lib.rs` has the table). This test reads the sources and
//! fails, naming the rule and the line, when a file imports from a layer above its own, when
//! kernel code spells a C11 `Ordering`, or when a file outside the shim names a backend.
//! Between crates the compiler already enforces it (`mmcheck` <- `mmcheck-models` <-
//! `mmcheck-claims`); the test also checks that no scenario names the claims crate.

use std::path::{Path, PathBuf};

/// Layers of the kernel crate, by the first segment of a `crate::` path (and the file or
/// folder under `src/` that holds it).
const LAYERS: &[(&str, usize)] = &[
    ("sync", 0),
    ("variant", 1),
    ("trace", 1),
    ("page", 2),
    ("checker", 2),
    ("mm", 3),
    ("compound", 4),
    ("lru", 4),
    ("vma", 4),
];

/// Folders of kernel code: no `Ordering` may appear there (they call the shim's kernel names).
const KERNEL_CODE: &[&str] = &["src/mm", "src/compound", "src/lru", "src/vma"];

fn layer_of_module(m: &str) -> Option<usize> {
    LAYERS.iter().find(|(n, _)| *n == m).map(|(_, l)| *l)
}

/// The layer of a source file of the kernel crate (None: the crate root, which may use all).
fn layer_of_file(rel: &str) -> Option<(usize, &str)> {
    let rest = rel.strip_prefix("src/")?;
    let first = rest.split('/').next()?.trim_end_matches(".rs");
    layer_of_module(first).map(|l| (l, first))
}

/// The source without `//` comments (doc comments included), so prose that names a module
/// is not read as an import.
fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every module a file refers to through `crate::...` (plain paths and `use crate::{a, b}`),
/// with its line number.
fn crate_refs(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in strip_comments(text).lines().enumerate() {
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            // `$crate::` in a macro is the crate root: any layer may name it.
            let before = &rest[..i];
            rest = &rest[i + "crate::".len()..];
            if before.ends_with('$') || before.ends_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                continue;
            }
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let name: String = item
                        .trim()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.push((n + 1, name));
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push((n + 1, name));
            }
        }
    }
    out
}

/// The rules, applied to one file of the workspace (`rel` is relative to the root).
fn violations(rel: &str, text: &str) -> Vec<String> {
    let mut v = Vec::new();
    if let Some((mine, module)) = layer_of_file(rel) {
        for (line, target) in crate_refs(text) {
            if let Some(theirs) = layer_of_module(&target) {
                if theirs > mine {
                    v.push(format!(
                        "{rel}:{line}: layer rule: `{module}` (layer {mine}) imports `crate::{target}` (layer {theirs}); a module may import only from its own layer or below (src/lib.rs)"
                    ));
                }
            }
        }
    }
    let code = strip_comments(text);
    if KERNEL_CODE.iter().any(|k| rel.starts_with(k)) {
        for (n, line) in code.lines().enumerate() {
            if line.contains("Ordering") {
                v.push(format!(
                    "{rel}:{}: primitive rule: kernel code spells a C11 Ordering; call the shim's kernel primitive (atomic_inc, READ_ONCE, smp_wmb, ...) instead",
                    n + 1
                ));
            }
        }
    }
    if !rel.starts_with("src/sync/") && rel.starts_with("src/") {
        for (n, line) in code.lines().enumerate() {
            if line.contains("cfg(loom)") || line.contains("feature = \"shuttle\"") {
                v.push(format!(
                    "{rel}:{}: backend rule: only the shim (src/sync) names a backend",
                    n + 1
                ));
            }
        }
    }
    if rel.starts_with("models/") && code.contains("mmcheck_claims") {
        v.push(format!(
            "{rel}: crate rule: a scenario names the claims crate, a layer above it"
        ));
    }
    v
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn layers_point_one_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["src", "models"] {
        rust_files(&root.join(d), &mut files);
    }
    assert!(files.len() > 20, "found the sources");
    let mut all = Vec::new();
    for f in files {
        let rel = f.strip_prefix(root).unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&f).unwrap();
        all.extend(violations(&rel, &text));
    }
    // A mutant is a patch: its code is the patch applied to its parent (as build.rs does).
    let mut mutants = 0;
    for area in ["compound", "lru", "vma"] {
        let Ok(rd) = std::fs::read_dir(root.join("src").join(area).join("mutants")) else {
            continue;
        };
        for e in rd {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().to_string();
            let patch_text = std::fs::read_to_string(&p).unwrap();
            let parent = patch_text
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("--- "))
                .unwrap();
            let patch = diffy::Patch::from_str(&patch_text).unwrap();
            let code = diffy::apply(&std::fs::read_to_string(root.join(parent)).unwrap(), &patch)
                .unwrap_or_else(|e| panic!("{rel}: {e}"));
            // Checked under its patch path, in the area folder: the same rules as a variant.
            all.extend(violations(&rel, &code));
            mutants += 1;
        }
    }
    assert!(mutants > 0, "found the mutant patches");
    assert!(all.is_empty(), "\n{}", all.join("\n"));
}

/// The rules can fail: an upward import, an `Ordering` in kernel code and a backend named
/// outside the shim are each reported.
#[test]
fn the_rules_catch_what_they_forbid() {
    let up = violations(
        "src/mm/swap.rs",
        "use crate::compound::commit_27c73ae7::Variant;\n",
    );
    assert!(
        up.len() == 1 && up[0].contains("layer rule") && up[0].contains("src/mm/swap.rs:1"),
        "{up:?}"
    );
    let grouped = violations("src/page.rs", "use crate::{sync::RaceCell, mm::Mem};\n");
    assert!(
        grouped.iter().any(|v| v.contains("crate::mm")),
        "{grouped:?}"
    );
    let shim_up = violations(
        "src/sync/mod.rs",
        "    crate::trace::record(\"x\", || s);\n",
    );
    assert_eq!(shim_up.len(), 1, "{shim_up:?}");
    let ordering = violations(
        "src/lru/commit_eb709b0d.rs",
        "p._count.fetch_add(1, Ordering::Relaxed);\n",
    );
    assert!(ordering[0].contains("primitive rule"), "{ordering:?}");
    let backend = violations("src/page.rs", "#[cfg(loom)]\nfn f() {}\n");
    assert!(backend[0].contains("backend rule"), "{backend:?}");
    let prose = violations(
        "src/mm/swap.rs",
        "//! see crate::compound for the variants\n",
    );
    assert!(prose.is_empty(), "comments are not imports: {prose:?}");
    let dollar = violations("src/trace.rs", "$crate::trace::fail(x)\n");
    assert!(dollar.is_empty(), "$crate is the root: {dollar:?}");
}
