//! One long-lived `z3 -in` process, driven interactively over pipes: the
//! reference solver of the differential test and the benchmark.
//!
//! z3's answers are read with the engine's SMT-LIB reader
//! ([`symplay_engine::smtlib::Reader`]), the one that reads our own scripts.

use std::collections::BTreeSet;
use std::fmt;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::rc::Rc;
use symplay_engine::expr::{
    value_to_smtlib, ArrayValue, Model, Node, Sort, TermId, TermStore, Value,
};
use symplay_engine::smtlib::{Reader, SExprId, SExprs, TokenKind};

/// Per-query time limit inside z3, so a hard query shows up as `unknown`
/// instead of hanging the run.
const QUERY_TIMEOUT_MS: u32 = 20_000;

/// The most values of a forall's range at which a model reads the arrays.
const MAX_RANGE_READ: u64 = 1 << 12;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Z3Answer {
    Sat,
    Unsat,
    Unknown,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Z3Error(pub String);

impl fmt::Display for Z3Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Z3Error {}

impl From<io::Error> for Z3Error {
    fn from(e: io::Error) -> Z3Error {
        Z3Error(format!("talking to z3 failed: {e}"))
    }
}

/// The message for a machine without z3.
pub const Z3_MISSING: &str =
    "z3 is not installed (no `z3` on PATH); install the Debian package: apt-get install z3";

pub struct Z3 {
    child: Child,
    input: BufWriter<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl Z3 {
    /// Starts `z3 -in` with model production on.
    pub fn start() -> Result<Z3, Z3Error> {
        let mut child = Command::new("z3")
            .arg("-in")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| match e.kind() {
                io::ErrorKind::NotFound => Z3Error(Z3_MISSING.to_string()),
                _ => Z3Error(format!("cannot start z3: {e}")),
            })?;
        let input = BufWriter::new(child.stdin.take().expect("piped stdin"));
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut z3 = Z3 {
            child,
            input,
            output,
        };
        z3.send_options()?;
        Ok(z3)
    }

    fn send_options(&mut self) -> Result<(), Z3Error> {
        self.send("(set-option :produce-models true)")?;
        self.send(&format!("(set-option :timeout {QUERY_TIMEOUT_MS})"))
    }

    /// Sends commands that print nothing on success; an error they cause is
    /// reported by the next command that reads an answer.
    pub fn send(&mut self, commands: &str) -> Result<(), Z3Error> {
        self.input.write_all(commands.as_bytes())?;
        self.input.write_all(b"\n")?;
        Ok(())
    }

    fn push(&mut self) -> Result<(), Z3Error> {
        self.send("(push 1)")
    }

    fn pop(&mut self) -> Result<(), Z3Error> {
        self.send("(pop 1)")
    }

    /// Runs `body` between `(push 1)` and `(pop 1)`, popping even when it fails.
    pub fn in_scope<T>(
        &mut self,
        body: impl FnOnce(&mut Z3) -> Result<T, Z3Error>,
    ) -> Result<T, Z3Error> {
        self.push()?;
        let result = body(self);
        self.pop()?;
        result
    }

    /// Forgets every declaration, assertion and option, for running a
    /// self-contained script (which may set the logic) next.
    pub fn reset(&mut self) -> Result<(), Z3Error> {
        self.send("(reset)")?;
        self.send_options()
    }

    /// Declares the symbols of `terms` (inside the current scope).
    pub fn declare(&mut self, store: &TermStore, terms: &[TermId]) -> Result<(), Z3Error> {
        self.send(&store.declarations(terms))
    }

    /// Asserts each boolean term of `terms`.
    pub fn assert_terms(&mut self, store: &TermStore, terms: &[TermId]) -> Result<(), Z3Error> {
        for &t in terms {
            self.send(&format!("(assert {})", store.to_smtlib(t)))?;
        }
        Ok(())
    }

    pub fn check_sat(&mut self) -> Result<Z3Answer, Z3Error> {
        self.send("(check-sat)")?;
        self.read_check_sat_answer()
    }

    /// Reads the answer of a `(check-sat)` already sent. Errors printed by
    /// commands before it fail the call (after the answer is consumed, so
    /// the stream stays in step).
    pub fn read_check_sat_answer(&mut self) -> Result<Z3Answer, Z3Error> {
        self.input.flush()?;
        let mut errors = Vec::new();
        loop {
            let answer = self.read_answer(|sx, answer| match sx.symbol(answer) {
                Some("sat") => Ok(Some(Z3Answer::Sat)),
                Some("unsat") => Ok(Some(Z3Answer::Unsat)),
                Some("unknown") => Ok(Some(Z3Answer::Unknown)),
                _ if is_error(sx, answer) => {
                    errors.push(sx.text(answer).to_string());
                    Ok(None)
                }
                _ => Err(Z3Error(format!(
                    "unexpected answer from z3: {}",
                    sx.text(answer)
                ))),
            })?;
            if let Some(answer) = answer {
                break Self::unless_errors(errors, answer);
            }
        }
    }

    fn unless_errors<T>(errors: Vec<String>, value: T) -> Result<T, Z3Error> {
        if errors.is_empty() {
            Ok(value)
        } else {
            Err(Z3Error(format!("z3 reported: {}", errors.join("; "))))
        }
    }

    /// The values of SMT-LIB terms, each of the sort paired with it, in the
    /// current model, in order.
    pub fn get_values(&mut self, terms: &[(String, Sort)]) -> Result<Vec<Value>, Z3Error> {
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        let texts: Vec<&str> = terms.iter().map(|(text, _)| text.as_str()).collect();
        self.send(&format!("(get-value ({}))", texts.join(" ")))?;
        self.input.flush()?;
        self.read_answer(|sx, answer| {
            let pairs = sx
                .list(answer)
                .filter(|_| !is_error(sx, answer))
                .ok_or_else(|| Z3Error(format!("get-value failed: {}", sx.text(answer))))?;
            if pairs.len() != terms.len() {
                return Err(Z3Error(format!(
                    "get-value answered {} values for {} terms",
                    pairs.len(),
                    terms.len()
                )));
            }
            pairs
                .iter()
                .zip(terms)
                .map(|(&pair, &(_, sort))| match sx.list(pair) {
                    Some(&[_, value]) => parse_value(sx, value, sort).map_err(Z3Error),
                    _ => Err(Z3Error(format!(
                        "malformed get-value pair: {}",
                        sx.text(pair)
                    ))),
                })
                .collect()
        })
    }

    /// z3's current model, as a Symplay model of the symbols of `roots`.
    ///
    /// Arrays are read element by element rather than as whole values (z3
    /// may print those as `(_ as-array k!0)`): an array symbol only matters at
    /// the indices the terms select, so the model holds its value at each
    /// select index of `roots` and zero elsewhere.
    pub fn model(&mut self, store: &TermStore, roots: &[TermId]) -> Result<Model, Z3Error> {
        let symbols = store.symbols_in(roots);
        let scalars: Vec<_> = symbols
            .iter()
            .copied()
            .filter(|&s| store.symbol_sort(s) != Sort::Array)
            .collect();
        let names: Vec<(String, Sort)> = scalars
            .iter()
            .map(|&s| (store.to_smtlib(store.symbol_term(s)), store.symbol_sort(s)))
            .collect();
        let mut model = Model::new();
        for (&s, value) in scalars.iter().zip(self.get_values(&names)?) {
            model.set(s, value);
        }
        let indices = self.read_indices(store, roots)?;
        for s in symbols {
            if store.symbol_sort(s) != Sort::Array {
                continue;
            }
            let array = store.to_smtlib(store.symbol_term(s));
            let mut queries = Vec::new();
            for index in &indices {
                queries.push((format!("(select {array} {index})"), Sort::Bv(8)));
                queries.push((index.clone(), Sort::Bv(32)));
            }
            let values = self.get_values(&queries)?;
            let mut contents = ArrayValue::default();
            for pair in values.chunks(2) {
                match pair {
                    [Value::Bv { value: element, .. }, Value::Bv { value: index, .. }] => {
                        contents.set(*index as u32, *element as u8)
                    }
                    _ => unreachable!("bit-vector sorts give bit-vector values"),
                }
            }
            model.set(s, Value::Array(Rc::new(contents)));
        }
        Ok(model)
    }

    /// The SMT-LIB text of every index `roots` read an array at. An index
    /// under a forall is read at each value of its forall's range (as z3
    /// gives the bounds under its model), its variable `let`-bound to it.
    fn read_indices(
        &mut self,
        store: &TermStore,
        roots: &[TermId],
    ) -> Result<BTreeSet<String>, Z3Error> {
        let reachable = store.reachable(roots);
        let mut indices: BTreeSet<String> = reachable
            .iter()
            .filter_map(|&t| match *store.node(t) {
                Node::Select(_, index) if !store.is_open(index) => Some(store.to_smtlib(index)),
                _ => None,
            })
            .collect();
        let variable = store.bound_name();
        for &t in &reachable {
            let Node::Forall(lo, hi, body) = *store.node(t) else {
                continue;
            };
            let open: Vec<String> = store
                .reachable(&[body])
                .into_iter()
                .filter_map(|t| match *store.node(t) {
                    Node::Select(_, index) if store.is_open(index) => Some(store.to_smtlib(index)),
                    _ => None,
                })
                .collect();
            if open.is_empty() {
                continue;
            }
            let bounds = [lo, hi].map(|b| (store.to_smtlib(b), store.sort(b)));
            let values = self.get_values(&bounds)?;
            let [Value::Bv { width, value: lo }, Value::Bv { value: hi, .. }] = values[..] else {
                unreachable!("a forall's bounds are bit-vectors");
            };
            for i in lo..=hi.min(lo.saturating_add(MAX_RANGE_READ)) {
                let value = value_to_smtlib(&Value::Bv { width, value: i });
                for index in &open {
                    indices.insert(format!("(let (({variable} {value})) {index})"));
                }
            }
        }
        Ok(indices)
    }

    /// Reads z3's next answer and hands it to `read`.
    fn read_answer<T>(
        &mut self,
        read: impl FnOnce(&SExprs, SExprId) -> Result<T, Z3Error>,
    ) -> Result<T, Z3Error> {
        read_answer(&mut self.output, read)
    }
}

/// Reads one answer off `input` and hands it to `read`. z3 answers line by
/// line, but a value list or model may span lines, and string literals and
/// `|quoted symbols|` may hold parentheses or line breaks: lines are added
/// until the engine's reader finds a complete S-expression in them.
fn read_answer<T>(
    input: &mut impl BufRead,
    read: impl FnOnce(&SExprs, SExprId) -> Result<T, Z3Error>,
) -> Result<T, Z3Error> {
    let mut text = String::new();
    loop {
        if input.read_line(&mut text)? == 0 {
            return Err(Z3Error(if text.trim().is_empty() {
                "z3 exited unexpectedly".to_string()
            } else {
                format!("z3 exited in the middle of an answer: {}", text.trim_end())
            }));
        }
        let bad = |e| {
            Z3Error(format!(
                "cannot read z3's answer {:?}: {e}",
                text.trim_end()
            ))
        };
        let mut reader = Reader::new(&text);
        match reader.next_expr() {
            Ok(Some((sx, answer))) => {
                if let Some((rest, extra)) = reader.next_expr().map_err(bad)? {
                    return Err(Z3Error(format!(
                        "z3 printed '{}' after its answer '{}' on one line",
                        rest.text(extra),
                        sx.text(answer)
                    )));
                }
                return read(&sx, answer);
            }
            // Blank lines, or an answer that goes on past this line.
            Ok(None) => {}
            Err(e) if e.is_incomplete() => {}
            Err(e) => return Err(bad(e)),
        }
    }
}

fn is_error(sx: &SExprs, answer: SExprId) -> bool {
    matches!(sx.list(answer), Some(&[head, ..]) if sx.symbol(head) == Some("error"))
}

/// The value `expr` denotes, which must be of `sort`: `true`/`false`, or a
/// bit-vector written `#b...`, `#x...` or `(_ bvN w)`.
fn parse_value(sx: &SExprs, expr: SExprId, sort: Sort) -> Result<Value, String> {
    let bad = || format!("cannot read {} as a {sort:?} value", sx.snippet(expr));
    match sort {
        Sort::Bool => match sx.symbol(expr) {
            Some("true") => Ok(Value::Bool(true)),
            Some("false") => Ok(Value::Bool(false)),
            _ => Err(bad()),
        },
        Sort::Bv(width) => match parse_bv(sx, expr) {
            Some((value, found_width)) if found_width == u64::from(width) => {
                Ok(Value::Bv { width, value })
            }
            _ => Err(bad()),
        },
        Sort::Array => Err(format!(
            "array values are read element by element, not from {}",
            sx.snippet(expr)
        )),
    }
}

/// A bit-vector literal's value and width.
fn parse_bv(sx: &SExprs, expr: SExprId) -> Option<(u64, u64)> {
    let Some(items) = sx.list(expr) else {
        let (digits, radix, bits_per_digit) = match sx.atom(expr)? {
            TokenKind::Binary(digits) => (digits, 2, 1),
            TokenKind::Hex(digits) => (digits, 16, 4),
            _ => return None,
        };
        let value = u64::from_str_radix(digits, radix).ok()?;
        return Some((value, bits_per_digit * digits.len() as u64));
    };
    match *items {
        [underscore, bv, width] if sx.symbol(underscore) == Some("_") => {
            let value = sx.symbol(bv)?.strip_prefix("bv")?.parse().ok()?;
            Some((value, sx.numeral(width)?))
        }
        _ => None,
    }
}

impl Drop for Z3 {
    fn drop(&mut self) {
        let _ = self.send("(exit)");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every answer of `text`, each as its source text.
    fn read_all(text: &str) -> Result<Vec<String>, Z3Error> {
        let mut input = text.as_bytes();
        let mut answers = Vec::new();
        while !input.is_empty() {
            answers.push(read_answer(&mut input, |sx, answer| {
                Ok(sx.text(answer).to_string())
            })?);
        }
        Ok(answers)
    }

    #[test]
    fn reads_atoms_and_lists_across_lines() {
        let answers =
            read_all("sat\n((x #x05)\n (|a) b| (_ bv3 8)))\n(error \"x (y\n z\")\n\nunsat\n")
                .unwrap();
        assert_eq!(
            answers,
            [
                "sat",
                "((x #x05)\n (|a) b| (_ bv3 8)))",
                "(error \"x (y\n z\")",
                "unsat"
            ]
        );
    }

    #[test]
    fn malformed_or_truncated_answers_are_errors() {
        let error = |text: &str| read_all(text).unwrap_err().to_string();
        assert_eq!(
            error("(x))\n"),
            "cannot read z3's answer \"(x))\": 1:4: unbalanced parentheses: ')' has no matching '('"
        );
        assert_eq!(
            error("sat unsat\n"),
            "z3 printed 'unsat' after its answer 'sat' on one line"
        );
        assert_eq!(
            error("((x #x05)\n"),
            "z3 exited in the middle of an answer: ((x #x05)"
        );
        assert_eq!(error("\n"), "z3 exited unexpectedly");
    }

    fn value(text: &str, sort: Sort) -> Result<Value, String> {
        let (sx, expr) = Reader::new(text).next_expr().unwrap().unwrap();
        parse_value(&sx, expr, sort)
    }

    #[test]
    fn parses_values_of_every_literal_form() {
        let bv = |value, width| Ok(Value::Bv { width, value });
        assert_eq!(value("#x0f", Sort::Bv(8)), bv(15, 8));
        assert_eq!(value("#b101", Sort::Bv(3)), bv(5, 3));
        assert_eq!(value("(_ bv7 5)", Sort::Bv(5)), bv(7, 5));
        assert_eq!(value("#xffffffffffffffff", Sort::Bv(64)), bv(u64::MAX, 64));
        assert_eq!(value("true", Sort::Bool), Ok(Value::Bool(true)));
        assert_eq!(value("false", Sort::Bool), Ok(Value::Bool(false)));
        assert_eq!(
            value("#x0f", Sort::Bv(4)),
            Err("cannot read #x0f as a Bv(4) value".to_string())
        );
        assert!(value("(_ bv7 5)", Sort::Bv(6)).is_err());
        assert!(value("(_ bvx 5)", Sort::Bv(5)).is_err());
        assert!(value("#b1", Sort::Bool).is_err());
        assert!(value("|true|", Sort::Bv(1)).is_err());
        assert_eq!(
            value("(_ as-array k!0)", Sort::Array),
            Err("array values are read element by element, not from (_ as-array k!0)".to_string())
        );
    }
}
