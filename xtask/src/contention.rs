//! The lru benchmark projected to the seed's machine (issue #18, step 4): a discrete-event
//! simulation of N CPUs running `activate_page` in a loop against one FIFO (ticket) lock.
//!
//! What is measured (benches/lru.rs, on this machine): the cost of each step on one CPU (lock
//! and unlock, one list move, get_page + put_page), the per-page time of both variants on one
//! CPU, and the penalty an acquisition pays when another core held the lock and wrote the list
//! heads last (the injector). What is modelled: everything about N > 2 CPUs. Each simulated CPU
//! thinks (the work of its pages outside the lock), then queues for the lock in FIFO order, holds
//! it for the critical section, and pays the handoff cost on top when the previous holder was
//! another CPU (the lock's and the list heads' cache lines move). The seed's machine is not
//! this one: the handoff cost between its sockets is not known here and is swept.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One variant's costs per lock acquisition, nanoseconds.
#[derive(Clone, Copy, Debug)]
pub struct Costs {
    /// Work outside the lock between two acquisitions of one CPU.
    pub think: f64,
    /// The critical section, uncontended (lock, moves, unlock).
    pub hold: f64,
    /// Pages activated per acquisition (1 unbatched, PAGEVEC_SIZE batched).
    pub pages: f64,
}

