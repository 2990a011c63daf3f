//! Calibration scenarios, read from litmus files: the Linux kernel's memory-model litmus tests
//! (`models/litmus/kernel/`, copied verbatim from `tools/memory-model/litmus-tests/` and
//! `Documentation/litmus-tests/`, their origin in `models/litmus/kernel/SOURCES.md`), and the
//! patterns mmcheck's claims rely on that the kernel directories lack (`models/litmus/mmcheck/`,
//! written in the same format). This module is the interpreter: it parses a file of herd7's C
//! litmus format and runs it with the shim's kernel primitives (`mmcheck::sync`), so the checker
//! explores the test's executions as it explores a model's. The claims crate's calibration table
//! (`claims/calibration.rs`) compares what the checker observes with the file's `Result:` line.
//!
//! One [`Test::run`] is one execution: each `Pn` runs on CPU n, all are joined, then the
//! `filter` and `exists` clauses are read. It never panics on a test that [`parse`] accepted:
//! the checker explores every execution and the runner records whether the outcome was seen.
//!
//! What a file may hold, and what each piece becomes (anything else is refused by [`parse`]
//! with the line and the reason, never guessed):
//! * a shared variable is a word (`int`, `long`, `unsigned long`: an `unsigned_long`, read and
//!   written with `READ_ONCE`/`WRITE_ONCE`), an `atomic_t`, or a `spinlock_t` (a `SpinLock`).
//!   Its type comes from the init block (`{ int x; atomic_t y; }`, `atomic_t v = ATOMIC_INIT(1);`,
//!   `x=1;`) or from a `Pn`'s parameter (`int *x`, `atomic_t *v`, `spinlock_t *lck`), bound by
//!   name as herd7 binds them; a variable named nowhere with a type is a word;
//! * a register is a local `int` of a `Pn` (initially 0); `n:rK` in a clause is CPU n's `rK`;
//! * statements: declarations (`int r0;`, `int a = READ_ONCE(*x);`), assignments to a register
//!   or through a parameter (`*z1 = a;`, a plain access, performed as `WRITE_ONCE`), expression
//!   statements, `if`/`else` and blocks; expressions: integers, registers, `(void)e`, `*p` (a plain read,
//!   performed as `READ_ONCE`), `! - + == != < <= > >= && ||`, and the primitives of [`PRIMITIVES`];
//! * clauses: `exists (...)` with `/\`, `\/`, `~`, `n:r=v` and `x=v`; `filter (...)`;
//!   `locations [...]` only prints values in herd7 and is ignored.
//!
//! Plain accesses become `READ_ONCE`/`WRITE_ONCE` (relaxed atomics), and only to a variable
//! no other CPU touches (`dep+plain`'s `*z1`, `*z2`, private to P0): herd7 flags a racy plain
//! access as a data race, and the interpreter refuses one rather than give it a meaning. A
//! pointer is accepted only as a primitive's pointer argument, never as a value; an octal
//! literal is refused. A `spin_unlock()` of a lock its CPU does not hold, or a CPU that ends
//! holding one, is reported as the test's error when it runs (`parse` cannot see it), never run
//! on a guess.

use mmcheck::sync::{
    __atomic_add_unless, atomic_add, atomic_add_return, atomic_dec, atomic_dec_and_test,
    atomic_dec_return, atomic_inc, atomic_inc_not_zero, atomic_inc_return, atomic_read, atomic_set,
    atomic_sub, atomic_sub_return, atomic_t, bit_spin_lock, bit_spin_unlock, cmpxchg, join,
    smp_load_acquire, smp_mb, smp_mb__after_atomic, smp_mb__after_spinlock, smp_mb__before_atomic,
    smp_rmb, smp_store_release, smp_wmb, spawn_cpu, spin_lock, spin_unlock, unsigned_long, xchg,
    SpinGuard, SpinLock, READ_ONCE, WRITE_ONCE,
};
use mmcheck::trace::harness_fail;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// One litmus file compiled into the build.
pub struct File {
    /// Its path under `models/litmus/` (`kernel/tools/memory-model/litmus-tests/X.litmus`,
    /// `mmcheck/X.litmus`).
    pub path: &'static str,
    pub text: &'static str,
}

/// Every litmus file under `models/litmus/`, in path order (listed by `models/build.rs`).
pub static FILES: &[File] = include!(concat!(env!("OUT_DIR"), "/litmus_files.rs"));

/// What one execution of a litmus test ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The execution does not pass the test's `filter` clause (herd7 discards it).
    Filtered,
    /// The execution passes the filter (or the test has none); true if the `exists` clause
    /// holds.
    Exists(bool),
}

/// A file the interpreter refuses, with the line (1-based) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, Error> {
    Err(Error {
        line,
        message: message.into(),
    })
}

/// The kernel primitives a test may call, with their arguments (`p` a pointer to a word, `a` to
/// an `atomic_t`, `l` to a `spinlock_t`, `v` a value), and the shim function each runs. The
/// shim maps each to C11 once, with its reason (src/sync/mod.rs).
pub const PRIMITIVES: &[(&str, &str, &str)] = &[
    ("READ_ONCE", "*p", "READ_ONCE"),
    ("WRITE_ONCE", "*p, v", "WRITE_ONCE"),
    ("smp_load_acquire", "p", "smp_load_acquire"),
    ("smp_store_release", "p, v", "smp_store_release"),
    ("xchg", "p, v", "xchg"),
    ("cmpxchg", "p, v, v", "cmpxchg"),
    ("smp_mb", "", "smp_mb"),
    ("smp_rmb", "", "smp_rmb"),
    ("smp_wmb", "", "smp_wmb"),
    ("smp_mb__before_atomic", "", "smp_mb__before_atomic"),
    ("smp_mb__after_atomic", "", "smp_mb__after_atomic"),
    ("smp_mb__after_spinlock", "", "smp_mb__after_spinlock"),
    ("spin_lock", "l", "spin_lock"),
    ("spin_unlock", "l", "spin_unlock"),
    ("atomic_read", "a", "atomic_read"),
    ("atomic_set", "a, v", "atomic_set"),
    ("atomic_inc", "a", "atomic_inc"),
    ("atomic_dec", "a", "atomic_dec"),
    ("atomic_add", "v, a", "atomic_add"),
    ("atomic_sub", "v, a", "atomic_sub"),
    ("atomic_inc_return", "a", "atomic_inc_return"),
    ("atomic_dec_return", "a", "atomic_dec_return"),
    ("atomic_add_return", "v, a", "atomic_add_return"),
    ("atomic_sub_return", "v, a", "atomic_sub_return"),
    ("atomic_dec_and_test", "a", "atomic_dec_and_test"),
    ("atomic_inc_not_zero", "a", "atomic_inc_not_zero"),
    (
        "atomic_add_unless",
        "a, v, v",
        "__atomic_add_unless(a, v, u) != u (3.x's atomic_add_unless)",
    ),
    (
        "bit_spin_lock",
        "v, p",
        "bit_spin_lock (mmcheck's files only: herd7's LKMM has no bit lock)",
    ),
    (
        "bit_spin_unlock",
        "v, p",
        "bit_spin_unlock (mmcheck's files only)",
    ),
];

