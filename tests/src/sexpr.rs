//! Reading z3's answers: s-expressions off a stream, and bool and bit-vector
//! values out of them.

use std::fmt;
use std::io::{self, BufRead};
use symplay_engine::expr::{Sort, Value};

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Sexpr {
    /// A symbol, literal, keyword, or string (with its quotes).
    Atom(String),
    List(Vec<Sexpr>),
}

impl Sexpr {
    pub fn as_atom(&self) -> Option<&str> {
        match self {
            Sexpr::Atom(a) => Some(a),
            Sexpr::List(_) => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Sexpr]> {
        match self {
            Sexpr::List(items) => Some(items),
            Sexpr::Atom(_) => None,
        }
    }
}

impl fmt::Display for Sexpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sexpr::Atom(a) => f.write_str(a),
            Sexpr::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Reads the next s-expression; `None` at end of stream.
pub fn read(input: &mut impl BufRead) -> io::Result<Option<Sexpr>> {
    let mut stack: Vec<Vec<Sexpr>> = Vec::new();
    loop {
        let Some(byte) = peek(input)? else {
            return if stack.is_empty() {
                Ok(None)
            } else {
                Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "stream ended inside an s-expression",
                ))
            };
        };
        let done = match byte {
            b if b.is_ascii_whitespace() => {
                input.consume(1);
                None
            }
            b'(' => {
                input.consume(1);
                stack.push(Vec::new());
                None
            }
            b')' => {
                input.consume(1);
                let items = stack
                    .pop()
                    .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "unbalanced `)`"))?;
                Some(Sexpr::List(items))
            }
            _ => Some(Sexpr::Atom(read_atom(input)?)),
        };
        if let Some(expr) = done {
            match stack.last_mut() {
                Some(parent) => parent.push(expr),
                None => return Ok(Some(expr)),
            }
        }
    }
}

fn peek(input: &mut impl BufRead) -> io::Result<Option<u8>> {
    Ok(input.fill_buf()?.first().copied())
}

/// An atom: a run of non-delimiters, where `|...|` and `"..."` may hold any byte.
fn read_atom(input: &mut impl BufRead) -> io::Result<String> {
    let mut atom = Vec::new();
    let mut quote: Option<u8> = None;
    while let Some(b) = peek(input)? {
        match quote {
            Some(q) => {
                input.consume(1);
                atom.push(b);
                if b == q {
                    quote = None;
                }
            }
            None if b.is_ascii_whitespace() || b == b'(' || b == b')' => break,
            None => {
                input.consume(1);
                atom.push(b);
                if b == b'|' || b == b'"' {
                    quote = Some(b);
                }
            }
        }
    }
    String::from_utf8(atom).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// The value `expr` denotes, which must be of `sort`: `true`/`false`, or a
/// bit-vector written `#b...`, `#x...` or `(_ bvN w)`.
pub fn parse_value(expr: &Sexpr, sort: Sort) -> Result<Value, String> {
    let bad = || format!("cannot read {expr} as a {sort:?} value");
    match sort {
        Sort::Bool => match expr.as_atom() {
            Some("true") => Ok(Value::Bool(true)),
            Some("false") => Ok(Value::Bool(false)),
            _ => Err(bad()),
        },
        Sort::Bv(width) => {
            let (value, found_width) = parse_bv(expr).ok_or_else(bad)?;
            if found_width == u32::from(width) {
                Ok(Value::Bv { width, value })
            } else {
                Err(bad())
            }
        }
        Sort::Array => Err(format!(
            "array values are read element by element, not from {expr}"
        )),
    }
}

/// A bit-vector literal's value and width.
fn parse_bv(expr: &Sexpr) -> Option<(u64, u32)> {
    match expr {
        Sexpr::Atom(a) => {
            if let Some(bits) = a.strip_prefix("#b") {
                Some((u64::from_str_radix(bits, 2).ok()?, bits.len() as u32))
            } else {
                let hex = a.strip_prefix("#x")?;
                Some((u64::from_str_radix(hex, 16).ok()?, 4 * hex.len() as u32))
            }
        }
        Sexpr::List(items) => match items.as_slice() {
            [Sexpr::Atom(underscore), Sexpr::Atom(bv), Sexpr::Atom(width)] if underscore == "_" => {
                let value = bv.strip_prefix("bv")?.parse().ok()?;
                Some((value, width.parse().ok()?))
            }
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str) -> Vec<Sexpr> {
        let mut input = text.as_bytes();
        std::iter::from_fn(|| read(&mut input).unwrap()).collect()
    }

    #[test]
    fn reads_atoms_and_nested_lists_across_lines() {
        let exprs = read_all("sat\n((x #x05)\n (|a b| (_ bv3 8)))\n(error \"x (y\")");
        assert_eq!(exprs.len(), 3);
        assert_eq!(exprs[0], Sexpr::Atom("sat".into()));
        assert_eq!(exprs[1].to_string(), "((x #x05) (|a b| (_ bv3 8)))");
        assert_eq!(exprs[2].as_list().unwrap()[1].as_atom(), Some("\"x (y\""));
    }

    #[test]
    fn parses_values_of_every_literal_form() {
        let bv = |text: &str, width| parse_value(&read_all(text)[0], Sort::Bv(width));
        assert_eq!(
            bv("#x0f", 8),
            Ok(Value::Bv {
                width: 8,
                value: 15
            })
        );
        assert_eq!(bv("#b101", 3), Ok(Value::Bv { width: 3, value: 5 }));
        assert_eq!(bv("(_ bv7 5)", 5), Ok(Value::Bv { width: 5, value: 7 }));
        assert!(bv("#x0f", 4).is_err());
        let ones = "#xffffffffffffffff";
        assert_eq!(
            bv(ones, 64),
            Ok(Value::Bv {
                width: 64,
                value: u64::MAX
            })
        );
        let t = parse_value(&Sexpr::Atom("true".into()), Sort::Bool);
        assert_eq!(t, Ok(Value::Bool(true)));
    }
}
