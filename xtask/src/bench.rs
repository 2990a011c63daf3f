//! `cargo xtask bench`: the three benchmarks in one run, then the ratios beside the seeds'
//! figures. The times come from criterion's estimates (`target/criterion/.../new/
//! estimates.json`, mean), the lock counts from the lru benchmark's own line.

use std::path::Path;
use std::process::Command;

fn mean_ns(root: &Path, group: &str, id: &str, threads: u32) -> Result<f64, String> {
    mean_at(root, group, &format!("{id}/{threads}"))
}

/// criterion's mean of `group/path` (a function id, or id/parameter), nanoseconds.
fn mean_at(root: &Path, group: &str, path: &str) -> Result<f64, String> {
    let p = root
        .join("target/criterion")
        .join(group)
        .join(path)
        .join("new/estimates.json");
    let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    v["mean"]["point_estimate"]
        .as_f64()
        .ok_or_else(|| format!("{}: no mean", p.display()))
}

/// Run the benchmarks and print the ratios.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print the figures of the last run (criterion's estimates and the benchmarks' saved
    /// output in target/mmcheck/bench-output.txt) without running the benchmarks again.
    #[arg(long)]
    pub no_run: bool,
}

pub fn run(root: &Path, mut cargo: Command, a: &Args) -> Result<(), String> {
    let saved = root.join("target/mmcheck/bench-output.txt");
    let stderr = if a.no_run {
        std::fs::read_to_string(&saved).map_err(|e| {
            format!(
                "no earlier run to report ({}: {e}): run `cargo xtask bench` first",
                saved.display()
            )
        })?
    } else {
        cargo.args([
            "bench", "-p", "mmcheck", "--bench", "compound", "--bench", "lru", "--bench", "vma",
        ]);
        let out = cargo.output().map_err(|e| format!("cargo bench: {e}"))?;
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        if !out.status.success() {
            return Err(format!("cargo bench failed:\n{stderr}"));
        }
        let _ = std::fs::create_dir_all(root.join("target/mmcheck"));
        std::fs::write(&saved, &stderr).map_err(|e| format!("{}: {e}", saved.display()))?;
        stderr
    };
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

    lru(root, &stderr)?;

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

/// TSC ticks per nanosecond (x86-64), measured against the clock over 200 ms.
fn tsc_ghz() -> Option<f64> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: rdtsc has no preconditions.
        let t0 = unsafe { core::arch::x86_64::_rdtsc() };
        let c0 = std::time::Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(200));
        // SAFETY: as above.
        let t1 = unsafe { core::arch::x86_64::_rdtsc() };
        Some((t1 - t0) as f64 / c0.elapsed().as_nanos() as f64)
    }
    #[cfg(not(target_arch = "x86_64"))]
    None
}

