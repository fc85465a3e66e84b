//! Walks the sections of a binary module, validating each payload, and builds
//! the [`Module`].

use std::collections::HashMap;

use wasmparser::{
    CompositeInnerType, DataKind, ElementItems, ElementKind, ExternalKind, Parser, Payload,
    TypeRef, ValidPayload, Validator,
};

use crate::error::{ErrorKind, LoadError};
use crate::features::Profile;
use crate::imports::{classify, FuncImport};
use crate::lower::lower_function;
use crate::module::{
    ConstExpr, DataMode, DataSegment, ElementMode, ElementSegment, Export, ExportKind, Func,
    FuncBody, Global, GlobalInit, Memory, Module, Table, MAX_TABLE_ENTRIES,
};
use crate::names;
use crate::parameters;
use crate::source_lines::SourceLines;
use crate::types::{ref_type, val_type, FuncType, ImportName, ValType};
use crate::variables::Variables;

/// How a module's code is laid out, which says how its DWARF finds the
/// functions it describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CodeLayout {
    /// As the linker wrote it: DWARF's code addresses are right.
    Linked,
    /// Assembled again from WAT text that kept the DWARF: bodies moved, so
    /// a subprogram is the one function of its name, if there is one.
    Reassembled,
}

/// Loads a binary module, validated against `profile`.
pub(crate) fn load_binary(
    bytes: &[u8],
    profile: Profile,
    layout: CodeLayout,
) -> Result<Module, LoadError> {
    let mut validator = Validator::new_with_features(profile.features());
    let mut module = Module::default();
    let mut section_names = names::SectionNames::default();
    // Custom sections by name (the DWARF ones), and where the code starts.
    let mut custom: HashMap<String, &[u8]> = HashMap::new();
    let mut code_start = None;
    // Type indices of the defined functions, in code-section order.
    let mut defined_types = Vec::new();
    // Entries of the tables so far, which together have a bound.
    let mut table_entries = 0u64;
    let mut defined_seen = 0;
    // The reader decodes as the profile says: with memory64 off, memory
    // limits are u32 LEB128s, and an over-long one is malformed.
    let mut parser = Parser::new(0);
    parser.set_features(profile.features());
    for payload in parser.parse_all(bytes) {
        let payload = payload.map_err(malformed)?;
        let valid = validator.payload(&payload).map_err(invalid)?;
        match payload {
            Payload::TypeSection(reader) => {
                for group in reader.into_iter_with_offsets() {
                    let (offset, group) = group.map_err(malformed)?;
                    for sub_type in group.into_types() {
                        let CompositeInnerType::Func(ty) = &sub_type.composite_type.inner else {
                            return Err(LoadError::unsupported("GC", offset));
                        };
                        module.types.push(FuncType {
                            params: val_types(ty.params(), offset)?,
                            results: val_types(ty.results(), offset)?,
                        });
                    }
                }
            }
            Payload::ImportSection(reader) => {
                for import in reader.into_imports_with_offsets() {
                    let (offset, import) = import.map_err(malformed)?;
                    let name = ImportName {
                        module: import.module.to_string(),
                        name: import.name.to_string(),
                    };
                    add_import(&mut module, name, import.ty, offset, &mut table_entries)?;
                }
            }
            Payload::FunctionSection(reader) => {
                for type_index in reader {
                    defined_types.push(type_index.map_err(malformed)?);
                }
            }
            Payload::TableSection(reader) => {
                for table in reader.into_iter_with_offsets() {
                    let (offset, table) = table.map_err(malformed)?;
                    let table = table_type(table.ty, None, offset)?;
                    add_table(&mut module, table, offset, &mut table_entries)?;
                }
            }
            Payload::MemorySection(reader) => {
                for memory in reader.into_iter_with_offsets() {
                    let (offset, memory) = memory.map_err(malformed)?;
                    module.memories.push(memory_type(memory, None, offset)?);
                }
            }
            Payload::GlobalSection(reader) => {
                for global in reader.into_iter_with_offsets() {
                    let (offset, global) = global.map_err(malformed)?;
                    module.globals.push(Global {
                        ty: val_type(global.ty.content_type, offset)?,
                        mutable: global.ty.mutable,
                        init: GlobalInit::Const(const_expr(&global.init_expr, offset)?),
                    });
                }
            }
            Payload::ExportSection(reader) => {
                for export in reader.into_iter_with_offsets() {
                    let (offset, export) = export.map_err(malformed)?;
                    let kind = match export.kind {
                        ExternalKind::Func | ExternalKind::FuncExact => ExportKind::Func,
                        ExternalKind::Table => ExportKind::Table,
                        ExternalKind::Memory => ExportKind::Memory,
                        ExternalKind::Global => ExportKind::Global,
                        ExternalKind::Tag => {
                            return Err(LoadError::unsupported("exception handling", offset))
                        }
                    };
                    module.exports.push(Export {
                        name: export.name.to_string(),
                        kind,
                        index: export.index,
                    });
                }
            }
            Payload::StartSection { func, .. } => module.start = Some(func),
            Payload::ElementSection(reader) => {
                for element in reader {
                    module
                        .elements
                        .push(element_segment(element.map_err(malformed)?)?);
                }
            }
            Payload::DataSection(reader) => {
                for data in reader {
                    let data = data.map_err(malformed)?;
                    let offset = data.range.start;
                    let mode = match data.kind {
                        DataKind::Passive => DataMode::Passive,
                        DataKind::Active {
                            memory_index,
                            offset_expr,
                        } => DataMode::Active {
                            memory: memory_index,
                            offset: const_expr(&offset_expr, offset)?,
                        },
                    };
                    module.data.push(DataSegment {
                        mode,
                        bytes: data.data.into(),
                        offset,
                    });
                }
            }
            Payload::CodeSectionEntry(body) => {
                let ValidPayload::Func(to_validate, body) = valid else {
                    return Err(LoadError::new(
                        ErrorKind::Invalid,
                        "invalid module: function body not validated",
                        Some(body.range().start),
                    ));
                };
                let offset = body.range().start;
                let type_index = *defined_types.get(defined_seen).ok_or_else(|| {
                    LoadError::new(
                        ErrorKind::Invalid,
                        "invalid module: function body without declaration",
                        Some(offset),
                    )
                })?;
                defined_seen += 1;
                let ty = module.types.get(type_index as usize).ok_or_else(|| {
                    LoadError::new(
                        ErrorKind::Invalid,
                        format!("invalid module: unknown type {type_index}"),
                        Some(offset),
                    )
                })?;
                let code = lower_function(
                    &body,
                    to_validate.into_validator(Default::default()),
                    &module.types,
                    ty,
                )?;
                module.funcs.push(Func {
                    type_index,
                    name: String::new(),
                    body: FuncBody::Defined(code),
                });
            }
            Payload::CodeSectionStart {
                unchecked_range, ..
            } => code_start = u32::try_from(unchecked_range.start).ok(),
            Payload::CustomSection(reader) => {
                names::read(&reader, &mut section_names);
                custom.insert(reader.name().to_string(), reader.data());
            }
            _ => {}
        }
    }
    names::assign(&mut module, section_names);
    module.source_lines = code_start.and_then(|start| SourceLines::read(&custom, start));
    if let Some(start) = code_start {
        read_dwarf(&mut module, &custom, start, layout);
    }
    Ok(module)
}

