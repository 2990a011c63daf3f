//! Statements: a function body cut into the units the alignment pairs, in both languages.
//!
//! A statement is a simple statement (up to its `;`), a control header (`if (cond)`, `else`,
//! `for (...)`, `while`, `do`, `switch`, `case x:`, a label; in Rust `if cond`, `loop`,
//! `match x`, a match arm's pattern), or the tail expression of a Rust block. Braces only
//! group. rustfmt's line breaks do not matter: statements are cut from tokens.
//!
//! Then the **normalization table**, which makes a Rust statement read as the kernel's:
//! `m.pg(page)` reads as `page`, `Self::f`/`V::f`/`module::f` as `f`, turbofish and `&`/`*`
//! go, a macro's `!` and its leading name string go (`VM_BUG_ON!(F, c)` is `VM_BUG_ON(c)`),
//! `true`/`false` are `1`/`0`, `V::copy_vma_need_rmap_locks`/`V::move_ptes_need_rmap_locks` are
//! `copy_vma`/`move_ptes` (the trait methods of 38a76013's added argument), and the shim's
//! names are the kernel's already. The C side drops its types, `likely()`/`unlikely()`, and
//! reads `compound_lock_irqsave` as `compound_lock` (the model has no interrupts;
//! proofs/README.md) and `VM_BUG_ON_PAGE(c, page)` as `VM_BUG_ON(c)` (the model prints no page
//! dump). What is left is compared as a weighted bag of words: names count 1,
//! operators 0.3.

use crate::tokens::{matching, Kind, Token};

/// What a statement is, for the coverage rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StmtKind {
    /// Kernel code: must be matched (or covered by a marker).
    Code,
    /// Needs no match: a C declaration without initializer or a preprocessor line; a Rust
    /// binding of a page (`let p = m.pg(page)`), `const F`, `ktrace!` (model bookkeeping the
    /// normalization table names).
    Free,
    /// `// LEFT OUT: why` in the Rust: covers the unmatched C statements of its gap.
    LeftOut,
    /// `// MODEL: why` in the Rust: covers the unmatched Rust statements of its gap.
    Model,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Stmt {
    pub kind: StmtKind,
    /// The statement as written (tokens joined), or the marker's reason.
    pub text: String,
    pub line: usize,
    /// Normalized words (for the comparison), with their weights.
    #[serde(skip)]
    pub words: Vec<(String, f32)>,
}

fn join(toks: &[Token]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        let glue_before = matches!(t.text.as_str(), ")" | "]" | "," | ";" | "." | "->" | "::")
            || (t.text == "!" && i > 0 && toks[i - 1].is_ident())
            || t.text == ":"
            || (t.text == "("
                && i > 0
                && toks[i - 1].is_ident()
                && !matches!(
                    toks[i - 1].text.as_str(),
                    "if" | "while" | "for" | "switch" | "return"
                ));
        let glue_after_prev = i > 0
            && matches!(
                toks[i - 1].text.as_str(),
                "(" | "[" | "." | "->" | "::" | "!" | "&" | "*"
            )
            && toks[i - 1].kind == Kind::Punct
            && !(toks[i - 1].text == "&" && i > 1 && toks[i - 2].is_ident());
        if !s.is_empty() && !glue_before && !glue_after_prev {
            s.push(' ');
        }
        if t.kind == Kind::Str {
            s.push('"');
            s.push_str(&t.text);
            s.push('"');
        } else {
            s.push_str(&t.text);
        }
    }
    s
}

