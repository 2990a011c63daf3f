//! `struct list_head` (include/linux/list.h) with CONFIG_DEBUG_LIST (lib/list_debug.c).
//!
//! A node is a page's `lru` field or a list head; links are node ids held in `RaceCell`s
//! (lists are changed under `zone->lru_lock`, or privately by the CPU that isolated the
//! pages; loom reports two accesses no lock orders as a data race). The checks are the
//! kernel's `__list_add` / `__list_del_entry` neighbour checks, plus ghost list membership:
//! adding an entry that is still on a list, or deleting one that is on none, is list
//! corruption even where the neighbour checks happen to pass.

use super::Mem;
use crate::page::{ListLinks, PagePtr, LIST_POISON1, LIST_POISON2};
use crate::sync::{RaceCell, CHECKED};
use crate::trace::{fail, Invariant};

/// The lists a model has: LRU lists of the zone and private lists of isolating CPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ListId {
    /// `zone->lru[LRU_INACTIVE_FILE].list`
    InactiveFile,
    /// `zone->lru[LRU_ACTIVE_FILE].list`
    ActiveFile,
    /// `zone->lru[LRU_UNEVICTABLE].list` (only lru.14 puts pages on it: `Mem::models_unevictable`)
    Unevictable,
    /// A `LIST_HEAD()` on the stack of a CPU that isolates pages (see [`page_list`] and
    /// [`ret_pages`]).
    Private(usize),
}

/// Private lists the machine provides: three per CPU.
pub const NR_PRIVATE_LISTS: usize = 3 * super::NR_CPUS;

/// CPU `cpu`'s `LIST_HEAD(page_list)` / `LIST_HEAD(pagelist)`: the list isolation puts pages
/// on (shrink_inactive_list, migration).
pub fn page_list(cpu: usize) -> ListId {
    ListId::Private(2 * cpu)
}

/// CPU `cpu`'s `LIST_HEAD(ret_pages)` of `shrink_page_list()`; `shrink_active_list()` uses it
/// as its `LIST_HEAD(l_inactive)` (its `l_hold` is [`page_list`]).
pub fn ret_pages(cpu: usize) -> ListId {
    ListId::Private(2 * cpu + 1)
}

/// CPU `cpu`'s `LIST_HEAD(l_active)` of `shrink_active_list()`: the referenced executable pages
/// it keeps active.
pub fn l_active(cpu: usize) -> ListId {
    ListId::Private(2 * super::NR_CPUS + cpu)
}

impl ListId {
    pub fn index(self) -> usize {
        match self {
            ListId::InactiveFile => 0,
            ListId::ActiveFile => 1,
            ListId::Unevictable => 2,
            ListId::Private(i) => 3 + i,
        }
    }
    pub fn from_index(i: usize) -> ListId {
        match i {
            0 => ListId::InactiveFile,
            1 => ListId::ActiveFile,
            2 => ListId::Unevictable,
            n => ListId::Private(n - 3),
        }
    }
    pub const COUNT: usize = 3 + NR_PRIVATE_LISTS;
    pub fn is_lru(self) -> bool {
        matches!(
            self,
            ListId::InactiveFile | ListId::ActiveFile | ListId::Unevictable
        )
    }
}

/// Ghost: the list a page's `lru` was last linked on (None: on no list).
pub fn ghost_on_list(m: &Mem, page: PagePtr) -> Option<ListId> {
    m.pg(page).ghost.on_list.get().map(ListId::from_index)
}

fn set_ghost_on_list(m: &Mem, page: PagePtr, l: Option<ListId>) {
    m.pg(page).ghost.on_list.set(l.map(ListId::index));
}

