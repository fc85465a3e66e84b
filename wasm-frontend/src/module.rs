//! The loaded module: types, functions with their IR, tables, memories,
//! globals, exports, segments and names. It holds the classified imports
//! ([`imports`](crate::imports)) and the lowered code ([`ir`](crate::ir));
//! neither of those refers back to it.

use crate::error::{ErrorKind, LoadError};
use crate::imports::{FuncImport, ImportClass};
use crate::ir::Code;
use crate::local_names::LocalNames;
use crate::source_lines::SourceLines;
use crate::types::{FuncType, ImportName, ValType};
use crate::variables::Variables;

/// Index in the function index space (imported functions first).
pub type FuncIdx = u32;

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

/// The most entries the tables of a module may have together: tables are
/// copied when a path forks, so more are refused (at load) or do not grow.
pub const MAX_TABLE_ENTRIES: u32 = 1 << 20;

/// A table of references.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// `FuncRef` or `ExternRef`.
    pub ty: ValType,
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
    /// A null reference of type `FuncRef` or `ExternRef`.
    RefNull(ValType),
    /// A reference to function `FuncIdx`.
    RefFunc(FuncIdx),
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
    /// `FuncRef` or `ExternRef`.
    pub ty: ValType,
    /// Constant expressions of type `ty`; a list of function indices is a
    /// list of `RefFunc`.
    pub items: Box<[ConstExpr]>,
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
    /// The C variables in linear memory, when the module carries DWARF.
    pub variables: Option<Variables>,
    /// Global names from the name section, by global index.
    pub global_names: std::collections::BTreeMap<u32, String>,
    /// Names of the functions' locals, from the name section or DWARF.
    pub local_names: LocalNames,
}

impl Module {
    pub fn func_type(&self, func: FuncIdx) -> Option<&FuncType> {
        let func = self.funcs.get(func as usize)?;
        self.types.get(func.type_index as usize)
    }

    /// The name of local `local` of function `func` (its parameters are
    /// locals 0 to n - 1): from the name section, else, for a parameter,
    /// from DWARF; only a name that can be a symbol (`x`, not `my-var`).
    pub fn local_name(&self, func: FuncIdx, local: u32) -> Option<&str> {
        self.local_names.get(func, local)
    }

    /// The global named `name` in the name section, or exported as `name`.
    pub fn global_named(&self, name: &str) -> Option<u32> {
        self.global_names
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(&i, _)| i)
            .or_else(|| {
                self.export(name)
                    .filter(|e| e.kind == ExportKind::Global)
                    .map(|e| e.index)
            })
    }

    pub fn export(&self, name: &str) -> Option<&Export> {
        self.exports.iter().find(|e| e.name == name)
    }

    /// The function exported as `name`, or the start function for
    /// [`START_ENTRY`](crate::entry::START_ENTRY); the error lists the
    /// exported functions.
    pub fn export_func(&self, name: &str) -> Result<FuncIdx, LoadError> {
        if let Some(export) = self.export(name).filter(|e| e.kind == ExportKind::Func) {
            return Ok(export.index);
        }
        if let (crate::entry::START_ENTRY, Some(start)) = (name, self.start) {
            return Ok(start);
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

    /// Imported functions with their index.
    pub fn func_imports(&self) -> impl Iterator<Item = (u32, &FuncImport)> {
        self.funcs
            .iter()
            .zip(0..)
            .filter_map(|(func, index)| match &func.body {
                FuncBody::Import(import) => Some((index, import)),
                FuncBody::Defined(_) => None,
            })
    }

    /// For executors that cannot run unknown imports: an error naming the
    /// first one, e.g. `unsupported import env.foo (i32) -> i32`.
    pub fn check_no_unknown_imports(&self) -> Result<(), LoadError> {
        let Some((index, import)) = self
            .func_imports()
            .find(|(_, import)| import.class == ImportClass::Unknown)
        else {
            return Ok(());
        };
        let signature = self
            .func_type(index)
            .map_or_else(String::new, |ty| format!(" {ty}"));
        Err(LoadError::new(
            ErrorKind::Import,
            format!("unsupported import {}{signature}", import.name),
            Some(import.offset),
        ))
    }
}
