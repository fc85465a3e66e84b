//! Instantiation: adds an instance of a module to the store (its functions,
//! globals, memory and tables, or the imported ones) and applies its element
//! and data segments. Running the start function is the caller's business:
//! exploration runs it symbolically, a store concretely.

use super::link::{FuncAt, InstanceLinks, Links};
use crate::expr::TermStore;
use crate::memory::MemoryModel;
use crate::state::value::Val;
use crate::state::{State, Table};
use std::fmt;
use symplay_wasm::{ConstExpr, DataMode, ElementMode, FuncBody, GlobalInit, Module};

/// What the imports of a module are bound to: store addresses, per kind, in
/// import order (see [`Links`] and [`State`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Imports {
    /// Store function ids.
    pub funcs: Vec<u32>,
    /// Indices in `State::globals`.
    pub globals: Vec<u32>,
    /// Indices in `State::memories`.
    pub memories: Vec<u32>,
    /// Indices in `State::tables`.
    pub tables: Vec<u32>,
}

/// An active segment that does not fit: instantiation traps with
/// `out_of_bounds` there, after the segments before it were written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SegmentError {
    pub data: bool,
    pub index: usize,
}

impl fmt::Display for SegmentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.data {
            write!(f, "data segment {} does not fit in memory", self.index)
        } else {
            write!(
                f,
                "element segment {} does not fit in the table",
                self.index
            )
        }
    }
}

/// Adds an instance of `module` to `links` and `state` and returns its
/// index. With `imports`, every import is bound to what it names (the caller
/// checked kinds, types and counts); without, imported functions are host
/// functions (the symplay API, WASI) and there are no other imports.
pub(crate) fn add_instance(
    state: &mut State,
    links: &mut Links,
    terms: &mut TermStore,
    module: &Module,
    imports: Option<&Imports>,
) -> u32 {
    let instance = links.instances.len() as u32;
    let mut own = InstanceLinks::default();
    let mut imported_funcs = imports.map(|i| i.funcs.iter().copied());
    for (index, f) in module.funcs.iter().enumerate() {
        let bound = match (&f.body, imported_funcs.as_mut()) {
            (FuncBody::Import(_), Some(funcs)) => funcs.next(),
            _ => None,
        };
        own.funcs.push(bound.unwrap_or_else(|| {
            links.funcs.push(FuncAt {
                instance,
                index: index as u32,
            });
            links.funcs.len() as u32 - 1
        }));
    }
    let mut imported_globals = imports.into_iter().flat_map(|i| i.globals.iter().copied());
    for g in &module.globals {
        let address = match &g.init {
            GlobalInit::Import(_) => imported_globals.next(),
            GlobalInit::Const(_) => None,
        };
        let address = address.unwrap_or_else(|| {
            let value = match g.init {
                GlobalInit::Const(c) => const_value(c, state, &own),
                // Only exploration leaves imports unbound, and it refuses
                // imported globals before it gets here.
                GlobalInit::Import(_) => Val::zero(g.ty),
            };
            state.globals.push(value);
            state.globals.len() as u32 - 1
        });
        own.globals.push(address);
    }
    // Wasm has at most one memory here (multi-memory is not supported), an
    // imported one or a defined one.
    own.memory = module.memories.first().map(|m| {
        match m
            .import
            .as_ref()
            .and(imports.and_then(|i| i.memories.first()))
        {
            Some(&address) => address,
            None => {
                let memory = MemoryModel::flat(terms, m.min_pages, m.max_pages);
                state.memories.push(memory);
                state.memories.len() as u32 - 1
            }
        }
    });
    let mut imported_tables = imports.into_iter().flat_map(|i| i.tables.iter().copied());
    for t in &module.tables {
        let address = t.import.as_ref().and_then(|_| imported_tables.next());
        own.tables.push(address.unwrap_or_else(|| {
            state.tables_mut().push(Table {
                entries: vec![None; t.min as usize],
                max: t.max,
            });
            state.tables.len() as u32 - 1
        }));
    }
    state
        .dropped_data_mut()
        .push(vec![false; module.data.len()]);
    state
        .dropped_elems_mut()
        .push(vec![false; module.elements.len()]);
    links.instances.push(own);
    instance
}

/// Writes the active element segments, then the active data segments, in
/// order, and drops them (as instantiation does); stops at the first that
/// does not fit.
pub(crate) fn init_segments(
    state: &mut State,
    links: &Links,
    terms: &mut TermStore,
    module: &Module,
    instance: u32,
) -> Result<(), SegmentError> {
    let own = &links.instances[instance as usize];
    for (index, seg) in module.elements.iter().enumerate() {
        let (table, offset) = match seg.mode {
            ElementMode::Active { table, offset } => (table, offset),
            // Declared segments are dropped at instantiation too.
            ElementMode::Declared => {
                state.dropped_elems_mut()[instance as usize][index] = true;
                continue;
            }
            ElementMode::Passive => continue,
        };
        let at = offset_of(offset, state, own);
        let items: Vec<_> = seg
            .items
            .iter()
            .map(|&item| element(item, state, own))
            .collect();
        let slots = own
            .tables
            .get(table as usize)
            .and_then(|&t| {
                state.tables_mut()[t as usize]
                    .entries
                    .get_mut(at..at + items.len())
            })
            .ok_or(SegmentError { data: false, index })?;
        slots.copy_from_slice(&items);
        state.dropped_elems_mut()[instance as usize][index] = true;
    }
    for (index, seg) in module.data.iter().enumerate() {
        let DataMode::Active { offset, .. } = seg.mode else {
            continue;
        };
        let at = offset_of(offset, state, own) as u64;
        let memory = own.memory.map(|m| &mut state.memories[m as usize]);
        if !memory.is_some_and(|m| m.write_bytes_at(terms, at, &seg.bytes)) {
            return Err(SegmentError { data: true, index });
        }
        state.dropped_data_mut()[instance as usize][index] = true;
    }
    Ok(())
}

/// The reference an element segment's item evaluates to.
pub(crate) fn element(item: ConstExpr, state: &State, own: &InstanceLinks) -> Option<u32> {
    const_value(item, state, own).as_reference()
}

fn const_value(c: ConstExpr, state: &State, own: &InstanceLinks) -> Val {
    match c {
        ConstExpr::I32(v) => Val::i32(v as u32),
        ConstExpr::I64(v) => Val::i64(v as u64),
        ConstExpr::F32(b) => Val::i32(b),
        ConstExpr::F64(b) => Val::i64(b),
        ConstExpr::GlobalGet(g) => own
            .globals
            .get(g as usize)
            .map_or(Val::i32(0), |&a| state.globals[a as usize]),
        ConstExpr::RefNull(_) => Val::reference(None),
        ConstExpr::RefFunc(f) => Val::reference(own.funcs.get(f as usize).copied()),
    }
}

/// A segment offset: an i32, read as unsigned.
fn offset_of(offset: ConstExpr, state: &State, own: &InstanceLinks) -> usize {
    const_value(offset, state, own).concrete().unwrap_or(0) as u32 as usize
}
