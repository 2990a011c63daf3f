//! `cargo xtask proof-traces`: the runs quoted in proofs/ against claim reports (`verify
//! --json`, and the reports the claim tests write under MMCHECK_REPORT_DIR).
//!
//! Three kinds of fenced block are quotes of a run:
//! - a claim's header (`  variant V | model M | loom | CONFIG_DEBUG_VM=y | bound none |
//!   expected ...`), its figures (`  executions N | complete B | Ts | verdict ...`) and, for a
//!   BUG, `  counterexample: cause: message` and the numbered trace; matched by the header;
//! - a test's trace block, `ID (variant):`, the failure and the trace, up to `  replay:`;
//! - an excerpt, `ID (variant), abridged:`, whose numbered lines must be those steps of the run.
//!
//! The expectation, verdict, executions, completeness and counterexample must be the run's
//! (not the seconds; proptest's count is refreshed, never judged). `--write` refreshes them
//! (never an excerpt) and prints where old steps went, for the prose that cites them.
//! `--strict` also fails on a quote no report has. The lines are rendered here as
//! `report::paragraph` and `trace::write_trace` print them (xtask depends on no crate a broken
//! variant can break): `trace_lines_are_laid_out_as_the_runner_prints_them` and
//! tests/trace.rs's `write_trace_layout` pin the same line.

use clap::Parser;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Parser)]
pub struct Args {
    /// Reports: `cargo xtask verify --json FILE` (CI writes target/verify.json), or the claim
    /// reports the generated tests write under MMCHECK_REPORT_DIR (`<id>.json`).
    #[arg(value_name = "REPORT", required = true)]
    reports: Vec<PathBuf>,
    /// Replace each counterexample, expectation, verdict and count that differs from the
    /// report's (excerpts are only reported).
    #[arg(long)]
    write: bool,
    /// Also fail on a quoted run that no report has (CI passes every report there is:
    /// `verify --json` and the claim tests' MMCHECK_REPORT_DIR).
    #[arg(long)]
    strict: bool,
    /// The proofs directory.
    #[arg(long, value_name = "DIR", default_value = "proofs")]
    proofs: PathBuf,
}

/// One run of the report, as a proof's header names it.
struct Run {
    id: String,
    header: String,
    /// `BUG (BUG_ON)`, `SAFE`: Expected's Display.
    expected: String,
    /// `bug (BUG_ON)`, `safe`: Verdict's Display.
    verdict: String,
    executions: u64,
    complete: bool,
    /// `cause: message` and the numbered trace of a BUG verdict (`traces()`'s lines).
    failure: Option<(String, String)>,
    trace: Vec<(String, String, String)>,
}

impl Run {
    /// The lines a `verify` block quotes from `counterexample:` on.
    fn counterexample(&self) -> String {
        self.failure.as_ref().map_or(String::new(), |(f, t)| {
            format!("  counterexample: {f}\n{t}")
        })
    }

    /// The lines a trace block (`ID (variant):`, as the tests print it) quotes before `replay:`.
    fn trace_block(&self) -> String {
        self.failure
            .as_ref()
            .map_or(String::new(), |(f, t)| format!("  {f}\n{t}"))
    }
}

fn s<'a>(v: &'a Value, k: &str) -> Result<&'a str, String> {
    v.get(k)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("a claim report has no string `{k}`"))
}

