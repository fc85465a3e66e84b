//! The solver chain as a list of layers behind one interface. A query goes
//! down the list as groups of constraints: a layer may rewrite the groups
//! (simplification, independence) or answer some of them (the caches, and
//! last bit-blasting and SAT, which answers every group left). Once a group
//! is answered, every layer above the one that answered it learns the
//! answer (the caches store it). A new layer is one more variant here and
//! one more entry in [`SolverConfig::layers`]; leaving an entry out
//! switches that layer off. The address-aware cache is offered in front
//! of the last layer (`Solver::check_beside_aware`): it keys on a query
//! whole, with base forms only the caller knows, and answers it whole
//! when the exact layers leave groups of it to SAT.

use super::bitblast::{BitBlaster, BlastAnswer};
use super::cache::{CexCache, QueryCache};
use super::independence::SymbolIndex;
use super::query::{GroupAnswer, LayerStats, QueryAnswers, QueryBudget, SolverStats};
use super::simplify::Simplifier;
use crate::expr::{TermId, TermStore};
use crate::limits::{Checkpoint, Reached};
use std::rc::Rc;
use web_time::Instant;

/// A layer of the chain, named in [`SolverConfig::layers`](super::SolverConfig).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// Rewrites each group's constraints; decides those it folds to a
    /// constant.
    Simplify,
    /// Splits each group into groups that share no symbol.
    Independence,
    /// Answers a group seen before, exactly.
    QueryCache,
    /// Answers from stored unsatisfiable cores and models (KLEE's).
    CexCache,
    /// Bit-blasting and SAT: answers every group that reaches it. Always
    /// the last layer; a list without it gets it appended.
    Sat,
}

impl Layer {
    pub fn name(self) -> &'static str {
        match self {
            Layer::Simplify => "simplification",
            Layer::Independence => "independence",
            Layer::QueryCache => "query cache",
            Layer::CexCache => "counterexample cache",
            Layer::Sat => "SAT",
        }
    }

    /// Every layer, in the default order.
    pub const ALL: [Layer; 5] = [
        Layer::Simplify,
        Layer::Independence,
        Layer::QueryCache,
        Layer::CexCache,
        Layer::Sat,
    ];
}

/// A group of sorted, distinct constraints, and its answer once a layer gave
/// one.
pub(super) struct Group {
    pub constraints: Vec<TermId>,
    pub answer: Option<Found>,
}

/// An answer, the layer that gave it, and the unsatisfiable core it found.
pub(super) struct Found {
    pub answer: GroupAnswer,
    pub by: usize,
    pub core: Option<Vec<TermId>>,
}

impl Group {
    /// A group of `constraints` without those that are `true`; one that
    /// holds `false` is answered unsat at once (by layer `by`).
    pub fn new(store: &TermStore, mut constraints: Vec<TermId>, by: usize) -> Group {
        constraints.retain(|&c| store.as_bool_const(c) != Some(true));
        constraints.sort_unstable();
        constraints.dedup();
        let answer = constraints
            .iter()
            .any(|&c| store.as_bool_const(c) == Some(false))
            .then_some(Found {
                answer: GroupAnswer::Unsat,
                by,
                core: None,
            });
        Group {
            constraints,
            answer,
        }
    }

    pub fn is_unsat(&self) -> bool {
        matches!(
            self.answer,
            Some(Found {
                answer: GroupAnswer::Unsat,
                ..
            })
        )
    }

    pub fn answer(&mut self, answer: GroupAnswer, by: usize, core: Option<Vec<TermId>>) {
        self.answer = Some(Found { answer, by, core });
    }
}

/// A layer with what it keeps between queries.
pub(super) enum Stage {
    Simplify(Simplifier),
    Independence,
    QueryCache(QueryCache),
    CexCache(CexCache),
    Sat(Box<BitBlaster>),
}

/// What the layers share: the symbol index (independence splits by it, and
/// a group's model is assembled with it), the statistics, and the limit
/// that cut off a query.
pub(super) struct Shared<'a> {
    pub symbols: &'a mut SymbolIndex,
    pub stats: &'a mut SolverStats,
    pub stopped_by: &'a mut Option<Reached>,
    pub budget: &'a QueryBudget,
}

impl Shared<'_> {
    /// Leaves `g` unknown at the run's `limit`, reached in layer `me`.
    fn stop_at(&mut self, g: &mut Group, me: usize, limit: Reached) {
        *self.stopped_by = self.stopped_by.or(Some(limit));
        g.answer(GroupAnswer::Unknown(limit.stop_reason().into()), me, None);
    }
}

impl Stage {
    pub fn new(layer: Layer) -> Stage {
        match layer {
            Layer::Simplify => Stage::Simplify(Simplifier::new()),
            Layer::Independence => Stage::Independence,
            Layer::QueryCache => Stage::QueryCache(QueryCache::default()),
            Layer::CexCache => Stage::CexCache(CexCache::default()),
            Layer::Sat => Stage::Sat(Box::default()),
        }
    }

    /// Counts a query that this stage was the costliest to answer.
    pub fn count_answer(&self, answered: &mut QueryAnswers) {
        *match self {
            Stage::Simplify(_) => &mut answered.simplified,
            Stage::Independence => &mut answered.sliced,
            Stage::QueryCache(_) => &mut answered.query_cache,
            Stage::CexCache(_) => &mut answered.cex_cache,
            Stage::Sat(_) => &mut answered.sat,
        } += 1;
    }