/// The C variables and the parameters' names that the DWARF among
/// `sections` gives (`code_start`: where the code section's contents start).
fn read_dwarf(
    module: &mut Module,
    sections: &HashMap<String, &[u8]>,
    code_start: u32,
    layout: CodeLayout,
) {
    let bodies = body_offsets(module);
    // Reassembled: each defined function by its name.
    let by_name = match layout {
        CodeLayout::Linked => HashMap::new(),
        CodeLayout::Reassembled => names::unique(
            bodies
                .iter()
                .map(|&(_, func)| (module.funcs[func as usize].name.as_str(), func)),
        ),
    };
    let function = |offset, name: Option<&str>| match layout {
        CodeLayout::Linked => {
            // The first function whose code starts at or after `offset`
            // (a body's locals come before its first instruction).
            let i = bodies.partition_point(|&(first, _)| first < offset);
            bodies.get(i).map(|&(_, func)| func)
        }
        CodeLayout::Reassembled => by_name.get(name?).copied().flatten(),
    };
    let variables = Variables::read(sections, code_start, function);
    let parameters = parameters::read(sections, code_start, function);
    module.variables = variables;
    for (func, names) in parameters.into_iter().flatten() {
        // Only when the source's parameters are the Wasm function's, one
        // for one. Otherwise some are passed in more than one Wasm
        // parameter (a Rust slice, a C `long double`) or in none (a
        // zero-sized one), or a hidden one is added (a struct returned
        // through a pointer, first; variadic arguments, last): the names
        // cannot be matched, and none is given.
        let count = module.func_type(func).map(|t| t.params.len());
        if count != Some(names.len()) {
            continue;
        }
        for (local, name) in (0..).zip(names) {
            if let Some(name) = name {
                module.local_names.add(func, local, &name);
            }
        }
    }
}