/// The lru figures (issue #18): steps, throughput, the injector curve and the projection.
fn lru(root: &Path, stderr: &str) -> Result<(), String> {
    use crate::contention::{fit_handoff, project, svg, Case, Costs, CPUS};
    const PAGEVEC: f64 = 14.0;
    const SEED: f64 = 0.58;
    println!(
        "\nlru (S2): activate_page through one zone lru_lock (FIFO ticket lock, threads pinned)"
    );
    for line in stderr
        .lines()
        .filter(|l| l.contains("lru_lock acquisitions") || l.starts_with("lru bench:"))
    {
        println!("  {line}");
    }
    let ghz = tsc_ghz();
    let cyc = |ns: f64| ghz.map_or(String::new(), |g| format!(" ({:.0} cycles)", ns * g));
    let lock = mean_at(root, "lru_step", "lock_unlock")?;
    let mv = mean_at(root, "lru_step", "list_move")?;
    let getput = mean_at(root, "lru_step", "get_put")?;
    let g = "lru_throughput";
    let u1 = mean_at(root, g, "linux-2.6.37-private/1")?;
    let b1 = mean_at(root, g, "eb709b0d-private/1")?;
    let u2 = mean_at(root, g, "linux-2.6.37-private/2")?;
    let b2 = mean_at(root, g, "eb709b0d-private/2")?;
    let us2 = mean_at(root, g, "linux-2.6.37-shared/2")?;
    let bs2 = mean_at(root, g, "eb709b0d-shared/2")?;
    println!(
        "\nsteps, one thread (TSC {}):",
        ghz.map_or("unknown".to_string(), |g| format!("{g:.2} GHz"))
    );
    println!("| step | ns |\n|---|---|");
    println!(
        "| spin_lock + spin_unlock (uncontended) | {lock:.1}{} |",
        cyc(lock)
    );
    println!("| one page moved between LRU lists | {mv:.1}{} |", cyc(mv));
    println!(
        "| get_page + put_page (the pagevec's reference) | {getput:.1}{} |",
        cyc(getput)
    );
    println!(
        "| activate_page, linux-2.6.37 (per page) | {u1:.1}{} |",
        cyc(u1)
    );
    println!(
        "| activate_page, eb709b0d (per page) | {b1:.1}{} |",
        cyc(b1)
    );
    let other_u = u1 - lock - mv;
    let queue = b1 - getput - mv - lock / PAGEVEC;
    println!(
        "  per page: unbatched = lock {lock:.1} + move {mv:.1} + the rest {other_u:.1} (tests, call); batched = queue and tests {queue:.1} + references {getput:.1} + move {mv:.1} + lock/14 {:.1}",
        lock / PAGEVEC
    );
    println!(
        "\nthroughput (criterion, pages per second over all threads; ns per page per thread):"
    );
    println!("| case | linux-2.6.37 | eb709b0d | eb709b0d vs unbatched |\n|---|---|---|---|");
    for (name, n, u, b) in [
        ("1 thread", 1.0, u1, b1),
        ("2 threads, own pages", 2.0, u2, b2),
        ("2 threads, the same pages", 2.0, us2, bs2),
    ] {
        println!(
            "| {name} | {:.2} M/s ({u:.1} ns) | {:.2} M/s ({b:.1} ns) | {:.2}x |",
            n * 1e3 / u,
            n * 1e3 / b,
            u / b
        );
    }

    // The injector: ns per page against the injector's measured rate.
    let rate = |id: &str, gap: &str| -> f64 {
        let key = format!("injector {id} gap {gap}: ");
        stderr
            .lines()
            .filter_map(|l| l.strip_prefix(&key))
            .filter_map(|r| r.split_whitespace().next()?.parse().ok())
            .next_back()
            .unwrap_or(0.0)
    };
    println!("\ninjector (a second core takes lru_lock and dirties the list heads every gap ns):");
    println!("| gap ns | rate, acquisitions/us | linux-2.6.37 ns/page | eb709b0d ns/page |\n|---|---|---|---|");
    let mut pts_u = Vec::new();
    let mut pts_b = Vec::new();
    for gap in ["none", "4000", "2000", "1000", "500", "250", "100"] {
        let tu = mean_at(root, "lru_injected", &format!("linux-2.6.37/{gap}"))?;
        let tb = mean_at(root, "lru_injected", &format!("eb709b0d/{gap}"))?;
        let (ru, rb) = (rate("linux-2.6.37", gap), rate("eb709b0d", gap));
        println!("| {gap} | {ru:.2} / {rb:.2} | {tu:.1} | {tb:.1} |");
        pts_u.push((ru, tu));
        pts_b.push((rb, tb));
    }
    let slope = |pts: &[(f64, f64)]| {
        let n = pts.len() as f64;
        let (sx, sy) = pts.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
        let (mx, my) = (sx / n, sy / n);
        let num: f64 = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
        let den: f64 = pts.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
        if den == 0.0 {
            0.0
        } else {
            num / den
        }
    };
    let (su, sb) = (slope(&pts_u), slope(&pts_b));
    println!(
        "  slope, ns per page per (acquisition/us): linux-2.6.37 {su:.1}, eb709b0d {sb:.1} (ratio {:.1}; batching takes the lock 14 times less often)",
        if sb.abs() > 1e-9 { su / sb } else { f64::NAN }
    );

    // The projection: think and hold times from the steps, the handoff cost calibrated on the
    // measured 2-thread unbatched point and checked on the batched one. 2.6.37's activate_page
    // does all its work under lru_lock (lock, tests, move, unlock): its hold is its whole
    // per-page time. eb709b0d holds the lock for the 14 moves of a drain; the rest (queueing,
    // the tests, the references) is outside.
    let move_in_lock = mv.min(u1 - lock).max(0.0);
    let unbatched = Costs {
        think: 0.0,
        hold: u1,
        pages: 1.0,
    };
    let batched = Costs {
        think: (PAGEVEC * b1 - lock - PAGEVEC * move_in_lock).max(0.0),
        hold: lock + PAGEVEC * move_in_lock,
        pages: PAGEVEC,
    };
    let hu = fit_handoff(unbatched, u2);
    let hb = fit_handoff(batched, b2);
    println!(
        "\nprojection (discrete-event simulation, xtask/src/contention.rs): per acquisition, unbatched think {:.1} ns + hold {:.1} ns; batched think {:.1} ns + hold {:.1} ns for 14 pages",
        unbatched.think, unbatched.hold, batched.think, batched.hold
    );
    println!(
        "  handoff cost per acquisition that reproduces the measured 2-thread points (own pages): unbatched {hu:.1} ns, batched {hb:.1} ns. With one cost for both ({hu:.1} ns), the simulation gives the batched 2-thread point as {:.1} ns/page against the {b2:.1} measured: the batched path pays more per acquisition than the lock's handoff (the drained pages' lines), so each variant keeps its own fitted cost and N > 2 is modelled, not measured",
        crate::contention::simulate(2, batched, hu, 20_000)
    );
    let mut cases = Vec::new();
    for work in [0.0, 200.0, 1000.0] {
        for k in [1.0, 2.0, 4.0] {
            cases.push(Case {
                handoff: (hu * k, hb * k),
                work,
                label: format!(
                    "handoffs x{k:.0} ({:.0}/{:.0} ns), other work {work:.0} ns/page",
                    hu * k,
                    hb * k
                ),
            });
        }
    }
    let lines = project(unbatched, batched, &cases);
    print!("| case | ");
    for n in CPUS {
        print!("{n} CPUs | ");
    }
    println!("crossover |");
    println!("|---|{}---|", "---|".repeat(CPUS.len()));
    for l in &lines {
        print!("| {} | ", l.label);
        for r in l.reduction() {
            print!("{:+.0}% | ", -r * 100.0);
        }
        println!(
            "{} |",
            l.crossover()
                .map_or("none".to_string(), |n| format!("{n} CPUs"))
        );
    }
    println!(
        "  (time of eb709b0d against linux-2.6.37 per page, negative = less time; seed: -{:.0}% on 64 CPUs, a whole mmap-read workload, of which activate_page is one part)",
        SEED * 100.0
    );
    let dir = root.join("target/mmcheck");
    let _ = std::fs::create_dir_all(&dir);
    let plot = svg(&lines, SEED);
    let mut html = String::from("<!doctype html><meta charset=\"utf-8\"><title>mmcheck: lru_lock contention projected to 64 CPUs</title><h1>activate_page: eb709b0d against linux-2.6.37, projected</h1><p>Measured on this machine (cargo xtask bench): the cost of each step on one CPU and the 2-CPU points. Modelled: everything beyond 2 CPUs, by a discrete-event simulation of N CPUs on one FIFO lock (xtask/src/contention.rs); the handoff cost between the seed's sockets is not known and is swept.</p>");
    html += &plot;
    html += "<table border=1 cellpadding=4><tr><th>case</th>";
    for n in CPUS {
        html += &format!("<th>{n} CPUs</th>");
    }
    html += "</tr>";
    for l in &lines {
        html += &format!("<tr><td>{}</td>", l.label);
        for r in l.reduction() {
            html += &format!("<td>{:+.0}%</td>", -r * 100.0);
        }
        html += "</tr>";
    }
    html += "</table>";
    std::fs::write(dir.join("lru-projection.svg"), &plot).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("lru-projection.html"), html).map_err(|e| e.to_string())?;
    println!("  plot: target/mmcheck/lru-projection.html (and .svg)");
    Ok(())
}
