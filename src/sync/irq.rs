//! Interrupts (issue #18: `lru_rotate_pvecs`, filled from `end_page_writeback()` in interrupt
//! context). Part of the shim: it names the backend's atomics and threads.
//!
//! # What an interrupt is here
//!
//! A model raises one hardware interrupt on a CPU with [`spawn_irq`]: a device thread whose
//! only act is to raise it. The handler then runs **on that CPU, at a point where the CPU's
//! code has interrupts enabled, to its end, while that CPU's code waits**, as a hardirq does:
//!
//! * at every *window* of the CPU's thread: before each of its checker operations (the shim's
//!   atomics and bit operations under loom, `spin_lock` before and after it takes the lock,
//!   `cpu_relax`), just before `local_irq_save()` / `local_irq_disable()` turn interrupts off,
//!   where `local_irq_enable()` or `local_irq_restore()` turns them back on, and when the
//!   CPU's code ends;
//! * never while the CPU has interrupts disabled (`local_irq_save`, `local_irq_disable`, the
//!   `spin_lock_irq` forms of the callers), nor inside the handler;
//! * if the device raises it after the CPU's code ended, the device thread runs the handler as
//!   that CPU (an interrupt of an idle CPU).
//!
//! [`hardirq`] is the other way in: a CPU with no code of its own takes the interrupt at once
//! (no device thread, no window).
//!
//! The handler runs inline on the interrupted thread, so it sees the CPU's own program order
//! (the interrupted code's plain stores included) exactly as the CPU would. Whether a window
//! delivers is one read-modify-write of the line's state that races the device's: the
//! checker explores the interrupt at every window, and in no other place. A window between
//! two plain accesses (no checker operation between them) is the same as one at the next
//! checker operation, since an interrupt's effects can only meet the interrupted code's
//! through the memory it shares; the exceptions are per-CPU data and held locks. A held
//! spinlock is always cut once (the window right after `spin_lock` takes it, if interrupts are
//! on), and a handler that takes a spinlock its CPU holds is `spin_lock`'s recursion check
//! (CONFIG_DEBUG_SPINLOCK's "spinlock recursion": without it the CPU spins forever). A handler
//! that enters a per-CPU variable its CPU is using panics in [`super::PerCpu::with`], but only
//! where a window falls inside that use: a use with no checker operation in it (a plain
//! `pagevec_count()`) is never cut, which is the kernel's case too only if the compiler keeps
//! it one load.
//!
//! The store-buffer mode's buffered operations (shuttle) return before the checker operation,
//! and with it the window: interrupts are explored under loom only (every interrupt claim is a
//! loom claim).
//!
//! The per-CPU interrupt state lives in a thread-local table of the OS thread that runs the
//! execution: loom and shuttle run every model thread of one execution on that OS thread, one
//! at a time, and [`reset`] clears it at the start of each execution. In the production (std)
//! build no model raises interrupts: the window, flag and end-of-code functions are constant
//! no-ops, `spawn_irq` panics and `hardirq` just runs its handler.

use super::{backend, cpu_of_thread, CPU, MODEL_CHECKED};
use std::cell::{Cell, RefCell};
use std::sync::Arc;

/// The line's state: nothing raised yet.
const IDLE: usize = 0;
/// Raised by the device, not yet delivered: the next window of the CPU delivers it.
const RAISED: usize = 1;
/// Being handled, or handled.
const DELIVERED: usize = 2;
/// The CPU's code ended before the device raised it: the device runs the handler.
const CPU_DONE: usize = 3;

type Handler = Box<dyn FnOnce() + Send>;

/// One interrupt line of one CPU, raised once.
struct IrqLine {
    state: backend::AtomicUsize,
    handler: std::sync::Mutex<Option<Handler>>,
    /// What the trace calls the handler ("end_page_writeback").
    name: &'static str,
}

/// One CPU's interrupt state.
#[derive(Default)]
struct IrqCpu {
    /// Interrupts disabled (`local_irq_save`, `local_irq_disable`).
    disabled: bool,
    /// The CPU runs its interrupt handler.
    in_irq: bool,
    /// The armed line, until it is delivered.
    line: Option<Arc<IrqLine>>,
}

