//! Reading the two sides: the kernel's C files under `kernel/` (their header and their
//! functions) and mmcheck's Rust files (the functions whose doc comment names a kernel
//! function, and the variants' `compound_fns!` delegations).

use crate::tokens::{matching, tokenize, Kind, Token};
use std::collections::BTreeMap;
use std::path::Path;

/// A C file's header fields (kernel/README.md).
#[derive(Clone, Debug, Default)]
pub struct Header {
    pub fields: BTreeMap<String, String>,
}

impl Header {
    pub fn get(&self, k: &str) -> &str {
        self.fields.get(k).map_or("", String::as_str)
    }
    /// A comma-separated field as names (`holds:`, `removed:`, `pending:`); words in
    /// parentheses are comments.
    pub fn names(&self, k: &str) -> Vec<String> {
        let mut v = self.get(k).to_string();
        while let (Some(a), Some(b)) = (v.find('('), v.find(')')) {
            if b < a {
                break;
            }
            v.replace_range(a..=b, "");
        }
        v.split([',', ' ', ';'])
            .map(str::trim)
            .filter(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'))
            .map(str::to_string)
            .collect()
    }
}

/// One kernel function as a version has it.
#[derive(Clone, Debug)]
pub struct CFunction {
    pub name: String,
    /// The kernel path (`mm/swap.c`).
    pub path: String,
    /// The folder it was read from (`kernel/27c73ae7`).
    pub folder: String,
    /// `verbatim`, `partial` or `unverified` (the function's own comment, else the file's).
    pub status: String,
    pub source: String,
    pub first_line: usize,
    /// The text as stored (for the side-by-side view).
    pub text: String,
    pub body: Vec<Token>,
}

/// A C file of `kernel/<id>/`.
#[derive(Clone, Debug)]
pub struct CFile {
    pub header: Header,
    pub functions: Vec<CFunction>,
}

fn parse_header(comment: &str) -> Header {
    let mut h = Header::default();
    let mut last: Option<String> = None;
    for line in comment.lines() {
        let l = line.trim_start().trim_start_matches('*');
        let t = l.trim();
        let key = t
            .split_once(':')
            .filter(|(k, _)| {
                !k.is_empty()
                    && k.len() < 20
                    && k.chars().all(|c| c.is_ascii_lowercase() || c == ' ')
            })
            .filter(|_| l.starts_with(' ') && !l.starts_with("  "));
        match key {
            Some((k, v)) => {
                h.fields.insert(k.trim().to_string(), v.trim().to_string());
                last = Some(k.trim().to_string());
            }
            None => {
                if let Some(k) = &last {
                    if !t.is_empty() {
                        let e = h.fields.entry(k.clone()).or_default();
                        e.push(' ');
                        e.push_str(t);
                    }
                }
            }
        }
    }
    h
}

/// Read a C file of `kernel/`: `path` is the kernel path (`mm/swap.c`), `folder` its folder.
pub fn read_c(text: &str, path: &str, folder: &str) -> CFile {
    let compiled = without_if0(text);
    let toks = tokenize(&compiled, true);
    let header = toks
        .iter()
        .find(|t| t.kind == Kind::Comment && t.text.contains("mmcheck kernel text"))
        .map(|t| parse_header(&t.text))
        .unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let mut functions = Vec::new();
    let mut i = 0;
    let mut depth = 0i32;
    let mut pending_status: Option<String> = None;
    let mut stmt_start = 0usize;
    while i < toks.len() {
        let t = &toks[i];
        if depth == 0 && t.kind == Kind::Comment {
            if let Some(s) = t.text.trim().strip_prefix("mmcheck:") {
                pending_status = Some(s.trim().to_string());
            }
            i += 1;
            stmt_start = i;
            continue;
        }
        if depth == 0 && t.kind == Kind::Directive {
            // `#define name(args) body`: a macro the model implements.
            let d = t.text.trim_start_matches('#').trim_start();
            if let Some(rest) = d.strip_prefix("define") {
                let rest = rest.trim_start();
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if rest[name.len()..].starts_with('(') {
                    if let Some(close) = rest.find(')') {
                        let body = tokenize(&rest[close + 1..], true)
                            .into_iter()
                            .map(|mut b| {
                                b.line = t.line;
                                b
                            })
                            .collect();
                        functions.push(CFunction {
                            name,
                            path: path.to_string(),
                            folder: folder.to_string(),
                            status: pending_status.take().unwrap_or_default(),
                            source: String::new(),
                            first_line: t.line,
                            text: t.text.clone(),
                            body,
                        });
                    }
                }
            }
            i += 1;
            stmt_start = i;
            continue;
        }
        if t.is("{") {
            // A function definition: `... name ( params ) [attrs] {` at the top level.
            if depth == 0 {
                let head = &toks[stmt_start..i];
                let paren = head.iter().position(|t| t.is("("));
                if let Some(p) = paren.filter(|&p| p > 0 && head[p - 1].is_ident()) {
                    let name = head[p - 1].text.clone();
                    let close = matching(&toks, i);
                    let first_line = head[0].line;
                    let last_line = toks[close].line;
                    functions.push(CFunction {
                        name,
                        path: path.to_string(),
                        folder: folder.to_string(),
                        status: pending_status.take().unwrap_or_default(),
                        source: String::new(),
                        first_line,
                        text: lines[first_line.saturating_sub(1)..last_line.min(lines.len())]
                            .join("\n"),
                        body: toks[i + 1..close].to_vec(),
                    });
                    i = close + 1;
                    stmt_start = i;
                    continue;
                }
            }
            depth += 1;
        } else if t.is("}") {
            depth -= 1;
        } else if depth == 0 && t.is(";") {
            stmt_start = i + 1;
            pending_status = None;
        }
        i += 1;
    }
    let file_status = header
        .get("status")
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string();
    for f in &mut functions {
        if f.status.is_empty() {
            f.status = file_status.clone();
        } else {
            // `/* mmcheck: partial: why */` keeps the word.
            f.status = f.status.split([':', ' ']).next().unwrap_or("").to_string();
        }
        f.source = header.get("source").to_string();
    }
    CFile { header, functions }
}

/// A Rust function that mirrors kernel functions (its doc comment names them).
#[derive(Clone, Debug)]
pub struct RustFunction {
    /// The kernel functions it mirrors (`alloc_fresh_huge_page() + prep_new_huge_page()`).
    pub kernel: Vec<String>,
    /// The kernel path the doc names (`mm/swap.c`).
    pub path: String,
    /// The version words of the doc (`27c73ae7`, `3.9–3.12`).
    pub label: String,
    pub rust_name: String,
    /// Repository-relative file.
    pub file: String,
    pub first_line: usize,
    pub text: String,
    pub body: Vec<Token>,
    /// Whether it only forwards to another function (a trait's dispatch, not a mirror).
    pub delegates: bool,
    /// `/// C: not found (why)`: the doc says no kernel text could be read.
    pub no_c: Option<String>,
}

/// Parse the first doc line: "`name(args)` [+ `name2()`] (path, label)".
fn parse_doc(doc: &str) -> Option<(Vec<String>, String, String)> {
    let mut names = Vec::new();
    let mut rest = doc.trim();
    loop {
        let r = rest.strip_prefix('`')?;
        let end = r.find('`')?;
        let inner = &r[..end];
        let name: String = inner
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            return None;
        }
        names.push(name);
        rest = r[end + 1..].trim_start();
        if let Some(r2) = rest.strip_prefix("+ ") {
            rest = r2.trim_start();
            continue;
        }
        if let Some(r2) = rest.strip_prefix("= ") {
            // `page_cache_get(page)` = `get_page(page)`: the first name is the mirrored one.
            rest = r2.trim_start();
            let r3 = rest.strip_prefix('`')?;
            rest = r3[r3.find('`')? + 1..].trim_start();
        }
        break;
    }
    let r = rest.strip_prefix('(')?;
    let close = r.find(')')?;
    let inside = &r[..close];
    let (path, label) = match inside.split_once(',') {
        Some((p, l)) => (p.trim(), l.trim()),
        None => (inside.trim(), ""),
    };
    let known = ["mm/", "include/", "arch/", "fs/", "kernel/", "lib/"];
    if !known.iter().any(|k| path.starts_with(k)) || path.contains(' ') {
        return None;
    }
    Some((names, path.to_string(), label.to_string()))
}

