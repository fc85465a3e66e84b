//! The solver chain, outermost first: simplification, constraint independence,
//! exact query cache, counterexample cache, bit-blasting and SAT.

pub mod bitblast;
mod cache;
mod independence;
pub mod sat;
pub mod simplify;

pub use crate::limits::Interrupt;

use crate::expr::{Model, Sort, TermId, TermStore, Value};
use crate::limits::{Limits, Reached};
use bitblast::{BitBlaster, BlastAnswer};
use cache::{CexCache, QueryCache};
use independence::SymbolIndex;
use simplify::Simplifier;
use std::rc::Rc;
use web_time::{Duration, Instant};

/// How much work one query may do before the answer is `unknown`: checked
/// in bit-blasting and in the SAT search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Conflicts the SAT core may spend on one query.
    pub max_conflicts: Option<u64>,
    /// Wall-clock time one query may take.
    pub timeout: Option<Duration>,
    /// Once set, the query under way ends as `unknown`.
    pub interrupt: Option<Interrupt>,
    /// Heap in use past which the query ends as `unknown` (where the heap
    /// is metered: [`crate::limits`]).
    pub max_memory: Option<u64>,
}

impl Budget {
    /// The budget of a query that starts now. Its deadline is fixed here,
    /// once, so that every phase of the query and every independent group
    /// share one time limit.
    pub fn starting_now(&self) -> QueryBudget {
        QueryBudget {
            limits: Limits {
                deadline: self.timeout.map(|t| Instant::now() + t),
                interrupt: self.interrupt,
                max_memory: self.max_memory,
            },
            max_conflicts: self.max_conflicts,
        }
    }
}

/// The budget of one query under way: absolute limits, and the conflicts
/// each SAT call may spend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryBudget {
    pub limits: Limits,
    pub max_conflicts: Option<u64>,
}

/// The answer to a satisfiability query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// Satisfiable, with a value for every symbol of the query.
    Sat(Model),
    Unsat,
    /// The budget ran out; the reason says which.
    Unknown(String),
}

/// Which layers of the chain run, and the SAT budget. Every layer is on by
/// default; turning one off is for measuring what it is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    pub budget: Budget,
    pub simplify: bool,
    pub independence: bool,
    pub query_cache: bool,
    pub cex_cache: bool,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            budget: Budget::default(),
            simplify: true,
            independence: true,
            query_cache: true,
            cex_cache: true,
        }
    }
}

/// Work done by one layer: how many queries reached it, how many it answered,
/// and the time spent in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerStats {
    pub queries: u64,
    pub hits: u64,
    pub time: Duration,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Calls to [`Solver::check`].
    pub queries: u64,
    pub sat: u64,
    pub unsat: u64,
    pub unknown: u64,
    /// Hits: queries decided by simplification alone.
    pub simplify: LayerStats,
    /// Queries: independent groups produced; hits: constraints of those
    /// groups that earlier answers already covered.
    pub independence: LayerStats,
    pub query_cache: LayerStats,
    pub cex_cache: LayerStats,
    /// Queries: SAT calls; hits: those answered sat or unsat.
    pub sat_solver: LayerStats,
    pub sat_vars: u64,
    pub sat_clauses: u64,
    pub total_time: Duration,
}

/// The solver chain. It keeps caches and one incremental SAT instance between
/// queries, so it is meant to live as long as its [`TermStore`].
pub struct Solver {
    config: SolverConfig,
    simplifier: Simplifier,
    symbols: SymbolIndex,
    query_cache: QueryCache,
    cex_cache: CexCache,
    blaster: BitBlaster,
    stats: SolverStats,
    /// The run's limit that ended the last query without an answer.
    stopped_by: Option<Reached>,
}

/// The answer for one independent group of constraints.
#[derive(Clone)]
enum GroupAnswer {
    Sat(Rc<Model>),
    Unsat,
    Unknown(String),
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new(SolverConfig::default())
    }
}

impl Solver {
    pub fn new(config: SolverConfig) -> Solver {
        Solver {
            config,
            simplifier: Simplifier::new(),
            symbols: SymbolIndex::default(),
            query_cache: QueryCache::default(),
            cex_cache: CexCache::default(),
            blaster: BitBlaster::new(),
            stats: SolverStats::default(),
            stopped_by: None,
        }
    }

    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    pub fn set_budget(&mut self, budget: Budget) {
        self.config.budget = budget;
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
        let start = Instant::now();
        self.stopped_by = None;
        self.stats.queries += 1;
        let budget = self.config.budget.starting_now();
        let result = self.check_inner(store, assertions, &budget);
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
        self.stats.sat_vars = self.blaster.num_vars() as u64;
        self.stats.sat_clauses = self.blaster.num_clauses() as u64;
        self.stats.total_time += start.elapsed();
        result
    }

