//! Merging the states a merging context released
//! (`../shared/design/symbolic_size.md` §2.5): each group of states at one
//! exit, in parts of at most the run's `max_states`, becomes one state
//! whose path condition is the context's prefix and the disjunction of
//! the states' suffixes (what each assumed inside the loop), whose
//! differing values and bytes are `ite`s over those suffixes, and whose
//! node in the tree names the leaves it came from. States that cannot be
//! merged (they allocated, made inputs or wrote output differently, or
//! differ in a value kept concrete) go on as they were. Under PAT each
//! exit's states are first split into their regular partitions, each
//! merged over its own k (`quantified.rs`), and the states in none.
//!
//! A released context becomes a [`MergeJob`] that the scheduler runs a
//! step at a time (a part begun, the values of locals, globals and
//! operands, some thousands of memory bytes' values read, a query),
//! looking at the run's limits and its caller's stop between two steps,
//! so that a merge of thousands of states neither freezes the page nor
//! outlasts Stop. No state runs while a merge is under way, so the steps
//! change nothing the run finds, unless a limit or a stop ends the run in
//! the middle of a merge: its states are then left pending, unmerged.

mod forks;
mod incremental;
mod joins;
mod part;
mod partitions;
mod quantified;
mod shapes;
mod sizes;
mod synthesis;
mod validate;

use crate::exec::context::merging::Released;
use crate::exec::executor::Executor;
use crate::exec::program::Program;
use crate::expr::TermId;
use crate::search::Pending;
use crate::state::{MergeMode, PathCondition, Slot, State, Taken};
use crate::tree::NodeId;
use forks::Forks;
use part::{Part, Stepped};
use quantified::Partitioned;
use shapes::Shapes;
use std::collections::VecDeque;
use symplay_wasm::ValType;

/// Memory bytes' values (one per state and byte) a step of a merge reads,
/// about: a millisecond's work or so.
const STEP_WORK: u64 = 1 << 16;

/// What a released context's states assumed inside the loop, each state's
/// in the order of the groups, and (SMOpt) the forks between them.
struct Suffixes {
    of: Vec<Vec<TermId>>,
    forks: Option<Forks>,
}

/// Where a job's states come from, which every part of it shares.
struct Origin {
    /// The context's tree node.
    root: NodeId,
    /// The loop's function and header pc.
    loop_at: (u32, u32),
    /// The path condition of the state that opened the context.
    prefix: PathCondition,
    suffixes: Suffixes,
}

/// States to merge: those at one exit, or under PAT one of their regular
/// partitions (with its pattern) or the states in none.
struct Group {
    states: Vec<State>,
    partitioned: Option<Partitioned>,
}

/// A released context's states on their way on, merged where the run
/// merges and they can be: a group at a time, a part of a group at a
/// time, a step of a part at a time.
pub(crate) struct MergeJob {
    origin: Origin,
    /// Whether its one group holds every state the loop had: none ended
    /// inside (the seed's complete merge, `symbolic_size.md` §3).
    complete: bool,
    /// The groups not begun.
    groups: VecDeque<Group>,
    /// The states of the group under way in no part yet, their partition
    /// (PAT), and the group's size.
    group: VecDeque<State>,
    partitioned: Option<Partitioned>,
    group_len: usize,
    /// The index among the context's states of the next one in a part.
    next: usize,
    part: Option<Part>,
}

impl MergeJob {
    /// Its states not handed on yet.
    pub(crate) fn states(&self) -> usize {
        let part = self.part.as_ref().map_or(0, |p| p.states().len());
        part + self.group.len() + self.groups.iter().map(|g| g.states.len()).sum::<usize>()
    }

    /// The memory limit's estimate of what it holds.
    pub(crate) fn estimated_bytes(&self) -> u64 {
        let part = self.part.as_ref().map_or(0, Part::estimated_bytes);
        let waiting = (self.group.iter())
            .chain(self.groups.iter().flat_map(|g| &g.states))
            .map(State::estimated_bytes);
        part + waiting.sum::<u64>()
    }

