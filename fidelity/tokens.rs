//! One tokenizer for the kernel's C and mmcheck's Rust: identifiers, numbers, strings,
//! operators and punctuation, with comments and preprocessor lines kept as tokens (markers and
//! `#define`s are read from them), each with its line.

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Number,
    Str,
    Punct,
    /// `// ...` or `/* ... */` (the text without the delimiters).
    Comment,
    /// A C preprocessor line, continuations joined (`#define x(p) y(p)`).
    Directive,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub text: String,
    pub line: usize,
}

impl Token {
    pub fn is(&self, s: &str) -> bool {
        self.kind != Kind::Str && self.kind != Kind::Comment && self.text == s
    }
    pub fn is_ident(&self) -> bool {
        self.kind == Kind::Ident
    }
}

const PUNCT3: [&str; 4] = ["<<=", ">>=", "...", "..="];
const PUNCT2: [&str; 22] = [
    "->", "::", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "|=", "&=", "^=", "*=",
    "/=", "<<", ">>", "=>", "..", "%=",
];

/// Tokenize `src`. `c` selects C's preprocessor lines (`#` at a line's start).
pub fn tokenize(src: &str, c: bool) -> Vec<Token> {
    let b: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0usize, 1usize);
    let mut line_start = true;
    while i < b.len() {
        let ch = b[i];
        if ch == '\n' {
            line += 1;
            i += 1;
            line_start = true;
            continue;
        }
        if ch.is_whitespace() {
            i += 1;
            continue;
        }
        let start_line = line;
        if c && line_start && ch == '#' {
            let mut text = String::new();
            while i < b.len() && b[i] != '\n' {
                if b[i] == '\\' && i + 1 < b.len() && b[i + 1] == '\n' {
                    text.push(' ');
                    i += 2;
                    line += 1;
                    continue;
                }
                text.push(b[i]);
                i += 1;
            }
            out.push(Token {
                kind: Kind::Directive,
                text,
                line: start_line,
            });
            continue;
        }
        line_start = false;
        if ch == '/' && i + 1 < b.len() && b[i + 1] == '/' {
            let mut j = i + 2;
            while j < b.len() && b[j] != '\n' {
                j += 1;
            }
            out.push(Token {
                kind: Kind::Comment,
                text: b[i + 2..j].iter().collect(),
                line: start_line,
            });
            i = j;
            continue;
        }
        if ch == '/' && i + 1 < b.len() && b[i + 1] == '*' {
            let mut j = i + 2;
            while j + 1 < b.len() && !(b[j] == '*' && b[j + 1] == '/') {
                if b[j] == '\n' {
                    line += 1;
                }
                j += 1;
            }
            out.push(Token {
                kind: Kind::Comment,
                text: b[i + 2..j.min(b.len())].iter().collect(),
                line: start_line,
            });
            i = (j + 2).min(b.len());
            continue;
        }
        if ch == '"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != '"' {
                if b[j] == '\\' {
                    j += 1;
                }
                if j < b.len() && b[j] == '\n' {
                    line += 1;
                }
                j += 1;
            }
            out.push(Token {
                kind: Kind::Str,
                text: b[i + 1..j.min(b.len())].iter().collect(),
                line: start_line,
            });
            i = (j + 1).min(b.len());
            continue;
        }
        if ch == '\'' {
            // A char literal ('x', '\n'), or a Rust lifetime ('a).
            let close = if i + 2 < b.len() && b[i + 1] == '\\' {
                (i + 3..b.len().min(i + 8)).find(|&j| b[j] == '\'')
            } else if i + 2 < b.len() && b[i + 2] == '\'' {
                Some(i + 2)
            } else {
                None
            };
            if let Some(j) = close {
                out.push(Token {
                    kind: Kind::Str,
                    text: b[i + 1..j].iter().collect(),
                    line: start_line,
                });
                i = j + 1;
            } else {
                i += 1;
            }
            continue;
        }
        if ch.is_ascii_alphabetic() || ch == '_' {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == '_') {
                j += 1;
            }
            out.push(Token {
                kind: Kind::Ident,
                text: b[i..j].iter().collect(),
                line: start_line,
            });
            i = j;
            continue;
        }
        if ch.is_ascii_digit() {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == '_') {
                j += 1;
            }
            out.push(Token {
                kind: Kind::Number,
                text: b[i..j].iter().collect(),
                line: start_line,
            });
            i = j;
            continue;
        }
        let rest: String = b[i..b.len().min(i + 3)].iter().collect();
        let len = if PUNCT3.iter().any(|p| rest.starts_with(p)) {
            3
        } else if PUNCT2.iter().any(|p| rest.starts_with(p)) {
            2
        } else {
            1
        };
        out.push(Token {
            kind: Kind::Punct,
            text: b[i..i + len].iter().collect(),
            line: start_line,
        });
        i += len;
    }
    out
}

/// The index of the token that closes the group opened at `open` (`(`, `[`, `{`), or the
/// last index when it is not closed.
pub fn matching(toks: &[Token], open: usize) -> usize {
    let (o, c) = match toks[open].text.as_str() {
        "(" => ("(", ")"),
        "[" => ("[", "]"),
        _ => ("{", "}"),
    };
    let mut depth = 0i32;
    for (j, t) in toks.iter().enumerate().skip(open) {
        if t.kind != Kind::Punct {
            continue;
        }
        if t.text == o {
            depth += 1;
        } else if t.text == c {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    toks.len().saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_of_both_languages() {
        let t = tokenize(
            "if (a->b != 0x1f) /* c */ x += \"s\\\"\";\n#define f(p) \\\n g(p)\n",
            true,
        );
        let texts: Vec<_> = t.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "if",
                "(",
                "a",
                "->",
                "b",
                "!=",
                "0x1f",
                ")",
                " c ",
                "x",
                "+=",
                "s\\\"",
                ";",
                "#define f(p)   g(p)"
            ]
        );
        assert_eq!(t.last().unwrap().kind, Kind::Directive);
        let r = tokenize("let p = m.pg(page); // MODEL: why\nfoo::<V>('a');", false);
        assert!(r
            .iter()
            .any(|t| t.kind == Kind::Comment && t.text == " MODEL: why"));
        assert_eq!(r.iter().filter(|t| t.is("::")).count(), 1);
    }
}
