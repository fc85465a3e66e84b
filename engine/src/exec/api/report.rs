//! An exploration's report: its paths and tree, statistics, coverage,
//! the sites where paths were dropped or made concrete, and warnings.

use super::exploration::Exploration;
use super::shard::ran_ranges;
use crate::exec::context::records::Trace;
use crate::exec::semantics::MAX_FRAMES;
use crate::limits::heap_peak;
use crate::report::{
    ConcretisedSite, Coverage, DropSite, Formulas, LayerReport, Report, RunLimits, ShardReport,
    Stats, Timing, SCHEMA_VERSION,
};
use crate::solver::{Layer, LayerStats, SolverStats};
use std::borrow::Borrow;
use symplay_wasm::Module;

impl<M: Borrow<Module>> Exploration<M> {
    /// The report so far: paths, tree and statistics; `stop_reason` is
    /// `running` until the run is over.
    pub fn snapshot(&self) -> Report {
        let mut report = self.report_without_paths();
        report.paths = self.context.records.paths.clone();
        report.tree = self.context.records.tree.render();
        report.formulas = self.context.records.formulas.formulas().clone();
        report
    }

    pub fn finish(mut self) -> Report {
        self.finish_with_trace().0
    }

    pub(super) fn finish_with_trace(&mut self) -> (Report, Option<Trace>) {
        let mut report = self.report_without_paths();
        report.paths = std::mem::take(&mut self.context.records.paths);
        report.tree = self.context.records.tree.render();
        report.formulas = self.context.records.formulas.take();
        (report, self.context.records.trace.take())
    }

    fn report_without_paths(&self) -> Report {
        let cx = &self.context;
        let solver_stats = *cx.solver.stats();
        let coverage = Coverage {
            covered_instructions: cx.records.covered.iter().flatten().filter(|&&c| c).count()
                as u64,
            total_instructions: cx.records.covered.iter().map(|c| c.len() as u64).sum(),
        };
        let pending = self.pending() as u64;
        let (max_state_bytes, mean_state_bytes) = cx.records.tree.state_bytes();
        let aa = !self.options.heap.aa_cache.is_off();
        let (layers, layers_ms) = layer_reports(&solver_stats, cx.solver.layers(), aa)
            .into_iter()
            .unzip();
        let stats = Stats {
            instructions: cx.counters.instructions,
            forks: cx.counters.forks,
            paths: cx.records.paths.len() as u64,
            dropped_paths: cx.records.drops.total(),
            pending_states: pending,
            queries: solver_stats.queries,
            query_cache_hits: solver_stats.query_cache.hits,
            cex_cache_hits: solver_stats.cex_cache.hits,
            sat_calls: solver_stats.sat_solver.queries,
            solver_unknown: solver_stats.unknown,
            answered: solver_stats.answered,
            terms: cx.terms.len() as u64,
            peak_memory_bytes: heap_peak().unwrap_or(self.peak_memory),
            max_state_bytes,
            mean_state_bytes,
            sat_variables: solver_stats.sat_vars_made,
            sat_clauses: solver_stats.sat_clauses_made,
            largest_array_bytes: cx.counters.largest_array,
            split_accesses: cx.counters.split_accesses,
            segments: cx.counters.segments,
            largest_segment_bytes: cx.counters.largest_segment,
            context_resolutions: cx.counters.context_resolutions,
            layers,
            address_aware: aa.then_some(solver_stats.aa),
            merging: cx.merging.stats(),
            quantified: (solver_stats.quantified.total() > 0).then_some(solver_stats.quantified),
            timing: Timing {
                total_ms: self.started.elapsed().as_secs_f64() * 1000.0,
                solver_ms: solver_stats.total_time.as_secs_f64() * 1000.0,
                layers_ms,
            },
        };
        Report {
            schema_version: SCHEMA_VERSION,
            entry: self.entry_name.clone(),
            params: self.params.clone(),
            search: self.options.search.name().to_string(),
            seed: self.options.seed,
            concrete_args: self.options.concrete_args.clone(),
            buffer_args: self.options.buffer_args.clone(),
            heap: self.options.heap.clone(),
            merge: self.options.merge,
            memory_model: if self.roles.heap_start.is_some() {
                "objects".into()
            } else {
                "flat".into()
            },
            warnings: self.warnings(),
            stop_reason: self.stop_reason.clone().unwrap_or_else(|| "running".into()),
            limits: RunLimits {
                max_time_ms: self.options.max_time.map(|t| t.as_millis() as u64),
                max_paths: self.options.max_paths,
                max_depth: self.options.max_depth,
                max_instructions: self.options.max_instructions,
                max_memory_bytes: self.options.max_memory,
                max_call_depth: self
                    .options
                    .max_call_depth
                    .filter(|&n| n as usize != MAX_FRAMES),
            },
            outcomes: self.options.outcomes,
            havoc_imports: self.options.havoc_imports,
            shard: (self.shard.clone()).map(|shard| ShardReport {
                ran: ran_ranges(&cx.records.covered),
                ..shard
            }),
            paths: Vec::new(),
            tree: Vec::new(),
            merges: cx.merging.reports().to_vec(),
            quantified_queries: cx.solver.quantified_queries().to_vec(),
            formulas: Formulas::default(),
            drops: cx
                .records
                .drops
                .sites()
                .iter()
                .map(|(cause, location, paths)| DropSite {
                    cause: *cause,
                    location: location.clone(),
                    paths: *paths,
                })
                .collect(),
            concretised: cx
                .records
                .concretised
                .sites()
                .iter()
                .map(|(what, location, paths)| ConcretisedSite {
                    what: what.clone(),
                    location: location.clone(),
                    paths: *paths,
                })
                .collect(),
            coverage,
            stats,
        }
    }

    /// Allocator functions run as they are, merges validation found wrong,
    /// and forks the path limit cut.
    fn warnings(&self) -> Vec<String> {
        let mut warnings = self.roles.skipped.clone();
        warnings.extend_from_slice(self.context.merging.violations());
        if let (n @ 1.., Some(max)) = (self.context.counters.unforked, self.options.max_paths) {
            warnings.push(format!(
                "the path limit ({max}) left {n} sides of forks unexplored: \
                 past it, each state followed one side to its end"
            ));
        }
        warnings
    }
}

/// The solver chain's layers in a run, outermost first (the address-aware
/// cache, when on, in front of SAT, the last), each with its time.
fn layer_reports(
    stats: &SolverStats,
    layers: &[Layer],
    address_aware: bool,
) -> Vec<(LayerReport, f64)> {
    let row = |name: &str, l: LayerStats| {
        let report = LayerReport {
            name: name.into(),
            queries: l.queries,
            answered: l.hits,
        };
        (report, l.time.as_secs_f64() * 1000.0)
    };
    let mut rows: Vec<_> = (layers.iter())
        .map(|&l| row(l.name(), stats.of_layer(l)))
        .collect();
    if address_aware {
        let sat = rows.len().saturating_sub(1);
        rows.insert(sat, row("address-aware cache", stats.address_aware));
    }
    rows
}
