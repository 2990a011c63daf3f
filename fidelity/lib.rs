//! `cargo xtask fidelity`: the kernel's C beside mmcheck's Rust, statement by statement.
//!
//! For every kernel variant (release, commit, posting; a mutant is its patch) and every kernel
//! function the variant runs, the C as that version has it (`kernel/<id>/`, found through the
//! variant's parents: a folder holds what its version changed) is aligned with the Rust that
//! mirrors it (the function whose doc comment names it: the variant's own file, the file its
//! `compound_fns!` names, or the shared code of `src/mm/`). The alignment pairs statements in
//! order by the similarity of their normalized words (`stmt.rs` has the normalization table).
//!
//! The rules a variant must meet:
//! * every C statement is matched, or the Rust has `// LEFT OUT: why` in the same gap (between
//!   the same two matched statements);
//! * every Rust statement of kernel code is matched, or is model bookkeeping the table names
//!   (`ktrace!`, `let p = m.pg(page)`), or has `// MODEL: why` in its gap.
//!
//! Figures per variant: the share of C statements matched, the markers, and what could not be
//! checked (a C function with no Rust, a Rust function with no C text stored).

pub mod source;
pub mod stmt;
pub mod tokens;

use source::{files, read_c, read_rust, read_variant, CFunction, RustFunction, VariantFile};
use std::collections::BTreeMap;
use std::path::Path;
use stmt::{apply_aliases, similarity, split, Stmt, StmtKind};

/// The areas, and the shared modules of `src/mm/` every variant of the area runs. A variant
/// also runs the `src/mm` modules it imports (an era's rmap: `vma_2_6_31`, `vma_2_6_34`).
pub const AREAS: [(&str, &[&str]); 3] = [
    (
        "compound",
        &[
            "swap",
            "huge_memory",
            "hugetlb",
            "gup",
            "page_alloc",
            "slab",
            "rmap",
            "page_ref",
        ],
    ),
    ("lru", &["lru", "list", "mod", "mlock", "filemap"]),
    ("vma", &["vma", "exec", "mremap"]),
];

/// The least similarity at which two statements are the same statement.
pub const MATCH: f32 = 0.5;

/// One row of a side-by-side alignment.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    pub c: Option<Stmt>,
    pub rust: Option<Stmt>,
    /// The row breaks a rule (an unmatched statement with no marker in its gap).
    pub uncovered: bool,
    pub similarity: f32,
}

/// A kernel function aligned for one variant.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Aligned {
    pub function: String,
    pub path: String,
    /// Where the C was read (`kernel/27c73ae7/mm/swap.c:24`) and its status.
    pub c_at: String,
    pub c_status: String,
    /// Where the Rust is (`src/compound/commit_27c73ae7.rs:40`).
    pub rust_at: String,
    pub rows: Vec<Row>,
    pub c_statements: usize,
    pub c_matched: usize,
    pub c_left_out: usize,
    pub rust_statements: usize,
    pub rust_model: usize,
    pub markers: usize,
    pub uncovered: usize,
}

/// One variant's result.
#[derive(Clone, Debug, serde::Serialize)]
pub struct VariantReport {
    pub id: String,
    pub area: String,
    pub parent: Option<String>,
    /// The kernel folders its C comes from, nearest first.
    pub chain: Vec<String>,
    /// The statuses of its C (`verbatim`, `partial`, `unverified`) with counts.
    pub statuses: BTreeMap<String, usize>,
    pub sources: Vec<String>,
    pub functions: Vec<Aligned>,
    /// C functions with no Rust mirror in its scope (`pending:` names excepted: those are
    /// listed in `pending`).
    pub c_without_rust: Vec<String>,
    pub pending: Vec<String>,
    /// Rust mirrors in its scope with no C stored for this version.
    pub rust_without_c: Vec<String>,
}

impl VariantReport {
    pub fn c_statements(&self) -> usize {
        self.functions.iter().map(|f| f.c_statements).sum()
    }
    pub fn c_matched(&self) -> usize {
        self.functions.iter().map(|f| f.c_matched).sum()
    }
    pub fn markers(&self) -> usize {
        self.functions.iter().map(|f| f.markers).sum()
    }
    pub fn uncovered(&self) -> usize {
        self.functions.iter().map(|f| f.uncovered).sum::<usize>() + self.c_without_rust.len()
    }
    /// Matched share of the C statements (0..=1).
    pub fn share(&self) -> f64 {
        let n = self.c_statements();
        if n == 0 {
            0.0
        } else {
            self.c_matched() as f64 / n as f64
        }
    }
}

