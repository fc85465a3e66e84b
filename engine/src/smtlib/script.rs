//! Runs SMT-LIB2 commands and writes their responses, as z3 prints them, to
//! an output buffer.

use super::builtins::is_reserved;
use super::context::{Binding, Context, Definition};
use super::error::{Error, Pos};
use super::lexer::TokenKind;
use super::run::{Answer, RunOptions, ScriptOutput};
use super::sexpr::{Reader, SExprId, SExprs};
use super::sorts::parse_sort;
use super::term::Elaborator;
use crate::expr::{quote_symbol, sort_to_smtlib, value_to_smtlib, Model, Sort, TermId, TermStore};
use crate::solver::{Budget, SolveResult, Solver};
use std::fmt::Write;
use std::rc::Rc;
use web_time::Duration;

/// Whether a script may go on after a call to [`Script::execute`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// The text ended; more commands may follow in a later call.
    Continue,
    /// The script ran `(exit)`.
    Exit,
}

/// The logics whose terms this front end covers.
const LOGICS: &[&str] = &["QF_BV", "QF_ABV", "QF_AUFBV", "BV", "ABV", "AUFBV", "ALL"];

/// Standard commands this front end does not implement.
const UNSUPPORTED_COMMANDS: &[&str] = &[
    "declare-sort",
    "define-sort",
    "define-fun-rec",
    "define-funs-rec",
    "declare-datatype",
    "declare-datatypes",
    "get-assertions",
    "get-assignment",
    "get-option",
    "get-proof",
    "get-unsat-assumptions",
    "get-unsat-core",
];

/// An interpreter for SMT-LIB2 scripts. It keeps its term store, solver and
/// scoped declarations between calls to [`Script::execute`], so a script can
/// arrive in pieces.
pub struct Script {
    store: TermStore,
    solver: Solver,
    context: Context,
    /// The budget the caller allows each `check-sat`.
    budget: Budget,
    print_success: bool,
    /// The script's own `:timeout`.
    timeout: Option<Duration>,
    /// The model of the last `check-sat`, while it still describes the assertions.
    model: Option<Model>,
    /// Why the last `check-sat` answered `unknown`, if it did.
    reason_unknown: Option<String>,
    output: ScriptOutput,
}

impl Script {
    pub fn new(options: &RunOptions) -> Script {
        Script {
            store: TermStore::new(),
            solver: Solver::new(options.solver.clone()),
            context: Context::default(),
            budget: options.solver.budget,
            print_success: false,
            timeout: None,
            model: None,
            reason_unknown: None,
            output: ScriptOutput::default(),
        }
    }

    /// Runs the commands of `text` in order, until its end, `(exit)` or the
    /// first error. Positions in errors and responses are relative to `text`.
    pub fn execute(&mut self, text: &str) -> Result<Flow, Error> {
        let mut reader = Reader::new(text);
        while let Some((sx, command)) = reader.next_command()? {
            if self.command(&sx, command)? == Flow::Exit {
                return Ok(Flow::Exit);
            }
        }
        Ok(Flow::Continue)
    }

    /// The responses so far, with the solver's statistics; the buffer starts
    /// empty again.
    pub fn take_output(&mut self) -> ScriptOutput {
        let mut output = std::mem::take(&mut self.output);
        output.stats = *self.solver.stats();
        output
    }

