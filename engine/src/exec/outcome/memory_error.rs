//! Memory errors, in one place. The checks find them where they happen
//! (`memcheck/`: an access the memory model resolves outside every object,
//! the C stack pointer, a C variable's bounds, a returned frame, the
//! allocator's frees; the host's sized buffers); here each becomes a
//! [`MemoryFault`] of a kind (every [`MemoryErrorKind`] the engine reports
//! is chosen here and nowhere else), and a path that ends with one says it
//! in its report through [`MemoryFault::report`].

use crate::exec::program::Program;
use crate::expr::TermStore;
use crate::memory::{Fault, FaultKind, MemoryModel, ObjectId, ObjectKind};
use crate::report::{Access, Location, MemoryError, MemoryErrorKind, ObjectReport, SourceLine};
use symplay_wasm::Variable;

/// A memory error as the engine finds it, its object by id in the memory
/// model.
#[derive(Clone, Debug)]
pub struct MemoryFault {
    pub kind: MemoryErrorKind,
    pub access: Access,
    pub address: u64,
    pub width: u32,
    pub object: Option<ObjectId>,
    pub detail: Option<String>,
    /// The C variable of a global or stack overflow.
    pub variable: Option<VariableFault>,
}

/// A C variable an access left: where it was on the path, and whose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariableFault {
    pub base: u64,
    pub variable: Variable,
    /// The store function whose frame held it; `None` for a global.
    pub frame_of: Option<u32>,
    /// Where that function returned, for a use after return.
    pub returned_at: Option<(u32, u32)>,
}

impl MemoryFault {
    fn new(kind: MemoryErrorKind, access: Access, address: u64, width: u64) -> MemoryFault {
        MemoryFault {
            kind,
            access,
            address,
            width: width as u32,
            object: None,
            detail: None,
            variable: None,
        }
    }

    /// The error of an access of `width` bytes at `address` that the
    /// memory model resolved to `fault`, or `None` where Wasm traps (outside
    /// linear memory, or a fault the objects model cannot name). A fault
    /// at a symbolic address left unclassified is classified at its value
    /// on the path; `meant` is the C variable the address was computed
    /// from, when it has one.
    pub(crate) fn of_access(
        fault: Fault,
        address: u64,
        width: u64,
        access: Access,
        memory: Option<&MemoryModel>,
        terms: &mut TermStore,
        meant: Option<VariableFault>,
    ) -> Option<MemoryFault> {
        let fault = match (fault, memory) {
            (Fault::Unclassified, Some(memory)) => memory.classify(terms, address, width),
            (fault, _) => fault,
        };
        let (kind, object) = match (fault, meant) {
            (Fault::Variable, Some(meant)) => {
                return Some(MemoryFault::outside_variable(meant, address, width, access))
            }
            (Fault::Object { kind, object }, _) => (kind, object),
            (Fault::OutOfBounds | Fault::Unclassified | Fault::Variable, _) => return None,
        };
        let input = object
            .and_then(|id| memory?.object(id))
            .is_some_and(|o| matches!(o.kind, ObjectKind::Input(_)));
        let kind = match (kind, input) {
            (FaultKind::Overflow, false) => MemoryErrorKind::HeapOverflow,
            (FaultKind::Overflow, true) => MemoryErrorKind::BufferOverflow,
            (FaultKind::Underflow, false) => MemoryErrorKind::HeapUnderflow,
            (FaultKind::Underflow, true) => MemoryErrorKind::BufferUnderflow,
            (FaultKind::UseAfterFree, _) => MemoryErrorKind::UseAfterFree,
            (FaultKind::Wild, _) => MemoryErrorKind::WildAccess,
            (FaultKind::Null, _) => MemoryErrorKind::NullDereference,
        };
        Some(MemoryFault {
            object,
            ..MemoryFault::new(kind, access, address, width)
        })
    }

