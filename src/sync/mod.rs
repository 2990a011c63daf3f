//! The one sync shim: the only module that knows which backend mmcheck is built for, and the
//! only place where a kernel primitive is mapped to C11.
//!
//! * `--cfg loom`            -> loom (exhaustive C11 exploration)
//! * `--features shuttle`    -> shuttle (randomized / PCT schedules, sequentially consistent)
//! * otherwise               -> std (production build, used by the benchmarks)
//!
//! Precedence is loom > shuttle > std. This module imports nothing else from the crate (it is
//! the floor of the layer table in `lib.rs`); everything else calls the kernel's own names
//! defined here (`atomic_inc`, `atomic_dec_and_test`, `test_bit`, `smp_wmb`, `READ_ONCE`,
//! `spin_lock`, `bit_spin_lock`, ...) and never spells a C11 `Ordering`.
//!
//! # The mapping, once (proofs/README.md, "Kernel primitives in C11", has the LKMM side)
//!
//! | kernel | C11 here | why |
//! |---|---|---|
//! | `atomic_read`, `READ_ONCE`, `test_bit`, plain word loads | relaxed load | the kernel orders nothing |
//! | `atomic_set`, `WRITE_ONCE`, plain word stores | relaxed `swap` (value ignored) | see "plain stores" below |
//! | `atomic_inc/dec/add/sub`, `set_bit`, `clear_bit` | relaxed RMW | non-value-returning RMWs are unordered in the LKMM |
//! | `__set_bit`, `__clear_bit` (non-atomic) | relaxed load, then a plain store | can lose a concurrent update, as on every CPU |
//! | `atomic_dec_and_test`, `atomic_inc_not_zero`, `atomic_add_negative`, `atomic_*_return`, `test_and_set_bit` | `fence(SeqCst); relaxed RMW; fence(SeqCst)` | value-returning RMWs are fully ordered; loom models SeqCst *fences* but treats SeqCst *accesses* as AcqRel (loom #108, #180) |
//! | `test_and_set_bit_lock` | `fetch_or(Acquire)` | ACQUIRE on success |
//! | `clear_bit_unlock` | `fetch_and(Release)` | RELEASE |
//! | `smp_mb` / `smp_rmb` / `smp_wmb` | `fence(SeqCst)` / `fence(Acquire)` / `fence(Release)` | C11 acquire/release fences also order loads before later stores: slightly stronger than rmb/wmb |
//! | `smp_mb__before_atomic`, `smp_mb__after_atomic`, `smp_mb__after_spinlock` | `fence(SeqCst)` | as `smp_mb`: at least as strong as the LKMM's |
//! | `smp_load_acquire` / `smp_store_release` | acquire load / release store (the store a `swap`) | |
//! | `spin_lock` / `spin_unlock` | the checker's mutex (loom, shuttle), a FIFO ticket lock (std, as x86 since 2.6.25) | acquire / release; a waiter blocks under a checker so 3+ contenders terminate |
//!
//! **Plain stores** are relaxed `swap`s: loom keeps only a partial modification order for plain
//! stores, and with a plain store a CPU could re-read a concurrent RMW's older value after its
//! own store (a coherence violation no CPU has). The swap places the store after every write
//! already made. Cost: a store is never ordered before a concurrent store it did not see; the
//! LKMM allows that (S+poonceonces), so a barrier that only forbids it cannot be shown needed
//! (proofs/README.md, "Calibration").
//!
//! **Store-buffer mode** (opt-in, `--features store-buffer`, shuttle): plain stores and
//! non-value-returning atomics enter a per-CPU store buffer and become visible later than they
//! execute (`store_buffer.rs`); in every other build its hooks are constant no-ops.
//!
//! **Failed `atomic_inc_not_zero`**: the LKMM orders only a successful one; here both are
//! fenced (stronger than the kernel). A bug that needs an unordered failure is not found.

#![allow(non_camel_case_types)]

#[cfg(loom)]
mod backend {
    pub use loom::sync::atomic::{fence, AtomicI32, AtomicUsize};
    pub use loom::sync::{Condvar, Mutex, MutexGuard};
    pub use loom::thread::{spawn, yield_now, JoinHandle};
    pub const NAME: &str = "loom";
}

#[cfg(all(not(loom), feature = "shuttle"))]
mod backend {
    pub use shuttle::sync::atomic::{fence, AtomicI32, AtomicUsize};
    pub use shuttle::sync::{Mutex, MutexGuard};
    pub use shuttle::thread::{spawn, yield_now, JoinHandle};
    pub const NAME: &str = "shuttle";
}

#[cfg(all(not(loom), not(feature = "shuttle")))]
mod backend {
    pub use std::sync::atomic::{fence, AtomicI32, AtomicUsize};
    pub use std::thread::{spawn, yield_now, JoinHandle};
    pub const NAME: &str = "std";
}

pub mod driver;
pub mod irq;
pub mod store_buffer;

use store_buffer as sb;

pub use backend::JoinHandle;
use backend::{fence, AtomicI32, AtomicUsize};
pub use irq::{
    hardirq, in_irq, local_irq_disable, local_irq_enable, local_irq_restore, local_irq_save,
    spawn_irq, IrqFlags,
};
/// C11 orderings, for harness code that builds its own atomics (tests of the shim). Kernel
/// code never names one: `tests/layers.rs` checks it.
pub use std::sync::atomic::Ordering;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release, SeqCst};

/// Name of the backend this build runs on ("loom", "shuttle" or "std").
pub const BACKEND: &str = backend::NAME;

/// True in checked builds: under a model checker, or in a debug build. Ghost state, the event
/// trace and `VM_BUG_ON` are active only then, like `CONFIG_DEBUG_VM`; the release production
/// build compiles them away.
pub const CHECKED: bool = cfg!(any(loom, feature = "shuttle", debug_assertions));

/// True when the build explores interleavings (loom or shuttle) rather than running on hardware.
pub const MODEL_CHECKED: bool = cfg!(any(loom, feature = "shuttle"));

/// True when this build has an exhaustive checker (loom).
pub const EXHAUSTIVE: bool = cfg!(loom);

/// True when this build has randomized schedulers (shuttle).
pub const RANDOMIZED: bool = cfg!(all(not(loom), feature = "shuttle"));

// ---------------------------------------------------------------------------------------------
// Watched atomics: what a weak-memory load missed (issue #20)

/// The atomic behind an `atomic_t` or an `unsigned_long`. Every operation goes to the
/// backend's atomic; under loom, while the trace records (a failing execution explored again,
/// `trace::set_recording`), the word also keeps the stores made to it in execution order (the
/// trace's order: loom runs one CPU at a time), so a load that returns an older store's value
/// can say so: the trace line of the loading CPU's next event names the store it read and the
/// newer one it missed ([`take_stale_reads`]). No checker ever reads this history: it adds no
/// scheduling point and no interleaving, and the exploration itself keeps none.
///
/// In the store-buffer mode the shim's store buffer keeps what the notes need instead
/// (`store_buffer::missed`): a load that reads memory while another CPU's store to the word is
/// still in that CPU's buffer names that store, with the store that wrote what it read.
pub struct Watched<A, T: Copy> {
    a: A,
    /// The word's name, which a weak-memory note gives ([`atomic_t::named`]); builds that
    /// note stale reads only.
    #[cfg(any(loom, feature = "store-buffer"))]
    name: Option<CName>,
    #[cfg(loom)]
    init: T,
    /// (value, CPU, the trace step after which it was stored)
    #[cfg(loom)]
    stores: std::cell::RefCell<Vec<(T, Option<usize>, usize)>>,
    #[cfg(not(loom))]
    _t: std::marker::PhantomData<T>,
}

// SAFETY: the history is a RefCell only under loom, which runs every model thread of an
// execution on one OS thread, one at a time, and never switches threads inside a history update
// (no loom operation is called while it is borrowed). Objects of one execution are never shared
// with another OS thread.
#[cfg(loom)]
unsafe impl<A: Sync, T: Copy + Send> Sync for Watched<A, T> {}

