//! Turns S-expressions into terms: symbols and literals, applications of
//! built-in and defined functions, `let`, `(! t :named n)` and bounded
//! `forall`s.
//!
//! Work goes through an explicit task stack rather than recursion, so deeply
//! nested terms (long `let` chains are common in generated benchmarks) take
//! heap, not stack.

use super::builtins::{is_reserved, Builtin};
use super::context::{Binding, Context, Definition};
use super::error::{Error, Pos};
use super::lexer::TokenKind;
use super::sexpr::{SExprId, SExprs};
use super::sorts::parse_sort;
use crate::expr::{mask, sort_to_smtlib, Node, Sort, TermId, TermStore, MAX_WIDTH};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// Binders and constructs of full SMT-LIB that these logics do not have.
const UNSUPPORTED_CONSTRUCTS: &[&str] = &["exists", "match", "par", "as"];

/// The one shape of `forall` the term language has: a bit-vector variable
/// over a range.
const FORALL_FRAGMENT: &str =
    "(forall ((i (_ BitVec w))) (=> (and (bvule lo i) (bvule i hi)) body)), with lo and hi not using i";

/// Elaborates terms against a script's context.
pub struct Elaborator<'a> {
    store: &'a mut TermStore,
    context: &'a mut Context,
    /// Let-bound variables and parameters in scope; a name's innermost
    /// binding is last.
    locals: FxHashMap<String, Vec<TermId>>,
    /// Placeholders of the parameters of the function being defined, which
    /// a named term must not contain.
    params: Vec<TermId>,
    /// Whether a forall's body is being elaborated: foralls do not nest.
    in_forall: bool,
}

/// What an application applies.
enum Head {
    Builtin(Builtin),
    Function(String, Rc<Definition>),
}

enum Task {
    /// Elaborate this S-expression and push its term.
    Term(SExprId),
    /// Pop `arity` terms and push `head` applied to them.
    Apply { head: Head, arity: usize, pos: Pos },
    /// Pop the values of a `let`'s bindings and bring its names into scope.
    Bind(SExprId),
    /// Take a `let`'s names out of scope again.
    Unbind(SExprId),
    /// Name the term on top of the stack.
    Name { name: String, pos: Pos },
    /// Pop a forall's bounds and body, push the forall, and take its
    /// variable out of scope.
    Forall { name: String, pos: Pos },
}

