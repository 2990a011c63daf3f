//! The HTML report tested in a real browser: `verify --html` on claims whose counterexamples
//! span one to three CPUs, rendered by headless Chromium (Debian's `chromium`; `.ci/run`
//! installs it when missing). The checks read the DOM Chromium built and the screenshot it
//! took: every counterexample has one swimlane column per CPU of its trace plus the setup
//! thread, the failing step is marked, the replay command is beside it, and the screenshot is
//! a real rendering (a PNG of the window's size, not a blank page).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Claims whose counterexamples run on two CPUs besides the setup thread, one of them a data
/// race reported by loom itself (its failing step on the racing CPU's lane, the other side on
/// the other CPU's).
const CLAIMS: [&str; 3] = ["compound.3", "lru.2", "vma.2"];
const WIDTH: u32 = 1400;
const HEIGHT: u32 = 2400;

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// Chromium headless with the flags this machine needs (no sandbox as root, no background
/// networking on a closed network, a fresh profile).
fn headless(bin: &Path, profile: &Path) -> Command {
    let mut c = Command::new(bin);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// The attribute `name="…"` of the tag that starts at `tag`.
fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!("{name}=\"");
    let i = tag.find(&key)? + key.len();
    let end = tag[i..].find('"')? + i;
    Some(tag[i..end].to_string())
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    Some((be(&bytes[16..20]), be(&bytes[20..24])))
}

/// Run the test: `bin` is the loom build of the runner, `dir` a scratch folder.
pub fn test(bin: &Path, dir: &Path) -> Result<String, String> {
    let chrome = chromium().ok_or(
        "no Chromium found: install Debian's `chromium` package (.ci/run does it when missing)",
    )?;
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let html = dir.join("report.html");
    let json = dir.join("report.json");
    let mut run = Command::new(bin);
    run.args(["verify", "--no-progress"]);
    for c in CLAIMS {
        run.args(["--claim", c]);
    }
    run.arg("--html").arg(&html).arg("--json").arg(&json);
    let out = run
        .output()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!(
            "verify --html failed:\n{}",
            String::from_utf8_lossy(&out.stdout)
        ));
    }
    let profile = dir.join("chromium-profile");
    let url = format!("file://{}", html.display());
    let dom = headless(&chrome, &profile)
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .map_err(|e| format!("chromium: {e}"))?;
    let dom = String::from_utf8_lossy(&dom.stdout).to_string();
    reviewer_order(&dom)?;
    let shot = dir.join("report.png");
    let status = headless(&chrome, &profile)
        .arg(format!("--window-size={WIDTH},{HEIGHT}"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url)
        .output()
        .map_err(|e| format!("chromium: {e}"))?;
    if !status.status.success() {
        return Err(format!(
            "chromium --screenshot failed: {}",
            String::from_utf8_lossy(&status.stderr)
        ));
    }

    // The DOM: one section per counterexample, as many lanes as its trace has CPUs + setup.
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&json).map_err(|e| format!("{}: {e}", json.display()))?,
    )
    .map_err(|e| format!("report.json: {e}"))?;
    let mut checked = Vec::new();
    for r in report.as_array().ok_or("report.json is not a list")? {
        let id = r["id"].as_str().unwrap_or_default();
        let Some(trace) = r["failure"]["trace"].as_array() else {
            continue;
        };
        let mut cpus: Vec<u64> = trace.iter().filter_map(|e| e["cpu"].as_u64()).collect();
        cpus.sort_unstable();
        cpus.dedup();
        let has_main = trace.iter().any(|e| e["cpu"].is_null());
        let want_lanes = cpus.len() + usize::from(has_main);
        let marker = format!("data-id=\"{id}\"");
        let start = dom
            .find(&marker)
            .ok_or_else(|| format!("the page has no counterexample section for {id}"))?;
        let section_start = dom[..start].rfind("<section").unwrap_or(start);
        let end = dom[start..]
            .find("</section>")
            .map_or(dom.len(), |e| start + e);
        let section = &dom[section_start..end];
        let tag_end = section.find('>').unwrap_or(section.len());
        let tag = &section[..tag_end];
        let lanes: usize = attr(tag, "data-lanes")
            .and_then(|l| l.parse().ok())
            .ok_or_else(|| format!("{id}: no data-lanes"))?;
        let declared_cpus: usize = attr(tag, "data-cpus")
            .and_then(|l| l.parse().ok())
            .ok_or_else(|| format!("{id}: no data-cpus"))?;
        let columns = section.matches("<th class=\"lane\"").count();
        let rows = section.matches("<tr class=\"step").count();
        let failing = section.matches("class=\"step failing\"").count();
        if columns != want_lanes || lanes != want_lanes || declared_cpus != cpus.len() {
            return Err(format!(
                "{id}: {columns} swimlane columns (data-lanes {lanes}, data-cpus {declared_cpus}); its trace has {} CPU(s){}",
                cpus.len(),
                if has_main { " and the setup thread" } else { "" }
            ));
        }
        if rows != trace.len() || failing != 1 {
            return Err(format!(
                "{id}: {rows} rows for {} steps, {failing} failing step(s) marked",
                trace.len()
            ));
        }
        if !section.contains("class=\"replay\"") {
            return Err(format!("{id}: no replay command beside the counterexample"));
        }
        checked.push(format!(
            "{id}: {columns} lanes ({} CPUs + setup), {rows} steps",
            cpus.len()
        ));
    }
    if checked.len() != CLAIMS.len() {
        return Err(format!(
            "{} counterexamples checked, {} expected",
            checked.len(),
            CLAIMS.len()
        ));
    }

    // The screenshot: the window's size, and not one flat colour (a real rendering).
    let png = std::fs::read(&shot).map_err(|e| format!("{}: {e}", shot.display()))?;
    let (w, h) = png_size(&png).ok_or("the screenshot is not a PNG")?;
    if (w, h) != (WIDTH, HEIGHT) {
        return Err(format!("the screenshot is {w}x{h}, not {WIDTH}x{HEIGHT}"));
    }
    // A blank page compresses to a few kilobytes; the report with tables and lanes does not.
    const MIN_BYTES: usize = 50_000;
    if png.len() < MIN_BYTES {
        return Err(format!(
            "the screenshot has only {} bytes: a blank page?",
            png.len()
        ));
    }
    Ok(format!(
        "{}; screenshot {} ({w}x{h}, {} bytes)",
        checked.join("; "),
        shot.display(),
        png.len()
    ))
}