/// A load that returned an older store's value than the newest one in trace order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaleRead {
    /// The word that was read, when it has a name.
    pub word: Option<CName>,
    /// The value read, as the trace prints the word's values.
    pub value: String,
    /// The store it read: its CPU and the step after which it was made; None: the value the
    /// word had when it was created (the setup).
    pub read: Option<(Option<usize>, usize)>,
    /// The newest store in trace order: its value, CPU and the step after which it was made.
    pub newest: (String, Option<usize>, usize),
}

std::thread_local! {
    /// Stale reads not yet shown, by CPU (loom builds while recording; the store-buffer mode).
    static STALE: std::cell::RefCell<Vec<(Option<usize>, StaleRead)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The stale reads `cpu` made since its last event (the trace appends them to its next one).
pub fn take_stale_reads(cpu: Option<usize>) -> Vec<StaleRead> {
    STALE.with(|s| {
        let mut s = s.borrow_mut();
        if s.is_empty() {
            return Vec::new();
        }
        let (mine, rest): (Vec<_>, Vec<_>) = s.drain(..).partition(|(c, _)| *c == cpu);
        *s = rest;
        mine.into_iter().map(|(_, r)| r).collect()
    })
}

/// Keep a stale read for `cpu`'s next event, once (a spin loop re-reads the same word).
fn push_stale(cpu: Option<usize>, r: StaleRead) {
    STALE.with(|s| {
        let mut s = s.borrow_mut();
        if !s.iter().any(|(c, o)| *c == cpu && *o == r) {
            s.push((cpu, r));
        }
    });
}

/// Forget the stale reads not yet shown, and the store-buffer mode's pending and landed
/// stores (a new execution).
pub fn clear_stale_reads() {
    STALE.with(|s| s.borrow_mut().clear());
    sb::reset_notes();
}

macro_rules! watched {
    ($A:ty, $T:ty, $show:expr) => {
        impl Watched<$A, $T> {
            pub fn new(v: $T, _name: Option<CName>) -> Self {
                Watched {
                    a: <$A>::new(v),
                    #[cfg(any(loom, feature = "store-buffer"))]
                    name: _name,
                    #[cfg(loom)]
                    init: v,
                    #[cfg(loom)]
                    stores: std::cell::RefCell::new(Vec::new()),
                    #[cfg(not(loom))]
                    _t: std::marker::PhantomData,
                }
            }

            /// The word's name, in the builds that note stale reads.
            #[inline(always)]
            #[allow(dead_code)]
            fn name(&self) -> Option<CName> {
                #[cfg(any(loom, feature = "store-buffer"))]
                return self.name;
                #[cfg(not(any(loom, feature = "store-buffer")))]
                return None;
            }

            /// The backend's atomic (the store-buffer mode's hooks take it).
            #[inline(always)]
            #[allow(dead_code)]
            fn inner(&self) -> &$A {
                &self.a
            }

            #[inline(always)]
            fn wrote(&self, _v: $T) {
                #[cfg(loom)]
                if race_notes() {
                    let step = STEP.with(|s| s.get());
                    self.stores.borrow_mut().push((_v, cpu_of_thread(), step));
                }
                // The store-buffer mode: a store that reached memory without a buffer.
                sb::landed(&self.a, _v as i64);
            }

            #[inline(always)]
            fn read(&self, _v: $T) {
                // The store-buffer mode: a load from memory while another CPU still buffers a
                // store to the word (buffered loads of the CPU's own stores are not noted).
                if let Some(m) = sb::missed(&self.a, _v as i64) {
                    let show: fn($T) -> String = $show;
                    let (nv, ncpu, nstep) = m.newest;
                    let r = StaleRead {
                        word: self.name(),
                        value: show(_v),
                        read: m.read,
                        newest: (show(nv as $T), ncpu, nstep),
                    };
                    push_stale(cpu_of_thread(), r);
                }
                #[cfg(loom)]
                if race_notes() {
                    let stores = self.stores.borrow();
                    let show: fn($T) -> String = $show;
                    let Some(&(newest, ncpu, nstep)) = stores.last() else {
                        return;
                    };
                    if newest == _v {
                        return;
                    }
                    let read = stores[..stores.len() - 1]
                        .iter()
                        .rev()
                        .find(|(v, _, _)| *v == _v)
                        .map(|&(_, c, s)| (c, s));
                    if read.is_none() && self.init != _v {
                        return; // not a value this word held: nothing to name
                    }
                    let r = StaleRead {
                        word: self.name(),
                        value: show(_v),
                        read,
                        newest: (show(newest), ncpu, nstep),
                    };
                    push_stale(cpu_of_thread(), r);
                }
            }

            #[inline(always)]
            fn load(&self, o: Ordering) -> $T {
                irq::window();
                let v = self.a.load(o);
                self.read(v);
                v
            }

            /// A load whose value a compare-and-exchange checks next (no note).
            #[inline(always)]
            #[allow(dead_code)]
            fn load_unnoted(&self, o: Ordering) -> $T {
                irq::window();
                self.a.load(o)
            }

            #[inline(always)]
            fn swap(&self, v: $T, o: Ordering) -> $T {
                irq::window();
                let old = self.a.swap(v, o);
                self.wrote(v);
                old
            }

            #[inline(always)]
            #[allow(dead_code)]
            fn fetch_add(&self, v: $T, o: Ordering) -> $T {
                irq::window();
                let old = self.a.fetch_add(v, o);
                self.wrote(old.wrapping_add(v));
                old
            }

            #[inline(always)]
            #[allow(dead_code)]
            fn fetch_sub(&self, v: $T, o: Ordering) -> $T {
                irq::window();
                let old = self.a.fetch_sub(v, o);
                self.wrote(old.wrapping_sub(v));
                old
            }

            #[inline(always)]
            #[allow(dead_code)]
            fn fetch_or(&self, v: $T, o: Ordering) -> $T {
                irq::window();
                let old = self.a.fetch_or(v, o);
                self.wrote(old | v);
                old
            }

            #[inline(always)]
            #[allow(dead_code)]
            fn fetch_and(&self, v: $T, o: Ordering) -> $T {
                irq::window();
                let old = self.a.fetch_and(v, o);
                self.wrote(old & v);
                old
            }

            #[inline(always)]
            fn compare_exchange(
                &self,
                old: $T,
                new: $T,
                ok: Ordering,
                err: Ordering,
            ) -> Result<$T, $T> {
                irq::window();
                let r = self.a.compare_exchange(old, new, ok, err);
                if r.is_ok() {
                    self.wrote(new);
                }
                r
            }
        }
    };
}

watched!(AtomicI32, i32, |v| v.to_string());
watched!(AtomicUsize, usize, |v| format!("{v:#x}"));

// ---------------------------------------------------------------------------------------------
// atomic_t (include/linux/atomic.h, arch/x86/include/asm/atomic.h)

/// `atomic_t`: a counter read and changed only through the `atomic_*` functions below.
pub struct atomic_t(Watched<AtomicI32, i32>);

impl atomic_t {
    /// `ATOMIC_INIT(i)`.
    pub fn new(i: i32) -> atomic_t {
        atomic_t(Watched::<AtomicI32, i32>::new(i, None))
    }

    /// `ATOMIC_INIT(i)` of the field `name` (`page#0->_count`): a weak-memory note of a load
    /// of it names the word.
    pub fn named(i: i32, name: CName) -> atomic_t {
        atomic_t(Watched::<AtomicI32, i32>::new(i, Some(name)))
    }
}

/// `atomic_read(v)`: a relaxed load.
#[inline(always)]
pub fn atomic_read(v: &atomic_t) -> i32 {
    if let Some(seen) = sb::count_load(v.0.inner()) {
        return seen;
    }
    v.0.load(Relaxed)
}

/// `atomic_set(v, i)`: a plain store (see "plain stores" in the module doc).
#[inline(always)]
pub fn atomic_set(v: &atomic_t, i: i32) {
    if sb::count_store(v.0.inner(), i) {
        return;
    }
    v.0.swap(i, Relaxed);
}

/// `atomic_inc(v)`: unordered. Returns the value before, for the event trace only (the
/// kernel's returns nothing).
#[inline(always)]
pub fn atomic_inc(v: &atomic_t) -> i32 {
    if let Some(seen) = sb::count_add(v.0.inner(), 1) {
        return seen;
    }
    v.0.fetch_add(1, Relaxed)
}

/// `atomic_dec(v)`: unordered. Returns the value before, for the event trace only.
#[inline(always)]
pub fn atomic_dec(v: &atomic_t) -> i32 {
    if let Some(seen) = sb::count_add(v.0.inner(), -1) {
        return seen;
    }
    v.0.fetch_sub(1, Relaxed)
}

/// `atomic_add(i, v)`: unordered. Returns the value before, for the event trace only.
#[inline(always)]
pub fn atomic_add(i: i32, v: &atomic_t) -> i32 {
    if let Some(seen) = sb::count_add(v.0.inner(), i) {
        return seen;
    }
    v.0.fetch_add(i, Relaxed)
}

/// `atomic_sub(i, v)`: unordered. Returns the value before, for the event trace only.
#[inline(always)]
pub fn atomic_sub(i: i32, v: &atomic_t) -> i32 {
    if let Some(seen) = sb::count_add(v.0.inner(), -i) {
        return seen;
    }
    v.0.fetch_sub(i, Relaxed)
}

/// `atomic_add_return(i, v)`: fully ordered, returns the new value.
#[inline(always)]
pub fn atomic_add_return(i: i32, v: &atomic_t) -> i32 {
    full(|| v.0.fetch_add(i, Relaxed)) + i
}

/// `atomic_sub_return(i, v)`: fully ordered, returns the new value.
#[inline(always)]
pub fn atomic_sub_return(i: i32, v: &atomic_t) -> i32 {
    full(|| v.0.fetch_sub(i, Relaxed)) - i
}

/// `atomic_inc_return(v)`: fully ordered, returns the new value.
#[inline(always)]
pub fn atomic_inc_return(v: &atomic_t) -> i32 {
    atomic_add_return(1, v)
}

/// `atomic_dec_return(v)`: fully ordered, returns the new value. The kernel's
/// `atomic_dec_and_test(v)` is `atomic_dec_return(v) == 0`, with the same ordering; code that
/// wants the count in its trace calls this one and says so.
#[inline(always)]
pub fn atomic_dec_return(v: &atomic_t) -> i32 {
    atomic_sub_return(1, v)
}

/// `atomic_dec_and_test(v)`: fully ordered; true when the new value is 0.
#[inline(always)]
pub fn atomic_dec_and_test(v: &atomic_t) -> bool {
    atomic_dec_return(v) == 0
}

/// `atomic_add_negative(i, v)`: fully ordered; true when the new value is negative.
#[inline(always)]
pub fn atomic_add_negative(i: i32, v: &atomic_t) -> bool {
    atomic_add_return(i, v) < 0
}

/// `__atomic_add_unless(v, a, u)` (3.x): add `a` unless the value is `u`; returns the value
/// before. Fully ordered (both outcomes here; the kernel orders only a success).
#[inline(always)]
pub fn __atomic_add_unless(v: &atomic_t, a: i32, u: i32) -> i32 {
    full(|| {
        let mut cur = v.0.load_unnoted(Relaxed);
        loop {
            if cur == u {
                return cur;
            }
            match v.0.compare_exchange(cur, cur + a, Relaxed, Relaxed) {
                Ok(old) => return old,
                Err(now) => cur = now,
            }
        }
    })
}

/// `atomic_cmpxchg_relaxed(v, old, new)` (4.3+; no 3.x code uses it): an unordered
/// compare-and-exchange, returns the value before. Only mutants use it, to take the full
/// ordering away from a 3.x value-returning atomic.
#[inline(always)]
pub fn atomic_cmpxchg_relaxed(v: &atomic_t, old: i32, new: i32) -> i32 {
    match v.0.compare_exchange(old, new, Relaxed, Relaxed) {
        Ok(x) | Err(x) => x,
    }
}

/// `atomic_inc_not_zero(v)`: `atomic_add_unless(v, 1, 0)`; true if it incremented.
#[inline(always)]
pub fn atomic_inc_not_zero(v: &atomic_t) -> bool {
    __atomic_add_unless(v, 1, 0) != 0
}

/// A value-returning kernel atomic is fully ordered: an `smp_mb()` before and after. Production
/// builds on x86-64 omit the fences: there every atomic RMW is a `lock`-prefixed instruction
/// and already a full barrier, exactly as the kernel's is.
#[inline(always)]
fn full<R>(rmw: impl FnOnce() -> R) -> R {
    const FENCES: bool = MODEL_CHECKED || !cfg!(target_arch = "x86_64");
    sb::drain_all();
    if FENCES {
        smp_mb();
    }
    let r = rmw();
    if FENCES {
        smp_mb();
    }
    r
}

// ---------------------------------------------------------------------------------------------
// unsigned long words: page->flags and other word-sized fields read without a lock

/// An `unsigned long` (or a pointer) that other CPUs read or write without a lock:
/// `page->flags`, `page->private`, `vma->vm_start`. Read and written with `READ_ONCE` /
/// `WRITE_ONCE` (plain C accesses to such words map the same way: the kernel relies on
/// word-sized accesses not tearing) and the bit operations.
pub struct unsigned_long(Watched<AtomicUsize, usize>);

impl unsigned_long {
    pub fn new(v: usize) -> unsigned_long {
        unsigned_long(Watched::<AtomicUsize, usize>::new(v, None))
    }

    /// The field `name` (`page#0->flags`) with value `v`: a weak-memory note of a load of it
    /// names the word.
    pub fn named(v: usize, name: CName) -> unsigned_long {
        unsigned_long(Watched::<AtomicUsize, usize>::new(v, Some(name)))
    }
}

/// `READ_ONCE(x)`: a relaxed load.
#[inline(always)]
pub fn READ_ONCE(x: &unsigned_long) -> usize {
    if let Some(seen) = sb::word_load(x.0.inner()) {
        return seen;
    }
    x.0.load(Relaxed)
}

/// `READ_ONCE(x)` of a pointer the CPU then dereferences (the kernel's `ACCESS_ONCE(p->q)`
/// followed by `q->...`; 4.x names the idiom `lockless_dereference()`): the address
/// dependency orders every access through the loaded pointer after the load, on every
/// architecture Linux runs on (Alpha with the `smp_read_barrier_depends()` those kernels put
/// in the idiom). C11 and loom have no address dependencies, so this is an acquire load, as C11
/// compilers implement `memory_order_consume`. It orders the CPU's later accesses that do not
/// depend on the load too: use it only where every later access goes through the pointer or
/// through a lock taken through it (proofs/README.md, the primitive table).
#[inline(always)]
pub fn READ_ONCE_DEP(x: &unsigned_long) -> usize {
    smp_load_acquire(x)
}

/// `WRITE_ONCE(x, v)`: a plain store (see "plain stores" in the module doc).
#[inline(always)]
pub fn WRITE_ONCE(x: &unsigned_long, v: usize) {
    if sb::word_store(x.0.inner(), v) {
        return;
    }
    x.0.swap(v, Relaxed);
}

/// `smp_load_acquire(p)`.
#[inline(always)]
pub fn smp_load_acquire(x: &unsigned_long) -> usize {
    if let Some(seen) = sb::word_load(x.0.inner()) {
        return seen;
    }
    x.0.load(Acquire)
}

/// `smp_store_release(p, v)` (a release `swap`, for the same reason as `WRITE_ONCE`).
#[inline(always)]
pub fn smp_store_release(x: &unsigned_long, v: usize) {
    sb::new_epoch();
    if sb::word_store(x.0.inner(), v) {
        return;
    }
    x.0.swap(v, Release);
}

/// `xchg(p, v)`: fully ordered, returns the old value.
#[inline(always)]
pub fn xchg(x: &unsigned_long, v: usize) -> usize {
    full(|| x.0.swap(v, Relaxed))
}

/// `cmpxchg(p, old, new)`: fully ordered (both outcomes here), returns the value before.
#[inline(always)]
pub fn cmpxchg(x: &unsigned_long, old: usize, new: usize) -> usize {
    full(|| match x.0.compare_exchange(old, new, Relaxed, Relaxed) {
        Ok(v) | Err(v) => v,
    })
}

const fn mask(nr: u32) -> usize {
    1usize << nr
}

/// `test_bit(nr, addr)`: a relaxed load.
#[inline(always)]
pub fn test_bit(nr: u32, addr: &unsigned_long) -> bool {
    READ_ONCE(addr) & mask(nr) != 0
}

/// `set_bit(nr, addr)`: an unordered atomic RMW.
#[inline(always)]
pub fn set_bit(nr: u32, addr: &unsigned_long) {
    if sb::word_or(addr.0.inner(), mask(nr)) {
        return;
    }
    addr.0.fetch_or(mask(nr), Relaxed);
}

/// `clear_bit(nr, addr)`: an unordered atomic RMW.
#[inline(always)]
pub fn clear_bit(nr: u32, addr: &unsigned_long) {
    if sb::word_and(addr.0.inner(), !mask(nr)) {
        return;
    }
    addr.0.fetch_and(!mask(nr), Relaxed);
}

/// `__set_bit(nr, addr)`: non-atomic: a load, then a plain store. A concurrent atomic update
/// of another bit of the word between the two is lost, as on every CPU.
#[inline(always)]
pub fn __set_bit(nr: u32, addr: &unsigned_long) {
    let old = READ_ONCE(addr);
    WRITE_ONCE(addr, old | mask(nr));
}

/// `__clear_bit(nr, addr)`: non-atomic, like [`__set_bit`].
#[inline(always)]
pub fn __clear_bit(nr: u32, addr: &unsigned_long) {
    let old = READ_ONCE(addr);
    WRITE_ONCE(addr, old & !mask(nr));
}

/// `test_and_set_bit(nr, addr)`: fully ordered.
#[inline(always)]
pub fn test_and_set_bit(nr: u32, addr: &unsigned_long) -> bool {
    full(|| addr.0.fetch_or(mask(nr), Relaxed)) & mask(nr) != 0
}

/// `test_and_clear_bit(nr, addr)`: fully ordered.
#[inline(always)]
pub fn test_and_clear_bit(nr: u32, addr: &unsigned_long) -> bool {
    full(|| addr.0.fetch_and(!mask(nr), Relaxed)) & mask(nr) != 0
}

/// `test_and_set_bit_lock(nr, addr)`: ACQUIRE on success.
#[inline(always)]
pub fn test_and_set_bit_lock(nr: u32, addr: &unsigned_long) -> bool {
    sb::word_flush(addr.0.inner());
    addr.0.fetch_or(mask(nr), Acquire) & mask(nr) != 0
}

/// `clear_bit_unlock(nr, addr)`: RELEASE.
#[inline(always)]
pub fn clear_bit_unlock(nr: u32, addr: &unsigned_long) {
    sb::drain_all();
    addr.0.fetch_and(!mask(nr), Release);
}

// ---------------------------------------------------------------------------------------------
// Barriers

/// `smp_mb()`: full barrier. A SeqCst fence (loom models SeqCst fences, not SeqCst accesses).
#[inline(always)]
pub fn smp_mb() {
    sb::drain_all();
    fence(SeqCst);
}

/// `smp_rmb()`: orders earlier loads before later loads. C11 acquire fence.
#[inline(always)]
pub fn smp_rmb() {
    fence(Acquire);
}

/// `smp_wmb()`: orders earlier stores before later stores. C11 release fence.
#[inline(always)]
pub fn smp_wmb() {
    sb::new_epoch();
    fence(Release);
}

/// `smp_mb__before_atomic()`: orders everything before it against the following
/// non-value-returning atomic RMW and everything after that. Written as [`smp_mb`]: at least as
/// strong as the LKMM's (which orders only against the RMW and what follows it).
#[inline(always)]
pub fn smp_mb__before_atomic() {
    smp_mb();
}

/// `smp_mb__after_atomic()`: orders the preceding non-value-returning atomic RMW, and
/// everything before it, against everything after. Written as [`smp_mb`] (at least as strong).
#[inline(always)]
pub fn smp_mb__after_atomic() {
    smp_mb();
}

/// `smp_mb__after_clear_bit()`: the name `smp_mb__after_atomic()` had before 3.16 (a barrier
/// after `clear_bit()`); [`smp_mb`].
#[inline(always)]
pub fn smp_mb__after_clear_bit() {
    smp_mb();
}

/// `smp_mb__after_spinlock()`: makes the preceding `spin_lock()` a full barrier. Written as
/// [`smp_mb`] (at least as strong).
#[inline(always)]
pub fn smp_mb__after_spinlock() {
    smp_mb();
}

/// `cpu_relax()` inside a spin loop: lets the checker run another thread.
#[inline(always)]
pub fn cpu_relax() {
    irq::window();
    sb::drain_all();
    if MODEL_CHECKED {
        backend::yield_now();
    } else {
        std::hint::spin_loop();
    }
}

// ---------------------------------------------------------------------------------------------
// The CPU a thread runs on (the kernel's smp_processor_id()).

/// The CPU number of a thread that is not one of the scenario's CPUs (a model's setup and final
/// checks run on the main thread).
const NO_CPU: usize = usize::MAX;

#[cfg(loom)]
loom::thread_local! {
    static CPU: std::cell::Cell<usize> = std::cell::Cell::new(NO_CPU);
}
#[cfg(all(not(loom), feature = "shuttle"))]
shuttle::thread_local! {
    static CPU: std::cell::Cell<usize> = std::cell::Cell::new(NO_CPU);
}
#[cfg(all(not(loom), not(feature = "shuttle")))]
std::thread_local! {
    static CPU: std::cell::Cell<usize> = const { std::cell::Cell::new(NO_CPU) };
}

/// `smp_processor_id()`. The model's main thread (setup and final checks) counts as CPU 0
/// unless it took another CPU's identity with [`run_as_cpu`].
pub fn smp_processor_id() -> usize {
    cpu_of_thread().unwrap_or(0)
}

/// The CPU this thread runs as, or None for a model's main thread, for the event trace.
pub fn cpu_of_thread() -> Option<usize> {
    let c = CPU.with(|c| c.get());
    (c != NO_CPU).then_some(c)
}

/// Run `f` on the current thread as CPU `cpu` (a sequential model playing every CPU in turn),
/// then give the thread its previous identity back (also when `f` panics: a broken invariant
/// ends one sequence, not the ones after it).
pub fn run_as_cpu<R>(cpu: usize, f: impl FnOnce() -> R) -> R {
    struct Restore(usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            CPU.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(CPU.with(|c| c.replace(cpu)));
    f()
}

/// Start a thread that runs as CPU `cpu`.
pub fn spawn_cpu<F, T>(cpu: usize, f: F) -> JoinHandle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    backend::spawn(move || {
        CPU.with(|c| c.set(cpu));
        sb::start();
        let r = f();
        irq::cpu_done();
        sb::finish();
        r
    })
}

/// Join a CPU; a panic on it (an invariant already recorded) is passed on.
pub fn join<T>(h: JoinHandle<T>) -> T {
    match h.join() {
        Ok(v) => v,
        Err(e) => std::panic::resume_unwind(e),
    }
}

// ---------------------------------------------------------------------------------------------
// Plain (non-atomic) shared words

/// A plain word that the kernel protects with a lock, or keeps private to one CPU: list
/// links of `struct list_head`. Reading or writing it is not a scheduling point of the
/// checker; under loom every access is checked for causality, so two accesses that no lock
/// orders are reported as a data race instead of silently reading a value. Under shuttle and
/// std it is a plain cell.
pub struct RaceCell<T: Copy> {
    #[cfg(loom)]
    cell: loom::cell::UnsafeCell<T>,
    #[cfg(not(loom))]
    cell: std::cell::UnsafeCell<T>,
    /// Under loom, while the trace records: each CPU's last access, indexed by CPU + 1 (0: the
    /// setup thread), as `step << 2 | write << 1 | 1` (0: none), so a race loom reports names
    /// both sides.
    #[cfg(loom)]
    last: std::cell::Cell<[u32; RACE_LANES]>,
}

/// The access a [`RaceCell`] was making when loom's race detector stopped the execution, and
/// the other CPU's access it races (its last conflicting one on that word).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceAccess {
    pub cpu: Option<usize>,
    pub write: bool,
    /// (CPU, write?, the trace step after which it accessed the word)
    pub other: Option<(Option<usize>, bool, usize)>,
}

