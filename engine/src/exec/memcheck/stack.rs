//! The C stack's checks. Its pointer set below the end of the data is a
//! stack overflow. And use after return: when a function with C stack
//! variables (from DWARF) returns, its variables are buried in the state's
//! [`DeadStack`]; a caller that then reads or writes one, through a
//! pointer it kept, ends its path with a `use_after_return` naming the
//! variable and where its function returned. A new call at the returned
//! function's depth reuses the bytes freely, so a dead frame's pointer
//! handed down to a callee is not seen: that needs pointers that know
//! their object.
//!
//! [`DeadStack`]: crate::memory::DeadStack

use super::c_variables::{constant_part, inside};
use crate::exec::executor::Executor;
use crate::exec::outcome::{End, MemoryFault, VariableFault};
use crate::expr::BvCmp;
use crate::memory::{effective_address, DeadSpan, MemoryModel, Pointer};
use crate::report::Access;
use crate::state::value::Val;
use crate::state::{Frame, State};

impl Executor<'_> {
    /// The C stack pointer set to `v`: below `bottom`, the end of the
    /// data, or past the end of memory (moved down through address 0),
    /// the stack has overflowed. (A stack the program made in a heap
    /// block lies in memory, or among the arena's slots.)
    /// Input buffers in the frames it leaves end.
    pub(crate) fn check_stack(&mut self, s: &mut State, v: Val, bottom: u64) -> Result<(), End> {
        let overflow = |address| End::from(MemoryFault::stack_overflow(address));
        let in_memory =
            |memory: Option<&MemoryModel>, at| memory.is_none_or(|m| m.addressable(at, 0));
        let t = match v {
            Val::Con { bits, .. } if bits < bottom || !in_memory(self.program.memory(s), bits) => {
                return Err(overflow(bits))
            }
            Val::Con { bits, .. } => {
                let at = s.at;
                if let Some(memory) = self.program.memory_mut(s) {
                    memory.retire_inputs_in(bottom, bits, at);
                }
                // Returned frames' variables above it are this code's frame now.
                s.dead_stack.cover(bits, s.frames.len() as u32);
                return Ok(());
            }
            Val::Sym(t) => t,
        };
        let b = self.cx.terms.bv_const(32, bottom);
        let under = self.cx.terms.cmp(BvCmp::Ult, t, b);
        let below = match self.program.memory(s) {
            Some(memory) => {
                let a = effective_address(&mut self.cx.terms, t, 0);
                let inside = memory.holds_empty(&mut self.cx.terms, a);
                let wrapped = self.cx.terms.not(inside);
                self.cx.terms.or(under, wrapped)
            }
            None => under,
        };
        self.guard_with(s, below, &mut |exec, s| match exec.pin(s, t) {
            Ok(address) => overflow(address),
            Err(end) => end,
        })?;
        // Set at a symbolic address (a variable-length array): as far as
        // is known, it may cover every returned frame's variable.
        s.dead_stack.cover(bottom, s.frames.len() as u32);
        Ok(())
    }

    /// `frame`, just popped from `s`, returned: its stack variables die.
    pub(crate) fn bury_frame(&mut self, s: &mut State, frame: &Frame) {
        if !self.program.roles.heap.objects {
            return;
        }
        let Some(stack) = self.program.roles.stack else {
            return;
        };
        let depth = s.frames.len() as u32 + 1;
        // The frame lies in the stack below the caller's stack pointer: a
        // frame base whose local code reused by now may put it anywhere.
        let dead = match s.globals.get(stack.global as usize) {
            Some(&Val::Con { bits: top, .. }) => self
                .frame_spans(s, frame, depth)
                .into_iter()
                .filter(|span| stack.bottom <= span.start && span.end <= top)
                .collect(),
            _ => Vec::new(),
        };
        s.dead_stack.bury(depth, dead);
    }

    /// The variables of `frame`, returning from `depth` in `s`, where its
    /// frame base puts them.
    fn frame_spans(&self, s: &State, frame: &Frame, depth: u32) -> Vec<DeadSpan> {
        let Some(vars) = self.frame_variables(frame.func) else {
            return Vec::new();
        };
        // A function based on the stack pointer global never moves it, so
        // the global still holds its base.
        let Some(base) = self.frame_base(s, frame, vars.base) else {
            return Vec::new();
        };
        vars.variables
            .iter()
            .zip(0u32..)
            .filter_map(|((offset, v), variable)| {
                let start = base.checked_add_signed(*offset)? & 0xffff_ffff;
                Some(DeadSpan {
                    start,
                    end: start + v.size,
                    depth,
                    func: frame.func,
                    variable,
                    returned_at: s.at,
                })
            })
            .collect()
    }

    /// Ends the path when `width` bytes at `pointer + plus` touch a
    /// returned frame's variable from a caller; a symbolic pointer whose
    /// constant part lies in one forks off the paths where it lands in it.
    pub(crate) fn check_dead_frames(
        &mut self,
        s: &mut State,
        pointer: Pointer,
        plus: u32,
        width: u64,
        access: Access,
    ) -> Result<(), End> {
        let depth = s.frames.len() as u32;
        let dead = &s.dead_stack;
        if width == 0 || dead.is_empty() {
            return Ok(());
        }
        let t = match pointer {
            Pointer::Con(a) => {
                let start = a + u64::from(plus);
                return match dead.used_after_return(start, start + width, depth) {
                    Some(span) => Err(self.use_after_return(span, start, width, access)),
                    None => Ok(()),
                };
            }
            Pointer::Sym(t) => t,
        };
        let Some(c) = constant_part(&self.cx.terms, t) else {
            return Ok(());
        };
        let Some(span) = dead
            .span_holding((c + u64::from(plus)) & 0xffff_ffff, depth)
            .cloned()
        else {
            return Ok(());
        };
        let inside = inside(
            &mut self.cx.terms,
            t,
            plus,
            width,
            span.start,
            span.end - span.start,
        );
        self.guard_with(s, inside, &mut |exec, s| match exec.pin(s, t) {
            Ok(a) => exec.use_after_return(&span, a + u64::from(plus), width, access),
            Err(end) => end,
        })
    }

    fn use_after_return(&self, span: &DeadSpan, address: u64, width: u64, access: Access) -> End {
        let variable = self
            .frame_variables(span.func)
            .and_then(|vars| vars.variables.get(span.variable as usize))
            .map(|(_, v)| v.clone());
        let variable = variable.map(|variable| VariableFault {
            base: span.start,
            variable,
            frame_of: Some(span.func),
            returned_at: Some(span.returned_at),
        });
        MemoryFault::use_after_return(variable, address, width, access).into()
    }
}