/// The whole report.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    pub variants: Vec<VariantReport>,
}

impl Report {
    pub fn problems(&self) -> usize {
        self.variants.iter().map(VariantReport::uncovered).sum()
    }
}

/// Align C statements with Rust statements: an order-keeping pairing that maximizes the summed
/// similarity of its pairs (each pair at least [`MATCH`]), then the gap rules.
pub fn align(c: &[Stmt], rust: &[Stmt]) -> Vec<Row> {
    let ci: Vec<usize> = (0..c.len())
        .filter(|&i| c[i].kind == StmtKind::Code)
        .collect();
    let ri: Vec<usize> = (0..rust.len())
        .filter(|&j| rust[j].kind == StmtKind::Code)
        .collect();
    let (n, m) = (ci.len(), ri.len());
    let mut sim = vec![vec![0f32; m]; n];
    for a in 0..n {
        for b in 0..m {
            sim[a][b] = similarity(&c[ci[a]].words, &rust[ri[b]].words);
        }
    }
    let mut dp = vec![vec![0f32; m + 1]; n + 1];
    for a in 1..=n {
        for b in 1..=m {
            let mut best = dp[a - 1][b].max(dp[a][b - 1]);
            let s = sim[a - 1][b - 1];
            if s >= MATCH {
                best = best.max(dp[a - 1][b - 1] + s);
            }
            dp[a][b] = best;
        }
    }
    let mut pairs = Vec::new();
    let (mut a, mut b) = (n, m);
    while a > 0 && b > 0 {
        let s = sim[a - 1][b - 1];
        if s >= MATCH && (dp[a][b] - (dp[a - 1][b - 1] + s)).abs() < 1e-5 {
            pairs.push((ci[a - 1], ri[b - 1], s));
            a -= 1;
            b -= 1;
        } else if (dp[a][b] - dp[a - 1][b]).abs() < 1e-5 {
            a -= 1;
        } else {
            b -= 1;
        }
    }
    pairs.reverse();
    // Gaps: before the first pair, between pairs, after the last.
    let mut rows = Vec::new();
    let (mut pc, mut pr) = (0usize, 0usize);
    let mut bounds: Vec<(usize, usize, Option<f32>)> =
        pairs.iter().map(|&(x, y, s)| (x, y, Some(s))).collect();
    bounds.push((c.len(), rust.len(), None));
    for (x, y, s) in bounds {
        let gc = &c[pc..x];
        let gr = &rust[pr..y];
        let left_out = gr.iter().any(|s| s.kind == StmtKind::LeftOut);
        let model = gr.iter().any(|s| s.kind == StmtKind::Model);
        for st in gc {
            rows.push(Row {
                uncovered: st.kind == StmtKind::Code && !left_out,
                c: Some(st.clone()),
                rust: None,
                similarity: 0.0,
            });
        }
        for st in gr {
            rows.push(Row {
                uncovered: st.kind == StmtKind::Code && !model,
                c: None,
                rust: Some(st.clone()),
                similarity: 0.0,
            });
        }
        if let Some(s) = s {
            rows.push(Row {
                c: Some(c[x].clone()),
                rust: Some(rust[y].clone()),
                uncovered: false,
                similarity: s,
            });
            pc = x + 1;
            pr = y + 1;
        }
    }
    rows
}

/// A call of a label function (`skip_lock::<V>(m, ...)`) reads as `goto skip_lock`; the
/// `return` after it is the model's (the label's code ends the function); a label call that
/// ends a label function is the C's fall-through into the next label.
fn labels_as_gotos(r: &mut [Stmt], labels: &[String], in_label: bool) {
    let n = r.len();
    let last_code = (0..n).rev().find(|&i| r[i].kind == StmtKind::Code);
    for i in 0..n {
        let Some(first) = r[i].words.first().map(|w| w.0.clone()) else {
            continue;
        };
        if r[i].kind == StmtKind::Code && labels.contains(&first) {
            if in_label && Some(i) == last_code {
                r[i].kind = StmtKind::Free;
                continue;
            }
            r[i].words = vec![("goto".to_string(), 1.0), (first, 1.0)];
            if let Some(next) = r.get_mut(i + 1) {
                if next.kind == StmtKind::Code
                    && next.words.len() == 1
                    && next.words[0].0 == "return"
                {
                    next.kind = StmtKind::Free;
                }
            }
        }
    }
}

