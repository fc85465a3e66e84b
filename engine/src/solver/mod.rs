//! The solver chain, outermost first: simplification, constraint independence,
//! exact query cache, counterexample cache, bit-blasting and SAT; a list of
//! layers behind one interface (`chain.rs`). Every query runs within its
//! budget.

pub mod address_aware;
pub mod bitblast;
mod cache;
mod chain;
mod independence;
mod quantifiers;
pub use quantifiers::procedure::Stage as QuantifiedStage;
use quantifiers::procedure::{self, CellOrigins, Query};
mod query;
pub mod sat;
pub mod simplify;

pub use crate::limits::Interrupt;

use crate::expr::{Model, Sort, TermId, TermStore, Value};
use crate::limits::{Limits, Reached};
use address_aware::{AaAnswer, AaCache, AaKey, KeyOf, NoKey};
pub use chain::Layer;
use chain::{Group, Shared, Stage};
use independence::SymbolIndex;
pub use independence::Witness;
use query::GroupAnswer;
pub use query::{
    AaStats, Budget, CellOrigin, LayerStats, ModelCell, QuantifiedQuery, QuantifiedStages,
    QueryAnswers, QueryBudget, SolveResult, SolverStats,
};
use std::rc::Rc;
use std::time::Duration;
use web_time::Instant;

/// An answer offered for a query that reaches the last layer of the
/// chain, in its stead (the address-aware cache's).
type BeforeLast<'a> = dyn FnMut(&mut TermStore) -> Option<SolveResult> + 'a;

/// Who answered a query.
#[derive(Clone, Copy)]
enum AnsweredBy {
    /// The deepest layer that answered one of its groups.
    Stage(usize),
    /// What was offered in front of the last layer.
    BeforeLast,
    /// No layer (a query cut off before any answered).
    Nobody,
}

/// Which layers of the chain run, in order, and the budget of each query.
/// Every layer is on by default; turning one off is for measuring what it
/// is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    pub budget: Budget,
    pub layers: Vec<Layer>,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            budget: Budget::default(),
            layers: Layer::ALL.to_vec(),
        }
    }
}

impl SolverConfig {
    /// The same configuration without `layer` (SAT cannot be left out).
    pub fn without(mut self, layer: Layer) -> SolverConfig {
        self.layers.retain(|&l| l != layer || l == Layer::Sat);
        self
    }
}

/// The solver chain. It keeps caches and one incremental SAT instance between
/// queries, so it is meant to live as long as its [`TermStore`].
pub struct Solver {
    config: SolverConfig,
    /// The layers, in the order of `config.layers`, SAT last.
    stages: Vec<Stage>,
    symbols: SymbolIndex,
    stats: SolverStats,
    /// The run's limit that ended the last query without an answer.
    stopped_by: Option<Reached>,
    /// Answers by base form, for the queries asked with one.
    aa: AaCache,
    /// The first quantified queries asked, as answered.
    quantified: Vec<QuantifiedQuery>,
}

/// Quantified queries kept for the report, at most: the first ones.
const MAX_QUANTIFIED_KEPT: usize = 200;

impl Default for Solver {
    fn default() -> Self {
        Solver::new(SolverConfig::default())
    }
}

impl Solver {
    pub fn new(mut config: SolverConfig) -> Solver {
        config.layers.retain(|&l| l != Layer::Sat);
        config.layers.push(Layer::Sat);
        Solver {
            stages: config.layers.iter().map(|&l| Stage::new(l)).collect(),
            config,
            symbols: SymbolIndex::default(),
            stats: SolverStats::default(),
            stopped_by: None,
            aa: AaCache::default(),
            quantified: Vec::new(),
        }
    }

    /// The first quantified queries the solver was asked, as answered.
    pub fn quantified_queries(&self) -> &[QuantifiedQuery] {
        &self.quantified
    }

    pub fn set_budget(&mut self, budget: Budget) {
        self.config.budget = budget;
    }

