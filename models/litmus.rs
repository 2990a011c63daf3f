//! Calibration scenarios: the Linux kernel's memory-model litmus tests
//! (`tools/memory-model/litmus-tests/`, `Documentation/litmus-tests/`), and the patterns
//! mmcheck's claims rely on that the kernel directory lacks, each written with the shim's kernel
//! primitives only (`mmcheck::sync`: `READ_ONCE`/`WRITE_ONCE` on `unsigned_long`, `atomic_t`
//! operations, `smp_*` barriers, `smp_load_acquire`/`smp_store_release`, `xchg`/`cmpxchg`,
//! `spin_lock`, `bit_spin_lock`). The claims crate's calibration table
//! (`claims/calibration.rs`) runs every one under the checker and compares the outcome it
//! observes with the LKMM's result; proofs/README.md, "Calibration", has the table.
//!
//! One function per test. It runs one execution and says whether the test's `exists` clause
//! holds at the end (and, for a test with a `filter` clause, whether the execution passes the
//! filter). It never panics: the checker explores every execution and the runner records
//! whether the outcome was ever observed.
//!
//! Translation rules, the same for every test:
//! * each `Pn` is CPU n (`spawn_cpu(n, ...)`), all joined before the `exists` clause is read;
//! * `int` shared variables are `unsigned_long` words (initially 0), read and written with
//!   `READ_ONCE`/`WRITE_ONCE`; an `atomic_t` is an `atomic_t`; a `spinlock_t` is a `SpinLock`;
//! * register `n:rK` is `regs[n][K]` (registers are `i64` so an atomic's negative result fits);
//! * a final-value condition (`x=2`) reads the word after every CPU was joined;
//! * a thread-private plain access (`dep+plain`'s `*z1`, `*z2`) is a local variable;
//! * a `locations` clause only prints values in herd7 and is dropped.
//!
//! Names of the added tests follow the LKMM's convention (`MP`, `S`, `ISA2` shapes; per CPU
//! the relation between its two accesses and their kinds), with these words for what the
//! kernel directory has no name for: `rmw` a non-value-returning atomic RMW (`atomic_add`,
//! `atomic_dec`: unordered), `fullrmw` a value-returning one (`atomic_dec_return`,
//! `atomic_dec_and_test`: fully ordered), `bitlock` a bit spinlock (`bit_spin_lock`, as
//! `compound_lock` is).

use mmcheck::sync::{
    __atomic_add_unless, atomic_add, atomic_add_return, atomic_dec, atomic_dec_return, atomic_inc,
    atomic_inc_return, atomic_read, atomic_set, atomic_t, bit_spin_lock, bit_spin_unlock, cmpxchg,
    join, smp_load_acquire, smp_mb, smp_mb__after_atomic, smp_mb__after_spinlock,
    smp_mb__before_atomic, smp_rmb, smp_store_release, smp_wmb, spawn_cpu, spin_lock, spin_unlock,
    unsigned_long, SpinLock, READ_ONCE, WRITE_ONCE,
};
use std::sync::Arc;

/// The registers of one CPU: `regs[n][K]` is herd's `n:rK`.
pub type Regs = [i64; 5];

/// A CPU that leaves no register.
const NONE: Regs = [0; 5];

/// What one execution of a litmus test ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The execution does not pass the test's `filter` clause (herd7 discards it).
    Filtered,
    /// The execution passes the filter (or the test has none); true if the `exists` clause
    /// holds.
    Exists(bool),
}

/// One litmus test.
pub struct Litmus {
    /// The test's name (the kernel's file name without `.litmus`, or an added test's name).
    pub name: &'static str,
    /// CPUs it runs.
    pub cpus: usize,
    /// One execution.
    pub run: fn() -> Outcome,
}

/// The shared variables every test draws from (each uses a few; the others stay untouched).
pub struct Vars {
    pub x: unsigned_long,
    pub y: unsigned_long,
    pub z: unsigned_long,
    pub buf: unsigned_long,
    pub flag: unsigned_long,
    pub data: unsigned_long,
    /// The `atomic_t` of a test (`atomic_t *y`, `atomic_t v`, a page's `_count`).
    pub a: atomic_t,
    /// `spinlock_t mylock` (also `lck`).
    pub mylock: SpinLock<()>,
    /// `spinlock_t s` and `t` of the unlock+lock tests.
    pub s: SpinLock<()>,
    pub t: SpinLock<()>,
    /// A word holding a bit spinlock at bit [`LOCK_BIT`] (`page->flags` with PG_compound_lock).
    pub lockword: unsigned_long,
}

/// The bit of [`Vars::lockword`] the bit-spinlock tests lock.
pub const LOCK_BIT: u32 = 0;

impl Vars {
    /// Every variable 0; the `atomic_t` starts at `a`.
    fn new(a: i32) -> Vars {
        Vars {
            x: unsigned_long::new(0),
            y: unsigned_long::new(0),
            z: unsigned_long::new(0),
            buf: unsigned_long::new(0),
            flag: unsigned_long::new(0),
            data: unsigned_long::new(0),
            a: atomic_t::new(a),
            mylock: SpinLock::new(()),
            s: SpinLock::new(()),
            t: SpinLock::new(()),
            lockword: unsigned_long::new(0),
        }
    }
}

/// Run each `Pn` on CPU n, join them all, and hand back the variables (for the final-value
/// conditions) and every CPU's registers.
fn run<const N: usize>(a: i32, procs: [fn(&Vars) -> Regs; N]) -> (Arc<Vars>, [Regs; N]) {
    let v = Arc::new(Vars::new(a));
    let cpus: Vec<_> = procs
        .iter()
        .enumerate()
        .map(|(cpu, p)| {
            let (v, p) = (v.clone(), *p);
            spawn_cpu(cpu, move || p(&v))
        })
        .collect();
    let mut regs = [NONE; N];
    for (r, h) in regs.iter_mut().zip(cpus) {
        *r = join(h);
    }
    (v, regs)
}

