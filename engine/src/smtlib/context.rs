//! The scoped state of a script: the names it declared or defined and its
//! assertions, on a stack of levels that `push` and `pop` grow and shrink.

use crate::expr::TermId;
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// What a name stands for.
#[derive(Clone, Debug)]
pub enum Binding {
    /// A declared constant: a symbol of the term store.
    Constant(TermId),
    /// A `define-fun`, or a term named with `(! t :named n)`.
    Function(Rc<Definition>),
}

/// A defined function: `body` over placeholder symbols, one per parameter,
/// that applications replace by the arguments.
#[derive(Debug)]
pub struct Definition {
    pub params: Vec<TermId>,
    pub body: TermId,
}

/// Where a run of `count` levels pushed at once begins.
struct Level {
    names: usize,
    assertions: usize,
    count: u64,
}

#[derive(Default)]
pub struct Context {
    bindings: FxHashMap<String, Binding>,
    /// The names in `bindings`, in the order they were bound.
    names: Vec<String>,
    assertions: Vec<TermId>,
    /// Pushes with nothing between them share one entry, so `(push 1000000000)`
    /// costs no memory.
    levels: Vec<Level>,
    /// The script's logic, where it is quantifier-free (a `forall` is
    /// refused there, as z3 does).
    pub logic: Option<String>,
}

impl Context {
    pub fn lookup(&self, name: &str) -> Option<&Binding> {
        self.bindings.get(name)
    }

    /// Binds `name` at the current level; SMT-LIB does not let a name be
    /// bound twice in one scope.
    pub fn bind(&mut self, name: &str, binding: Binding) -> Result<(), String> {
        if self.bindings.contains_key(name) {
            return Err(format!("symbol '{name}' is already declared"));
        }
        self.bindings.insert(name.to_string(), binding);
        self.names.push(name.to_string());
        Ok(())
    }

    /// The declared constants in scope, in declaration order.
    pub fn constants(&self) -> impl Iterator<Item = (&str, TermId)> {
        self.names
            .iter()
            .filter_map(|name| match self.bindings[name] {
                Binding::Constant(t) => Some((name.as_str(), t)),
                Binding::Function(_) => None,
            })
    }

    pub fn assert(&mut self, t: TermId) {
        self.assertions.push(t);
    }

    pub fn assertions(&self) -> &[TermId] {
        &self.assertions
    }

    /// Number of levels pushed and not popped.
    pub fn depth(&self) -> u64 {
        self.levels
            .iter()
            .fold(0u64, |depth, l| depth.saturating_add(l.count))
    }

    pub fn push(&mut self, count: u64) {
        if count == 0 {
            return;
        }
        match self.levels.last_mut() {
            Some(top)
                if top.names == self.names.len() && top.assertions == self.assertions.len() =>
            {
                top.count = top.count.saturating_add(count);
            }
            _ => self.levels.push(Level {
                names: self.names.len(),
                assertions: self.assertions.len(),
                count,
            }),
        }
    }

    /// Removes the `count` innermost levels with their names and assertions.
    pub fn pop(&mut self, count: u64) -> Result<(), String> {
        let depth = self.depth();
        if count > depth {
            return Err(format!(
                "pop {count} is deeper than the assertion stack, which has {depth} level{}",
                if depth == 1 { "" } else { "s" }
            ));
        }
        let mut left = count;
        while left > 0 {
            let top = self.levels.last_mut().expect("count is at most the depth");
            let (names, assertions) = (top.names, top.assertions);
            if top.count > left {
                top.count -= left;
                left = 0;
            } else {
                left -= top.count;
                self.levels.pop();
            }
            self.truncate(names, assertions);
        }
        Ok(())
    }

    /// Pops every level and removes every assertion; names bound before the
    /// first `push` stay, as SMT-LIB's `reset-assertions` says.
    pub fn reset_assertions(&mut self) {
        if let Some(first) = self.levels.first() {
            let names = first.names;
            self.truncate(names, 0);
        }
        self.levels.clear();
        self.assertions.clear();
    }

    fn truncate(&mut self, names: usize, assertions: usize) {
        for name in self.names.drain(names..) {
            self.bindings.remove(&name);
        }
        self.assertions.truncate(assertions);
    }
}
