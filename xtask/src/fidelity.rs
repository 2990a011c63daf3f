//! `cargo xtask fidelity`: the kernel's C (`kernel/`) beside the Rust, statement by statement
//! (`mmcheck-fidelity`). Exit 0 when every C statement of every modelled function of every
//! kernel variant is mirrored or marked `LEFT OUT`, and every Rust statement of kernel code is
//! matched or marked `MODEL`; 1 otherwise; 2 on bad input.

use crate::run::root;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// Only this kernel variant (`27c73ae7`, `linux-2.6.37`, `lee-v1`).
    #[arg(long, value_name = "ID")]
    variant: Option<String>,
    /// Print the functions side by side (C | Rust; `!!` marks a row that breaks a rule).
    #[arg(long)]
    show: bool,
    /// With --show: only this kernel function.
    #[arg(long, value_name = "NAME", requires = "show")]
    function: Option<String>,
    /// Write the report as a self-contained HTML page.
    #[arg(long, value_name = "PATH")]
    html: Option<PathBuf>,
    /// Write the report as JSON.
    #[arg(long, value_name = "PATH")]
    json: Option<PathBuf>,
}

pub fn run(a: &Args) -> u8 {
    for p in [&a.html, &a.json].into_iter().flatten() {
        if let Some(d) = p
            .parent()
            .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
        {
            eprintln!(
                "xtask fidelity: cannot write {}: no directory {}",
                p.display(),
                d.display()
            );
            return 2;
        }
    }
    let r = match mmcheck_fidelity::check(&root(), a.variant.as_deref()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xtask fidelity: {e}");
            return 2;
        }
    };
    print!("{}", mmcheck_fidelity::table(&r));
    if a.show {
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(160);
        for v in &r.variants {
            for f in v
                .functions
                .iter()
                .filter(|f| a.function.as_ref().is_none_or(|n| *n == f.function))
            {
                println!("\n[{}] {}", v.id, mmcheck_fidelity::side_by_side(f, width));
            }
        }
    }
    for v in &r.variants {
        if !v.rust_without_c.is_empty() {
            println!(
                "{}: Rust with no C stored for this version (unverified): {}",
                v.id,
                v.rust_without_c.join("; ")
            );
        }
        if !v.pending.is_empty() {
            println!(
                "{}: C held for models still to come: {}",
                v.id,
                v.pending.join(", ")
            );
        }
    }
    let problems = mmcheck_fidelity::problem_lines(&r);
    for p in &problems {
        println!("{p}");
    }
    if let Some(p) = &a.json {
        let text = serde_json::to_string_pretty(&r).expect("the report serializes");
        if let Err(e) = std::fs::write(p, text) {
            eprintln!("xtask fidelity: cannot write {}: {e}", p.display());
            return 2;
        }
    }
    if let Some(p) = &a.html {
        let page = format!(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>mmcheck fidelity</title><style>body{{font-family:sans-serif}} table{{border-collapse:collapse}} td,th{{border:1px solid #ccc;padding:2px 6px;vertical-align:top}} tr.fail td{{background:#fdd}} code{{white-space:pre-wrap}}</style></head><body>{}</body></html>",
            mmcheck_fidelity::html(&r)
        );
        if let Err(e) = std::fs::write(p, page) {
            eprintln!("xtask fidelity: cannot write {}: {e}", p.display());
            return 2;
        }
    }
    println!(
        "fidelity: {} variant(s), {} problem(s)",
        r.variants.len(),
        problems.len()
    );
    u8::from(!problems.is_empty())
}