/// Cut a body (the tokens between the function's braces) into statements.
pub fn split(body: &[Token], rust: bool) -> Vec<Stmt> {
    let mut out: Vec<(StmtKind, Vec<Token>, Option<String>)> = Vec::new();
    let mut cur: Vec<Token> = Vec::new();
    // Brace kinds: true where the block is a Rust `match` body (arms end at `,`).
    let mut blocks: Vec<bool> = Vec::new();
    let mut header_is_match = false;
    // Depth of an `if CHECKED { ... }` block (ghost checks of the checked builds): free.
    let mut checked_depth: Option<usize> = None;
    let mut free_from = usize::MAX;
    let flush = |cur: &mut Vec<Token>, out: &mut Vec<(StmtKind, Vec<Token>, Option<String>)>| {
        if !cur.is_empty() {
            out.push((StmtKind::Code, std::mem::take(cur), None));
        }
    };
    let mut i = 0;
    while i < body.len() {
        let t = &body[i];
        match t.kind {
            Kind::Comment => {
                let c = t.text.trim();
                if rust {
                    for (tag, kind) in [
                        ("LEFT OUT:", StmtKind::LeftOut),
                        ("MODEL:", StmtKind::Model),
                    ] {
                        if let Some(why) = c.strip_prefix(tag) {
                            flush(&mut cur, &mut out);
                            out.push((kind, vec![t.clone()], Some(why.trim().to_string())));
                        }
                    }
                }
                i += 1;
                continue;
            }
            Kind::Directive => {
                flush(&mut cur, &mut out);
                out.push((StmtKind::Free, vec![t.clone()], None));
                i += 1;
                continue;
            }
            _ => {}
        }
        if t.is("{") {
            flush(&mut cur, &mut out);
            if rust
                && checked_depth.is_none()
                && out
                    .last()
                    .is_some_and(|(_, h, _)| h.len() == 2 && h[0].is("if") && h[1].is("CHECKED"))
            {
                checked_depth = Some(blocks.len());
                free_from = out.len() - 1;
            }
            blocks.push(header_is_match);
            header_is_match = false;
            i += 1;
            continue;
        }
        if t.is("}") {
            flush(&mut cur, &mut out);
            blocks.pop();
            if checked_depth == Some(blocks.len()) {
                checked_depth = None;
                for o in out.iter_mut().skip(free_from) {
                    if o.0 == StmtKind::Code {
                        o.0 = StmtKind::Free;
                    }
                }
            }
            i += 1;
            continue;
        }
        if cur.is_empty() {
            // Control headers.
            if !rust && (t.is("if") || t.is("while") || t.is("for") || t.is("switch")) {
                if let Some(open) = body.get(i + 1).filter(|n| n.is("(")) {
                    let _ = open;
                    let close = matching(body, i + 1);
                    out.push((StmtKind::Code, body[i..=close].to_vec(), None));
                    i = close + 1;
                    continue;
                }
            }
            if rust && (t.is("if") || t.is("while") || t.is("for") || t.is("match") || t.is("loop"))
            {
                // Up to the `{` that opens the block (parens and brackets skipped).
                let mut j = i + 1;
                while j < body.len() && !body[j].is("{") {
                    if body[j].is("(") || body[j].is("[") {
                        j = matching(body, j);
                    }
                    j += 1;
                }
                header_is_match = t.is("match");
                out.push((StmtKind::Code, body[i..j.min(body.len())].to_vec(), None));
                i = j;
                continue;
            }
            if t.is("else") || t.is("do") {
                out.push((StmtKind::Code, vec![t.clone()], None));
                i += 1;
                continue;
            }
            if !rust && (t.is("case") || t.is("default")) {
                let mut j = i;
                while j < body.len() && !body[j].is(":") {
                    j += 1;
                }
                out.push((
                    StmtKind::Code,
                    body[i..=j.min(body.len() - 1)].to_vec(),
                    None,
                ));
                i = j + 1;
                continue;
            }
            if !rust
                && t.is_ident()
                && body.get(i + 1).is_some_and(|n| n.is(":"))
                && !body.get(i + 2).is_some_and(|n| n.is(":"))
            {
                out.push((StmtKind::Code, body[i..i + 2].to_vec(), None));
                i += 2;
                continue;
            }
        }
        if t.is("(") || t.is("[") {
            let close = matching(body, i);
            cur.extend_from_slice(&body[i..=close]);
            i = close + 1;
            continue;
        }
        if rust && blocks.last() == Some(&true) {
            if t.is("=>") {
                cur.push(t.clone());
                flush(&mut cur, &mut out);
                i += 1;
                continue;
            }
            if t.is(",") {
                flush(&mut cur, &mut out);
                i += 1;
                continue;
            }
        }
        cur.push(t.clone());
        if t.is(";") {
            flush(&mut cur, &mut out);
        }
        i += 1;
    }
    flush(&mut cur, &mut out);
    out.into_iter()
        .filter(|(_, toks, _)| !(toks.len() == 1 && toks[0].is(";")))
        .map(|(kind, toks, why)| {
            let line = toks.first().map_or(0, |t| t.line);
            match why {
                Some(w) => Stmt {
                    kind,
                    text: w,
                    line,
                    words: Vec::new(),
                },
                None if kind == StmtKind::Free => Stmt {
                    kind,
                    text: join(&toks),
                    line,
                    words: Vec::new(),
                },
                None => {
                    let (kind, words) = if rust {
                        normalize_rust(&toks)
                    } else {
                        normalize_c(&toks)
                    };
                    Stmt {
                        kind: if kind == StmtKind::Code && words.is_empty() {
                            StmtKind::Free
                        } else {
                            kind
                        },
                        text: join(&toks),
                        line,
                        words,
                    }
                }
            }
        })
        .collect()
}