/// All list heads of a machine; node ids: page frames `0..nr_pages`, heads after them.
pub struct Lists {
    pub heads: Vec<ListLinks>,
    nr_pages: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Node {
    Page(PagePtr),
    Head(ListId),
}

impl Lists {
    pub fn new(nr_pages: usize) -> Lists {
        let heads = (0..ListId::COUNT)
            .map(|i| ListLinks::new(nr_pages + i))
            .collect();
        Lists { heads, nr_pages }
    }
    fn head_id(&self, l: ListId) -> usize {
        self.nr_pages + l.index()
    }
}

fn node_of(m: &Mem, id: usize) -> Node {
    if id < m.lists.nr_pages {
        Node::Page(m.pfn_to_page(id))
    } else if id - m.lists.nr_pages < ListId::COUNT {
        Node::Head(ListId::from_index(id - m.lists.nr_pages))
    } else {
        fail(
            "list",
            Invariant::ListCorruption,
            format!("list pointer {id:#x} points at no list node"),
        )
    }
}

fn links(m: &Mem, n: Node) -> (&RaceCell<usize>, &RaceCell<usize>) {
    let l = match n {
        Node::Page(p) => &m.pg(p).lru,
        Node::Head(l) => &m.lists.heads[l.index()],
    };
    (&l.next, &l.prev)
}

fn page_id(m: &Mem, p: PagePtr) -> usize {
    m.map.pfn(p)
}

fn describe(m: &Mem, id: usize) -> String {
    match node_of(m, id) {
        Node::Page(p) => format!("{p:?}"),
        Node::Head(l) => format!("{l:?} head"),
    }
}

/// `__list_add(new, prev, next)` with CONFIG_DEBUG_LIST's checks.
fn __list_add(m: &Mem, new: PagePtr, prev: usize, next: usize, list: ListId) {
    let new_id = page_id(m, new);
    let (_, next_prev) = links(m, node_of(m, next));
    let (prev_next, _) = links(m, node_of(m, prev));
    let np = next_prev.get();
    if np != prev {
        fail(
            "list_add",
            Invariant::ListCorruption,
            format!(
                "list_add corruption: next->prev should be {}, but was {}",
                describe(m, prev),
                describe(m, np)
            ),
        );
    }
    let pn = prev_next.get();
    if pn != next {
        fail(
            "list_add",
            Invariant::ListCorruption,
            format!(
                "list_add corruption: prev->next should be {}, but was {}",
                describe(m, next),
                describe(m, pn)
            ),
        );
    }
    if CHECKED {
        if let Some(on) = ghost_on_list(m, new) {
            fail(
                "list_add",
                Invariant::ListCorruption,
                format!("list_add of {new:?} onto {list:?}, but it is still linked on {on:?}"),
            );
        }
        set_ghost_on_list(m, new, Some(list));
    }
    next_prev.set(new_id);
    let (new_next, new_prev) = links(m, Node::Page(new));
    new_next.set(next);
    new_prev.set(prev);
    prev_next.set(new_id);
}

/// `list_add(new, head)`.
pub fn list_add(m: &Mem, new: PagePtr, head: ListId) {
    let h = m.lists.head_id(head);
    let next = m.lists.heads[head.index()].next.get();
    __list_add(m, new, h, next, head);
}

/// `list_add_tail(new, head)`: `__list_add(new, head->prev, head)`.
pub fn list_add_tail(m: &Mem, new: PagePtr, head: ListId) {
    let h = m.lists.head_id(head);
    let prev = m.lists.heads[head.index()].prev.get();
    __list_add(m, new, prev, h, head);
}

/// `list_del(entry)` with CONFIG_DEBUG_LIST (`__list_del_entry` checks, then poisoning).
pub fn list_del(m: &Mem, entry: PagePtr) {
    __list_del_entry(m, entry);
    let (e_next, e_prev) = links(m, Node::Page(entry));
    e_next.set(LIST_POISON1);
    e_prev.set(LIST_POISON2);
}

/// `__list_del_entry(entry)` with CONFIG_DEBUG_LIST: unlink without poisoning (list_move).
fn __list_del_entry(m: &Mem, entry: PagePtr) {
    let id = page_id(m, entry);
    let (e_next, e_prev) = links(m, Node::Page(entry));
    let next = e_next.get();
    let prev = e_prev.get();
    if next == LIST_POISON1 || prev == LIST_POISON2 {
        fail(
            "list_del",
            Invariant::ListCorruption,
            format!("list_del corruption: {entry:?} is poisoned (already deleted)"),
        );
    }
    if CHECKED && ghost_on_list(m, entry).is_none() {
        fail(
            "list_del",
            Invariant::ListCorruption,
            format!("list_del of {entry:?}, which is on no list"),
        );
    }
    let (prev_next, _) = links(m, node_of(m, prev));
    let (_, next_prev) = links(m, node_of(m, next));
    let pn = prev_next.get();
    if pn != id {
        fail(
            "list_del",
            Invariant::ListCorruption,
            format!(
                "list_del corruption: prev->next should be {entry:?}, but was {}",
                describe(m, pn)
            ),
        );
    }
    let np = next_prev.get();
    if np != id {
        fail(
            "list_del",
            Invariant::ListCorruption,
            format!(
                "list_del corruption: next->prev should be {entry:?}, but was {}",
                describe(m, np)
            ),
        );
    }
    next_prev.set(prev);
    prev_next.set(next);
    if CHECKED {
        set_ghost_on_list(m, entry, None);
    }
}

/// `list_move(list, head)`: `__list_del_entry(list); list_add(list, head);`.
pub fn list_move(m: &Mem, entry: PagePtr, head: ListId) {
    __list_del_entry(m, entry);
    list_add(m, entry, head);
}

/// `list_move_tail(list, head)`: `__list_del_entry(list); list_add_tail(list, head);`.
pub fn list_move_tail(m: &Mem, entry: PagePtr, head: ListId) {
    __list_del_entry(m, entry);
    list_add_tail(m, entry, head);
}

/// `INIT_LIST_HEAD(list)`: a `LIST_HEAD()` on a CPU's stack starts empty.
pub fn INIT_LIST_HEAD(m: &Mem, head: ListId) {
    let h = &m.lists.heads[head.index()];
    let id = m.lists.head_id(head);
    h.next.set(id);
    h.prev.set(id);
}

/// `list_splice(list, head)`: join `list` onto the front of `head` (`list` itself is left as
/// it is, as the kernel leaves it).
pub fn list_splice(m: &Mem, list: ListId, head: ListId) {
    if list_empty(m, list) {
        return;
    }
    let l = &m.lists.heads[list.index()];
    let (first, last) = (l.next.get(), l.prev.get());
    let at = m.lists.head_id(head);
    let hn = &m.lists.heads[head.index()];
    let next = hn.next.get();
    // __list_splice(list, head, head->next)
    let (_, first_prev) = links(m, node_of(m, first));
    first_prev.set(at);
    hn.next.set(first);
    let (last_next, _) = links(m, node_of(m, last));
    last_next.set(next);
    let (_, next_prev) = links(m, node_of(m, next));
    next_prev.set(last);
    if CHECKED {
        let mut cur = first;
        while cur != next {
            let Node::Page(p) = node_of(m, cur) else {
                break;
            };
            set_ghost_on_list(m, p, Some(head));
            cur = links(m, Node::Page(p)).0.get();
        }
    }
}

/// `list_empty(head)`.
pub fn list_empty(m: &Mem, head: ListId) -> bool {
    m.lists.heads[head.index()].next.get() == m.lists.head_id(head)
}

/// `list_for_each_entry_safe(page, page2, head, lru)`: `f` on each page from `head->next` on,
/// the next entry read before `f` runs (`f` may take the page off the list).
pub fn list_for_each_entry_safe(m: &Mem, head: ListId, mut f: impl FnMut(PagePtr)) {
    let h = m.lists.head_id(head);
    let mut pos = m.lists.heads[head.index()].next.get();
    while pos != h {
        let Node::Page(page) = node_of(m, pos) else {
            fail(
                "list_for_each_entry_safe",
                Invariant::ListCorruption,
                format!("{head:?} runs into another list's head"),
            )
        };
        let next = links(m, Node::Page(page)).0.get();
        f(page);
        pos = next;
    }
}

/// `lru_to_page(head)`: the page at `head->prev` (reclaim takes from the tail).
pub fn lru_to_page(m: &Mem, head: ListId) -> PagePtr {
    let prev = m.lists.heads[head.index()].prev.get();
    match node_of(m, prev) {
        Node::Page(p) => p,
        Node::Head(_) => fail(
            "lru_to_page",
            Invariant::ListCorruption,
            format!("lru_to_page on empty {head:?}"),
        ),
    }
}

/// Walk a list from its head (end-of-scenario check, single-threaded): the pages on it, with
/// every `prev` link verified. Corruption is a failure.
pub fn walk(m: &Mem, head: ListId) -> Vec<PagePtr> {
    let h = m.lists.head_id(head);
    let mut out = Vec::new();
    let mut prev = h;
    let mut cur = m.lists.heads[head.index()].next.get();
    for _ in 0..=m.lists.nr_pages {
        if cur == h {
            let hp = m.lists.heads[head.index()].prev.get();
            if hp != prev {
                fail(
                    "list walk",
                    Invariant::ListCorruption,
                    format!(
                        "{head:?}: head->prev is {}, last entry {}",
                        describe(m, hp),
                        describe(m, prev)
                    ),
                );
            }
            return out;
        }
        match node_of(m, cur) {
            Node::Page(p) => {
                let (n, pv) = links(m, Node::Page(p));
                if pv.get() != prev {
                    fail(
                        "list walk",
                        Invariant::ListCorruption,
                        format!("{head:?}: {p:?}->prev is not {}", describe(m, prev)),
                    );
                }
                out.push(p);
                prev = cur;
                cur = n.get();
            }
            Node::Head(other) => fail(
                "list walk",
                Invariant::ListCorruption,
                format!("{head:?} runs into the head of {other:?}"),
            ),
        }
    }
    fail(
        "list walk",
        Invariant::ListCorruption,
        format!("{head:?} does not return to its head (cycle)"),
    )
}
