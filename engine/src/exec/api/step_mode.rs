//! Step mode: an exploration run one instruction, or one branch, at a
//! time, each step saying what happened and which state runs next; the
//! time spent waiting for a step is not the run's.

use super::exploration::Exploration;
use crate::exec::program::Program;
use crate::exec::run::scheduler::{Moved, Pace, Stretch};
use crate::report::step::{MergeView, StateView, Step, StepBy, StepEvent};
use std::borrow::Borrow;
use symplay_wasm::Module;
use web_time::{Duration, Instant};

impl<M: Borrow<Module>> Exploration<M> {
    /// Step mode: the start, before anything runs (step 0).
    pub fn first_step(&mut self) -> Step {
        self.idle_since = Some(Instant::now());
        Step {
            number: 0,
            events: vec![StepEvent::Started {
                entry: self.entry_name.clone(),
            }],
            instructions: 0,
            next: self.next_state(),
            next_merge: None,
        }
    }

    /// Step mode: runs the state that runs next for one instruction, or to
    /// its next fork or the end of its path, within `budget`. `None` when
    /// the step is not done by then (the next call goes on with it); the
    /// step that ends the run says so and has no next state.
    pub fn step(&mut self, by: StepBy, budget: Duration) -> Option<Step> {
        // Time spent waiting for the step is not the run's: the time limit
        // and the run's time go on from where the last step ended.
        if let Some(since) = self.idle_since.take() {
            let idle = since.elapsed();
            self.started += idle;
            if let Some(deadline) = &mut self.context.bounds.limits.deadline {
                *deadline += idle;
            }
        }
        let records = &self.context.records;
        let since = *self
            .step_from
            .get_or_insert((records.tree.len(), records.paths.len()));
        let mut over = self.is_finished();
        let mut dropped = None;
        let mut waited = None;
        if !over {
            let pace = match by {
                StepBy::Instruction => Pace::Instruction,
                StepBy::Branch => Pace::Branch,
            };
            let stretch = self.run_stretch(budget, pace, &mut |_| true);
            // A stop in the merges a step set off ends the run with the
            // step.
            let moved = match stretch {
                Stretch::Paused => return None,
                Stretch::Stepped(moved) => Some(moved),
                Stretch::Stopped(_) => self.scheduler.take_stepped(),
                Stretch::Completed => None,
            };
            match moved {
                Some(Moved::Ended(node)) if self.context.records.tree.node(node).dropped => {
                    dropped = Some(node);
                }
                Some(Moved::Suspended(node)) => waited = Some(node),
                _ => {}
            }
            if matches!(stretch, Stretch::Completed | Stretch::Stopped(_)) {
                self.end_if_over(stretch);
                over = true;
            }
        }
        self.step_from = None;
        let mut events: Vec<StepEvent> = waited
            .map(|node| StepEvent::Waited { node })
            .into_iter()
            .collect();
        events.extend(self.events_since(since));
        events.extend(dropped.map(|node| StepEvent::Dropped { node }));
        if over {
            events.push(self.finished_event());
        }
        if events.is_empty() {
            events.push(StepEvent::Ran);
        }
        self.steps += 1;
        let instructions = self.context.counters.instructions - self.instructions_at_step;
        self.instructions_at_step = self.context.counters.instructions;
        // A merge under way goes on before any state runs.
        let next_merge = self.next_merge();
        let next = match next_merge {
            Some(_) => None,
            None => self.next_state(),
        };
        if next.is_none() && next_merge.is_none() {
            // That step ended the last path (unless a limit ended the run).
            self.end_if_over(Stretch::Completed);
        }
        self.idle_since = Some(Instant::now());
        Some(Step {
            number: self.steps,
            events,
            instructions,
            next,
            next_merge,
        })
    }

    /// The merge the next step goes on with, if merges are under way.
    fn next_merge(&self) -> Option<MergeView> {
        if self.is_finished() {
            return None;
        }
        let (nodes, loop_at) = self.context.merging.next_merge()?;
        let modules = [self.module.borrow()];
        let program = Program {
            modules: &modules,
            links: &self.links,
            roles: &self.roles,
        };
        Some(MergeView {
            nodes,
            loop_at: program.location(loop_at),
            waiting: self.context.merging.merging_states(),
        })
    }

    fn finished_event(&self) -> StepEvent {
        StepEvent::Finished {
            stop_reason: self.stop_reason.clone().unwrap_or_default(),
        }
    }

    /// What the tree gained since it had `nodes` nodes and `paths` paths, in
    /// the order it happened: the forks (a state's own, and those whose
    /// sides ended at once: a failed check, a split result), the merges of
    /// states that waited at a loop's exit or (PAT) came to its head, and
    /// the paths that ended.
    fn events_since(&self, (nodes, paths): (usize, usize)) -> Vec<StepEvent> {
        let tree = &self.context.records.tree;
        let mut timed: Vec<(usize, StepEvent)> = Vec::new();
        for child in nodes..tree.len() {
            let Some(parent) = tree.node(child).parent else {
                continue;
            };
            let from = &tree.node(child).merged_from;
            if !from.is_empty() {
                let from = from.clone();
                let incremental = (self.context.merging.reports().iter())
                    .find(|m| m.node == child && m.incremental);
                let event = match incremental {
                    Some(m) => StepEvent::MergedAtPoint {
                        node: child,
                        superseded: from.get(1).map_or(0, |&v| tree.superseded_below(v)),
                        from,
                        parted: m.root,
                    },
                    None => StepEvent::Merged { node: child, from },
                };
                timed.push((child, event));
                continue;
            }
            let fork = tree.node(parent);
            if fork.children.first() == Some(&child) {
                let at = fork.fork.clone().unwrap_or_default();
                let children = fork.children.clone();
                timed.push((
                    child,
                    StepEvent::Forked {
                        node: parent,
                        at,
                        children,
                    },
                ));
            }
        }
        for path in self.context.records.paths.iter().skip(paths) {
            let ended = StepEvent::Ended {
                path: path.id,
                node: path.node,
                outcome: path.outcome(),
            };
            timed.push((path.node, ended));
        }
        // A fork comes before the paths that ended on its sides.
        timed.sort_by_key(|(at, _)| *at);
        timed.into_iter().map(|(_, event)| event).collect()
    }

    /// The state that runs next, as step mode shows it; `None` when no
    /// state is left or the run is over.
    pub fn next_state(&mut self) -> Option<StateView> {
        if self.is_finished() {
            return None;
        }
        self.with_executor(|exec, scheduler| {
            scheduler.next(exec)?;
            let pending = scheduler.waiting() + exec.cx.pending_elsewhere();
            let state = scheduler.current()?;
            Some(exec.state_view(state, pending))
        })
    }
}
