//! The program an exploration runs: the instances' modules (their IR,
//! tables, names) and the links between them. It never changes during a run,
//! so any number of explorations and states can read it.

use super::link::{InstanceLinks, Links};
use super::roles::Roles;
use crate::memory::MemoryModel;
use crate::state::value::Val;
use crate::state::{Frame, State};
use symplay_wasm::ir::Code;
use symplay_wasm::{FuncBody, FuncType, Module};

#[derive(Clone, Copy)]
pub struct Program<'m> {
    /// The module of each instance of the store.
    pub modules: &'m [&'m Module],
    pub links: &'m Links,
    /// The allocator and stack roles of the explored module, and its heap
    /// options.
    pub roles: &'m Roles,
}

impl<'m> Program<'m> {
    /// The module that has store function `func`, and its index there.
    pub fn func_at(&self, func: u32) -> Option<(&'m Module, u32)> {
        let at = self.links.funcs.get(func as usize)?;
        Some((self.modules[at.instance as usize], at.index))
    }

    pub fn code(&self, func: u32) -> Option<&'m Code> {
        let (module, index) = self.func_at(func)?;
        match &module.funcs.get(index as usize)?.body {
            FuncBody::Defined(code) => Some(code),
            FuncBody::Import(_) => None,
        }
    }

    pub fn func_type(&self, func: u32) -> Option<&'m FuncType> {
        let (module, index) = self.func_at(func)?;
        module.func_type(index)
    }

    /// The first frame of a run that calls store function `func` with
    /// `args`, on an empty stack; `None` for a host function.
    pub(crate) fn entry_frame(&self, func: u32, mut args: Vec<Val>) -> Option<Frame> {
        let code = self.code(func)?;
        args.extend(code.locals.iter().map(|&t| Val::zero(t)));
        Some(Frame {
            func,
            pc: 0,
            locals: args,
            base: 0,
        })
    }

    /// The instance whose code the top frame of `s` runs.
    pub(crate) fn instance(&self, s: &State) -> usize {
        s.frames
            .last()
            .map_or(0, |f| self.links.funcs[f.func as usize].instance as usize)
    }

    pub(crate) fn module_of(&self, s: &State) -> &'m Module {
        self.modules[self.instance(s)]
    }

    pub(crate) fn links_of(&self, s: &State) -> &'m InstanceLinks {
        &self.links.instances[self.instance(s)]
    }

    /// The memory the running instance uses.
    pub(crate) fn memory<'s>(&self, s: &'s State) -> Option<&'s MemoryModel> {
        let m = self.links_of(s).memory?;
        s.memories.get(m as usize)
    }

    pub(crate) fn memory_mut<'s>(&self, s: &'s mut State) -> Option<&'s mut MemoryModel> {
        let m = self.links_of(s).memory?;
        s.memories.get_mut(m as usize)
    }

    /// The index in `State::tables` of the running instance's `table`.
    pub(crate) fn table_index(&self, s: &State, table: u32) -> Option<usize> {
        let t = self.links_of(s).tables.get(table as usize)?;
        Some(*t as usize)
    }
}
