//! Bit-blasting: constraints become an and-inverter graph, the graph becomes
//! CNF in an incremental SAT instance, and each query's constraints are
//! solved as assumptions, so circuits, clauses and learnt clauses serve later
//! queries too.
//!
//! The instance is replaced when a query uses only a small part of it: every
//! SAT call assigns all variables, so circuits of unrelated earlier queries
//! would slow down every later one. The graph and the translated terms
//! survive that; only the query's own circuit is encoded again.
//!
//! - [`aig`]: the graph, with structural hashing and constant folding;
//! - [`words`]: bit-vector operators as circuits;
//! - [`arrays`]: read-over-write expansion and Ackermann axioms;
//! - [`translate`]: terms to circuits, cached across queries;
//! - [`cnf`]: lazy Tseitin encoding into the SAT backend.

mod aig;
mod arrays;
mod cnf;
mod term_bits;
mod translate;
mod words;

#[cfg(test)]
mod tests;

use super::query::QueryBudget;
use super::sat::{Lit, SatAnswer, SatBackend, VarisatBackend};
use crate::expr::{ArrayValue, Model, Sort, SymbolId, TermId, TermStore, Value};
use crate::limits::{Checkpoint, Reached};
use aig::{AigLit, NodeId};
use arrays::ReadId;
use cnf::Tseitin;
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;
use translate::Translator;

/// The answer of the SAT layer to a conjunction of constraints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlastAnswer {
    /// A model that gives every symbol of the constraints a value.
    Sat(Model),
    /// Unsatisfiable; `core` is a subset of the constraints that is already unsatisfiable.
    Unsat { core: Vec<TermId> },
    /// No answer within the budget; `limit`: the run's limit that ended it.
    Unknown { why: String, limit: Option<Reached> },
}

/// Past these sizes the next query starts from scratch, to bound memory:
/// nodes in the graph and literals held for translated terms.
const MAX_AIG_NODES: usize = 4_000_000;
const MAX_TERM_BITS: usize = 16_000_000;
/// Past this many clauses the next query gets a new SAT instance.
const MAX_CLAUSES: usize = 3_000_000;
/// A SAT call assigns every variable of the instance and can even search
/// circuits the query does not use, so a query gets a new instance when fewer
/// than one variable in this many belongs to it...
const MAX_UNUSED_RATIO: usize = 4;
/// ...unless the instance is this small anyway.
const SMALL_INSTANCE_VARS: usize = 20_000;
/// A query whose circuit has at most this many nodes, while the instance
/// has more than `SMALL_QUERY_VARS` variables, is solved in a second
/// instance kept for such queries and renewed past that many variables:
/// a call costs as much as the instance has variables, so a one-byte
/// query beside 20,000 variables of earlier queries cost as much as a
/// large one (strlen over 1,024 symbolic bytes spent most of its time so),
/// while starting the instance over re-encodes the large queries' arrays.
const SMALL_QUERY_NODES: usize = 256;
const SMALL_QUERY_VARS: usize = 2_048;
const SMALL_QUERY_READS: usize = 1;

/// The SAT side, replaced as a whole: the backend, which graph nodes it
/// encodes, and which Ackermann axioms it holds.
struct Instance<B> {
    sat: B,
    tseitin: Tseitin,
    axioms: FxHashSet<(ReadId, ReadId)>,
}

impl<B: SatBackend> Instance<B> {
    fn new(sat: B) -> Self {
        Instance {
            sat,
            tseitin: Tseitin::default(),
            axioms: FxHashSet::default(),
        }
    }
}

/// Turns terms into CNF in one incremental SAT instance and solves
/// conjunctions of them under assumptions.
pub struct BitBlaster<B: SatBackend + Default = VarisatBackend> {
    translator: Translator,
    instance: Instance<B>,
    /// The instance of small queries, swapped in while one is solved.
    small: Instance<B>,
    /// Variables of the instances replaced so far: with the current one's,
    /// all the variables made (what a query cost, however often the
    /// instance was replaced).
    retired_vars: u64,
    /// Clauses of the instances replaced so far, likewise.
    retired_clauses: u64,
}

impl BitBlaster<VarisatBackend> {
    pub fn new() -> Self {
        BitBlaster::with_backend(VarisatBackend::new())
    }