/// C words that carry no meaning the Rust must mirror: types and qualifiers, branch hints.
const C_DROP: [&str; 26] = [
    "struct",
    "unsigned",
    "long",
    "int",
    "static",
    "inline",
    "const",
    "void",
    "bool",
    "char",
    "likely",
    "unlikely",
    "enum",
    "signed",
    "short",
    "register",
    "volatile",
    "u8",
    "u32",
    "u64",
    "size_t",
    "__always_inline",
    "mm",
    "READ_ONCE",
    "WRITE_ONCE",
    "ACCESS_ONCE",
];

/// C names the model reads as another kernel name (written once, here).
const C_RENAME: [(&str, &str); 7] = [
    // The irq forms pair with the plain lock: the model's lock functions do the irq part
    // (`lru_lock`: src/mm/lru.rs; compound and vma models raise no interrupt: proofs/README.md).
    ("compound_lock_irqsave", "compound_lock"),
    // Lockdep is not modelled: the nesting annotation is the plain lock.
    ("spin_lock_nested", "spin_lock"),
    ("compound_unlock_irqrestore", "compound_unlock"),
    ("spin_lock_irq", "spin_lock"),
    ("spin_unlock_irq", "spin_unlock"),
    ("spin_lock_irqsave", "spin_lock"),
    ("spin_unlock_irqrestore", "spin_unlock"),
];

/// Rust words that are the model's, not the kernel's.
const RUST_DROP: [&str; 31] = [
    "let",
    "mut",
    "Self",
    "V",
    "R",
    "super",
    "crate",
    "self",
    "m",
    "mm",
    "pg",
    "as",
    "usize",
    "isize",
    "u32",
    "u64",
    "i32",
    "i64",
    "bool",
    "Some",
    "Ok",
    "ref",
    "move",
    "unsafe",
    // The model's memory is arenas indexed by ids: `mm.vmas[vma]` is the kernel's `vma`.
    "vmas",
    "anon_vmas",
    "avcs",
    "nodes",
    // Plain kernel loads and stores of words read locklessly (vm_start, vm_pgoff, ...) are
    // the shim's READ_ONCE/WRITE_ONCE (proofs/README.md, the primitive mapping).
    "READ_ONCE",
    "WRITE_ONCE",
    "ACCESS_ONCE",
];

const KEYWORDS: [&str; 12] = [
    "if", "else", "while", "for", "return", "goto", "switch", "match", "loop", "do", "break",
    "continue",
];

fn weight(w: &str) -> f32 {
    if KEYWORDS.contains(&w) {
        0.5
    } else if w
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_')
    {
        1.0
    } else {
        0.3
    }
}