/// `READ_ONCE(*x)` as a register value.
fn r(x: &unsigned_long) -> i64 {
    READ_ONCE(x) as i64
}

fn exists(holds: bool) -> Outcome {
    Outcome::Exists(holds)
}

/// `filter (f) exists (e)`.
fn filter_exists(f: bool, e: bool) -> Outcome {
    if f {
        Outcome::Exists(e)
    } else {
        Outcome::Filtered
    }
}

// =============================================================================================
// tools/memory-model/litmus-tests/

/// `CoRR+poonceonce+Once` (Result: Never): read-read coherence.
pub fn corr_poonceonce_once() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.x);
                let r1 = r(&v.x);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == 0)
}

/// `CoRW+poonceonce+Once` (Result: Never): read-write coherence.
pub fn corw_poonceonce_once() -> Outcome {
    let (v, regs) = run(
        0,
        [
            |v| {
                let r0 = r(&v.x);
                WRITE_ONCE(&v.x, 1);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.x, 2);
                NONE
            },
        ],
    );
    exists(r(&v.x) == 2 && regs[0][0] == 2)
}

/// `CoWR+poonceonce+Once` (Result: Never): write-read coherence.
pub fn cowr_poonceonce_once() -> Outcome {
    let (v, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                let r0 = r(&v.x);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.x, 2);
                NONE
            },
        ],
    );
    exists(r(&v.x) == 1 && regs[0][0] == 2)
}

/// `CoWW+poonceonce` (Result: Never): write-write coherence.
pub fn coww_poonceonce() -> Outcome {
    let (v, _) = run(
        0,
        [|v| {
            WRITE_ONCE(&v.x, 1);
            WRITE_ONCE(&v.x, 2);
            NONE
        }],
    );
    exists(r(&v.x) == 1)
}

/// `IRIW+fencembonceonces+OnceOnce` (Result: Never): smp_mb() makes two readers agree on the
/// order of two independent writes.
pub fn iriw_fencembonceonces_onceonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.x);
                smp_mb();
                let r1 = r(&v.y);
                [r0, r1, 0, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.y, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.y);
                smp_mb();
                let r1 = r(&v.x);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == 0 && regs[3][0] == 1 && regs[3][1] == 0)
}

/// `IRIW+poonceonces+OnceOnce` (Result: Sometimes).
pub fn iriw_poonceonces_onceonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.x);
                let r1 = r(&v.y);
                [r0, r1, 0, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.y, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.y);
                let r1 = r(&v.x);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == 0 && regs[3][0] == 1 && regs[3][1] == 0)
}

/// `ISA2+pooncelock+pooncelock+pombonce` (Result: Never): write-write ordering provided by
/// locks (in P0 and P1) is visible to the external process P2.
pub fn isa2_pooncelock_pooncelock_pombonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                let g = spin_lock(&v.mylock);
                WRITE_ONCE(&v.x, 1);
                WRITE_ONCE(&v.y, 1);
                spin_unlock(g);
                NONE
            },
            |v| {
                let g = spin_lock(&v.mylock);
                let r0 = r(&v.y);
                WRITE_ONCE(&v.z, 1);
                spin_unlock(g);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                let r2 = r(&v.z);
                smp_mb();
                let r1 = r(&v.x);
                [0, r1, r2, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[2][2] == 1 && regs[2][1] == 0)
}

/// `ISA2+poonceonces` (Result: Sometimes).
pub fn isa2_poonceonces() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                WRITE_ONCE(&v.y, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.y);
                WRITE_ONCE(&v.z, 1);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                let r0 = r(&v.z);
                let r1 = r(&v.x);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[2][0] == 1 && regs[2][1] == 0)
}

/// `ISA2+pooncerelease+poacquirerelease+poacquireonce` (Result: Never): a release-acquire
/// chain orders P0's first store against P2's last load.
pub fn isa2_pooncerelease_poacquirerelease_poacquireonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                smp_store_release(&v.y, 1);
                NONE
            },
            |v| {
                let r0 = smp_load_acquire(&v.y) as i64;
                smp_store_release(&v.z, 1);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                let r0 = smp_load_acquire(&v.z) as i64;
                let r1 = r(&v.x);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[2][0] == 1 && regs[2][1] == 0)
}

/// `LB+fencembonceonce+ctrlonceonce` (Result: Never): a control dependency and an smp_mb()
/// suffice for load buffering.
pub fn lb_fencembonceonce_ctrlonceonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                let r0 = r(&v.x);
                if r0 != 0 {
                    WRITE_ONCE(&v.y, 1);
                }
                [r0, 0, 0, 0, 0]
            },
            |v| {
                let r0 = r(&v.y);
                smp_mb();
                WRITE_ONCE(&v.x, 1);
                [r0, 0, 0, 0, 0]
            },
        ],
    );
    exists(regs[0][0] == 1 && regs[1][0] == 1)
}

/// `LB+poacquireonce+pooncerelease` (Result: Never).
pub fn lb_poacquireonce_pooncerelease() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                let r0 = r(&v.x);
                smp_store_release(&v.y, 1);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                let r0 = smp_load_acquire(&v.y) as i64;
                WRITE_ONCE(&v.x, 1);
                [r0, 0, 0, 0, 0]
            },
        ],
    );
    exists(regs[0][0] == 1 && regs[1][0] == 1)
}