impl<'a> Elaborator<'a> {
    pub fn new(store: &'a mut TermStore, context: &'a mut Context) -> Elaborator<'a> {
        Elaborator {
            store,
            context,
            locals: FxHashMap::default(),
            params: Vec::new(),
            in_forall: false,
        }
    }

    /// An elaborator for the body of a function whose parameters are bound
    /// to the given placeholder symbols.
    pub fn with_params(
        store: &'a mut TermStore,
        context: &'a mut Context,
        params: &[(String, TermId)],
    ) -> Elaborator<'a> {
        let mut elaborator = Elaborator::new(store, context);
        for (name, placeholder) in params {
            elaborator
                .locals
                .entry(name.clone())
                .or_default()
                .push(*placeholder);
            elaborator.params.push(*placeholder);
        }
        elaborator
    }

    /// The term `root` denotes.
    pub fn term(&mut self, sx: &SExprs, root: SExprId) -> Result<TermId, Error> {
        let mut tasks = vec![Task::Term(root)];
        let mut values: Vec<TermId> = Vec::new();
        while let Some(task) = tasks.pop() {
            match task {
                Task::Term(id) => self.schedule(sx, id, &mut tasks, &mut values)?,
                Task::Apply { head, arity, pos } => {
                    let args = values.split_off(values.len() - arity);
                    values.push(self.apply(head, &args, pos)?);
                }
                Task::Bind(bindings) => {
                    let bindings = sx.list(bindings).expect("checked when scheduled");
                    let bound = values.split_off(values.len() - bindings.len());
                    for (&binding, value) in bindings.iter().zip(bound) {
                        let name = binding_name(sx, binding);
                        self.locals.entry(name.to_string()).or_default().push(value);
                    }
                }
                Task::Unbind(bindings) => {
                    for &binding in sx.list(bindings).expect("checked when scheduled") {
                        let name = binding_name(sx, binding);
                        if let Some(stack) = self.locals.get_mut(name) {
                            stack.pop();
                            if stack.is_empty() {
                                self.locals.remove(name);
                            }
                        }
                    }
                }
                Task::Name { name, pos } => {
                    let term = *values.last().expect("the named term was pushed");
                    self.name_term(&name, term, pos)?;
                }
                Task::Forall { name, pos } => {
                    let parts = values.split_off(values.len() - 3);
                    let forall = self.store.forall(parts[0], parts[1], parts[2]);
                    values.push(forall.map_err(|e| {
                        Error::at(pos, format!("{}: write {FORALL_FRAGMENT}", e.0))
                    })?);
                    if let Some(stack) = self.locals.get_mut(&name) {
                        stack.pop();
                        if stack.is_empty() {
                            self.locals.remove(&name);
                        }
                    }
                    self.in_forall = false;
                }
            }
        }
        Ok(values.pop().expect("the root term was pushed"))
    }

    /// Elaborates an atom at once, or schedules the tasks a list needs.
    fn schedule(
        &mut self,
        sx: &SExprs,
        id: SExprId,
        tasks: &mut Vec<Task>,
        values: &mut Vec<TermId>,
    ) -> Result<(), Error> {
        let pos = sx.pos(id);
        let Some(items) = sx.list(id) else {
            values.push(self.atom(sx, id)?);
            return Ok(());
        };
        let Some((&head, args)) = items.split_first() else {
            return Err(Error::at(pos, "empty application '()'"));
        };
        match sx.symbol(head) {
            Some("let") => {
                let bindings = check_let(sx, id, args)?;
                tasks.push(Task::Unbind(bindings));
                tasks.push(Task::Term(args[1]));
                tasks.push(Task::Bind(bindings));
                for &binding in sx.list(bindings).expect("checked").iter().rev() {
                    tasks.push(Task::Term(sx.list(binding).expect("checked")[1]));
                }
            }
            Some("!") => {
                let Some((&body, attributes)) = args.split_first() else {
                    return Err(Error::at(pos, "'!' expects a term and attributes"));
                };
                for (name, name_pos) in named_attributes(sx, attributes)? {
                    tasks.push(Task::Name {
                        name,
                        pos: name_pos,
                    });
                }
                tasks.push(Task::Term(body));
            }
            Some("_") => values.push(self.indexed_constant(sx, id, args)?),
            Some("forall") => {
                if let Some(logic) = &self.context.logic {
                    return Err(Error::at(
                        pos,
                        format!("forall in the quantifier-free logic {logic}: set the logic ABV, BV or ALL"),
                    ));
                }
                let (name, width, [lo, hi, body]) = check_forall(sx, id, args)?;
                if self.in_forall {
                    return Err(Error::at(pos, "a forall inside a forall is not supported"));
                }
                self.in_forall = true;
                // The bounds see the variable too, so that using it is
                // refused by name rather than read as an outer symbol.
                let bound = self.store.bound(width);
                self.locals.entry(name.clone()).or_default().push(bound);
                tasks.push(Task::Forall { name, pos });
                tasks.extend([body, hi, lo].map(Task::Term));
            }
            Some(word) if UNSUPPORTED_CONSTRUCTS.contains(&word) => {
                return Err(Error::at(pos, format!("unsupported construct '{word}'")));
            }
            _ => {
                let head = self.head(sx, head)?;
                tasks.push(Task::Apply {
                    head,
                    arity: args.len(),
                    pos,
                });
                tasks.extend(args.iter().rev().map(|&a| Task::Term(a)));
            }
        }
        Ok(())
    }

    fn atom(&mut self, sx: &SExprs, id: SExprId) -> Result<TermId, Error> {
        let pos = sx.pos(id);
        let text = sx.text(id);
        let err = |message: String| Err(Error::at(pos, message));
        match sx.atom(id).expect("an atom") {
            TokenKind::Symbol(name) => self.symbol(name, pos),
            TokenKind::Hex(digits) => self.literal(pos, text, digits, 16, 4),
            TokenKind::Binary(digits) => self.literal(pos, text, digits, 2, 1),
            TokenKind::Numeral(_) => err(format!(
                "integer literal '{text}' is not supported: write bit-vectors as #b..., #x... or (_ bvN width)"
            )),
            TokenKind::Decimal(_) => err(format!("decimal literal '{text}' is not supported")),
            TokenKind::Str(_) => err(format!(
                "string literal {} is not supported in terms",
                sx.snippet(id)
            )),
            TokenKind::Keyword(k) => err(format!("unexpected keyword '{k}'")),
            TokenKind::LParen | TokenKind::RParen => unreachable!("parentheses make lists"),
        }
    }

    fn symbol(&mut self, name: &str, pos: Pos) -> Result<TermId, Error> {
        if let Some(&t) = self.locals.get(name).and_then(|stack| stack.last()) {
            return Ok(t);
        }
        match self.context.lookup(name) {
            Some(Binding::Constant(t)) => return Ok(*t),
            Some(Binding::Function(def)) if def.params.is_empty() => return Ok(def.body),
            Some(Binding::Function(def)) => {
                return Err(Error::at(
                    pos,
                    format!(
                        "function '{name}' expects {} arguments, got 0",
                        def.params.len()
                    ),
                ))
            }
            None => {}
        }
        match name {
            "true" | "false" => Ok(self.store.bool_const(name == "true")),
            _ if Builtin::plain(name).is_some() => Err(Error::at(
                pos,
                format!("'{name}' is a function and needs arguments"),
            )),
            _ => Err(Error::at(pos, format!("undeclared symbol '{name}'"))),
        }
    }

    /// A `#x` or `#b` literal: `bits` bits per digit in base `radix`.
    fn literal(
        &mut self,
        pos: Pos,
        text: &str,
        digits: &str,
        radix: u32,
        bits: usize,
    ) -> Result<TermId, Error> {
        let width = digits.len().saturating_mul(bits);
        if width > usize::from(MAX_WIDTH) {
            return Err(Error::at(
                pos,
                format!(
                    "literal '{text}' has {width} bits; bit-vectors have widths 1 to {MAX_WIDTH}"
                ),
            ));
        }
        let value = u64::from_str_radix(digits, radix).expect("the lexer checked the digits");
        Ok(self.store.bv_const(width as u8, value))
    }

    /// `(_ bvN w)`; other indexed identifiers are functions, not terms.
    fn indexed_constant(
        &mut self,
        sx: &SExprs,
        id: SExprId,
        args: &[SExprId],
    ) -> Result<TermId, Error> {
        let pos = sx.pos(id);
        let text = sx.snippet(id);
        let value_digits = args
            .first()
            .and_then(|&a| sx.symbol(a))
            .and_then(|s| s.strip_prefix("bv"))
            .filter(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
        let Some(digits) = value_digits else {
            let name = args.first().and_then(|&a| sx.symbol(a)).unwrap_or("");
            return Err(if Builtin::indexed(name, &[]).is_some() {
                Error::at(pos, format!("'{text}' is a function and needs arguments"))
            } else {
                Error::at(pos, format!("unknown indexed identifier '{text}'"))
            });
        };
        let width = match args {
            &[_, w] => sx.numeral(w).and_then(|w| u8::try_from(w).ok()),
            _ => return Err(Error::at(pos, format!("'{text}' expects one width index"))),
        };
        let Some(width) = width.filter(|w| (1..=MAX_WIDTH).contains(w)) else {
            return Err(Error::at(
                pos,
                format!("'{text}' has a bad width; bit-vectors have widths 1 to {MAX_WIDTH}"),
            ));
        };
        // N mod 2^64 keeps N mod 2^width, which is what the literal means.
        let value = digits.bytes().fold(0u64, |v, d| {
            v.wrapping_mul(10).wrapping_add(u64::from(d - b'0'))
        });
        Ok(self.store.bv_const(width, value & mask(width)))
    }

    /// What the head of an application applies.
    fn head(&self, sx: &SExprs, head: SExprId) -> Result<Head, Error> {
        let pos = sx.pos(head);
        if let Some(name) = sx.symbol(head) {
            if self.locals.contains_key(name) {
                return Err(Error::at(
                    pos,
                    format!("'{name}' is a variable and takes no arguments"),
                ));
            }
            if let Some(builtin) = Builtin::plain(name) {
                return Ok(Head::Builtin(builtin));
            }
            return match self.context.lookup(name) {
                Some(Binding::Function(def)) => Ok(Head::Function(name.to_string(), def.clone())),
                Some(_) => Err(Error::at(
                    pos,
                    format!("'{name}' is a constant and takes no arguments"),
                )),
                None if name == "true" || name == "false" => Err(Error::at(
                    pos,
                    format!("'{name}' is a constant and takes no arguments"),
                )),
                None => Err(Error::at(pos, format!("undeclared function '{name}'"))),
            };
        }
        let not_a_function = || Error::at(pos, format!("'{}' is not a function", sx.snippet(head)));
        let Some(items) = sx.list(head) else {
            return Err(not_a_function());
        };
        match items {
            [underscore, name, indices @ ..] if sx.symbol(*underscore) == Some("_") => {
                let name = sx.symbol(*name).ok_or_else(not_a_function)?;
                let indices = indices
                    .iter()
                    .map(|&i| {
                        sx.numeral(i).ok_or_else(|| {
                            Error::at(
                                sx.pos(i),
                                format!("bad index '{}' in '{}'", sx.snippet(i), sx.snippet(head)),
                            )
                        })
                    })
                    .collect::<Result<Vec<u64>, Error>>()?;
                match Builtin::indexed(name, &indices) {
                    Some(Ok(builtin)) => Ok(Head::Builtin(builtin)),
                    Some(Err(message)) => Err(Error::at(pos, message)),
                    None if name.starts_with("bv") => Err(not_a_function()),
                    None => Err(Error::at(
                        pos,
                        format!("unknown indexed function '{}'", sx.snippet(head)),
                    )),
                }
            }
            [as_, konst, sort]
                if sx.symbol(*as_) == Some("as") && sx.symbol(*konst) == Some("const") =>
            {
                match parse_sort(sx, *sort)? {
                    Sort::Array => Ok(Head::Builtin(Builtin::ConstArray)),
                    _ => Err(Error::at(
                        sx.pos(*sort),
                        format!(
                            "'{}' needs an array sort, got '{}'",
                            sx.snippet(head),
                            sx.snippet(*sort)
                        ),
                    )),
                }
            }
            [as_, ..] if sx.symbol(*as_) == Some("as") => {
                Err(Error::at(pos, "unsupported construct 'as'"))
            }
            _ => Err(not_a_function()),
        }
    }

    fn apply(&mut self, head: Head, args: &[TermId], pos: Pos) -> Result<TermId, Error> {
        match head {
            Head::Builtin(builtin) => builtin
                .build(self.store, args)
                .map_err(|message| Error::at(pos, message)),
            Head::Function(name, def) => {
                if args.len() != def.params.len() {
                    return Err(Error::at(
                        pos,
                        format!(
                            "function '{name}' expects {} arguments, got {}",
                            def.params.len(),
                            args.len()
                        ),
                    ));
                }
                for (i, (&param, &arg)) in def.params.iter().zip(args).enumerate() {
                    let (expected, given) = (self.store.sort(param), self.store.sort(arg));
                    if expected != given {
                        return Err(Error::at(
                            pos,
                            format!(
                                "argument {} of '{name}' has sort {}, expected {}",
                                i + 1,
                                sort_to_smtlib(given),
                                sort_to_smtlib(expected)
                            ),
                        ));
                    }
                }
                let replacements = def
                    .params
                    .iter()
                    .copied()
                    .zip(args.iter().copied())
                    .collect();
                substitute(self.store, def.body, &replacements)
                    .map_err(|message| Error::at(pos, message))
            }
        }
    }

    fn name_term(&mut self, name: &str, term: TermId, pos: Pos) -> Result<(), Error> {
        if !self.params.is_empty() {
            let symbols = self.store.symbols_in(&[term]);
            let params = &self.params;
            let store = &*self.store;
            if symbols
                .iter()
                .any(|&s| params.contains(&store.symbol_term(s)))
            {
                return Err(Error::at(
                    pos,
                    format!(
                        "named term '{name}' contains a parameter of the function being defined"
                    ),
                ));
            }
        }
        if is_reserved(name) {
            return Err(Error::at(
                pos,
                format!("cannot name a term '{name}': it is a reserved symbol"),
            ));
        }
        let definition = Definition {
            params: Vec::new(),
            body: term,
        };
        self.context
            .bind(name, Binding::Function(Rc::new(definition)))
            .map_err(|message| Error::at(pos, message))
    }
}