    fn stats<'s>(&self, stats: &'s mut SolverStats) -> &'s mut LayerStats {
        match self {
            Stage::Simplify(_) => &mut stats.simplify,
            Stage::Independence => &mut stats.independence,
            Stage::QueryCache(_) => &mut stats.query_cache,
            Stage::CexCache(_) => &mut stats.cex_cache,
            Stage::Sat(_) => &mut stats.sat_solver,
        }
    }

    /// Runs this layer (number `me` in the list) on the groups not answered
    /// yet.
    pub fn run(
        &mut self,
        me: usize,
        store: &mut TermStore,
        groups: &mut Vec<Group>,
        shared: &mut Shared<'_>,
    ) {
        let start = Instant::now();
        match self {
            Stage::Simplify(simplifier) => {
                shared.stats.simplify.queries += 1;
                let checkpoint = &mut Checkpoint::new(shared.budget.limits);
                for g in groups.iter_mut().filter(|g| g.answer.is_none()) {
                    let simplified =
                        simplifier.simplify_constraints_within(store, &g.constraints, checkpoint);
                    let simplified = match simplified {
                        Ok(simplified) => simplified,
                        Err(limit) => {
                            shared.stop_at(g, me, limit);
                            break;
                        }
                    };
                    *g = Group::new(store, simplified, me);
                    // Folded to nothing: satisfiable by any model.
                    if g.constraints.is_empty() {
                        g.answer(GroupAnswer::Sat(Rc::default()), me, None);
                    }
                    if g.answer.is_some() {
                        shared.stats.simplify.hits += 1;
                    }
                }
            }
            Stage::Independence => {
                let mut split = Vec::with_capacity(groups.len());
                for g in groups.drain(..) {
                    if g.answer.is_some() {
                        split.push(g);
                        continue;
                    }
                    let parts = shared.symbols.partition(store, &g.constraints);
                    shared.stats.independence.queries += parts.len() as u64;
                    split.extend(parts.into_iter().map(|constraints| Group {
                        constraints,
                        answer: None,
                    }));
                }
                *groups = split;
            }
            Stage::QueryCache(cache) => {
                for g in groups.iter_mut().filter(|g| g.answer.is_none()) {
                    shared.stats.query_cache.queries += 1;
                    if let Some(answer) = cache.get(&g.constraints) {
                        shared.stats.query_cache.hits += 1;
                        shared.stats.independence.hits += g.constraints.len() as u64;
                        g.answer(answer, me, None);
                    }
                }
            }
            Stage::CexCache(cache) => {
                let checkpoint = &mut Checkpoint::new(shared.budget.limits);
                for g in groups.iter_mut().filter(|g| g.answer.is_none()) {
                    shared.stats.cex_cache.queries += 1;
                    match cache.lookup(store, &g.constraints, checkpoint) {
                        Ok(Some(answer)) => {
                            shared.stats.cex_cache.hits += 1;
                            g.answer(answer, me, None);
                        }
                        Ok(None) => {}
                        Err(limit) => {
                            shared.stop_at(g, me, limit);
                            break;
                        }
                    }
                }
            }
            Stage::Sat(blaster) => {
                for g in groups.iter_mut().filter(|g| g.answer.is_none()) {
                    shared.stats.sat_solver.queries += 1;
                    match blaster.solve(store, &g.constraints, shared.budget) {
                        BlastAnswer::Sat(model) => {
                            shared.stats.sat_solver.hits += 1;
                            g.answer(GroupAnswer::Sat(Rc::new(model)), me, None);
                        }
                        BlastAnswer::Unsat { core } => {
                            shared.stats.sat_solver.hits += 1;
                            g.answer(GroupAnswer::Unsat, me, Some(core));
                        }
                        BlastAnswer::Unknown { why, limit } => {
                            *shared.stopped_by = shared.stopped_by.or(limit);
                            g.answer(GroupAnswer::Unknown(why), me, None);
                        }
                    }
                    // One unsat group decides the query.
                    if g.is_unsat() {
                        break;
                    }
                }
                shared.stats.sat_vars = blaster.num_vars() as u64;
                shared.stats.sat_clauses = blaster.num_clauses() as u64;
                shared.stats.sat_vars_made = blaster.vars_made();
                shared.stats.sat_clauses_made = blaster.clauses_made();
            }
        }
        self.stats(shared.stats).time += start.elapsed();
    }

    /// Learns the answer a layer below gave for `group`.
    pub fn learn(&mut self, group: &Group) {
        let Some(found) = &group.answer else { return };
        match self {
            Stage::QueryCache(cache) => cache.insert(&group.constraints, &found.answer),
            Stage::CexCache(cache) => match (&found.answer, &found.core) {
                (GroupAnswer::Sat(model), _) => cache.insert_sat(&group.constraints, model.clone()),
                (GroupAnswer::Unsat, Some(core)) => cache.insert_unsat(core),
                _ => {}
            },
            Stage::Simplify(_) | Stage::Independence | Stage::Sat(_) => {}
        }
    }
}
