//! The store-buffer mode of the shim: an explicit opt-in (cargo feature `store-buffer`, which
//! builds for shuttle) in which a CPU's plain stores and non-value-returning atomic RMWs become
//! visible later than they execute. Without it nothing here runs: every hook below is a constant
//! `false` / `None` that the compiler removes, so the default, loom and plain shuttle builds
//! behave, and count executions, exactly as before.
//!
//! # Why
//!
//! loom places a store in its location's modification order when the store executes (the
//! shim's plain stores are swaps), and an RMW always reads the newest value. So loom never
//! produces an execution in which a CPU's earlier store lands after its later store became
//! visible to another CPU that then wrote the first location: `S+poonceonces`, and the shape of
//! `__split_huge_page_refcount()`'s `atomic_add()` / `smp_mb()` / PG_tail clear against a
//! `put_page()` that sees PG_tail clear and decrements (proofs/README.md, "Calibration"). A
//! barrier that only forbids such an execution cannot be shown needed under loom. This mode
//! produces those executions.
//!
//! # The model
//!
//! shuttle is sequentially consistent: memory is one array, every access reads the newest
//! value. On top of it, each CPU (a thread started by `spawn_cpu`; the model's main thread has
//! no buffer) has a store buffer:
//!
//! * `WRITE_ONCE`, `atomic_set`, the store of a non-atomic `__set_bit`/`__clear_bit` and
//!   `smp_store_release` enter the buffer as stores; `atomic_inc/dec/add/sub`, `set_bit`,
//!   `clear_bit` (non-value-returning, unordered in the LKMM) enter it as *posted* RMWs, applied
//!   atomically to memory when they leave it (as ARMv8's far atomics are carried out by the
//!   memory system, explanation.txt, "ODDS AND ENDS").
//! * Entries leave the buffer in any order (the buffer is not FIFO: the LKMM lets unrelated
//!   stores propagate out of order), except that two entries for one location leave in program
//!   order (coherence), and an entry never leaves before one of an earlier *epoch*: `smp_wmb()`
//!   and `smp_store_release()` start a new epoch (stores before them become visible first).
//! * At each of its shim operations (a scheduling point), a CPU drains some random entries:
//!   while a fair coin says so, one random entry that may leave. shuttle's deterministic
//!   randomness (`shuttle::rand`) makes the choices part of the schedule, so a failing schedule
//!   replays.
//! * The whole buffer drains (in any allowed order) at `smp_mb()` and its `__before/__after_atomic`
//!   and `__after_spinlock` forms, before every value-returning atomic (fully ordered), before
//!   `clear_bit_unlock()` and `spin_unlock()` (release), before `spin_lock()` (a CPU about to
//!   block does not keep stores another CPU may wait for), at `cpu_relax()`, and when the CPU's
//!   thread ends.
//! * A load of a location the CPU has buffered stores for returns its newest buffered store
//!   (store forwarding); if posted RMWs are buffered for it, the CPU first drains up to its last
//!   entry for the location. An acquire RMW (`test_and_set_bit_lock`) drains the CPU's entries
//!   for its location first.
//!
//! Loads are never delayed and memory stays multicopy atomic, so the mode adds the store-side
//! reorderings (SB, MP without `smp_wmb`, S, R, 2+2W) and nothing else: load buffering, IRIW and
//! WRC stay out of reach (the calibration table's store-buffer rows measure it).
//!
//! A buffered entry points at its target word: a model must keep its state alive until every
//! CPU is joined (every model does: its end checks read the state after the joins).
//!
//! The value a posted RMW returns to its caller (the shim's `atomic_inc()` & co. return the old
//! value for the event trace only; the kernel's return nothing) is the value this CPU sees when
//! it issues the RMW; the RMW itself lands later.

#[cfg(all(feature = "store-buffer", loom))]
compile_error!("the store-buffer mode runs under shuttle; build it without --cfg loom");

/// True when this build has the store-buffer mode.
pub const ACTIVE: bool = cfg!(all(feature = "store-buffer", not(loom)));

#[cfg(all(feature = "store-buffer", not(loom)))]
pub use on::*;

#[cfg(not(all(feature = "store-buffer", not(loom))))]
pub use off::*;