/// `LB+poonceonces` (Result: Sometimes).
pub fn lb_poonceonces() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                let r0 = r(&v.x);
                WRITE_ONCE(&v.y, 1);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                let r0 = r(&v.y);
                WRITE_ONCE(&v.x, 1);
                [r0, 0, 0, 0, 0]
            },
        ],
    );
    exists(regs[0][0] == 1 && regs[1][0] == 1)
}

/// `LB+unlocklockonceonce+poacquireonce` (Result: Never): an unlock+lock pair on one CPU orders
/// a load before a store, even with different locks.
pub fn lb_unlocklockonceonce_poacquireonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                let g = spin_lock(&v.s);
                let r1 = r(&v.x);
                spin_unlock(g);
                let g = spin_lock(&v.t);
                WRITE_ONCE(&v.y, 1);
                spin_unlock(g);
                [0, r1, 0, 0, 0]
            },
            |v| {
                let r2 = smp_load_acquire(&v.y) as i64;
                WRITE_ONCE(&v.x, 1);
                [0, 0, r2, 0, 0]
            },
        ],
    );
    exists(regs[0][1] == 1 && regs[1][2] == 1)
}

/// `MP+fencewmbonceonce+fencermbonceonce` (Result: Never).
pub fn mp_fencewmbonceonce_fencermbonceonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.buf, 1);
                smp_wmb();
                WRITE_ONCE(&v.flag, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.flag);
                smp_rmb();
                let r1 = r(&v.buf);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == 0)
}

/// `MP+polocks` (Result: Never): lock acquisition and release stand in for acquire and release.
pub fn mp_polocks() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.buf, 1);
                let g = spin_lock(&v.mylock);
                WRITE_ONCE(&v.flag, 1);
                spin_unlock(g);
                NONE
            },
            |v| {
                let g = spin_lock(&v.mylock);
                let r0 = r(&v.flag);
                spin_unlock(g);
                let r1 = r(&v.buf);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == 0)
}

/// `MP+poonceonces` (Result: Sometimes).
pub fn mp_poonceonces() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.buf, 1);
                WRITE_ONCE(&v.flag, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.flag);
                let r1 = r(&v.buf);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == 0)
}

/// `MP+pooncerelease+poacquireonce` (Result: Never).
pub fn mp_pooncerelease_poacquireonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.buf, 1);
                smp_store_release(&v.flag, 1);
                NONE
            },
            |v| {
                let r0 = smp_load_acquire(&v.flag) as i64;
                let r1 = r(&v.buf);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == 0)
}

/// `MP+porevlocks` (Result: Never): the converse of MP+polocks.
pub fn mp_porevlocks() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                let r0 = r(&v.flag);
                let g = spin_lock(&v.mylock);
                let r1 = r(&v.buf);
                spin_unlock(g);
                [r0, r1, 0, 0, 0]
            },
            |v| {
                let g = spin_lock(&v.mylock);
                WRITE_ONCE(&v.buf, 1);
                spin_unlock(g);
                WRITE_ONCE(&v.flag, 1);
                NONE
            },
        ],
    );
    exists(regs[0][0] == 1 && regs[0][1] == 0)
}

/// `MP+unlocklockonceonce+fencermbonceonce` (Result: Never): stores in two critical sections
/// of one CPU propagate in order, even with different locks.
pub fn mp_unlocklockonceonce_fencermbonceonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                let g = spin_lock(&v.s);
                WRITE_ONCE(&v.x, 1);
                spin_unlock(g);
                let g = spin_lock(&v.t);
                WRITE_ONCE(&v.y, 1);
                spin_unlock(g);
                NONE
            },
            |v| {
                let r1 = r(&v.y);
                smp_rmb();
                let r2 = r(&v.x);
                [0, r1, r2, 0, 0]
            },
        ],
    );
    exists(regs[1][1] == 1 && regs[1][2] == 0)
}

/// `R+fencembonceonces` (Result: Never).
pub fn r_fencembonceonces() -> Outcome {
    let (v, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                smp_mb();
                WRITE_ONCE(&v.y, 1);
                NONE
            },
            |v| {
                WRITE_ONCE(&v.y, 2);
                smp_mb();
                let r0 = r(&v.x);
                [r0, 0, 0, 0, 0]
            },
        ],
    );
    exists(r(&v.y) == 2 && regs[1][0] == 0)
}

/// `R+poonceonces` (Result: Sometimes).
pub fn r_poonceonces() -> Outcome {
    let (v, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                WRITE_ONCE(&v.y, 1);
                NONE
            },
            |v| {
                WRITE_ONCE(&v.y, 2);
                let r0 = r(&v.x);
                [r0, 0, 0, 0, 0]
            },
        ],
    );
    exists(r(&v.y) == 2 && regs[1][0] == 0)
}

/// `S+fencewmbonceonce+poacquireonce` (Result: Never).
pub fn s_fencewmbonceonce_poacquireonce() -> Outcome {
    let (v, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 2);
                smp_wmb();
                WRITE_ONCE(&v.y, 1);
                NONE
            },
            |v| {
                let r0 = smp_load_acquire(&v.y) as i64;
                WRITE_ONCE(&v.x, 1);
                [r0, 0, 0, 0, 0]
            },
        ],
    );
    exists(r(&v.x) == 2 && regs[1][0] == 1)
}

/// `S+poonceonces` (Result: Sometimes).
pub fn s_poonceonces() -> Outcome {
    let (v, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 2);
                WRITE_ONCE(&v.y, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.y);
                WRITE_ONCE(&v.x, 1);
                [r0, 0, 0, 0, 0]
            },
        ],
    );
    exists(r(&v.x) == 2 && regs[1][0] == 1)
}