/// The statement's head (its first name that is not a keyword: the callee, or what is
/// assigned) weighs double: two calls of different functions on the same page differ.
fn weigh_head(words: &mut [(String, f32)]) {
    if let Some(w) = words.iter_mut().find(|w| {
        w.1 == 1.0
            && w.0
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
    }) {
        w.1 = 2.0;
    }
}

fn words_of(
    toks: &[Token],
    drop: &dyn Fn(&str) -> bool,
    rename: &dyn Fn(&str) -> String,
) -> Vec<(String, f32)> {
    let mut w = words_plain(toks, drop, rename);
    weigh_head(&mut w);
    w
}

fn words_plain(
    toks: &[Token],
    drop: &dyn Fn(&str) -> bool,
    rename: &dyn Fn(&str) -> String,
) -> Vec<(String, f32)> {
    toks.iter()
        .filter(|t| t.kind != Kind::Str && t.kind != Kind::Comment)
        .filter(|t| {
            !matches!(
                t.text.as_str(),
                "(" | ")" | "{" | "}" | "[" | "]" | "," | ";" | "." | "->" | "::" | "&" | "*" | ":"
            )
        })
        .filter(|t| !drop(&t.text))
        .map(|t| {
            let w = rename(&t.text);
            let wt = weight(&w);
            (w, wt)
        })
        .collect::<Vec<_>>()
}

fn normalize_c(toks: &[Token]) -> (StmtKind, Vec<(String, f32)>) {
    // A declaration without initializer (`unsigned long flags;`, `struct page *p;`).
    let decl = toks.len() >= 3
        && !matches!(
            toks[0].text.as_str(),
            "goto" | "return" | "break" | "continue"
        )
        && !toks
            .iter()
            .any(|t| t.is("=") || t.is("(") || t.is("return"))
        && toks.last().is_some_and(|t| t.is(";"))
        && toks[..toks.len() - 1]
            .iter()
            .all(|t| t.is_ident() || t.is("*") || t.is(","))
        && toks[..toks.len() - 1]
            .iter()
            .filter(|t| t.is_ident())
            .count()
            >= 2;
    if decl {
        return (StmtKind::Free, Vec::new());
    }
    // `VM_BUG_ON_PAGE(c, page)` (309381fe, 3.14) is `VM_BUG_ON(c)` plus a dump of the page,
    // which the model does not print: it reads as `VM_BUG_ON(c)`.
    let toks = &vm_bug_on_page_as_vm_bug_on(toks);
    let words = words_of(toks, &|w| C_DROP.contains(&w), &|w| {
        C_RENAME
            .iter()
            .find(|(a, _)| *a == w)
            .map_or(w.to_string(), |(_, b)| b.to_string())
    });
    (StmtKind::Code, words)
}

/// `VM_BUG_ON_PAGE(c, page);` as `VM_BUG_ON(c);`: the name renamed, the last top-level
/// argument dropped. Any other statement is returned as it is.
fn vm_bug_on_page_as_vm_bug_on(toks: &[Token]) -> Vec<Token> {
    if !(toks.first().is_some_and(|t| t.is("VM_BUG_ON_PAGE"))
        && toks.get(1).is_some_and(|t| t.is("(")))
    {
        return toks.to_vec();
    }
    let mut depth = 0;
    let mut last_comma = None;
    let mut close = None;
    for (i, t) in toks.iter().enumerate().skip(1) {
        if t.is("(") {
            depth += 1;
        } else if t.is(")") {
            depth -= 1;
            if depth == 0 {
                close = Some(i);
                break;
            }
        } else if t.is(",") && depth == 1 {
            last_comma = Some(i);
        }
    }
    let (Some(comma), Some(close)) = (last_comma, close) else {
        return toks.to_vec();
    };
    let mut out = toks.to_vec();
    out[0].text = "VM_BUG_ON".to_string();
    out.drain(comma..close);
    out
}