/// The hooks of a build without the mode: nothing is buffered.
#[cfg(not(all(feature = "store-buffer", not(loom))))]
#[allow(clippy::missing_const_for_fn)]
mod off {
    #[inline(always)]
    pub fn start() {}
    #[inline(always)]
    pub fn finish() {}
    #[inline(always)]
    pub fn drain_all() {}
    #[inline(always)]
    pub fn new_epoch() {}
    #[inline(always)]
    pub fn word_store<A>(_: &A, _: usize) -> bool {
        false
    }
    #[inline(always)]
    pub fn word_or<A>(_: &A, _: usize) -> bool {
        false
    }
    #[inline(always)]
    pub fn word_and<A>(_: &A, _: usize) -> bool {
        false
    }
    #[inline(always)]
    pub fn word_load<A>(_: &A) -> Option<usize> {
        None
    }
    #[inline(always)]
    pub fn word_flush<A>(_: &A) {}
    #[inline(always)]
    pub fn count_store<A>(_: &A, _: i32) -> bool {
        false
    }
    #[inline(always)]
    pub fn count_add<A>(_: &A, _: i32) -> Option<i32> {
        None
    }
    #[inline(always)]
    pub fn count_load<A>(_: &A) -> Option<i32> {
        None
    }
    #[inline(always)]
    pub fn landed<A>(_: &A, _: i64) {}
    #[inline(always)]
    pub fn missed<A>(_: &A, _: i64) -> Option<super::Missed> {
        None
    }
    #[inline(always)]
    pub fn reset_notes() {}
}

/// What a load that read memory missed in the store-buffer mode: the newest store another CPU
/// executed to the word that is still in its buffer (its value as it would land on what the
/// load read, its CPU, the trace step after which it was executed), and the store that wrote
/// what the load read (CPU and step; None: the word's value when it was created).
pub struct Missed {
    pub read: Option<(Option<usize>, usize)>,
    pub newest: (i64, Option<usize>, usize),
}

#[cfg(all(feature = "store-buffer", not(loom)))]
mod on {
    use super::super::backend::{AtomicI32, AtomicUsize};
    use shuttle::rand::{thread_rng, RngCore};
    use std::cell::RefCell;
    use std::sync::atomic::Ordering::SeqCst;

    /// The word an entry goes to.
    #[derive(Clone, Copy)]
    enum Target {
        Word(*const AtomicUsize),
        Count(*const AtomicI32),
    }

    impl Target {
        fn addr(self) -> usize {
            match self {
                Target::Word(p) => p as usize,
                Target::Count(p) => p as usize,
            }
        }
    }

    #[derive(Clone, Copy)]
    enum Op {
        Store(i64),
        /// A posted `atomic_add` (count) .
        Add(i32),
        /// A posted `set_bit` (word).
        Or(usize),
        /// A posted `clear_bit` (word).
        And(usize),
    }

    #[derive(Clone, Copy)]
    struct Entry {
        target: Target,
        op: Op,
        epoch: u64,
        /// For the trace's weak-memory notes: which entry, which CPU, and the trace step after
        /// which the CPU executed the store.
        id: u64,
        cpu: Option<usize>,
        step: usize,
    }

    /// Execution-wide bookkeeping for the weak-memory notes (shuttle runs every CPU of an
    /// execution on one OS thread, so a plain thread-local is the execution's): the entries
    /// still in some CPU's buffer, and the stores that reached each word, in the order they did
    /// (value after, CPU, step). Nothing here is read by the schedule: no scheduling point, no
    /// random choice.
    #[derive(Default)]
    struct Notes {
        next: u64,
        pending: Vec<Entry>,
        landed: std::collections::HashMap<usize, Vec<(i64, Option<usize>, usize)>>,
    }

    std::thread_local! {
        static NOTES: RefCell<Notes> = RefCell::new(Notes::default());
    }

    /// A new execution: forget the last one's entries and stores.
    pub fn reset_notes() {
        NOTES.with(|n| *n.borrow_mut() = Notes::default());
    }

    /// A store that reached memory without a buffer (a CPU's RMW after its buffer drained, the
    /// setup's stores): `value` is the word's value after it.
    pub fn landed<A>(a: &A, value: i64) {
        let cpu = super::super::cpu_of_thread();
        let step = super::super::step_hint();
        NOTES.with(|n| {
            n.borrow_mut()
                .landed
                .entry(a as *const A as usize)
                .or_default()
                .push((value, cpu, step))
        });
    }