    /// The CNF variables and clauses the boolean term `c` becomes, alone
    /// in a new instance (its circuit and its arrays' axioms), unsolved.
    pub fn cnf_size(
        store: &TermStore,
        c: TermId,
        checkpoint: &mut Checkpoint,
    ) -> Result<(u64, u64), Reached> {
        let mut blaster = BitBlaster::new();
        let lit = blaster.translator.root(store, c, checkpoint)?.lit;
        if lit.as_constant().is_none() {
            blaster.encode(lit, checkpoint)?;
        }
        let reads = blaster.reads_of(&[c]);
        blaster.add_axioms(&reads, checkpoint)?;
        Ok((blaster.vars_made(), blaster.clauses_made()))
    }
}

impl Default for BitBlaster<VarisatBackend> {
    fn default() -> Self {
        BitBlaster::new()
    }
}

impl<B: SatBackend + Default> BitBlaster<B> {
    /// A bit-blaster over `sat`, which must be empty. It makes later
    /// instances with `B::default()`.
    pub fn with_backend(sat: B) -> Self {
        BitBlaster {
            translator: Translator::default(),
            instance: Instance::new(sat),
            small: Instance::new(B::default()),
            retired_vars: 0,
            retired_clauses: 0,
        }
    }

    /// Solves the conjunction of the boolean terms `constraints`. The
    /// budget's time, interrupt and memory hold while the constraints are
    /// bit-blasted and encoded too: past one, the graph is dropped (it may
    /// be what fills memory) and the answer is `unknown`.
    pub fn solve(
        &mut self,
        store: &TermStore,
        constraints: &[TermId],
        budget: &QueryBudget,
    ) -> BlastAnswer {
        let mut checkpoint = Checkpoint::new(budget.limits);
        match self.solve_within(store, constraints, budget, &mut checkpoint) {
            Ok(answer) => answer,
            Err(reached) => {
                self.reset();
                BlastAnswer::Unknown {
                    why: reached.stop_reason().into(),
                    limit: Some(reached),
                }
            }
        }
    }

    fn solve_within(
        &mut self,
        store: &TermStore,
        constraints: &[TermId],
        budget: &QueryBudget,
        checkpoint: &mut Checkpoint,
    ) -> Result<BlastAnswer, Reached> {
        if self.translator.aig().len() > MAX_AIG_NODES
            || self.translator.num_term_bits() > MAX_TERM_BITS
        {
            self.reset();
        }
        let mut lits = Vec::with_capacity(constraints.len());
        for &c in constraints {
            let lit = self.translator.root(store, c, checkpoint)?.lit;
            match lit.as_constant() {
                Some(true) => {}
                Some(false) => return Ok(BlastAnswer::Unsat { core: vec![c] }),
                None => lits.push((lit, c)),
            }
        }
        let reads = self.reads_of(constraints);
        let small = !lits.is_empty()
            && self.instance.sat.num_vars() > SMALL_QUERY_VARS
            && reads.len() <= SMALL_QUERY_READS
            && (self.translator.aig()).cone_size(lits.iter().map(|&(l, _)| l), SMALL_QUERY_NODES)
                <= SMALL_QUERY_NODES;
        if !small {
            return self.solve_lits(store, constraints, lits, &reads, budget, checkpoint);
        }
        std::mem::swap(&mut self.instance, &mut self.small);
        if self.instance.sat.num_vars() > SMALL_QUERY_VARS {
            self.new_instance();
        }
        let answer = self.solve_lits(store, constraints, lits, &reads, budget, checkpoint);
        std::mem::swap(&mut self.instance, &mut self.small);
        answer
    }

    /// Solves `lits`, the literals of `constraints` that did not fold to a
    /// constant, in the current instance; `reads` are the constraints'
    /// array reads.
    fn solve_lits(
        &mut self,
        store: &TermStore,
        constraints: &[TermId],
        lits: Vec<(AigLit, TermId)>,
        reads: &[ReadId],
        budget: &QueryBudget,
        checkpoint: &mut Checkpoint,
    ) -> Result<BlastAnswer, Reached> {
        if lits.is_empty() {
            // Every constraint folded to true: any assignment is a model.
            return Ok(BlastAnswer::Sat(self.model(
                store,
                constraints,
                reads,
                false,
            )));
        }
        if self.mostly_unused(&lits) {
            self.new_instance();
        }
        let mut assumptions = Vec::with_capacity(lits.len());
        let mut constraint_of: FxHashMap<Lit, TermId> = FxHashMap::default();
        for (lit, c) in lits {
            let l = self.encode(lit, checkpoint)?;
            constraint_of.entry(l).or_insert(c);
            assumptions.push(l);
        }
        self.add_axioms(reads, checkpoint)?;
        Ok(match self.instance.sat.solve(&assumptions, budget) {
            SatAnswer::Sat => BlastAnswer::Sat(self.model(store, constraints, reads, true)),
            // Checking the core may take what is left of the query's time.
            SatAnswer::Unsat => BlastAnswer::Unsat {
                core: self.unsat_core(&assumptions, &constraint_of, budget),
            },
            SatAnswer::Unknown { why, limit } => {
                // The backend cannot be used again.
                self.reset();
                BlastAnswer::Unknown { why, limit }
            }
        })
    }