    /// The layers of the chain, in order, SAT last.
    pub fn layers(&self) -> &[Layer] {
        &self.config.layers
    }

    pub fn stats(&self) -> &SolverStats {
        &self.stats
    }

    /// The limit of the budget (time, memory, interrupt) that ended the
    /// last query as `unknown`, if one did, taken once; a memory limit may
    /// no longer hold once the query's work is dropped, so it is kept here.
    pub fn take_stopped_by(&mut self) -> Option<Reached> {
        self.stopped_by.take()
    }

    /// Is the conjunction of the boolean terms `assertions` satisfiable?
    pub fn check(&mut self, store: &mut TermStore, assertions: &[TermId]) -> SolveResult {
        self.check_within(store, assertions, &Limits::default())
    }

    /// [`Solver::check`] cut off by a run's `limits` too (its deadline, its
    /// memory limit and its interrupt), whichever comes first: one hard
    /// query must not keep a run going past them.
    pub fn check_within(
        &mut self,
        store: &mut TermStore,
        assertions: &[TermId],
        limits: &Limits,
    ) -> SolveResult {
        self.check_offered(store, assertions, limits, &mut |_| None)
    }

    /// [`check_within`](Self::check_within), where `before_last` may answer
    /// a query that reaches the last layer (SAT) in its stead.
    fn check_offered(
        &mut self,
        store: &mut TermStore,
        assertions: &[TermId],
        limits: &Limits,
        before_last: &mut BeforeLast<'_>,
    ) -> SolveResult {
        let start = Instant::now();
        self.stopped_by = None;
        self.stats.queries += 1;
        let mut budget = self.config.budget.starting_now();
        budget.limits = budget.limits.and(limits);
        let expanded;
        let asked = match assertions.iter().any(|&a| store.has_forall(a)) {
            false => assertions,
            true => match quantifiers::expand(store, assertions) {
                Ok(without) => {
                    expanded = without;
                    &expanded[..]
                }
                Err(why) => {
                    self.stats.unknown += 1;
                    self.stats.answered.unknown += 1;
                    self.stats.total_time += start.elapsed();
                    return SolveResult::Unknown(why);
                }
            },
        };
        let (result, by) = match asked.iter().any(|&a| store.has_forall(a)) {
            false => self.check_inner(store, asked, &budget, before_last),
            true => self.check_quantified(store, asked, &budget, before_last),
        };
        match (&result, by) {
            (SolveResult::Unknown(_), _) | (_, AnsweredBy::Nobody) => {
                self.stats.answered.unknown += 1
            }
            (_, AnsweredBy::Stage(by)) => self.stages[by].count_answer(&mut self.stats.answered),
            (_, AnsweredBy::BeforeLast) => self.stats.answered.address_aware += 1,
        }
        match &result {
            SolveResult::Sat(model) => {
                debug_assert!(
                    store.satisfies(assertions, model),
                    "the solver chain produced a model that does not satisfy the query"
                );
                self.stats.sat += 1;
            }
            SolveResult::Unsat => self.stats.unsat += 1,
            SolveResult::Unknown(_) => self.stats.unknown += 1,
        }
        self.stats.total_time += start.elapsed();
        result
    }

    /// Whether `extra` holds beside `known`, constraints known to be
    /// satisfiable together (a path condition): only the constraints of
    /// `known` connected to `extra` are asked, as KLEE's independent solver
    /// does for a branch, so the query's work follows its slice and not the
    /// whole path. When sat, the answer's witness gives the atoms of that
    /// slice and `extra` their values in a model. With the independence
    /// layer switched off, `known` is asked whole.
    pub fn check_beside_within(
        &mut self,
        store: &mut TermStore,
        known: &[TermId],
        extra: &[TermId],
        limits: &Limits,
    ) -> Beside {
        let query = self.slice(store, known, extra);
        let answer = self.check_within(store, &query, limits);
        self.beside(store, &query, answer)
    }