#[cfg(loom)]
const RACE_LANES: usize = 6;

std::thread_local! {
    /// The RaceCell access in progress (loom builds): set around the access, left set when
    /// loom panics inside it. All model threads of a loom execution run on this OS thread.
    static RACE: std::cell::Cell<Option<RaceAccess>> = const { std::cell::Cell::new(None) };
    /// The trace's latest step (set by the trace on every event; the shim cannot read it).
    static STEP: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// Whether RaceCell accesses note who made them: only while the trace records (a failing
    /// execution explored again), so the exploration itself pays nothing for it.
    static RACE_NOTES: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Turn the RaceCell access notes on or off (with the trace's recording).
pub fn set_race_notes(on: bool) {
    RACE_NOTES.with(|r| r.set(on));
}

#[cfg(loom)]
#[inline]
fn race_notes() -> bool {
    RACE_NOTES.with(|r| r.get())
}

/// The event trace tells the shim its latest step (for [`RaceAccess`]).
pub fn set_step_hint(step: usize) {
    STEP.with(|s| s.set(step));
}

/// The trace's latest step, as the trace last told the shim (the store-buffer mode's notes).
#[cfg_attr(not(feature = "store-buffer"), allow(dead_code))]
pub(crate) fn step_hint() -> usize {
    STEP.with(|s| s.get())
}

/// The RaceCell access loom's race detector stopped, if that is how the execution ended; and
/// forget it (a new execution starts clean).
pub fn take_race_access() -> Option<RaceAccess> {
    RACE.with(|r| r.take())
}

// SAFETY: accesses are ordered by the kernel's locks (or the cell is private to one CPU);
// under loom any access that is not is reported as a race and ends the execution. The
// production build only runs variants whose accesses are ordered.
unsafe impl<T: Copy + Send> Sync for RaceCell<T> {}
unsafe impl<T: Copy + Send> Send for RaceCell<T> {}

impl<T: Copy> RaceCell<T> {
    pub fn new(v: T) -> Self {
        RaceCell {
            #[cfg(loom)]
            cell: loom::cell::UnsafeCell::new(v),
            #[cfg(not(loom))]
            cell: std::cell::UnsafeCell::new(v),
            #[cfg(loom)]
            last: std::cell::Cell::new([0; RACE_LANES]),
        }
    }

    /// Note the access about to be made (write or read) and the other CPU's last access it
    /// would race: its last write for a read, its last access for a write.
    #[cfg(loom)]
    fn begin(&self, write: bool) -> usize {
        let me = cpu_of_thread();
        let lane = me.map_or(0, |c| (c + 1).min(RACE_LANES - 1));
        let last = self.last.get();
        let other = last
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != lane)
            .filter(|(_, a)| **a != 0)
            .map(|(i, a)| ((i > 0).then(|| i - 1), a & 2 != 0, (a >> 2) as usize))
            .filter(|(_, w, _)| write || *w)
            .max_by_key(|(_, _, step)| *step);
        RACE.with(|r| {
            r.set(Some(RaceAccess {
                cpu: me,
                write,
                other,
            }))
        });
        lane
    }

    #[cfg(loom)]
    fn end(&self, lane: usize, write: bool) {
        RACE.with(|r| r.set(None));
        let mut last = self.last.get();
        let step = STEP.with(|s| s.get()).min((u32::MAX >> 2) as usize) as u32;
        last[lane] = step << 2 | u32::from(write) << 1 | 1;
        self.last.set(last);
    }

    #[inline]
    pub fn get(&self) -> T {
        #[cfg(loom)]
        {
            if !race_notes() {
                // SAFETY: loom checks that no write races this read.
                return self.cell.with(|p| unsafe { *p });
            }
            let lane = self.begin(false);
            // SAFETY: loom checks that no write races this read.
            let v = self.cell.with(|p| unsafe { *p });
            self.end(lane, false);
            v
        }
        #[cfg(not(loom))]
        {
            // SAFETY: see the Sync impl.
            unsafe { *self.cell.get() }
        }
    }

    #[inline]
    pub fn set(&self, v: T) {
        #[cfg(loom)]
        {
            if !race_notes() {
                // SAFETY: loom checks that no other access races this write.
                self.cell.with_mut(|p| unsafe { *p = v });
                return;
            }
            let lane = self.begin(true);
            // SAFETY: loom checks that no other access races this write.
            self.cell.with_mut(|p| unsafe { *p = v });
            self.end(lane, true);
        }
        #[cfg(not(loom))]
        {
            // SAFETY: see the Sync impl.
            unsafe { *self.cell.get() = v }
        }
    }
}

/// A statistic the benchmarks and tests read (`lru_lock` acquisitions, anon_vma locks taken):
/// a plain std counter, invisible to the checkers (no scheduling point, no interleavings).
/// The production build counts only while [`set_counting`] is on (the default): a benchmark's
/// timed runs turn it off, so no CPU writes a shared counter line the kernel does not have
/// (issue #18), and count in a separate run.
#[derive(Default)]
pub struct EventCounter(std::sync::atomic::AtomicU64);

static COUNTING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Turn [`EventCounter`]s on or off in the production build (checked builds always count).
pub fn set_counting(on: bool) {
    COUNTING.store(on, Relaxed);
}

impl EventCounter {
    #[inline(always)]
    pub fn count(&self) {
        if MODEL_CHECKED || COUNTING.load(Relaxed) {
            self.0.fetch_add(1, Relaxed);
        }
    }
    pub fn get(&self) -> u64 {
        self.0.load(Relaxed)
    }
}

/// The text loom's race detector panics with; the checker driver turns it into a data-race
/// failure of the kernel code.
pub const RACE_PANIC: &str = "Causality violation";

// ---------------------------------------------------------------------------------------------
// Per-CPU variables

/// `DEFINE_PER_CPU(T, name)`: one `T` per CPU, touched only by its own CPU with preemption
/// off (`get_cpu_var`), as the kernel's per-CPU pagevecs are. The model's main thread (setup
/// and the final drain of every CPU, after all CPUs were joined) may touch any of them.
///
/// A per-CPU variable needs no atomics: the kernel never accesses another CPU's copy while
/// that CPU runs, and `lru_add_drain_all()` runs the drain *on* each CPU. Accessing another
/// running CPU's copy panics.
pub struct PerCpu<T> {
    cells: Vec<PerCpuCell<T>>,
}

/// One CPU's copy, on cache lines of its own: the kernel's per-CPU areas are separate pages, so
/// two CPUs' pagevecs never share a line (without the alignment the production benchmark
/// measured false sharing the kernel does not have: issue #18).
#[repr(align(128))]
struct PerCpuCell<T>(std::cell::UnsafeCell<T>, std::sync::atomic::AtomicBool);

// SAFETY: each cell is only accessed by its own CPU's thread, or by the main thread when the
// CPUs are not running (checked in `with`).
unsafe impl<T: Send> Sync for PerCpu<T> {}
unsafe impl<T: Send> Send for PerCpu<T> {}

impl<T> PerCpu<T> {
    pub fn new(nr_cpus: usize, init: impl Fn() -> T) -> Self {
        PerCpu {
            cells: (0..nr_cpus)
                .map(|_| {
                    PerCpuCell(
                        std::cell::UnsafeCell::new(init()),
                        std::sync::atomic::AtomicBool::new(false),
                    )
                })
                .collect(),
        }
    }

    /// `get_cpu_var(name)` for CPU `cpu`, run `f` on it, `put_cpu_var(name)`.
    pub fn with<R>(&self, cpu: usize, f: impl FnOnce(&mut T) -> R) -> R {
        if let Some(me) = cpu_of_thread() {
            assert_eq!(me, cpu, "CPU{me} touched CPU{cpu}'s per-CPU variable");
        }
        let cell = &self.cells[cpu];
        // Under a checker, an interrupt handler (`irq.rs`) that reaches a per-CPU variable its
        // CPU's code is using, because that code left interrupts on, is caught here rather
        // than handed a second `&mut` (a std flag: no scheduling point).
        if MODEL_CHECKED && cell.1.swap(true, Relaxed) {
            panic!(
                "CPU{cpu}'s per-CPU variable entered by an interrupt handler while CPU{cpu}'s \
                 code was using it with interrupts enabled"
            );
        }
        struct Busy<'a>(&'a std::sync::atomic::AtomicBool);
        impl Drop for Busy<'_> {
            fn drop(&mut self) {
                if MODEL_CHECKED {
                    self.0.store(false, Relaxed);
                }
            }
        }
        let _busy = Busy(&cell.1);
        // SAFETY: see the Sync impl; `f` does not re-enter this cell (the kernel code it runs
        // never takes the same per-CPU variable twice, and an interrupt that would is caught
        // above).
        f(unsafe { &mut *cell.0.get() })
    }
}

