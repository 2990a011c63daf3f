//! `cargo xtask bench`: the three benchmarks in one run, then the ratios beside the seeds'
//! figures. The times come from criterion's estimates (`target/criterion/.../new/
//! estimates.json`, mean), the lock counts from the lru benchmark's own line.

use std::path::Path;
use std::process::Command;

fn mean_ns(root: &Path, group: &str, id: &str, threads: u32) -> Result<f64, String> {
    let p = root
        .join("target/criterion")
        .join(group)
        .join(id)
        .join(threads.to_string())
        .join("new/estimates.json");
    let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    v["mean"]["point_estimate"]
        .as_f64()
        .ok_or_else(|| format!("{}: no mean", p.display()))
}

/// Run the benchmarks and print the ratios.
pub fn run(root: &Path, mut cargo: Command) -> Result<(), String> {
    cargo.args([
        "bench", "-p", "mmcheck", "--bench", "compound", "--bench", "lru", "--bench", "vma",
    ]);
    let out = cargo.output().map_err(|e| format!("cargo bench: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("cargo bench failed:\n{stderr}"));
    }
    let g = "get_put_hugetlbfs_tail";
    println!("\ncompound (S1): get_page + put_page on a hugetlbfs tail, ns per pair");
    println!("| variant | 1 thread | 2 threads (same page) |\n|---|---|---|");
    let mut t = std::collections::HashMap::new();
    for id in ["linux-3.11", "7cb2ef56", "27c73ae7", "floor"] {
        let a = mean_ns(root, g, id, 1)?;
        let b = mean_ns(root, g, id, 2)?;
        println!("| {id} | {a:.1} | {b:.1} |");
        t.insert(id, (a, b));
    }
    let r = |x: &str, y: &str, i: usize| {
        let (a, b) = (t[x], t[y]);
        if i == 1 {
            a.0 / b.0
        } else {
            a.1 / b.1
        }
    };
    println!(
        "7cb2ef56 vs the locked path: {:.2}x (1 thread), {:.2}x (2 threads); 27c73ae7 gives back {:.2}x / {:.2}x; 7cb2ef56 / floor {:.2}x / {:.2}x",
        r("linux-3.11", "7cb2ef56", 1),
        r("linux-3.11", "7cb2ef56", 2),
        r("27c73ae7", "7cb2ef56", 1),
        r("27c73ae7", "7cb2ef56", 2),
        r("7cb2ef56", "floor", 1),
        r("7cb2ef56", "floor", 2),
    );
    println!("  seed: 7cb2ef56 took 64K aio reads 4251 -> 6510 MB/s (+53%), 1M +29%; 27c73ae7 cost 4.5-13.8% (whole I/O path, not these two calls)");

    println!("\nlru (S2): activate_page through one zone lru_lock, ns per activated page");
    for line in stderr
        .lines()
        .filter(|l| l.contains("lru_lock acquisitions"))
    {
        println!("  {line}");
    }
    let g = "activate_page";
    let (u1, u2) = (
        mean_ns(root, g, "linux-2.6.37", 1)?,
        mean_ns(root, g, "linux-2.6.37", 2)?,
    );
    let (b1, b2) = (
        mean_ns(root, g, "eb709b0d", 1)?,
        mean_ns(root, g, "eb709b0d", 2)?,
    );
    println!("| variant | 1 thread | 2 threads |\n|---|---|---|");
    println!("| linux-2.6.37 (lock per page) | {u1:.1} | {u2:.1} |");
    println!("| eb709b0d (pagevec) | {b1:.1} | {b2:.1} |");
    println!(
        "eb709b0d vs unbatched: {:.2}x (1 thread), {:.2}x (2 threads)",
        u1 / b1,
        u2 / b2
    );
    println!("  seed: -58% total time on 64 CPUs, mmap-pread-seq -69.7% (64 CPUs on one lru_lock)");

    println!("\nvma (S3): brk growth (vma_adjust of vm_end), ns per step");
    let g = "brk_vma_adjust";
    let (a1, a2) = (
        mean_ns(root, g, "linux-2.6.31", 1)?,
        mean_ns(root, g, "linux-2.6.31", 2)?,
    );
    let (f1, f2) = (
        mean_ns(root, g, "252c5f94", 1)?,
        mean_ns(root, g, "252c5f94", 2)?,
    );
    println!("| variant | 1 thread (no walker) | 2 threads (one walker) |\n|---|---|---|");
    println!("| linux-2.6.31 (always lock) | {a1:.1} | {a2:.1} |");
    println!("| 252c5f94 | {f1:.1} | {f2:.1} |");
    println!(
        "252c5f94 vs always-lock: {:.2}x (alone), {:.2}x (with a walker)",
        a1 / f1,
        a2 / f2
    );
    println!("  seed: aim7 +150% on a 4x8x2-CPU machine, +3.9% on a smaller one");
    println!("\ncriterion's HTML reports: target/criterion/report/index.html");
    Ok(())
}
