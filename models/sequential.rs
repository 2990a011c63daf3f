//! Sequential models under proptest: random operation sequences run on one thread, checked
//! step by step against a reference model; a failing sequence is shrunk to a minimal one and
//! re-run once more to capture its kernel-level trace. A model whose steps each take effect at
//! most once can instead be enumerated ([`every_order`]): every sequence of distinct steps,
//! shortest first, which is complete.

use mmcheck::checker::{run_once, Exploration};
use proptest::strategy::Strategy;
use proptest::test_runner::{Config, FileFailurePersistence, TestCaseError, TestError, TestRunner};
use std::fmt::Debug;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// How many sequences to try, and where failing ones are kept (and replayed first next time).
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub cases: u32,
    /// proptest's regression file (`tests/regressions/<area>.txt`), if any.
    pub persistence: Option<PathBuf>,
}

/// Run `body` on `cases` sequences drawn from `ops`. A failure is shrunk; the minimal sequence
/// is in the failure's message and its trace is the trace of that sequence.
pub fn run<T: Debug + Clone + 'static>(
    settings: &Settings,
    ops: impl Strategy<Value = Vec<T>>,
    body: fn(&[T]),
) -> Exploration {
    let persistence = settings.persistence.as_ref().map(|p| {
        // proptest wants a &'static str; one per run of the test binary.
        let s: &'static str = Box::leak(p.display().to_string().into_boxed_str());
        Box::new(FileFailurePersistence::Direct(s))
            as Box<dyn proptest::test_runner::FailurePersistence>
    });
    let mut runner = TestRunner::new(Config {
        cases: settings.cases,
        failure_persistence: persistence,
        ..Config::default()
    });
    let cases = AtomicU64::new(0);
    let start = std::time::Instant::now();
    let result = runner.run(&ops, |seq| {
        cases.fetch_add(1, Ordering::Relaxed);
        let e = run_once(|| body(&seq));
        match (e.failure, e.error) {
            (Some(f), _) => Err(TestCaseError::fail(format!("{}: {}", f.cause, f.message))),
            (None, Some(err)) => Err(TestCaseError::fail(format!("harness error: {err}"))),
            (None, None) => Ok(()),
        }
    });
    let executions = cases.load(Ordering::Relaxed);
    let mut e = match result {
        Ok(()) => Exploration {
            executions,
            complete: false,
            failure: None,
            error: None,
            seconds: 0.0,
            schedule_file: None,
            shard: None,
        },
        Err(TestError::Fail(_, minimal)) => {
            // Re-run the shrunk sequence once to capture its failure and trace.
            let mut again = run_once(|| body(&minimal));
            if let Some(f) = &mut again.failure {
                f.message = format!("{} (minimal sequence: {minimal:?})", f.message);
            }
            again.executions = executions;
            again.complete = false;
            again
        }
        Err(TestError::Abort(why)) => Exploration {
            executions,
            complete: false,
            failure: None,
            error: Some(format!("proptest aborted: {why}")),
            seconds: 0.0,
            schedule_file: None,
            shard: None,
        },
    };
    e.seconds = start.elapsed().as_secs_f64();
    e
}

/// Run `body` on every sequence of distinct elements of `steps` (every order of every subset),
/// shortest first: the first failing sequence is a shortest one, and its trace is that
/// sequence's. Complete for a model in which a step takes effect at most once and a step that
/// does not take effect changes nothing: then every sequence, repeats included, behaves as the
/// sequence of its effective steps, which is one of these (the model's proof says why its steps
/// are such). `steps` has at most 8 elements (109,601 sequences).
pub fn every_order<T: Debug + Clone + 'static>(steps: &[T], body: fn(&[T])) -> Exploration {
    assert!(
        steps.len() <= 8,
        "every_order: {} steps is too many",
        steps.len()
    );
    let start = std::time::Instant::now();
    let mut executions = 0u64;
    // Sequences of length `len`, as index lists, in lexicographic order.
    fn extend(n: usize, len: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == len {
            out.push(cur.clone());
            return;
        }
        for i in 0..n {
            if !cur.contains(&i) {
                cur.push(i);
                extend(n, len, cur, out);
                cur.pop();
            }
        }
    }
    for len in 0..=steps.len() {
        let mut seqs = Vec::new();
        extend(steps.len(), len, &mut Vec::new(), &mut seqs);
        for idx in seqs {
            let seq: Vec<T> = idx.iter().map(|&i| steps[i].clone()).collect();
            executions += 1;
            let mut e = run_once(|| body(&seq));
            if e.failure.is_some() || e.error.is_some() {
                if let Some(f) = &mut e.failure {
                    f.message = format!("{} (a shortest sequence: {seq:?})", f.message);
                }
                e.executions = executions;
                e.complete = false;
                e.seconds = start.elapsed().as_secs_f64();
                return e;
            }
        }
    }
    Exploration {
        executions,
        complete: true,
        failure: None,
        error: None,
        seconds: start.elapsed().as_secs_f64(),
        schedule_file: None,
        shard: None,
    }
}