// ---------------------------------------------------------------------------------------------
// spinlock_t

/// `spinlock_t` protecting `T` (`zone->lru_lock`, `hugetlb_lock`, `anon_vma->lock`).
///
/// Under a checker it is the checker's mutex (acquire on lock, release on unlock, and a blocked
/// waiter instead of a spinning one, so 3+ contenders terminate). In production it is a FIFO
/// ticket lock like x86's (2.6.25 and later).
pub struct SpinLock<T> {
    #[cfg(any(loom, feature = "shuttle"))]
    inner: backend::Mutex<T>,
    /// The CPU holding it (NO_CPU: free, or held by a thread that is no CPU), for
    /// CONFIG_DEBUG_SPINLOCK's recursion check; a std word, no scheduling point.
    #[cfg(any(loom, feature = "shuttle"))]
    owner_cpu: std::sync::atomic::AtomicUsize,
    #[cfg(not(any(loom, feature = "shuttle")))]
    inner: prod::RawSpin<T>,
    /// The kernel's name for the lock, when a trace shows who holds it ([`SpinLock::named`]).
    /// Checked builds only: the production lock stays one word.
    #[cfg(any(loom, feature = "shuttle", debug_assertions))]
    name: Option<CName>,
}

/// A lock's or a watched word's name in a trace, as the C writes it: `anon_vma#3->lock`,
/// `zone->lru_lock`, `page#0->_count`, or a global by itself (`hugetlb_lock`: an empty `field`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CName {
    /// The structure that holds the lock or word (`anon_vma`, `zone`, `page`), or a global's
    /// name.
    pub owner: &'static str,
    /// Which one of them, when the model has several (`anon_vma#3`, `page#0`).
    pub id: Option<usize>,
    /// The field (`lock`, `lru_lock`, `_count`); empty for a global.
    pub field: &'static str,
}

