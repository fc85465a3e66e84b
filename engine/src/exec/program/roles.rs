//! The roles some functions and globals of a module play: for the memory
//! model, the allocator functions (imported from `env`, or defined and
//! named so), which the model replaces, the C stack pointer, whose going
//! below the data is a stack overflow, and where the heap starts; and
//! Rust's panic functions, whose call ends a path as a panic.

use super::link::Links;
use super::panic_fns::PanicFn;
use crate::memory::{HeapOptions, PAGE_SIZE};
use crate::state::value::Val;
use crate::state::State;
use symplay_wasm::imports::{allocator_named, AllocatorFn, ImportClass, PeerApi, SymbolicApi};
use symplay_wasm::{ConstExpr, DataMode, FuncBody, Module};

/// wasm-ld's names for the stack pointer and the start of the heap.
const STACK_POINTER: &str = "__stack_pointer";
const HEAP_BASE: &str = "__heap_base";
/// wasm-ld's default global base: the data starts there.
const NULL_PAGE: u64 = 1024;

#[derive(Clone, Debug, Default)]
pub struct Roles {
    /// The allocator function each store function is, if any.
    allocator: Vec<Option<AllocatorFn>>,
    /// The Rust panic function each store function is, if any.
    panics: Vec<Option<PanicFn>>,
    pub stack: Option<Stack>,
    /// Where the heap area starts; `None` leaves the memory flat.
    pub heap_start: Option<u64>,
    /// Below this address, accesses are null-pointer dereferences.
    pub null_end: u64,
    /// Functions named as allocator functions but not taken for them.
    pub skipped: Vec<String>,
    pub heap: HeapOptions,
}

/// The C stack: the global holding its pointer (an index in
/// `State::globals`), the lowest address it may reach and the pointer's
/// value at the start (the stack's top).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stack {
    pub global: u32,
    pub bottom: u64,
    pub top: u64,
}