impl Aligned {
    /// The summed similarity of the matched rows.
    fn similarity(&self) -> f32 {
        matched_similarity(&self.rows)
    }
}

/// The summed similarity of the rows that pair a C statement with a Rust one.
fn matched_similarity(rows: &[Row]) -> f32 {
    rows.iter()
        .filter(|r| r.c.is_some() && r.rust.is_some())
        .map(|r| r.similarity)
        .sum()
}

fn aligned(cf: &CFunction, rf: &RustFunction, extra_c: &[&CFunction]) -> Aligned {
    aligned_stmts(cf, rf, split(&cf.body, false), extra_c, &[], false)
}

fn aligned_stmts(
    cf: &CFunction,
    rf: &RustFunction,
    mut c: Vec<Stmt>,
    extra_c: &[&CFunction],
    labels: &[String],
    in_label: bool,
) -> Aligned {
    for e in extra_c {
        c.extend(split(&e.body, false));
    }
    let mut r = split(&rf.body, true);
    apply_aliases(&mut r, &rf.body);
    labels_as_gotos(&mut r, labels, in_label);
    let rows = align(&c, &r);
    let count = |f: &dyn Fn(&Row) -> bool| rows.iter().filter(|r| f(r)).count();
    Aligned {
        function: if in_label {
            rf.kernel[0].replace(':', " label ")
        } else {
            cf.name.clone()
        },
        path: cf.path.clone(),
        c_at: format!("{}/{}:{}", cf.folder, cf.path, cf.first_line),
        c_status: cf.status.clone(),
        rust_at: format!("{}:{}", rf.file, rf.first_line),
        c_statements: c.iter().filter(|s| s.kind == StmtKind::Code).count(),
        c_matched: count(&|r| r.c.is_some() && r.rust.is_some()),
        c_left_out: count(&|r| {
            r.rust.is_none()
                && r.c.as_ref().is_some_and(|s| s.kind == StmtKind::Code)
                && !r.uncovered
        }),
        rust_statements: r.iter().filter(|s| s.kind == StmtKind::Code).count(),
        rust_model: count(&|r| {
            r.c.is_none()
                && r.rust.as_ref().is_some_and(|s| s.kind == StmtKind::Code)
                && !r.uncovered
        }),
        markers: r
            .iter()
            .filter(|s| matches!(s.kind, StmtKind::LeftOut | StmtKind::Model))
            .count(),
        uncovered: count(&|r| r.uncovered),
        rows,
    }
}

/// Everything read once.
struct Tree {
    variants: Vec<VariantFile>,
    /// kernel folder id -> its C files.
    c: BTreeMap<String, Vec<source::CFile>>,
    /// Every kernel-mirroring Rust function, by file.
    rust: BTreeMap<String, Vec<RustFunction>>,
    /// Functions a shared module takes by name from another (`use super::swap::{
    /// __put_single_page, ..}` in src/mm/lru.rs): module -> [(other module, name)].
    uses: BTreeMap<String, Vec<(String, String)>>,
}

/// `use super::m::{a, b};` / `use super::m::a;` lines of a src/mm module.
fn super_uses(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let flat: String = text
        .split(';')
        .map(|s| format!("{};\n", s.replace('\n', " ")))
        .collect();
    for l in flat.lines() {
        let Some(r) = l.trim().strip_prefix("use super::") else {
            continue;
        };
        let r = r.trim_end_matches(';').trim();
        let Some((m, names)) = r.split_once("::") else {
            continue;
        };
        let names = names.trim().trim_start_matches('{').trim_end_matches('}');
        for n in names.split(',') {
            let n = n.trim();
            if !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_') {
                out.push((m.to_string(), n.to_string()));
            }
        }
    }
    out
}