/// `SB+fencembonceonces` (Result: Never).
pub fn sb_fencembonceonces() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                smp_mb();
                let r0 = r(&v.y);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.y, 1);
                smp_mb();
                let r0 = r(&v.x);
                [r0, 0, 0, 0, 0]
            },
        ],
    );
    exists(regs[0][0] == 0 && regs[1][0] == 0)
}

/// `SB+poonceonces` (Result: Sometimes).
pub fn sb_poonceonces() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                let r0 = r(&v.y);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.y, 1);
                let r0 = r(&v.x);
                [r0, 0, 0, 0, 0]
            },
        ],
    );
    exists(regs[0][0] == 0 && regs[1][0] == 0)
}

/// `SB+rfionceonce-poonceonces` (Result: Sometimes): the LKMM is not multicopy atomic.
pub fn sb_rfionceonce_poonceonces() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                let r1 = r(&v.x);
                let r2 = r(&v.y);
                [0, r1, r2, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.y, 1);
                let r3 = r(&v.y);
                let r4 = r(&v.x);
                [0, 0, 0, r3, r4]
            },
        ],
    );
    exists(regs[0][2] == 0 && regs[1][4] == 0)
}

/// `WRC+poonceonces+Once` (Result: Sometimes).
pub fn wrc_poonceonces_once() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.x);
                WRITE_ONCE(&v.y, 1);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                let r0 = r(&v.y);
                let r1 = r(&v.x);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[2][0] == 1 && regs[2][1] == 0)
}

/// `WRC+pooncerelease+fencermbonceonce+Once` (Result: Never): smp_store_release() is
/// A-cumulative.
pub fn wrc_pooncerelease_fencermbonceonce_once() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.x);
                smp_store_release(&v.y, 1);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                let r0 = r(&v.y);
                smp_rmb();
                let r1 = r(&v.x);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[2][0] == 1 && regs[2][1] == 0)
}

/// `Z6.0+pooncelock+poonceLock+pombonce` (Result: Never): smp_mb__after_spinlock() makes the
/// order of two critical sections visible to a CPU not holding the lock.
pub fn z6_0_pooncelock_poonce_lock_pombonce() -> Outcome {
    let (v, regs) = run(
        0,
        [
            |v| {
                let g = spin_lock(&v.mylock);
                WRITE_ONCE(&v.x, 1);
                WRITE_ONCE(&v.y, 1);
                spin_unlock(g);
                NONE
            },
            |v| {
                let g = spin_lock(&v.mylock);
                smp_mb__after_spinlock();
                let r0 = r(&v.y);
                WRITE_ONCE(&v.z, 1);
                spin_unlock(g);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.z, 2);
                smp_mb();
                let r1 = r(&v.x);
                [0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && r(&v.z) == 2 && regs[2][1] == 0)
}

/// `Z6.0+pooncelock+pooncelock+pombonce` (Result: Sometimes): accesses made under one lock by
/// two CPUs are not necessarily seen in order by a third CPU not holding it.
pub fn z6_0_pooncelock_pooncelock_pombonce() -> Outcome {
    let (v, regs) = run(
        0,
        [
            |v| {
                let g = spin_lock(&v.mylock);
                WRITE_ONCE(&v.x, 1);
                WRITE_ONCE(&v.y, 1);
                spin_unlock(g);
                NONE
            },
            |v| {
                let g = spin_lock(&v.mylock);
                let r0 = r(&v.y);
                WRITE_ONCE(&v.z, 1);
                spin_unlock(g);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.z, 2);
                smp_mb();
                let r1 = r(&v.x);
                [0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && r(&v.z) == 2 && regs[2][1] == 0)
}

/// `Z6.0+pooncerelease+poacquirerelease+fencembonceonce` (Result: Sometimes): a
/// release-acquire chain does not suffice with two non-reads-from links.
pub fn z6_0_pooncerelease_poacquirerelease_fencembonceonce() -> Outcome {
    let (v, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                smp_store_release(&v.y, 1);
                NONE
            },
            |v| {
                let r0 = smp_load_acquire(&v.y) as i64;
                smp_store_release(&v.z, 1);
                [r0, 0, 0, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.z, 2);
                smp_mb();
                let r1 = r(&v.x);
                [0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && r(&v.z) == 2 && regs[2][1] == 0)
}

/// `dep+plain` (Result: Never): dependencies flow through plain accesses. `*z1` and `*z2` are
/// private to P0, so they are locals here.
pub fn dep_plain() -> Outcome {
    let (v, _) = run(
        0,
        [
            |v| {
                let a = READ_ONCE(&v.x);
                let z1 = a;
                let z2 = z1;
                if z2 == 1 {
                    WRITE_ONCE(&v.y, 1);
                }
                NONE
            },
            |v| {
                let r = smp_load_acquire(&v.y);
                smp_store_release(&v.x, r);
                NONE
            },
        ],
    );
    exists(r(&v.x) == 1 && r(&v.y) == 1)
}

// =============================================================================================
// Documentation/litmus-tests/atomic/

/// `Atomic-RMW+mb__after_atomic-is-stronger-than-acquire` (Result: Never). `atomic_t *y` is
/// [`Vars::a`].
pub fn atomic_rmw_mb_after_atomic_is_stronger_than_acquire() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                let r0 = r(&v.x);
                smp_rmb();
                let r1 = atomic_read(&v.a) as i64;
                [r0, r1, 0, 0, 0]
            },
            |v| {
                atomic_inc(&v.a);
                smp_mb__after_atomic();
                WRITE_ONCE(&v.x, 1);
                NONE
            },
        ],
    );
    exists(regs[0][0] == 1 && regs[0][1] == 0)
}

/// `Atomic-RMW-ops-are-atomic-WRT-atomic_set` (Result: Never). `atomic_t v = ATOMIC_INIT(1)` is
/// [`Vars::a`]; `atomic_add_unless(v, 1, 0)` is `__atomic_add_unless(v, 1, 0) != 0` (3.x).
pub fn atomic_rmw_ops_are_atomic_wrt_atomic_set() -> Outcome {
    let (v, _) = run(
        1,
        [
            |v| {
                let _ = __atomic_add_unless(&v.a, 1, 0) != 0;
                NONE
            },
            |v| {
                atomic_set(&v.a, 0);
                NONE
            },
        ],
    );
    exists(atomic_read(&v.a) == 2)
}

/// `cmpxchg-fail-ordered-1` (Result: Never): a failing cmpxchg() followed by
/// smp_mb__after_atomic() is a full barrier.
pub fn cmpxchg_fail_ordered_1() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                let r1 = cmpxchg(&v.z, 1, 0) as i64;
                smp_mb__after_atomic();
                let r0 = r(&v.y);
                [r0, r1, 0, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.y, 1);
                let r1 = cmpxchg(&v.z, 1, 0) as i64;
                smp_mb__after_atomic();
                let r0 = r(&v.x);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[0][0] == 0 && regs[1][0] == 0)
}

