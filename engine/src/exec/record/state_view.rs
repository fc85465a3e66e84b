//! A state as step mode shows it: where it is, its call stack with each
//! frame's locals and operand stack, its path condition in readable form,
//! and its memory objects.

use crate::exec::executor::Executor;
use crate::expr::to_signed;
use crate::report::step::{FrameView, NamedValue, StateView};
use crate::state::value::{number, Val};
use crate::state::State;
use symplay_wasm::ValType;

impl Executor<'_> {
    /// The view of `s`, which runs next while `pending` other states wait.
    pub(crate) fn state_view(&self, s: &State, pending: usize) -> StateView {
        let mut frames = Vec::new();
        for (i, frame) in s.frames.iter().enumerate() {
            let innermost = i + 1 == s.frames.len();
            // A caller's pc is past its call already.
            let pc = if innermost {
                frame.pc
            } else {
                frame.pc.saturating_sub(1)
            };
            let top = s.frames.get(i + 1).map_or(s.stack.len(), |f| f.base);
            let stack = s.stack.get(frame.base..top).unwrap_or_default();
            frames.push(FrameView {
                location: self.program.location((frame.func, pc)),
                locals: self.locals(frame.func, &frame.locals),
                stack: stack.iter().map(|&v| self.value_text(None, v)).collect(),
            });
        }
        let at = s.frames.last().map_or(s.at, |f| (f.func, f.pc));
        StateView {
            node: s.node,
            depth: s.depth,
            location: self.program.location(at),
            frames,
            path_condition: s
                .condition
                .constraints()
                .iter()
                .map(|&c| self.cx.terms.to_readable(c))
                .collect(),
            objects: self.objects_now(s),
            pending,
        }
    }

    fn locals(&self, func: u32, values: &[Val]) -> Vec<NamedValue> {
        let params = self
            .program
            .func_type(func)
            .map(|t| t.params.clone())
            .unwrap_or_default();
        let declared = self
            .program
            .code(func)
            .map(|c| c.locals.to_vec())
            .unwrap_or_default();
        let types = params.iter().chain(&declared);
        values
            .iter()
            .zip(types)
            .enumerate()
            .map(|(i, (&v, &ty))| NamedValue {
                name: self.local_name(func, i as u32),
                ty: ty.to_string(),
                value: self.value_text(Some(ty), v),
            })
            .collect()
    }

    /// Local `index` of store function `func` as the module names it.
    fn local_name(&self, func: u32, index: u32) -> String {
        self.program
            .func_at(func)
            .and_then(|(module, f)| module.local_name(f, index))
            .map_or_else(|| format!("local {index}"), str::to_string)
    }

    /// A number when `v` is concrete (of type `ty` when known, else an
    /// integer of its width), else its term in readable form.
    fn value_text(&self, ty: Option<ValType>, v: Val) -> String {
        match (v, ty) {
            (Val::Con { bits, .. }, Some(ty)) => number(ty, bits).to_string(),
            (Val::Con { width, bits }, None) => to_signed(width, bits).to_string(),
            (Val::Sym(t), _) => self.cx.terms.to_readable(t),
        }
    }

    /// The objects of `s` as they are now. No model is asked for: a query
    /// here would feed the solver's caches and could change the inputs the
    /// run finds, so a symbolic size is its term alone.
    fn objects_now(&self, s: &State) -> Vec<crate::report::ObjectReport> {
        self.object_reports(s, &mut |_| 0)
    }
}