    fn check_inner(
        &mut self,
        store: &mut TermStore,
        assertions: &[TermId],
        budget: &QueryBudget,
    ) -> SolveResult {
        let constraints = if self.config.simplify {
            let start = Instant::now();
            self.stats.simplify.queries += 1;
            let simplified = self.simplifier.simplify_constraints(store, assertions);
            self.stats.simplify.time += start.elapsed();
            simplified
        } else {
            assertions.to_vec()
        };
        let mut constraints: Vec<TermId> = constraints
            .into_iter()
            .filter(|&c| store.as_bool_const(c) != Some(true))
            .collect();
        if constraints
            .iter()
            .any(|&c| store.as_bool_const(c) == Some(false))
        {
            self.stats.simplify.hits += 1;
            return SolveResult::Unsat;
        }
        if constraints.is_empty() && self.config.simplify {
            self.stats.simplify.hits += 1;
        }
        constraints.sort_unstable();
        constraints.dedup();

        let groups = if self.config.independence {
            let start = Instant::now();
            let groups = self.symbols.partition(store, &constraints);
            self.stats.independence.queries += groups.len() as u64;
            self.stats.independence.time += start.elapsed();
            groups
        } else {
            vec![constraints]
        };

        let mut model = Model::new();
        let mut unknown = None;
        for group in groups {
            match self.check_group(store, &group, budget) {
                // A cached model may come from a larger query: take only this group's part.
                GroupAnswer::Sat(m) => self
                    .symbols
                    .merge_group_model(store, &group, &m, &mut model),
                GroupAnswer::Unsat => return SolveResult::Unsat,
                GroupAnswer::Unknown(why) => unknown = Some(why),
            }
        }
        if let Some(why) = unknown {
            return SolveResult::Unknown(why);
        }
        complete_model(store, assertions, &mut model);
        SolveResult::Sat(model)
    }

    /// Solves one independent group of sorted, simplified constraints.
    fn check_group(
        &mut self,
        store: &TermStore,
        group: &[TermId],
        budget: &QueryBudget,
    ) -> GroupAnswer {
        if self.config.query_cache {
            let start = Instant::now();
            self.stats.query_cache.queries += 1;
            let hit = self.query_cache.get(group);
            self.stats.query_cache.time += start.elapsed();
            if let Some(answer) = hit {
                self.stats.query_cache.hits += 1;
                self.stats.independence.hits += group.len() as u64;
                return answer;
            }
        }
        if self.config.cex_cache {
            let start = Instant::now();
            self.stats.cex_cache.queries += 1;
            let hit = self.cex_cache.lookup(store, group);
            self.stats.cex_cache.time += start.elapsed();
            if let Some(answer) = hit {
                self.stats.cex_cache.hits += 1;
                if self.config.query_cache {
                    self.query_cache.insert(group, &answer);
                }
                return answer;
            }
        }
        let start = Instant::now();
        self.stats.sat_solver.queries += 1;
        let answer = self.blaster.solve(store, group, budget);
        self.stats.sat_solver.time += start.elapsed();
        let answer = match answer {
            BlastAnswer::Sat(model) => {
                let model = Rc::new(model);
                if self.config.cex_cache {
                    self.cex_cache.insert_sat(group, model.clone());
                }
                GroupAnswer::Sat(model)
            }
            BlastAnswer::Unsat { core } => {
                if self.config.cex_cache {
                    self.cex_cache.insert_unsat(&core);
                }
                GroupAnswer::Unsat
            }
            BlastAnswer::Unknown { why, limit } => {
                self.stopped_by = self.stopped_by.or(limit);
                return GroupAnswer::Unknown(why);
            }
        };
        self.stats.sat_solver.hits += 1;
        if self.config.query_cache {
            self.query_cache.insert(group, &answer);
        }
        answer
    }
}

/// Gives every symbol of `assertions` that the model leaves out (because
/// simplification removed it) its default value, so models are total.
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
            simplify: false,
            independence: false,
            query_cache: false,
            cex_cache: false,
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
}
