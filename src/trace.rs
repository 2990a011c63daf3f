//! Per-execution event trace and invariant failures (checked builds only).
//!
//! Every kernel-level step records `(cpu, function, event)` here. When an invariant breaks
//! (`VM_BUG_ON`, `BUG_ON`, `bad_page`, an oops, a ghost check), the trace so far is captured
//! with the failure and the execution panics; the runner reads the captured failure and prints
//! it as numbered steps.
//!
//! The log lives in an OS-thread-local: loom and shuttle run every model thread of one
//! execution on the test's OS thread, so each test gets its own log and parallel tests do not
//! mix. In the production build nothing is recorded (`sync::CHECKED` is false).
//!
//! Layer: above the shim (`crate::sync`), below everything that records events.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use crate::sync::{cpu_of_thread, CHECKED};

/// One kernel-level step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub step: usize,
    /// The CPU that took the step; None for the scenario's setup and final checks.
    pub cpu: Option<usize>,
    /// The kernel function (borrowed while recording: no allocation per step).
    pub func: Cow<'static, str>,
    pub event: String,
    /// A lock taken or released at this step, for the consistency check: a named spinlock
    /// (the shim's events) or a kernel bit lock (`compound_lock`, `slab_lock`, the vma models'
    /// `trylock_page`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<LockOp>,
}

/// A lock changing hands at one step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockOp {
    /// The lock, as the trace names it (`anon_vma#3->lock`, `zone->lru_lock`,
    /// `page#1 PG_compound_lock`).
    pub lock: String,
    /// Taken (true) or released (false).
    pub acquire: bool,
}

/// The kernel's own checks, by name. A BUG claim names the one it expects to break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Invariant {
    /// `VM_BUG_ON()` in the kernel code itself (CONFIG_DEBUG_VM kernels).
    #[serde(rename = "VM_BUG_ON")]
    VmBugOn,
    /// `BUG_ON()` in the kernel code itself (every kernel).
    #[serde(rename = "BUG_ON")]
    BugOn,
    /// `bad_page()`: "BUG: Bad page state" from `free_pages_check()` / `destroy_compound_page()`.
    #[serde(rename = "bad_page")]
    BadPage,
    /// Dereference of a `struct page *` outside the memmap, or a call through a garbage
    /// compound destructor: "BUG: unable to handle kernel paging request".
    #[serde(rename = "oops")]
    Oops,
    /// A page freed while a CPU still holds a reference to it (ghost check: use after free).
    #[serde(rename = "freed-while-referenced")]
    FreedWhileReferenced,
    /// A page freed twice, or a put on a page that was freed and reallocated since the get.
    #[serde(rename = "use-after-free")]
    UseAfterFree,
    /// At the end of the scenario a count, mapcount or list does not add up.
    #[serde(rename = "refcount-balance")]
    RefcountBalance,
    /// CONFIG_DEBUG_LIST: list_add of a linked entry, list_del of an unlinked one, corruption.
    #[serde(rename = "list-corruption")]
    ListCorruption,
    /// Page flags disagree with list membership (PG_lru, PG_active).
    #[serde(rename = "flags-mismatch")]
    FlagsMismatch,
    /// A zone's per-LRU page count (`NR_LRU_BASE + lru`, kept by `add_page_to_lru_list` /
    /// `del_page_from_lru_list`) disagrees with the length of its list when `lru_lock` is
    /// released or at the end of a scenario.
    #[serde(rename = "lru-count")]
    LruCount,
    /// Two CPUs touch a lock-protected word (list links) with nothing ordering them.
    #[serde(rename = "data-race")]
    DataRace,
    /// An rmap walk missed a mapping of the page it walks for (or computed an address outside
    /// the vma): a stale pte after migration or reclaim.
    #[serde(rename = "rmap-miss")]
    RmapMiss,
    /// CONFIG_DEBUG_SPINLOCK's `spin_bug()` (lib/spinlock_debug.c): a CPU releases a spinlock
    /// it does not hold ("already unlocked", "wrong owner"). Without that option the lock it
    /// does hold is never released, and the next CPU to take it spins forever: a hang. The
    /// models report it whatever the configuration (the kernel reports it with
    /// CONFIG_DEBUG_SPINLOCK, and hangs without).
    #[serde(rename = "spin_bug")]
    SpinBug,
    /// An evictable page left on the unevictable list once every CPU is done: "If an
    /// evictable page is on unevictable list, it never be freed" (putback_lru_page(),
    /// mm/vmscan.c, 2.6.37–3.0: the reason for its recheck).
    #[serde(rename = "stranded-unevictable")]
    StrandedUnevictable,
}