fn read_tree(root: &Path) -> Result<Tree, String> {
    let read = |rel: &str| {
        std::fs::read_to_string(root.join(rel)).map_err(|e| format!("cannot read {rel}: {e}"))
    };
    let mut variants = Vec::new();
    let mut rust = BTreeMap::new();
    for (area, _) in AREAS {
        for f in files(root, &format!("src/{area}"), &[".rs"]) {
            if f.ends_with("/mod.rs") || f.contains("/mutants/") {
                continue;
            }
            let text = read(&f)?;
            if let Some(v) = read_variant(&text, area, &f) {
                if !v.mutant {
                    variants.push(v);
                }
            }
            rust.insert(f.clone(), read_rust(&text, &f));
        }
    }
    let mut uses = BTreeMap::new();
    for f in files(root, "src/mm", &[".rs"]) {
        let text = read(&f)?;
        rust.insert(f.clone(), read_rust(&text, &f));
        if let Some(m) = mm_module(&f) {
            uses.insert(m.to_string(), super_uses(&text));
        }
    }
    let mut c: BTreeMap<String, Vec<source::CFile>> = BTreeMap::new();
    for f in files(root, "kernel", &[".c", ".h"]) {
        let rel = f.trim_start_matches("kernel/");
        let Some((id, path)) = rel.split_once('/') else {
            continue;
        };
        let text = read(&f)?;
        c.entry(id.to_string())
            .or_default()
            .push(read_c(&text, path, &format!("kernel/{id}")));
    }
    Ok(Tree {
        variants,
        c,
        rust,
        uses,
    })
}

/// The `src/mm` module of a Rust file (`src/mm/swap.rs` -> `swap`).
fn mm_module(file: &str) -> Option<&str> {
    file.strip_prefix("src/mm/")?.strip_suffix(".rs")
}