/// `cmpxchg-fail-ordered-2` (Result: Never): smp_mb__after_atomic() gives a failing cmpxchg()
/// acquire ordering.
pub fn cmpxchg_fail_ordered_2() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                let r1 = cmpxchg(&v.y, 0, 1) as i64;
                [0, r1, 0, 0, 0]
            },
            |v| {
                let r1 = cmpxchg(&v.y, 0, 1) as i64;
                smp_mb__after_atomic();
                let r2 = r(&v.x);
                [0, r1, r2, 0, 0]
            },
        ],
    );
    exists(regs[0][1] == 0 && regs[1][1] == 1 && regs[1][2] == 0)
}

/// `cmpxchg-fail-unordered-1` (Result: Sometimes): a failing cmpxchg() is not a full barrier.
pub fn cmpxchg_fail_unordered_1() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                let r1 = cmpxchg(&v.z, 1, 0) as i64;
                let r0 = r(&v.y);
                [r0, r1, 0, 0, 0]
            },
            |v| {
                WRITE_ONCE(&v.y, 1);
                let r1 = cmpxchg(&v.z, 1, 0) as i64;
                let r0 = r(&v.x);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[0][0] == 0 && regs[1][0] == 0)
}

/// `cmpxchg-fail-unordered-2` (Result: Sometimes): a failing cmpxchg() is not an acquire.
pub fn cmpxchg_fail_unordered_2() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.x, 1);
                let r1 = cmpxchg(&v.y, 0, 1) as i64;
                [0, r1, 0, 0, 0]
            },
            |v| {
                let r1 = cmpxchg(&v.y, 0, 1) as i64;
                let r2 = r(&v.x);
                [0, r1, r2, 0, 0]
            },
        ],
    );
    exists(regs[0][1] == 0 && regs[1][1] == 1 && regs[1][2] == 0)
}

// =============================================================================================
// Documentation/litmus-tests/locking/

/// One CPU of `DCL-broken`: double-checked initialisation with a plain fast path.
fn dcl_broken_cpu(v: &Vars) -> Regs {
    let r0 = r(&v.flag);
    let mut r1 = 0;
    if r0 == 0 {
        let g = spin_lock(&v.mylock);
        r1 = r(&v.flag);
        if r1 == 0 {
            WRITE_ONCE(&v.data, 1);
            WRITE_ONCE(&v.flag, 1);
        }
        spin_unlock(g);
    }
    let r2 = r(&v.data);
    [r0, r1, r2, 0, 0]
}

/// `DCL-broken` (Result: Sometimes): double-checked locking needs more than the locks.
pub fn dcl_broken() -> Outcome {
    let (_, regs) = run(0, [dcl_broken_cpu, dcl_broken_cpu]);
    exists(regs[0][2] == 0 || regs[1][2] == 0)
}

/// One CPU of `DCL-fixed`: the fast path with `smp_load_acquire`/`smp_store_release`.
fn dcl_fixed_cpu(v: &Vars) -> Regs {
    let r0 = smp_load_acquire(&v.flag) as i64;
    let mut r1 = 0;
    if r0 == 0 {
        let g = spin_lock(&v.mylock);
        r1 = r(&v.flag);
        if r1 == 0 {
            WRITE_ONCE(&v.data, 1);
            smp_store_release(&v.flag, 1);
        }
        spin_unlock(g);
    }
    let r2 = r(&v.data);
    [r0, r1, r2, 0, 0]
}

/// `DCL-fixed` (Result: Never).
pub fn dcl_fixed() -> Outcome {
    let (_, regs) = run(0, [dcl_fixed_cpu, dcl_fixed_cpu]);
    exists(regs[0][2] == 0 || regs[1][2] == 0)
}

/// `RM-broken` (Result: DEADLOCK: no execution passes the filter). `atomic_t y` is [`Vars::a`].
pub fn rm_broken() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                let g = spin_lock(&v.mylock);
                let r2 = atomic_inc_return(&v.a) as i64;
                WRITE_ONCE(&v.x, 1);
                spin_unlock(g);
                [0, 0, r2, 0, 0]
            },
            |v| {
                let g = spin_lock(&v.mylock);
                let r0 = r(&v.x);
                let r1 = r(&v.x);
                let r2 = atomic_inc_return(&v.a) as i64;
                spin_unlock(g);
                [r0, r1, r2, 0, 0]
            },
        ],
    );
    filter_exists(regs[1][0] == 0 && regs[1][1] == 1, regs[1][2] == 1)
}