    fn command(&mut self, sx: &SExprs, command: SExprId) -> Result<Flow, Error> {
        let pos = sx.pos(command);
        let items = sx.list(command).expect("the reader returns lists");
        let Some((&head, args)) = items.split_first() else {
            return Err(Error::at(pos, "empty command '()'"));
        };
        let name = sx.expect_symbol(head, "a command name")?;
        let malformed = |usage: &str| {
            Error::at(
                pos,
                format!(
                    "malformed {name}: expected {usage}, got '{}'",
                    sx.snippet(command)
                ),
            )
        };
        match (name, args) {
            ("set-logic", &[logic]) => self.set_logic(sx, logic)?,
            ("set-logic", _) => return Err(malformed("(set-logic LOGIC)")),
            ("set-option", &[key, value]) => self.set_option(sx, key, value)?,
            ("set-option", _) => return Err(malformed("(set-option :KEYWORD VALUE)")),
            ("set-info", [key, ..]) if sx.keyword(*key).is_some() && args.len() <= 2 => {
                self.success()
            }
            ("set-info", _) => return Err(malformed("(set-info :KEYWORD VALUE)")),
            ("get-info", &[key]) => self.get_info(sx, key)?,
            ("get-info", _) => return Err(malformed("(get-info :KEYWORD)")),
            ("declare-const", &[symbol, sort]) => {
                let sort = parse_sort(sx, sort)?;
                self.declare(sx, symbol, sort)?;
            }
            ("declare-const", _) => return Err(malformed("(declare-const NAME SORT)")),
            ("declare-fun", &[symbol, params, sort]) => {
                let params = sx.expect_list(params, "a list of argument sorts")?;
                if !params.is_empty() {
                    return Err(Error::at(
                        pos,
                        format!(
                            "declare-fun '{}' has arguments: uninterpreted functions are not supported",
                            sx.snippet(symbol)
                        ),
                    ));
                }
                let sort = parse_sort(sx, sort)?;
                self.declare(sx, symbol, sort)?;
            }
            ("declare-fun", _) => return Err(malformed("(declare-fun NAME () SORT)")),
            ("define-fun", &[symbol, params, sort, body]) => {
                self.define_fun(sx, symbol, params, sort, body)?
            }
            ("define-fun", _) => {
                return Err(malformed("(define-fun NAME ((PARAM SORT) ...) SORT BODY)"))
            }
            ("assert", &[term]) => {
                let t = self.boolean_term(sx, term, "assert")?;
                self.context.assert(t);
                self.model = None;
                self.success();
            }
            ("assert", _) => return Err(malformed("(assert TERM)")),
            ("check-sat", []) => self.check_sat(&[]),
            ("check-sat", _) => return Err(malformed("(check-sat)")),
            ("check-sat-assuming", &[assumptions]) => {
                let assumptions = sx.expect_list(assumptions, "a list of assumptions")?;
                let terms = assumptions
                    .iter()
                    .map(|&a| self.boolean_term(sx, a, "check-sat-assuming"))
                    .collect::<Result<Vec<_>, _>>()?;
                self.check_sat(&terms);
            }
            ("check-sat-assuming", _) => return Err(malformed("(check-sat-assuming (TERM ...))")),
            ("get-model", []) => self.get_model(pos),
            ("get-model", _) => return Err(malformed("(get-model)")),
            ("get-value", &[terms]) => self.get_value(sx, pos, terms)?,
            ("get-value", _) => return Err(malformed("(get-value (TERM ...))")),
            ("push" | "pop", []) => self.push_or_pop(name, 1, pos)?,
            ("push" | "pop", &[count]) => {
                let count = sx.numeral(count).ok_or_else(|| {
                    Error::at(
                        sx.pos(count),
                        format!("{name} expects a numeral, got '{}'", sx.snippet(count)),
                    )
                })?;
                self.push_or_pop(name, count, pos)?;
            }
            ("push" | "pop", _) => return Err(malformed(&format!("({name} N)"))),
            // Options survive a reset, as in z3; terms stay in the store,
            // where nothing refers to them any more.
            ("reset", []) => {
                self.context = Context::default();
                self.model = None;
                self.reason_unknown = None;
                self.success();
            }
            ("reset-assertions", []) => {
                self.context.reset_assertions();
                self.model = None;
                self.success();
            }
            ("reset" | "reset-assertions", _) => return Err(malformed(&format!("({name})"))),
            ("echo", &[message]) => match sx.atom(message) {
                // z3 prints the string's characters, without quotes or escapes.
                Some(TokenKind::Str(s)) => {
                    self.output.text.push_str(s);
                    self.output.text.push('\n');
                }
                _ => return Err(malformed("(echo \"STRING\")")),
            },
            ("echo", _) => return Err(malformed("(echo \"STRING\")")),
            ("exit", []) => {
                self.success();
                return Ok(Flow::Exit);
            }
            ("exit", _) => return Err(malformed("(exit)")),
            _ if UNSUPPORTED_COMMANDS.contains(&name) => {
                return Err(Error::at(pos, format!("unsupported command '{name}'")))
            }
            _ => return Err(Error::at(sx.pos(head), format!("unknown command '{name}'"))),
        }
        Ok(Flow::Continue)
    }