/// The module offset of each defined function's first instruction, with
/// its index, in order.
fn body_offsets(module: &Module) -> Vec<(u32, u32)> {
    module
        .funcs
        .iter()
        .zip(0u32..)
        .filter_map(|(f, index)| match &f.body {
            FuncBody::Defined(code) => Some((*code.offsets.first()?, index)),
            FuncBody::Import(_) => None,
        })
        .collect()
}

fn malformed(e: wasmparser::BinaryReaderError) -> LoadError {
    LoadError::from_wasmparser(e, ErrorKind::Malformed)
}

fn invalid(e: wasmparser::BinaryReaderError) -> LoadError {
    LoadError::from_wasmparser(e, ErrorKind::Invalid)
}

fn add_import(
    module: &mut Module,
    name: ImportName,
    ty: TypeRef,
    offset: u64,
    table_entries: &mut u64,
) -> Result<(), LoadError> {
    match ty {
        TypeRef::Func(type_index) | TypeRef::FuncExact(type_index) => {
            let ty = module.types.get(type_index as usize).ok_or_else(|| {
                LoadError::new(
                    ErrorKind::Invalid,
                    format!("invalid module: unknown type {type_index}"),
                    Some(offset),
                )
            })?;
            let class = classify(&name, ty, offset)?;
            module.funcs.push(Func {
                type_index,
                name: String::new(),
                body: FuncBody::Import(FuncImport {
                    name,
                    class,
                    offset,
                }),
            });
        }
        TypeRef::Table(table) => {
            let table = table_type(table, Some(name), offset)?;
            add_table(module, table, offset, table_entries)?
        }
        TypeRef::Memory(memory) => module
            .memories
            .push(memory_type(memory, Some(name), offset)?),
        TypeRef::Global(global) => module.globals.push(Global {
            ty: val_type(global.content_type, offset)?,
            mutable: global.mutable,
            init: GlobalInit::Import(name),
        }),
        TypeRef::Tag(_) => return Err(LoadError::unsupported("exception handling", offset)),
    }
    Ok(())
}

fn val_types(types: &[wasmparser::ValType], offset: u64) -> Result<Box<[ValType]>, LoadError> {
    types.iter().map(|ty| val_type(*ty, offset)).collect()
}

/// Limits beyond 32 bits only come with memory64 / table64.
fn limit(value: u64, offset: u64) -> Result<u32, LoadError> {
    u32::try_from(value).map_err(|_| LoadError::unsupported("memory64", offset))
}

