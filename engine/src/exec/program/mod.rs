//! What an exploration runs, which never changes during a run: the
//! instances' modules (their IR, tables, names), the links between them
//! ([`link`]), the roles some functions and globals play for the engine
//! ([`roles`]: the allocator, the C stack pointer, Rust's panic functions
//! of [`panic_fns`]), and instantiation, which makes the links and the
//! store's first state ([`instantiate`]). [`Program`] is that view, read by
//! any number of explorations and states; it also names where an
//! instruction is ([`Location`]).

pub(crate) mod instantiate;
pub(crate) mod link;
pub(crate) mod panic_fns;
pub(crate) mod roles;

use self::link::{InstanceLinks, Links};
use self::roles::Roles;
use crate::memory::MemoryModel;
use crate::report::{Location, SourceLine};
use crate::state::value::Val;
use crate::state::{Frame, State};
use symplay_wasm::ir::Code;
use symplay_wasm::{FuncBody, FuncType, Module};

#[derive(Clone, Copy)]
pub(crate) struct Program<'m> {
    /// The module of each instance of the store.
    pub modules: &'m [&'m Module],
    pub links: &'m Links,
    /// The allocator and stack roles of the explored module, and its heap
    /// options.
    pub roles: &'m Roles,
}

impl<'m> Program<'m> {
    /// The module that has store function `func`, and its index there.
    pub(crate) fn func_at(&self, func: u32) -> Option<(&'m Module, u32)> {
        let at = self.links.funcs.get(func as usize)?;
        Some((self.modules[at.instance as usize], at.index))
    }

    pub(crate) fn code(&self, func: u32) -> Option<&'m Code> {
        let (module, index) = self.func_at(func)?;
        match &module.funcs.get(index as usize)?.body {
            FuncBody::Defined(code) => Some(code),
            FuncBody::Import(_) => None,
        }
    }

    pub(crate) fn func_type(&self, func: u32) -> Option<&'m FuncType> {
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

    /// Where instruction `pc` of store function `func` is: its function,
    /// byte offset and, with DWARF, its source line.
    pub(crate) fn location(&self, (func, pc): (u32, u32)) -> Location {
        let offset = self.code(func).and_then(|c| c.offset_of(pc)).unwrap_or(0);
        let (function, func_index, source) =
            self.func_at(func)
                .map_or((String::new(), func, None), |(module, index)| {
                    let source = module.source_lines.as_ref().and_then(|s| s.line_at(offset));
                    (module.funcs[index as usize].name.clone(), index, source)
                });
        Location {
            function,
            func_index,
            offset,
            source: source.map(|s| SourceLine {
                file: s.file,
                line: s.line,
            }),
        }
    }

    pub(crate) fn location_text(&self, at: (u32, u32)) -> String {
        self.location(at).text()
    }

    /// The index in `State::tables` of the running instance's `table`.
    pub(crate) fn table_index(&self, s: &State, table: u32) -> Option<usize> {
        let t = self.links_of(s).tables.get(table as usize)?;
        Some(*t as usize)
    }
}