/// `RM-fixed` (Result: Never). `atomic_t y` is [`Vars::a`].
pub fn rm_fixed() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                let g = spin_lock(&v.mylock);
                let r2 = atomic_inc_return(&v.a) as i64;
                WRITE_ONCE(&v.x, 1);
                spin_unlock(g);
                [0, 0, r2, 0, 0]
            },
            |v| {
                let r0 = r(&v.x);
                let r1 = r(&v.x);
                let g = spin_lock(&v.mylock);
                let r2 = atomic_inc_return(&v.a) as i64;
                spin_unlock(g);
                [r0, r1, r2, 0, 0]
            },
        ],
    );
    filter_exists(regs[1][0] == 0 && regs[1][1] == 1, regs[1][2] == 1)
}

// =============================================================================================
// Added: the patterns mmcheck's claims rely on. The LKMM result of each is argued in
// claims/calibration.rs and proofs/README.md ("Calibration").

/// `S+fencembrmwonce+pooncefullrmw` (LKMM: Never): the shape of `__split_huge_page_refcount`
/// (mm/huge_memory.c, 3.10) against a put of the tail. P0 is split: `atomic_add()` of the tail's
/// `_count` (`a`), `smp_mb()`, then clearing PG_tail (`flag`, here set to 1). P1 is
/// `put_page()` on the tail: it sees PG_tail clear (`flag` 1) and so takes the single-page path,
/// `put_page_testzero()`: `atomic_dec_and_test()`, fully ordered. The outcome: the put's
/// decrement comes before split's add in the count's coherence order (it read 0).
pub fn s_fencembrmwonce_pooncefullrmw() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                atomic_add(1, &v.a);
                smp_mb();
                WRITE_ONCE(&v.flag, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.flag);
                let r1 = if r0 == 1 {
                    atomic_dec_return(&v.a) as i64
                } else {
                    0
                };
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == -1)
}

/// `S+pormwonce+pooncefullrmw` (LKMM: Sometimes): [`s_fencembrmwonce_pooncefullrmw`] without
/// split's `smp_mb()`: the mutant that removes it. `atomic_add()` is unordered, so nothing
/// orders the count's update before the flag store.
pub fn s_pormwonce_pooncefullrmw() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                atomic_add(1, &v.a);
                WRITE_ONCE(&v.flag, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.flag);
                let r1 = if r0 == 1 {
                    atomic_dec_return(&v.a) as i64
                } else {
                    0
                };
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == -1)
}

/// `S+pofullrmwonce+pooncefullrmw` (LKMM: Never): the writer's count update is a value-returning
/// (fully ordered) atomic instead of `atomic_add()` + `smp_mb()`.
pub fn s_pofullrmwonce_pooncefullrmw() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                atomic_add_return(1, &v.a);
                WRITE_ONCE(&v.flag, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.flag);
                let r1 = if r0 == 1 {
                    atomic_dec_return(&v.a) as i64
                } else {
                    0
                };
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == -1)
}

/// `MP+fencembrmwonce+poonceonce` (LKMM: Sometimes): the shape of the compound.1-debug-vm
/// finding. P0 is split: `atomic_add()` of the tail's `_count` (`a`), `smp_mb()`, PG_tail clear
/// (`flag` set to 1). P1 is `put_page()` on the tail with CONFIG_DEBUG_VM: it sees PG_tail
/// clear, then `put_page_testzero()`'s `VM_BUG_ON(atomic_read(&page->_count) == 0)` reads the
/// count with no barrier between the two loads.
pub fn mp_fencembrmwonce_poonceonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                atomic_add(1, &v.a);
                smp_mb();
                WRITE_ONCE(&v.flag, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.flag);
                let r1 = atomic_read(&v.a) as i64;
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == 0)
}

/// `MP+fencembrmwonce+fencermbonceonce` (LKMM: Never): [`mp_fencembrmwonce_poonceonce`] with an
/// `smp_rmb()` between the reader's loads.
pub fn mp_fencembrmwonce_fencermbonceonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                atomic_add(1, &v.a);
                smp_mb();
                WRITE_ONCE(&v.flag, 1);
                NONE
            },
            |v| {
                let r0 = r(&v.flag);
                smp_rmb();
                let r1 = atomic_read(&v.a) as i64;
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == 0)
}