/// Every kernel-mirroring function of a Rust file.
pub fn read_rust(text: &str, file: &str) -> Vec<RustFunction> {
    let toks = tokenize(text, false);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if !(toks[i].is("fn") && toks.get(i + 1).is_some_and(|t| t.is_ident())) {
            continue;
        }
        // The doc comment above: `///` lines (tokens `Comment` starting with '/'), skipping
        // `pub`, attributes and qualifiers between.
        let mut j = i;
        while j > 0
            && matches!(
                toks[j - 1].text.as_str(),
                "pub" | "unsafe" | "const" | "extern"
            )
        {
            j -= 1;
        }
        while j > 0 && toks[j - 1].is("]") {
            // `#[...]`
            let mut k = j - 1;
            while k > 0 && !toks[k].is("[") {
                k -= 1;
            }
            j = k.saturating_sub(1);
        }
        let mut docs = Vec::new();
        let mut k = j;
        while k > 0 && toks[k - 1].kind == Kind::Comment && toks[k - 1].text.starts_with('/') {
            docs.push(toks[k - 1].text[1..].to_string());
            k -= 1;
        }
        docs.reverse();
        // The first paragraph of the doc, as one line.
        let para: Vec<&str> = docs
            .iter()
            .map(|d| d.trim())
            .take_while(|d| !d.is_empty())
            .collect();
        let joined = para.join(" ");
        let Some(first) = (!joined.is_empty()).then_some(&joined) else {
            continue;
        };
        // `/// The `skip_lock:` label of `put_compound_page()` ...`: a label of a kernel
        // function written as a function; it mirrors that label's code (`put_compound_page:skip_lock`).
        let label_of = first.trim().strip_prefix("The `").and_then(|r| {
            let (l, r) = r.split_once(":` label of `")?;
            let f: String = r
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!f.is_empty()).then(|| format!("{f}:{l}"))
        });
        let Some((kernel, path, label)) =
            parse_doc(first).or_else(|| label_of.map(|k| (vec![k], String::new(), String::new())))
        else {
            continue;
        };
        let no_c = docs
            .iter()
            .find_map(|d| d.trim().strip_prefix("C: not found"))
            .map(|w| {
                w.trim()
                    .trim_start_matches([':', '('])
                    .trim_end_matches(')')
                    .to_string()
            });
        // The body: the first `{` after the signature.
        let mut b = i + 2;
        while b < toks.len() && !toks[b].is("{") && !toks[b].is(";") {
            if toks[b].is("(") || toks[b].is("[") {
                b = matching(&toks, b);
            }
            b += 1;
        }
        if b >= toks.len() || toks[b].is(";") {
            continue; // a declaration without body
        }
        let close = matching(&toks, b);
        let body = toks[b + 1..close].to_vec();
        let first_line = toks[i].line;
        let code: Vec<&Token> = body.iter().filter(|t| t.kind != Kind::Comment).collect();
        // One call of the same kernel function elsewhere (`super::commit_x::f::<Self>(..)`,
        // `V::f(..)`): dispatch. A one-line function that calls another kernel function
        // (`lru_add_drain()` is `drain_cpu_pagevecs(get_cpu())`) is a mirror.
        let callee = code
            .iter()
            .position(|t| t.is("("))
            .and_then(|p| {
                // The last path segment outside a turbofish's `<..>`.
                let mut depth = 0i32;
                code[..p].iter().rev().find(|t| {
                    if t.is(">") {
                        depth += 1;
                    } else if t.is("<") {
                        depth -= 1;
                    }
                    depth == 0 && t.is_ident()
                })
            })
            .map(|t| t.text.clone());
        let own_name =
            |c: &String| kernel.first().is_some_and(|k| k == c) || *c == toks[i + 1].text;
        let delegates = code.iter().filter(|t| t.is(";")).count() <= 1
            && code.first().is_some_and(|t| t.is_ident())
            && code.iter().any(|t| t.is("::"))
            && callee.as_ref().is_some_and(own_name)
            && !code
                .iter()
                .any(|t| t.is("if") || t.is("let") || t.is("=") || t.is("for"));
        out.push(RustFunction {
            kernel,
            path,
            label,
            rust_name: toks[i + 1].text.clone(),
            file: file.to_string(),
            first_line,
            text: lines[first_line.saturating_sub(1)..toks[close].line.min(lines.len())].join("\n"),
            body,
            delegates,
            no_c,
        });
    }
    out
}