impl CName {
    /// The field `field` of `owner#id` (`CName::of("page", 0, "_count")`: `page#0->_count`).
    pub const fn of(owner: &'static str, id: usize, field: &'static str) -> CName {
        CName {
            owner,
            id: Some(id),
            field,
        }
    }
}

impl std::fmt::Display for CName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.id, self.field) {
            (None, "") => write!(f, "{}", self.owner),
            (Some(id), "") => write!(f, "{}#{id}", self.owner),
            (Some(id), field) => write!(f, "{}#{id}->{field}", self.owner),
            (None, field) => write!(f, "{}->{field}", self.owner),
        }
    }
}

/// Who hears of a named lock's acquisitions and releases: the event trace, which installs
/// itself here ([`set_lock_observer`]); the shim cannot call it (layers: the trace sits above).
static LOCK_OBSERVER: std::sync::OnceLock<fn(CName, bool)> = std::sync::OnceLock::new();

/// Install `f` as the observer of named locks (`f(name, true)` right after a CPU takes one,
/// `f(name, false)` right before it releases it). The first observer installed stays.
pub fn set_lock_observer(f: fn(CName, bool)) {
    let _ = LOCK_OBSERVER.set(f);
}

/// Tell the observer about a named lock. Nothing here is a checker operation (no loom or
/// shuttle call, no scheduling point): the event sits exactly where the lock changes hands.
#[inline]
fn observe_lock(name: Option<CName>, acquire: bool) {
    if CHECKED {
        if let (Some(name), Some(f)) = (name, LOCK_OBSERVER.get()) {
            f(name, acquire)
        }
    }
}

