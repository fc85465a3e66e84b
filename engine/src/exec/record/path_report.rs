//! The end of a path: a path that ends with an outcome becomes the
//! report's path, with a test input from a model of its path condition,
//! its results, objects, leaks, panic or memory error, location and
//! condition (indices into the run's formulas); a dropped path is counted
//! by site; a cut-off state is left pending; the spec-script store keeps
//! the state as it is.

use crate::exec::executor::Executor;
use crate::exec::outcome::panic::Part;
use crate::exec::outcome::End;
use crate::exec::record::evaluation::Evaluation;
use crate::expr::{to_signed, Model, TermId};
use crate::memory::ObjectId;
use crate::report::{
    InputValue, MemoryError, NamedInput, Number, ObjectReport, PanicReport, PathReport, PointsInto,
    Status, TestInput, Trap,
};
use crate::solver::SolveResult;
use crate::state::value::{number, Val};
use crate::state::{Input, State};
use std::rc::Rc;

impl Executor<'_> {
    /// Records that the path of `s` ended with `end`.
    pub(crate) fn end_path(&mut self, mut s: State, end: End) {
        if let Some(id) = s.merging {
            self.cx.merging.ended_inside(id);
        }
        if let Some(finished) = &mut self.cx.records.finished {
            finished.push((s, end));
            return;
        }
        // A job's path belongs to it only from the state it was handed.
        if self.cx.guidance.on_the_way() && !matches!(end, End::CutOff) {
            self.cx.counters.off_course += 1;
            return;
        }
        let Some((status, trap)) = self.path_status(&s, &end) else {
            return;
        };
        // The condition is final here: the model and the report share it.
        let constraints = s.condition.constraints();
        let model = self.path_model(&mut s, &constraints);
        let mut eval = Evaluation::new(&self.cx.terms, &model, self.cx.bounds.limits);
        if let Some(trace) = &mut self.cx.records.trace {
            trace.resolve(&mut eval);
        }
        let (returns, exit_code) = self.results(&end, &mut eval);
        let points_into = self.points_into(&s, &end, &returns);
        let inputs = self.test_input(&s, &mut eval);
        let mut objects = self.object_reports(&s, &mut |t| eval.bits(Val::Sym(t)));
        let leaks = self.leaks_at(&s, &end, &mut eval);
        let panic = self.panic_report(&end, &mut eval);
        if let Some(limit) = eval.stopped() {
            s.note(format!(
                "the run's {} was reached while this path's values were evaluated: those left are 0",
                limit.stop_reason()
            ));
            self.cut_at(limit);
        }
        self.record_concretised(&mut s);
        // Which of the engine's limits ended the path, if one did.
        let (call_depth_limit, not_provided) = match &end {
            End::CallDepthLimit(frames) => (Some(*frames as u32), None),
            End::NotProvided(import) => (None, Some(import.clone())),
            _ => (None, None),
        };
        let memory_error = self.memory_error_report(&mut s, end, &mut objects);
        let id = self.cx.records.paths.len();
        self.cx.records.tree.end_path(s.node, id, s.own_bytes());
        let condition = self
            .cx
            .records
            .formulas
            .intern_all(&self.cx.terms, &constraints);
        self.cx.records.paths.push(PathReport {
            id,
            status,
            trap,
            returns,
            points_into,
            exit_code,
            inputs,
            location: self.program.location(s.at),
            condition,
            node: s.node,
            notes: Rc::unwrap_or_clone(s.notes),
            stdout: String::from_utf8_lossy(&s.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&s.stderr).into_owned(),
            memory_error,
            panic,
            objects,
            leaks,
            call_depth_limit,
            not_provided,
        });
    }

    /// A test that leads to where `s` is: its inputs' values in a model
    /// of its path condition (a job of a parallel run follows it there).
    pub(crate) fn test_to(&mut self, s: &mut State) -> TestInput {
        let constraints = s.condition.constraints();
        let model = self.path_model(s, &constraints);
        let mut eval = Evaluation::new(&self.cx.terms, &model, self.cx.bounds.limits);
        self.test_input(s, &mut eval)
    }

    /// The status of a path that ended with `end`; `None` for one that is
    /// not reported: dropped (counted by cause and site, its node closed),
    /// or cut off (its node stays open: not explored, as if still pending).
    fn path_status(&mut self, s: &State, end: &End) -> Option<(Status, Option<Trap>)> {
        Some(match end {
            End::Returned(_) | End::Exited(_) => (Status::Returned, None),
            End::Trap(t) => (Status::Trapped, Some(*t)),
            End::AssertFailed => (Status::AssertFailed, None),
            End::MemoryError(_) => (Status::MemoryError, None),
            End::Panic(_) => (Status::Panicked, None),
            End::DepthLimit | End::CallDepthLimit(_) | End::NotProvided(_) => (Status::Limit, None),
            End::Dropped(cause) => {
                let location = self.program.location(s.at);
                self.cx.records.drops.record(*cause, s.at, location);
                self.cx.records.tree.drop_path(s.node);
                return None;
            }
            End::CutOff => {
                self.cx.counters.cut_off += 1;
                return None;
            }
        })
    }

    /// Counts the sites where the path made values concrete, each once
    /// however often the path passed it.
    fn record_concretised(&mut self, s: &mut State) {
        let mut sites = Rc::unwrap_or_clone(std::mem::take(&mut s.concretised));
        sites.sort_unstable();
        sites.dedup();
        for (what, at) in sites {
            let location = self.program.location(at);
            self.cx.records.concretised.record(what, at, location);
        }
    }

    /// A model of `constraints`, the path condition of `s` (in a guided
    /// replay, the test's values); without one, inputs are zero and the
    /// path says so. The witnesses its constraints were added with make
    /// one without asking the solver, when each was added with one.
    fn path_model(&mut self, s: &mut State, constraints: &[TermId]) -> Model {
        if self.cx.guidance.guide.is_empty() {
            if let Some(model) = s.condition.model() {
                debug_assert!(
                    self.cx.terms.satisfies(constraints, &model),
                    "the witnesses of a path make no model of its condition"
                );
                return model;
            }
        }
        let mut query = constraints.to_vec();
        query.extend_from_slice(&self.cx.guidance.guide);
        match self.check(&query) {
            SolveResult::Sat(model) => model,
            _ => {
                let why = if self.cut_off() {
                    "a limit of the run stopped the solver"
                } else {
                    "the solver gave no model"
                };
                s.note(format!("{why}; inputs are zero"));
                Model::new()
            }
        }
    }

    /// What the entry returned, typed, or the code the program exited with.
    fn results(&self, end: &End, eval: &mut Evaluation) -> (Vec<Number>, Option<i64>) {
        let entry_results = self
            .program
            .func_type(self.cx.entry)
            .map(|t| t.results.clone())
            .unwrap_or_default();
        match end {
            End::Returned(vals) => {
                let returns = vals
                    .iter()
                    .zip(entry_results.iter())
                    .map(|(&v, ty)| number(*ty, eval.bits(v)))
                    .collect();
                (returns, None)
            }
            End::Exited(code) => (Vec::new(), Some(i64::from(eval.bits(*code) as u32 as i32))),
            _ => (Vec::new(), None),
        }
    }

    /// Where each of the entry's results that was a pointer to a heap
    /// block points, at the number `returns` gives: empty when none was.
    fn points_into(&self, s: &State, end: &End, returns: &[Number]) -> Vec<Option<PointsInto>> {
        let (End::Returned(_), Some(memory)) = (end, self.program.memory(s)) else {
            return Vec::new();
        };
        let points: Vec<Option<PointsInto>> = (returns.iter().enumerate())
            .map(|(i, n)| {
                if i >= 64 || s.pointer_results & 1 << i == 0 {
                    return None;
                }
                let address = n.address()?;
                let object = memory.block_holding(address)?;
                let block = memory.object(object)?;
                // Within the block or one past its end, not in its slot's gap.
                let offset = address.checked_sub(block.base)?;
                (offset <= block.capacity).then_some(PointsInto {
                    object: object.0,
                    offset,
                })
            })
            .collect();
        if points.iter().any(Option::is_some) {
            points
        } else {
            Vec::new()
        }
    }

    /// The path's inputs under its model: the test that replays it.
    fn test_input(&self, s: &State, eval: &mut Evaluation) -> TestInput {
        let mut inputs = TestInput::default();
        for input in s.inputs.iter() {
            match input {
                Input::Arg { width, value } => {
                    inputs.args.push(to_signed(*width, eval.bits(*value)))
                }
                Input::Int { name, width, term } => inputs.named.push(NamedInput {
                    name: name.clone(),
                    value: InputValue::Int(input_int(*width, eval.bits(Val::Sym(*term)))),
                }),
                Input::Bytes { name, bytes } => inputs.named.push(NamedInput {
                    name: name.clone(),
                    value: InputValue::Bytes(eval.bytes(bytes)),
                }),
                Input::SizedBytes { name, bytes, len } => {
                    let len = (eval.bits(Val::Sym(*len)) as usize).min(bytes.len());
                    inputs.named.push(NamedInput {
                        name: name.clone(),
                        value: InputValue::Bytes(eval.bytes(&bytes[..len])),
                    })
                }
            }
        }
        inputs
    }

    /// The heap objects a path that returned or exited leaked, when the
    /// run looks for leaks.
    fn leaks_at(&self, s: &State, end: &End, eval: &mut Evaluation) -> Vec<u32> {
        match end {
            End::Returned(vals) if self.program.roles.heap.leaks => {
                let returned: Vec<u64> = vals.iter().map(|&v| eval.bits(v)).collect();
                self.leaks(s, &returned)
            }
            End::Exited(_) if self.program.roles.heap.leaks => self.leaks(s, &[]),
            _ => Vec::new(),
        }
    }

    /// A panic's message, its numbers under the path's model, and location.
    fn panic_report(&self, end: &End, eval: &mut Evaluation) -> Option<PanicReport> {
        let End::Panic(panic) = end else {
            return None;
        };
        Some(PanicReport {
            message: panic.message.as_ref().map(|parts| {
                parts
                    .iter()
                    .map(|part| match part {
                        Part::Text(text) => text.clone(),
                        Part::Number(v) => (eval.bits(*v) as u32).to_string(),
                    })
                    .collect()
            }),
            location: panic.location.clone(),
        })
    }

    /// A memory error as the report gives it (the C variable it names
    /// joins the path's `objects`), its object with the sizes the path
    /// allows.
    fn memory_error_report(
        &mut self,
        s: &mut State,
        end: End,
        objects: &mut Vec<ObjectReport>,
    ) -> Option<MemoryError> {
        let End::MemoryError(fault) = end else {
            return None;
        };
        let (error, variable) = fault.report(self.program.memory(s), &self.program);
        objects.extend(variable);
        if let Some(id) = error.object {
            let range = self.size_range(s, ObjectId(id));
            if let Some(o) = objects.iter_mut().find(|o| o.id == id) {
                o.size_range = range;
            }
        }
        Some(error)
    }
}

/// An integer input as a test gives it: signed at its width, except a
/// flag of one bit (`alloc_fails`), which is 0 or 1.
fn input_int(width: u8, bits: u64) -> i64 {
    if width == 1 {
        bits as i64
    } else {
        to_signed(width, bits)
    }
}