impl Roles {
    /// The roles in the one instance of `module` (instance 0 of `links`),
    /// under `heap`; none when the heap is not modelled. `buffer_params`:
    /// the entry takes buffers of symbolic length, made in the heap.
    pub fn find(
        module: &Module,
        links: &Links,
        state: &State,
        heap: &HeapOptions,
        buffer_params: bool,
    ) -> Roles {
        let mut roles = Roles {
            allocator: vec![None; links.funcs.len()],
            heap: heap.clone(),
            ..Roles::default()
        };
        let Some(own) = links.instances.first() else {
            return roles;
        };
        roles.panics = vec![None; links.funcs.len()];
        for (index, &func) in own.funcs.iter().enumerate() {
            if let FuncBody::Defined(_) = module.funcs[index].body {
                roles.panics[func as usize] = PanicFn::of(module, index as u32);
            }
        }
        if !heap.objects {
            return roles;
        }
        let mut objects_needed = buffer_params;
        for (index, f) in module.funcs.iter().enumerate() {
            let role = match &f.body {
                FuncBody::Import(import) => match import.class {
                    ImportClass::Allocator(a) => Some(a),
                    // Both make memory objects the module's code has no
                    // allocator for.
                    ImportClass::Symbolic(SymbolicApi::SymbolicSizedBuffer)
                    | ImportClass::Peer(PeerApi::Alloc) => {
                        objects_needed = true;
                        None
                    }
                    _ => None,
                },
                FuncBody::Defined(_) => match allocator_named(&f.name) {
                    Some((a, ty)) if module.func_type(index as u32) == Some(&ty) => Some(a),
                    Some((_, ty)) => {
                        let found = module
                            .func_type(index as u32)
                            .map_or_else(String::new, ToString::to_string);
                        roles.skipped.push(format!(
                            "{} has signature {found}, not the allocator's {ty}: it runs as it is",
                            f.name
                        ));
                        None
                    }
                    None => None,
                },
            };
            roles.allocator[own.funcs[index] as usize] = role;
        }
        let global_value = |name| {
            let g = module.global_named(name)?;
            let &address = own.globals.get(g as usize)?;
            match state.globals.get(address as usize)? {
                Val::Con { bits, .. } => Some((address, *bits)),
                Val::Sym(_) => None,
            }
        };
        let data = active_data(module);
        let data_end = |below: u64| {
            data.iter()
                .map(|&(_, end)| end)
                .filter(|&end| end <= below)
                .max()
                .unwrap_or(0)
        };
        // Stack first (rustc's layout): no data lies below the stack, whose
        // lowest page is then kept as the low page is in wasm-ld's other
        // layout: NULL's, and a guard the stack must not reach.
        let stack_first = |sp: u64| data_end(sp) == 0 && sp > NULL_PAGE && !data.is_empty();
        // Where wasm-ld says the data ends (or starts, when there is none).
        let linker_end = global_value("__data_end")
            .or_else(|| global_value("__global_base"))
            .map(|(_, end)| end);
        let sp = global_value(STACK_POINTER).map(|(global, sp)| {
            let bottom = if stack_first(sp) {
                NULL_PAGE
            } else {
                let end = data_end(sp).max(linker_end.filter(|&e| e <= sp).unwrap_or(0));
                // No data and no word from the linker: the null page lies
                // below the stack, as in wasm-ld's layout.
                if end == 0 && sp > NULL_PAGE {
                    NULL_PAGE
                } else {
                    end
                }
            };
            roles.stack = Some(Stack {
                global,
                bottom,
                top: sp,
            });
            sp
        });
        if roles.allocator.iter().any(Option::is_some) || objects_needed {
            let memory_end = module
                .memories
                .first()
                .map_or(0, |m| u64::from(m.min_pages) * PAGE_SIZE);
            // wasm-ld puts the heap above the stack when the stack follows
            // the data; else (stack first, or no stack pointer) nothing is
            // known to be free below the end of memory.
            let above_stack = sp.filter(|&sp| data_end(u64::MAX) <= sp && sp < memory_end);
            let start = global_value(HEAP_BASE)
                .map(|(_, b)| b)
                .or(above_stack)
                .unwrap_or(memory_end);
            roles.heap_start = Some(start.next_multiple_of(16));
            // In wasm-ld's layout (the stack after the data), nothing lies
            // below the data, which starts at 1024 unless told otherwise.
            if above_stack.is_some() {
                let first_data = data.iter().map(|&(start, _)| start).min();
                roles.null_end = first_data.unwrap_or(NULL_PAGE).min(NULL_PAGE);
            } else if sp.is_some_and(stack_first) {
                roles.null_end = NULL_PAGE;
            }
        }
        roles
    }

    /// Where the regions of memory below the heap start: the data, the
    /// stack and what lies between (each up to the next), then the heap's
    /// start, which ends the last. Empty when the heap is not modelled.
    pub fn region_starts(&self) -> Vec<u64> {
        let Some(heap_start) = self.heap_start else {
            return Vec::new();
        };
        let stack = self.stack.map_or([0; 2], |s| [s.bottom, s.top]);
        let mut starts: Vec<u64> = [self.null_end, heap_start]
            .into_iter()
            .chain(stack)
            .filter(|&at| self.null_end <= at && at <= heap_start)
            .collect();
        starts.sort_unstable();
        starts.dedup();
        starts
    }

    /// The Rust panic function store function `func` is.
    #[inline]
    pub fn panic_fn(&self, func: u32) -> Option<PanicFn> {
        self.panics.get(func as usize).copied().flatten()
    }

    /// The allocator function store function `func` is.
    #[inline]
    pub fn allocator(&self, func: u32) -> Option<AllocatorFn> {
        self.allocator.get(func as usize).copied().flatten()
    }
}

/// Start and end of each active data segment at a constant address.
fn active_data(module: &Module) -> Vec<(u64, u64)> {
    module
        .data
        .iter()
        .filter_map(|d| match d.mode {
            DataMode::Active {
                offset: ConstExpr::I32(o),
                ..
            } => {
                let start = u64::from(o as u32);
                Some((start, start + d.bytes.len() as u64))
            }
            _ => None,
        })
        .collect()
}