/// The bindings list of `(let ((x t) ...) body)` after checking its shape.
fn check_let(sx: &SExprs, id: SExprId, args: &[SExprId]) -> Result<SExprId, Error> {
    let &[bindings, _body] = args else {
        return Err(Error::at(
            sx.pos(id),
            "let expects a list of bindings and a body",
        ));
    };
    let mut seen = FxHashSet::default();
    for &binding in sx.expect_list(bindings, "a list of let bindings")? {
        let shape_error = || {
            Error::at(
                sx.pos(binding),
                format!(
                    "expected a let binding (name term), got '{}'",
                    sx.snippet(binding)
                ),
            )
        };
        let &[name, _] = sx.list(binding).ok_or_else(shape_error)? else {
            return Err(shape_error());
        };
        let name_text = sx.symbol(name).ok_or_else(shape_error)?;
        if !seen.insert(name_text) {
            return Err(Error::at(
                sx.pos(name),
                format!("let binds '{name_text}' twice"),
            ));
        }
    }
    Ok(bindings)
}

/// The variable, its width, and the bounds and body of `(forall ((i (_
/// BitVec w))) (=> (and (bvule lo i) (bvule i hi)) body))`; anything else
/// is refused with the fragment's shape.
fn check_forall(
    sx: &SExprs,
    id: SExprId,
    args: &[SExprId],
) -> Result<(String, u8, [SExprId; 3]), Error> {
    let outside = || {
        Error::at(
            sx.pos(id),
            format!("forall outside the supported fragment: write {FORALL_FRAGMENT}"),
        )
    };
    let &[variables, matrix] = args else {
        return Err(outside());
    };
    let Some(&[variable]) = sx.list(variables) else {
        return Err(outside());
    };
    let Some(&[name, sort]) = sx.list(variable) else {
        return Err(outside());
    };
    let name = sx.symbol(name).ok_or_else(outside)?;
    let Sort::Bv(width) = parse_sort(sx, sort)? else {
        return Err(outside());
    };
    let applied = |t: SExprId, head: &str| match sx.list(t) {
        Some(&[h, a, b]) if sx.symbol(h) == Some(head) => Some((a, b)),
        _ => None,
    };
    let (guard, body) = applied(matrix, "=>").ok_or_else(outside)?;
    let (low, high) = applied(guard, "and").ok_or_else(outside)?;
    let (lo, low_i) = applied(low, "bvule").ok_or_else(outside)?;
    let (high_i, hi) = applied(high, "bvule").ok_or_else(outside)?;
    if sx.symbol(low_i) != Some(name) || sx.symbol(high_i) != Some(name) {
        return Err(outside());
    }
    Ok((name.to_string(), width, [lo, hi, body]))
}