/// The text the compiler sees of `#if 0` blocks: their lines blanked (numbering kept) up to
/// the matching `#else` or `#endif` (ca641514's huge_mm.h keeps a disabled
/// compound_trans_head beside the `#define` in force).
pub fn without_if0(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Per open `#if`: is this branch disabled?
    let mut stack: Vec<bool> = Vec::new();
    for line in text.split_inclusive('\n') {
        let d = line.trim_start();
        let word = d.strip_prefix('#').map(|r| {
            r.trim_start()
                .split(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("")
        });
        let disabled = stack.iter().any(|&x| x);
        match word {
            Some("if") | Some("ifdef") | Some("ifndef") => {
                let zero = word == Some("if") && d[1..].trim_start()[2..].trim() == "0";
                stack.push(zero);
            }
            Some("else") | Some("elif") => {
                if let Some(top) = stack.last_mut() {
                    *top = false;
                }
            }
            Some("endif") => {
                stack.pop();
            }
            _ => {}
        }
        let blank = disabled || stack.iter().any(|&x| x);
        if blank {
            out.push_str(if line.ends_with('\n') { "\n" } else { "" });
        } else {
            out.push_str(line);
        }
    }
    out
}

/// What a Rust variant file says about itself: id, parent, kind, and its delegations
/// (`compound_fns! { super::commit_27c73ae7: put_compound_page; }`: name -> file stem).
#[derive(Clone, Debug)]
pub struct VariantFile {
    pub id: String,
    pub parent: Option<String>,
    pub mutant: bool,
    pub area: String,
    pub file: String,
    pub delegated: BTreeMap<String, String>,
    /// The functions its `compound_fns!` names (its own and delegated ones): the trait's.
    pub trait_fns: Vec<String>,
    /// Helpers it imports from another variant's file (`use super::commit_44518d2b::{a, b};`):
    /// name -> file stem.
    pub imported: BTreeMap<String, String>,
    /// The `crate::mm::<module>` modules it imports.
    pub imports: Vec<String>,
}

pub fn read_variant(text: &str, area: &str, file: &str) -> Option<VariantFile> {
    let meta = text.find("const META: VariantMeta")?;
    let m = &text[meta..];
    let id = m.split_once("id: \"")?.1.split_once('"')?.0.to_string();
    let parent = m
        .split_once("parent: ")
        .and_then(|(_, r)| r.strip_prefix("Some(\""))
        .and_then(|r| r.split_once('"'))
        .map(|(p, _)| p.to_string());
    let mutant = m.contains("Kind::Mutant");
    let mut delegated = BTreeMap::new();
    let mut trait_fns = Vec::new();
    if let Some(pos) = text.find("compound_fns!") {
        let block = &text[pos..];
        let block =
            &block[block.find('{').unwrap_or(0) + 1..block.find('}').unwrap_or(block.len())];
        for group in block.split(';') {
            if let Some((module, names)) = group.rsplit_once(':') {
                let module = module.trim();
                let stem = module.rsplit("::").next().unwrap_or(module).trim();
                for n in names.split(',') {
                    let n = n.trim();
                    if !n.is_empty() {
                        trait_fns.push(n.to_string());
                    }
                    if !n.is_empty() && module != "self" {
                        delegated.insert(n.to_string(), stem.to_string());
                    }
                }
            }
        }
    }
    // A helper taken from another variant's file (`use super::commit_44518d2b::{a, b};`, one
    // line) is that file's mirror, as a `compound_fns!` delegation is.
    let mut imported = BTreeMap::new();
    for l in text.lines() {
        let Some(r) = l.trim().strip_prefix("use super::") else {
            continue;
        };
        let Some((stem, names)) = r.trim_end_matches(';').split_once("::") else {
            continue;
        };
        for n in names.trim_matches(['{', '}']).split(',') {
            let n = n.trim();
            if !n.is_empty() {
                imported.insert(n.to_string(), stem.to_string());
            }
        }
    }
    let imports = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("use crate::mm::"))
        .map(|r| {
            r.split([':', ';', '{'])
                .next()
                .unwrap_or_default()
                .trim()
                .to_string()
        })
        .filter(|m| !m.is_empty() && m != "Mem")
        .collect();
    Some(VariantFile {
        id,
        parent,
        mutant,
        area: area.to_string(),
        file: file.to_string(),
        delegated,
        trait_fns,
        imported,
        imports,
    })
}