impl Invariant {
    pub fn name(self) -> &'static str {
        match self {
            Invariant::VmBugOn => "VM_BUG_ON",
            Invariant::BugOn => "BUG_ON",
            Invariant::BadPage => "bad_page",
            Invariant::Oops => "oops",
            Invariant::FreedWhileReferenced => "freed-while-referenced",
            Invariant::UseAfterFree => "use-after-free",
            Invariant::RefcountBalance => "refcount-balance",
            Invariant::ListCorruption => "list-corruption",
            Invariant::FlagsMismatch => "flags-mismatch",
            Invariant::LruCount => "lru-count",
            Invariant::DataRace => "data-race",
            Invariant::RmapMiss => "rmap-miss",
            Invariant::SpinBug => "spin_bug",
            Invariant::StrandedUnevictable => "stranded-unevictable",
        }
    }
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What ended an execution: one of the kernel's checks, or the harness itself (a model that
/// cannot set up, a table that disagrees with itself). A harness failure is never a kernel
/// verdict: it makes a run an error, and no BUG claim can be met by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Cause {
    Kernel(Invariant),
    Harness,
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Kernel(i) => i.fmt(f),
            Cause::Harness => f.write_str("harness error"),
        }
    }
}

/// A check that broke, with the trace of the execution up to that point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    pub cause: Cause,
    /// The function whose check broke.
    pub func: String,
    pub message: String,
    pub trace: Vec<Event>,
}