/// The name of a binding `(name term)` that [`check_let`] accepted.
fn binding_name<'s>(sx: &'s SExprs, binding: SExprId) -> &'s str {
    let name = sx.list(binding).expect("checked")[0];
    sx.symbol(name).expect("checked")
}

/// The names given by `:named` among the attributes of `(! t attributes...)`;
/// other attributes (such as `:pattern`) are accepted and have no effect.
fn named_attributes(sx: &SExprs, attributes: &[SExprId]) -> Result<Vec<(String, Pos)>, Error> {
    let mut names = Vec::new();
    let mut rest = attributes;
    while let Some((&key, after)) = rest.split_first() {
        let keyword = sx.keyword(key).ok_or_else(|| {
            Error::at(
                sx.pos(key),
                format!("expected an attribute keyword, got '{}'", sx.snippet(key)),
            )
        })?;
        let value = after.first().copied().filter(|&v| sx.keyword(v).is_none());
        rest = if value.is_some() { &after[1..] } else { after };
        if keyword == ":named" {
            let value = value.ok_or_else(|| Error::at(sx.pos(key), ":named expects a symbol"))?;
            let name = sx.expect_symbol(value, "a symbol after :named")?;
            names.push((name.to_string(), sx.pos(value)));
        }
    }
    Ok(names)
}

/// `body` with each key of `replacements` replaced by its value.
pub fn substitute(
    store: &mut TermStore,
    body: TermId,
    replacements: &FxHashMap<TermId, TermId>,
) -> Result<TermId, String> {
    if replacements.is_empty() {
        return Ok(body);
    }
    let mut image: FxHashMap<TermId, TermId> = FxHashMap::default();
    for t in store.reachable(&[body]) {
        let new = match replacements.get(&t) {
            Some(&r) => r,
            None => {
                let node: Node = store.node(t).map_children(|c| image[&c]);
                store.try_mk(node).map_err(|e| e.0)?
            }
        };
        image.insert(t, new);
    }
    Ok(image[&body])
}
