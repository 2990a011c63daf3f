//! `trace::check_consistency` reads the lock events the kernel code records, not only the
//! shapes of its unit test: the real `compound_lock`/`compound_unlock` and `slab_lock`/
//! `slab_unlock` events of two CPUs, in the order they ran, pass; the same events with the
//! second CPU's lock moved before the first CPU's unlock (issue #20's trace) are reported.
//! The named spinlocks (`zone->lru_lock`, `anon_vma#N->lock`) are recorded by the shim.

// The events are recorded on plain threads (the std build): loom's and shuttle's types work only
// inside their executions.
#![cfg(not(any(loom, feature = "shuttle")))]

use mmcheck::mm::huge_memory::{compound_lock, compound_unlock};
use mmcheck::mm::slab::{slab_lock, slab_unlock};
use mmcheck::mm::{Mem, MemConfig};
use mmcheck::page::PagePtr;
use mmcheck::sync::run_as_cpu;
use mmcheck::trace::{self, check_consistency, Event};

/// Each CPU in turn takes and releases the lock on page 0: [lock0, unlock0, lock1, unlock1].
fn events(lock: fn(&Mem, PagePtr), unlock: fn(&Mem, PagePtr)) -> Vec<Event> {
    let m = Mem::new(MemConfig::small(2));
    trace::reset();
    for cpu in 0..2 {
        run_as_cpu(cpu, || {
            lock(&m, PagePtr::from_pfn(0));
            unlock(&m, PagePtr::from_pfn(0));
        });
    }
    trace::snapshot()
}

fn check(name: &str, lock: fn(&Mem, PagePtr), unlock: fn(&Mem, PagePtr)) {
    let ran = events(lock, unlock);
    assert_eq!(
        ran.len(),
        4,
        "{name}: one event per lock and unlock: {ran:?}"
    );
    assert_eq!(
        check_consistency(&ran),
        Ok(()),
        "{name}: the order they ran"
    );
    let mut overlapping = ran.clone();
    overlapping.swap(1, 2); // CPU1 locks before CPU0 unlocks
    let why = check_consistency(&overlapping).expect_err(name);
    assert!(
        why.contains("CPU1 takes") && why.contains("which CPU0 holds"),
        "{name}: {why}"
    );
}

#[test]
fn the_checker_reads_the_lock_events_the_kernel_code_records() {
    check("compound_lock", compound_lock, compound_unlock);
    check("slab_lock", slab_lock, slab_unlock);
}

/// The shim records a named spinlock's acquisition right after it and its release right before
/// it (`zone->lru_lock` here, as `lru_lock()` takes it; anon_vma locks are named the same
/// way), and the checker reads those events as it reads the bit locks'.
#[test]
fn named_spinlocks_record_their_acquisitions_and_releases() {
    use mmcheck::mm::lru::lru_lock;
    let m = Mem::new(MemConfig::small(2));
    trace::reset();
    for cpu in 0..2 {
        run_as_cpu(cpu, || drop(lru_lock(&m)));
    }
    let ran = trace::snapshot();
    let shown: Vec<(Option<usize>, &str, &str)> = ran
        .iter()
        .map(|e| (e.cpu, &*e.func, e.event.as_str()))
        .collect();
    assert_eq!(
        shown,
        [
            (Some(0), "spin_lock", "zone->lru_lock taken"),
            (Some(0), "spin_unlock", "zone->lru_lock released"),
            (Some(1), "spin_lock", "zone->lru_lock taken"),
            (Some(1), "spin_unlock", "zone->lru_lock released"),
        ]
    );
    assert_eq!(check_consistency(&ran), Ok(()));
    let mut overlapping = ran.clone();
    overlapping.swap(1, 2);
    let why = check_consistency(&overlapping).expect_err("overlap");
    assert!(
        why.contains("CPU1 takes zone->lru_lock, which CPU0 holds since step 1"),
        "{why}"
    );
}

/// `trace::write_trace`'s layout, pinned to the same line as xtask's proof-traces test
/// (`trace_lines_are_laid_out_as_the_runner_prints_them`), which renders quotes from JSON.
#[test]
fn write_trace_layout() {
    let ev = Event {
        step: 12,
        cpu: Some(1),
        func: "spin_lock".into(),
        event: "zone->lru_lock taken".to_string(),
        lock: None,
    };
    let mut s = String::new();
    trace::write_trace(&mut s, &[ev]).unwrap();
    assert_eq!(
        s,
        "   12. CPU1  spin_lock                    zone->lru_lock taken\n"
    );
}

/// The locks named on 6 Dec 2026 show both ends too: `zone->lock` (the buddy allocator's, taken
/// by `alloc_pages` and the free), `hugetlb_lock` (a global lock: its name alone), the pte lock
/// (`pte_page#N->ptl`) and the vma models' page lock, whose events `trylock_page` and
/// `unlock_page` record right after the bit operation. The checker reads them all.
#[test]
fn the_allocator_hugetlb_pte_and_page_locks_are_lock_events() {
    use mmcheck::mm::page_alloc::{__free_pages, alloc_pages};
    use mmcheck::mm::vma::{pte_lockptr, trylock_page, unlock_page, Mm, MmSize};
    use mmcheck::sync::spin_lock;

    let m = Mem::new(MemConfig::small(2));
    let mm = Mm::new(MmSize {
        vmas: 1,
        anon_vmas: 1,
        pages: 1,
        ptes: 1,
        mms: 1,
    });
    trace::reset();
    run_as_cpu(0, || {
        let page = alloc_pages(&m, 0, false).expect("a free frame");
        __free_pages(&m, page, 0);
        drop(spin_lock(&m.hstate.lock));
        drop(spin_lock(pte_lockptr(&mm, 0)));
        assert!(trylock_page(&mm, 0));
        assert!(!trylock_page(&mm, 0), "PG_locked is held");
        unlock_page(&mm, 0);
    });
    let ran = trace::snapshot();
    let locks: Vec<(&str, bool)> = ran
        .iter()
        .filter_map(|e| e.lock.as_ref().map(|l| (l.lock.as_str(), l.acquire)))
        .collect();
    assert_eq!(
        locks,
        [
            ("zone->lock", true),
            ("zone->lock", false),
            ("zone->lock", true),
            ("zone->lock", false),
            ("hugetlb_lock", true),
            ("hugetlb_lock", false),
            ("pte_page#0->ptl", true),
            ("pte_page#0->ptl", false),
            ("page 0 PG_locked", true),
            ("page 0 PG_locked", false),
        ],
        "{ran:?}"
    );
    assert_eq!(check_consistency(&ran), Ok(()));
}
