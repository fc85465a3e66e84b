//! Turns a finished state into a reported path: its outcome, a test input
//! from a model of its path condition, location and SMT-LIB2 formula.

use super::executor::Executor;
use super::outcome::panic::Part;
use super::outcome::End;
use crate::expr::{to_signed, Model};
use crate::memory::{ObjectId, ObjectKind, Size};
use crate::report::{
    InputValue, NamedInput, ObjectReport, PanicReport, PathReport, Status, TestInput, MAX_OBJECTS,
};
use crate::solver::SolveResult;
use crate::state::value::{number, Val};
use crate::state::{Input, State};

impl Executor<'_> {
    pub(crate) fn end_path(&mut self, mut s: State, end: End) {
        if let Some(finished) = &mut self.cx.records.finished {
            finished.push((s, end));
            return;
        }
        let (status, trap) = match &end {
            End::Returned(_) | End::Exited(_) => (Status::Returned, None),
            End::Trap(t) => (Status::Trapped, Some(*t)),
            End::AssertFailed => (Status::AssertFailed, None),
            End::MemoryError(_) => (Status::MemoryError, None),
            End::Panic(_) => (Status::Panicked, None),
            End::DepthLimit => (Status::Limit, None),
            End::Dropped(cause) => {
                let location = self.program.location(s.at);
                self.cx.records.drops.record(*cause, s.at, location);
                self.cx.records.tree.drop_path(s.node);
                return;
            }
            // Its node stays open: not explored, as if still pending.
            End::CutOff => {
                self.cx.counters.cut_off += 1;
                return;
            }
        };
        // Each site once per path, however often the path passed it.
        let mut sites = std::mem::take(&mut s.concretised);
        sites.sort_unstable();
        sites.dedup();
        for (what, at) in sites {
            let location = self.program.location(at);
            self.cx.records.concretised.record(what, at, location);
        }
        // A guided replay reports the test's values.
        let mut query = s.constraints.clone();
        query.extend_from_slice(&self.cx.guidance.guide);
        let model = match self.check(&query) {
            SolveResult::Sat(model) => model,
            _ => {
                s.notes
                    .push("the solver gave no model; inputs are zero".into());
                Model::new()
            }
        };
        let value = |exec: &Executor<'_>, v: Val| -> u64 {
            match v {
                Val::Con { bits, .. } => bits,
                Val::Sym(t) => exec.cx.terms.eval(t, &model).as_bv().unwrap_or(0),
            }
        };
        let entry_results = self
            .program
            .func_type(self.cx.entry)
            .map(|t| t.results.clone())
            .unwrap_or_default();
        let (returns, exit_code) = match &end {
            End::Returned(vals) => {
                let returns = vals
                    .iter()
                    .zip(entry_results.iter())
                    .map(|(&v, ty)| number(*ty, value(self, v)))
                    .collect();
                (returns, None)
            }
            End::Exited(code) => (
                Vec::new(),
                Some(i64::from(value(self, *code) as u32 as i32)),
            ),
            _ => (Vec::new(), None),
        };
        let mut inputs = TestInput::default();
        for input in &s.inputs {
            match input {
                Input::Arg { width, value: v } => {
                    inputs.args.push(to_signed(*width, value(self, *v)))
                }
                Input::Int { name, width, term } => inputs.named.push(NamedInput {
                    name: name.clone(),
                    value: InputValue::Int(to_signed(*width, value(self, Val::Sym(*term)))),
                }),
                Input::Bytes { name, bytes } => inputs.named.push(NamedInput {
                    name: name.clone(),
                    value: InputValue::Bytes(
                        bytes
                            .iter()
                            .map(|&b| value(self, Val::Sym(b)) as u8)
                            .collect(),
                    ),
                }),
                Input::SizedBytes { name, bytes, len } => {
                    let len = value(self, Val::Sym(*len)) as usize;
                    inputs.named.push(NamedInput {
                        name: name.clone(),
                        value: InputValue::Bytes(
                            bytes
                                .iter()
                                .take(len)
                                .map(|&b| value(self, Val::Sym(b)) as u8)
                                .collect(),
                        ),
                    })
                }
            }
        }
        let returned: Vec<u64> = match &end {
            End::Returned(vals) => vals.iter().map(|&v| value(self, v)).collect(),
            _ => Vec::new(),
        };
        let objects = self.object_reports(&s, &model);
        let leaks = match &end {
            End::Returned(_) | End::Exited(_) if self.program.roles.heap.leaks => {
                self.leaks(&s, &returned)
            }
            _ => Vec::new(),
        };
        let mut objects = objects;
        let panic = match &end {
            End::Panic(panic) => Some(PanicReport {
                message: panic.message.as_ref().map(|parts| {
                    parts
                        .iter()
                        .map(|part| match part {
                            Part::Text(text) => text.clone(),
                            Part::Number(v) => (value(self, *v) as u32).to_string(),
                        })
                        .collect()
                }),
                location: panic.location.clone(),
            }),
            _ => None,
        };
        let memory_error = match end {
            End::MemoryError(fault) => {
                let model_objects = self.program.memory(&s).and_then(|m| m.objects());
                let (error, variable) = fault.report(model_objects, &self.program);
                objects.extend(variable);
                Some(error)
            }
            _ => None,
        };
        if let Some(id) = memory_error.as_ref().and_then(|e| e.object) {
            // The error's object with the sizes the path allows.
            let range = self.size_range(&mut s, ObjectId(id));
            if let Some(o) = objects.iter_mut().find(|o| o.id == id) {
                o.size_range = range;
            }
        }
        let id = self.cx.records.paths.len();
        self.cx.records.tree.end_path(s.node, id);
        self.cx.records.paths.push(PathReport {
            id,
            status,
            trap,
            returns,
            exit_code,
            inputs,
            location: self.program.location(s.at),
            path_condition: self.cx.terms.to_smtlib_script(&s.constraints),
            path_condition_readable: self.cx.terms.conjunction_to_readable(&s.constraints),
            node: s.node,
            notes: s.notes,
            stdout: String::from_utf8_lossy(&s.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&s.stderr).into_owned(),
            memory_error,
            panic,
            objects,
            leaks,
        });
    }

    /// The memory objects of `s`, under the objects model, with their sizes
    /// under `model`.
    pub(super) fn object_reports(&self, s: &State, model: &Model) -> Vec<ObjectReport> {
        let Some(objects) = self.program.memory(s).and_then(|m| m.objects()) else {
            return Vec::new();
        };
        objects
            .objects()
            .iter()
            .take(MAX_OBJECTS)
            .zip(0u32..)
            .map(|(o, id)| {
                let (size, symbolic_size) = match o.size {
                    Size::Con(n) => (n, None),
                    Size::Sym(t) => (
                        self.cx.terms.eval(t, model).as_bv().unwrap_or(0),
                        Some(self.cx.terms.to_readable(t)),
                    ),
                };
                let name = match &o.kind {
                    ObjectKind::Heap => None,
                    ObjectKind::Input(name) => Some(name.clone()),
                };
                ObjectReport {
                    id,
                    kind: if name.is_some() { "input" } else { "heap" }.into(),
                    name,
                    base: o.base,
                    size,
                    symbolic_size,
                    size_range: None,
                    capacity: o.capacity,
                    site: self.program.location(o.site),
                    freed_at: o.freed.map(|at| self.program.location(at)),
                }
            })
            .collect()
    }

    /// Heap objects of `s` still allocated, but for one whose base the
    /// entry returned.
    fn leaks(&self, s: &State, returned: &[u64]) -> Vec<u32> {
        let Some(objects) = self.program.memory(s).and_then(|m| m.objects()) else {
            return Vec::new();
        };
        objects
            .heap_ids()
            .filter(|&id| {
                objects
                    .object(id)
                    .is_some_and(|o| o.freed.is_none() && !returned.contains(&o.base))
            })
            .map(|id| id.0)
            .collect()
    }

    /// The least and greatest size of object `id` the path allows, when
    /// the size is symbolic.
    fn size_range(&mut self, s: &mut State, id: ObjectId) -> Option<[u64; 2]> {
        let o = self.program.memory(s)?.objects()?.object(id)?;
        let (Size::Sym(t), capacity) = (o.size, o.capacity) else {
            return None;
        };
        let lo = self.smallest(s, t).ok()?;
        let hi = self.largest(s, t, capacity).ok()?;
        Some([lo, hi])
    }
}
