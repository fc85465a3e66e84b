//! A call of an imported function, answered by the host: the `symplay`
//! API or WASI, by the import's class; and the host's reads of memory,
//! made concrete.

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::report::Trap;
use crate::state::State;
use symplay_wasm::imports::ImportClass;

impl Executor<'_> {
    pub(crate) fn call_host(&mut self, s: &mut State, class: ImportClass) -> Result<Flow, End> {
        match class {
            ImportClass::Symbolic(api) => self.symbolic_api(s, api),
            ImportClass::Wasi(f) => self.wasi(s, f),
            // The allocator's calls go to the model instead; unknown
            // imports are rejected before exploration starts.
            ImportClass::Allocator(_) | ImportClass::Unknown => Err(End::Trap(Trap::Unreachable)),
        }
    }

    pub(super) fn read_byte(&mut self, s: &mut State, addr: u64) -> Result<u8, End> {
        let v = self.load_at(s, addr, 1)?;
        Ok(self.concretize(s, v, "a byte read by the host")? as u8)
    }

    pub(super) fn read_u32(&mut self, s: &mut State, addr: u64) -> Result<u32, End> {
        let v = self.load_at(s, addr, 4)?;
        Ok(self.concretize(s, v, "a word read by the host")? as u32)
    }
}
