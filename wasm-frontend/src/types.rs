//! The value types, function signatures and import names that the module,
//! the IR and the import catalogue all describe themselves with. They live
//! apart from [`Module`](crate::Module) so that those three depend on them,
//! not on one another.

use std::fmt;

use crate::error::LoadError;

/// The value types of the supported feature set. References are the
/// nullable `funcref` and `externref` of the reference-types proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValType {
    I32,
    I64,
    F32,
    F64,
    FuncRef,
    ExternRef,
}

impl ValType {
    pub fn is_ref(self) -> bool {
        matches!(self, ValType::FuncRef | ValType::ExternRef)
    }
}

impl fmt::Display for ValType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ValType::I32 => "i32",
            ValType::I64 => "i64",
            ValType::F32 => "f32",
            ValType::F64 => "f64",
            ValType::FuncRef => "funcref",
            ValType::ExternRef => "externref",
        })
    }
}

/// Converts a value type; validation has already rejected the others, this
/// only keeps the conversion total. Here rather than in the loader because
/// the lowering of function bodies (locals, block types) needs it too.
pub(crate) fn val_type(ty: wasmparser::ValType, offset: u64) -> Result<ValType, LoadError> {
    match ty {
        wasmparser::ValType::I32 => Ok(ValType::I32),
        wasmparser::ValType::I64 => Ok(ValType::I64),
        wasmparser::ValType::F32 => Ok(ValType::F32),
        wasmparser::ValType::F64 => Ok(ValType::F64),
        wasmparser::ValType::V128 => Err(LoadError::unsupported("SIMD (v128)", offset)),
        wasmparser::ValType::Ref(r) => ref_type(r, offset),
    }
}

/// `funcref` or `externref`; the typed references of the function-references
/// and GC proposals are not supported.
pub(crate) fn ref_type(ty: wasmparser::RefType, offset: u64) -> Result<ValType, LoadError> {
    if ty == wasmparser::RefType::FUNCREF {
        Ok(ValType::FuncRef)
    } else if ty == wasmparser::RefType::EXTERNREF {
        Ok(ValType::ExternRef)
    } else {
        Err(LoadError::unsupported("function references", offset))
    }
}

/// A function signature.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FuncType {
    pub params: Box<[ValType]>,
    pub results: Box<[ValType]>,
}

impl FuncType {
    pub fn new(params: &[ValType], results: &[ValType]) -> Self {
        Self {
            params: params.into(),
            results: results.into(),
        }
    }
}

/// Printed as in error messages: `(i32, i32) -> i32`, `(i32)` when nothing
/// is returned, `-> (i32, i64)` for several results.
impl fmt::Display for FuncType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |types: &[ValType]| {
            types
                .iter()
                .map(ValType::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        write!(f, "({})", list(&self.params))?;
        match &*self.results {
            [] => Ok(()),
            [one] => write!(f, " -> {one}"),
            several => write!(f, " -> ({})", list(several)),
        }
    }
}

/// Where an imported item comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportName {
    pub module: String,
    pub name: String,
}

impl fmt::Display for ImportName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.module, self.name)
    }
}
