//! The one sync shim: the only module that knows which backend mmcheck is built for.
//!
//! * `--cfg loom`            -> loom (exhaustive C11 exploration)
//! * `--features shuttle`    -> shuttle (randomized / PCT schedules, sequentially consistent)
//! * otherwise               -> std (production build, used by the benchmarks)
//!
//! Precedence is loom > shuttle > std. Everything else in the crate imports atomics, fences,
//! threads, locks and the per-CPU identity from here and never names a backend.
//!
//! Kernel primitives are mapped to C11 here, once, with the reason next to each mapping
//! (design.md section 2):
//!
//! | kernel                                   | here                                           |
//! |------------------------------------------|------------------------------------------------|
//! | `atomic_read/inc/dec/add/sub`, `set_bit` | `Relaxed` (the kernel gives no ordering)        |
//! | `atomic_dec_and_test`, `atomic_inc_not_zero`, `test_and_set_bit` | fully ordered: `fence(SeqCst); rmw(Relaxed); fence(SeqCst)` ([`full_rmw`]) |
//! | `test_and_set_bit_lock` (`bit_spin_lock`) | `fetch_or(Acquire)`                           |
//! | `clear_bit_unlock` (`bit_spin_unlock`)   | `fetch_and(Release)`                            |
//! | `smp_rmb` / `smp_wmb` / `smp_mb`         | `fence(Acquire)` / `fence(Release)` / `fence(SeqCst)` |
//! | `spin_lock` / `spin_unlock`              | a lock with acquire / release semantics         |
//!
//! Approximations (written up in proofs/README.md): `smp_rmb`/`smp_wmb` are stronger in C11
//! than in the LKMM only in that a C11 acquire fence also orders earlier loads before later
//! stores; loom treats `SeqCst` *accesses* as `AcqRel` (loom issues #108, #180), so full
//! barriers are always written as `SeqCst` fences around relaxed accesses.

#[cfg(loom)]
mod backend {
    pub use loom::sync::atomic::{fence, AtomicI32, AtomicU32, AtomicUsize};
    pub use loom::sync::{Condvar, Mutex, MutexGuard};
    pub use loom::thread::{spawn, yield_now, JoinHandle};
    pub const NAME: &str = "loom";
}

#[cfg(all(not(loom), feature = "shuttle"))]
mod backend {
    pub use shuttle::sync::atomic::{fence, AtomicI32, AtomicU32, AtomicUsize};
    pub use shuttle::sync::{Mutex, MutexGuard};
    pub use shuttle::thread::{spawn, yield_now, JoinHandle};
    pub const NAME: &str = "shuttle";
}

#[cfg(all(not(loom), not(feature = "shuttle")))]
mod backend {
    pub use std::sync::atomic::{fence, AtomicI32, AtomicU32, AtomicUsize};
    pub use std::thread::{spawn, yield_now, JoinHandle};
    pub const NAME: &str = "std";
}

pub mod checker;

pub use backend::{fence, spawn, AtomicI32, AtomicU32, AtomicUsize, JoinHandle};
pub use std::sync::atomic::Ordering;

/// Name of the backend this build runs on ("loom", "shuttle" or "std").
pub const BACKEND: &str = backend::NAME;

/// True in checked builds: under a model checker, or in a debug build. Ghost state, the event
/// trace and `VM_BUG_ON` are active only then, like `CONFIG_DEBUG_VM`; the release production
/// build compiles them away.
pub const CHECKED: bool = cfg!(any(loom, feature = "shuttle", debug_assertions));

/// True when the build explores interleavings (loom or shuttle) rather than running on hardware.
pub const MODEL_CHECKED: bool = cfg!(any(loom, feature = "shuttle"));

/// A plain store to a word that other CPUs may write concurrently (`atomic_set`, `WRITE_ONCE`,
/// the store half of a non-atomic `__SetPageX` / `page->flags &= ...`).
///
/// Written as a relaxed `swap` whose result is ignored. loom keeps only a partial modification
/// order for plain stores: without this, a later load by the storing CPU could still return a
/// concurrent RMW's value from before the store, which C11 coherence (and every CPU) forbids,
/// and the models would report failures that cannot happen. The swap puts the store after
/// every write already made; a non-atomic read-modify-write built on it still loses a
/// concurrent update, because the value it writes was computed from an earlier load.
/// (proofs/README.md, "plain stores".)
pub trait RacyStore<T> {
    fn racy_store(&self, v: T);
}

