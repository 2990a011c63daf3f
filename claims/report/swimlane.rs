//! A counterexample as swimlanes: one column per CPU (and one for the scenario's setup and
//! final checks on the main thread), one row per step in execution order. The terminal shows
//! it when the lanes fit; `report::html` draws the same lanes.

use mmcheck::trace::Event;
use std::fmt::Write;

/// The lanes of a trace: the main thread first (if it took a step), then each CPU in order.
pub fn lanes(trace: &[Event]) -> Vec<Option<usize>> {
    let mut cpus: Vec<usize> = trace.iter().filter_map(|e| e.cpu).collect();
    cpus.sort_unstable();
    cpus.dedup();
    let mut out = Vec::new();
    if trace.iter().any(|e| e.cpu.is_none()) {
        out.push(None);
    }
    out.extend(cpus.into_iter().map(Some));
    out
}

/// A lane's heading.
pub fn lane_name(lane: Option<usize>) -> String {
    lane.map_or("setup (main)".to_string(), |c| format!("CPU{c}"))
}

/// Is this the step where the check broke (`trace::fail` records it last, marked `***`)?
pub fn is_failing(e: &Event) -> bool {
    e.event.starts_with("*** ")
}

/// The narrowest lane worth drawing.
const MIN_LANE: usize = 28;
/// The step-number column.
const STEP: usize = 5;

/// Wrap `text` into lines of at most `width` characters, at spaces where it can.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        // a word longer than a line is cut
        while word.len() > width {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            lines.push(word.drain(..width).collect());
        }
        let word: String = word.into_iter().collect();
        let need = if line.is_empty() { 0 } else { 1 } + word.chars().count();
        if line.chars().count() + need > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The trace in lanes for a terminal `width` columns wide, or None when the lanes do not fit
/// (the caller prints the numbered list instead).
pub fn text(trace: &[Event], width: usize) -> Option<String> {
    let lanes = lanes(trace);
    if lanes.is_empty() {
        return None;
    }
    let lane_w = (width.saturating_sub(STEP + 2) / lanes.len()).saturating_sub(1);
    if lane_w < MIN_LANE {
        return None;
    }
    let mut s = String::new();
    let _ = write!(s, "  {:>STEP$}", "");
    for l in &lanes {
        let _ = write!(s, " {:<lane_w$}", lane_name(*l));
    }
    s.push('\n');
    let _ = write!(s, "  {:>STEP$}", "");
    for _ in &lanes {
        let _ = write!(s, " {}", "-".repeat(lane_w));
    }
    s.push('\n');
    for e in trace {
        let col = lanes.iter().position(|l| *l == e.cpu).unwrap_or(0);
        let cell = format!("{}: {}", e.func, e.event);
        let mark = if is_failing(e) { ">>" } else { "  " };
        for (i, line) in wrap(&cell, lane_w).iter().enumerate() {
            if i == 0 {
                let _ = write!(s, "{mark}{:>STEP$}", format!("{}.", e.step));
            } else {
                let _ = write!(s, "  {:>STEP$}", "");
            }
            for c in 0..lanes.len() {
                let text = if c == col { line.as_str() } else { "" };
                let _ = write!(s, " {text:<lane_w$}");
            }
            s.truncate(s.trim_end().len());
            s.push('\n');
        }
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmcheck::trace::Event;

    fn ev(step: usize, cpu: Option<usize>, event: &str) -> Event {
        Event {
            step,
            cpu,
            func: "f".into(),
            event: event.to_string(),
            lock: None,
        }
    }

    #[test]
    fn wraps_at_spaces_and_cuts_long_words() {
        assert_eq!(wrap("aa bb cc", 5), vec!["aa bb", "cc"]);
        assert_eq!(wrap("abcdefgh", 3), vec!["abc", "def", "gh"]);
        assert_eq!(wrap("", 4), vec![""]);
    }

    #[test]
    fn one_lane_per_cpu_plus_main_and_the_failing_step_marked() {
        let t = vec![
            ev(1, None, "setup"),
            ev(2, Some(1), "x"),
            ev(3, Some(0), "y"),
            ev(4, Some(1), "*** oops: z"),
        ];
        assert_eq!(lanes(&t), vec![None, Some(0), Some(1)]);
        let s = text(&t, 120).expect("fits");
        assert!(s.contains("setup (main)") && s.contains("CPU0") && s.contains("CPU1"));
        assert!(s
            .lines()
            .any(|l| l.starts_with(">>") && l.contains("*** oops")));
        assert!(
            text(&t, 40).is_none(),
            "too narrow: the list is printed instead"
        );
    }
}