    pub fn num_vars(&self) -> usize {
        self.instance.sat.num_vars()
    }

    pub fn num_clauses(&self) -> usize {
        self.instance.sat.num_clauses()
    }

    /// The variables made since this bit-blaster was, in every instance.
    pub fn vars_made(&self) -> u64 {
        let live = self.instance.sat.num_vars() + self.small.sat.num_vars();
        self.retired_vars + live as u64
    }

    /// The clauses added since this bit-blaster was, in every instance
    /// (learnt clauses not counted).
    pub fn clauses_made(&self) -> u64 {
        let live = self.instance.sat.num_clauses() + self.small.sat.num_clauses();
        self.retired_clauses + live as u64
    }

    /// A new SAT instance over the same graph and translated terms, in
    /// place of the current one.
    fn new_instance(&mut self) {
        self.retired_vars += self.instance.sat.num_vars() as u64;
        self.retired_clauses += self.instance.sat.num_clauses() as u64;
        self.instance = Instance::new(B::default());
    }

    /// Starts over from nothing but the counts of variables and clauses made.
    fn reset(&mut self) {
        let (retired_vars, retired_clauses) = (self.vars_made(), self.clauses_made());
        *self = BitBlaster::with_backend(B::default());
        self.retired_vars = retired_vars;
        self.retired_clauses = retired_clauses;
    }

    fn encode(&mut self, lit: AigLit, checkpoint: &mut Checkpoint) -> Result<Lit, Reached> {
        let Instance { sat, tseitin, .. } = &mut self.instance;
        tseitin.lit(self.translator.aig(), sat, lit, checkpoint)
    }

    /// Whether the instance is large and the query's circuit a small part of it.
    fn mostly_unused(&self, lits: &[(AigLit, TermId)]) -> bool {
        let vars = self.instance.sat.num_vars();
        if self.instance.sat.num_clauses() > MAX_CLAUSES {
            return true;
        }
        if vars <= SMALL_INSTANCE_VARS {
            return false;
        }
        let enough = vars / MAX_UNUSED_RATIO;
        let used = self
            .translator
            .aig()
            .cone_size(lits.iter().map(|&(l, _)| l), enough);
        used <= enough
    }

    /// The array-symbol reads of the constraints, sorted.
    fn reads_of(&self, constraints: &[TermId]) -> Vec<ReadId> {
        let mut reads: Vec<ReadId> = constraints
            .iter()
            .filter_map(|&c| self.translator.root_info(c))
            .flat_map(|info| info.reads.iter().copied())
            .collect();
        reads.sort_unstable();
        reads.dedup();
        reads
    }

    /// Adds, as permanent clauses, the Ackermann axioms between the reads of
    /// this query that the instance lacks: `i = j -> A[i] = A[j]`. They hold in
    /// every query; only reads that meet in a query need them, since a model
    /// gives an array the values of that query's reads alone. Two reads at
    /// constant indices need none: the indices differ, or it is one read.
    fn add_axioms(&mut self, reads: &[ReadId], checkpoint: &mut Checkpoint) -> Result<(), Reached> {
        let mut by_array: FxHashMap<SymbolId, (Vec<ReadId>, Vec<ReadId>)> = FxHashMap::default();
        for &r in reads {
            let read = self.translator.read(r);
            let (symbolic, constant) = by_array.entry(read.array).or_default();
            if read.has_constant_index() {
                constant.push(r);
            } else {
                symbolic.push(r);
            }
        }
        for (symbolic, constant) in by_array.values() {
            for (k, &a) in symbolic.iter().enumerate() {
                for &b in symbolic[..k].iter().chain(constant) {
                    self.add_axiom(a, b, checkpoint)?;
                }
            }
        }
        Ok(())
    }

