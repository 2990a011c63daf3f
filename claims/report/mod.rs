//! What a run of a claim (or of a matrix cell) reports, and its renderings: the verdict table
//! (Markdown, which the terminal shows as is), the counterexample traces (swimlanes when the
//! terminal is wide enough, a numbered list otherwise), the matrix, JSON, and the HTML page
//! (`html`).

pub mod html;
pub mod swimlane;

use crate::explore::{effective_checker, judge, meets, Job, RunSettings, Verdict};
use crate::matrix::Cell;
use crate::table::{Bound, CheckerKind, Claim, Expected};
use mmcheck::checker::Exploration;
use mmcheck::trace::{write_trace, Event, Failure};
use mmcheck::variant::Area;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// One claim's line of the report (`verify --json` writes a list of these).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ClaimReport {
    pub id: String,
    pub area: Area,
    pub statement: String,
    pub variant: String,
    pub model: String,
    pub checker: CheckerKind,
    /// loom: the bound used.
    pub bound: Option<Bound>,
    pub config_debug_vm: bool,
    pub expected: Expected,
    pub verdict: Verdict,
    /// The verdict meets the expectation.
    pub matches: bool,
    pub executions: u64,
    /// loom: every interleaving within the bound was explored.
    pub complete: bool,
    pub seconds: f64,
    /// The counterexample of a BUG verdict (or the harness failure of an error).
    pub failure: Option<Failure>,
    /// A checker error.
    pub error: Option<String>,
    /// Resumed from a loom checkpoint. Without `before`, `executions` and `seconds` count from
    /// the checkpoint on (it was written without a record of the runs before it).
    pub resumed: bool,
    /// Resumed from a checkpoint that records the runs before it: their executions and
    /// seconds, which `executions` and `seconds` include.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Before>,
    /// The command that reproduces this run.
    pub replay: String,
    pub proof: String,
    /// loom with `--shard`: the share of the claim's tree this report covers, or (after
    /// `verify --merge`) the shards it joins.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shards: Option<Shards>,
}

/// What the runs before a resumed checkpoint did, as the checkpoint records it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Before {
    /// Executions (probes of other shards' prefixes not counted).
    pub executions: u64,
    /// Wall seconds, the runs added up, each up to its last checkpoint (what a killed run
    /// spent after it is not counted; those executions run again after the resume).
    pub seconds: f64,
}

/// The sharding of a claim's report (`verify --shard K/N`, `verify --merge`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shards {
    /// This shard (1-based); None in a merged report, which joins all `count`.
    pub index: Option<u64>,
    pub count: u64,
    /// Choice points in a prefix.
    pub depth: usize,
    /// Prefixes walked (the same in every shard of a claim).
    pub prefixes: u64,
    /// Executions run only to reach another shard's prefix (summed when merged); not in
    /// `executions`.
    pub probes: u64,
    /// The slowest shard's seconds: the wall time with one machine per shard.
    pub slowest_seconds: f64,
}

impl Shards {
    /// "shard 2/4" or "4 shards".
    pub fn label(&self) -> String {
        match self.index {
            Some(k) => format!("shard {k}/{}", self.count),
            None => format!("{} shards", self.count),
        }
    }
}