fn normalize_rust(toks: &[Token]) -> (StmtKind, Vec<(String, f32)>) {
    let first = toks.first().map(|t| t.text.as_str()).unwrap_or("");
    // Model bookkeeping: traces, the function-name constant, ghost state and the checks on it
    // (`fail(...)`, `ghost_*`, `p.ghost...`), a harness failure.
    if matches!(first, "ktrace" | "const" | "fail" | "harness_fail")
        || (first == "trace" && toks.get(1).is_some_and(|t| t.is("::")))
        || toks
            .iter()
            .any(|t| t.is_ident() && (t.text.starts_with("ghost") || t.text.contains("_ghost")))
    {
        return (StmtKind::Free, Vec::new());
    }
    // Drop turbofish (`::<V>`) and macro bangs (`VM_BUG_ON!`), and a macro's leading
    // function-name argument (`VM_BUG_ON!(F, c)`, `BUG_ON!("f", c)`).
    let mut v: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.is("::") && toks.get(i + 1).is_some_and(|n| n.is("<")) {
            let mut j = i + 1;
            let mut depth = 0;
            while j < toks.len() {
                if toks[j].is("<") {
                    depth += 1;
                } else if toks[j].is(">") {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                j += 1;
            }
            i = j + 1;
            continue;
        }
        if t.is("!")
            && i > 0
            && toks[i - 1].is_ident()
            && toks.get(i + 1).is_some_and(|n| n.is("("))
        {
            // A macro call: drop the bang and a leading name argument.
            let a = toks.get(i + 2);
            let comma = toks.get(i + 3).is_some_and(|n| n.is(","));
            i += 1;
            v.push(toks[i].clone());
            if comma && a.is_some_and(|a| a.kind == Kind::Str || a.is("F")) {
                i += 3;
            } else {
                i += 1;
            }
            continue;
        }
        // `x.set(v)` is the kernel's `x = v`; `x.get()` its `x`.
        if t.is("set") && i > 0 && toks[i - 1].is(".") && toks.get(i + 1).is_some_and(|n| n.is("("))
        {
            let mut eq = t.clone();
            eq.text = "=".to_string();
            eq.kind = Kind::Punct;
            v.push(eq);
            i += 1;
            continue;
        }
        if t.is("get")
            && i > 0
            && toks[i - 1].is(".")
            && toks.get(i + 1).is_some_and(|n| n.is("("))
            && toks.get(i + 2).is_some_and(|n| n.is(")"))
        {
            i += 3;
            continue;
        }
        v.push(t.clone());
        i += 1;
    }
    let words = words_of(&v, &|w| RUST_DROP.contains(&w) || w == "F", &|w| match w {
        "true" => "1".to_string(),
        "false" => "0".to_string(),
        "None" => "NULL".to_string(),
        "compound_lock_irqsave" => "compound_lock".to_string(),
        // A trait method for a kernel function that gained an argument (38a76013's
        // `need_rmap_locks`): older variants keep the method without it (src/mm/vma.rs).
        w => w
            .strip_suffix("_need_rmap_locks")
            .filter(|f| matches!(*f, "copy_vma" | "move_ptes"))
            .unwrap_or(w)
            .to_string(),
    });
    (StmtKind::Code, words)
}

/// Similarity of two statements: weighted Dice over their words (0..=1).
pub fn similarity(a: &[(String, f32)], b: &[(String, f32)]) -> f32 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let total: f32 = a.iter().map(|w| w.1).sum::<f32>() + b.iter().map(|w| w.1).sum::<f32>();
    let mut used = vec![false; b.len()];
    let mut common = 0.0f32;
    for (w, wt) in a {
        if let Some(j) = (0..b.len()).find(|&j| !used[j] && b[j].0 == *w) {
            used[j] = true;
            common += (wt + b[j].1) / 2.0;
        }
    }
    2.0 * common / total
}