/// Primitives of the LKMM that the shim does not have, and why a test using one is left out.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("spin_is_locked", "spin_is_locked(): under a checker a spinlock_t is the checker's mutex, which has no lock word an outside CPU could read"),
    ("spin_trylock", "spin_trylock(): not in the shim"),
    ("rcu_read_lock", "RCU read-side critical sections: not in the shim; no mmcheck model uses RCU"),
    ("rcu_read_unlock", "RCU read-side critical sections: not in the shim; no mmcheck model uses RCU"),
    ("synchronize_rcu", "RCU grace periods: not in the shim; no mmcheck model uses RCU"),
    ("rcu_dereference", "rcu_dereference(): RCU and an address dependency: not in the shim, and C11/loom has no dependency ordering"),
    ("rcu_assign_pointer", "rcu_assign_pointer(): RCU: not in the shim"),
    ("srcu_read_lock", "SRCU: not in the shim"),
    ("srcu_read_unlock", "SRCU: not in the shim"),
    ("synchronize_srcu", "SRCU: not in the shim"),
];

// ---------------------------------------------------------------------------------------------
// Lexer

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Punct(&'static str),
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    line: usize,
}

const PUNCTS: &[&str] = &[
    "/\\", "\\/", "==", "!=", "<=", ">=", "&&", "||", "->", "{", "}", "(", ")", "[", "]", ";", ",",
    "*", "&", "=", "!", "~", "<", ">", "+", "-", ":", ".",
];