    fn success(&mut self) {
        if self.print_success {
            self.output.text.push_str("success\n");
        }
    }

    /// An `unsupported` response: a warning, and the answer under `:print-success`.
    fn unsupported(&mut self, pos: Pos, what: String, always_answer: bool) {
        self.output
            .warnings
            .push(format!("{pos}: unsupported {what}, ignored"));
        if always_answer || self.print_success {
            self.output.text.push_str("unsupported\n");
        }
    }

    /// A z3 `(error ...)` response after which the script goes on.
    fn error_line(&mut self, pos: Pos, message: &str) {
        let _ = writeln!(
            self.output.text,
            "(error \"line {} column {}: {}\")",
            pos.line,
            pos.col,
            message.replace('"', "\"\"")
        );
        self.output.error_lines += 1;
    }

    fn set_logic(&mut self, sx: &SExprs, logic: SExprId) -> Result<(), Error> {
        let name = sx.expect_symbol(logic, "a logic name")?;
        if !LOGICS.contains(&name) {
            return Err(Error::at(
                sx.pos(logic),
                format!(
                    "unsupported logic '{name}': Symplay handles QF_BV, QF_ABV, and QF_AUFBV or ALL \
                     without uninterpreted functions, and BV, ABV or AUFBV with bounded foralls"
                ),
            ));
        }
        self.context.logic = Some(name.to_string()).filter(|n| n.starts_with("QF_"));
        self.success();
        Ok(())
    }

    fn set_option(&mut self, sx: &SExprs, key: SExprId, value: SExprId) -> Result<(), Error> {
        let keyword = sx.keyword(key).ok_or_else(|| {
            Error::at(
                sx.pos(key),
                format!("expected an option keyword, got '{}'", sx.snippet(key)),
            )
        })?;
        let bad_value = |expected: &str| {
            Error::at(
                sx.pos(value),
                format!(
                    "option {keyword} expects {expected}, got '{}'",
                    sx.snippet(value)
                ),
            )
        };
        let boolean = || match sx.symbol(value) {
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            _ => Err(bad_value("true or false")),
        };
        let numeral = || sx.numeral(value).ok_or_else(|| bad_value("a numeral"));
        match keyword {
            ":print-success" => self.print_success = boolean()?,
            // Models are always kept; the option is accepted for compatibility.
            ":produce-models" => {
                boolean()?;
            }
            // Milliseconds; 0 means no limit.
            ":timeout" => {
                self.timeout = Some(numeral()?)
                    .filter(|&ms| ms > 0)
                    .map(Duration::from_millis);
            }
            // The solver is deterministic: seeds and verbosity change nothing.
            ":random-seed" | ":verbosity" => {
                numeral()?;
            }
            _ => {
                self.unsupported(sx.pos(key), format!("option '{keyword}'"), false);
                return Ok(());
            }
        }
        self.success();
        Ok(())
    }

    fn get_info(&mut self, sx: &SExprs, key: SExprId) -> Result<(), Error> {
        let keyword = sx.keyword(key).ok_or_else(|| {
            Error::at(
                sx.pos(key),
                format!("expected an info keyword, got '{}'", sx.snippet(key)),
            )
        })?;
        let response = match keyword {
            ":name" => "(:name \"Symplay\")".to_string(),
            ":version" => format!("(:version \"{}\")", env!("CARGO_PKG_VERSION")),
            ":error-behavior" => "(:error-behavior immediate-exit)".to_string(),
            ":reason-unknown" => match &self.reason_unknown {
                Some(reason) => format!("(:reason-unknown \"{}\")", reason.replace('"', "\"\"")),
                None => {
                    self.error_line(
                        sx.pos(key),
                        "no reason-unknown: the last check-sat did not answer unknown",
                    );
                    return Ok(());
                }
            },
            _ => {
                self.unsupported(sx.pos(key), format!("info '{keyword}'"), true);
                return Ok(());
            }
        };
        self.output.text.push_str(&response);
        self.output.text.push('\n');
        Ok(())
    }

