//! `verify --html FILE`: one self-contained page (no network, no external assets, no script):
//! in the reviewer's order: the verdict table, each counterexample, then the matrix, the
//! (folded) safeguard coverage of the page's variants and the calibration table; each
//! counterexample as swimlanes (one column per CPU plus the setup thread, one row per step,
//! function and event in each cell, the failing step marked, the replay command beside it).

use super::swimlane::{is_failing, lane_name, lanes};
use super::{matrix_areas, CellReport, ClaimReport};
use crate::safeguards;
use crate::table::{self, Coverage};
use mmcheck::trace::Failure;
use std::fmt::Write;

/// What the page shows.
pub struct Page<'a> {
    pub title: &'a str,
    /// The command that produced it.
    pub command: &'a str,
    pub claims: &'a [ClaimReport],
    pub cells: &'a [CellReport],
    /// The calibration table: header and rows (empty: not shown).
    pub calibration: (&'a [&'a str], &'a [Vec<String>]),
}

/// `s` with `& < > " '` escaped.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

const STYLE: &str = r#"
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1b1b1b; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 3px 6px; vertical-align: top; text-align: left; }
th { background: #f0f0f0; }
td.ok { background: #e6f4e6; } td.bad { background: #f9dcdc; font-weight: bold; }
td.new { background: #fff6d6; }
code { font: 12px monospace; }
table.swimlane { table-layout: fixed; width: 100%; font: 12px monospace; }
table.swimlane th.step { width: 3em; }
table.swimlane td { word-wrap: break-word; }
table.swimlane tr.failing td { background: #f9dcdc; font-weight: bold; }
table.swimlane td.busy { background: #eef3fb; }
table.swimlane tr.failing td.busy { background: #f2b8b8; }
span.fn { color: #1a4f8b; }
p.replay code { background: #f4f4f4; padding: 2px 4px; }
"#;

fn verdict_class(matches: Option<bool>) -> &'static str {
    match matches {
        Some(true) => "ok",
        Some(false) => "bad",
        None => "new",
    }
}

/// One counterexample as swimlanes.
fn swimlanes(s: &mut String, id: &str, title: &str, f: &Failure, replay: &str) {
    let lanes = lanes(&f.trace);
    let cpus = lanes.iter().filter(|l| l.is_some()).count();
    let _ = writeln!(
        s,
        "<section class=\"cex\" id=\"cex-{}\" data-id=\"{}\" data-lanes=\"{}\" data-cpus=\"{cpus}\">",
        esc(id),
        esc(id),
        lanes.len()
    );
    let _ = writeln!(s, "<h3>{}</h3>", esc(title));
    let _ = writeln!(
        s,
        "<p class=\"cause\"><b>{}</b>: {}</p>",
        esc(&f.cause.to_string()),
        esc(&f.message)
    );
    let _ = writeln!(
        s,
        "<p class=\"replay\">Replay: <code>{}</code></p>",
        esc(replay)
    );
    let _ = write!(
        s,
        "<table class=\"swimlane\"><thead><tr><th class=\"step\">#</th>"
    );
    for l in &lanes {
        let key = l.map_or("main".to_string(), |c| format!("cpu{c}"));
        let _ = write!(
            s,
            "<th class=\"lane\" data-lane=\"{key}\">{}</th>",
            esc(&lane_name(*l))
        );
    }
    let _ = writeln!(s, "</tr></thead><tbody>");
    for e in &f.trace {
        let failing = is_failing(e);
        let _ = write!(
            s,
            "<tr class=\"step{}\"><td class=\"n\">{}</td>",
            if failing { " failing" } else { "" },
            e.step
        );
        for l in &lanes {
            if *l == e.cpu {
                let _ = write!(
                    s,
                    "<td class=\"busy\"><span class=\"fn\">{}</span> {}</td>",
                    esc(&e.func),
                    esc(&e.event)
                );
            } else {
                s.push_str("<td></td>");
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></section>\n");
}

fn claims_table(s: &mut String, rs: &[ClaimReport]) {
    s.push_str("<h2 id=\"verdicts\">Verdicts</h2>\n<table class=\"verdicts\"><thead><tr><th>claim</th><th>variant</th><th>model</th><th>checker</th><th>bound</th><th>executions</th><th>complete</th><th>seconds</th><th>expected</th><th>verdict</th></tr></thead><tbody>\n");
    for r in rs {
        let verdict = if r.failure.is_some() {
            format!(
                "<a href=\"#cex-{}\">{}</a>",
                esc(&r.id),
                esc(&r.verdict.to_string())
            )
        } else {
            esc(&r.verdict.to_string())
        };
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td><td>{}</td><td class=\"{}\">{verdict}</td></tr>",
            esc(&r.id),
            esc(&r.variant),
            esc(&r.model),
            r.checker,
            r.bound.map_or("-".to_string(), |b| b.to_string()),
            r.executions,
            if r.complete { "yes" } else { "no" },
            r.seconds,
            esc(&r.expected.to_string()),
            verdict_class(Some(r.matches)),
        );
    }
    s.push_str("</tbody></table>\n");
}

fn matrix(s: &mut String, cells: &[CellReport]) {
    s.push_str("<h2 id=\"matrix\">Matrix: every model on every variant</h2>\n<p>A cell a claim covers is checked against it (✓ or ✗); a cell no claim covers is new.</p>\n");
    for m in matrix_areas(cells) {
        let (area, variants, models) = (m.area, &m.variants, &m.models);
        let _ = write!(
            s,
            "<h3>{area}</h3>\n<table class=\"matrix\" data-area=\"{area}\"><thead><tr><th>model</th>"
        );
        for v in variants {
            let _ = write!(s, "<th>{}</th>", esc(v));
        }
        s.push_str("</tr></thead><tbody>\n");
        for model in models {
            let _ = write!(s, "<tr><th>{}</th>", esc(model));
            for v in variants {
                match m.cell(model, v) {
                    Some(c) => {
                        let _ = write!(
                            s,
                            "<td class=\"{}\" title=\"{}\">{}</td>",
                            verdict_class(c.matches),
                            esc(&format!(
                                "{} executions, {:.2}s, bound {}{}",
                                c.executions,
                                c.seconds,
                                c.bound,
                                c.claim
                                    .as_ref()
                                    .map_or(String::new(), |cl| format!(", claim {cl}"))
                            )),
                            esc(&c.cell_text())
                        );
                    }
                    None => s.push_str("<td>-</td>"),
                }
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</tbody></table>\n");
    }
}

/// The safeguards of `variants` (all SAFE variants when None), folded: a reviewer who came for
/// two claims sees their verdicts and counterexamples first.
fn safeguard_table(s: &mut String, variants: Option<&[String]>) {
    let shown: Vec<&'static str> = safeguards::safe_variants()
        .into_iter()
        .filter(|v| variants.is_none_or(|vs| vs.iter().any(|x| x == v)))
        .collect();
    if shown.is_empty() {
        return;
    }
    let rows = shown
        .iter()
        .map(|v| {
            table::safeguards()
                .filter(|g| g.variants.contains(v))
                .count()
        })
        .sum::<usize>();
    let _ = write!(
        s,
        "<h2 id=\"safeguards\">Safeguard coverage</h2>\n<details class=\"safeguards\"><summary>{rows} safeguard(s) of {}: the mutant that removes each and the claim that kills it, or the proof section that argues for it</summary>\n<table class=\"safeguards\"><thead><tr><th>variant</th><th>safeguard</th><th>kind</th><th>coverage</th></tr></thead><tbody>\n",
        esc(&shown.join(", "))
    );
    for v in shown {
        for g in table::safeguards().filter(|g| g.variants.contains(&v)) {
            let class = match g.coverage {
                Coverage::Uncovered => "bad",
                _ => "ok",
            };
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td>{:?}</td><td class=\"{class}\">{}</td></tr>",
                esc(v),
                esc(g.name),
                g.kind,
                esc(&safeguards::coverage_text(g))
            );
        }
    }
    s.push_str("</tbody></table>\n");
    let problems = safeguards::problems();
    if !problems.is_empty() {
        s.push_str("<ul class=\"problems\">");
        for p in problems {
            let _ = write!(s, "<li>{}</li>", esc(&p));
        }
        s.push_str("</ul>\n");
    }
    s.push_str("</details>\n");
}

/// The kernel's C beside the Rust for the page's kernel variants (`cargo xtask fidelity`,
/// kernel/README.md), each variant folded.
fn fidelity(s: &mut String, variants: &[String]) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match mmcheck_fidelity::check(&root, None) {
        Ok(mut r) => {
            r.variants.retain(|v| variants.contains(&v.id));
            s.push_str(&mmcheck_fidelity::html(&r));
        }
        Err(e) => {
            let _ = writeln!(
                s,
                "<section id=\"fidelity\"><h2>Fidelity</h2><p class=\"bad\">kernel/ could not be read: {}</p></section>",
                esc(&e)
            );
        }
    }
}

fn calibration(s: &mut String, header: &[&str], rows: &[Vec<String>]) {
    s.push_str("<h2 id=\"calibration\">Calibration against the kernel's litmus tests</h2>\n<table class=\"calibration\"><thead><tr>");
    for h in header {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>\n");
    for r in rows {
        s.push_str("<tr>");
        for c in r {
            let _ = write!(s, "<td>{}</td>", esc(c));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
}

/// The whole page.
pub fn render(p: &Page<'_>) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>\n<h1>{}</h1>\n<p class=\"command\"><code>{}</code></p>\n",
        esc(p.title),
        esc(p.title),
        esc(p.command)
    );
    let bad = p.claims.iter().filter(|r| !r.matches).count()
        + p.cells.iter().filter(|c| c.matches == Some(false)).count();
    let _ = writeln!(
        s,
        "<p class=\"summary\" data-mismatches=\"{bad}\">{} claim(s), {} matrix cell(s): {}</p>",
        p.claims.len(),
        p.cells.len(),
        if bad == 0 {
            "every verdict equals its expectation".to_string()
        } else {
            format!("{bad} differ from their expectation")
        }
    );
    // The reviewer's order: what was asked (verdicts), why (counterexamples), then the
    // background (matrix, safeguards of the page's variants, calibration).
    let counterexamples = p.claims.iter().any(|r| r.failure.is_some())
        || p.cells
            .iter()
            .any(|c| c.failure.is_some() && c.claim.is_none());
    let mut toc = Vec::new();
    if !p.claims.is_empty() {
        toc.push(("verdicts", "Verdicts"));
    }
    if counterexamples {
        toc.push(("counterexamples", "Counterexamples"));
    }
    if !p.cells.is_empty() {
        toc.push(("matrix", "Matrix"));
    }
    toc.push(("safeguards", "Safeguard coverage"));
    if !p.claims.is_empty() && p.cells.is_empty() {
        toc.push(("fidelity", "Fidelity: the C beside the Rust"));
    }
    if !p.calibration.1.is_empty() {
        toc.push(("calibration", "Calibration"));
    }
    s.push_str("<nav class=\"toc\"><ul>");
    for (id, name) in &toc {
        let _ = write!(s, "<li><a href=\"#{id}\">{name}</a></li>");
    }
    s.push_str("</ul></nav>\n");
    if !p.claims.is_empty() {
        claims_table(&mut s, p.claims);
    }
    if counterexamples {
        s.push_str("<h2 id=\"counterexamples\">Counterexamples</h2>\n");
    }
    for r in p.claims {
        if let Some(f) = &r.failure {
            swimlanes(
                &mut s,
                &r.id,
                &format!("{} — {}", r.id, r.variant),
                f,
                &r.replay,
            );
        }
    }
    for c in p.cells {
        if let (Some(f), None) = (&c.failure, &c.claim) {
            let id = format!("{}/{}", c.variant, c.model);
            swimlanes(
                &mut s,
                &id,
                &format!("new: {} on {}", c.model, c.variant),
                f,
                &c.replay,
            );
        }
    }
    if !p.cells.is_empty() {
        matrix(&mut s, p.cells);
    }
    // The safeguards of the page's variants and of the parents of its mutants; every SAFE
    // variant's when the page shows the matrix or no claims (`verify --safeguards`).
    let variants: Option<Vec<String>> = (p.cells.is_empty() && !p.claims.is_empty()).then(|| {
        let mut v: Vec<String> = Vec::new();
        for r in p.claims {
            let mut id = Some(r.variant.as_str());
            while let Some(x) = id {
                if !v.iter().any(|y| y == x) {
                    v.push(x.to_string());
                }
                id = mmcheck_models::registry::variant(x).and_then(|v| v.meta.parent);
            }
        }
        v
    });
    safeguard_table(&mut s, variants.as_deref());
    if let Some(vs) = &variants {
        fidelity(&mut s, vs);
    }
    if !p.calibration.1.is_empty() {
        calibration(&mut s, p.calibration.0, p.calibration.1);
    }
    s.push_str("</body></html>\n");
    s
}
