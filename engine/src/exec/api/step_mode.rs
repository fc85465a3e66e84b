//! Step mode: an exploration run one instruction, or one branch, at a
//! time, each step saying what happened and which state runs next; the
//! time spent waiting for a step is not the run's.

use super::exploration::Exploration;
use crate::exec::executor::Executor;
use crate::exec::program::Program;
use crate::exec::run::scheduler::{Moved, Pace, Stretch};
use crate::report::step::{StateView, Step, StepBy, StepEvent};
use std::borrow::Borrow;
use symplay_wasm::Module;
use web_time::{Duration, Instant};

impl<M: Borrow<Module>> Exploration<M> {
    /// Step mode: the start, before anything runs (step 0).
    pub fn first_step(&mut self) -> Step {
        self.idle_since = Some(Instant::now());
        Step {
            number: 0,
            event: StepEvent::Started {
                entry: self.entry_name.clone(),
            },
            instructions: 0,
            next: self.next_state(),
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
        let event = if self.is_finished() {
            self.finished_event()
        } else {
            let pace = match by {
                StepBy::Instruction => Pace::Instruction,
                StepBy::Branch => Pace::Branch,
            };
            let stretch = self.run_stretch(budget, pace, &mut |_| true);
            match stretch {
                Stretch::Paused => return None,
                Stretch::Stepped(moved) => self.moved_event(moved),
                Stretch::Completed | Stretch::Stopped(_) => {
                    self.end_if_over(stretch);
                    self.finished_event()
                }
            }
        };
        self.steps += 1;
        let instructions = self.context.counters.instructions - self.instructions_at_step;
        self.instructions_at_step = self.context.counters.instructions;
        let next = self.next_state();
        if next.is_none() {
            // That step ended the last path (unless a limit ended the run).
            self.end_if_over(Stretch::Completed);
        }
        self.idle_since = Some(Instant::now());
        Some(Step {
            number: self.steps,
            event,
            instructions,
            next,
        })
    }

    fn finished_event(&self) -> StepEvent {
        StepEvent::Finished {
            stop_reason: self.stop_reason.clone().unwrap_or_default(),
        }
    }

    fn moved_event(&self, moved: Moved) -> StepEvent {
        let tree = &self.context.records.tree;
        match moved {
            Moved::On => StepEvent::Ran,
            Moved::Forked(node) => StepEvent::Forked {
                node,
                at: tree.node(node).fork.clone().unwrap_or_default(),
                children: tree.node(node).children.clone(),
            },
            Moved::Ended(node) => match tree.node(node) {
                n if n.dropped => StepEvent::Dropped { node },
                n => n
                    .path
                    .map_or(StepEvent::Ran, |path| StepEvent::Ended { path }),
            },
        }
    }

    /// The state that runs next, as step mode shows it; `None` when no
    /// state is left or the run is over.
    pub fn next_state(&mut self) -> Option<StateView> {
        if self.is_finished() {
            return None;
        }
        let modules = [self.module.borrow()];
        let mut exec = Executor {
            program: Program {
                modules: &modules,
                links: &self.links,
                roles: &self.roles,
            },
            cx: &mut self.context,
        };
        self.scheduler.next(&mut exec)?;
        let pending = self.scheduler.waiting() + exec.cx.counters.cut_off as usize;
        let state = self.scheduler.current()?;
        Some(exec.state_view(state, pending))
    }
}