impl RacyStore<usize> for AtomicUsize {
    #[inline(always)]
    fn racy_store(&self, v: usize) {
        self.swap(v, Ordering::Relaxed);
    }
}

impl RacyStore<i32> for AtomicI32 {
    #[inline(always)]
    fn racy_store(&self, v: i32) {
        self.swap(v, Ordering::Relaxed);
    }
}

/// `smp_mb()`: full barrier. A SeqCst fence (loom models SeqCst fences, not SeqCst accesses).
#[inline(always)]
pub fn smp_mb() {
    fence(Ordering::SeqCst);
}

/// `smp_rmb()`: orders earlier loads before later loads. C11 acquire fence.
#[inline(always)]
pub fn smp_rmb() {
    fence(Ordering::Acquire);
}

/// `smp_wmb()`: orders earlier stores before later stores. C11 release fence.
#[inline(always)]
pub fn smp_wmb() {
    fence(Ordering::Release);
}

/// A value-returning kernel atomic (`atomic_dec_and_test`, `atomic_inc_not_zero`,
/// `atomic_add_unless`, `test_and_set_bit`) is fully ordered: an `smp_mb()` before and after.
/// Written as relaxed RMW between two SeqCst fences because loom weakens SeqCst accesses.
///
/// Production builds on x86-64 omit the two fences: there every atomic RMW is a `lock`-prefixed
/// instruction and already a full barrier, exactly as the kernel's `atomic_dec_and_test` is
/// there (`lock decl`). Checked builds and other architectures keep them.
#[inline(always)]
pub fn full_rmw<R>(rmw: impl FnOnce() -> R) -> R {
    const FENCES: bool = MODEL_CHECKED || !cfg!(target_arch = "x86_64");
    if FENCES {
        smp_mb();
    }
    let r = rmw();
    if FENCES {
        smp_mb();
    }
    r
}

/// `cpu_relax()` inside a spin loop: lets the checker run another thread.
#[inline(always)]
pub fn cpu_relax() {
    if MODEL_CHECKED {
        backend::yield_now();
    } else {
        std::hint::spin_loop();
    }
}

// ---------------------------------------------------------------------------------------------
// The CPU a thread runs on (the kernel's smp_processor_id()).

#[cfg(loom)]
loom::thread_local! {
    static CPU: std::cell::Cell<usize> = std::cell::Cell::new(usize::MAX);
}
#[cfg(all(not(loom), feature = "shuttle"))]
shuttle::thread_local! {
    static CPU: std::cell::Cell<usize> = std::cell::Cell::new(usize::MAX);
}
#[cfg(all(not(loom), not(feature = "shuttle")))]
std::thread_local! {
    static CPU: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

/// `smp_processor_id()`. The model's main thread (setup and final checks) is CPU 0 unless told
/// otherwise; every spawned CPU names itself through [`spawn_cpu`].
pub fn smp_processor_id() -> usize {
    let c = CPU.with(|c| c.get());
    if c == usize::MAX {
        0
    } else {
        c
    }
}

/// The CPU this thread was started as, or None for a model's main thread (setup and final
/// checks), for the event trace.
pub fn cpu_of_thread() -> Option<usize> {
    let c = CPU.with(|c| c.get());
    (c != usize::MAX).then_some(c)
}

/// Make the current thread CPU `cpu` (used by the main thread of a model).
pub fn set_cpu(cpu: usize) {
    CPU.with(|c| c.set(cpu));
}

/// Start a thread that runs as CPU `cpu`.
pub fn spawn_cpu<F, T>(cpu: usize, f: F) -> JoinHandle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    spawn(move || {
        set_cpu(cpu);
        f()
    })
}

// ---------------------------------------------------------------------------------------------
// Plain (non-atomic) shared words

/// A plain word that the kernel protects with a lock, or keeps private to one CPU: list
/// links of `struct list_head`. Reading or writing it is not a scheduling point of the
/// checker; under loom every access is checked for causality, so two accesses that no lock
/// orders are reported as a data race ([`crate::trace::Invariant::DataRace`]) instead of
/// silently reading a value. Under shuttle and std it is a plain cell.
pub struct RaceCell<T: Copy> {
    #[cfg(loom)]
    cell: loom::cell::UnsafeCell<T>,
    #[cfg(not(loom))]
    cell: std::cell::UnsafeCell<T>,
}