    /// Its states not handed on yet, as they were: the run stopped.
    pub(crate) fn into_states(self) -> Vec<State> {
        let mut states = self.part.map(Part::into_states).unwrap_or_default();
        states.extend(self.group);
        states.extend(self.groups.into_iter().flat_map(|g| g.states));
        states
    }

    /// The nodes of the states its next merge takes, and its loop's
    /// function and header pc: the part under way, else the next part of
    /// two states or more, of at most `max_states` (as [`MergeJob`]'s
    /// steps cut them); `None` when what is left goes on unmerged.
    pub(crate) fn next_merge(&self, max_states: usize) -> Option<(Vec<NodeId>, (u32, u32))> {
        let nodes = match &self.part {
            Some(part) => merged_nodes(part.states(), max_states),
            None => merged_nodes(&self.group, max_states)
                .or_else(|| (self.groups.iter()).find_map(|g| merged_nodes(&g.states, max_states))),
        };
        nodes.map(|nodes| (nodes, self.origin.loop_at))
    }

    fn is_done(&self) -> bool {
        self.part.is_none() && self.group.is_empty() && self.groups.is_empty()
    }
}

impl Executor<'_> {
    /// Queues the merge of what a context released: its states wait for
    /// the scheduler's steps ([`Executor::merge_next`]).
    pub(crate) fn queue_merge(&mut self, released: Released) {
        let mode = self.cx.merging.options.mode;
        let groups: Vec<Group> = match mode {
            MergeMode::Pat => (released.groups.into_iter())
                .flat_map(|states| self.partitioned(states))
                .collect(),
            _ => (released.groups.into_iter())
                .map(|states| Group {
                    states,
                    partitioned: None,
                })
                .collect(),
        };
        let assumed = released.prefix.constraints().len();
        let of: Vec<Vec<TermId>> = (groups.iter().flat_map(|g| &g.states))
            .map(|s| {
                let constraints = s.condition.constraints();
                constraints[assumed.min(constraints.len())..].to_vec()
            })
            .collect();
        let forks = matches!(mode, MergeMode::SmOpt | MergeMode::Pat).then(|| {
            let suffixes = of.iter().map(Vec::as_slice);
            Forks::new(&mut self.cx.terms, suffixes, &released.complete_forks)
        });
        let job = MergeJob {
            origin: Origin {
                root: released.root,
                loop_at: released.loop_at,
                prefix: released.prefix,
                suffixes: Suffixes { of, forks },
            },
            complete: released.complete,
            groups: groups.into(),
            group: VecDeque::new(),
            partitioned: None,
            group_len: 0,
            next: 0,
            part: None,
        };
        self.cx.merging.queue(job);
    }

    /// The states of one exit as PAT merges them: each regular partition
    /// of their words a group, then the states in none.
    fn partitioned(&mut self, states: Vec<State>) -> Vec<Group> {
        let branches: Vec<Vec<Taken>> = states.iter().map(|s| s.branches.taken()).collect();
        let found = partitions::words(&self.cx.terms, &mut Shapes::default(), &branches);
        let Ok((words, letters)) = found else {
            return vec![Group {
                states,
                partitioned: None,
            }];
        };
        let (found, alone) = partitions::partition(&words);
        let mut states: Vec<Option<State>> = states.into_iter().map(Some).collect();
        let mut take = |w: usize| states[w].take().expect("each state in one partition");
        let mut groups: Vec<Group> = (found.into_iter())
            .map(|p| Group {
                states: p.members.iter().map(|&(w, _)| take(w)).collect(),
                partitioned: Some(Partitioned {
                    letters: letters.clone(),
                    pattern: partitions::Pattern {
                        prefix: p.prefix,
                        unit: p.unit,
                        suffix: p.suffix,
                    },
                    branches: p
                        .members
                        .iter()
                        .map(|&(w, _)| branches[w].clone())
                        .collect(),
                    words: p.members.iter().map(|&(w, _)| words[w].clone()).collect(),
                    ks: p.members.iter().map(|&(_, k)| k).collect(),
                }),
            })
            .collect();
        groups.push(Group {
            states: alone.into_iter().map(take).collect(),
            partitioned: None,
        });
        groups
    }

    /// A step of the first merge queued: the states it hands on to run,
    /// merged or not.
    pub(crate) fn merge_next(&mut self) -> Vec<State> {
        let Some(mut job) = self.cx.merging.take_queued() else {
            return Vec::new();
        };
        let mut states = self.merge_step(&mut job);
        if !job.is_done() {
            self.cx.merging.requeue(job);
        }
        // Out of the loop for good: what they took in it is of no more use.
        for s in &mut states {
            s.branches.clear();
        }
        states
    }

    fn merge_step(&mut self, job: &mut MergeJob) -> Vec<State> {
        if let Some(part) = &mut job.part {
            let states = match self.part_step(&job.origin, part) {
                Stepped::Going => return Vec::new(),
                Stepped::Merged(merged) => vec![*merged],
                Stepped::Unmerged(states) => self.unmerged(states),
            };
            job.part = None;
            return states;
        }
        let options = self.cx.merging.options;
        if job.group.is_empty() {
            let Some(group) = job.groups.pop_front() else {
                return Vec::new();
            };
            // (A run that merges nothing opens no context.)
            if group.states.len() < 2 || options.max_states < 2 {
                job.next += group.states.len();
                return group.states;
            }
            job.group_len = group.states.len();
            job.group = group.states.into();
            job.partitioned = group.partitioned;
        }
        let size = options.max_states.min(job.group.len());
        let states: Vec<State> = job.group.drain(..size).collect();
        let partitioned = job.partitioned.as_mut().map(|p| p.split_front(size));
        let members = job.next..job.next + size;
        job.next = members.end;
        // SM's shortcut: a group of every state the loop had may hold
        // wherever the loop started.
        let whole = job.complete && size == job.group_len && options.mode == MergeMode::Sm;
        match self.begin_part(&job.origin, states, members, whole, partitioned) {
            Ok(part) => {
                job.part = Some(part);
                Vec::new()
            }
            Err(states) => self.unmerged(states),
        }
    }

    /// `states`, which could not merge, counted as such.
    fn unmerged(&mut self, states: Vec<State>) -> Vec<State> {
        if states.len() > 1 {
            self.cx.merging.count_unmerged();
        }
        states
    }
}