/// Replace the words of page aliases (`let p = m.pg(page);` makes `p` read as `page`) and
/// mark those bindings free. Returns the statements with aliases applied.
pub fn apply_aliases(stmts: &mut [Stmt], body: &[Token]) {
    let _ = body;
    let mut alias: Vec<(String, String)> = Vec::new();
    for s in stmts.iter_mut() {
        if s.kind != StmtKind::Code {
            continue;
        }
        // `let p = m.pg(page);` normalizes to [p, =, page].
        let t = &s.text;
        // `let p = m.pg(page);`, `let v = &mm.vmas[vma];`, `let a = b;`: a new name for a value.
        let is_binding = t.starts_with("let ")
            && s.words.len() == 3
            && s.words[1].0 == "="
            && s.words[2]
                .0
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_');
        for w in s.words.iter_mut() {
            if let Some((_, to)) = alias.iter().find(|(a, _)| *a == w.0) {
                w.0 = to.clone();
            }
        }
        if is_binding {
            alias.retain(|(a, _)| *a != s.words[0].0);
            alias.push((s.words[0].0.clone(), s.words[2].0.clone()));
            s.kind = StmtKind::Free;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::tokenize;

    fn codes(src: &str, rust: bool) -> Vec<String> {
        split(&tokenize(src, !rust), rust)
            .into_iter()
            .map(|s| format!("{:?}:{}", s.kind, s.text))
            .collect()
    }

    #[test]
    fn c_statements() {
        let c = codes(
            "if (unlikely(PageTail(page))) {\n unsigned long flags;\n x = f(a, b);\n} else\n goto out;\nout:\n return;",
            false,
        );
        assert_eq!(
            c,
            [
                "Code:if (unlikely(PageTail(page)))",
                "Free:unsigned long flags;",
                "Code:x = f(a, b);",
                "Code:else",
                "Code:goto out;",
                "Code:out:",
                "Code:return;"
            ]
        );
    }

    #[test]
    fn rust_statements_and_markers() {
        let r = codes(
            "let p = m.pg(page);\n// LEFT OUT: memcg is not modelled\nif PageTail(p) && x {\n VM_BUG_ON!(F, true);\n}\nmatch a { 1 => f(m), _ => {} }",
            true,
        );
        assert_eq!(
            r,
            [
                "Code:let p = m.pg(page);",
                "LeftOut:memcg is not modelled",
                "Code:if PageTail(p) && x",
                "Code:VM_BUG_ON!(F, true);",
                "Code:match a",
                "Code:1 =>",
                "Code:f(m)",
                "Code:_ =>"
            ]
        );
    }

    #[test]
    fn normalized_forms_meet() {
        let c = split(
            &tokenize(
                "VM_BUG_ON(1);\nflags = compound_lock_irqsave(page_head);",
                true,
            ),
            false,
        );
        let r = split(
            &tokenize(
                "VM_BUG_ON!(F, true);\nV::compound_lock(m, page_head);",
                false,
            ),
            true,
        );
        assert!(similarity(&c[0].words, &r[0].words) > 0.99);
        assert!(similarity(&c[1].words, &r[1].words) > 0.6);
    }

    #[test]
    fn vm_bug_on_page_reads_as_vm_bug_on() {
        let c = split(
            &tokenize(
                "VM_BUG_ON_PAGE(atomic_read(&page_head->_count) <= 0, page_head);\nVM_BUG_ON_PAGE(1, page_head);",
                true,
            ),
            false,
        );
        let r = split(
            &tokenize(
                "VM_BUG_ON!(F, atomic_read(&m.pg(page_head)._count) <= 0);\nVM_BUG_ON!(F, true);",
                false,
            ),
            true,
        );
        assert!(similarity(&c[0].words, &r[0].words) > 0.99);
        assert!(similarity(&c[1].words, &r[1].words) > 0.99);
    }

    #[test]
    fn an_added_argument_keeps_the_name() {
        let c = split(
            &tokenize(
                "move_ptes(vma, old_pmd, old_addr, old_addr + extent, new_vma, new_pmd, new_addr);",
                true,
            ),
            false,
        );
        let r = split(
            &tokenize(
                "V::move_ptes_need_rmap_locks(mm, vma, old_addr, old_addr + extent, new_vma, new_addr, need_rmap_locks);",
                false,
            ),
            true,
        );
        assert!(similarity(&c[0].words, &r[0].words) > 0.7);
    }
}