    fn add_axiom(
        &mut self,
        a: ReadId,
        b: ReadId,
        checkpoint: &mut Checkpoint,
    ) -> Result<(), Reached> {
        if !self.instance.axioms.insert((a.min(b), a.max(b))) {
            return Ok(());
        }
        let premise = self.translator.same_index(a, b);
        let premise = match premise.as_constant() {
            Some(false) => return Ok(()),
            Some(true) => None,
            None => Some(!self.encode(premise, checkpoint)?),
        };
        let (va, vb) = (self.translator.read(a).value, self.translator.read(b).value);
        for (x, y) in va.into_iter().zip(vb) {
            let (x, y) = (self.encode(x, checkpoint)?, self.encode(y, checkpoint)?);
            for clause in [[!x, y], [x, !y]] {
                let lits: Vec<Lit> = premise.into_iter().chain(clause).collect();
                self.instance.sat.add_clause(&lits);
            }
        }
        Ok(())
    }

    /// The constraints behind the failed assumptions of the last answer.
    ///
    /// varisat 0.2.2 can report too few of them: its analysis leaves scratch
    /// flags set on units it has removed from the trail, and a later analysis
    /// stops early on them. A smaller core is kept only if it is unsat on its
    /// own; otherwise every assumption is the core.
    fn unsat_core(
        &mut self,
        assumptions: &[Lit],
        constraint_of: &FxHashMap<Lit, TermId>,
        budget: &QueryBudget,
    ) -> Vec<TermId> {
        let mut all = assumptions.to_vec();
        all.sort_unstable();
        all.dedup();
        let mut failed: Vec<Lit> = self
            .instance
            .sat
            .failed_assumptions()
            .into_iter()
            .filter(|l| constraint_of.contains_key(l))
            .collect();
        failed.sort_unstable();
        failed.dedup();
        let confirmed = if failed.is_empty() || budget.limits.reached().is_some() {
            false
        } else {
            failed.len() == all.len() || self.unsat_on_their_own(&failed, budget)
        };
        let lits = if confirmed { failed } else { all };
        let mut core: Vec<TermId> = lits
            .iter()
            .filter_map(|l| constraint_of.get(l).copied())
            .collect();
        core.sort_unstable();
        core
    }

    fn unsat_on_their_own(&mut self, assumptions: &[Lit], budget: &QueryBudget) -> bool {
        match self.instance.sat.solve(assumptions, budget) {
            SatAnswer::Unsat => true,
            SatAnswer::Sat => false,
            SatAnswer::Unknown { .. } => {
                // The backend cannot be used again.
                self.reset();
                false
            }
        }
    }

    /// Values for every symbol of `constraints`, read from the SAT model when
    /// `solved` (otherwise every input is false). Inputs without a variable
    /// do not affect any constraint, so false suits them too.
    fn model(
        &self,
        store: &TermStore,
        constraints: &[TermId],
        reads: &[ReadId],
        solved: bool,
    ) -> Model {
        let aig = self.translator.aig();
        let Instance { sat, tseitin, .. } = &self.instance;
        let mut memo = FxHashMap::default();
        let known = |n: NodeId| {
            let v = tseitin.var(n).filter(|_| solved)?;
            Some(sat.value(Lit::positive(v)))
        };
        let mut word_value = |bits: &[AigLit]| {
            bits.iter().enumerate().fold(0u64, |acc, (i, &l)| {
                acc | (u64::from(aig.evaluate(l, known, &mut memo)) << i)
            })
        };
        let mut arrays: FxHashMap<SymbolId, ArrayValue> = FxHashMap::default();
        for &id in reads {
            let read = self.translator.read(id);
            let index = word_value(&read.index) as u32;
            let value = word_value(&read.value) as u8;
            arrays.entry(read.array).or_default().set(index, value);
        }
        let mut symbols: Vec<SymbolId> = constraints
            .iter()
            .filter_map(|&c| self.translator.root_info(c))
            .flat_map(|info| info.symbols.iter().copied())
            .collect();
        symbols.sort_unstable();
        symbols.dedup();
        let mut model = Model::new();
        for s in symbols {
            let term = store.symbol_term(s);
            let bits = self.translator.bits(term).unwrap_or(&[]);
            let value = match store.sort(term) {
                Sort::Array => Value::Array(Rc::new(arrays.remove(&s).unwrap_or_default())),
                Sort::Bool => Value::Bool(word_value(bits) == 1),
                Sort::Bv(width) => Value::Bv {
                    width,
                    value: word_value(bits),
                },
            };
            model.set(s, value);
        }
        model
    }
}
