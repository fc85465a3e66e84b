//! Variable instructions: a frame's locals and the store's globals. Setting
//! the C stack pointer is checked against the stack's bottom.

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::state::value::Val;
use crate::state::State;

impl Executor<'_> {
    pub(super) fn local_get(&mut self, s: &mut State, i: u32) -> Result<Flow, End> {
        let v = s
            .frames
            .last()
            .map_or(Val::i32(0), |f| f.locals[i as usize]);
        s.stack.push(v);
        Ok(Flow::Next)
    }

    pub(super) fn local_set(&mut self, s: &mut State, i: u32) -> Result<Flow, End> {
        let v = s.pop();
        s.set_local(i, v);
        Ok(Flow::Next)
    }

    pub(super) fn local_tee(&mut self, s: &mut State, i: u32) -> Result<Flow, End> {
        let v = *s.stack.last().expect("validated code has an operand");
        s.set_local(i, v);
        Ok(Flow::Next)
    }

    pub(super) fn global_get(&mut self, s: &mut State, i: u32) -> Result<Flow, End> {
        let g = self.program.links_of(s).globals[i as usize];
        s.stack.push(s.globals[g as usize]);
        Ok(Flow::Next)
    }

    pub(super) fn global_set(&mut self, s: &mut State, i: u32) -> Result<Flow, End> {
        let g = self.program.links_of(s).globals[i as usize];
        let v = s.pop();
        if let Some(stack) = self.program.roles.stack.filter(|st| st.global == g) {
            self.check_stack(s, v, stack.bottom)?;
        }
        s.globals[g as usize] = v;
        Ok(Flow::Next)
    }
}
