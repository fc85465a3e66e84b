//! A waiting state handed from one exploration to another (a job of a
//! parallel run, in a thread or a Web Worker), named by the decisions
//! from the root to its node, and the exploration of the subtree below it:
//! the run goes down that route (at each fork that splits, the route's
//! side; no path ends on the way; values made concrete take a test's),
//! then explores freely.

use super::exploration::Exploration;
use super::options::{ExploreError, Options};
use crate::exec::context::guidance::InputSource;
use crate::report::TestInput;
use crate::state::MergeMode;
use serde::{Deserialize, Serialize};
use std::borrow::Borrow;
use symplay_wasm::Module;

/// A state handed from one job to another: where it is in the tree, and
/// how to get there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Handover {
    /// The alternatives taken from the root to its node, one per fork
    /// that split its way.
    pub decisions: Vec<u32>,
    /// Values of its inputs in a model of its path condition, for the
    /// values made concrete on its way.
    pub test: TestInput,
}

impl<M: Borrow<Module>> Exploration<M> {
    /// An exploration of the subtree below the state `handover` names: the
    /// run follows its test to that state, then explores every side.
    pub fn for_subtree(
        module: M,
        entry_name: &str,
        options: &Options,
        handover: &Handover,
    ) -> Result<Self, ExploreError> {
        let source = InputSource::Guided(handover.test.clone());
        let route = Some(handover.decisions.as_slice());
        Exploration::with_source(module, entry_name, options, source, None, route)
    }

    /// Takes a waiting state out of the run for another job: the
    /// shallowest outside merging contexts, its node marked as handed
    /// over. `None` when there is none to spare.
    pub fn hand_over(&mut self) -> Option<Handover> {
        if self.is_finished()
            || self.options.merge.mode != MergeMode::None
            || self.context.guidance.on_the_way()
        {
            return None;
        }
        let (s, test) = self.with_executor(|exec, scheduler| {
            let mut s = scheduler.take_for_another(&mut exec.cx.records.tree)?;
            let test = exec.test_to(&mut s);
            Some((s, test))
        })?;
        let tree = &mut self.context.records.tree;
        tree.hand_over(s.node);
        let mut decisions = self.subtree_at.clone();
        decisions.extend(tree.decisions(s.node));
        Some(Handover { decisions, test })
    }

    /// Whether each instruction ran, per function and pc.
    pub fn covered(&self) -> &[Vec<bool>] {
        &self.context.records.covered
    }

    /// Paths of a job that ended before the state it was handed.
    pub fn off_course(&self) -> u64 {
        self.context.counters.off_course
    }
}
