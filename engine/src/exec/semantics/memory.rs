//! Memory instructions: typed loads and stores, `memory.size` and
//! `memory.grow`, and the bulk operations. Every access is resolved and
//! checked in `memcheck/`; floats loaded are made concrete.

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::state::value::Val;
use crate::state::State;
use symplay_wasm::ir::{LoadKind, MemArg, StoreKind};

impl Executor<'_> {
    pub(super) fn load(
        &mut self,
        s: &mut State,
        kind: LoadKind,
        memarg: MemArg,
    ) -> Result<Flow, End> {
        let addr = s.pop();
        let (size, result_width, signed) = kind.shape();
        self.load_value(s, addr, memarg.offset, size, |exec, s, raw| {
            let v = exec.extend(raw, size * 8, result_width, signed);
            let v = if matches!(kind, LoadKind::F32 | LoadKind::F64) {
                Val::con(
                    result_width,
                    exec.concretize_kept(s, v, "a float loaded from memory")?,
                )
            } else {
                v
            };
            s.stack.push(v);
            Ok(())
        })
    }

    pub(super) fn store(
        &mut self,
        s: &mut State,
        kind: StoreKind,
        memarg: MemArg,
    ) -> Result<Flow, End> {
        let value = s.pop();
        let addr = s.pop();
        self.store_value(s, addr, memarg.offset, kind.size(), value)
    }

    pub(super) fn memory_size(&mut self, s: &mut State) -> Result<Flow, End> {
        let pages = self.program.memory(s).map_or(0, |m| m.pages());
        s.stack.push(Val::i32(pages));
        Ok(Flow::Next)
    }

    pub(super) fn memory_grow(&mut self, s: &mut State) -> Result<Flow, End> {
        let delta = s.pop();
        let delta = self.concretize(s, delta, "the memory.grow size")?;
        let old = self
            .program
            .memory_mut(s)
            .and_then(|m| m.grow(delta as u32))
            .unwrap_or(u32::MAX);
        s.stack.push(Val::i32(old));
        Ok(Flow::Next)
    }

    pub(super) fn memory_copy(&mut self, s: &mut State) -> Result<Flow, End> {
        let n = s.pop();
        let src = s.pop();
        let dst = s.pop();
        self.copy_range(s, dst, src, n)
    }

    pub(super) fn memory_fill(&mut self, s: &mut State) -> Result<Flow, End> {
        let n = s.pop();
        let value = s.pop();
        let dst = s.pop();
        self.fill_range(s, dst, value, n)
    }

    pub(super) fn memory_init(&mut self, s: &mut State, data: u32) -> Result<Flow, End> {
        let n = s.pop();
        let src = s.pop();
        let dst = s.pop();
        self.init_range(s, data, dst, src, n)?;
        Ok(Flow::Next)
    }

    pub(super) fn data_drop(&mut self, s: &mut State, data: u32) -> Result<Flow, End> {
        let instance = self.program.instance(s);
        s.dropped_data_mut()[instance][data as usize] = true;
        Ok(Flow::Next)
    }
}