/// The header line `report::paragraph` prints for a claim, from the report's JSON.
fn runs(report: &Value) -> Result<Vec<Run>, String> {
    let claims = match report {
        Value::Array(a) => a.iter().collect::<Vec<_>>(),
        Value::Object(_) => vec![report],
        _ => return Err("a report is not a claim report or a list of them".into()),
    };
    let mut out = Vec::new();
    for c in claims {
        let checker = s(c, "checker")?;
        let bound = match c.get("bound") {
            None | Some(Value::Null) => "-".to_string(),
            Some(b) => serde_json::from_value::<mmcheck_cli::Bound>(b.clone())
                .map_err(|e| format!("a claim report's bound {b} is not a bound: {e}"))?
                .to_string(),
        };
        let debug_vm = c.get("config_debug_vm").and_then(Value::as_bool) == Some(true);
        let header = format!(
            "  variant {} | model {} | {} | CONFIG_DEBUG_VM={} | bound {}",
            s(c, "variant")?,
            s(c, "model")?,
            checker,
            if debug_vm { "y" } else { "n" },
            bound
        );
        let (failure, trace) = match c.get("failure") {
            Some(f) if !f.is_null() => {
                let cause = match f.get("cause") {
                    Some(Value::Object(o)) => o
                        .values()
                        .next()
                        .and_then(Value::as_str)
                        .unwrap_or("?")
                        .to_string(),
                    Some(Value::String(h)) if h == "harness" => "harness error".to_string(),
                    _ => return Err("a failure has no cause".into()),
                };
                let line = format!("{cause}: {}", s(f, "message")?);
                let mut text = String::new();
                let mut steps = Vec::new();
                for e in f
                    .get("trace")
                    .and_then(Value::as_array)
                    .ok_or("a failure has no trace")?
                {
                    let step = e.get("step").and_then(Value::as_u64).unwrap_or(0);
                    let cpu = match e.get("cpu").and_then(Value::as_u64) {
                        Some(c) => format!("CPU{c}"),
                        None => "main".to_string(),
                    };
                    let func = s(e, "func")?;
                    let event = s(e, "event")?;
                    // trace::write_trace's layout.
                    let _ = writeln!(text, "  {step:>3}. {cpu:<5} {func:<28} {event}");
                    steps.push((cpu, func.to_string(), event.to_string()));
                }
                (Some((line, text)), steps)
            }
            _ => (None, Vec::new()),
        };
        out.push(Run {
            id: s(c, "id")?.to_string(),
            header,
            expected: outcome(c.get("expected"), true)?,
            verdict: outcome(c.get("verdict"), false)?,
            executions: c.get("executions").and_then(Value::as_u64).unwrap_or(0),
            complete: c.get("complete").and_then(Value::as_bool) == Some(true),
            failure,
            trace,
        });
    }
    Ok(out)
}

/// An `Expected` (`upper`) or a `Verdict` as the report's Display prints it, from its JSON:
/// "safe", {"bug": "BUG_ON"}, "anybug", "incomplete", "error".
fn outcome(v: Option<&Value>, upper: bool) -> Result<String, String> {
    let text = match v {
        Some(Value::String(w)) if w == "anybug" => "BUG (any)".to_string(),
        Some(Value::String(w)) if upper => w.to_uppercase(),
        Some(Value::String(w)) => w.clone(),
        Some(Value::Object(o)) if o.len() == 1 && o.contains_key("bug") => {
            let inv = o["bug"].as_str().unwrap_or("?");
            if upper {
                format!("BUG ({inv})")
            } else {
                format!("bug ({inv})")
            }
        }
        other => return Err(format!("a claim report's outcome {other:?} is not one")),
    };
    Ok(text)
}

/// `compound.8 (linux-3.11), abridged:` gives the claim id of an excerpt.
fn abridged_id(line: &str) -> Option<&str> {
    let l = line.trim_end().strip_suffix(", abridged:")?;
    trace_block_id(&format!("{l}:")).map(|id| &l[..id.len()])
}