/// The handoff cost with which `n` = 2 simulated CPUs take `measured` ns per page (bisection).
pub fn fit_handoff(c: Costs, measured: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 10_000.0f64);
    for _ in 0..40 {
        let mid = (lo + hi) / 2.0;
        if simulate(2, c, mid, 20_000) < measured {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// Simulate `n` CPUs, each making `rounds` acquisitions, against one FIFO lock whose handoff
/// to another CPU costs `handoff` ns on top of the hold. Returns nanoseconds per page per CPU
/// (the time to finish divided by the pages each CPU activated).
pub fn simulate(n: usize, c: Costs, handoff: f64, rounds: usize) -> f64 {
    // (arrival time at the lock in ps, cpu): the earliest arrival is served next (FIFO); the
    // ps integers keep the order exact.
    let ps = |ns: f64| (ns * 1000.0).round() as u64;
    let mut queue: BinaryHeap<Reverse<(u64, usize)>> = BinaryHeap::new();
    // CPUs start staggered by a fraction of a think time, as unsynchronised CPUs would.
    for cpu in 0..n {
        queue.push(Reverse((ps(c.think * cpu as f64 / n as f64), cpu)));
    }
    let mut free_at = 0u64;
    let mut last: Option<usize> = None;
    let mut done = vec![0usize; n];
    let mut finish = 0u64;
    while let Some(Reverse((arrival, cpu))) = queue.pop() {
        let start = arrival.max(free_at);
        let moved = last.is_some_and(|l| l != cpu);
        let hold = ps(c.hold + if moved { handoff } else { 0.0 });
        free_at = start + hold;
        last = Some(cpu);
        done[cpu] += 1;
        if done[cpu] == rounds {
            finish = finish.max(free_at);
        } else {
            queue.push(Reverse((free_at + ps(c.think), cpu)));
        }
    }
    finish as f64 / 1000.0 / (rounds as f64 * c.pages)
}

/// The CPU counts of the projection.
pub const CPUS: [usize; 7] = [1, 2, 4, 8, 16, 32, 64];

/// One line of the projection: per CPU count, ns per page per CPU of both variants.
pub struct Line {
    pub label: String,
    pub unbatched: Vec<f64>,
    pub batched: Vec<f64>,
}

impl Line {
    /// Time reduction of batching at each CPU count (0.58 = 58% less time).
    pub fn reduction(&self) -> Vec<f64> {
        self.unbatched
            .iter()
            .zip(&self.batched)
            .map(|(u, b)| 1.0 - b / u)
            .collect()
    }

    /// The smallest CPU count at which batching is faster.
    pub fn crossover(&self) -> Option<usize> {
        CPUS.iter()
            .zip(self.reduction())
            .find(|(_, r)| *r > 0.0)
            .map(|(n, _)| *n)
    }
}

/// One projected case: the handoff cost, and the workload's own work per page outside
/// `activate_page` (a page fault, the copy: the seed's mmap-read workload does far more per
/// page than activate it), both in ns.
pub struct Case {
    /// The handoff cost of each variant's acquisitions (unbatched, batched).
    pub handoff: (f64, f64),
    pub work: f64,
    pub label: String,
}

pub fn project(unbatched: Costs, batched: Costs, cases: &[Case]) -> Vec<Line> {
    const ACQUISITIONS: usize = 20_000;
    let with_work = |c: Costs, w: f64| Costs {
        think: c.think + w * c.pages,
        ..c
    };
    cases
        .iter()
        .map(|k| Line {
            label: k.label.clone(),
            unbatched: CPUS
                .iter()
                .map(|&n| simulate(n, with_work(unbatched, k.work), k.handoff.0, ACQUISITIONS))
                .collect(),
            batched: CPUS
                .iter()
                .map(|&n| {
                    simulate(
                        n,
                        with_work(batched, k.work),
                        k.handoff.1,
                        ACQUISITIONS / 14 + 1,
                    )
                })
                .collect(),
        })
        .collect()
}

/// The projection as an SVG plot: batching's time reduction against the CPU count, one line
/// per handoff cost, the seed's -58% as a dashed line.
pub fn svg(lines: &[Line], seed: f64) -> String {
    let (w, h, left, bottom, top, right) = (760.0, 380.0, 60.0, 40.0, 20.0, 300.0);
    let x = |i: usize| left + (w - left - right) * i as f64 / (CPUS.len() - 1) as f64;
    // y from -100% to +100%
    let y = |r: f64| top + (h - top - bottom) * (1.0 - (r.clamp(-1.0, 1.0) + 1.0) / 2.0);
    let colours = [
        "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
        "#bcbd22",
    ];
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\n"
    );
    s += &format!(
        "<line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#888\"/>\n",
        y(0.0),
        w - right,
        y(0.0)
    );
    for r in [-1.0, -0.5, 0.0, 0.5, 1.0] {
        s += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:+.0}%</text>\n",
            left - 6.0,
            y(r) + 4.0,
            r * 100.0
        );
    }
    for (i, n) in CPUS.iter().enumerate() {
        s += &format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{n}</text>\n",
            x(i),
            h - bottom + 16.0
        );
    }
    s += &format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">CPUs contending for lru_lock</text>\n",
        (left + w - right) / 2.0,
        h - 6.0
    );
    s += &format!(
        "<line x1=\"{left}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#000\" stroke-dasharray=\"4 3\"/><text x=\"{2}\" y=\"{3}\">seed: {4:.0}% less time (64 CPUs)</text>\n",
        y(seed),
        w - right,
        w - right + 4.0,
        y(seed) + 4.0,
        seed * 100.0
    );
    for (k, l) in lines.iter().enumerate() {
        let c = colours[k % colours.len()];
        let pts: Vec<String> = l
            .reduction()
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{:.1},{:.1}", x(i), y(*r)))
            .collect();
        s += &format!(
            "<polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"2\" points=\"{}\"/>\n",
            pts.join(" ")
        );
        s += &format!(
            "<text x=\"{}\" y=\"{}\" fill=\"{c}\">{}</text>\n",
            w - right + 4.0,
            top + 40.0 + 16.0 * k as f64,
            l.label
        );
    }
    s += "</svg>\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_cpu_is_think_plus_hold() {
        let c = Costs {
            think: 30.0,
            hold: 10.0,
            pages: 1.0,
        };
        let t = simulate(1, c, 100.0, 1000);
        assert!((t - 40.0).abs() < 0.1, "{t}");
    }

    #[test]
    fn a_saturated_lock_serialises_with_handoffs() {
        // Think time short against the hold: the lock is the bottleneck, every acquisition
        // changes hands, so each page costs n * (hold + handoff) per CPU.
        let c = Costs {
            think: 1.0,
            hold: 10.0,
            pages: 1.0,
        };
        let t = simulate(8, c, 5.0, 2000);
        assert!((t - 8.0 * 15.0).abs() < 1.0, "{t}");
    }

    #[test]
    fn batching_wins_once_the_lock_saturates() {
        let u = Costs {
            think: 20.0,
            hold: 20.0,
            pages: 1.0,
        };
        let b = Costs {
            think: 14.0 * 35.0,
            hold: 14.0 * 10.0 + 10.0,
            pages: 14.0,
        };
        let lines = project(
            u,
            b,
            &[Case {
                handoff: (100.0, 100.0),
                work: 0.0,
                label: "100 ns".to_string(),
            }],
        );
        let r = lines[0].reduction();
        assert!(r[0] < 0.0, "one CPU: batching costs more ({:?})", r);
        assert!(
            r[6] > 0.5,
            "64 CPUs: batching saves most of the time ({:?})",
            r
        );
        assert!(lines[0].crossover().is_some());
    }
}