    /// Declares the constant `symbol` of `sort` in the current scope.
    fn declare(&mut self, sx: &SExprs, symbol: SExprId, sort: Sort) -> Result<(), Error> {
        let name = self.new_name(sx, symbol)?;
        // The store's symbols outlive scopes: a name used before (popped, or
        // a parameter) gets a new store symbol, so it never aliases the old one.
        let term = match self.store.symbol_named(name) {
            None => self
                .store
                .declare(name, sort)
                .map_err(|e| Error::at(sx.pos(symbol), e.0))?,
            Some(_) => self.store.fresh(name, sort),
        };
        self.bind(sx, symbol, Binding::Constant(term))?;
        self.success();
        Ok(())
    }

    /// The symbol at `symbol`, checked to be free for a new declaration.
    fn new_name<'s>(&self, sx: &'s SExprs, symbol: SExprId) -> Result<&'s str, Error> {
        let name = sx.expect_symbol(symbol, "a symbol")?;
        if is_reserved(name) {
            return Err(Error::at(
                sx.pos(symbol),
                format!("cannot declare '{name}': it is a reserved or built-in symbol"),
            ));
        }
        if self.context.lookup(name).is_some() {
            return Err(Error::at(
                sx.pos(symbol),
                format!("symbol '{name}' is already declared"),
            ));
        }
        Ok(name)
    }

    fn bind(&mut self, sx: &SExprs, symbol: SExprId, binding: Binding) -> Result<(), Error> {
        let name = sx.expect_symbol(symbol, "a symbol")?;
        self.context
            .bind(name, binding)
            .map_err(|message| Error::at(sx.pos(symbol), message))
    }

    fn define_fun(
        &mut self,
        sx: &SExprs,
        symbol: SExprId,
        params: SExprId,
        sort: SExprId,
        body: SExprId,
    ) -> Result<(), Error> {
        let name = self.new_name(sx, symbol)?;
        let mut bound: Vec<(String, TermId)> = Vec::new();
        for &param in sx.expect_list(params, "a list of parameters")? {
            let shape_error = || {
                Error::at(
                    sx.pos(param),
                    format!(
                        "expected a parameter (name sort), got '{}'",
                        sx.snippet(param)
                    ),
                )
            };
            let &[param_name, param_sort] = sx.list(param).ok_or_else(shape_error)? else {
                return Err(shape_error());
            };
            let param_name = sx.expect_symbol(param_name, "a parameter name")?;
            if bound.iter().any(|(n, _)| n == param_name) {
                return Err(Error::at(
                    sx.pos(param),
                    format!("define-fun '{name}' has two parameters named '{param_name}'"),
                ));
            }
            let param_sort = parse_sort(sx, param_sort)?;
            let placeholder = self.store.fresh(param_name, param_sort);
            bound.push((param_name.to_string(), placeholder));
        }
        let declared = parse_sort(sx, sort)?;
        let body_term =
            Elaborator::with_params(&mut self.store, &mut self.context, &bound).term(sx, body)?;
        let actual = self.store.sort(body_term);
        if actual != declared {
            return Err(Error::at(
                sx.pos(body),
                format!(
                    "define-fun '{name}' declares sort {} but its body has sort {}",
                    sort_to_smtlib(declared),
                    sort_to_smtlib(actual)
                ),
            ));
        }
        let definition = Definition {
            params: bound
                .into_iter()
                .map(|(_, placeholder)| placeholder)
                .collect(),
            body: body_term,
        };
        self.bind(sx, symbol, Binding::Function(Rc::new(definition)))?;
        self.success();
        Ok(())
    }

    fn term(&mut self, sx: &SExprs, id: SExprId) -> Result<TermId, Error> {
        Elaborator::new(&mut self.store, &mut self.context).term(sx, id)
    }

    fn boolean_term(&mut self, sx: &SExprs, id: SExprId, command: &str) -> Result<TermId, Error> {
        let t = self.term(sx, id)?;
        match self.store.sort(t) {
            Sort::Bool => Ok(t),
            other => Err(Error::at(
                sx.pos(id),
                format!(
                    "{command} expects a Bool term, got {}",
                    sort_to_smtlib(other)
                ),
            )),
        }
    }

    /// Checks the assertions together with `assumptions` and prints the answer.
    fn check_sat(&mut self, assumptions: &[TermId]) {
        let mut query = self.context.assertions().to_vec();
        query.extend_from_slice(assumptions);
        let timeout = match (self.budget.timeout, self.timeout) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.solver.set_budget(Budget {
            timeout,
            ..self.budget
        });
        let (answer, model, reason) = match self.solver.check(&mut self.store, &query) {
            SolveResult::Sat(model) => (Answer::Sat, Some(model), None),
            SolveResult::Unsat => (Answer::Unsat, None, None),
            SolveResult::Unknown(why) => (Answer::Unknown(why.clone()), None, Some(why)),
        };
        self.output.text.push_str(match answer {
            Answer::Sat => "sat\n",
            Answer::Unsat => "unsat\n",
            Answer::Unknown(_) => "unknown\n",
        });
        self.output.answers.push(answer);
        self.model = model;
        self.reason_unknown = reason;
    }

    /// Every constant in scope with its value, as z3 4.8 lays a model out.
    fn get_model(&mut self, pos: Pos) {
        let Some(model) = &self.model else {
            self.error_line(pos, "model is not available");
            return;
        };
        let mut text = String::from("(\n");
        for (name, term) in self.context.constants() {
            let _ = write!(
                text,
                "  (define-fun {} () {}\n    {})\n",
                quote_symbol(name),
                sort_to_smtlib(self.store.sort(term)),
                value_to_smtlib(&self.store.eval(term, model))
            );
        }
        text.push_str(")\n");
        self.output.text.push_str(&text);
    }

    /// The value of each term, each echoed as the script wrote it.
    fn get_value(&mut self, sx: &SExprs, pos: Pos, terms: SExprId) -> Result<(), Error> {
        if self.model.is_none() {
            self.error_line(pos, "model is not available");
            return Ok(());
        }
        let ids = sx.expect_list(terms, "a list of terms")?;
        if ids.is_empty() {
            return Err(Error::at(
                sx.pos(terms),
                "get-value expects at least one term",
            ));
        }
        let mut pairs = Vec::new();
        for &id in ids {
            let t = self.term(sx, id)?;
            pairs.push((sx.text(id), t));
        }
        let model = self.model.as_ref().expect("checked above");
        let mut text = String::new();
        for (i, (source, t)) in pairs.into_iter().enumerate() {
            let open = if i == 0 { "((" } else { " (" };
            let value = value_to_smtlib(&self.store.eval(t, model));
            let _ = write!(text, "{open}{source} {value})");
            text.push(if i + 1 == ids.len() { ')' } else { '\n' });
        }
        text.push('\n');
        self.output.text.push_str(&text);
        Ok(())
    }

    fn push_or_pop(&mut self, command: &str, count: u64, pos: Pos) -> Result<(), Error> {
        if command == "push" {
            self.context.push(count);
        } else {
            self.context
                .pop(count)
                .map_err(|message| Error::at(pos, message))?;
        }
        self.model = None;
        self.success();
        Ok(())
    }
}

#[cfg(test)]
impl Script {
    /// The term `text` denotes in the script's current scope.
    pub(super) fn parse_term(&mut self, text: &str) -> Result<TermId, Error> {
        let wrapped = format!("({text})");
        let mut reader = Reader::new(&wrapped);
        let (sx, list) = reader.next_command()?.expect("one list");
        let term = sx.list(list).expect("a list")[0];
        self.term(&sx, term)
    }

    pub(super) fn store_mut(&mut self) -> &mut TermStore {
        &mut self.store
    }
}