/// Files under `dir` (recursively) whose name ends with one of `exts`, repository-relative.
pub fn files(root: &Path, dir: &str, exts: &[&str]) -> Vec<String> {
    fn walk(root: &Path, d: &Path, exts: &[&str], out: &mut Vec<String>) {
        let Ok(rd) = std::fs::read_dir(d) else { return };
        let mut v: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        v.sort();
        for p in v {
            if p.is_dir() {
                walk(root, &p, exts, out);
            } else if exts.iter().any(|e| p.to_string_lossy().ends_with(e)) {
                out.push(
                    p.strip_prefix(root)
                        .unwrap_or(&p)
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    let mut out = Vec::new();
    walk(root, &root.join(dir), exts, &mut out);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn if0_blocks_are_not_read() {
        let t =
            "#if 0\nint f(void) { a(); }\n#else\n#define f() b()\n#endif\nint g(void) { c(); }\n";
        let w = without_if0(t);
        assert_eq!(w.lines().count(), t.lines().count());
        assert!(!w.contains("a();") && w.contains("#define f() b()") && w.contains("c();"));
        let n = "#ifdef X\n#if 0\nx\n#endif\ny\n#endif\n";
        assert_eq!(without_if0(n), "#ifdef X\n\n\n\ny\n#endif\n");
    }

    #[test]
    fn a_call_of_the_same_function_elsewhere_is_dispatch_another_is_a_mirror() {
        let r = read_rust(
            "/// `put_page(page)` (mm/swap.c, 3.10).\nfn put_page<V: C>(m: &Mem, page: PagePtr) {\n    super::x::put_page::<V>(m, page)\n}\n/// `lru_add_drain()` (mm/swap.c).\nfn lru_add_drain<V: L>(m: &Mem) {\n    V::drain_cpu_pagevecs(m, 0);\n}\n",
            "src/x.rs",
        );
        assert_eq!(r.len(), 2);
        assert!(r[0].delegates, "put_page forwards to another put_page");
        assert!(!r[1].delegates, "lru_add_drain calls drain_cpu_pagevecs");
    }

    use super::*;

    #[test]
    fn docs_name_kernel_functions() {
        assert_eq!(
            parse_doc(" `put_compound_page(page)` (mm/swap.c, 27c73ae7)."),
            Some((
                vec!["put_compound_page".into()],
                "mm/swap.c".into(),
                "27c73ae7".into()
            ))
        );
        assert_eq!(
            parse_doc(
                " `alloc_fresh_huge_page()` + `prep_new_huge_page()` (mm/hugetlb.c, 3.10): x"
            ),
            Some((
                vec!["alloc_fresh_huge_page".into(), "prep_new_huge_page".into()],
                "mm/hugetlb.c".into(),
                "3.10".into()
            ))
        );
        assert_eq!(parse_doc(" `x` is a thing (see above)"), None);
    }

    #[test]
    fn c_functions_and_header() {
        let f = read_c(
            "/*\n * mmcheck kernel text: x\n * variant:   a\n * holds:     f, g (both)\n *            h\n */\nstatic void f(struct page *p)\n{\n\treturn;\n}\n/* mmcheck: partial: why */\nint g(void) { x(); }\n#define h(p) k(p)\n",
            "mm/x.c",
            "kernel/a",
        );
        assert_eq!(f.header.names("holds"), ["f", "g", "h"]);
        let names: Vec<_> = f.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["f", "g", "h"]);
        assert_eq!(f.functions[1].status, "partial");
    }
}