    /// What a load of `a` that read `value` from memory missed: the newest entry for `a` still
    /// in another CPU's buffer, if any, and the store that wrote `value`.
    pub fn missed<A>(a: &A, value: i64) -> Option<super::Missed> {
        let addr = a as *const A as usize;
        let me = super::super::cpu_of_thread();
        NOTES.with(|n| {
            let n = n.borrow();
            let e = n
                .pending
                .iter()
                .filter(|e| e.target.addr() == addr && e.cpu != me)
                .max_by_key(|e| e.id)?;
            let would = match e.op {
                Op::Store(v) => v,
                Op::Add(i) => (value as i32).wrapping_add(i) as i64,
                Op::Or(m) => ((value as usize) | m) as i64,
                Op::And(m) => ((value as usize) & m) as i64,
            };
            let read = n
                .landed
                .get(&addr)
                .and_then(|l| l.iter().rev().find(|(v, _, _)| *v == value))
                .map(|&(_, c, s)| (c, s));
            Some(super::Missed {
                read,
                newest: (would, e.cpu, e.step),
            })
        })
    }

    #[derive(Default)]
    struct Buffer {
        entries: Vec<Entry>,
        epoch: u64,
    }

    impl Buffer {
        /// Entries that may leave now: of the oldest epoch, and the first for their location.
        fn may_leave(&self) -> Vec<usize> {
            let Some(oldest) = self.entries.iter().map(|e| e.epoch).min() else {
                return Vec::new();
            };
            (0..self.entries.len())
                .filter(|&i| {
                    let e = &self.entries[i];
                    e.epoch == oldest
                        && !self.entries[..i]
                            .iter()
                            .any(|o| o.target.addr() == e.target.addr())
                })
                .collect()
        }
    }

    shuttle::thread_local! {
        /// This CPU's store buffer (None on a thread that is not a CPU).
        static BUFFER: RefCell<Option<Buffer>> = const { RefCell::new(None) };
    }

    fn with<R>(f: impl FnOnce(&mut Buffer) -> R) -> Option<R> {
        BUFFER.with(|b| b.borrow_mut().as_mut().map(f))
    }

    /// Apply an entry to memory (an SC access of shuttle: a scheduling point).
    fn apply(e: Entry) {
        // SAFETY: the target outlives the CPU's thread, which drains its buffer before it ends
        // (module doc: a model keeps its state alive until every CPU is joined).
        let after = unsafe {
            match (e.target, e.op) {
                (Target::Word(p), Op::Store(v)) => {
                    (*p).swap(v as usize, SeqCst);
                    v
                }
                (Target::Word(p), Op::Or(m)) => ((*p).fetch_or(m, SeqCst) | m) as i64,
                (Target::Word(p), Op::And(m)) => ((*p).fetch_and(m, SeqCst) & m) as i64,
                (Target::Count(p), Op::Store(v)) => {
                    (*p).swap(v as i32, SeqCst);
                    // The trace says when a plain store of a count becomes visible: a later
                    // RMW by another CPU reads it only from here on.
                    super::super::observe_landing(e.cpu, e.step, v);
                    v
                }
                (Target::Count(p), Op::Add(i)) => (*p).fetch_add(i, SeqCst).wrapping_add(i) as i64,
                _ => unreachable!("store buffer: an op of the wrong width"),
            }
        };
        NOTES.with(|n| {
            let mut n = n.borrow_mut();
            n.pending.retain(|p| p.id != e.id);
            n.landed
                .entry(e.target.addr())
                .or_default()
                .push((after, e.cpu, e.step));
        });
    }

    fn coin() -> bool {
        thread_rng().next_u64() & 1 == 0
    }

    /// One random entry that may leave leaves (false if the buffer is empty, or `stop` says so).
    fn drain_one(stop: impl FnOnce() -> bool) -> bool {
        let next = with(|b| {
            if b.entries.is_empty() || stop() {
                return None;
            }
            let ready = b.may_leave();
            let i = ready[(thread_rng().next_u64() % ready.len() as u64) as usize];
            Some(b.entries.remove(i))
        })
        .flatten();
        match next {
            Some(e) => {
                apply(e);
                true
            }
            None => false,
        }
    }

