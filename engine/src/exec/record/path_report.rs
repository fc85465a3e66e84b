//! The end of a path: a path that ends with an outcome becomes the
//! report's path, with a test input from a model of its path condition,
//! its results, objects, leaks, panic or memory error, location and
//! condition (indices into the run's formulas); a dropped path is counted
//! by site; a cut-off state is left pending, as is a path whose values the
//! run's limits stop from being evaluated; the spec-script store keeps the
//! state as it is.

use crate::exec::executor::Executor;
use crate::exec::outcome::panic::Part;
use crate::exec::outcome::End;
use crate::expr::{to_signed, Model, TermId};
use crate::limits::{Checkpoint, Reached};
use crate::memory::ObjectId;
use crate::report::{
    InputValue, MemoryError, NamedInput, Number, ObjectReport, PanicReport, PathReport, Status,
    TestInput, Trap,
};
use crate::solver::SolveResult;
use crate::state::value::{number, Val};
use crate::state::{Input, State};
use std::rc::Rc;

impl Executor<'_> {
    /// Records that the path of `s` ended with `end`.
    pub(crate) fn end_path(&mut self, mut s: State, end: End) {
        if let Some(finished) = &mut self.cx.records.finished {
            finished.push((s, end));
            return;
        }
        let Some((status, trap)) = self.path_status(&s, &end) else {
            return;
        };
        // The condition is final here: the model and the report share it.
        let constraints = s.condition.constraints();
        let model = self.path_model(&mut s, &constraints);
        let checkpoint = &mut Checkpoint::new(self.cx.bounds.limits);
        let values = match self.path_values(&s, &end, &model, checkpoint) {
            Ok(values) => values,
            Err(limit) => {
                // Left unexplored, as a query the limit cut off.
                self.cut_at(limit);
                self.cx.counters.cut_off += 1;
                return;
            }
        };
        self.record_concretised(&mut s);
        // Which of the engine's limits ended the path, if one did.
        let (call_depth_limit, not_provided) = match &end {
            End::CallDepthLimit(frames) => (Some(*frames as u32), None),
            End::NotProvided(import) => (None, Some(import.clone())),
            _ => (None, None),
        };
        let PathValues {
            returns,
            exit_code,
            inputs,
            mut objects,
            leaks,
            panic,
        } = values;
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

    /// What the path of `s`, ended with `end`, computed and was given,
    /// under `model`, evaluated within `checkpoint`'s limits.
    fn path_values(
        &mut self,
        s: &State,
        end: &End,
        model: &Model,
        checkpoint: &mut Checkpoint,
    ) -> Result<PathValues, Reached> {
        if let Some(trace) = &mut self.cx.records.trace {
            trace.resolve(&self.cx.terms, model, checkpoint)?;
        }
        let (returns, exit_code) = self.results(end, model, checkpoint)?;
        Ok(PathValues {
            returns,
            exit_code,
            inputs: self.test_input(s, model, checkpoint)?,
            objects: self.object_reports(s, Some(model), checkpoint)?,
            leaks: self.leaks_at(s, end, model, checkpoint)?,
            panic: self.panic_report(end, model, checkpoint)?,
        })
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
                s.note("the solver gave no model; inputs are zero".into());
                Model::new()
            }
        }
    }

    /// The bits of `v` under `model`.
    fn value_in(&self, model: &Model, v: Val, checkpoint: &mut Checkpoint) -> Result<u64, Reached> {
        Ok(match v {
            Val::Con { bits, .. } => bits,
            Val::Sym(t) => self
                .cx
                .terms
                .eval_within(t, model, checkpoint)?
                .as_bv()
                .unwrap_or(0),
        })
    }

    /// The values of byte terms under `model`, evaluated together: a
    /// buffer's bytes share their array.
    fn bytes_in(
        &self,
        model: &Model,
        bytes: &[TermId],
        checkpoint: &mut Checkpoint,
    ) -> Result<Vec<u8>, Reached> {
        let values = self.cx.terms.eval_each_within(bytes, model, checkpoint)?;
        Ok(values
            .iter()
            .map(|v| v.as_bv().unwrap_or(0) as u8)
            .collect())
    }

    /// What the entry returned, typed, or the code the program exited with.
    fn results(
        &self,
        end: &End,
        model: &Model,
        checkpoint: &mut Checkpoint,
    ) -> Result<(Vec<Number>, Option<i64>), Reached> {
        let entry_results = self
            .program
            .func_type(self.cx.entry)
            .map(|t| t.results.clone())
            .unwrap_or_default();
        Ok(match end {
            End::Returned(vals) => {
                let mut returns = Vec::new();
                for (&v, ty) in vals.iter().zip(entry_results.iter()) {
                    returns.push(number(*ty, self.value_in(model, v, checkpoint)?));
                }
                (returns, None)
            }
            End::Exited(code) => {
                let code = self.value_in(model, *code, checkpoint)?;
                (Vec::new(), Some(i64::from(code as u32 as i32)))
            }
            _ => (Vec::new(), None),
        })
    }

    /// The path's inputs under `model`: the test that replays it.
    fn test_input(
        &self,
        s: &State,
        model: &Model,
        checkpoint: &mut Checkpoint,
    ) -> Result<TestInput, Reached> {
        let mut inputs = TestInput::default();
        for input in s.inputs.iter() {
            let (name, value) = match input {
                Input::Arg { width, value } => {
                    let bits = self.value_in(model, *value, checkpoint)?;
                    inputs.args.push(to_signed(*width, bits));
                    continue;
                }
                Input::Int { name, width, term } => {
                    let bits = self.value_in(model, Val::Sym(*term), checkpoint)?;
                    (name, InputValue::Int(input_int(*width, bits)))
                }
                Input::Bytes { name, bytes } => (
                    name,
                    InputValue::Bytes(self.bytes_in(model, bytes, checkpoint)?),
                ),
                Input::SizedBytes { name, bytes, len } => {
                    let len = self.value_in(model, Val::Sym(*len), checkpoint)?;
                    let bytes = &bytes[..(len as usize).min(bytes.len())];
                    (
                        name,
                        InputValue::Bytes(self.bytes_in(model, bytes, checkpoint)?),
                    )
                }
            };
            inputs.named.push(NamedInput {
                name: name.clone(),
                value,
            });
        }
        Ok(inputs)
    }

    /// The heap objects a path that returned or exited leaked, when the
    /// run looks for leaks.
    fn leaks_at(
        &self,
        s: &State,
        end: &End,
        model: &Model,
        checkpoint: &mut Checkpoint,
    ) -> Result<Vec<u32>, Reached> {
        Ok(match end {
            End::Returned(vals) if self.program.roles.heap.leaks => {
                let mut returned = Vec::new();
                for &v in vals {
                    returned.push(self.value_in(model, v, checkpoint)?);
                }
                self.leaks(s, &returned)
            }
            End::Exited(_) if self.program.roles.heap.leaks => self.leaks(s, &[]),
            _ => Vec::new(),
        })
    }

    /// A panic's message, its numbers under `model`, and location.
    fn panic_report(
        &self,
        end: &End,
        model: &Model,
        checkpoint: &mut Checkpoint,
    ) -> Result<Option<PanicReport>, Reached> {
        let End::Panic(panic) = end else {
            return Ok(None);
        };
        let message = match &panic.message {
            Some(parts) => {
                let mut message = String::new();
                for part in parts {
                    match part {
                        Part::Text(text) => message.push_str(text),
                        Part::Number(v) => {
                            let bits = self.value_in(model, *v, checkpoint)?;
                            message.push_str(&(bits as u32).to_string());
                        }
                    }
                }
                Some(message)
            }
            None => None,
        };
        Ok(Some(PanicReport {
            message,
            location: panic.location.clone(),
        }))
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

/// What a path computed and was given, under its model.
struct PathValues {
    returns: Vec<Number>,
    exit_code: Option<i64>,
    inputs: TestInput,
    objects: Vec<ObjectReport>,
    leaks: Vec<u32>,
    panic: Option<PanicReport>,
}
