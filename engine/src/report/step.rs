//! Step mode's results: what one step of an exploration did, and the state
//! that runs next as a reader sees it (its place, call stack with locals
//! and operand stack, path condition and memory objects).

use super::{Location, ObjectReport};
use serde::{Deserialize, Serialize};

/// How far one step goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepBy {
    /// One instruction of the state that runs next.
    Instruction,
    /// Until that state forks or its path ends.
    #[default]
    Branch,
}

impl StepBy {
    pub fn parse(text: &str) -> Option<StepBy> {
        match text {
            "instruction" => Some(StepBy::Instruction),
            "branch" => Some(StepBy::Branch),
            _ => None,
        }
    }
}

/// One step: what it did, and the state to run next (`None` once the run
/// is over).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Which step it is: the start is step 0, the first step taken 1.
    pub number: u64,
    /// What happened, in order: the state's fork and the paths that ended
    /// on its sides at once, or its path's end; `Ran` alone when the tree
    /// did not change.
    pub events: Vec<StepEvent>,
    /// Instructions the step ran.
    pub instructions: u64,
    pub next: Option<StateView>,
    /// Instead of a state, the merge the next step goes on with: step
    /// mode takes the merges at a loop's exit one a step, and no state
    /// runs before they are done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_merge: Option<MergeView>,
}

/// A merge that comes next in step mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergeView {
    /// The nodes of the states it merges (their leaves at the exit).
    pub nodes: Vec<usize>,
    /// The loop they left.
    pub loop_at: Location,
    /// The states of the merges under way in all, these included.
    pub waiting: usize,
}

impl MergeView {
    /// A sentence for step mode's "next".
    pub fn describe(&self) -> String {
        let nodes: Vec<String> = self.nodes.iter().map(|n| format!("#{n}")).collect();
        let others = self.waiting.saturating_sub(self.nodes.len());
        let after = match others {
            0 => String::new(),
            1 => ", then 1 more state at the loop's exit".into(),
            n => format!(", then {n} more states at the loop's exit"),
        };
        format!(
            "the merge of the states of {} at the exit of the loop at {}{after}",
            nodes.join(", "),
            self.loop_at.text()
        )
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StepEvent {
    /// The entry, by name, is about to run (step 0).
    Started { entry: String },
    /// The state ran without forking.
    Ran,
    /// The state forked at `at`: node `node` got the children `children`,
    /// each a state under its side's condition.
    Forked {
        node: usize,
        at: Location,
        children: Vec<usize>,
    },
    /// Path `path` of the report ended at leaf `node`, as `outcome` says.
    Ended {
        path: usize,
        node: usize,
        outcome: String,
    },
    /// The state's path was dropped at node `node` (an `assume` that cannot
    /// hold).
    Dropped { node: usize },
    /// The state, at leaf `node`, left the loop of its merging context and
    /// waits at the exit for the loop's other states.
    Waited { node: usize },
    /// The states of the leaves `from`, which waited at one exit of a
    /// loop, merged into the state of node `node`.
    Merged { node: usize, from: Vec<usize> },
    /// Under PAT, the state of leaf `from[0]` came to a merge point of its
    /// loop and merged there with the state that came there before at node
    /// `from[1]`, into node `node` below node `parted`, where their ways
    /// parted; the `superseded` nodes below `from[1]` are explored again
    /// from the merged state.
    MergedAtPoint {
        node: usize,
        from: Vec<usize>,
        parted: usize,
        superseded: usize,
    },
    /// The run is over: `completed`, or the limit that stopped it.
    Finished { stop_reason: String },
}

impl Step {
    /// The run goes on after it: a state runs next, or a merge.
    pub fn goes_on(&self) -> bool {
        self.next.is_some() || self.next_merge.is_some()
    }

    /// What the step did, one sentence per event.
    pub fn describe(&self) -> Vec<String> {
        self.events.iter().map(StepEvent::describe).collect()
    }

    /// The tree did not change.
    pub fn only_ran(&self) -> bool {
        self.events == [StepEvent::Ran]
    }
}

impl StepEvent {
    /// A sentence for the step's heading and the command line.
    pub fn describe(&self) -> String {
        match self {
            StepEvent::Started { entry } => format!("{entry} is about to run"),
            StepEvent::Ran => "ran without forking".into(),
            StepEvent::Forked { node, at, children } => {
                let mut children: Vec<String> = children.iter().map(|c| format!("#{c}")).collect();
                let last = children.pop().unwrap_or_default();
                let into = match children.is_empty() {
                    true => last,
                    false => format!("{} and {last}", children.join(", ")),
                };
                format!("node #{node} forked at {} into {into}", at.text())
            }
            StepEvent::Ended {
                path,
                node,
                outcome,
            } => format!("path {path} ended at #{node}: {outcome}"),
            StepEvent::Dropped { node } => format!(
                "the path was dropped at node #{node}: an assumption cannot hold there, \
                 or the solver could not decide a branch"
            ),
            StepEvent::Waited { node } => format!(
                "the state of #{node} left its loop and waits at the exit for the loop's other states"
            ),
            StepEvent::Merged { node, from } => {
                let mut from: Vec<String> = from.iter().map(|c| format!("#{c}")).collect();
                let last = from.pop().unwrap_or_default();
                format!(
                    "the states of {} and {last} merged into #{node}",
                    from.join(", ")
                )
            }
            StepEvent::MergedAtPoint {
                node,
                from,
                parted,
                superseded,
            } => {
                let (new, old) = (from.first().copied(), from.get(1).copied());
                format!(
                    "the state of #{} came to a merge point of its loop and merged with #{}'s into #{node} \
                     below #{parted}, where their ways parted; the {superseded} nodes below #{} \
                     are superseded and explored again from #{node}",
                    new.unwrap_or_default(),
                    old.unwrap_or_default(),
                    old.unwrap_or_default(),
                )
            }
            StepEvent::Finished { stop_reason } => format!("the run is over ({stop_reason})"),
        }
    }
}

/// A state as step mode shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateView {
    /// Its node in the execution tree.
    pub node: usize,
    /// Forks on its path so far.
    pub depth: u32,
    /// The instruction it runs next.
    pub location: Location,
    /// The call stack, the entry first: each frame's function, where it is
    /// (a caller at its call), its locals and its operand stack.
    pub frames: Vec<FrameView>,
    /// The path condition, one readable constraint each.
    pub path_condition: Vec<String>,
    /// Its memory objects, under the objects model; a symbolic size is
    /// its term alone (`size` is then 0), as no input is chosen yet.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<ObjectReport>,
    /// Other states waiting to run.
    pub pending: usize,
}

impl StateView {
    /// `no other state waits`, `1 other state waits`, `3 other states wait`.
    pub fn waiting_text(&self) -> String {
        match self.pending {
            0 => "no other state waits".into(),
            1 => "1 other state waits".into(),
            n => format!("{n} other states wait"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameView {
    pub location: Location,
    pub locals: Vec<NamedValue>,
    /// Bottom first; values without a known type are integers of their
    /// width.
    pub stack: Vec<String>,
}

/// A local and its value: a number when it is concrete, else its term in
/// readable form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NamedValue {
    pub name: String,
    /// `i32`, `f64`, ...
    #[serde(rename = "type")]
    pub ty: String,
    pub value: String,
}