/// Adds a table; all the tables of a module together may have at most
/// [`MAX_TABLE_ENTRIES`] entries. `total`: the entries of the tables added
/// so far, kept by the caller (a module may have 100,000 tables: summing
/// them again at each would take quadratic time).
fn add_table(
    module: &mut Module,
    table: Table,
    offset: u64,
    total: &mut u64,
) -> Result<(), LoadError> {
    *total += u64::from(table.min);
    module.tables.push(table);
    let total = *total;
    if total > u64::from(MAX_TABLE_ENTRIES) {
        return Err(LoadError::new(
            ErrorKind::Unsupported,
            format!(
                "tables of {total} entries in all are more than supported ({MAX_TABLE_ENTRIES})"
            ),
            Some(offset),
        ));
    }
    Ok(())
}

fn table_type(
    ty: wasmparser::TableType,
    import: Option<ImportName>,
    offset: u64,
) -> Result<Table, LoadError> {
    Ok(Table {
        ty: ref_type(ty.element_type, offset)?,
        min: limit(ty.initial, offset)?,
        max: ty.maximum.map(|max| limit(max, offset)).transpose()?,
        import,
    })
}

fn memory_type(
    ty: wasmparser::MemoryType,
    import: Option<ImportName>,
    offset: u64,
) -> Result<Memory, LoadError> {
    Ok(Memory {
        min_pages: limit(ty.initial, offset)?,
        max_pages: ty.maximum.map(|max| limit(max, offset)).transpose()?,
        import,
    })
}

/// The one instruction of a (validated, non-extended) constant expression.
fn const_expr(expr: &wasmparser::ConstExpr<'_>, offset: u64) -> Result<ConstExpr, LoadError> {
    let mut reader = expr.get_operators_reader();
    let op = reader.read().map_err(malformed)?;
    let value = match op {
        wasmparser::Operator::I32Const { value } => ConstExpr::I32(value),
        wasmparser::Operator::I64Const { value } => ConstExpr::I64(value),
        wasmparser::Operator::F32Const { value } => ConstExpr::F32(value.bits()),
        wasmparser::Operator::F64Const { value } => ConstExpr::F64(value.bits()),
        wasmparser::Operator::GlobalGet { global_index } => ConstExpr::GlobalGet(global_index),
        wasmparser::Operator::RefNull { hty } => {
            let ty = wasmparser::RefType::new(true, hty)
                .ok_or_else(|| LoadError::unsupported("function references", offset))?;
            ConstExpr::RefNull(ref_type(ty, offset)?)
        }
        wasmparser::Operator::RefFunc { function_index } => ConstExpr::RefFunc(function_index),
        _ => {
            return Err(LoadError::unsupported(
                "extended constant expressions",
                offset,
            ))
        }
    };
    match reader.read().map_err(malformed)? {
        wasmparser::Operator::End => Ok(value),
        _ => Err(LoadError::unsupported(
            "extended constant expressions",
            offset,
        )),
    }
}

fn element_segment(element: wasmparser::Element<'_>) -> Result<ElementSegment, LoadError> {
    let offset = element.range.start;
    let mode = match element.kind {
        ElementKind::Passive => ElementMode::Passive,
        ElementKind::Declared => ElementMode::Declared,
        ElementKind::Active {
            table_index,
            offset_expr,
        } => ElementMode::Active {
            table: table_index.unwrap_or(0),
            offset: const_expr(&offset_expr, offset)?,
        },
    };
    let (ty, items) = match element.items {
        ElementItems::Functions(reader) => (
            ValType::FuncRef,
            reader
                .into_iter()
                .map(|f| f.map(ConstExpr::RefFunc).map_err(malformed))
                .collect::<Result<_, _>>()?,
        ),
        ElementItems::Expressions(ty, reader) => (
            ref_type(ty, offset)?,
            reader
                .into_iter()
                .map(|e| const_expr(&e.map_err(malformed)?, offset))
                .collect::<Result<_, _>>()?,
        ),
    };
    Ok(ElementSegment {
        mode,
        ty,
        items,
        offset,
    })
}