    /// [`check_beside_within`](Self::check_beside_within) for a query with
    /// a base form (`address_aware.rs`): where the exact layers leave it
    /// to SAT, `key_of` gives the key of the sliced query, and a query
    /// asked before under that key has its answer: a model only where it
    /// satisfies this query, unsat only where the key allows it. With
    /// `check`, SAT is asked as well, its answer given, and a
    /// contradiction counted. Every answer is kept under the key.
    pub fn check_beside_aware(
        &mut self,
        store: &mut TermStore,
        (known, extra): (&[TermId], &[TermId]),
        limits: &Limits,
        key_of: &mut KeyOf<'_>,
        check: bool,
    ) -> Beside {
        let query = self.slice(store, known, extra);
        let cache = std::mem::take(&mut self.aa);
        // The key is made only for a query the exact layers leave to SAT;
        // one they answer is keyed after, to keep its answer.
        let (mut keyed, mut hit, mut spent) = (None, None, Duration::ZERO);
        let answer = self.check_offered(store, &query, limits, &mut |store| {
            let start = Instant::now();
            let key = key_of(store, &query);
            hit = key.as_ref().ok().and_then(|(key, _)| match cache.get(key) {
                Some(AaAnswer::Unsat) => Some(SolveResult::Unsat),
                Some(AaAnswer::Sat(model)) if store.satisfies(&query, model) => {
                    Some(SolveResult::Sat(Model::clone(model)))
                }
                _ => None,
            });
            keyed = Some(key);
            spent = start.elapsed();
            hit.clone().filter(|_| !check)
        });
        self.aa = cache;
        // (Inside the chain's time already.)
        self.stats.address_aware.time += spent;
        let keyed = match keyed {
            Some(keyed) => {
                let unknown = matches!(answer, SolveResult::Unknown(_));
                self.count_reached(&keyed, hit.is_some() && (check || !unknown));
                keyed
            }
            None => {
                let start = Instant::now();
                let keyed = key_of(store, &query);
                let took = start.elapsed();
                self.stats.address_aware.time += took;
                self.stats.total_time += took;
                keyed
            }
        };
        let sat = |r: &SolveResult| matches!(r, SolveResult::Sat(_));
        match (&hit, &answer) {
            (Some(_), _) if !check => {}
            (Some(hit), asked) if !matches!(asked, SolveResult::Unknown(_)) => {
                if sat(hit) != sat(asked) {
                    self.stats.aa.disagreements += 1;
                }
            }
            _ => self.keep(keyed, &answer),
        }
        self.beside(store, &query, answer)
    }

    /// Counts a query that reached the address-aware cache, with how its
    /// key came out and whether it was answered.
    fn count_reached(&mut self, keyed: &Result<(AaKey, bool), NoKey>, answered: bool) {
        match keyed {
            Err(NoKey::NoBase) => return,
            Err(NoKey::Unsized) => self.stats.aa.symbolic_sizes += 1,
            Ok((_, false)) => self.stats.aa.guarded += 1,
            Ok((_, true)) => {}
        }
        self.stats.address_aware.queries += 1;
        if answered {
            self.stats.address_aware.hits += 1;
        }
    }

    /// Keeps `answer` under its key: a model, or unsat where the key
    /// allows it.
    fn keep(&mut self, keyed: Result<(AaKey, bool), NoKey>, answer: &SolveResult) {
        let Ok((key, reusable)) = keyed else { return };
        // A key the guard trusts is answered alike everywhere: an answer
        // of the other kind kept for it says otherwise (a model an exact
        // cache gave where unsat was kept, or unsat where a model did not
        // fit).
        let kept = self.aa.get(&key);
        match answer {
            SolveResult::Sat(model) => {
                if reusable && matches!(kept, Some(AaAnswer::Unsat)) {
                    self.stats.aa.disagreements += 1;
                }
                self.aa.insert(key, AaAnswer::Sat(Rc::new(model.clone())));
            }
            SolveResult::Unsat if reusable => {
                if matches!(kept, Some(AaAnswer::Sat(_))) {
                    self.stats.aa.disagreements += 1;
                }
                self.aa.insert(key, AaAnswer::Unsat);
            }
            SolveResult::Unsat | SolveResult::Unknown(_) => {}
        }
        self.stats.aa.entries = self.aa.entries() as u64;
        self.stats.aa.bytes = self.aa.bytes() as u64;
    }