/// `MP+pooncefullrmw+pofullrmwonce` (LKMM: Never): the last `put_page()` sees what the other
/// holder wrote before its own put. The count (`a`) starts at 2; P0 writes `data` and drops its
/// reference with `atomic_dec_and_test()`; P1 drops the last one (its decrement returns 0) and
/// reads `data`, as a destructor would.
pub fn mp_pooncefullrmw_pofullrmwonce() -> Outcome {
    let (_, regs) = run(
        2,
        [
            |v| {
                WRITE_ONCE(&v.data, 1);
                atomic_dec_return(&v.a);
                NONE
            },
            |v| {
                let r0 = atomic_dec_return(&v.a) as i64;
                let r1 = r(&v.data);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 0 && regs[1][1] == 0)
}

/// `MP+pooncermw+pofullrmwonce` (LKMM: Sometimes): as [`mp_pooncefullrmw_pofullrmwonce`], but
/// P0 drops its reference with `atomic_dec()`, which is unordered: the last holder may not see
/// P0's write (the shape of a put split into `atomic_dec()` + `atomic_read()`).
pub fn mp_pooncermw_pofullrmwonce() -> Outcome {
    let (_, regs) = run(
        2,
        [
            |v| {
                WRITE_ONCE(&v.data, 1);
                atomic_dec(&v.a);
                NONE
            },
            |v| {
                let r0 = atomic_dec_return(&v.a) as i64;
                let r1 = r(&v.data);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 0 && regs[1][1] == 0)
}

/// `MP+fencembbeforeatomiconcermw+pofullrmwonce` (LKMM: Never): `smp_mb__before_atomic()` before the
/// `atomic_dec()` of [`mp_pooncermw_pofullrmwonce`] restores the order.
pub fn mp_fencembeforeatomic_rmw_pofullrmwonce() -> Outcome {
    let (_, regs) = run(
        2,
        [
            |v| {
                WRITE_ONCE(&v.data, 1);
                smp_mb__before_atomic();
                atomic_dec(&v.a);
                NONE
            },
            |v| {
                let r0 = atomic_dec_return(&v.a) as i64;
                let r1 = r(&v.data);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 0 && regs[1][1] == 0)
}

/// `MP+pooncerelease+pooncecoonce+poacquireonce` (LKMM: Sometimes): P0 writes `buf` and
/// releases `flag`; P1 overwrites `flag` with a plain store; P2 reads P1's value with an acquire
/// load, then `buf`. A plain store carries no release and starts no release sequence: P2 may
/// miss P0's `buf` even when P1's store came after P0's release (`flag=2` at the end). The
/// shape of a non-atomic update of `page->flags` (`__SetPageX`, `page->flags &= ...`) after
/// another CPU's `bit_spin_unlock()` on the same word.
pub fn mp_pooncerelease_pooncecoonce_poacquireonce() -> Outcome {
    let (v, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.buf, 1);
                smp_store_release(&v.flag, 1);
                NONE
            },
            |v| {
                WRITE_ONCE(&v.flag, 2);
                NONE
            },
            |v| {
                let r0 = smp_load_acquire(&v.flag) as i64;
                let r1 = r(&v.buf);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(r(&v.flag) == 2 && regs[2][0] == 2 && regs[2][1] == 0)
}

/// `MP+pobitlocks` (LKMM: Never): [`mp_polocks`] with a bit spinlock (`bit_spin_lock()`:
/// `test_and_set_bit_lock()`, ACQUIRE; `bit_spin_unlock()`: `clear_bit_unlock()`, RELEASE).
pub fn mp_pobitlocks() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                WRITE_ONCE(&v.buf, 1);
                bit_spin_lock(LOCK_BIT, &v.lockword);
                WRITE_ONCE(&v.flag, 1);
                drop(bit_spin_unlock(LOCK_BIT, &v.lockword));
                NONE
            },
            |v| {
                bit_spin_lock(LOCK_BIT, &v.lockword);
                let r0 = r(&v.flag);
                drop(bit_spin_unlock(LOCK_BIT, &v.lockword));
                let r1 = r(&v.buf);
                [r0, r1, 0, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[1][1] == 0)
}

/// `MP+porevbitlocks` (LKMM: Never): [`mp_porevlocks`] with a bit spinlock.
pub fn mp_porevbitlocks() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                let r0 = r(&v.flag);
                bit_spin_lock(LOCK_BIT, &v.lockword);
                let r1 = r(&v.buf);
                drop(bit_spin_unlock(LOCK_BIT, &v.lockword));
                [r0, r1, 0, 0, 0]
            },
            |v| {
                bit_spin_lock(LOCK_BIT, &v.lockword);
                WRITE_ONCE(&v.buf, 1);
                drop(bit_spin_unlock(LOCK_BIT, &v.lockword));
                WRITE_ONCE(&v.flag, 1);
                NONE
            },
        ],
    );
    exists(regs[0][0] == 1 && regs[0][1] == 0)
}

/// `ISA2+pooncebitlock+pooncebitlock+pombonce` (LKMM: Sometimes):
/// [`isa2_pooncelock_pooncelock_pombonce`] with a bit spinlock. The LKMM's extra lock ordering
/// for outside observers (`po-unlock-lock-po`) belongs to `spin_lock()`/`spin_unlock()` only; a
/// bit spinlock is an acquire RMW and a release store, and a release-acquire chain whose middle
/// CPU writes `z` with a plain store does not order P0's `x` before `z` for P2.
pub fn isa2_pooncebitlock_pooncebitlock_pombonce() -> Outcome {
    let (_, regs) = run(
        0,
        [
            |v| {
                bit_spin_lock(LOCK_BIT, &v.lockword);
                WRITE_ONCE(&v.x, 1);
                WRITE_ONCE(&v.y, 1);
                drop(bit_spin_unlock(LOCK_BIT, &v.lockword));
                NONE
            },
            |v| {
                bit_spin_lock(LOCK_BIT, &v.lockword);
                let r0 = r(&v.y);
                WRITE_ONCE(&v.z, 1);
                drop(bit_spin_unlock(LOCK_BIT, &v.lockword));
                [r0, 0, 0, 0, 0]
            },
            |v| {
                let r2 = r(&v.z);
                smp_mb();
                let r1 = r(&v.x);
                [0, r1, r2, 0, 0]
            },
        ],
    );
    exists(regs[1][0] == 1 && regs[2][2] == 1 && regs[2][1] == 0)
}

// =============================================================================================

macro_rules! litmus {
    ($($name:literal => $f:ident, $cpus:literal;)*) => {
        /// Every calibration scenario, in table order.
        pub static LITMUS: &[Litmus] = &[$(Litmus { name: $name, cpus: $cpus, run: $f }),*];
    };
}

litmus! {
    "CoRR+poonceonce+Once" => corr_poonceonce_once, 2;
    "CoRW+poonceonce+Once" => corw_poonceonce_once, 2;
    "CoWR+poonceonce+Once" => cowr_poonceonce_once, 2;
    "CoWW+poonceonce" => coww_poonceonce, 1;
    "IRIW+fencembonceonces+OnceOnce" => iriw_fencembonceonces_onceonce, 4;
    "IRIW+poonceonces+OnceOnce" => iriw_poonceonces_onceonce, 4;
    "ISA2+pooncelock+pooncelock+pombonce" => isa2_pooncelock_pooncelock_pombonce, 3;
    "ISA2+poonceonces" => isa2_poonceonces, 3;
    "ISA2+pooncerelease+poacquirerelease+poacquireonce" => isa2_pooncerelease_poacquirerelease_poacquireonce, 3;
    "LB+fencembonceonce+ctrlonceonce" => lb_fencembonceonce_ctrlonceonce, 2;
    "LB+poacquireonce+pooncerelease" => lb_poacquireonce_pooncerelease, 2;
    "LB+poonceonces" => lb_poonceonces, 2;
    "LB+unlocklockonceonce+poacquireonce" => lb_unlocklockonceonce_poacquireonce, 2;
    "MP+fencewmbonceonce+fencermbonceonce" => mp_fencewmbonceonce_fencermbonceonce, 2;
    "MP+polocks" => mp_polocks, 2;
    "MP+poonceonces" => mp_poonceonces, 2;
    "MP+pooncerelease+poacquireonce" => mp_pooncerelease_poacquireonce, 2;
    "MP+porevlocks" => mp_porevlocks, 2;
    "MP+unlocklockonceonce+fencermbonceonce" => mp_unlocklockonceonce_fencermbonceonce, 2;
    "R+fencembonceonces" => r_fencembonceonces, 2;
    "R+poonceonces" => r_poonceonces, 2;
    "S+fencewmbonceonce+poacquireonce" => s_fencewmbonceonce_poacquireonce, 2;
    "S+poonceonces" => s_poonceonces, 2;
    "SB+fencembonceonces" => sb_fencembonceonces, 2;
    "SB+poonceonces" => sb_poonceonces, 2;
    "SB+rfionceonce-poonceonces" => sb_rfionceonce_poonceonces, 2;
    "WRC+poonceonces+Once" => wrc_poonceonces_once, 3;
    "WRC+pooncerelease+fencermbonceonce+Once" => wrc_pooncerelease_fencermbonceonce_once, 3;
    "Z6.0+pooncelock+poonceLock+pombonce" => z6_0_pooncelock_poonce_lock_pombonce, 3;
    "Z6.0+pooncelock+pooncelock+pombonce" => z6_0_pooncelock_pooncelock_pombonce, 3;
    "Z6.0+pooncerelease+poacquirerelease+fencembonceonce" => z6_0_pooncerelease_poacquirerelease_fencembonceonce, 3;
    "dep+plain" => dep_plain, 2;
    "Atomic-RMW+mb__after_atomic-is-stronger-than-acquire" => atomic_rmw_mb_after_atomic_is_stronger_than_acquire, 2;
    "Atomic-RMW-ops-are-atomic-WRT-atomic_set" => atomic_rmw_ops_are_atomic_wrt_atomic_set, 2;
    "cmpxchg-fail-ordered-1" => cmpxchg_fail_ordered_1, 2;
    "cmpxchg-fail-ordered-2" => cmpxchg_fail_ordered_2, 2;
    "cmpxchg-fail-unordered-1" => cmpxchg_fail_unordered_1, 2;
    "cmpxchg-fail-unordered-2" => cmpxchg_fail_unordered_2, 2;
    "DCL-broken" => dcl_broken, 2;
    "DCL-fixed" => dcl_fixed, 2;
    "RM-broken" => rm_broken, 2;
    "RM-fixed" => rm_fixed, 2;
    "S+fencembrmwonce+pooncefullrmw" => s_fencembrmwonce_pooncefullrmw, 2;
    "S+pormwonce+pooncefullrmw" => s_pormwonce_pooncefullrmw, 2;
    "S+pofullrmwonce+pooncefullrmw" => s_pofullrmwonce_pooncefullrmw, 2;
    "MP+fencembrmwonce+poonceonce" => mp_fencembrmwonce_poonceonce, 2;
    "MP+fencembrmwonce+fencermbonceonce" => mp_fencembrmwonce_fencermbonceonce, 2;
    "MP+pooncefullrmw+pofullrmwonce" => mp_pooncefullrmw_pofullrmwonce, 2;
    "MP+pooncermw+pofullrmwonce" => mp_pooncermw_pofullrmwonce, 2;
    "MP+fencembbeforeatomiconcermw+pofullrmwonce" => mp_fencembeforeatomic_rmw_pofullrmwonce, 2;
    "MP+pooncerelease+pooncecoonce+poacquireonce" => mp_pooncerelease_pooncecoonce_poacquireonce, 3;
    "MP+pobitlocks" => mp_pobitlocks, 2;
    "MP+porevbitlocks" => mp_porevbitlocks, 2;
    "ISA2+pooncebitlock+pooncebitlock+pombonce" => isa2_pooncebitlock_pooncebitlock_pombonce, 3;
}

/// The scenario named `name`.
pub fn find(name: &str) -> Option<&'static Litmus> {
    LITMUS.iter().find(|l| l.name == name)
}