/// The page leads with what the reviewer asked for: verdicts, then counterexamples, then the
/// background; the safeguards are folded and hold only the page's variants (and their
/// parents); every table-of-contents link has its section.
fn reviewer_order(dom: &str) -> Result<(), String> {
    let at = |id: &str| {
        dom.find(&format!("id=\"{id}\""))
            .ok_or_else(|| format!("the page has no section #{id}"))
    };
    let (v, c, g) = (at("verdicts")?, at("counterexamples")?, at("safeguards")?);
    if !(v < c && c < g) {
        return Err("sections out of order: want verdicts, counterexamples, safeguards".into());
    }
    if !dom[g..].contains("<details class=\"safeguards\"") {
        return Err("the safeguard table is not folded".into());
    }
    // The C beside the Rust of the page's kernel variants, after the safeguards.
    let f = at("fidelity")?;
    if f < g || !dom[f..].contains("id=\"fid-744ed144\"") {
        return Err("no fidelity section of the page's variants after the safeguards".into());
    }
    let toc_start = dom
        .find("<nav class=\"toc\">")
        .ok_or("no table of contents")?;
    let toc_end = dom[toc_start..]
        .find("</nav>")
        .map_or(dom.len(), |e| toc_start + e);
    for part in dom[toc_start..toc_end].split("href=\"#").skip(1) {
        let id = part.split('"').next().unwrap_or_default();
        at(id)?;
    }
    // Only the page's variants (compound.3: 7cb2ef56; lru.2: 744ed144; vma.2: lee-v1) and their
    // parents: no variant the page does not show (27c73ae7 is none of them).
    let table = &dom[g..];
    if table.contains("<td>27c73ae7</td>") {
        return Err("the safeguard table holds a variant the page does not show".into());
    }
    Ok(())
}