/// Who hears of a CPU taking a spinlock it already holds: the event trace, which reports
/// CONFIG_DEBUG_SPINLOCK's "spinlock recursion" ([`set_spin_bug_observer`]).
static SPIN_BUG_OBSERVER: std::sync::OnceLock<fn(Option<CName>, usize)> =
    std::sync::OnceLock::new();

/// Install `f` as the observer of spinlock recursion: `f(lock, cpu)`; it does not return (it
/// reports the failure). The first observer installed stays.
pub fn set_spin_bug_observer(f: fn(Option<CName>, usize)) {
    let _ = SPIN_BUG_OBSERVER.set(f);
}

/// CPU `cpu` takes `lock`, which it holds: report it (the observer does not return); without
/// an observer, panic.
#[cfg(any(loom, feature = "shuttle"))]
#[cold]
fn spin_bug(lock: Option<CName>, cpu: usize) -> ! {
    if let Some(f) = SPIN_BUG_OBSERVER.get() {
        f(lock, cpu);
    }
    panic!("BUG: spinlock recursion on CPU#{cpu}");
}

/// Who hears of a CPU's buffered plain store of a count reaching memory (the store-buffer
/// mode): the event trace, which installs itself here ([`set_landing_observer`]).
static LANDING_OBSERVER: std::sync::OnceLock<fn(Option<usize>, usize, i64)> =
    std::sync::OnceLock::new();

/// Install `f` as the observer of landing stores: `f(cpu, after, value)` when the plain store
/// `cpu` made after step `after` reaches memory. The first observer installed stays.
pub fn set_landing_observer(f: fn(Option<usize>, usize, i64)) {
    let _ = LANDING_OBSERVER.set(f);
}

/// Tell the observer a buffered plain store of a count reached memory (no checker operation).
#[cfg(all(feature = "store-buffer", not(loom)))]
#[inline]
pub(crate) fn observe_landing(cpu: Option<usize>, after: usize, value: i64) {
    if CHECKED {
        if let Some(f) = LANDING_OBSERVER.get() {
            f(cpu, after, value)
        }
    }
}

/// A held `spin_lock`; dropping it (or [`spin_unlock`]) is `spin_unlock`.
pub struct SpinGuard<'a, T> {
    #[cfg(loom)]
    guard: backend::MutexGuard<'a, T>,
    /// Under shuttle the guard is released by hand (see the `Drop` impl): a kernel `BUG()`
    /// raised with the lock held must not call into shuttle while the task unwinds.
    #[cfg(all(feature = "shuttle", not(loom)))]
    guard: std::mem::ManuallyDrop<backend::MutexGuard<'a, T>>,
    #[cfg(not(any(loom, feature = "shuttle")))]
    guard: prod::RawGuard<'a, T>,
    /// The lock held: what [`spin_unlock_lock`] compares an address the C computes again with
    /// (the checkers' guards do not say which lock they hold; the production guard does), and
    /// whose name the release event gives (checked builds).
    #[cfg(any(loom, feature = "shuttle", debug_assertions))]
    of: &'a SpinLock<T>,
}

