//! The progress display of long explorations: one line per running claim or cell with its
//! elapsed time and executions so far.

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often the display is refreshed.
const TICK: Duration = Duration::from_millis(200);

/// The display of every running job (None: `--no-progress`).
#[derive(Clone)]
pub struct Display(Option<MultiProgress>);

impl Display {
    pub fn new(enabled: bool) -> Display {
        Display(enabled.then(MultiProgress::new))
    }

    /// A line `label: N executions` until the returned guard is dropped.
    pub fn start(&self, label: String, executions: Arc<AtomicU64>) -> Line {
        let Some(multi) = &self.0 else {
            return Line(None);
        };
        let bar = multi.add(ProgressBar::new_spinner());
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("template"),
        );
        bar.enable_steady_tick(TICK);
        let b = bar.clone();
        let ticker = std::thread::spawn(move || {
            while !b.is_finished() {
                b.set_message(format!(
                    "{label}: {} executions",
                    executions.load(Ordering::Relaxed)
                ));
                std::thread::sleep(TICK);
            }
        });
        Line(Some((bar, Some(ticker))))
    }

    /// Print a line above the running jobs.
    pub fn println(&self, line: &str) {
        match &self.0 {
            Some(m) => {
                let _ = m.println(line);
            }
            None => eprintln!("{line}"),
        }
    }
}

/// One job's line; removed when dropped.
pub struct Line(Option<(ProgressBar, Option<std::thread::JoinHandle<()>>)>);

impl Drop for Line {
    fn drop(&mut self) {
        if let Some((bar, ticker)) = &mut self.0 {
            bar.finish_and_clear();
            if let Some(t) = ticker.take() {
                let _ = t.join();
            }
        }
    }
}