    /// An access of `width` bytes at `address` outside the C variable it
    /// was computed from: past its end or before its start, of a global or
    /// of a stack frame.
    fn outside_variable(
        variable: VariableFault,
        address: u64,
        width: u64,
        access: Access,
    ) -> MemoryFault {
        let before = address < variable.base;
        let kind = match (variable.frame_of, before) {
            (None, false) => MemoryErrorKind::GlobalOverflow,
            (None, true) => MemoryErrorKind::GlobalUnderflow,
            (Some(_), false) => MemoryErrorKind::StackBufferOverflow,
            (Some(_), true) => MemoryErrorKind::StackBufferUnderflow,
        };
        MemoryFault {
            variable: Some(variable),
            ..MemoryFault::new(kind, access, address, width)
        }
    }

    /// A caller's access to `variable` of a stack frame that has returned.
    pub(crate) fn use_after_return(
        variable: Option<VariableFault>,
        address: u64,
        width: u64,
        access: Access,
    ) -> MemoryFault {
        MemoryFault {
            variable,
            ..MemoryFault::new(MemoryErrorKind::UseAfterReturn, access, address, width)
        }
    }

    /// The C stack pointer set to `address`, below the end of the data.
    pub(crate) fn stack_overflow(address: u64) -> MemoryFault {
        MemoryFault::new(MemoryErrorKind::StackOverflow, Access::Stack, address, 0)
    }

    /// A free of `object`, freed before, at its base `address`.
    pub(crate) fn double_free(address: u64, object: ObjectId, access: Access) -> MemoryFault {
        MemoryFault {
            object: Some(object),
            ..MemoryFault::new(MemoryErrorKind::DoubleFree, access, address, 0)
        }
    }

    /// A free of `address`, which is no heap object's base (`near`: the
    /// heap object whose slot it lies in, if any).
    pub(crate) fn invalid_free(
        address: u64,
        near: Option<ObjectId>,
        access: Access,
    ) -> MemoryFault {
        MemoryFault {
            object: near,
            ..MemoryFault::new(MemoryErrorKind::InvalidFree, access, address, 0)
        }
    }

    /// A call of the symbolic-input API with an argument the model cannot
    /// take, `detail` saying which and why.
    pub(crate) fn bad_argument(address: u64, detail: String) -> MemoryFault {
        MemoryFault {
            detail: Some(detail),
            ..MemoryFault::new(MemoryErrorKind::BadArgument, Access::Call, address, 0)
        }
    }

    /// The error as the path's report gives it, its object by id among
    /// the path's objects and its offset from that object's base; with
    /// the C variable it names, as an object of its own to add to the
    /// path's (after the model's objects, of which it is not one).
    pub(crate) fn report(
        self,
        memory: Option<&MemoryModel>,
        program: &Program<'_>,
    ) -> (MemoryError, Option<ObjectReport>) {
        let variable = self.variable.as_ref().map(|v| {
            let id = memory.map_or(0, |m| m.made_objects().len() as u32);
            v.report(id, program)
        });
        let base = self
            .object
            .and_then(|id| memory?.object(id))
            .map(|o| o.base);
        let mut error = MemoryError {
            kind: self.kind,
            access: self.access,
            address: self.address,
            width: self.width,
            object: self.object.map(|id| id.0),
            offset: base.map(|b| self.address as i64 - b as i64),
            detail: self.detail,
        };
        if let Some(v) = &variable {
            error.object = Some(v.id);
            error.offset = Some(error.address as i64 - v.base as i64);
        }
        (error, variable)
    }
}

impl VariableFault {
    /// The variable as object `id` of the path's report: `site` is its
    /// function (none for a global) and declaration.
    fn report(&self, id: u32, program: &Program<'_>) -> ObjectReport {
        let declared = self.variable.declared.as_ref().map(|d| SourceLine {
            file: d.file.clone(),
            line: d.line,
        });
        let site = match self.frame_of {
            Some(func) => Location {
                source: declared,
                ..program.location((func, 0))
            },
            None => Location {
                function: String::new(),
                func_index: 0,
                offset: 0,
                source: declared,
            },
        };
        ObjectReport {
            id,
            kind: if self.frame_of.is_some() {
                "local"
            } else {
                "global"
            }
            .into(),
            name: Some(self.variable.name.clone()),
            base: self.base,
            size: self.variable.size,
            symbolic_size: None,
            size_range: None,
            capacity: self.variable.size,
            site,
            freed_at: self.returned_at.map(|at| program.location(at)),
            pieces: None,
            base_symbol: None,
            pinned_at: None,
            segment: None,
        }
    }
}