impl ClaimReport {
    pub fn new(c: &'static Claim, s: &RunSettings, e: &Exploration, resumed: bool) -> Self {
        let checker = effective_checker(&Job::of(c), s);
        let verdict = judge(e, &checker);
        let bound = match checker {
            crate::table::Checker::Loom { bound } => Some(bound),
            _ => None,
        };
        let replay = match checker.kind() {
            CheckerKind::Loom => format!(
                "cargo xtask verify --claim {} --bound {}{}",
                c.id,
                bound.map_or("none".to_string(), |b| b.to_string()),
                s.shard.map_or(String::new(), |sh| format!(
                    " --shard {}/{} --shard-depth {}",
                    sh.index, sh.count, sh.depth
                ))
            ),
            CheckerKind::Shuttle => match &e.schedule_file {
                Some(f) => format!(
                    "schedule {f} (cargo xtask soak --area {} saves a replayable file)",
                    c.area()
                ),
                None => format!("cargo xtask soak --area {} --seeds {}", c.area(), s.seed),
            },
            CheckerKind::StoreBuffer => format!(
                "cargo test --release --features store-buffer --test {} -- --exact {}",
                c.area(),
                c.test_name()
            ),
            CheckerKind::Proptest | CheckerKind::Enumerate => format!(
                "cargo test --test {} -- --exact {}",
                c.area(),
                c.test_name()
            ),
        };
        ClaimReport {
            id: c.id.to_string(),
            area: c.area(),
            statement: c.statement.to_string(),
            variant: c.variant.to_string(),
            model: c.model.to_string(),
            checker: checker.kind(),
            bound,
            config_debug_vm: c.config_debug_vm,
            expected: c.expected,
            verdict,
            matches: meets(c.expected, verdict),
            executions: e.executions,
            complete: e.complete,
            seconds: e.seconds,
            failure: e.failure.clone(),
            error: e.error.clone(),
            resumed,
            before: None,
            replay,
            proof: c.proof(),
            shards: e.shard.map(|r| Shards {
                index: Some(r.shard.index),
                count: r.shard.count,
                depth: r.shard.depth,
                prefixes: r.prefixes,
                probes: r.probes,
                slowest_seconds: e.seconds,
            }),
        }
    }
}

/// The verdict table (Markdown).
pub fn table(rs: &[ClaimReport]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| claim | variant | checker | bound | executions | complete | seconds | expected | verdict | |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
    for r in rs {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {:.2} | {} | {} | {} |",
            r.id,
            r.variant,
            r.checker,
            match (&r.bound, &r.shards) {
                (None, _) => "-".to_string(),
                (Some(b), None) => b.to_string(),
                (Some(b), Some(sh)) => format!("{b} ({})", sh.label()),
            },
            r.executions,
            if r.complete { "yes" } else { "no" },
            r.seconds,
            r.expected,
            r.verdict,
            if r.matches { "" } else { "**MISMATCH**" }
        );
    }
    s
}

/// A trace for a terminal `width` columns wide: lanes per CPU when they fit, else (or with no
/// width) the numbered list.
pub fn trace_text(trace: &[Event], width: Option<usize>) -> String {
    if let Some(t) = width.and_then(|w| swimlane::text(trace, w)) {
        return t;
    }
    let mut s = String::new();
    let _ = write_trace(&mut s, trace);
    s
}

/// Each counterexample (and each error) with its replay command.
pub fn traces(rs: &[ClaimReport], width: Option<usize>) -> String {
    let mut s = String::new();
    for r in rs
        .iter()
        .filter(|r| r.failure.is_some() || r.error.is_some())
    {
        let _ = writeln!(s, "\n{} ({}):", r.id, r.variant);
        if let Some(f) = &r.failure {
            let _ = writeln!(s, "  {}: {}", f.cause, f.message);
            s.push_str(&trace_text(&f.trace, width));
        }
        if let Some(e) = &r.error {
            let _ = writeln!(s, "  checker error: {e}");
        }
        let _ = writeln!(s, "  replay: {}", r.replay);
    }
    s
}

/// The Markdown report: the table and every counterexample.
pub fn markdown(rs: &[ClaimReport]) -> String {
    let mut s = format!("# mmcheck verify\n\n{}\n", table(rs));
    for r in rs.iter().filter(|r| r.failure.is_some()) {
        let f = r.failure.as_ref().expect("filtered");
        let _ = write!(
            s,
            "\n## {} — {}\n\n{}: {}\n\n```\n",
            r.id, r.variant, f.cause, f.message
        );
        let _ = write_trace(&mut s, &f.trace);
        let _ = writeln!(s, "```\n\nReplay: `{}`", r.replay);
    }
    s
}

/// A one-paragraph report of one claim's run (what the generated tests print).
pub fn paragraph(r: &ClaimReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "claim {}: {}", r.id, r.statement);
    let _ = writeln!(
        s,
        "  variant {} | model {} | {} | CONFIG_DEBUG_VM={} | bound {} | expected {}",
        r.variant,
        r.model,
        r.checker,
        if r.config_debug_vm { "y" } else { "n" },
        r.bound.map_or("-".to_string(), |b| b.to_string()),
        r.expected
    );
    let _ = writeln!(
        s,
        "  executions {} | complete {} | {:.2}s | verdict {}",
        r.executions, r.complete, r.seconds, r.verdict
    );
    s.push_str(&traces(std::slice::from_ref(r), None));
    s
}