fn check_variant(t: &Tree, v: &VariantFile) -> VariantReport {
    // The chain of kernel folders: the variant, its parent, ... (META parents).
    let mut chain = Vec::new();
    let mut cur = Some(v.id.clone());
    while let Some(id) = cur {
        if chain.contains(&id) {
            break;
        }
        chain.push(id.clone());
        cur = t
            .variants
            .iter()
            .find(|x| x.id == id)
            .and_then(|x| x.parent.clone());
    }
    // Visible C functions, nearest folder first; `removed:` hides older ones.
    let mut visible: BTreeMap<(String, String), &CFunction> = BTreeMap::new();
    let mut hidden: Vec<String> = Vec::new();
    let mut pending = Vec::new();
    let mut statuses = BTreeMap::new();
    let mut sources = Vec::new();
    for id in &chain {
        for file in t.c.get(id).map(Vec::as_slice).unwrap_or(&[]) {
            for f in &file.functions {
                let key = (f.path.clone(), f.name.clone());
                if !visible.contains_key(&key) && !hidden.contains(&f.name) {
                    visible.insert(key, f);
                }
            }
            hidden.extend(file.header.names("removed"));
            for p in file.header.names("pending") {
                let entry = (format!("kernel/{id}"), p);
                if !pending.contains(&entry) {
                    pending.push(entry);
                }
            }
        }
    }
    // The Rust in scope: own file, delegated files, shared modules.
    let (_, base) = AREAS
        .iter()
        .find(|(a, _)| *a == v.area)
        .copied()
        .unwrap_or(("", &[]));
    let in_mm_scope = |file: &str| {
        mm_module(file).is_some_and(|m| base.contains(&m) || v.imports.iter().any(|i| i == m))
    };
    let mirrors = |name: &str, path: &str| -> Vec<&RustFunction> {
        let all = |file: &str| -> Vec<&RustFunction> {
            t.rust
                .get(file)
                .map(|fs| {
                    fs.iter()
                        .filter(|f| {
                            !f.delegates
                                && f.path == path
                                && f.kernel.first().is_some_and(|k| k == name)
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let own = all(&v.file);
        if !own.is_empty() {
            return own;
        }
        if let Some(stem) = v.delegated.get(name).or(v.imported.get(name)) {
            let f = format!("src/{}/{stem}.rs", v.area);
            let d = all(&f);
            if !d.is_empty() {
                return d;
            }
        }
        // A helper (no variant's `compound_fns!` names it: not a trait function, which must be
        // delegated by name) of a file the variant delegates to or imports from: 44518d2b's
        // `compound_tail_refcounted`, which the `get_huge_page_tail` that 3bfcd13e takes from
        // that file calls.
        let trait_fn = t
            .variants
            .iter()
            .filter(|o| o.area == v.area)
            .any(|o| o.trait_fns.iter().any(|f| f == name));
        if !trait_fn {
            let mut stems: Vec<&String> = v.delegated.values().chain(v.imported.values()).collect();
            stems.sort();
            stems.dedup();
            let helpers: Vec<&RustFunction> = stems
                .into_iter()
                .flat_map(|stem| all(&format!("src/{}/{stem}.rs", v.area)))
                .collect();
            if !helpers.is_empty() {
                return helpers;
            }
        }
        let scoped: Vec<&RustFunction> = t
            .rust
            .keys()
            .filter(|f| in_mm_scope(f))
            .flat_map(|f| all(f))
            .collect();
        if !scoped.is_empty() {
            return scoped;
        }
        // A function of a module the area's shared modules take functions from (src/mm/lru.rs
        // calls swap.rs's `__put_single_page`, which calls its `__page_cache_release`).
        let mut used: Vec<&String> = t
            .uses
            .iter()
            .filter(|(m, _)| base.contains(&m.as_str()))
            .flat_map(|(_, us)| us.iter().map(|(m, _)| m))
            .collect();
        used.sort();
        used.dedup();
        used.into_iter()
            .flat_map(|m| all(&format!("src/mm/{m}.rs")))
            .collect()
    };
    let mut functions = Vec::new();
    let mut c_without_rust = Vec::new();
    let mut used: Vec<(String, usize)> = Vec::new();
    for ((path, name), cf) in &visible {
        // `pending:` holds back the text of the folder that says it, not a nearer folder's
        // text of the same name (2.6.31's vma-argument `anon_vma_lock` is pending; 012f1800's
        // `anon_vma_lock(anon_vma)` is modelled).
        if pending.iter().any(|(f, p)| p == name && *f == cf.folder) {
            continue;
        }
        let cands = mirrors(name, path);
        if cands.is_empty() {
            // Second of a `a() + b()` pair: aligned with the first.
            let part_of_pair = t
                .rust
                .values()
                .flatten()
                .any(|r| r.kernel.iter().skip(1).any(|k| k == name));
            if !part_of_pair {
                c_without_rust.push(format!("{name} ({}/{path}:{})", cf.folder, cf.first_line));
            }
            continue;
        }
        let best = cands
            .into_iter()
            .map(|rf| {
                let extra: Vec<&CFunction> = rf
                    .kernel
                    .iter()
                    .skip(1)
                    .filter_map(|k| visible.get(&(path.clone(), k.clone())).copied())
                    .collect();
                (aligned(cf, rf, &extra), rf)
            })
            .min_by(|a, b| {
                a.0.uncovered
                    .cmp(&b.0.uncovered)
                    .then(b.0.c_matched.cmp(&a.0.c_matched))
                    // Then the closer text: two versions of one function (2.6.34's
                    // `__bprm_mm_init` and a8bef8ff's) can cover the same C equally, and the
                    // one whose matched statements read most like it is the version's. This
                    // says which Rust text mirrors the C, not which one the variant runs (a
                    // const such as `ChainLock::TEMP_STACK` chooses that): the claims and the
                    // golden diffs check the choice.
                    .then(b.0.similarity().total_cmp(&a.0.similarity()))
            })
            .expect("candidates");
        let (mut best, rf) = best;
        // Labels written as functions of the same file: the C from the label to the next
        // label is theirs, the rest is the function's.
        let helpers: Vec<&RustFunction> = t
            .rust
            .get(&rf.file)
            .map(|fs| {
                fs.iter()
                    .filter(|h| h.kernel[0].starts_with(&format!("{name}:")))
                    .collect()
            })
            .unwrap_or_default();
        if !helpers.is_empty() {
            let labels: Vec<String> = helpers
                .iter()
                .map(|h| {
                    h.kernel[0]
                        .split_once(':')
                        .map_or(String::new(), |x| x.1.to_string())
                })
                .collect();
            let all = split(&cf.body, false);
            let at = |l: &str| {
                all.iter()
                    .position(|s| s.kind == StmtKind::Code && s.text == format!("{l}:"))
            };
            let starts: Vec<usize> = all
                .iter()
                .enumerate()
                .filter(|(_, s)| s.text.ends_with(':') && s.words.len() == 1)
                .map(|(i, _)| i)
                .collect();
            let mut main: Vec<Stmt> = Vec::new();
            let mut taken = vec![false; all.len()];
            let mut extra_rows = Vec::new();
            for (h, l) in helpers.iter().zip(&labels) {
                let Some(s0) = at(l) else { continue };
                let end = starts
                    .iter()
                    .copied()
                    .find(|&x| x > s0)
                    .unwrap_or(all.len());
                for tk in taken.iter_mut().take(end).skip(s0) {
                    *tk = true;
                }
                extra_rows.push(aligned_stmts(
                    cf,
                    h,
                    all[s0..end].to_vec(),
                    &[],
                    &labels,
                    true,
                ));
                used.push((h.file.clone(), h.first_line));
            }
            for (i, s) in all.iter().enumerate() {
                if !taken[i] {
                    main.push(s.clone());
                }
            }
            best = aligned_stmts(cf, rf, main, &[], &labels, false);
            functions.push(best);
            functions.extend(extra_rows);
            used.push((rf.file.clone(), rf.first_line));
            *statuses.entry(cf.status.clone()).or_insert(0) += 1;
            continue;
        }
        used.push((rf.file.clone(), rf.first_line));
        *statuses.entry(cf.status.clone()).or_insert(0) += 1;
        if !sources.contains(&cf.source) && !cf.source.is_empty() {
            sources.push(cf.source.clone());
        }
        functions.push(best);
    }
    // Rust mirrors in scope with no C at this version.
    let mut rust_without_c = Vec::new();
    for (file, fs) in &t.rust {
        if !(file == &v.file
            || in_mm_scope(file)
            || v.delegated
                .values()
                .any(|s| file.ends_with(&format!("/{s}.rs"))))
        {
            continue;
        }
        for f in fs {
            if f.delegates || used.contains(&(f.file.clone(), f.first_line)) {
                continue;
            }
            let name = &f.kernel[0];
            if file != &v.file
                && v.delegated
                    .get(name)
                    .is_some_and(|s| !file.ends_with(&format!("/{s}.rs")))
            {
                continue;
            }
            if visible.contains_key(&(f.path.clone(), name.clone())) {
                continue; // another candidate was chosen
            }
            let why = f
                .no_c
                .as_deref()
                .map(|w| format!(": {w}"))
                .unwrap_or_default();
            rust_without_c.push(format!("{name} ({}:{}){why}", f.file, f.first_line));
        }
    }
    rust_without_c.sort();
    rust_without_c.dedup();
    VariantReport {
        id: v.id.clone(),
        area: v.area.clone(),
        parent: v.parent.clone(),
        chain: chain
            .iter()
            .filter(|id| t.c.contains_key(*id))
            .map(|id| format!("kernel/{id}"))
            .collect(),
        statuses,
        sources,
        functions,
        c_without_rust,
        pending: pending.into_iter().map(|(_, p)| p).collect(),
        rust_without_c,
    }
}

/// Check every kernel variant of the repository at `root` (or only `only`).
pub fn check(root: &Path, only: Option<&str>) -> Result<Report, String> {
    let t = read_tree(root)?;
    if let Some(id) = only {
        if !t.variants.iter().any(|v| v.id == id) {
            let known: Vec<_> = t.variants.iter().map(|v| v.id.as_str()).collect();
            return Err(format!(
                "no kernel variant '{id}' (known: {}; a mutant is its patch and has no C of its own)",
                known.join(", ")
            ));
        }
    }
    let variants = t
        .variants
        .iter()
        .filter(|v| only.is_none_or(|o| o == v.id))
        .map(|v| check_variant(&t, v))
        .collect();
    Ok(Report { variants })
}

/// The table of figures, one row per variant (Markdown).
pub fn table(r: &Report) -> String {
    let mut s = String::from(
        "| variant | C source (status: functions) | functions | C statements | matched | markers | problems |\n|---|---|---|---|---|---|---|\n",
    );
    for v in &r.variants {
        let st: Vec<String> = v
            .statuses
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} ({:.0}%) | {} | {} |\n",
            v.id,
            st.join(", "),
            v.functions.len(),
            v.c_statements(),
            v.c_matched(),
            100.0 * v.share(),
            v.markers(),
            v.uncovered()
        ));
    }
    s
}

fn cell(s: &Option<Stmt>) -> String {
    match s {
        None => String::new(),
        Some(st) => match st.kind {
            StmtKind::LeftOut => format!("// LEFT OUT: {}", st.text),
            StmtKind::Model => format!("// MODEL: {}", st.text),
            _ => st.text.clone(),
        },
    }
}

/// One function side by side, as text (`C | Rust`, `!!` on a row that breaks a rule).
pub fn side_by_side(a: &Aligned, width: usize) -> String {
    let mut s = format!(
        "{} ({}): C {} [{}] | Rust {}\n",
        a.function, a.path, a.c_at, a.c_status, a.rust_at
    );
    let w = width.max(40) / 2 - 3;
    let cut = |t: String| {
        if t.chars().count() > w {
            let mut u: String = t.chars().take(w - 1).collect();
            u.push('~');
            u
        } else {
            t
        }
    };
    for r in &a.rows {
        s.push_str(&format!(
            "{} {:<w$} | {}\n",
            if r.uncovered { "!!" } else { "  " },
            cut(cell(&r.c)),
            cut(cell(&r.rust)),
        ));
    }
    s
}

/// Problems as lines a developer acts on (file:line, what is missing).
pub fn problem_lines(r: &Report) -> Vec<String> {
    let mut out = Vec::new();
    for v in &r.variants {
        for f in &v.functions {
            for row in f.rows.iter().filter(|r| r.uncovered) {
                match (&row.c, &row.rust) {
                    (Some(c), _) => out.push(format!(
                        "{}: {}: C statement `{}` ({}:{}) is neither mirrored nor marked `// LEFT OUT: why` in {}",
                        v.id,
                        f.function,
                        c.text,
                        f.c_at.rsplit_once(':').map_or("", |x| x.0),
                        c.line,
                        f.rust_at
                    )),
                    (None, Some(r)) => out.push(format!(
                        "{}: {} : Rust statement `{}` ({}) matches no C statement and has no `// MODEL: why` in its gap",
                        v.id,
                        f.function,
                        r.text,
                        format_args!("{}:{}", f.rust_at.rsplit_once(':').map_or("", |x| x.0), r.line)
                    )),
                    _ => {}
                }
            }
        }
        for c in &v.c_without_rust {
            out.push(format!(
                "{}: the C of {c} has no Rust mirror in the variant's scope (model it, or name it under `pending:` in its file's header)",
                v.id
            ));
        }
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The HTML section: the table, then each variant's functions side by side, folded.
pub fn html(r: &Report) -> String {
    let mut s = String::from("<section id=\"fidelity\"><h2>Fidelity: the kernel's C beside the Rust</h2>\n<p>Every C statement of a modelled function is mirrored or marked <code>LEFT OUT</code> in the Rust; every Rust statement of kernel code is matched or marked <code>MODEL</code> (<code>cargo xtask fidelity</code>).</p>\n<table><tr><th>variant</th><th>C status</th><th>functions</th><th>C statements</th><th>matched</th><th>markers</th><th>problems</th></tr>\n");
    for v in &r.variants {
        let st: Vec<String> = v
            .statuses
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        s.push_str(&format!(
            "<tr><td><a href=\"#fid-{id}\">{id}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{} ({:.0}%)</td><td>{}</td><td>{}</td></tr>\n",
            esc(&st.join(", ")),
            v.functions.len(),
            v.c_statements(),
            v.c_matched(),
            100.0 * v.share(),
            v.markers(),
            v.uncovered(),
            id = esc(&v.id)
        ));
    }
    s.push_str("</table>\n");
    for v in &r.variants {
        s.push_str(&format!(
            "<details id=\"fid-{id}\"><summary>{id}: {} functions, {:.0}% of C statements matched, {} markers</summary>\n",
            v.functions.len(),
            100.0 * v.share(),
            v.markers(),
            id = esc(&v.id)
        ));
        for f in &v.functions {
            s.push_str(&format!(
                "<h4>{} <small>C {} [{}] &middot; Rust {}</small></h4>\n<table class=\"fid\"><tr><th>C</th><th>Rust</th></tr>\n",
                esc(&f.function),
                esc(&f.c_at),
                esc(&f.c_status),
                esc(&f.rust_at)
            ));
            for row in &f.rows {
                s.push_str(&format!(
                    "<tr{}><td><code>{}</code></td><td><code>{}</code></td></tr>\n",
                    if row.uncovered { " class=\"fail\"" } else { "" },
                    esc(&cell(&row.c)),
                    esc(&cell(&row.rust))
                ));
            }
            s.push_str("</table>\n");
        }
        s.push_str("</details>\n");
    }
    s.push_str("</section>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::tokenize;

    fn rows(c: &str, r: &str) -> Vec<Row> {
        let c = split(&tokenize(c, true), false);
        let mut r2 = split(&tokenize(r, false), true);
        apply_aliases(&mut r2, &[]);
        align(&c, &r2)
    }

    fn uncovered(rows: &[Row]) -> Vec<String> {
        rows.iter()
            .filter(|r| r.uncovered)
            .map(|r| cell(if r.c.is_some() { &r.c } else { &r.rust }))
            .collect()
    }

    const C: &str = "if (PageTail(page)) {\n\tatomic_dec(&page->_mapcount);\n\tmem_cgroup_uncharge(page);\n}\nput_page(page);";

    #[test]
    fn a_c_statement_neither_mirrored_nor_marked_is_reported() {
        let r = rows(C, "if PageTail(m.pg(page)) {\n let p = m.pg(page);\n atomic_dec(&p._mapcount);\n}\nput_page(m, page);");
        assert_eq!(uncovered(&r), ["mem_cgroup_uncharge(page);"]);
    }

    #[test]
    fn a_left_out_marker_covers_its_gap_only() {
        let here = rows(C, "if PageTail(m.pg(page)) {\n atomic_dec(&m.pg(page)._mapcount);\n // LEFT OUT: memcg is not modelled\n}\nput_page(m, page);");
        assert!(uncovered(&here).is_empty(), "{:?}", uncovered(&here));
        let elsewhere = rows(C, "// LEFT OUT: memcg is not modelled\nif PageTail(m.pg(page)) {\n atomic_dec(&m.pg(page)._mapcount);\n}\nput_page(m, page);");
        assert_eq!(uncovered(&elsewhere), ["mem_cgroup_uncharge(page);"]);
    }

    #[test]
    fn a_rust_statement_of_its_own_needs_a_model_marker() {
        let bare = "if PageTail(m.pg(page)) {\n atomic_dec(&m.pg(page)._mapcount);\n // LEFT OUT: memcg\n extra_step(m, page);\n}\nput_page(m, page);";
        assert_eq!(uncovered(&rows(C, bare)), ["extra_step(m, page);"]);
        let marked = bare.replace(
            " extra_step",
            " // MODEL: a step the harness needs\n extra_step",
        );
        assert!(uncovered(&rows(C, &marked)).is_empty());
        // Traces and ghost checks are the table's, not kernel code.
        let traced = "if PageTail(m.pg(page)) {\n atomic_dec(&m.pg(page)._mapcount);\n ktrace!(F, \"x\");\n // LEFT OUT: memcg\n}\nput_page(m, page);";
        assert!(uncovered(&rows(C, traced)).is_empty());
    }

    #[test]
    fn of_two_equal_covers_the_closer_text_reads_more_like_the_c() {
        // a8bef8ff's __bprm_mm_init against 2.6.34's and a8bef8ff's Rust: both pair the
        // line, so the mirror is chosen by how closely it reads.
        let c = "vma->vm_flags = VM_STACK_FLAGS | VM_STACK_INCOMPLETE_SETUP;";
        let old = rows(c, "WRITE_ONCE(&m.vmas[vma].vm_flags, VM_STACK_FLAGS);");
        let new = rows(
            c,
            "WRITE_ONCE(&m.vmas[vma].vm_flags, VM_STACK_FLAGS | VM_STACK_INCOMPLETE_SETUP);",
        );
        assert!(uncovered(&old).is_empty() && uncovered(&new).is_empty());
        assert!(matched_similarity(&new) > matched_similarity(&old));
    }

    #[test]
    fn statements_pair_in_order() {
        // A swapped order cannot pair both statements.
        let r = rows("a(x);\nb(y);", "b(y);\na(x);");
        assert_eq!(
            r.iter()
                .filter(|r| r.c.is_some() && r.rust.is_some())
                .count(),
            1
        );
    }
}