    /// The constraints of `known` connected to `extra`, then `extra`: the
    /// query asked beside a path condition (all of `known` with the
    /// independence layer off).
    fn slice(&mut self, store: &TermStore, known: &[TermId], extra: &[TermId]) -> Vec<TermId> {
        let mut query = if self.config.layers.contains(&Layer::Independence) {
            self.symbols.connected(store, known, extra)
        } else {
            known.to_vec()
        };
        query.extend_from_slice(extra);
        query
    }

    fn beside(&mut self, store: &TermStore, query: &[TermId], answer: SolveResult) -> Beside {
        match answer {
            SolveResult::Sat(model) => Beside::Sat(self.symbols.witness(store, query, &model)),
            SolveResult::Unsat => Beside::Unsat,
            SolveResult::Unknown(why) => Beside::Unknown(why),
        }
    }

    /// A query with foralls over symbolic bounds, by the procedure of
    /// `quantified_merging.md` §6, its quantifier-free queries asked of
    /// the chain; answered by the costliest layer the last one needed.
    fn check_quantified(
        &mut self,
        store: &mut TermStore,
        assertions: &[TermId],
        budget: &QueryBudget,
        before_last: &mut BeforeLast<'_>,
    ) -> (SolveResult, AnsweredBy) {
        let query = match Query::of(store, assertions) {
            Ok(query) => query,
            Err(why) => return (SolveResult::Unknown(why), AnsweredBy::Nobody),
        };
        let mut by = AnsweredBy::Nobody;
        let start = Instant::now();
        let (result, stage, origins) = procedure::solve(store, &query, &mut |store, asked| {
            let (result, answered) = self.check_inner(store, asked, budget, before_last);
            by = answered;
            result
        });
        self.stats.quantified.count(stage);
        if self.quantified.len() < MAX_QUANTIFIED_KEPT {
            let micros = start.elapsed().as_micros() as u64;
            let answered = (&result, stage, &origins);
            let entry = quantified_entry(store, &query, assertions, answered, micros);
            self.quantified.push(entry);
        }
        (result, by)
    }

    /// Runs the query down the layers until every group has an answer or
    /// one group is unsat; the layers above each answer learn it. Where
    /// groups are left to the last layer, `before_last` may answer the
    /// whole query first (its model then taught to the layers above as
    /// each group's). Gives the answer and who answered.
    fn check_inner(
        &mut self,
        store: &mut TermStore,
        assertions: &[TermId],
        budget: &QueryBudget,
        before_last: &mut BeforeLast<'_>,
    ) -> (SolveResult, AnsweredBy) {
        let mut groups = vec![Group::new(store, assertions.to_vec(), 0)];
        let mut shared = Shared {
            symbols: &mut self.symbols,
            stats: &mut self.stats,
            stopped_by: &mut self.stopped_by,
            budget,
        };
        let last = self.stages.len() - 1;
        let mut offered = None;
        for (me, stage) in self.stages.iter_mut().enumerate() {
            if groups.iter().any(Group::is_unsat) || groups.iter().all(|g| g.answer.is_some()) {
                break;
            }
            if me == last {
                offered = before_last(store).filter(|r| !matches!(r, SolveResult::Unknown(_)));
                if let Some(SolveResult::Sat(model)) = &offered {
                    // The caches above learn these answers and trust a
                    // model on its own query: a group it does not satisfy
                    // (an inner query of the quantified procedure, offered
                    // the outer one's model) is left to the last layer.
                    let model = Rc::new(model.clone());
                    let satisfied = |g: &Group| store.satisfies(&g.constraints, &model);
                    for g in groups.iter_mut().filter(|g| g.answer.is_none()) {
                        if satisfied(g) {
                            g.answer(GroupAnswer::Sat(model.clone()), me, None);
                        }
                    }
                    if groups.iter().any(|g| g.answer.is_none()) {
                        offered = None;
                    }
                }
                if offered.is_some() {
                    break;
                }
            }
            stage.run(me, store, &mut groups, &mut shared);
        }
        for g in &groups {
            let by = g.answer.as_ref().map_or(0, |f| f.by);
            for stage in &mut self.stages[..by] {
                stage.learn(g);
            }
        }
        let deepest = groups
            .iter()
            .filter_map(|g| g.answer.as_ref().map(|f| f.by))
            .max();
        let by = match (&offered, deepest) {
            (Some(_), _) => AnsweredBy::BeforeLast,
            (None, Some(by)) => AnsweredBy::Stage(by),
            (None, None) => AnsweredBy::Nobody,
        };
        match offered {
            // An unsat answer belongs to the whole query, no group.
            Some(SolveResult::Unsat) => (SolveResult::Unsat, by),
            _ => (self.answer(store, assertions, &groups), by),
        }
    }