// SAFETY: accesses are ordered by the kernel's locks (or the cell is private to one CPU);
// under loom any access that is not is reported as a race and ends the execution. The
// production build only runs variants whose accesses are ordered.
unsafe impl<T: Copy + Send> Sync for RaceCell<T> {}
unsafe impl<T: Copy + Send> Send for RaceCell<T> {}

impl<T: Copy> RaceCell<T> {
    pub fn new(v: T) -> Self {
        #[cfg(loom)]
        {
            RaceCell {
                cell: loom::cell::UnsafeCell::new(v),
            }
        }
        #[cfg(not(loom))]
        {
            RaceCell {
                cell: std::cell::UnsafeCell::new(v),
            }
        }
    }

    #[inline]
    pub fn get(&self) -> T {
        #[cfg(loom)]
        {
            // SAFETY: loom checks that no write races this read.
            self.cell.with(|p| unsafe { *p })
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
            // SAFETY: loom checks that no other access races this write.
            self.cell.with_mut(|p| unsafe { *p = v })
        }
        #[cfg(not(loom))]
        {
            // SAFETY: see the Sync impl.
            unsafe { *self.cell.get() = v }
        }
    }
}

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
    cells: Vec<std::cell::UnsafeCell<T>>,
}

// SAFETY: each cell is only accessed by its own CPU's thread, or by the main thread when the
// CPUs are not running (checked in `get_cpu_var`).
unsafe impl<T: Send> Sync for PerCpu<T> {}
unsafe impl<T: Send> Send for PerCpu<T> {}

impl<T> PerCpu<T> {
    pub fn new(nr_cpus: usize, init: impl Fn() -> T) -> Self {
        PerCpu {
            cells: (0..nr_cpus)
                .map(|_| std::cell::UnsafeCell::new(init()))
                .collect(),
        }
    }

    /// `get_cpu_var(name)` for CPU `cpu`, run `f` on it, `put_cpu_var(name)`.
    pub fn with<R>(&self, cpu: usize, f: impl FnOnce(&mut T) -> R) -> R {
        if let Some(me) = cpu_of_thread() {
            assert_eq!(me, cpu, "CPU{me} touched CPU{cpu}'s per-CPU variable");
        }
        // SAFETY: see the Sync impl; `f` does not re-enter this cell (the kernel code it runs
        // never takes the same per-CPU variable twice).
        f(unsafe { &mut *self.cells[cpu].get() })
    }
}

// ---------------------------------------------------------------------------------------------
// spinlock_t

/// `spinlock_t` protecting `T` (`zone->lru_lock`, `hugetlb_lock`, `zone->lock`).
///
/// Under a checker it is the checker's mutex (acquire on lock, release on unlock, and a blocked
/// waiter instead of a spinning one, so 3+ contenders terminate). In production it is a
/// test-and-test-and-set spin lock like the kernel's.
pub struct SpinLock<T> {
    #[cfg(any(loom, feature = "shuttle"))]
    inner: backend::Mutex<T>,
    #[cfg(not(any(loom, feature = "shuttle")))]
    inner: prod::RawSpin<T>,
}

/// Held `spin_lock`; dropping it is `spin_unlock`.
pub struct SpinGuard<'a, T> {
    #[cfg(any(loom, feature = "shuttle"))]
    guard: backend::MutexGuard<'a, T>,
    #[cfg(not(any(loom, feature = "shuttle")))]
    guard: prod::RawGuard<'a, T>,
}

impl<T> SpinLock<T> {
    pub fn new(v: T) -> Self {
        #[cfg(any(loom, feature = "shuttle"))]
        {
            SpinLock {
                inner: backend::Mutex::new(v),
            }
        }
        #[cfg(not(any(loom, feature = "shuttle")))]
        {
            SpinLock {
                inner: prod::RawSpin::new(v),
            }
        }
    }