impl<T> SpinLock<T> {
    pub fn new(v: T) -> Self {
        SpinLock {
            #[cfg(any(loom, feature = "shuttle"))]
            inner: backend::Mutex::new(v),
            #[cfg(any(loom, feature = "shuttle"))]
            owner_cpu: std::sync::atomic::AtomicUsize::new(NO_CPU),
            #[cfg(not(any(loom, feature = "shuttle")))]
            inner: prod::RawSpin::new(v),
            #[cfg(any(loom, feature = "shuttle", debug_assertions))]
            name: None,
        }
    }

    /// A lock whose acquisitions and releases a trace shows, under the kernel's name for it
    /// (the release production build keeps no name: it records nothing).
    #[allow(unused_variables, unused_mut)]
    pub fn named(v: T, name: CName) -> Self {
        let mut lock = SpinLock::new(v);
        #[cfg(any(loom, feature = "shuttle", debug_assertions))]
        {
            lock.name = Some(name);
        }
        lock
    }

    /// The lock's name, if it has one and the build keeps it.
    #[inline]
    fn name(&self) -> Option<CName> {
        #[cfg(any(loom, feature = "shuttle", debug_assertions))]
        return self.name;
        #[cfg(not(any(loom, feature = "shuttle", debug_assertions)))]
        return None;
    }
}

/// `spin_lock(lock)`. Interrupts stay as they are: the `_irq` and `_irqsave` forms are the
/// caller's `local_irq_disable()` / `local_irq_save()` before it (`irq.rs`).
pub fn spin_lock<T>(lock: &SpinLock<T>) -> SpinGuard<'_, T> {
    irq::window();
    sb::drain_all();
    #[cfg(any(loom, feature = "shuttle"))]
    {
        // CONFIG_DEBUG_SPINLOCK's `debug_spin_lock_before()` (lib/spinlock_debug.c):
        // `SPIN_BUG_ON(lock->owner_cpu == raw_smp_processor_id(), lock, "recursion")`: this
        // CPU already holds the lock (an interrupt handler that cut the holder's critical
        // section); without the option the CPU spins on it forever.
        let me = CPU.with(|c| c.get());
        if me != NO_CPU && lock.owner_cpu.load(Relaxed) == me {
            spin_bug(lock.name(), me);
        }
        // A poisoned lock means an invariant already broke in this execution; the failure is
        // recorded, so carry on with the data as it is.
        let guard = lock.inner.lock().unwrap_or_else(|p| p.into_inner());
        #[cfg(all(feature = "shuttle", not(loom)))]
        let guard = std::mem::ManuallyDrop::new(guard);
        let guard = SpinGuard { guard, of: lock };
        lock.owner_cpu.store(me, Relaxed);
        // The acquisition's event: after the checker's lock returns (its scheduling point),
        // before this CPU does anything under the lock; the guard already owns the lock (an
        // observer that panicked would leave it as a kernel oops does).
        observe_lock(lock.name(), true);
        // An interrupt may arrive with the lock held, if interrupts are on (a plain
        // `spin_lock` where the kernel needs `spin_lock_irq`): the recursion check above sees
        // it when the handler takes the lock.
        irq::window();
        guard
    }
    #[cfg(not(any(loom, feature = "shuttle")))]
    {
        let guard = SpinGuard {
            guard: lock.inner.lock(),
            #[cfg(debug_assertions)]
            of: lock,
        };
        observe_lock(lock.name(), true);
        guard
    }
}

/// `spin_unlock(lock)`.
pub fn spin_unlock<T>(guard: SpinGuard<'_, T>) {
    drop(guard);
}

/// `spin_unlock(lock)` where the C names the lock by an address it computes again rather than
/// the one it locked (`anon_vma_unlock(anon_vma)`: `spin_unlock(&anon_vma->root->lock)`, the
/// root read anew). If `lock` is the lock `guard` holds, it is released. Otherwise the kernel
/// releases a lock this CPU does not hold and keeps its own held: CONFIG_DEBUG_SPINLOCK's
/// `debug_spin_unlock()` reports it (`spin_bug()`: "already unlocked" or "wrong owner",
/// lib/spinlock_debug.c); without that option the lock left held hangs the next CPU to take it.
/// The guard comes back in `Err` for the caller to report (the shim knows no invariants).
pub fn spin_unlock_lock<'a, T>(
    guard: SpinGuard<'a, T>,
    lock: &SpinLock<T>,
) -> Result<(), SpinGuard<'a, T>> {
    if guard.holds(lock) {
        drop(guard);
        Ok(())
    } else {
        Err(guard)
    }
}

/// `spin_unlock` under shuttle. It is a release: in the store-buffer mode the CPU's buffered
/// stores leave first. A task unwinding from a kernel `BUG()` (or another failed invariant)
/// raised with the lock held leaves it held, as a kernel oops does: unlocking would call into
/// shuttle's scheduler in the middle of its panic handling, which shuttle reports as a second
/// panic ("AlreadyBorrowed") and which spoiled the next claims of the same test process. The
/// execution ends with that failure anyway.
///
/// In every build the release's event (a named lock's) is recorded here, before the lock is
/// released: loom's unlock is no scheduling point, shuttle's is one (a yield), so an event
/// recorded after it could land after the next holder's acquisition (issue #20).
impl<T> Drop for SpinGuard<'_, T> {
    fn drop(&mut self) {
        if CHECKED && std::thread::panicking() {
            // loom and the production lock release it as the guard's field drops; the event
            // is not recorded (the failure has taken the trace).
            return;
        }
        #[cfg(all(feature = "shuttle", not(loom)))]
        sb::drain_all();
        #[cfg(any(loom, feature = "shuttle", debug_assertions))]
        observe_lock(self.of.name(), false);
        #[cfg(any(loom, feature = "shuttle"))]
        self.of.owner_cpu.store(NO_CPU, Relaxed);
        // SAFETY: `guard` is dropped here only, once; the struct is not used after `drop`.
        #[cfg(all(feature = "shuttle", not(loom)))]
        unsafe {
            std::mem::ManuallyDrop::drop(&mut self.guard)
        }
    }
}

impl<T> SpinGuard<'_, T> {
    /// Is `lock` the lock this guard holds? (For a report that names it.)
    pub fn holds(&self, lock: &SpinLock<T>) -> bool {
        #[cfg(any(loom, feature = "shuttle"))]
        return std::ptr::eq(self.of, lock);
        #[cfg(not(any(loom, feature = "shuttle")))]
        return self.guard.is_of(&lock.inner);
    }
}

impl<T> std::ops::Deref for SpinGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.guard
    }
}
impl<T> std::ops::DerefMut for SpinGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.guard
    }
}

#[cfg(not(any(loom, feature = "shuttle")))]
mod prod {
    use std::cell::UnsafeCell;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// The production `spin_lock`: a FIFO ticket lock, as x86 kernels have had since 2.6.25
    /// (arch/x86/include/asm/spinlock.h, `__ticket_spin_lock`): a CPU takes the next ticket with
    /// an atomic add and spins until the owner field reaches it; the unlock advances the owner,
    /// handing the lock to the longest waiter. A releasing CPU cannot take the lock back while
    /// another waits (a test-and-set lock lets it, which hides the handoff cost the kernel pays
    /// on every contended acquisition: issue #18).
    pub struct RawSpin<T> {
        next: AtomicU32,
        owner: AtomicU32,
        data: UnsafeCell<T>,
    }
    // SAFETY: access to `data` is serialized by the tickets (acquire on lock, release on
    // unlock).
    unsafe impl<T: Send> Sync for RawSpin<T> {}
    unsafe impl<T: Send> Send for RawSpin<T> {}

