//! Reading a Rust panic at the call of one of `core`'s panic functions
//! (`program/panic_fns.rs`): its message from the arguments and memory,
//! and the caller's `core::panic::Location`.

use crate::exec::executor::Executor;
use crate::exec::outcome::panic::{Panic, Part};
use crate::exec::outcome::End;
use crate::exec::program::panic_fns::PanicFn;
use crate::state::value::Val;
use crate::state::State;

/// The longest message or file name read from memory.
const MAX_TEXT: u64 = 4096;

impl Executor<'_> {
    /// The panic a call of `f` with the arguments on the stack is.
    pub(crate) fn rust_panic(&self, s: &State, f: PanicFn, arity: usize) -> End {
        let args = &s.stack[s.stack.len().saturating_sub(arity)..];
        let number = |i: usize| Part::Number(args[i]);
        let text = |at: usize| self.text(s, args[at], args[at + 1]).map(Part::Text);
        let message = match f {
            PanicFn::BoundsCheck => Some(vec![
                Part::Text("index out of bounds: the len is ".into()),
                number(1),
                Part::Text(" but the index is ".into()),
                number(0),
            ]),
            PanicFn::Str => text(0).map(|t| vec![t]),
            PanicFn::Fixed(message) => Some(vec![Part::Text(message.into())]),
            PanicFn::Fmt => None,
            PanicFn::Slice(before, between) => Some(vec![
                Part::Text(before.into()),
                number(0),
                Part::Text(between.into()),
                number(1),
            ]),
        };
        let location = args.last().and_then(|&loc| self.location_at(s, loc));
        End::Panic(Box::new(Panic { message, location }))
    }

    /// The UTF-8 text of `len` bytes at `ptr`, when all are concrete.
    fn text(&self, s: &State, ptr: Val, len: Val) -> Option<String> {
        let (ptr, len) = (ptr.concrete()?, len.concrete()?);
        if len > MAX_TEXT {
            return None;
        }
        let memory = self.program.memory(s);
        let bytes = (0..len)
            .map(|k| memory?.read_concrete_at(ptr + k, 1).map(|b| b as u8))
            .collect::<Option<Vec<u8>>>()?;
        String::from_utf8(bytes).ok()
    }

    /// `file:line:column` of the `core::panic::Location` at `loc`: the
    /// file name's pointer and length, then line and column, each 32 bits.
    fn location_at(&self, s: &State, loc: Val) -> Option<String> {
        let loc = loc.concrete()?;
        let memory = self.program.memory(s);
        let word = |k: u64| memory?.read_concrete_at(loc + 4 * k, 4);
        let (file, len, line, column) = (word(0)?, word(1)?, word(2)?, word(3)?);
        let file = self.text(s, Val::i32(file as u32), Val::i32(len as u32))?;
        (line > 0).then(|| format!("{file}:{line}:{column}"))
    }
}