/// Split `text` (from `line` on) into tokens, dropping `/* */` and `//` comments, and `(* *)`
/// comments outside braces (inside the init block and the `Pn` bodies, `(*x)` is C:
/// `READ_ONCE(*x)`).
fn lex(text: &str, first_line: usize) -> Result<Vec<Token>, Error> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line, mut depth) = (0, first_line, 0usize);
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if (depth == 0 && text[i..].starts_with("(*")) || text[i..].starts_with("/*") {
            let close = if c == b'(' { "*)" } else { "*/" };
            let start = line;
            let Some(end) = text[i + 2..].find(close) else {
                return err(start, "a comment that never ends");
            };
            line += text[i..i + 2 + end].matches('\n').count();
            i += 2 + end + 2;
        } else if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c.is_ascii_digit() {
            let s = i;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let word = &text[s..i];
            if word.len() > 1 && word.starts_with('0') && !word.starts_with("0x") {
                return err(line, format!("{word}: octal literals are not supported"));
            }
            let v = if let Some(hex) = word.strip_prefix("0x") {
                i64::from_str_radix(hex, 16)
            } else {
                word.parse()
            };
            match v {
                Ok(v) => out.push(Token {
                    tok: Tok::Int(v),
                    line,
                }),
                Err(_) => return err(line, format!("not a number: {word}")),
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(text[s..i].to_string()),
                line,
            });
        } else if let Some(p) = PUNCTS.iter().find(|p| text[i..].starts_with(**p)) {
            match *p {
                "{" => depth += 1,
                "}" => depth = depth.saturating_sub(1),
                _ => {}
            }
            out.push(Token {
                tok: Tok::Punct(p),
                line,
            });
            i += p.len();
        } else {
            return err(line, format!("unexpected character {:?}", c as char));
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Syntax

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Word,
    Atomic,
    Lock,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Word => "a word (int)",
            Kind::Atomic => "an atomic_t",
            Kind::Lock => "a spinlock_t",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BinOp {
    Add,
    Sub,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

#[derive(Clone, Debug)]
enum Expr {
    Int(i64),
    /// A register of this CPU.
    Reg(String),
    /// A shared variable by its index (a parameter, used as a pointer).
    Ptr(usize),
    /// `*p`: a plain access to the shared variable.
    Deref(usize),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Call(&'static str, Vec<Expr>),
}

#[derive(Clone, Debug)]
enum Stmt {
    /// `r = e;` (also a declaration with an initialiser).
    SetReg(String, Expr),
    /// `*x = e;`: a plain store.
    Store(usize, Expr),
    Eval(Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
}

#[derive(Clone, Debug)]
enum Cond {
    Reg(usize, String, i64),
    Var(usize, i64),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

#[derive(Clone, Debug)]
struct Global {
    name: String,
    kind: Kind,
    init: i64,
}

/// A parsed litmus test.
#[derive(Clone, Debug)]
pub struct Test {
    /// The name on the file's first line (`C <name>`).
    pub name: String,
    /// The word after `Result:` in the file's header comment (`Never`, `Sometimes`,
    /// `DEADLOCK`), if it has one.
    pub result: Option<String>,
    /// The header comment's text after the `Result:` line, whitespace-joined.
    pub description: String,
    globals: Vec<Global>,
    /// Each CPU's statements and the registers it declares (in order).
    procs: Vec<(Vec<Stmt>, Vec<String>)>,
    filter: Option<Cond>,
    exists: Cond,
}

impl Test {
    /// CPUs it runs.
    pub fn cpus(&self) -> usize {
        self.procs.len()
    }
}

/// The header comment `(* ... *)` after the `C` line: its `Result:` word and the rest.
fn header(text: &str) -> (Option<String>, String) {
    let Some(s) = text.find("(*") else {
        return (None, String::new());
    };
    let Some(e) = text[s..].find("*)") else {
        return (None, String::new());
    };
    let body = &text[s + 2..s + e];
    let mut result = None;
    let mut rest = Vec::new();
    for l in body.lines() {
        let l = l.trim().trim_start_matches('*').trim();
        if let Some(r) = l.strip_prefix("Result:") {
            if result.is_none() {
                result = r.split_whitespace().next().map(str::to_string);
                continue;
            }
        }
        if !l.is_empty() {
            rest.push(l);
        }
    }
    (result, rest.join(" "))
}

struct Parser<'a> {
    toks: &'a [Token],
    i: usize,
    globals: Vec<Global>,
    /// Globals whose kind was given by a type (the others default to words).
    typed: Vec<bool>,
    /// The `Pn` being parsed.
    cpu: usize,
    /// Every access of a CPU to a shared variable: (variable, CPU, plain, line).
    accesses: Vec<(usize, usize, bool, usize)>,
}

const TYPE_WORDS: &[&str] = &[
    "int",
    "long",
    "unsigned",
    "signed",
    "short",
    "char",
    "atomic_t",
    "spinlock_t",
    "u32",
    "u64",
    "intptr_t",
    "uintptr_t",
    "volatile",
    "const",
];

impl<'a> Parser<'a> {
    fn line(&self) -> usize {
        self.toks
            .get(self.i)
            .or(self.toks.last())
            .map_or(1, |t| t.line)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }

    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.i + k).map(|t| &t.tok)
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> Result<(), Error> {
        if self.eat(p) {
            Ok(())
        } else {
            err(
                self.line(),
                format!("expected `{p}`, found {}", self.found()),
            )
        }
    }

    fn found(&self) -> String {
        match self.peek() {
            None => "the end of the file".to_string(),
            Some(Tok::Ident(s)) => format!("`{s}`"),
            Some(Tok::Int(v)) => format!("`{v}`"),
            Some(Tok::Punct(p)) => format!("`{p}`"),
        }
    }

    fn ident(&mut self) -> Result<String, Error> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.i += 1;
                Ok(s)
            }
            _ => err(
                self.line(),
                format!("expected a name, found {}", self.found()),
            ),
        }
    }

    fn is_type_word(&self) -> bool {
        matches!(self.peek(), Some(Tok::Ident(s)) if TYPE_WORDS.contains(&s.as_str()))
    }

    /// A type: its words, and how many `*` follow.
    fn ty(&mut self) -> Result<(Kind, usize), Error> {
        let line = self.line();
        let mut words = Vec::new();
        while self.is_type_word() {
            words.push(self.ident()?);
        }
        if words.is_empty() {
            return err(line, format!("expected a type, found {}", self.found()));
        }
        let mut stars = 0;
        while self.eat("*") {
            stars += 1;
        }
        let kind = if words.iter().any(|w| w == "atomic_t") {
            Kind::Atomic
        } else if words.iter().any(|w| w == "spinlock_t") {
            Kind::Lock
        } else {
            Kind::Word
        };
        Ok((kind, stars))
    }

    /// The global named `name`, given `kind` by a type if `kind` is set.
    fn global(&mut self, name: &str, kind: Option<Kind>, line: usize) -> Result<usize, Error> {
        let id = match self.globals.iter().position(|g| g.name == name) {
            Some(id) => id,
            None => {
                self.globals.push(Global {
                    name: name.to_string(),
                    kind: Kind::Word,
                    init: 0,
                });
                self.typed.push(false);
                self.globals.len() - 1
            }
        };
        if let Some(k) = kind {
            if self.typed[id] && self.globals[id].kind != k {
                return err(
                    line,
                    format!(
                        "`{name}` is {} here and {} elsewhere",
                        k.name(),
                        self.globals[id].kind.name()
                    ),
                );
            }
            self.globals[id].kind = k;
            self.typed[id] = true;
        }
        Ok(id)
    }

    fn int(&mut self) -> Result<i64, Error> {
        let neg = self.eat("-");
        match self.peek() {
            Some(Tok::Int(v)) => {
                let v = *v;
                self.i += 1;
                Ok(if neg { -v } else { v })
            }
            _ => err(
                self.line(),
                format!("expected a number, found {}", self.found()),
            ),
        }
    }

    /// The init block `{ ... }`.
    fn init(&mut self) -> Result<(), Error> {
        self.expect("{")?;
        while !self.eat("}") {
            let line = self.line();
            if matches!(self.peek(), Some(Tok::Int(_)))
                && matches!(self.peek_at(1), Some(Tok::Punct(":")))
            {
                return err(line, "an initial register value (`n:r=v`): not supported");
            }
            let kind = if self.is_type_word() {
                let (kind, stars) = self.ty()?;
                if stars > 0 {
                    return err(line, "a pointer-valued variable: not supported (C11/loom has no address dependencies)");
                }
                Some(kind)
            } else {
                None
            };
            let name = self.ident()?;
            let id = self.global(&name, kind, line)?;
            if self.eat("=") {
                let v = if matches!(self.peek(), Some(Tok::Ident(s)) if s == "ATOMIC_INIT") {
                    self.i += 1;
                    self.expect("(")?;
                    let v = self.int()?;
                    self.expect(")")?;
                    v
                } else if matches!(self.peek(), Some(Tok::Ident(_)) | Some(Tok::Punct("&"))) {
                    return err(line, format!("`{name}` starts as an address: pointer-valued variables are not supported (C11/loom has no address dependencies)"));
                } else {
                    self.int()?
                };
                self.globals[id].init = v;
            }
            if !self.eat(";") && !self.is("}") {
                return err(self.line(), format!("expected `;`, found {}", self.found()));
            }
        }
        Ok(())
    }

    /// `Pn(params) { body }`.
    fn proc(&mut self, n: usize) -> Result<(Vec<Stmt>, Vec<String>), Error> {
        let line = self.line();
        let name = self.ident()?;
        if name != format!("P{n}") {
            return err(line, format!("expected P{n}, found `{name}`"));
        }
        self.expect("(")?;
        let mut params: HashMap<String, usize> = HashMap::new();
        while !self.eat(")") {
            let line = self.line();
            let (kind, stars) = self.ty()?;
            let p = self.ident()?;
            if stars != 1 {
                return err(line, format!("parameter `{p}`: a pointer to a shared variable (`int *{p}`) is expected; pointer-valued variables are not supported"));
            }
            let id = self.global(&p, Some(kind), line)?;
            params.insert(p, id);
            if !self.eat(",") && !self.is(")") {
                return err(self.line(), format!("expected `,`, found {}", self.found()));
            }
        }
        let mut regs = Vec::new();
        let body = self.block(&params, &mut regs)?;
        Ok((body, regs))
    }

    fn block(
        &mut self,
        params: &HashMap<String, usize>,
        regs: &mut Vec<String>,
    ) -> Result<Vec<Stmt>, Error> {
        self.expect("{")?;
        let mut out = Vec::new();
        while !self.eat("}") {
            if self.peek().is_none() {
                return err(self.line(), "a block that never ends");
            }
            self.stmt(params, regs, &mut out)?;
        }
        Ok(out)
    }

    /// One statement, or a block's statements, as a list.
    fn body(
        &mut self,
        params: &HashMap<String, usize>,
        regs: &mut Vec<String>,
    ) -> Result<Vec<Stmt>, Error> {
        if self.is("{") {
            self.block(params, regs)
        } else {
            let mut out = Vec::new();
            self.stmt(params, regs, &mut out)?;
            Ok(out)
        }
    }

    fn stmt(
        &mut self,
        params: &HashMap<String, usize>,
        regs: &mut Vec<String>,
        out: &mut Vec<Stmt>,
    ) -> Result<(), Error> {
        let line = self.line();
        if self.eat(";") {
            return Ok(());
        }
        if matches!(self.peek(), Some(Tok::Ident(s)) if s == "if") {
            self.i += 1;
            self.expect("(")?;
            let c = self.value(params, regs)?;
            self.expect(")")?;
            let then = self.body(params, regs)?;
            let els = if matches!(self.peek(), Some(Tok::Ident(s)) if s == "else") {
                self.i += 1;
                self.body(params, regs)?
            } else {
                Vec::new()
            };
            out.push(Stmt::If(c, then, els));
            return Ok(());
        }
        if matches!(self.peek(), Some(Tok::Ident(s)) if s == "while" || s == "for" || s == "do" || s == "goto" || s == "return")
        {
            return err(
                line,
                format!(
                    "{}: loops and jumps are not supported (a litmus test is loop-free)",
                    self.found()
                ),
            );
        }
        if self.is_type_word() {
            let (kind, stars) = self.ty()?;
            loop {
                let name = self.ident()?;
                if kind != Kind::Word || stars > 0 {
                    return err(
                        line,
                        format!("local `{name}`: only integer registers are supported"),
                    );
                }
                if params.contains_key(&name) {
                    return err(line, format!("register `{name}` shadows a parameter"));
                }
                if !regs.contains(&name) {
                    regs.push(name.clone());
                }
                if self.eat("=") {
                    let e = self.value(params, regs)?;
                    out.push(Stmt::SetReg(name, e));
                }
                if !self.eat(",") {
                    break;
                }
            }
            return self.expect(";");
        }
        // An assignment or an expression statement.
        if self.is("*") {
            if let Some(Tok::Ident(p)) = self.peek_at(1) {
                if matches!(self.peek_at(2), Some(Tok::Punct("="))) {
                    let Some(&id) = params.get(p) else {
                        return err(line, format!("`*{p}`: `{p}` is not a parameter"));
                    };
                    self.plain(id, line)?;
                    self.i += 3;
                    let e = self.value(params, regs)?;
                    out.push(Stmt::Store(id, e));
                    return self.expect(";");
                }
            }
        }
        if let (Some(Tok::Ident(r)), Some(Tok::Punct("="))) = (self.peek(), self.peek_at(1)) {
            let r = r.clone();
            if !regs.contains(&r) {
                return err(
                    line,
                    format!("`{r}` is assigned but not declared as a register"),
                );
            }
            self.i += 2;
            let e = self.value(params, regs)?;
            out.push(Stmt::SetReg(r, e));
            return self.expect(";");
        }
        let e = self.value(params, regs)?;
        out.push(Stmt::Eval(e));
        self.expect(";")
    }

    fn expr(&mut self, params: &HashMap<String, usize>, regs: &[String]) -> Result<Expr, Error> {
        self.binary(params, regs, 0)
    }

    /// An expression whose value is used: a pointer may appear only as a primitive's pointer
    /// argument, never as a value (its value would be the interpreter's index).
    fn value(&mut self, params: &HashMap<String, usize>, regs: &[String]) -> Result<Expr, Error> {
        let line = self.line();
        let e = self.expr(params, regs)?;
        self.no_pointer_value(&e, line)?;
        Ok(e)
    }

    fn no_pointer_value(&self, e: &Expr, line: usize) -> Result<(), Error> {
        match e {
            Expr::Ptr(id) => err(
                line,
                format!(
                    "`{}` is a pointer used as a value: only a primitive's pointer argument takes it",
                    self.globals[*id].name
                ),
            ),
            Expr::Int(_) | Expr::Reg(_) | Expr::Deref(_) => Ok(()),
            Expr::Not(e) | Expr::Neg(e) => self.no_pointer_value(e, line),
            Expr::Bin(_, a, b) => {
                self.no_pointer_value(a, line)?;
                self.no_pointer_value(b, line)
            }
            Expr::Call(name, args) => {
                let sig = PRIMITIVES
                    .iter()
                    .find(|(n, _, _)| n == name)
                    .map_or("", |p| p.1);
                for (w, a) in sig.split(", ").zip(args) {
                    if w == "v" {
                        self.no_pointer_value(a, line)?;
                    }
                }
                Ok(())
            }
        }
    }

    /// A plain access (`*p`) to the variable `id`: a word only; recorded for the race check.
    fn plain(&mut self, id: usize, line: usize) -> Result<(), Error> {
        if self.globals[id].kind != Kind::Word {
            return err(
                line,
                format!(
                    "`*{}`: `{}` is {}, not a word (int)",
                    self.globals[id].name,
                    self.globals[id].name,
                    self.globals[id].kind.name()
                ),
            );
        }
        self.accesses.push((id, self.cpu, true, line));
        Ok(())
    }

    fn binary(
        &mut self,
        params: &HashMap<String, usize>,
        regs: &[String],
        level: usize,
    ) -> Result<Expr, Error> {
        const LEVELS: &[&[(&str, BinOp)]] = &[
            &[("||", BinOp::Or)],
            &[("&&", BinOp::And)],
            &[("==", BinOp::Eq), ("!=", BinOp::Ne)],
            &[
                ("<=", BinOp::Le),
                (">=", BinOp::Ge),
                ("<", BinOp::Lt),
                (">", BinOp::Gt),
            ],
            &[("+", BinOp::Add), ("-", BinOp::Sub)],
        ];
        if level == LEVELS.len() {
            return self.unary(params, regs);
        }
        let mut e = self.binary(params, regs, level + 1)?;
        'outer: loop {
            for (p, op) in LEVELS[level] {
                if self.eat(p) {
                    let r = self.binary(params, regs, level + 1)?;
                    e = Expr::Bin(*op, Box::new(e), Box::new(r));
                    continue 'outer;
                }
            }
            return Ok(e);
        }
    }

    fn unary(&mut self, params: &HashMap<String, usize>, regs: &[String]) -> Result<Expr, Error> {
        let line = self.line();
        if self.eat("!") {
            return Ok(Expr::Not(Box::new(self.unary(params, regs)?)));
        }
        if self.eat("-") {
            return Ok(Expr::Neg(Box::new(self.unary(params, regs)?)));
        }
        if self.eat("*") {
            let p = self.ident()?;
            let Some(&id) = params.get(&p) else {
                return err(line, format!("`*{p}`: `{p}` is not a parameter"));
            };
            self.plain(id, line)?;
            return Ok(Expr::Deref(id));
        }
        if self.eat("&") {
            return err(
                line,
                "`&`: addresses are not supported (pass the parameter itself)",
            );
        }
        if self.is("(")
            && matches!(self.peek_at(1), Some(Tok::Ident(v)) if v == "void")
            && matches!(self.peek_at(2), Some(Tok::Punct(")")))
        {
            // `(void)expr`: the value is discarded, the access happens.
            self.i += 3;
            return self.unary(params, regs);
        }
        if self.eat("(") {
            let e = self.expr(params, regs)?;
            self.expect(")")?;
            return Ok(e);
        }
        match self.peek().cloned() {
            Some(Tok::Int(v)) => {
                self.i += 1;
                Ok(Expr::Int(v))
            }
            Some(Tok::Ident(name)) => {
                self.i += 1;
                if self.eat("(") {
                    let mut args = Vec::new();
                    while !self.eat(")") {
                        args.push(self.expr(params, regs)?);
                        if !self.eat(",") && !self.is(")") {
                            return err(
                                self.line(),
                                format!("expected `,`, found {}", self.found()),
                            );
                        }
                    }
                    return self.call(&name, args, line);
                }
                if regs.contains(&name) {
                    Ok(Expr::Reg(name))
                } else if let Some(&id) = params.get(&name) {
                    Ok(Expr::Ptr(id))
                } else {
                    err(
                        line,
                        format!("`{name}` is neither a register nor a parameter"),
                    )
                }
            }
            _ => err(
                line,
                format!("expected an expression, found {}", self.found()),
            ),
        }
    }

    /// A primitive's call, its arguments checked against [`PRIMITIVES`].
    fn call(&mut self, name: &str, args: Vec<Expr>, line: usize) -> Result<Expr, Error> {
        if let Some((_, why)) = UNSUPPORTED.iter().find(|(n, _)| *n == name) {
            return err(line, format!("`{name}` is not supported: {why}"));
        }
        let Some(&(pname, sig, _)) = PRIMITIVES.iter().find(|(n, _, _)| *n == name) else {
            return err(line, format!("`{name}` is not a primitive the interpreter knows (models/litmus.rs, PRIMITIVES)"));
        };
        let want: Vec<&str> = sig.split(", ").filter(|s| !s.is_empty()).collect();
        if want.len() != args.len() {
            return err(
                line,
                format!(
                    "`{name}` takes {} arguments ({sig}), given {}",
                    want.len(),
                    args.len()
                ),
            );
        }
        for (k, (w, a)) in want.iter().zip(&args).enumerate() {
            let kind = match (*w, a) {
                ("v", _) => continue,
                ("*p", Expr::Deref(id)) => Some((Kind::Word, *id)),
                ("p", Expr::Ptr(id)) => Some((Kind::Word, *id)),
                ("a", Expr::Ptr(id)) => Some((Kind::Atomic, *id)),
                ("l", Expr::Ptr(id)) => Some((Kind::Lock, *id)),
                _ => None,
            };
            match kind {
                Some((want, id)) if self.globals[id].kind == want => {
                    // `*p` of READ_ONCE/WRITE_ONCE was recorded as a plain access when it was
                    // parsed: it is a marked one.
                    if *w == "*p" {
                        if let Some(pos) = self
                            .accesses
                            .iter()
                            .rposition(|&(v, c, plain, _)| v == id && c == self.cpu && plain)
                        {
                            self.accesses.remove(pos);
                        }
                    }
                    self.accesses.push((id, self.cpu, false, line));
                }
                Some((want, id)) => {
                    let g = &self.globals[id];
                    return err(
                        line,
                        format!(
                            "`{name}`: argument {} must point to {}; `{}` is {}",
                            k + 1,
                            want.name(),
                            g.name,
                            g.kind.name()
                        ),
                    );
                }
                None => {
                    return err(
                        line,
                        format!("`{name}`: argument {} must be {w} ({sig})", k + 1),
                    );
                }
            }
        }
        Ok(Expr::Call(pname, args))
    }

    /// A clause's condition.
    fn cond(&mut self) -> Result<Cond, Error> {
        let mut c = self.cond_and()?;
        while self.eat("\\/") {
            c = Cond::Or(Box::new(c), Box::new(self.cond_and()?));
        }
        Ok(c)
    }

    fn cond_and(&mut self) -> Result<Cond, Error> {
        let mut c = self.cond_atom()?;
        while self.eat("/\\") {
            c = Cond::And(Box::new(c), Box::new(self.cond_atom()?));
        }
        Ok(c)
    }

    fn cond_atom(&mut self) -> Result<Cond, Error> {
        let line = self.line();
        if self.eat("~") {
            return Ok(Cond::Not(Box::new(self.cond_atom()?)));
        }
        if self.eat("(") {
            let c = self.cond()?;
            self.expect(")")?;
            return Ok(c);
        }
        match self.peek().cloned() {
            Some(Tok::Int(n)) => {
                self.i += 1;
                self.expect(":")?;
                let r = self.ident()?;
                self.expect("=")?;
                let v = self.int()?;
                Ok(Cond::Reg(n as usize, r, v))
            }
            Some(Tok::Ident(x)) => {
                self.i += 1;
                self.expect("=")?;
                let v = self.int()?;
                let Some(id) = self.globals.iter().position(|g| g.name == x) else {
                    return err(line, format!("`{x}` is not a shared variable of the test"));
                };
                if self.globals[id].kind == Kind::Lock {
                    return err(
                        line,
                        format!("`{x}` is a spinlock_t: its value is not a condition"),
                    );
                }
                Ok(Cond::Var(id, v))
            }
            _ => err(
                line,
                format!("expected a condition, found {}", self.found()),
            ),
        }
    }
}