/// A trace line with its runs of spaces made one (an excerpt may be re-indented).
fn squeeze(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `vma.reuse-5beb4930 (5beb4930):` gives the claim id.
fn trace_block_id(line: &str) -> Option<&str> {
    let l = line.trim_end().strip_suffix("):")?;
    let (id, variant) = l.split_once(" (")?;
    (!id.contains(' ') && !variant.contains(' ') && id.contains('.')).then_some(id)
}

/// A trace line without its step number and weak-memory note (which cite step numbers).
fn line_key(line: &str) -> Option<(String, String, String)> {
    let t = line.trim_start();
    let (num, rest) = t.split_once(". ")?;
    num.parse::<usize>().ok()?;
    let mut w = rest.splitn(2, ' ');
    let cpu = w.next()?.to_string();
    let rest = w.next()?.trim_start();
    let (func, event) = rest.split_once(' ').unwrap_or((rest, ""));
    Some((cpu, func.to_string(), strip_notes(event.trim_start())))
}

fn strip_notes(event: &str) -> String {
    match event.find(" [weak memory:") {
        Some(i) => event[..i].to_string(),
        None => event.to_string(),
    }
}

/// Where each old step went: `old->new`, in order (an old step the new trace lacks: `->-`).
/// Lines are compared whole (CPU, function and event, spaces squeezed), weak-memory notes
/// aside (they cite step numbers).
fn step_map(old: &str, new: &[(String, String, String)]) -> String {
    let new: Vec<String> = new
        .iter()
        .map(|(c, f, e)| squeeze(&format!("{c} {f} {}", strip_notes(e))))
        .collect();
    let mut map = Vec::new();
    let mut j = 0;
    for line in old.lines() {
        let t = line.trim_start();
        let Some((num, rest)) = t.split_once(". ") else {
            continue;
        };
        let Ok(step) = num.parse::<usize>() else {
            continue;
        };
        let key = squeeze(&strip_notes(rest));
        match new[j..].iter().position(|n| *n == key) {
            Some(k) => {
                j += k + 1;
                if j != step {
                    map.push(format!("{step}->{j}"));
                }
            }
            None => map.push(format!("{step}->-")),
        }
    }
    if map.is_empty() {
        "steps unchanged".to_string()
    } else {
        format!("steps moved: {}", map.join(" "))
    }
}

pub fn run(a: &Args) -> u8 {
    match check(a) {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn check(a: &Args) -> Result<bool, String> {
    check_reports(&a.reports, &a.proofs, a.write, a.strict)
}

/// Every run quoted in the proofs under `proofs` against the reports: Ok(false) when a quote
/// differs from its run (and `write` is off) or a deterministic run's figures moved.
pub fn check_reports(
    reports: &[PathBuf],
    proofs: &Path,
    write: bool,
    strict: bool,
) -> Result<bool, String> {
    let mut all = Vec::new();
    for path in reports {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let report: Value = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
        all.extend(runs(&report).map_err(|e| format!("{}: {e}", path.display()))?);
    }
    let runs = all;
    let mut files: Vec<PathBuf> = std::fs::read_dir(proofs)
        .map_err(|e| format!("cannot read {}: {e}", proofs.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    let (mut same, mut differ, mut unmatched) = (0, 0, Vec::new());
    let mut ok = true;
    for f in &files {
        let (s, d, u, good) = check_file(f, &runs, write)?;
        same += s;
        differ += d;
        unmatched.extend(u);
        ok &= good;
    }
    println!(
        "proof-traces: {} blocks as the report has them, {} {}, {} not in the report",
        same,
        differ,
        if write { "rewritten" } else { "differ" },
        unmatched.len()
    );
    for u in &unmatched {
        println!("  not in the report: {u}");
    }
    Ok(ok && (write || differ == 0) && (!strict || unmatched.is_empty()))
}

/// Compare (and with `write`, fix) one proof's blocks. Returns (same, differing, unmatched
/// headers, no figures moved).
fn check_file(
    path: &Path,
    runs: &[Run],
    write: bool,
) -> Result<(usize, usize, Vec<String>, bool), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().to_string());
    let (mut same, mut differ, mut unmatched, mut ok) = (0, 0, Vec::new(), true);
    let mut changed = false;
    let mut out = String::new();
    let mut i = 0;
    // Inside a fenced block: a fence line opens one when this is false and closes it when true.
    let mut open = false;
    while i < lines.len() {
        out.push_str(lines[i]);
        // Any fence opens a block; only a bare one closes it (```` ```rust ```` never does).
        let fence = if open {
            lines[i].trim_end() == "```"
        } else {
            lines[i].starts_with("```")
        };
        i += 1;
        if fence {
            open = !open;
        }
        if !fence || !open {
            continue;
        }
        if i >= lines.len() {
            return Err(format!(
                "{name}: the block opened on the last line is never closed"
            ));
        }
        if let Some(id) = abridged_id(lines[i]) {
            // An excerpt: `ID (variant), abridged:`, then numbered lines each of which must be
            // that step of the run (text as printed, spaces aside); other lines are comments.
            let start = i + 1;
            let Some(end) = (start..lines.len()).find(|&k| lines[k].trim_end() == "```") else {
                return Err(format!("{name}: a block at line {} is never closed", i + 1));
            };
            match runs.iter().find(|r| r.id == id) {
                None => unmatched.push(format!("{name}:{}: {id} (abridged)", i + 1)),
                Some(run) => {
                    let printed: Vec<String> = run
                        .failure
                        .as_ref()
                        .map_or("", |(_, t)| t.as_str())
                        .lines()
                        .map(squeeze)
                        .collect();
                    let missing: Vec<&str> = lines[start..end]
                        .iter()
                        .filter(|l| line_key(l).is_some())
                        .filter(|l| !printed.contains(&squeeze(l)))
                        .map(|l| l.trim())
                        .collect();
                    if missing.is_empty() {
                        same += 1;
                    } else {
                        // Not rewritten: an excerpt is chosen by hand.
                        differ += 1;
                        ok = false;
                        println!(
                            "{name}:{}: {id}: abridged trace has {} line(s) the run does not, first: {}",
                            i + 1,
                            missing.len(),
                            missing[0]
                        );
                    }
                }
            }
            continue;
        }
        if let Some(id) = trace_block_id(lines[i]) {
            // A trace block as the tests print it: `ID (variant):`, the failure, the trace,
            // `replay: ...`.
            let start = i + 1;
            let Some(end) = (start..lines.len())
                .find(|&k| lines[k].starts_with("  replay:") || lines[k].trim_end() == "```")
            else {
                return Err(format!("{name}: a block at line {} is never closed", i + 1));
            };
            out.push_str(lines[i]);
            let old: String = lines[start..end].concat();
            match runs.iter().find(|r| r.id == id) {
                None => {
                    unmatched.push(format!("{name}:{}: {id}", i + 1));
                    out.push_str(&old);
                }
                Some(run) if run.trace_block() == old => {
                    same += 1;
                    out.push_str(&old);
                }
                Some(run) => {
                    differ += 1;
                    println!(
                        "{name}:{}: {id}: trace {} ({})",
                        i + 1,
                        if write { "rewritten" } else { "differs" },
                        step_map(&old, &run.trace)
                    );
                    out.push_str(&run.trace_block());
                }
            }
            i = end;
            continue;
        }
        if !lines[i].starts_with("  variant ") {
            continue;
        }
        // A claim's block: header, figures, maybe a counterexample, up to the closing fence.
        let start = i;
        let Some(end) = (start..lines.len()).find(|&k| lines[k].trim_end() == "```") else {
            return Err(format!(
                "{name}: a block at line {} is never closed",
                start + 1
            ));
        };
        let header = lines[start].trim_end();
        let head = header.split(" | expected").next().unwrap_or(header);
        // A block is one run: a second header, a test's trace block or trace lines before any
        // `counterexample:` are a quote the check would not read.
        let cx_first = (start..end).find(|&k| lines[k].starts_with("  counterexample:"));
        if let Some(k) = (start + 1..cx_first.unwrap_or(end)).find(|&k| {
            lines[k].starts_with("  variant ")
                || trace_block_id(lines[k]).is_some()
                || line_key(lines[k]).is_some()
        }) {
            return Err(format!(
                "{name}:{}: the block of line {} holds more than one run's header and figures \
                 (a second header, a trace block or trace lines without `counterexample:`)",
                k + 1,
                start + 1
            ));
        }
        let matching: Vec<&Run> = runs.iter().filter(|r| r.header == head).collect();
        let cx_at = (start..end).find(|&k| lines[k].starts_with("  counterexample:"));
        let old_cx: String = cx_at.map_or(String::new(), |k| lines[k..end].concat());
        let Some(run) = matching.first() else {
            if cx_at.is_some() {
                unmatched.push(format!("{name}:{}: {}", start + 1, head.trim()));
            }
            out.push_str(&lines[start..end].concat());
            i = end;
            continue;
        };
        let mut body_lines: Vec<String> = lines[start..end].iter().map(|l| l.to_string()).collect();
        let figures = body_lines.get(1).cloned().unwrap_or_default();
        let want = format!(
            "  executions {} | complete {} |",
            run.executions, run.complete
        );
        // The expectation and the verdict are the run's too (a rewrite keeps neither stale).
        let quoted_expected = header.split(" | expected ").nth(1).unwrap_or("");
        let quoted_verdict = figures
            .trim_end()
            .rsplit(" | verdict ")
            .next()
            .unwrap_or("");
        if quoted_expected != run.expected || quoted_verdict != run.verdict {
            println!(
                "{name}:{}: {} quotes expected {quoted_expected} and verdict {quoted_verdict}, the run {} and {}{}",
                start + 1,
                head.trim(),
                run.expected,
                run.verdict,
                if write { " (rewritten)" } else { "" }
            );
            ok &= write;
            if write {
                body_lines[0] = format!("{head} | expected {}\n", run.expected);
                let upto = figures
                    .trim_end()
                    .rsplit_once(" | verdict ")
                    .map_or(figures.trim_end(), |(a, _)| a)
                    .to_string();
                // A new quote may hold only its header line: its figures line is added.
                while body_lines.len() < 2 {
                    body_lines.push(String::new());
                }
                body_lines[1] = format!("{upto} | verdict {}\n", run.verdict);
                changed = true;
            }
        }
        let figures = body_lines.get(1).cloned().unwrap_or_default();
        // proptest's count depends on the failures tests/regressions/ has kept (replayed
        // first), which grows: its figures are refreshed by --write, never a failure.
        let proptest = head.contains(" | proptest | ");
        if !figures.starts_with(&want) && body_lines.len() > 1 {
            println!(
                "{name}:{}: {} says `{}`, the report `{want}`{}",
                start + 2,
                head.trim(),
                figures.trim(),
                if write { " (rewritten)" } else { "" }
            );
            ok &= proptest || write;
            if write {
                let rest = figures
                    .splitn(3, " | ")
                    .nth(2)
                    .map_or("\n".to_string(), |r| r.to_string());
                body_lines[1] = format!("{want} {rest}");
                changed = true;
            }
        }
        let body: String = body_lines.concat();
        let new_cx = run.counterexample();
        // A block that quotes no counterexample (its trace is quoted elsewhere) gets none.
        if old_cx == new_cx || cx_at.is_none() {
            same += 1;
            out.push_str(&body);
        } else {
            differ += 1;
            println!(
                "{name}:{}: {}: counterexample {} ({})",
                start + 1,
                head.trim(),
                if write { "rewritten" } else { "differs" },
                step_map(&old_cx, &run.trace)
            );
            let keep = cx_at.map_or(end - start, |k| k - start);
            out.push_str(&body_lines[..keep].concat());
            out.push_str(&new_cx);
        }
        i = end;
    }
    if open {
        return Err(format!(
            "{name}: a fenced block is still open at the end of the file"
        ));
    }
    if write && (differ > 0 || changed) {
        std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok((same, differ, unmatched, ok))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same line tests/trace.rs pins for `trace::write_trace`: a change of the runner's
    /// layout fails one of the two tests instead of passing every quote unnoticed.
    #[test]
    fn trace_lines_are_laid_out_as_the_runner_prints_them() {
        let report: Value = serde_json::from_str(
            r#"{"id": "x.1", "variant": "v", "model": "m", "checker": "loom", "bound": "unbounded",
                "config_debug_vm": true, "executions": 1, "complete": false,
                "expected": {"bug": "BUG_ON"}, "verdict": {"bug": "BUG_ON"},
                "failure": {"cause": {"kernel": "BUG_ON"}, "message": "c", "func": "g",
                  "trace": [{"step": 12, "cpu": 1, "func": "spin_lock",
                             "event": "zone->lru_lock taken"}]}}"#,
        )
        .unwrap();
        let rs = runs(&report).unwrap();
        assert_eq!(
            rs[0].trace_block(),
            "  BUG_ON: c\n   12. CPU1  spin_lock                    zone->lru_lock taken\n"
        );
    }

    /// A store-buffer report's header is the runner's (the report names the checker as the
    /// runner prints it: claims/table/mod.rs, CheckerKind).
    #[test]
    fn a_store_buffer_report_has_the_runner_header() {
        let report: Value = serde_json::from_str(
            r#"{"id": "x.1-sb", "variant": "v", "model": "m", "checker": "store-buffer",
                "bound": null, "config_debug_vm": false, "executions": 10000, "complete": false,
                "expected": "safe", "verdict": "safe"}"#,
        )
        .unwrap();
        let rs = runs(&report).unwrap();
        assert_eq!(
            rs[0].header,
            "  variant v | model m | store-buffer | CONFIG_DEBUG_VM=n | bound -"
        );
    }

    #[test]
    fn trace_lines_are_keyed_without_steps_and_notes() {
        assert_eq!(
            line_key("   12. CPU1  unlock_page                  page 1 unlocked [weak memory: x]"),
            Some((
                "CPU1".into(),
                "unlock_page".into(),
                "page 1 unlocked".into()
            ))
        );
        let old = "  counterexample: BUG_ON: x\n    1. main  f  a\n    2. CPU0  g  b\n";
        let new = vec![
            ("main".to_string(), "f".to_string(), "a".to_string()),
            (
                "CPU0".to_string(),
                "spin_lock".to_string(),
                "l taken".to_string(),
            ),
            ("CPU0".to_string(), "g".to_string(), "b".to_string()),
        ];
        assert_eq!(step_map(old, &new), "steps moved: 2->3");
        assert_eq!(
            trace_block_id("vma.reuse-5beb4930 (5beb4930):\n"),
            Some("vma.reuse-5beb4930")
        );
        assert_eq!(trace_block_id("see (this):"), None);
    }

    /// A proof with one `verify` block and one trace block, each rewritten from the report and
    /// found the same afterwards; the block after them and prose are left alone.
    #[test]
    fn blocks_are_checked_and_rewritten() {
        let dir = std::env::temp_dir().join(format!("proof-traces-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let proof = dir.join("x.1.md");
        let text = "text\n```\n  variant v | model m | loom | CONFIG_DEBUG_VM=y | bound none | expected BUG (BUG_ON)\n  executions 3 | complete false | 0.00s | verdict bug (BUG_ON)\n  counterexample: BUG_ON: old\n    1. main  f                            a\n```\n```\nx.1-v (v):\n  BUG_ON: old\n    1. main  f                            a\n  replay: r\n```\n```rust\n  variant not a block\n```\n";
        std::fs::write(&proof, text).unwrap();
        let report: Value = serde_json::from_str(
            r#"{"id": "x.1-v", "variant": "v", "model": "m", "checker": "loom", "bound": "unbounded",
                "config_debug_vm": true, "executions": 3, "complete": false,
                "expected": {"bug": "BUG_ON"}, "verdict": {"bug": "BUG_ON"},
                "failure": {"cause": {"kernel": "BUG_ON"}, "message": "c", "func": "g",
                  "trace": [{"step": 1, "cpu": null, "func": "f", "event": "a"},
                            {"step": 2, "cpu": 0, "func": "g", "event": "*** BUG_ON: c"}]}}"#,
        )
        .unwrap();
        let rs = runs(&report).unwrap();
        let (same, differ, unmatched, ok) = check_file(&proof, &rs, true).unwrap();
        assert_eq!((same, differ, unmatched.len(), ok), (0, 2, 0, true));
        let after = std::fs::read_to_string(&proof).unwrap();
        assert!(
            after.contains("  counterexample: BUG_ON: c\n    1. main  f"),
            "{after}"
        );
        assert!(after.contains("    2. CPU0  g                            *** BUG_ON: c\n```"));
        assert!(after.contains("x.1-v (v):\n  BUG_ON: c\n"), "{after}");
        assert!(after.contains("  replay: r\n```\n```rust\n  variant not a block\n```\n"));
        let (same, differ, _, ok) = check_file(&proof, &rs, false).unwrap();
        assert_eq!((same, differ, ok), (2, 0, true));
        // An excerpt passes when each of its numbered lines is that step of the run.
        let good = "```\nx.1-v (v), abridged:\n  ... the setup\n  2. CPU0 g *** BUG_ON: c\n```\n";
        std::fs::write(&proof, good).unwrap();
        let (same, differ, _, ok) = check_file(&proof, &rs, false).unwrap();
        assert_eq!((same, differ, ok), (1, 0, true));
        std::fs::write(&proof, good.replace("2. CPU0", "3. CPU0")).unwrap();
        let (same, differ, _, ok) = check_file(&proof, &rs, true).unwrap();
        assert_eq!((same, differ, ok), (0, 1, false));
        // A quoted expectation or verdict the run does not give fails the check.
        std::fs::write(
            &proof,
            text.replace("expected BUG (BUG_ON)", "expected SAFE"),
        )
        .unwrap();
        let (_, _, _, ok) = check_file(&proof, &rs, false).unwrap();
        assert!(!ok);
        // A block never closed, and a block holding two runs, are errors.
        std::fs::write(&proof, "```\n  variant v\n").unwrap();
        assert!(check_file(&proof, &rs, false).is_err());
        let two = "```\n  variant v | model m | loom | CONFIG_DEBUG_VM=y | bound none | expected SAFE\n  executions 3 | complete false | 0.00s | verdict safe\n  variant v | model m\n```\n";
        std::fs::write(&proof, two).unwrap();
        assert!(check_file(&proof, &rs, false)
            .unwrap_err()
            .contains("more than one run"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