/// One matrix cell's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CellReport {
    pub area: Area,
    pub model: String,
    pub variant: String,
    /// The claim that states the cell's expectation (None: a new cell).
    pub claim: Option<String>,
    pub bound: Bound,
    pub config_debug_vm: bool,
    pub expected: Option<Expected>,
    pub verdict: Verdict,
    /// None for a new cell (no expectation to meet).
    pub matches: Option<bool>,
    pub executions: u64,
    pub complete: bool,
    pub seconds: f64,
    pub failure: Option<Failure>,
    pub error: Option<String>,
    pub replay: String,
}

impl CellReport {
    pub fn new(c: &Cell, e: &Exploration) -> Self {
        let verdict = judge(e, &c.job.checker);
        let bound = c.job.checker.bound().unwrap_or(Bound::Unbounded);
        CellReport {
            area: c.area,
            model: c.model.to_string(),
            variant: c.variant.to_string(),
            claim: c.claim.map(|cl| cl.id.to_string()),
            bound,
            config_debug_vm: c.job.config_debug_vm,
            expected: c.expected(),
            verdict,
            matches: c.expected().map(|x| meets(x, verdict)),
            executions: e.executions,
            complete: e.complete,
            seconds: e.seconds,
            failure: e.failure.clone(),
            error: e.error.clone(),
            replay: match c.claim {
                Some(cl) => format!("cargo xtask verify --claim {} --bound {bound}", cl.id),
                None => format!("cargo xtask verify --variant {}", c.variant),
            },
        }
    }

    /// The cell's text in the matrix.
    pub fn cell_text(&self) -> String {
        match (self.expected, self.matches) {
            (Some(_), Some(true)) => format!("{} ✓", self.verdict),
            (Some(x), _) => format!("✗ {} (expected {x})", self.verdict),
            (None, _) => format!("new: {}", self.verdict),
        }
    }
}

/// One area's part of a matrix: its cells, and its variants (columns) and models (rows) in the
/// order the cells came.
pub struct MatrixArea<'a> {
    pub area: Area,
    pub cells: Vec<&'a CellReport>,
    pub variants: Vec<&'a str>,
    pub models: Vec<&'a str>,
}

impl<'a> MatrixArea<'a> {
    /// The cell of `model` on `variant`, if run.
    pub fn cell(&self, model: &str, variant: &str) -> Option<&'a CellReport> {
        self.cells
            .iter()
            .find(|c| c.model == model && c.variant == variant)
            .copied()
    }
}

/// The cells grouped by area, in order.
pub fn matrix_areas(cells: &[CellReport]) -> Vec<MatrixArea<'_>> {
    let mut out: Vec<MatrixArea<'_>> = Vec::new();
    for c in cells {
        if out.last().is_none_or(|a| a.area != c.area) {
            out.push(MatrixArea {
                area: c.area,
                cells: Vec::new(),
                variants: Vec::new(),
                models: Vec::new(),
            });
        }
        let a = out.last_mut().expect("pushed");
        a.cells.push(c);
        if !a.variants.contains(&c.variant.as_str()) {
            a.variants.push(&c.variant);
        }
        if !a.models.contains(&c.model.as_str()) {
            a.models.push(&c.model);
        }
    }
    out
}

/// The matrix (Markdown), one table per area: models are rows, variants columns.
pub fn matrix(cells: &[CellReport]) -> String {
    let mut s = String::new();
    for m in matrix_areas(cells) {
        let _ = writeln!(s, "\n{}: models x variants\n", m.area);
        let _ = writeln!(s, "| model | {} |", m.variants.join(" | "));
        let _ = writeln!(s, "|---|{}", "---|".repeat(m.variants.len()));
        for model in &m.models {
            let row: Vec<String> = m
                .variants
                .iter()
                .map(|v| m.cell(model, v).map_or("-".to_string(), |c| c.cell_text()))
                .collect();
            let _ = writeln!(s, "| {model} | {} |", row.join(" | "));
        }
    }
    s
}