std::thread_local! {
    /// Some CPU of this execution has an armed line (the cheap test of every window).
    static ARMED: Cell<bool> = const { Cell::new(false) };
    static IRQ: RefCell<Vec<IrqCpu>> = const { RefCell::new(Vec::new()) };
}

/// Who hears of a handler starting and ending (`f(cpu, name, entering)`): the event trace.
static IRQ_OBSERVER: std::sync::OnceLock<fn(usize, &'static str, bool)> =
    std::sync::OnceLock::new();

/// Install the observer of interrupt entries and exits. The first observer installed stays.
pub fn set_irq_observer(f: fn(usize, &'static str, bool)) {
    let _ = IRQ_OBSERVER.set(f);
}

fn with_cpu<R>(cpu: usize, f: impl FnOnce(&mut IrqCpu) -> R) -> R {
    IRQ.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() <= cpu {
            t.resize_with(cpu + 1, IrqCpu::default);
        }
        f(&mut t[cpu])
    })
}

/// Forget the interrupt state of the previous execution (the start of a new one). A line
/// left armed by a failed execution is leaked, not dropped: its checker objects belong to the
/// execution that ended.
pub fn reset() {
    if !MODEL_CHECKED {
        return;
    }
    ARMED.with(|a| a.set(false));
    IRQ.with(|t| {
        for c in t.borrow_mut().drain(..) {
            if let Some(line) = c.line {
                std::mem::forget(line);
            }
        }
    });
}

/// Saved interrupt state (`unsigned long flags`): were interrupts disabled?
#[derive(Clone, Copy, Debug)]
#[must_use]
pub struct IrqFlags(bool);

/// `local_irq_save(flags)`: disable interrupts on this CPU, returning the previous state. An
/// interrupt raised before may still arrive just before they go off.
#[inline]
pub fn local_irq_save() -> IrqFlags {
    window();
    IrqFlags(set_disabled(true))
}

/// `local_irq_restore(flags)`: put back the state `local_irq_save` saved; an interrupt raised
/// meanwhile arrives here if that turns them on.
#[inline]
pub fn local_irq_restore(flags: IrqFlags) {
    set_disabled(flags.0);
    if !flags.0 {
        window();
    }
}

/// `local_irq_disable()`: as `local_irq_save`, without the saved state.
#[inline]
pub fn local_irq_disable() {
    window();
    set_disabled(true);
}

/// `local_irq_enable()`: an interrupt raised meanwhile arrives here.
#[inline]
pub fn local_irq_enable() {
    set_disabled(false);
    window();
}

/// Set this CPU's interrupts disabled or not; the previous value. A thread that is no CPU
/// (a model's setup) has no interrupts.
#[inline]
fn set_disabled(off: bool) -> bool {
    if !MODEL_CHECKED {
        return false;
    }
    match cpu_of_thread() {
        Some(cpu) => with_cpu(cpu, |c| std::mem::replace(&mut c.disabled, off)),
        None => false,
    }
}

