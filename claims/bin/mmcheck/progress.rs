//! The progress display of a long exploration: claim, elapsed time, executions so far.

use indicatif::{ProgressBar, ProgressStyle};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the display is refreshed.
const TICK: Duration = Duration::from_millis(200);

/// A spinner that shows `label: N executions` until dropped.
pub struct Progress {
    bar: ProgressBar,
    ticker: Option<JoinHandle<()>>,
}

impl Progress {
    pub fn start(label: String, executions: Arc<AtomicU64>) -> Progress {
        let bar = ProgressBar::new_spinner();
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
        Progress {
            bar,
            ticker: Some(ticker),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
    }
}