/// Parse a litmus file (its text; `name` for messages only is the caller's).
pub fn parse(text: &str) -> Result<Test, Error> {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let Some(name) = first.strip_prefix("C ").map(str::trim) else {
        return err(
            1,
            "a C litmus test starts with `C <name>` (other architectures' tests are not supported)",
        );
    };
    if name.is_empty() {
        return err(1, "the `C` line names no test");
    }
    let (result, description) = header(text);
    let rest = &text[first.len()..];
    let toks = lex(rest, 1)?;
    let mut p = Parser {
        toks: &toks,
        i: 0,
        globals: Vec::new(),
        typed: Vec::new(),
        cpu: 0,
        accesses: Vec::new(),
    };
    p.init()?;
    let mut procs = Vec::new();
    while matches!(p.peek(), Some(Tok::Ident(s)) if s.starts_with('P') && s[1..].chars().all(|c| c.is_ascii_digit()) && s.len() > 1)
    {
        p.cpu = procs.len();
        procs.push(p.proc(procs.len())?);
    }
    // A plain access is run as READ_ONCE/WRITE_ONCE: only when no other CPU touches the
    // variable (herd7 flags a data race on a racy plain access; this interpreter would give it
    // a meaning instead).
    for &(var, cpu, plain, line) in &p.accesses {
        if plain && p.accesses.iter().any(|&(v, c, _, _)| v == var && c != cpu) {
            return err(
                line,
                format!(
                    "plain access to `{}`, which another CPU also accesses: a data race (herd7 flags it; use READ_ONCE/WRITE_ONCE)",
                    p.globals[var].name
                ),
            );
        }
    }
    if procs.is_empty() {
        return err(p.line(), format!("expected P0, found {}", p.found()));
    }
    let (mut filter, mut exists) = (None, None);
    while let Some(tok) = p.peek().cloned() {
        let line = p.line();
        match tok {
            Tok::Ident(w) if w == "locations" => {
                p.i += 1;
                p.expect("[")?;
                while !p.eat("]") {
                    if p.peek().is_none() {
                        return err(line, "`locations [` never closes");
                    }
                    p.i += 1;
                }
            }
            Tok::Ident(w) if w == "filter" => {
                p.i += 1;
                filter = Some(p.cond()?);
            }
            Tok::Ident(w) if w == "exists" => {
                p.i += 1;
                exists = Some(p.cond()?);
            }
            Tok::Ident(w) if w == "forall" => {
                return err(line, "`forall`: only `exists` clauses are supported");
            }
            Tok::Punct("~") if matches!(p.peek_at(1), Some(Tok::Ident(w)) if w == "exists") => {
                return err(line, "`~exists`: only `exists` clauses are supported");
            }
            _ => {
                return err(
                    line,
                    format!(
                        "expected `exists`, `filter` or `locations`, found {}",
                        p.found()
                    ),
                )
            }
        }
    }
    let Some(exists) = exists else {
        return err(p.line(), "the test has no `exists` clause");
    };
    let test = Test {
        name: name.to_string(),
        result,
        description,
        globals: p.globals,
        procs,
        filter,
        exists,
    };
    for c in test.filter.iter().chain([&test.exists]) {
        test.check_regs(c)?;
    }
    Ok(test)
}