    /// `spin_lock()`.
    pub fn lock(&self) -> SpinGuard<'_, T> {
        #[cfg(any(loom, feature = "shuttle"))]
        {
            // A poisoned lock means a VM_BUG_ON already fired in this execution; the failure is
            // recorded, so carry on with the data as it is.
            let guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            SpinGuard { guard }
        }
        #[cfg(not(any(loom, feature = "shuttle")))]
        {
            SpinGuard {
                guard: self.inner.lock(),
            }
        }
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
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Test-and-test-and-set spin lock: the production `spin_lock`.
    pub struct RawSpin<T> {
        locked: AtomicBool,
        data: UnsafeCell<T>,
    }
    // SAFETY: access to `data` is serialized by `locked` (acquire on lock, release on unlock).
    unsafe impl<T: Send> Sync for RawSpin<T> {}
    unsafe impl<T: Send> Send for RawSpin<T> {}

    pub struct RawGuard<'a, T> {
        lock: &'a RawSpin<T>,
    }

    impl<T> RawSpin<T> {
        pub fn new(v: T) -> Self {
            RawSpin {
                locked: AtomicBool::new(false),
                data: UnsafeCell::new(v),
            }
        }
        pub fn lock(&self) -> RawGuard<'_, T> {
            loop {
                // Acquire: the critical section must see the previous holder's writes.
                if !self.locked.swap(true, Ordering::Acquire) {
                    return RawGuard { lock: self };
                }
                while self.locked.load(Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            }
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
            // Release: publish the critical section to the next holder.
            self.lock.locked.store(false, Ordering::Release);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bit spinlocks (include/linux/bit_spinlock.h), used for compound_lock (PG_compound_lock).

#[cfg(loom)]
loom::lazy_static! {
    /// Under loom a bit-lock waiter blocks on this wait queue (one for all bit locks, like the
    /// kernel's hashed wait queues) instead of spinning: loom never terminates with 3+ CPUs
    /// spinning on one lock (design.md section 7, loom issue #53).
    static ref BIT_WAITQ: (Mutex<()>, Condvar) = (Mutex::new(()), Condvar::new());
}
#[cfg(loom)]
use backend::{Condvar, Mutex};

/// `bit_spin_lock(bitnum, addr)`: `test_and_set_bit_lock` (Acquire) until the bit was clear.
pub fn bit_spin_lock(bitnum: u32, word: &AtomicUsize) {
    let mask = 1usize << bitnum;
    loop {
        // test_and_set_bit_lock: ACQUIRE semantics on success.
        if word.fetch_or(mask, Ordering::Acquire) & mask == 0 {
            return;
        }
        wait_bit_clear(mask, word);
    }
}

/// `bit_spin_unlock(bitnum, addr)` = `clear_bit_unlock`: Release.
pub fn bit_spin_unlock(bitnum: u32, word: &AtomicUsize) {
    // clear_bit_unlock: RELEASE semantics, pairs with the Acquire in bit_spin_lock.
    bit_unlock_with(bitnum, word, Ordering::Release);
}

/// The unlock of [`bit_spin_unlock`] with a chosen ordering. Only tests use another ordering
/// than Release: tests/sync_loom.rs shows that loom catches an unlock without Release.
#[doc(hidden)]
pub fn bit_unlock_with(bitnum: u32, word: &AtomicUsize, ordering: Ordering) {
    let mask = 1usize << bitnum;
    word.fetch_and(!mask, ordering);
    #[cfg(loom)]
    {
        let (m, cv) = &*BIT_WAITQ;
        let _g = m.lock().unwrap_or_else(|p| p.into_inner());
        cv.notify_all();
    }
}

#[cfg(loom)]
fn wait_bit_clear(mask: usize, word: &AtomicUsize) {
    let (m, cv) = &*BIT_WAITQ;
    let mut g = m.lock().unwrap_or_else(|p| p.into_inner());
    // The unlocker clears the bit before taking the wait-queue mutex to notify, so checking
    // under the mutex cannot lose a wakeup.
    while word.load(Ordering::Relaxed) & mask != 0 {
        g = cv.wait(g).unwrap_or_else(|p| p.into_inner());
    }
}

#[cfg(not(loom))]
fn wait_bit_clear(mask: usize, word: &AtomicUsize) {
    // while (test_bit(bitnum, addr)) cpu_relax();
    while word.load(Ordering::Relaxed) & mask != 0 {
        cpu_relax();
    }
}
