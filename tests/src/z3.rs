//! One long-lived `z3 -in` process, driven interactively over pipes: the
//! reference solver of the differential test and the benchmark.

use crate::sexpr::{self, Sexpr};
use std::collections::BTreeSet;
use std::fmt;
use std::io::{self, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::rc::Rc;
use symplay_engine::expr::{ArrayValue, Model, Node, Sort, TermId, TermStore, Value};

/// Per-query time limit inside z3, so a hard query shows up as `unknown`
/// instead of hanging the run.
const QUERY_TIMEOUT_MS: u32 = 20_000;

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
            let answer = self.read_response()?;
            match answer.as_atom() {
                Some("sat") => break Self::unless_errors(errors, Z3Answer::Sat),
                Some("unsat") => break Self::unless_errors(errors, Z3Answer::Unsat),
                Some("unknown") => break Self::unless_errors(errors, Z3Answer::Unknown),
                _ if is_error(&answer) => errors.push(answer.to_string()),
                _ => return Err(Z3Error(format!("unexpected answer from z3: {answer}"))),
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

    /// The values of SMT-LIB terms in the current model, in order.
    pub fn get_values(&mut self, terms: &[String]) -> Result<Vec<Sexpr>, Z3Error> {
        if terms.is_empty() {
            return Ok(Vec::new());
        }
        self.send(&format!("(get-value ({}))", terms.join(" ")))?;
        self.input.flush()?;
        let answer = self.read_response()?;
        let pairs = answer
            .as_list()
            .filter(|_| !is_error(&answer))
            .ok_or_else(|| Z3Error(format!("get-value failed: {answer}")))?;
        if pairs.len() != terms.len() {
            return Err(Z3Error(format!(
                "get-value answered {} values for {} terms",
                pairs.len(),
                terms.len()
            )));
        }
        pairs
            .iter()
            .map(|pair| match pair.as_list() {
                Some([_, value]) => Ok(value.clone()),
                _ => Err(Z3Error(format!("malformed get-value pair: {pair}"))),
            })
            .collect()
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
        let names: Vec<String> = scalars
            .iter()
            .map(|&s| store.to_smtlib(store.symbol_term(s)))
            .collect();
        let mut model = Model::new();
        for ((&s, _), value) in scalars.iter().zip(&names).zip(self.get_values(&names)?) {
            let value = sexpr::parse_value(&value, store.symbol_sort(s)).map_err(Z3Error)?;
            model.set(s, value);
        }
        let indices: BTreeSet<TermId> = store
            .reachable(roots)
            .into_iter()
            .filter_map(|t| match *store.node(t) {
                Node::Select(_, index) => Some(index),
                _ => None,
            })
            .collect();
        for s in symbols {
            if store.symbol_sort(s) != Sort::Array {
                continue;
            }
            let array = store.to_smtlib(store.symbol_term(s));
            let mut queries = Vec::new();
            for &index in &indices {
                let index = store.to_smtlib(index);
                queries.push(format!("(select {array} {index})"));
                queries.push(index);
            }
            let values = self.get_values(&queries)?;
            let mut contents = ArrayValue::default();
            for pair in values.chunks(2) {
                let read = |v: &Sexpr, width| match sexpr::parse_value(v, Sort::Bv(width)) {
                    Ok(Value::Bv { value, .. }) => Ok(value),
                    Ok(_) => unreachable!("a bit-vector sort gives a bit-vector value"),
                    Err(e) => Err(Z3Error(e)),
                };
                contents.set(read(&pair[1], 32)? as u32, read(&pair[0], 8)? as u8);
            }
            model.set(s, Value::Array(Rc::new(contents)));
        }
        Ok(model)
    }

    fn read_response(&mut self) -> Result<Sexpr, Z3Error> {
        sexpr::read(&mut self.output)?.ok_or_else(|| Z3Error("z3 exited unexpectedly".to_string()))
    }
}

fn is_error(answer: &Sexpr) -> bool {
    matches!(answer.as_list(), Some([Sexpr::Atom(head), ..]) if head == "error")
}

impl Drop for Z3 {
    fn drop(&mut self) {
        let _ = self.send("(exit)");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}
