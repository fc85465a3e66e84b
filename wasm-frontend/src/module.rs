//! The loaded module: types, functions with their IR, tables, memories,
//! globals, exports, segments and names.

use std::fmt;

use crate::error::{ErrorKind, LoadError};
use crate::imports::FuncImport;
use crate::ir::Code;
use crate::source_lines::SourceLines;

/// Index in the function index space (imported functions first).
pub type FuncIdx = u32;

/// The value types of the supported feature set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValType {
    I32,
    I64,
    F32,
    F64,
}

impl fmt::Display for ValType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ValType::I32 => "i32",
            ValType::I64 => "i64",
            ValType::F32 => "f32",
            ValType::F64 => "f64",
        })
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

/// A function of the index space.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub type_index: u32,
    /// From the name section, else an export name, else the import name, else
    /// `func[N]`.
    pub name: String,
    pub body: FuncBody,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FuncBody {
    Import(FuncImport),
    Defined(Code),
}

/// A table of function references (the only element type supported).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub min: u32,
    pub max: Option<u32>,
    pub import: Option<ImportName>,
}

/// A linear memory, sizes in 64 KiB pages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memory {
    pub min_pages: u32,
    pub max_pages: Option<u32>,
    pub import: Option<ImportName>,
}

/// A constant expression (without extended-const, exactly one instruction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstExpr {
    I32(i32),
    I64(i64),
    /// Raw IEEE-754 bits.
    F32(u32),
    /// Raw IEEE-754 bits.
    F64(u64),
    /// The value of a global (in Wasm 1.0, an imported one).
    GlobalGet(u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Global {
    pub ty: ValType,
    pub mutable: bool,
    pub init: GlobalInit,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlobalInit {
    Const(ConstExpr),
    /// Provided by the host.
    Import(ImportName),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    Func,
    Table,
    Memory,
    Global,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    pub name: String,
    pub kind: ExportKind,
    pub index: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElementMode {
    /// Copied into `table` at `offset` on instantiation.
    Active { table: u32, offset: ConstExpr },
    /// Only used by `table.init`.
    Passive,
    /// Only declares functions as referenceable.
    Declared,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementSegment {
    pub mode: ElementMode,
    pub items: Box<[FuncIdx]>,
    pub offset: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataMode {
    /// Copied into `memory` at `offset` on instantiation.
    Active { memory: u32, offset: ConstExpr },
    /// Only used by `memory.init`.
    Passive,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataSegment {
    pub mode: DataMode,
    pub bytes: Box<[u8]>,
    /// Byte offset of the segment in the module.
    pub offset: u64,
}

/// A loaded, validated module.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Module {
    pub types: Vec<FuncType>,
    /// The function index space: imports first, then defined functions.
    pub funcs: Vec<Func>,
    pub tables: Vec<Table>,
    pub memories: Vec<Memory>,
    /// The global index space: imports first.
    pub globals: Vec<Global>,
    pub exports: Vec<Export>,
    pub start: Option<FuncIdx>,
    pub elements: Vec<ElementSegment>,
    pub data: Vec<DataSegment>,
    /// Source lines of the code, when the module carries DWARF line tables.
    pub source_lines: Option<SourceLines>,
}

impl Module {
    pub fn func_type(&self, func: FuncIdx) -> Option<&FuncType> {
        let func = self.funcs.get(func as usize)?;
        self.types.get(func.type_index as usize)
    }

    pub fn export(&self, name: &str) -> Option<&Export> {
        self.exports.iter().find(|e| e.name == name)
    }

    /// The function exported as `name`; the error lists the exported
    /// functions.
    pub fn export_func(&self, name: &str) -> Result<FuncIdx, LoadError> {
        if let Some(export) = self.export(name).filter(|e| e.kind == ExportKind::Func) {
            return Ok(export.index);
        }
        let available: Vec<&str> = self
            .exports
            .iter()
            .filter(|e| e.kind == ExportKind::Func)
            .map(|e| e.name.as_str())
            .collect();
        let available = if available.is_empty() {
            "none".to_string()
        } else {
            available.join(", ")
        };
        Err(LoadError::new(
            ErrorKind::Export,
            format!("no exported function `{name}` (exported functions: {available})"),
            None,
        ))
    }
}
