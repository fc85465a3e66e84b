//! A call of an imported function, answered by the host: the `symplay`
//! API, WASI or C's memory functions, by the import's class; an import the
//! host does not provide, which ends the path or (havoc) gives fresh
//! symbolic results; and the host's reads of memory, made concrete.

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::report::Trap;
use crate::state::value::Val;
use crate::state::State;
use symplay_wasm::imports::{FuncImport, ImportClass, MemoryFn};
use symplay_wasm::{FuncType, ValType};

impl Executor<'_> {
    /// Store function `func`, the import `import`, called.
    pub(crate) fn call_host(
        &mut self,
        s: &mut State,
        func: u32,
        import: &FuncImport,
    ) -> Result<Flow, End> {
        match import.class {
            ImportClass::Symbolic(api) => self.symbolic_api(s, api),
            ImportClass::Peer(api) => self.peer_api(s, api),
            ImportClass::Wasi(f) => self.wasi(s, f),
            ImportClass::Memory(f) => self.memory_fn(s, f),
            ImportClass::Unknown => self.not_provided(s, func, import),
            // The allocator's calls go to the model instead.
            ImportClass::Allocator(_) => Err(End::Trap(Trap::Unreachable)),
        }
    }

    /// `memcpy`, `memmove`, `memset`: `memory.copy` and `memory.fill`, the
    /// destination returned.
    fn memory_fn(&mut self, s: &mut State, f: MemoryFn) -> Result<Flow, End> {
        let n = s.pop();
        let second = s.pop();
        let dst = s.pop();
        // The result first: a copy at a symbolic address may fork.
        s.stack.push(dst);
        match f {
            MemoryFn::Memcpy | MemoryFn::Memmove => self.copy_range(s, dst, second, n),
            MemoryFn::Memset => self.fill_range(s, dst, second, n),
        }
    }

    /// An import the host does not provide: the path ends there, naming it
    /// with its type; or, under havoc, each result is a fresh input (an
    /// integer; a float is zero), which the path's notes record.
    fn not_provided(&mut self, s: &mut State, func: u32, import: &FuncImport) -> Result<Flow, End> {
        let ty = self
            .program
            .func_type(func)
            .cloned()
            .unwrap_or_else(|| FuncType::new(&[], &[]));
        let named = format!("{} {ty}", import.name);
        if !self.cx.havoc_imports {
            return Err(End::NotProvided(named));
        }
        s.stack
            .truncate(s.stack.len().saturating_sub(ty.params.len()));
        for (i, &result) in ty.results.iter().enumerate() {
            let name = match ty.results.len() {
                1 => import.name.to_string(),
                _ => format!("{}.{i}", import.name),
            };
            let value = match result {
                ValType::I32 => self.fresh_int(s, &name, 32),
                ValType::I64 => self.fresh_int(s, &name, 64),
                other => Val::zero(other),
            };
            s.stack.push(value);
        }
        let note = format!("{named}, not provided, returned fresh symbolic values (havoc)");
        if !s.notes.contains(&note) {
            s.note(note);
        }
        Ok(Flow::Next)
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