/// The nodes of the first `max_states` of `states`, if they are two or
/// more: a merge's.
fn merged_nodes<'a>(
    states: impl IntoIterator<Item = &'a State>,
    max_states: usize,
) -> Option<Vec<NodeId>> {
    let nodes: Vec<NodeId> = (states.into_iter().take(max_states))
        .map(|s| s.node)
        .collect();
    (nodes.len() >= 2).then_some(nodes)
}

/// Whether the value in `slot` of `s` is one the engine keeps concrete (a
/// float or a reference), or of a type it does not know (a global, an
/// operand of a frame below the top one, or where the top frame's
/// operand types are not kept), so that states must agree on it.
fn kept_concrete(program: &Program<'_>, s: &State, slot: Slot) -> bool {
    let ty = match slot {
        Slot::Local { frame, index } => {
            let func = s.frames[frame].func;
            let params = program.func_type(func).map_or(&[][..], |t| &t.params[..]);
            let locals = program.code(func).map_or(&[][..], |c| &c.locals[..]);
            params.iter().chain(locals).nth(index).copied()
        }
        Slot::Operand(index) => s.frames.last().and_then(|top| {
            let types = program.code(top.func)?.operands_at(top.pc)?;
            types.get(index.checked_sub(top.base)?).copied()
        }),
        Slot::Global(_) => None,
    };
    !matches!(ty, Some(ValType::I32 | ValType::I64))
}