impl Failure {
    /// The kernel invariant that broke (None for a harness failure).
    pub fn invariant(&self) -> Option<Invariant> {
        match self.cause {
            Cause::Kernel(i) => Some(i),
            Cause::Harness => None,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {}", self.cause, self.message)?;
        write_trace(f, &self.trace)
    }
}

/// Print a trace as numbered kernel-level steps.
pub fn write_trace(f: &mut impl fmt::Write, trace: &[Event]) -> fmt::Result {
    for e in trace {
        let cpu = e.cpu.map_or("main".to_string(), |c| format!("CPU{c}"));
        writeln!(f, "  {:>3}. {cpu:<5} {:<28} {}", e.step, e.func, e.event)?;
    }
    Ok(())
}

std::thread_local! {
    static DEBUG_VM: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
    static LOG: RefCell<Vec<Event>> = const { RefCell::new(Vec::new()) };
    static FAILURE: RefCell<Option<Failure>> = const { RefCell::new(None) };
    static RECORDING: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether [`record`] keeps events (default: yes). An exhaustive exploration runs with it off
/// and, when an execution fails, explores again with it on up to that failure
/// (`checker::explore`): the events of the executions that pass are never formatted.
pub fn set_recording(on: bool) {
    RECORDING.with(|r| r.set(on));
    crate::sync::set_race_notes(on);
}

/// CONFIG_DEBUG_VM of the kernel being modelled: whether `VM_BUG_ON()` is compiled in (its
/// condition, loads included, is evaluated) or compiled out as in a production kernel.
/// `BUG_ON()` is always in. Default: on.
pub fn set_config_debug_vm(on: bool) {
    DEBUG_VM.with(|d| d.set(on));
}

/// Is CONFIG_DEBUG_VM on for the current execution?
#[inline]
pub fn config_debug_vm() -> bool {
    CHECKED && DEBUG_VM.with(|d| d.get())
}

/// Start a new execution: clear the log (the first failure of a run is kept until taken).
pub fn reset() {
    if CHECKED {
        LOG.with(|l| l.borrow_mut().clear());
    }
    crate::sync::set_step_hint(0);
    crate::sync::set_lock_observer(named_lock_event);
    crate::sync::set_landing_observer(landing_event);
    crate::sync::set_spin_bug_observer(spin_recursion);
    crate::sync::irq::set_irq_observer(irq_event);
    crate::sync::irq::reset();
    let _ = crate::sync::take_race_access();
    crate::sync::clear_stale_reads();
}

/// Forget any failure captured so far (start of a run).
pub fn clear_failure() {
    FAILURE.with(|f| f.borrow_mut().take());
}

/// A lane's name in a sentence: `CPU1`, or the setup thread (no CPU).
fn who(cpu: Option<usize>) -> String {
    cpu.map_or("the setup thread".to_string(), |c| format!("CPU{c}"))
}

/// The shim's report of a CPU taking a spinlock it holds: CONFIG_DEBUG_SPINLOCK's
/// `spin_bug(lock, "recursion")` (`debug_spin_lock_before()`, lib/spinlock_debug.c); without
/// that option the CPU spins on the lock forever (a hard lockup).
fn spin_recursion(name: Option<crate::sync::CName>, cpu: usize) {
    let lock = name.map_or_else(|| "a spinlock".to_string(), |n| n.to_string());
    fail(
        "spin_lock",
        Invariant::SpinBug,
        format!(
            "BUG: spinlock recursion on CPU#{cpu}: {lock} is already held by this CPU{} \
             (without CONFIG_DEBUG_SPINLOCK: CPU{cpu} spins on it forever)",
            if crate::sync::in_irq() {
                ", whose code this interrupt handler cut"
            } else {
                ""
            }
        ),
    )
}

/// The shim's report of an interrupt handler starting or ending on `cpu`.
fn irq_event(cpu: usize, name: &'static str, entering: bool) {
    record(if entering { "irq_enter" } else { "irq_exit" }, || {
        if entering {
            format!("hardirq on CPU{cpu}: {name}() runs, CPU{cpu}'s code waits")
        } else {
            format!("hardirq on CPU{cpu}: {name}() returns")
        }
    });
}

/// The shim's event for a named spinlock: `spin_lock anon_vma#0->lock taken` right after the
/// CPU takes it, `spin_unlock ... released` right before it lets it go.
fn named_lock_event(name: crate::sync::CName, acquire: bool) {
    let (func, verb) = if acquire {
        ("spin_lock", "taken")
    } else {
        ("spin_unlock", "released")
    };
    record_lock(
        func,
        || name.to_string(),
        acquire,
        || format!("{name} {verb}"),
    );
}

/// The store-buffer mode's event for a CPU's buffered plain store of a count reaching memory
/// (each event at the step it happens): where other CPUs start to see it, so the counts the
/// trace shows move as the events say. The store is named by its own event, which is the
/// CPU's first event after step `after` (the store's push happens after that step and its
/// event is recorded before the CPU's next shim operation, the first point at which a buffered
/// entry can leave) when that event sets a count to `value`. A store whose event names no count
/// (SLUB's `counters` half over `_mapcount`, a `set_page_count()` the trace does not show) gets
/// no landing event: a load of it that misses the store says so itself (`sync::Missed`). The
/// event takes none of the CPU's pending weak-memory notes: those belong to its next own event.
fn landing_event(cpu: Option<usize>, after: usize, value: i64) {
    if !(CHECKED && RECORDING.with(|r| r.get())) {
        return;
    }
    LOG.with(|l| {
        let mut l = l.borrow_mut();
        let store = l
            .iter()
            .find(|e| e.step > after && e.cpu == cpu && e.func != LANDING)
            .and_then(|e| match count_event(&e.event) {
                Some((page, None, to)) if to == value => Some((page.to_string(), e.step)),
                _ => None,
            });
        if let Some((page, step)) = store {
            let event =
                format!("{page}._count = {value} (the plain store of step {step} reaches memory)");
            push(&mut l, cpu, LANDING, event, None);
        }
    });
}

/// The function name of a landing event ([`landing_event`]).
const LANDING: &str = "store buffer";

/// What a trace must never show (issue #20): two CPUs holding one lock at once, a CPU taking
/// a lock it already holds, or a CPU releasing a lock it does not hold. It reads every step's
/// [`LockOp`] (the named spinlocks and the kernel's bit locks). Returns the first
/// contradiction, with both steps.
pub fn check_consistency(trace: &[Event]) -> Result<(), String> {
    use std::collections::HashMap;
    // lock -> (holder, step it took the lock)
    let mut held: HashMap<&str, (Option<usize>, usize)> = HashMap::new();
    for e in trace {
        let Some(op) = &e.lock else {
            continue;
        };
        let lock = op.lock.as_str();
        if op.acquire {
            if let Some((cpu, step)) = held.get(lock) {
                let whom = if *cpu == e.cpu {
                    "which it already holds".to_string()
                } else {
                    format!("which {} holds", who(*cpu))
                };
                return Err(format!(
                    "step {}: {} takes {lock}, {whom} since step {step}",
                    e.step,
                    who(e.cpu),
                ));
            }
            held.insert(lock, (e.cpu, e.step));
        } else {
            match held.remove(lock) {
                Some((cpu, _)) if cpu == e.cpu => {}
                Some((cpu, step)) => {
                    return Err(format!(
                        "step {}: {} releases {lock}, which {} took at step {step}",
                        e.step,
                        who(e.cpu),
                        who(cpu)
                    ))
                }
                None => {
                    return Err(format!(
                        "step {}: {} releases {lock}, which nobody holds",
                        e.step,
                        who(e.cpu)
                    ))
                }
            }
        }
    }
    Ok(())
}

/// A `_count` event's page and values: `page#1._count 2 -> 3 ...` gives ("page#1", Some(2), 3),
/// `page#0._count = 1` and `page#0._count now 1` give ("page#0", None, 1).
fn count_event(event: &str) -> Option<(&str, Option<i64>, i64)> {
    let i = event.find("._count ")?;
    let page = event[..i].rsplit(' ').next()?;
    if !page.starts_with("page#") {
        return None;
    }
    let rest = &event[i + "._count ".len()..];
    let mut w = rest.split_whitespace();
    let first = w.next()?;
    if first == "=" || first == "now" {
        return Some((page, None, w.next()?.trim_end_matches(',').parse().ok()?));
    }
    let from: i64 = first.parse().ok()?;
    if w.next()? != "->" {
        return None;
    }
    let to: i64 = w.next()?.trim_end_matches(',').parse().ok()?;
    Some((page, Some(from), to))
}

/// Counts move as the events say (issue #20): every `_count` change a trace shows (`A -> B`,
/// an atomic read-modify-write, which reads the newest value in loom as on every CPU) starts
/// from the value the previous event of that page's count left (`-> A` or `= A`).
pub fn check_counts(trace: &[Event]) -> Result<(), String> {
    use std::collections::HashMap;
    let mut last: HashMap<&str, (i64, usize)> = HashMap::new();
    for e in trace {
        let Some((page, from, to)) = count_event(&e.event) else {
            continue;
        };
        if let (Some(from), Some(&(was, step))) = (from, last.get(page)) {
            if from != was {
                return Err(format!(
                    "step {}: {}'s {page}._count goes from {from}, but step {step} left it at {was}",
                    e.step,
                    who(e.cpu)
                ));
            }
        }
        last.insert(page, (to, e.step));
    }
    Ok(())
}

/// Record one step. `event` is only evaluated in checked builds.
#[inline(always)]
pub fn record(func: &'static str, event: impl FnOnce() -> String) {
    record_op(func, || None, event)
}

/// Record a step at which this CPU takes (`acquire`) or releases `lock`: a kernel bit lock
/// (`compound_lock`), or a named spinlock (the shim's events). The consistency check reads it.
#[inline(always)]
pub fn record_lock(
    func: &'static str,
    lock: impl FnOnce() -> String,
    acquire: bool,
    event: impl FnOnce() -> String,
) {
    record_op(
        func,
        || {
            Some(LockOp {
                lock: lock(),
                acquire,
            })
        },
        event,
    )
}

/// Record one step with its lock op; `lock` and `event` are evaluated only when recording.
#[inline(always)]
fn record_op(
    func: &'static str,
    lock: impl FnOnce() -> Option<LockOp>,
    event: impl FnOnce() -> String,
) {
    if CHECKED && RECORDING.with(|r| r.get()) {
        let lock = lock();
        // Format first: the log is never borrowed across anything that could reach a
        // scheduling point of the checker.
        let mut event = event();
        let cpu = cpu_of_thread();
        let stale = crate::sync::take_stale_reads(cpu);
        LOG.with(|l| {
            let mut l = l.borrow_mut();
            for r in &stale {
                // Two loads of one word that missed the same store say it once.
                let note = stale_note(&l, cpu, r);
                if !event.contains(&note) {
                    event.push_str(&note);
                }
            }
            push(&mut l, cpu, func, event, lock);
        });
    }
}

/// Append an event at the trace's next step and tell the shim that step (the store-buffer
/// mode's notes place stores by it).
fn push(
    l: &mut Vec<Event>,
    cpu: Option<usize>,
    func: &'static str,
    event: String,
    lock: Option<LockOp>,
) {
    let step = l.len() + 1;
    l.push(Event {
        step,
        cpu,
        func: Cow::Borrowed(func),
        event,
        lock,
    });
    crate::sync::set_step_hint(step);
}

/// Where a store made by `cpu` sits in the trace: after step `after` and before the next step
/// (the trace shows events, not every store; this is exact whoever records the next event).
fn store_step(log: &[Event], cpu: Option<usize>, after: usize) -> String {
    if after == 0 {
        format!("{}'s store before step 1", lane(cpu))
    } else if log.len() > after {
        format!(
            "{}'s store between steps {after} and {}",
            lane(cpu),
            after + 1
        )
    } else {
        format!("{}'s store after step {after}", lane(cpu))
    }
}

fn lane(cpu: Option<usize>) -> String {
    cpu.map_or("setup".to_string(), |c| format!("CPU{c}"))
}

/// The words a weak-memory load adds to its CPU's next event: the store it read and the newer
/// one in trace order that it did not see (issue #20).
fn stale_note(log: &[Event], cpu: Option<usize>, r: &crate::sync::StaleRead) -> String {
    let read = match r.read {
        Some((c, after)) => store_step(log, c, after),
        None => "the word's value at setup".to_string(),
    };
    let (nv, ncpu, nafter) = &r.newest;
    // The note sits on the CPU's next event, which may touch another word (an RMW): it names
    // the word the load read.
    let loader = match r.word {
        Some(word) => format!("{}'s load of {word}", lane(cpu)),
        None => lane(cpu),
    };
    format!(
        " [weak memory: {loader} read {} ({read}); {} = {nv} not yet visible to it]",
        r.value,
        store_step(log, *ncpu, *nafter),
    )
}

/// The log of the current execution.
pub fn snapshot() -> Vec<Event> {
    LOG.with(|l| l.borrow().clone())
}

/// Keep `failure` as the run's failure unless an earlier one was kept.
fn keep_first(failure: Failure) {
    FAILURE.with(|f| {
        let mut f = f.borrow_mut();
        if f.is_none() {
            *f = Some(failure);
        }
    });
}

/// Record a failure that the checker itself detected (loom's causality check on a
/// [`crate::sync::RaceCell`]), with the trace of the execution it ended.
///
/// loom stops the execution at the racing access. When that access is a [`crate::sync::RaceCell`]
/// (the lock-protected words), the shim knows which CPU made it and which CPU's access it
/// races: the failing step goes on the racing CPU's lane and a line on the other CPU's lane
/// names its side (issue #20: a data race shows on the lanes of both CPUs). Otherwise the
/// failing step is on no CPU's lane.
pub fn checker_failure(invariant: Invariant, message: String) {
    const FUNC: &str = "loom's race detector";
    let mut trace = snapshot();
    // A race on a RaceCell names both sides: the access loom stopped (on its CPU's lane) and
    // the other CPU's last conflicting access of the word (a line on that CPU's lane).
    let race = crate::sync::take_race_access();
    let rw = |w: bool| if w { "write" } else { "read" };
    let mut cpu = None;
    let mut event = format!("*** {invariant}: {message}");
    if let Some(r) = race {
        cpu = r.cpu;
        event = match r.other {
            Some((ocpu, ow, ostep)) => {
                trace.push(Event {
                    step: trace.len() + 1,
                    cpu: ocpu,
                    func: Cow::Borrowed(FUNC),
                    event: format!(
                        "(a note, not a new step) the other side of the race: this CPU's {} of the same lock-protected word, made right after step {ostep}; no lock orders it with {}'s {} below",
                        rw(ow),
                        who(r.cpu),
                        rw(r.write)
                    ),
                    lock: None,
                });
                format!(
                    "*** {invariant}: {}'s {} of a lock-protected word races {}'s {} after step {ostep} ({message})",
                    who(r.cpu),
                    rw(r.write),
                    who(ocpu),
                    rw(ow)
                )
            }
            None => format!(
                "*** {invariant}: {}'s {} of a lock-protected word ({message})",
                who(r.cpu),
                rw(r.write)
            ),
        };
    }
    trace.push(Event {
        step: trace.len() + 1,
        cpu,
        func: Cow::Borrowed(FUNC),
        event,
        lock: None,
    });
    keep_first(Failure {
        cause: Cause::Kernel(invariant),
        func: FUNC.to_string(),
        message,
        trace,
    });
}

/// Take the first failure captured in this run, if any.
pub fn take_failure() -> Option<Failure> {
    FAILURE.with(|f| f.borrow_mut().take())
}

/// The prefix of the panics [`fail`] and [`harness_fail`] raise (the checker keeps them quiet:
/// they are reported with their trace).
pub const PANIC_PREFIX: &str = "mmcheck: ";

#[cold]
fn broke(func: &'static str, cause: Cause, message: String) -> ! {
    record(func, || format!("*** {cause}: {message}"));
    keep_first(Failure {
        cause,
        func: func.to_string(),
        message: message.clone(),
        trace: snapshot(),
    });
    panic!("{PANIC_PREFIX}{cause} in {func}: {message}");
}

/// A kernel invariant broke: capture the trace (first failure of the run wins) and panic,
/// which ends the execution under loom and shuttle.
#[cold]
pub fn fail(func: &'static str, invariant: Invariant, message: String) -> ! {
    broke(func, Cause::Kernel(invariant), message)
}

/// The harness itself went wrong (a model's setup found no free page, a reference model and
/// its table disagree): the run is an error, never a kernel verdict.
#[cold]
pub fn harness_fail(func: &'static str, message: String) -> ! {
    broke(func, Cause::Harness, message)
}

/// `VM_BUG_ON(cond)`: only when CONFIG_DEBUG_VM is on (checked builds, and the scenario's
/// kernel config); otherwise the condition is not evaluated at all, as in the kernel.
#[macro_export]
macro_rules! VM_BUG_ON {
    ($func:expr, $cond:expr) => {
        if $crate::trace::config_debug_vm() && $cond {
            $crate::trace::fail(
                $func,
                $crate::trace::Invariant::VmBugOn,
                stringify!($cond).to_string(),
            );
        }
    };
}

/// `BUG_ON(cond)`: always checked, as in the kernel.
#[macro_export]
macro_rules! BUG_ON {
    ($func:expr, $cond:expr) => {
        if $cond {
            $crate::trace::fail(
                $func,
                $crate::trace::Invariant::BugOn,
                stringify!($cond).to_string(),
            );
        }
    };
}

/// Record a kernel-level step: `ktrace!("put_compound_page", "PageTail(page)={}", t)`.
#[macro_export]
macro_rules! ktrace {
    ($func:expr, $($arg:tt)*) => {
        $crate::trace::record($func, || format!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(step: usize, cpu: usize, func: &'static str, event: &str) -> Event {
        Event {
            step,
            cpu: Some(cpu),
            func: Cow::Borrowed(func),
            event: event.to_string(),
            lock: None,
        }
    }

    /// A step that takes (`acquire`) or releases `lock`.
    fn lk(step: usize, cpu: usize, func: &'static str, lock: &str, acquire: bool) -> Event {
        Event {
            lock: Some(LockOp {
                lock: lock.to_string(),
                acquire,
            }),
            ..ev(step, cpu, func, lock)
        }
    }

    #[test]
    fn a_weak_memory_note_names_the_word_it_read() {
        // The note lands on the CPU's next event, here an RMW of another word: it must say
        // which load it is about, so the RMW does not read as stale.
        let log = vec![
            ev(1, 0, "get_page", "page#0._count 1 -> 2"),
            ev(2, 1, "SetPageActive", "page#0 PG_active"),
        ];
        let mut r = crate::sync::StaleRead {
            word: Some(crate::sync::CName::of("page", 0, "flags")),
            value: "0x20".to_string(),
            read: None,
            newest: ("0x60".to_string(), Some(1), 1),
        };
        assert_eq!(
            stale_note(&log, Some(0), &r),
            " [weak memory: CPU0's load of page#0->flags read 0x20 (the word's value at setup); \
             CPU1's store between steps 1 and 2 = 0x60 not yet visible to it]"
        );
        // A word without a name (a litmus test's variable) keeps the CPU alone.
        r.word = None;
        assert!(stale_note(&log, Some(0), &r).starts_with(" [weak memory: CPU0 read 0x20 ("));
    }

    #[test]
    fn two_holders_of_one_lock_are_reported() {
        // The shape of issue #20's compound.1-debug-vm trace before the fix.
        let cl = "page#0 PG_compound_lock";
        let bad = [
            lk(11, 0, "compound_lock", cl, true),
            lk(14, 1, "compound_lock", cl, true),
            lk(19, 0, "compound_unlock", cl, false),
        ];
        let why = check_consistency(&bad).unwrap_err();
        assert!(
            why.contains(
                "step 14: CPU1 takes page#0 PG_compound_lock, which CPU0 holds since step 11"
            ),
            "{why}"
        );
        let good = [
            lk(11, 0, "compound_lock", cl, true),
            ev(12, 0, "get_page", "page#0._count 1 -> 2"),
            lk(13, 0, "compound_unlock", cl, false),
            lk(14, 1, "compound_lock", cl, true),
            lk(15, 1, "spin_lock", "anon_vma#0->lock", true),
            lk(16, 0, "spin_lock", "anon_vma#1->lock", true),
            lk(17, 1, "spin_unlock", "anon_vma#0->lock", false),
            lk(18, 0, "spin_unlock", "anon_vma#1->lock", false),
        ];
        assert_eq!(check_consistency(&good), Ok(()));
        let foreign = [
            lk(1, 0, "spin_lock", "zone->lru_lock", true),
            lk(2, 1, "spin_unlock", "zone->lru_lock", false),
        ];
        assert!(check_consistency(&foreign)
            .unwrap_err()
            .contains("step 2: CPU1 releases zone->lru_lock, which CPU0 took at step 1"));
        let nobody = [lk(3, 1, "spin_unlock", "zone->lru_lock", false)];
        assert!(check_consistency(&nobody)
            .unwrap_err()
            .contains("which nobody holds"));
        let again = [
            lk(1, 0, "spin_lock", "anon_vma#2->lock", true),
            lk(2, 0, "spin_lock", "anon_vma#2->lock", true),
        ];
        assert!(check_consistency(&again)
            .unwrap_err()
            .contains("CPU0 takes anon_vma#2->lock, which it already holds since step 1"));
    }

    #[test]
    fn counts_move_as_the_events_say() {
        let good = [
            ev(1, 1, "set_page_refcounted", "page#0._count = 1"),
            ev(2, 0, "get_page", "page#0._count 1 -> 2"),
            ev(3, 1, "put_page_testzero", "page#0._count 2 -> 1"),
            ev(
                4,
                1,
                "__split_huge_page_refcount",
                "page#1._count 0 -> 3 (mapcount(head) 0 + tail pins 2 + 1)",
            ),
        ];
        assert_eq!(check_counts(&good), Ok(()));
        let bad = [
            ev(2, 0, "get_page", "page#0._count 1 -> 2"),
            ev(3, 1, "put_page_testzero", "page#0._count 1 -> 0"),
        ];
        assert_eq!(
            check_counts(&bad),
            Err("step 3: CPU1's page#0._count goes from 1, but step 2 left it at 2".to_string())
        );
    }
}
