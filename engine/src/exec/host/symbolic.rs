//! The `symplay` API a module imports to make inputs symbolic and state
//! what it expects: `symbolic_i32`/`_i64`, `symbolic_buffer`,
//! `symbolic_sized_buffer` (a buffer of symbolic length, an object of its
//! own), `assume` and `assert`. One call per function.

use crate::exec::executor::Executor;
use crate::exec::fork::{Decision, Truth};
use crate::exec::outcome::{End, Flow, MemoryFault};
use crate::memory::{MemoryModel, Size};
use crate::report::DropCause;
use crate::state::value::Val;
use crate::state::{Input, State};
use symplay_wasm::imports::SymbolicApi;

/// Longest input name read from memory.
const MAX_NAME: u64 = 256;

impl Executor<'_> {
    pub(super) fn symbolic_api(&mut self, s: &mut State, api: SymbolicApi) -> Result<Flow, End> {
        match api {
            SymbolicApi::SymbolicI32 => self.symbolic_int(s, 32),
            SymbolicApi::SymbolicI64 => self.symbolic_int(s, 64),
            SymbolicApi::SymbolicBuffer => self.symbolic_buffer(s),
            SymbolicApi::SymbolicSizedBuffer => self.symbolic_sized_buffer(s),
            SymbolicApi::Assume => self.assume(s),
            SymbolicApi::Assert => self.assert(s),
        }
    }

    /// `symbolic_i32(name)`, `symbolic_i64(name)`: a fresh integer input.
    fn symbolic_int(&mut self, s: &mut State, width: u8) -> Result<Flow, End> {
        let ptr = s.pop();
        let name = self.read_name(s, ptr)?;
        let v = self.fresh_int(s, &name, width);
        s.stack.push(v);
        Ok(Flow::Next)
    }

    /// `symbolic_buffer(ptr, len, name)`: `len` fresh bytes at `ptr`.
    fn symbolic_buffer(&mut self, s: &mut State) -> Result<Flow, End> {
        let name_ptr = s.pop();
        let len = s.pop();
        let ptr = s.pop();
        let name = self.read_name(s, name_ptr)?;
        self.fresh_input_bytes(s, &name, ptr, len)?;
        Ok(Flow::Next)
    }

    /// `symbolic_sized_buffer(ptr, capacity, name)`: `capacity` symbolic
    /// bytes at `ptr`, of a
    /// symbolic length at most `capacity` (under the run's size mode),
    /// made an object of that length; the length is the result.
    fn symbolic_sized_buffer(&mut self, s: &mut State) -> Result<Flow, End> {
        let name_ptr = s.pop();
        let capacity = s.pop();
        let ptr = s.pop();
        let name = self.read_name(s, name_ptr)?;
        let ptr = self.concretize(s, ptr, "a symbolic buffer address")?;
        let capacity = self.concretize(s, capacity, "a symbolic buffer capacity")?;
        let memory = self.program.memory(s);
        let memory_size = memory.map_or(0, MemoryModel::byte_len);
        let inside = memory.is_some_and(|m| m.addressable(ptr, capacity));
        if capacity == 0 || capacity > u64::from(u32::MAX >> 1) || !inside {
            return Err(MemoryFault::bad_argument(
                ptr,
                format!(
                    "symbolic_sized_buffer({ptr}, {capacity}, \"{name}\"): the capacity must be 1 \
                     or more and the buffer inside linear memory ({memory_size} bytes) or a heap block"
                ),
            )
            .into());
        }
        let (name, bytes) = self.fresh_bytes(s, &name, ptr, capacity, None)?;
        let len = self.input_length(&name, capacity);
        s.add_input(Input::SizedBytes {
            name: name.clone(),
            bytes,
            len,
        });
        let site = s.at;
        self.sized(s, len, capacity, &mut |exec, s, size| {
            // Under the module's own allocator there are no objects: the
            // bytes are there, their reads unchecked.
            if let Some(memory) = exec.program.memory_mut(s) {
                memory.add_input(ptr, size, capacity, &name, site);
            }
            let len = match size {
                Size::Con(n) => Val::i32(n as u32),
                Size::Sym(t) => Val::Sym(t),
            };
            s.stack.push(len);
            Ok(Flow::Next)
        })
    }

    /// `assume(c)`: the path goes on where `c` holds, and ends (dropped)
    /// where it cannot.
    pub(super) fn assume(&mut self, s: &mut State) -> Result<Flow, End> {
        let c = self.decide_top(s, Decision::Truth);
        match self.truth(c) {
            Truth::Known(true) => {}
            Truth::Known(false) => return Err(End::Dropped(DropCause::Assumption)),
            Truth::Sym(c) => {
                self.fork(s, &[c])?;
            }
        }
        Ok(Flow::Next)
    }

    /// `assert(c)`: a path where `c` can fail ends as `assert_failed`.
    pub(super) fn assert(&mut self, s: &mut State) -> Result<Flow, End> {
        let c = self.decide_top(s, Decision::Truth);
        match self.truth(c) {
            Truth::Known(true) => {}
            Truth::Known(false) => return Err(End::AssertFailed),
            Truth::Sym(c) => {
                let fails = self.cx.terms.not(c);
                self.guard(s, fails, End::AssertFailed)?;
            }
        }
        Ok(Flow::Next)
    }

    /// A NUL-terminated name at `ptr`; symbolic bytes are concretised.
    fn read_name(&mut self, s: &mut State, ptr: Val) -> Result<String, End> {
        let ptr = self.concretize(s, ptr, "an input name pointer")?;
        let mut bytes = Vec::new();
        for k in 0..MAX_NAME {
            let b = self.read_byte(s, ptr + k)?;
            if b == 0 {
                break;
            }
            bytes.push(b);
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}