    /// At a scheduling point: while a coin says so, one random entry that may leave leaves.
    fn drain_some() {
        while drain_one(|| !coin()) {}
    }

    /// Drain, in program order, every entry up to and including the last one `last` selects.
    fn drain_until(last: impl Fn(&Entry) -> bool) {
        let n = with(|b| b.entries.iter().rposition(&last).map_or(0, |i| i + 1)).unwrap_or(0);
        for _ in 0..n {
            if let Some(e) = with(|b| b.entries.remove(0)) {
                apply(e);
            }
        }
    }

    /// Enqueue an entry for this CPU, if it is one; false on a thread without a buffer.
    fn push(target: Target, op: Op) -> bool {
        drain_some();
        let cpu = super::super::cpu_of_thread();
        let step = super::super::step_hint();
        with(|b| {
            NOTES.with(|n| {
                let mut n = n.borrow_mut();
                n.next += 1;
                let e = Entry {
                    target,
                    op,
                    epoch: b.epoch,
                    id: n.next,
                    cpu,
                    step,
                };
                b.entries.push(e);
                n.pending.push(e);
            })
        })
        .is_some()
    }

    /// A CPU starts: it gets an empty buffer.
    pub fn start() {
        BUFFER.with(|b| *b.borrow_mut() = Some(Buffer::default()));
    }

    /// A CPU ends: its buffer drains.
    pub fn finish() {
        drain_all();
        BUFFER.with(|b| *b.borrow_mut() = None);
    }

    /// A full barrier (or a blocking point): every entry leaves, in any order the buffer allows
    /// (each is a scheduling point: other CPUs may see some and not yet others).
    pub fn drain_all() {
        while drain_one(|| false) {}
    }

    /// `smp_wmb()`, the release of `smp_store_release()`: later entries leave after earlier ones.
    pub fn new_epoch() {
        with(|b| {
            if !b.entries.is_empty() {
                b.epoch += 1;
            }
        });
    }

    pub fn word_store(a: &AtomicUsize, v: usize) -> bool {
        push(Target::Word(a), Op::Store(v as i64))
    }

    pub fn word_or(a: &AtomicUsize, mask: usize) -> bool {
        push(Target::Word(a), Op::Or(mask))
    }

    pub fn word_and(a: &AtomicUsize, mask: usize) -> bool {
        push(Target::Word(a), Op::And(mask))
    }

    pub fn count_store(a: &AtomicI32, v: i32) -> bool {
        push(Target::Count(a), Op::Store(v as i64))
    }

    /// A posted `atomic_add(i, a)`: Some(the value this CPU sees before it), or None on a
    /// thread without a buffer (the caller does the RMW itself).
    pub fn count_add(a: &AtomicI32, i: i32) -> Option<i32> {
        with(|_| ())?;
        let seen = count_load(a).unwrap_or_else(|| a.load(SeqCst));
        push(Target::Count(a), Op::Add(i)).then_some(seen)
    }

    /// A load by this CPU: Some(forwarded value) when its buffer holds only stores for the
    /// location; otherwise None, after draining its posted RMWs for the location.
    fn load(addr: usize) -> Option<i64> {
        drain_some();
        let (stores_only, last) = with(|b| {
            let mine: Vec<&Entry> = b
                .entries
                .iter()
                .filter(|e| e.target.addr() == addr)
                .collect();
            let stores_only = mine.iter().all(|e| matches!(e.op, Op::Store(_)));
            let last = mine.last().map(|e| e.op);
            (stores_only, last)
        })?;
        match (stores_only, last) {
            (_, None) => None,
            (true, Some(Op::Store(v))) => Some(v),
            _ => {
                drain_until(|e| e.target.addr() == addr);
                None
            }
        }
    }

    pub fn word_load(a: &AtomicUsize) -> Option<usize> {
        load(a as *const AtomicUsize as usize).map(|v| v as usize)
    }

    pub fn count_load(a: &AtomicI32) -> Option<i32> {
        load(a as *const AtomicI32 as usize).map(|v| v as i32)
    }

    /// Before an RMW this CPU does on `a` itself: its buffered entries for `a` leave first.
    pub fn word_flush(a: &AtomicUsize) {
        let addr = a as *const AtomicUsize as usize;
        drain_some();
        drain_until(|e| e.target.addr() == addr);
    }
}