impl Test {
    /// Every `n:r` in a clause names a register CPU n declares.
    fn check_regs(&self, c: &Cond) -> Result<(), Error> {
        match c {
            Cond::Reg(n, r, _) => match self.procs.get(*n) {
                Some((_, regs)) if regs.contains(r) => Ok(()),
                Some(_) => err(1, format!("`{n}:{r}`: P{n} has no register `{r}`")),
                None => err(1, format!("`{n}:{r}`: there is no P{n}")),
            },
            Cond::Var(..) => Ok(()),
            Cond::Not(c) => self.check_regs(c),
            Cond::And(a, b) | Cond::Or(a, b) => {
                self.check_regs(a)?;
                self.check_regs(b)
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Execution

enum Cell {
    Word(unsigned_long),
    Atomic(atomic_t),
    Lock(SpinLock<()>),
}

struct Memory(Vec<Cell>);

impl Memory {
    fn word(&self, id: usize) -> &unsigned_long {
        match &self.0[id] {
            Cell::Word(w) => w,
            _ => unreachable!("parse() checked the kind"),
        }
    }

    fn atomic(&self, id: usize) -> &atomic_t {
        match &self.0[id] {
            Cell::Atomic(a) => a,
            _ => unreachable!("parse() checked the kind"),
        }
    }

    fn lock(&self, id: usize) -> &SpinLock<()> {
        match &self.0[id] {
            Cell::Lock(l) => l,
            _ => unreachable!("parse() checked the kind"),
        }
    }
}

/// One CPU running its statements.
struct Cpu<'m> {
    mem: &'m Memory,
    regs: HashMap<String, i64>,
    held: HashMap<usize, SpinGuard<'m, ()>>,
}

fn ptr(e: &Expr) -> usize {
    match e {
        Expr::Ptr(id) | Expr::Deref(id) => *id,
        _ => unreachable!("parse() checked the argument"),
    }
}

impl<'m> Cpu<'m> {
    fn run(&mut self, stmts: &[Stmt]) {
        for s in stmts {
            match s {
                Stmt::SetReg(r, e) => {
                    let v = self.eval(e);
                    self.regs.insert(r.clone(), v);
                }
                Stmt::Store(id, e) => {
                    let v = self.eval(e);
                    WRITE_ONCE(self.mem.word(*id), v as usize);
                }
                Stmt::Eval(e) => {
                    self.eval(e);
                }
                Stmt::If(c, t, f) => {
                    if self.eval(c) != 0 {
                        self.run(t)
                    } else {
                        self.run(f)
                    }
                }
            }
        }
    }

    fn eval(&mut self, e: &Expr) -> i64 {
        match e {
            Expr::Int(v) => *v,
            Expr::Reg(r) => self.regs.get(r).copied().unwrap_or(0),
            Expr::Ptr(id) => *id as i64,
            Expr::Deref(id) => READ_ONCE(self.mem.word(*id)) as i64,
            Expr::Not(e) => (self.eval(e) == 0) as i64,
            Expr::Neg(e) => self.eval(e).wrapping_neg(),
            Expr::Bin(op, a, b) => {
                let a = self.eval(a);
                // && and || evaluate their right side only when C would.
                match op {
                    BinOp::And => return (a != 0 && self.eval(b) != 0) as i64,
                    BinOp::Or => return (a != 0 || self.eval(b) != 0) as i64,
                    _ => {}
                }
                let b = self.eval(b);
                match op {
                    BinOp::Add => a.wrapping_add(b),
                    BinOp::Sub => a.wrapping_sub(b),
                    BinOp::Eq => (a == b) as i64,
                    BinOp::Ne => (a != b) as i64,
                    BinOp::Lt => (a < b) as i64,
                    BinOp::Le => (a <= b) as i64,
                    BinOp::Gt => (a > b) as i64,
                    BinOp::Ge => (a >= b) as i64,
                    BinOp::And | BinOp::Or => unreachable!(),
                }
            }
            Expr::Call(name, args) => self.call(name, args),
        }
    }

    fn call(&mut self, name: &str, args: &[Expr]) -> i64 {
        let m = self.mem;
        let val = |cpu: &mut Self, k: usize| cpu.eval(&args[k]);
        let w = |k: usize| m.word(ptr(&args[k]));
        let a = |k: usize| m.atomic(ptr(&args[k]));
        match name {
            "READ_ONCE" => READ_ONCE(w(0)) as i64,
            "WRITE_ONCE" => {
                let v = val(self, 1);
                WRITE_ONCE(w(0), v as usize);
                0
            }
            "smp_load_acquire" => smp_load_acquire(w(0)) as i64,
            "smp_store_release" => {
                let v = val(self, 1);
                smp_store_release(w(0), v as usize);
                0
            }
            "xchg" => {
                let v = val(self, 1);
                xchg(w(0), v as usize) as i64
            }
            "cmpxchg" => {
                let (o, n) = (val(self, 1), val(self, 2));
                cmpxchg(w(0), o as usize, n as usize) as i64
            }
            "smp_mb" => {
                smp_mb();
                0
            }
            "smp_rmb" => {
                smp_rmb();
                0
            }
            "smp_wmb" => {
                smp_wmb();
                0
            }
            "smp_mb__before_atomic" => {
                smp_mb__before_atomic();
                0
            }
            "smp_mb__after_atomic" => {
                smp_mb__after_atomic();
                0
            }
            "smp_mb__after_spinlock" => {
                smp_mb__after_spinlock();
                0
            }
            "spin_lock" => {
                let id = ptr(&args[0]);
                let g = spin_lock(m.lock(id));
                self.held.insert(id, g);
                0
            }
            "spin_unlock" => {
                let id = ptr(&args[0]);
                // parse() cannot know the lock is held: releasing one that is not is the
                // test's error, reported as such (never run with a guessed meaning).
                match self.held.remove(&id) {
                    Some(g) => spin_unlock(g),
                    None => harness_fail(
                        "spin_unlock",
                        "the test releases a spinlock_t its CPU does not hold".to_string(),
                    ),
                }
                0
            }
            "atomic_read" => atomic_read(a(0)) as i64,
            "atomic_set" => {
                let v = val(self, 1);
                atomic_set(a(0), v as i32);
                0
            }
            "atomic_inc" => {
                atomic_inc(a(0));
                0
            }
            "atomic_dec" => {
                atomic_dec(a(0));
                0
            }
            "atomic_add" => {
                let v = val(self, 0);
                atomic_add(v as i32, a(1));
                0
            }
            "atomic_sub" => {
                let v = val(self, 0);
                atomic_sub(v as i32, a(1));
                0
            }
            "atomic_inc_return" => atomic_inc_return(a(0)) as i64,
            "atomic_dec_return" => atomic_dec_return(a(0)) as i64,
            "atomic_add_return" => {
                let v = val(self, 0);
                atomic_add_return(v as i32, a(1)) as i64
            }
            "atomic_sub_return" => {
                let v = val(self, 0);
                atomic_sub_return(v as i32, a(1)) as i64
            }
            "atomic_dec_and_test" => atomic_dec_and_test(a(0)) as i64,
            "atomic_inc_not_zero" => atomic_inc_not_zero(a(0)) as i64,
            "atomic_add_unless" => {
                let (v, u) = (val(self, 1), val(self, 2));
                (__atomic_add_unless(a(0), v as i32, u as i32) != u as i32) as i64
            }
            "bit_spin_lock" => {
                let nr = val(self, 0);
                bit_spin_lock(nr as u32, w(1));
                0
            }
            "bit_spin_unlock" => {
                let nr = val(self, 0);
                drop(bit_spin_unlock(nr as u32, w(1)));
                0
            }
            _ => unreachable!("parse() checked the primitive"),
        }
    }
}

impl Test {
    /// One execution: every `Pn` on CPU n, joined, then the clauses.
    pub fn run(self: &Arc<Self>) -> Outcome {
        let mem = Arc::new(Memory(
            self.globals
                .iter()
                .map(|g| match g.kind {
                    Kind::Word => Cell::Word(unsigned_long::new(g.init as usize)),
                    Kind::Atomic => Cell::Atomic(atomic_t::new(g.init as i32)),
                    Kind::Lock => Cell::Lock(SpinLock::new(())),
                })
                .collect(),
        ));
        let cpus: Vec<_> = (0..self.procs.len())
            .map(|n| {
                let (t, mem) = (self.clone(), mem.clone());
                spawn_cpu(n, move || {
                    let mut cpu = Cpu {
                        mem: &mem,
                        regs: HashMap::new(),
                        held: HashMap::new(),
                    };
                    cpu.run(&t.procs[n].0);
                    // A lock still held at the end: in herd7 the other CPUs' spin_lock() of it
                    // never succeeds; the test's error, reported as such.
                    if !cpu.held.is_empty() {
                        harness_fail("spin_lock", format!("P{n} ends holding a spinlock_t"));
                    }
                    cpu.regs
                })
            })
            .collect();
        let regs: Vec<HashMap<String, i64>> = cpus.into_iter().map(join).collect();
        let holds = |c: &Cond| self.holds(c, &mem, &regs);
        match &self.filter {
            Some(f) if !holds(f) => Outcome::Filtered,
            _ => Outcome::Exists(holds(&self.exists)),
        }
    }

    fn holds(&self, c: &Cond, mem: &Memory, regs: &[HashMap<String, i64>]) -> bool {
        match c {
            Cond::Reg(n, r, v) => regs[*n].get(r).copied().unwrap_or(0) == *v,
            Cond::Var(id, v) => {
                let now = match &mem.0[*id] {
                    Cell::Word(w) => READ_ONCE(w) as i64,
                    Cell::Atomic(a) => atomic_read(a) as i64,
                    Cell::Lock(_) => unreachable!("parse() refuses a lock in a condition"),
                };
                now == *v
            }
            Cond::Not(c) => !self.holds(c, mem, regs),
            Cond::And(a, b) => self.holds(a, mem, regs) && self.holds(b, mem, regs),
            Cond::Or(a, b) => self.holds(a, mem, regs) || self.holds(b, mem, regs),
        }
    }
}

/// The compiled-in file whose test is named `name`, parsed.
pub fn find(name: &str) -> Option<(&'static File, Result<Test, Error>)> {
    FILES.iter().find_map(|f| {
        let first = f.text.lines().next()?;
        (first.strip_prefix("C ")?.trim() == name).then(|| (f, parse(f.text)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every compiled-in file parses, or is refused for a reason the module names.
    #[test]
    fn every_file_parses_or_is_refused_with_a_reason() {
        assert!(!FILES.is_empty());
        for f in FILES {
            match parse(f.text) {
                Ok(t) => println!("{}: {} CPUs, Result {:?}", f.path, t.cpus(), t.result),
                Err(e) => println!("{}: refused: {e}", f.path),
            }
        }
    }

    /// Bad input is refused with the line and the reason, never run on a guess.
    #[test]
    fn bad_input_is_refused_with_line_and_reason() {
        let ok = "C T\n\n{}\n\nP0(int *x)\n{\n\tint r0;\n\n\tr0 = READ_ONCE(*x);\n}\n\nP1(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\n\nexists (0:r0=1)\n";
        assert!(parse(ok).is_ok());
        let cases = [
            ("AArch64 T\n", 1, "starts with `C <name>`"),
            (
                &ok.replace("READ_ONCE(*x)", "READ_ONCE(x)"),
                9,
                "argument 1 must be *p",
            ),
            (
                &ok.replace("READ_ONCE", "spin_is_locked"),
                9,
                "`spin_is_locked` is not supported",
            ),
            (&ok.replace("READ_ONCE", "frob"), 9, "not a primitive"),
            (
                &ok.replace("0:r0=1", "0:r9=1"),
                1,
                "P0 has no register `r9`",
            ),
            (
                &ok.replace("0:r0=1", "1:r0=1"),
                1,
                "P1 has no register `r0`",
            ),
            (&ok.replace("0:r0=1", "2:r0=1"), 1, "there is no P2"),
            (&ok.replace("exists (0:r0=1)", ""), 15, "no `exists` clause"),
            (
                &ok.replace("int *x", "atomic_t *x"),
                9,
                "`*x`: `x` is an atomic_t, not a word (int)",
            ),
            (
                &ok.replace("r0 = ", "r1 = "),
                9,
                "`r1` is assigned but not declared",
            ),
            (
                &ok.replace("{}", "{ int *p = &x; }"),
                3,
                "pointer-valued variable",
            ),
            (
                &ok.replace("\tr0 = READ_ONCE(*x);\n", "\twhile (1) ;\n"),
                9,
                "loops and jumps",
            ),
            (&ok.replace("(*x);", "(*x)"), 10, "expected `;`"),
            (
                &ok.replace("READ_ONCE(*x)", "x"),
                9,
                "pointer used as a value",
            ),
            (
                &ok.replace("READ_ONCE(*x)", "*x"),
                9,
                "plain access to `x`, which another CPU",
            ),
            (&ok.replace("READ_ONCE(*x)", "010"), 9, "octal"),
        ];
        for (text, line, why) in cases {
            match parse(text) {
                Ok(_) => panic!("accepted:\n{text}"),
                Err(e) => {
                    assert!(e.message.contains(why), "{text}\n=> {e}, wanted {why:?}");
                    assert_eq!(e.line, line, "{text}\n=> {e}");
                }
            }
        }
    }
}