    /// The query's answer from its groups' answers.
    fn answer(
        &mut self,
        store: &TermStore,
        assertions: &[TermId],
        groups: &[Group],
    ) -> SolveResult {
        let mut model = Model::new();
        let mut unknown = None;
        for g in groups {
            match g.answer.as_ref().map(|f| &f.answer) {
                // A cached model may come from a larger query: take only
                // this group's part.
                Some(GroupAnswer::Sat(m)) => self
                    .symbols
                    .witness(store, &g.constraints, m)
                    .apply(&mut model),
                Some(GroupAnswer::Unsat) => return SolveResult::Unsat,
                Some(GroupAnswer::Unknown(why)) => unknown = Some(why.clone()),
                // Not reached: the last layer answers every group.
                None => unknown = Some("no layer answered".into()),
            }
        }
        if let Some(why) = unknown {
            return SolveResult::Unknown(why);
        }
        complete_model(store, assertions, &mut model);
        SolveResult::Sat(model)
    }
}

/// Whether a condition can hold beside a path condition
/// ([`Solver::check_beside_within`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Beside {
    /// It can, with the values a model gives the atoms of its slice.
    Sat(Witness),
    Unsat,
    /// The budget ran out; the reason says which.
    Unknown(String),
}

/// Gives every symbol of `assertions` that the model leaves out (because
/// simplification removed it) its default value, so models are total.
/// A quantified query's entry in the solver's record of them.
fn quantified_entry(
    store: &TermStore,
    query: &Query,
    assertions: &[TermId],
    (result, stage, origins): (&SolveResult, Option<QuantifiedStage>, &CellOrigins),
    micros: u64,
) -> QuantifiedQuery {
    let name = |t: TermId| match *store.node(t) {
        crate::expr::Node::Symbol(s) => store.symbol_name(s).to_string(),
        _ => format!("term {}", t.index()),
    };
    let (mut model, mut cells) = (Vec::new(), Vec::new());
    let answer = match result {
        SolveResult::Sat(m) => {
            for s in store.symbols_in(assertions) {
                let value = m.get(s).cloned();
                let value = value.unwrap_or_else(|| Value::default_of(store.symbol_sort(s)));
                let array = store.symbol_name(s).to_string();
                model.push(format!("{array} = {}", value_text(&value)));
                let Value::Array(a) = value else {
                    continue;
                };
                cells.extend(a.entries.iter().map(|(&index, &value)| {
                    let origin = match (s, index) {
                        at if origins.protected.contains(&at) => CellOrigin::Protected,
                        at if origins.duplicated.contains(&at) => CellOrigin::Duplicated,
                        _ => CellOrigin::Solver,
                    };
                    let array = array.clone();
                    ModelCell {
                        array,
                        index,
                        value,
                        origin,
                    }
                }));
            }
            "sat".to_string()
        }
        SolveResult::Unsat => "unsat".to_string(),
        SolveResult::Unknown(why) => format!("unknown: {why}"),
    };
    QuantifiedQuery {
        bounds: query.upper_bounds().into_iter().map(name).collect(),
        stage,
        answer,
        micros,
        model,
        cells,
    }
}