    pub struct RawGuard<'a, T> {
        lock: &'a RawSpin<T>,
        ticket: u32,
    }

    impl<T> RawSpin<T> {
        pub fn new(v: T) -> Self {
            RawSpin {
                next: AtomicU32::new(0),
                owner: AtomicU32::new(0),
                data: UnsafeCell::new(v),
            }
        }
        pub fn lock(&self) -> RawGuard<'_, T> {
            // `xadd` of the tail: the ticket.
            let ticket = self.next.fetch_add(1, Ordering::Relaxed);
            // Acquire: the critical section must see the previous holder's writes.
            while self.owner.load(Ordering::Acquire) != ticket {
                std::hint::spin_loop();
            }
            RawGuard { lock: self, ticket }
        }
    }
    impl<T> RawGuard<'_, T> {
        /// Is this the guard of `lock`?
        pub fn is_of(&self, lock: &RawSpin<T>) -> bool {
            std::ptr::eq(self.lock, lock)
        }
    }
    impl<T> std::ops::Deref for RawGuard<'_, T> {
        type Target = T;
        fn deref(&self) -> &T {
            // SAFETY: we hold the lock.
            unsafe { &*self.lock.data.get() }
        }
    }
    impl<T> std::ops::DerefMut for RawGuard<'_, T> {
        fn deref_mut(&mut self) -> &mut T {
            // SAFETY: we hold the lock exclusively.
            unsafe { &mut *self.lock.data.get() }
        }
    }
    impl<T> Drop for RawGuard<'_, T> {
        fn drop(&mut self) {
            // Release: publish the critical section to the next holder (`incb` of the head).
            self.lock
                .owner
                .store(self.ticket.wrapping_add(1), Ordering::Release);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bit spinlocks (include/linux/bit_spinlock.h), used for compound_lock (PG_compound_lock).

#[cfg(loom)]
loom::lazy_static! {
    /// Under loom a bit-lock waiter blocks on this wait queue (one for all bit locks, like the
    /// kernel's hashed wait queues) instead of spinning: loom never terminates with 3+ CPUs
    /// spinning on one lock (loom issue #53; proofs/README.md, "Checker pitfalls").
    static ref BIT_WAITQ: (backend::Mutex<()>, backend::Condvar) =
        (backend::Mutex::new(()), backend::Condvar::new());
}

/// `bit_spin_lock(bitnum, addr)`: `test_and_set_bit_lock` (ACQUIRE) until the bit was clear;
/// while it is set, wait for it to clear (`while (test_bit(bitnum, addr)) cpu_relax();`).
pub fn bit_spin_lock(bitnum: u32, addr: &unsigned_long) {
    while test_and_set_bit_lock(bitnum, addr) {
        wait_bit_clear(bitnum, addr);
    }
}

/// What a bit-spinlock unlock returns: the word before the clear, for the event trace, and
/// (under loom) the wakeup of the waiters, which runs when the value is dropped.
///
/// Why the wakeup waits: loom's waiters block on a wait queue (see `BIT_WAITQ`), and waking
/// them takes a mutex and notifies a condvar, both scheduling points. Woken inside the
/// unlock, another CPU could take the lock and record its `locked` event before the unlocker
/// records `unlocked`: a trace with two holders at once (issue #20). So the caller records its
/// event first, then drops the value. Nothing is lost by the delay: between the clear and the
/// drop the unlocker touches no shared memory (keep it so: drop before the next shared
/// access), so every interleaving in which a waiter sees the clear bit earlier is one in which
/// it sees it right after the drop.
#[must_use = "drop it right after recording the unlock's event: dropping wakes the waiters"]
pub struct BitUnlocked(usize);

impl std::ops::Deref for BitUnlocked {
    type Target = usize;
    fn deref(&self) -> &usize {
        &self.0
    }
}

impl Drop for BitUnlocked {
    fn drop(&mut self) {
        // A BUG() raised with the lock held unwinds through here: do not call into loom.
        if !std::thread::panicking() {
            wake_bit_waiters();
        }
    }
}

/// `bit_spin_unlock(bitnum, addr)`: `clear_bit_unlock` (RELEASE). Returns the word before the
/// clear (the kernel's returns nothing); the waiters wake when it is dropped ([`BitUnlocked`]).
pub fn bit_spin_unlock(bitnum: u32, addr: &unsigned_long) -> BitUnlocked {
    // clear_bit_unlock(): RELEASE (in the store-buffer mode, everything before it leaves first)
    sb::drain_all();
    BitUnlocked(addr.0.fetch_and(!mask(bitnum), Release))
}

/// `__bit_spin_unlock(bitnum, addr)` (include/linux/bit_spinlock.h, 3.x): the "non-atomic
/// version, which can be used eg. if the bit lock itself is protecting the rest of the flags in
/// the word". `__clear_bit_unlock()` is `smp_mb(); __clear_bit()` (asm-generic/bitops/lock.h;
/// x86 has `barrier()`): a load and a plain store of the whole word, so a concurrent atomic
/// update of *another* bit of the word between the two is lost (SLUB's `slab_unlock()` against
/// `compound_lock()`, 5bf5f03c).
/// Returns the word it read (and wrote back without the bit); the waiters wake when it is
/// dropped ([`BitUnlocked`]).
pub fn __bit_spin_unlock(bitnum: u32, addr: &unsigned_long) -> BitUnlocked {
    smp_mb();
    let old = READ_ONCE(addr);
    WRITE_ONCE(addr, old & !mask(bitnum)); // __clear_bit()
    BitUnlocked(old)
}

/// The unlock of [`bit_spin_unlock`] with a chosen ordering. Only the shim's own tests use
/// another ordering than Release: tests/sync_loom.rs shows that loom catches an unlock
/// without Release.
#[doc(hidden)]
pub fn bit_unlock_with(bitnum: u32, addr: &unsigned_long, ordering: Ordering) {
    sb::drain_all();
    addr.0.fetch_and(!mask(bitnum), ordering);
    wake_bit_waiters();
}

#[cfg(loom)]
fn wake_bit_waiters() {
    let (m, cv) = &*BIT_WAITQ;
    let _g = m.lock().unwrap_or_else(|p| p.into_inner());
    cv.notify_all();
}

#[cfg(not(loom))]
fn wake_bit_waiters() {}

#[cfg(loom)]
fn wait_bit_clear(bitnum: u32, addr: &unsigned_long) {
    let (m, cv) = &*BIT_WAITQ;
    let mut g = m.lock().unwrap_or_else(|p| p.into_inner());
    // The unlocker clears the bit before taking the wait-queue mutex to notify, so checking
    // under the mutex cannot lose a wakeup.
    while test_bit(bitnum, addr) {
        g = cv.wait(g).unwrap_or_else(|p| p.into_inner());
    }
}

#[cfg(not(loom))]
fn wait_bit_clear(bitnum: u32, addr: &unsigned_long) {
    while test_bit(bitnum, addr) {
        cpu_relax();
    }
}

#[cfg(all(test, not(loom), not(feature = "shuttle")))]
mod tests {
    use super::*;

    /// `spin_unlock_lock` releases the lock it is given only if the guard holds it: an
    /// address computed anew that names another lock hands the guard back (and the lock stays
    /// held until the guard goes).
    #[test]
    fn spin_unlock_lock_releases_only_the_lock_held() {
        let (a, b) = (SpinLock::new(()), SpinLock::new(()));
        let g = spin_lock(&a);
        assert!(g.holds(&a) && !g.holds(&b));
        let g = spin_unlock_lock(g, &b).expect_err("b is not held");
        assert!(g.holds(&a));
        assert!(spin_unlock_lock(g, &a).is_ok());
        // a is free again: taking it does not wait.
        drop(spin_lock(&a));
    }
}