/// Raise interrupt `name` on CPU `cpu` once; `handler` runs as that CPU in hardirq context
/// (module doc). Call it before spawning the CPU (its windows look for the line). The returned
/// device thread is joined like a CPU; after both are joined the handler has run.
pub fn spawn_irq<F>(cpu: usize, name: &'static str, handler: F) -> backend::JoinHandle<()>
where
    F: FnOnce() + Send + 'static,
{
    if !MODEL_CHECKED {
        panic!(
            "interrupts are modelled under loom and shuttle only (spawn_irq on {})",
            super::BACKEND
        );
    }
    let line = Arc::new(IrqLine {
        state: backend::AtomicUsize::new(IDLE),
        handler: std::sync::Mutex::new(Some(Box::new(handler))),
        name,
    });
    with_cpu(cpu, |c| {
        assert!(c.line.is_none(), "CPU{cpu} already has an interrupt armed");
        c.line = Some(line.clone());
    });
    ARMED.with(|a| a.set(true));
    backend::spawn(move || {
        use std::sync::atomic::Ordering::{AcqRel, Acquire};
        // The device raises the line; if the CPU's code already ended, it runs the handler
        // as that CPU (the RMW orders it after everything that code did).
        if let Err(CPU_DONE) = line.state.compare_exchange(IDLE, RAISED, AcqRel, Acquire) {
            CPU.with(|c| c.set(cpu));
            deliver(cpu, &line);
        }
    })
}

/// This CPU, idle (its code done or not begun, interrupts on), takes interrupt `name` now:
/// `handler` runs as with [`spawn_irq`], with no device thread (a model whose CPU does nothing
/// but take the interrupt, so no window of its own can cut anything).
pub fn hardirq(name: &'static str, handler: impl FnOnce()) {
    let cpu = cpu_of_thread().expect("hardirq() runs on a CPU thread");
    assert!(
        !with_cpu(cpu, |c| c.disabled || c.in_irq || c.line.is_some()),
        "hardirq() on CPU{cpu}: interrupts off, in a handler, or a line armed"
    );
    run_handler(cpu, name, handler);
}

/// A window of this CPU: deliver its raised interrupt if interrupts are on here.
#[inline(always)]
pub(super) fn window() {
    if MODEL_CHECKED && ARMED.with(|a| a.get()) {
        window_slow();
    }
}

fn window_slow() {
    use std::sync::atomic::Ordering::{AcqRel, Acquire};
    let Some(cpu) = cpu_of_thread() else { return };
    let line = with_cpu(cpu, |c| {
        if c.disabled || c.in_irq {
            None
        } else {
            c.line.clone()
        }
    });
    if let Some(line) = line {
        if line
            .state
            .compare_exchange(RAISED, DELIVERED, AcqRel, Acquire)
            .is_ok()
        {
            deliver(cpu, &line);
        }
    }
}

/// The CPU's code ended (`spawn_cpu`): an interrupt raised and not yet delivered arrives now;
/// one not yet raised will be handled by its device thread.
pub(super) fn cpu_done() {
    use std::sync::atomic::Ordering::AcqRel;
    if !(MODEL_CHECKED && ARMED.with(|a| a.get())) {
        return;
    }
    let Some(cpu) = cpu_of_thread() else { return };
    let Some(line) = with_cpu(cpu, |c| c.line.clone()) else {
        return;
    };
    // The device thread may run the handler after this: the CPU's buffered stores go first.
    super::sb::drain_all();
    // Interrupts are on when a CPU's code ends (a model's CPU code leaves them as it found
    // them; a mismatch is the model's bug).
    assert!(
        !with_cpu(cpu, |c| c.disabled),
        "CPU{cpu}'s code ended with interrupts disabled"
    );
    if line.state.swap(CPU_DONE, AcqRel) == RAISED {
        deliver(cpu, &line);
    }
}

/// Run the line's handler on this thread as CPU `cpu`, in hardirq context.
fn deliver(cpu: usize, line: &IrqLine) {
    with_cpu(cpu, |c| c.line = None);
    let handler = line
        .handler
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take();
    run_handler(cpu, line.name, || {
        if let Some(h) = handler {
            h();
        }
    });
}

fn run_handler(cpu: usize, name: &'static str, handler: impl FnOnce()) {
    super::sb::drain_all(); // an interrupt is serializing on x86: the store buffer drains
    let was_disabled = with_cpu(cpu, |c| {
        c.in_irq = true;
        std::mem::replace(&mut c.disabled, true)
    });
    if let Some(f) = IRQ_OBSERVER.get() {
        f(cpu, name, true);
    }
    handler();
    if let Some(f) = IRQ_OBSERVER.get() {
        f(cpu, name, false);
    }
    with_cpu(cpu, |c| {
        c.in_irq = false;
        c.disabled = was_disabled;
    });
}

/// Is this thread's CPU running an interrupt handler (`in_irq()`)?
pub fn in_irq() -> bool {
    MODEL_CHECKED && cpu_of_thread().is_some_and(|cpu| with_cpu(cpu, |c| c.in_irq))
}