/// A model's value as the report shows it: a number, or an array's cells
/// (`[0] 97, [1] 97, else 0`).
fn value_text(value: &Value) -> String {
    match value {
        Value::Bool(b) => b.to_string(),
        Value::Bv { value, .. } => value.to_string(),
        Value::Array(a) => {
            let mut cells: Vec<String> = (a.entries.iter())
                .map(|(index, byte)| format!("[{index}] {byte}"))
                .collect();
            cells.push(format!("else {}", a.default));
            cells.join(", ")
        }
    }
}

fn complete_model(store: &TermStore, assertions: &[TermId], model: &mut Model) {
    for s in store.symbols_in(assertions) {
        if model.get(s).is_none() {
            let sort: Sort = store.symbol_sort(s);
            model.set(s, Value::default_of(sort));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvBinOp, BvCmp};

    #[test]
    fn a_quantified_querys_record_says_where_each_cell_came_from() {
        // ∀i ∈ [1, k]: s[i - 1] ≠ 0 answered with s = [8, 8, 5]: s[1]
        // copied, s[2] kept as a conflict, s[0] the solver's.
        let mut st = TermStore::new();
        let s = st.declare("s", Sort::Array).unwrap();
        let k = st.declare("k", Sort::Bv(32)).unwrap();
        let (zero, one) = (st.bv_const(8, 0), st.bv_const(32, 1));
        let i = st.bound(32);
        let before = st.bin(BvBinOp::Sub, i, one);
        let at = st.select(s, before);
        let zero_at = st.eq(at, zero);
        let body = st.not(zero_at);
        let all = st.forall(one, k, body).unwrap();
        let query = Query::of(&mut st, &[all]).unwrap();
        let symbol = |t: TermId| match *st.node(t) {
            crate::expr::Node::Symbol(s) => s,
            _ => unreachable!("a symbol"),
        };
        let (s, k) = (symbol(s), symbol(k));
        let mut model = Model::new();
        model.set(
            k,
            Value::Bv {
                width: 32,
                value: 3,
            },
        );
        for (index, byte) in [8, 8, 5].into_iter().enumerate() {
            model.set_byte(s, index as u32, byte);
        }
        let origins = CellOrigins {
            duplicated: [(s, 1)].into(),
            protected: [(s, 2)].into(),
        };
        let result = SolveResult::Sat(model);
        let answered = (&result, Some(QuantifiedStage::Repair), &origins);
        let entry = quantified_entry(&st, &query, &[all], answered, 7);
        let cells: Vec<(u32, u8, CellOrigin)> = (entry.cells.iter())
            .map(|c| (c.index, c.value, c.origin))
            .collect();
        assert_eq!(
            cells,
            [
                (0, 8, CellOrigin::Solver),
                (1, 8, CellOrigin::Duplicated),
                (2, 5, CellOrigin::Protected)
            ]
        );
        assert!(entry.cells.iter().all(|c| c.array == "s"));
        assert_eq!(entry.model, ["s = [0] 8, [1] 8, [2] 5, else 0", "k = 3"]);
    }

    /// `x < 10`, `x + y = 20`, `z > 3` over 8-bit symbols.
    fn store_with_branches() -> (TermStore, [TermId; 3]) {
        let mut s = TermStore::new();
        let x = s.declare("x", Sort::Bv(8)).unwrap();
        let y = s.declare("y", Sort::Bv(8)).unwrap();
        let z = s.declare("z", Sort::Bv(8)).unwrap();
        let (three, ten, twenty) = (s.bv_const(8, 3), s.bv_const(8, 10), s.bv_const(8, 20));
        let x_lt = s.cmp(BvCmp::Ult, x, ten);
        let sum = s.bin(BvBinOp::Add, x, y);
        let sum_eq = s.eq(sum, twenty);
        let z_gt = s.cmp(BvCmp::Ult, three, z);
        (s, [x_lt, sum_eq, z_gt])
    }

    #[test]
    fn models_satisfy_and_cover_every_symbol() {
        let (mut s, c) = store_with_branches();
        let mut solver = Solver::default();
        let SolveResult::Sat(model) = solver.check(&mut s, &c) else {
            panic!("satisfiable");
        };
        assert!(s.satisfies(&c, &model));
        for name in ["x", "y", "z"] {
            assert!(model.get(s.symbol_named(name).unwrap()).is_some(), "{name}");
        }
    }

    #[test]
    fn independent_groups_are_answered_from_the_caches() {
        let (mut s, c) = store_with_branches();
        let mut solver = Solver::default();
        assert!(matches!(solver.check(&mut s, &c[..2]), SolveResult::Sat(_)));
        let sat_calls = solver.stats().sat_solver.queries;
        // Adding an unrelated branch re-solves only the new group.
        assert!(matches!(solver.check(&mut s, &c), SolveResult::Sat(_)));
        assert_eq!(solver.stats().sat_solver.queries, sat_calls + 1);
        assert!(solver.stats().query_cache.hits >= 1);
        // The same query again never reaches SAT.
        assert!(matches!(solver.check(&mut s, &c), SolveResult::Sat(_)));
        assert_eq!(solver.stats().sat_solver.queries, sat_calls + 1);
    }

    #[test]
    fn an_unsat_core_answers_larger_queries() {
        let (mut s, c) = store_with_branches();
        let x = s.symbol_term(s.symbol_named("x").unwrap());
        let ten = s.bv_const(8, 10);
        let x_ge = s.cmp(BvCmp::Ule, ten, x);
        let mut solver = Solver::default();
        assert_eq!(solver.check(&mut s, &[c[0], x_ge]), SolveResult::Unsat);
        let sat_calls = solver.stats().sat_solver.queries;
        assert_eq!(
            solver.check(&mut s, &[c[0], c[1], x_ge]),
            SolveResult::Unsat
        );
        assert_eq!(solver.stats().sat_solver.queries, sat_calls);
        assert!(solver.stats().cex_cache.hits >= 1);
    }

    #[test]
    fn a_stored_model_answers_a_weaker_query() {
        let (mut s, c) = store_with_branches();
        let x = s.symbol_term(s.symbol_named("x").unwrap());
        let hundred = s.bv_const(8, 100);
        let x_lt_100 = s.cmp(BvCmp::Ult, x, hundred);
        let mut solver = Solver::default();
        assert!(matches!(
            solver.check(&mut s, &[c[0], c[1]]),
            SolveResult::Sat(_)
        ));
        let sat_calls = solver.stats().sat_solver.queries;
        // x < 10 and x + y = 20 has a model with x < 100 too.
        let query = [c[0], c[1], x_lt_100];
        let SolveResult::Sat(model) = solver.check(&mut s, &query) else {
            panic!("satisfiable");
        };
        assert!(s.satisfies(&query, &model));
        assert_eq!(solver.stats().sat_solver.queries, sat_calls);
        assert!(solver.stats().cex_cache.hits >= 1);
    }

    #[test]
    fn every_layer_off_gives_the_same_answers() {
        let (mut s, c) = store_with_branches();
        let x = s.symbol_term(s.symbol_named("x").unwrap());
        let ten = s.bv_const(8, 10);
        let x_ge = s.cmp(BvCmp::Ule, ten, x);
        let bare = SolverConfig {
            layers: vec![Layer::Sat],
            ..SolverConfig::default()
        };
        let mut full = Solver::default();
        let mut plain = Solver::new(bare);
        for query in [&c[..], &[c[0], x_ge][..], &[c[1], c[2]][..]] {
            let a = full.check(&mut s, query);
            let b = plain.check(&mut s, query);
            assert_eq!(
                matches!(a, SolveResult::Sat(_)),
                matches!(b, SolveResult::Sat(_))
            );
            assert_eq!(a == SolveResult::Unsat, b == SolveResult::Unsat);
        }
        assert_eq!(plain.stats().query_cache.queries, 0);
        assert_eq!(plain.stats().sat_solver.queries, 3);
    }

    #[test]
    fn a_condition_beside_a_path_is_asked_with_its_slice_only() {
        let mut s = TermStore::new();
        let input = s.declare("input", Sort::Array).unwrap();
        // A path of 12 conditions on 12 bytes, then a branch on byte 3.
        let on = |s: &mut TermStore, k: u64, value: u64| {
            let at = s.bv_const(32, k);
            let byte = s.select(input, at);
            let v = s.bv_const(8, value);
            s.cmp(BvCmp::Ult, byte, v)
        };
        let path: Vec<TermId> = (0..12).map(|k| on(&mut s, k, 100 + k)).collect();
        let above = on(&mut s, 3, 2);
        let below = s.not(above);
        let limits = Limits::default();
        let mut sliced = Solver::default();
        let mut whole = Solver::default();
        for side in [above, below] {
            let a = sliced.check_beside_within(&mut s, &path, &[side], &limits);
            let b = whole.check(&mut s, &[path.clone(), vec![side]].concat());
            assert_eq!(
                matches!(a, Beside::Sat(_)),
                matches!(b, SolveResult::Sat(_))
            );
        }
        // One group per query (byte 3's) against the path's 12.
        assert_eq!(sliced.stats().independence.queries, 2);
        assert_eq!(whole.stats().independence.queries, 24);
        // A side the slice rules out is unsat beside the whole path.
        let three = s.bv_const(32, 3);
        let byte3 = s.select(input, three);
        let big = s.bv_const(8, 200);
        let too_big = s.cmp(BvCmp::Ult, big, byte3);
        let answer = sliced.check_beside_within(&mut s, &path, &[too_big], &limits);
        assert_eq!(answer, Beside::Unsat);
        // Without the independence layer, the path is asked whole.
        let mut unsliced = Solver::new(SolverConfig::default().without(Layer::Independence));
        let answer = unsliced.check_beside_within(&mut s, &path, &[too_big], &limits);
        assert_eq!(answer, Beside::Unsat);
    }

    #[test]
    fn layers_run_in_the_listed_order_and_a_left_out_one_does_nothing() {
        let (mut s, c) = store_with_branches();
        // Independence before simplification, and no query cache: the
        // counterexample cache answers the repeated query instead.
        let config = SolverConfig {
            layers: vec![Layer::Independence, Layer::Simplify, Layer::CexCache],
            ..SolverConfig::default()
        };
        let mut reordered = Solver::new(config);
        let mut full = Solver::default();
        for _ in 0..2 {
            let a = reordered.check(&mut s, &c);
            let SolveResult::Sat(model) = &a else {
                panic!("satisfiable: {a:?}");
            };
            assert!(s.satisfies(&c, model));
            assert!(matches!(full.check(&mut s, &c), SolveResult::Sat(_)));
        }
        let stats = reordered.stats();
        assert_eq!(stats.query_cache.queries, 0);
        // Two independent groups, solved once each, then found in the cache.
        assert_eq!(stats.independence.queries, 4);
        assert_eq!(stats.sat_solver.queries, 2);
        assert_eq!(stats.cex_cache.hits, 2);
        assert_eq!(full.stats().query_cache.hits, 2);
        let without = SolverConfig::default()
            .without(Layer::CexCache)
            .without(Layer::Sat);
        assert_eq!(
            without.layers,
            [
                Layer::Simplify,
                Layer::Independence,
                Layer::QueryCache,
                Layer::Sat
            ]
        );
    }
}
