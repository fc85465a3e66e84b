//! Imported functions: the `symplay` symbolic-input API and a deterministic
//! WASI model (output captured per path, empty arguments and environment,
//! symbolic random bytes).

use super::context::guidance::InputSource;
use super::executor::Executor;
use super::fork::Truth;
use super::outcome::{End, Flow, MemoryFault};
use crate::expr::{Sort, TermId};
use crate::memory::{MemoryModel, Size};
use crate::report::{Access, DropCause, InputValue, Trap};
use crate::state::value::Val;
use crate::state::{Input, State};
use symplay_wasm::imports::{ImportClass, SymbolicApi, WasiFn};

/// Bytes a host call makes between two looks at the run's limits.
const HOST_CALL_CHECK: u64 = 4096;

/// Longest input name read from memory.
const MAX_NAME: u64 = 256;
const ERRNO_BADF: u32 = 8;
const ERRNO_SPIPE: u32 = 70;

impl Executor<'_> {
    pub(crate) fn call_host(&mut self, s: &mut State, class: ImportClass) -> Result<Flow, End> {
        match class {
            ImportClass::Symbolic(api) => return self.symbolic_api(s, api),
            ImportClass::Wasi(f) => self.wasi(s, f)?,
            // The allocator's calls go to the model instead; unknown
            // imports are rejected before exploration starts.
            ImportClass::Allocator(_) | ImportClass::Unknown => {
                return Err(End::Trap(Trap::Unreachable))
            }
        }
        Ok(Flow::Next)
    }

    fn symbolic_api(&mut self, s: &mut State, api: SymbolicApi) -> Result<Flow, End> {
        match api {
            SymbolicApi::SymbolicI32 | SymbolicApi::SymbolicI64 => {
                let ptr = s.pop();
                let name = self.read_name(s, ptr)?;
                let width = if api == SymbolicApi::SymbolicI32 {
                    32
                } else {
                    64
                };
                let v = self.fresh_int(s, &name, width);
                s.stack.push(v);
            }
            SymbolicApi::SymbolicBuffer => {
                let name_ptr = s.pop();
                let len = s.pop();
                let ptr = s.pop();
                let name = self.read_name(s, name_ptr)?;
                self.fresh_input_bytes(s, &name, ptr, len)?;
            }
            SymbolicApi::SymbolicSizedBuffer => {
                let name_ptr = s.pop();
                let capacity = s.pop();
                let ptr = s.pop();
                let name = self.read_name(s, name_ptr)?;
                return self.fresh_sized_bytes(s, &name, ptr, capacity);
            }
            SymbolicApi::Assume => {
                let c = s.pop();
                match self.truth(c) {
                    Truth::Known(true) => {}
                    Truth::Known(false) => return Err(End::Dropped(DropCause::Assumption)),
                    Truth::Sym(c) => {
                        self.fork(s, &[c])?;
                    }
                }
            }
            SymbolicApi::Assert => {
                let c = s.pop();
                match self.truth(c) {
                    Truth::Known(true) => {}
                    Truth::Known(false) => return Err(End::AssertFailed),
                    Truth::Sym(c) => {
                        let fails = self.cx.terms.not(c);
                        self.guard(s, fails, End::AssertFailed)?;
                    }
                }
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

    fn read_byte(&mut self, s: &mut State, addr: u64) -> Result<u8, End> {
        let v = self.load_at(s, addr, 1)?;
        Ok(self.concretize(s, v, "a byte read by the host")? as u8)
    }

    fn read_u32(&mut self, s: &mut State, addr: u64) -> Result<u32, End> {
        let v = self.load_at(s, addr, 4)?;
        Ok(self.concretize(s, v, "a word read by the host")? as u32)
    }

    /// The term of input `name`, `width` bits wide: the test's value
    /// `given` in a concrete replay, else a symbol, which a guided replay
    /// pins to `given` (`input = value` joins the guide).
    pub(super) fn input_term(&mut self, name: &str, width: u8, given: Option<u64>) -> TermId {
        if let (Some(value), false) = (given, self.cx.guidance.source.symbolic()) {
            return self.cx.terms.bv_const(width, value);
        }
        let term = self
            .cx
            .terms
            .declare(name, Sort::Bv(width))
            .unwrap_or_else(|_| self.cx.terms.fresh(name, Sort::Bv(width)));
        if let (InputSource::Guided(_), Some(value)) = (&self.cx.guidance.source, given) {
            let c = self.cx.terms.bv_const(width, value);
            let eq = self.cx.terms.eq(term, c);
            self.cx.guidance.guide.push(eq);
        }
        term
    }

    /// A fresh integer input (or, in replay, its value from the test).
    pub(crate) fn fresh_int(&mut self, s: &mut State, name: &str, width: u8) -> Val {
        let name = s.unique_name(name);
        let given = self
            .cx
            .guidance
            .source
            .test()
            .map(|test| match test.get(&name) {
                Some(InputValue::Int(v)) => *v as u64,
                _ => 0,
            });
        let term = self.input_term(&name, width, given);
        s.inputs.push(Input::Int { name, width, term });
        Val::from_term(&self.cx.terms, term)
    }

    /// `symbolic_buffer`, `random_get`: `len` fresh bytes at `ptr`, one input.
    fn fresh_input_bytes(
        &mut self,
        s: &mut State,
        name: &str,
        ptr: Val,
        len: Val,
    ) -> Result<(), End> {
        let ptr = self.concretize(s, ptr, "a symbolic buffer address")?;
        let len = self.concretize(s, len, "a symbolic buffer length")?;
        let (name, bytes) = self.fresh_bytes(s, name, ptr, len)?;
        s.inputs.push(Input::Bytes { name, bytes });
        Ok(())
    }

    /// Writes `len` fresh symbolic bytes (or, in replay, the test's) at
    /// `ptr`; gives their input's unique name and their terms.
    fn fresh_bytes(
        &mut self,
        s: &mut State,
        name: &str,
        ptr: u64,
        len: u64,
    ) -> Result<(String, Vec<TermId>), End> {
        // New input in place of the input buffers it overwrites.
        let at = s.at;
        if let Some(objects) = self.program.memory_mut(s).and_then(|m| m.objects_mut()) {
            objects.retire_inputs_over(ptr, ptr + len, at);
        }
        self.write_fresh_bytes(s, name, ptr, len)
    }

    /// [`Self::fresh_bytes`] into memory that holds no input to retire.
    pub(super) fn write_fresh_bytes(
        &mut self,
        s: &mut State,
        name: &str,
        ptr: u64,
        len: u64,
    ) -> Result<(String, Vec<TermId>), End> {
        let buffer = self.spot(s, ptr, len, Access::Write)?;
        let name = s.unique_name(name);
        let replayed = self
            .cx
            .guidance
            .source
            .test()
            .map(|test| match test.get(&name) {
                Some(InputValue::Bytes(b)) => b.clone(),
                _ => Vec::new(),
            });
        let mut bytes = Vec::with_capacity(len as usize);
        for k in 0..len {
            // A buffer of megabytes takes seconds and gigabytes: the run's
            // limits hold inside it.
            if k % HOST_CALL_CHECK == HOST_CALL_CHECK - 1 && self.cut_off() {
                return Err(End::CutOff);
            }
            let given = replayed
                .as_ref()
                .map(|b| u64::from(b.get(k as usize).copied().unwrap_or(0)));
            let t = self.input_term(&format!("{name}[{k}]"), 8, given);
            if let Some(memory) = self.program.memory_mut(s) {
                memory.write_byte(&mut self.cx.terms, buffer.plus(k), t);
            }
            bytes.push(t);
        }
        Ok((name, bytes))
    }

    /// `symbolic_sized_buffer`: `capacity` symbolic bytes at `ptr`, of a
    /// symbolic length at most `capacity` (under the run's size mode),
    /// made an object of that length; the length is the result.
    fn fresh_sized_bytes(
        &mut self,
        s: &mut State,
        name: &str,
        ptr: Val,
        capacity: Val,
    ) -> Result<Flow, End> {
        let ptr = self.concretize(s, ptr, "a symbolic buffer address")?;
        let capacity = self.concretize(s, capacity, "a symbolic buffer capacity")?;
        let memory_size = self.program.memory(s).map_or(0, MemoryModel::byte_len);
        if capacity == 0 || capacity > u64::from(u32::MAX >> 1) || ptr + capacity > memory_size {
            return Err(MemoryFault::bad_argument(
                ptr,
                format!(
                    "symbolic_sized_buffer({ptr}, {capacity}, \"{name}\"): the capacity must be 1 \
                     or more and the buffer inside linear memory ({memory_size} bytes)"
                ),
            )
            .into());
        }
        let (name, bytes) = self.fresh_bytes(s, name, ptr, capacity)?;
        let len = self.input_length(&name, capacity);
        s.inputs.push(Input::SizedBytes {
            name: name.clone(),
            bytes,
            len,
        });
        let site = s.at;
        self.sized(s, len, capacity, &mut |exec, s, size| {
            let objects = exec
                .program
                .memory_mut(s)
                .and_then(|m| m.objects_mut())
                .ok_or(End::Trap(Trap::Unreachable))?;
            objects.add_input(ptr, size, capacity, &name, site);
            let len = match size {
                Size::Con(n) => Val::i32(n as u32),
                Size::Sym(t) => Val::Sym(t),
            };
            s.stack.push(len);
            Ok(Flow::Next)
        })
    }

    /// The length of the sized input `name` of `capacity` bytes: symbolic,
    /// or in replay the length of the test's bytes.
    pub(super) fn input_length(&mut self, name: &str, capacity: u64) -> TermId {
        let given = self
            .cx
            .guidance
            .source
            .test()
            .map(|test| match test.get(name) {
                Some(InputValue::Bytes(b)) => (b.len() as u64).min(capacity),
                _ => 0,
            });
        self.input_term(&format!("{name}.len"), 32, given)
    }

    fn wasi(&mut self, s: &mut State, f: WasiFn) -> Result<(), End> {
        let errno = match f {
            WasiFn::FdWrite => {
                let nwritten = s.pop();
                let iovs_len = s.pop();
                let iovs = s.pop();
                let fd = s.pop();
                let fd = self.concretize(s, fd, "an fd_write descriptor")?;
                let iovs = self.concretize(s, iovs, "an fd_write iovec address")?;
                let count = self.concretize(s, iovs_len, "an fd_write iovec count")?;
                let nwritten = self.concretize(s, nwritten, "an fd_write result address")?;
                if fd != 1 && fd != 2 {
                    ERRNO_BADF
                } else {
                    let mut out = Vec::new();
                    for i in 0..count {
                        let base = self.read_u32(s, iovs + 8 * i)?;
                        let len = self.read_u32(s, iovs + 8 * i + 4)?;
                        for k in 0..u64::from(len) {
                            out.push(self.read_byte(s, u64::from(base) + k)?);
                        }
                    }
                    self.write_bytes(s, nwritten, &(out.len() as u32).to_le_bytes())?;
                    if fd == 1 {
                        &mut s.stdout
                    } else {
                        &mut s.stderr
                    }
                    .extend(out);
                    0
                }
            }
            WasiFn::ProcExit => {
                let code = s.pop();
                return Err(End::Exited(code));
            }
            WasiFn::ArgsSizesGet | WasiFn::EnvironSizesGet => {
                let size_ptr = s.pop();
                let count_ptr = s.pop();
                let size_ptr = self.concretize(s, size_ptr, "a WASI result address")?;
                let count_ptr = self.concretize(s, count_ptr, "a WASI result address")?;
                self.write_bytes(s, count_ptr, &[0; 4])?;
                self.write_bytes(s, size_ptr, &[0; 4])?;
                0
            }
            WasiFn::ArgsGet | WasiFn::EnvironGet => {
                s.pop();
                s.pop();
                0
            }
            WasiFn::RandomGet => {
                let len = s.pop();
                let ptr = s.pop();
                self.fresh_input_bytes(s, "random", ptr, len)?;
                0
            }
            WasiFn::FdClose => {
                s.pop();
                0
            }
            WasiFn::FdSeek => {
                for _ in 0..4 {
                    s.pop();
                }
                ERRNO_SPIPE
            }
            WasiFn::FdFdstatGet => {
                let ptr = s.pop();
                let fd = s.pop();
                let fd = self.concretize(s, fd, "an fd_fdstat_get descriptor")?;
                let ptr = self.concretize(s, ptr, "a WASI result address")?;
                if fd <= 2 {
                    // A character device with no rights restrictions recorded.
                    let mut stat = [0u8; 24];
                    stat[0] = 2;
                    self.write_bytes(s, ptr, &stat)?;
                    0
                } else {
                    ERRNO_BADF
                }
            }
            WasiFn::ClockTimeGet => {
                let ptr = s.pop();
                s.pop();
                s.pop();
                let ptr = self.concretize(s, ptr, "a WASI result address")?;
                self.write_bytes(s, ptr, &[0; 8])?;
                0
            }
        };
        s.stack.push(Val::i32(errno));
        Ok(())
    }
}
