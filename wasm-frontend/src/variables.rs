//! The C variables that live in linear memory, from the DWARF that
//! `clang -g` emits: global (and static) variables at fixed addresses, and
//! the variables of a function's stack frame at offsets from its frame
//! base, a Wasm local or global (`DW_OP_WASM_location`). Their sizes come
//! from their types. A module without DWARF, or whose DWARF does not
//! parse, simply has no variables.

use crate::dwarf::{self, Claims, Slice};
use crate::source_lines::SourceLine;
use gimli::{AttributeValue, DebuggingInformationEntry, Dwarf, Operation, Unit, UnitOffset};
use std::collections::HashMap;

/// A variable in linear memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    /// Bytes it takes, from its type.
    pub size: u64,
    pub declared: Option<SourceLine>,
}

/// Where a function's frame base is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameBase {
    Local(u32),
    Global(u32),
}

/// The variables of a function's stack frame, by offset from its base.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameVariables {
    pub base: FrameBase,
    pub variables: Vec<(i64, Variable)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variables {
    /// Global and static variables by address, sorted.
    pub globals: Vec<(u64, Variable)>,
    /// Frame variables by defined function's index (in the function index
    /// space).
    pub frames: HashMap<u32, FrameVariables>,
}

impl Variables {
    /// The variables among `sections` (custom sections by name); `code_start`
    /// is the module offset of the code section's contents and `function`
    /// gives a subprogram's function index from the module offset its body
    /// starts at and its name.
    pub(crate) fn read(
        sections: &HashMap<String, &[u8]>,
        code_start: u32,
        function: impl Fn(u32, Option<&str>) -> Option<u32>,
    ) -> Option<Variables> {
        sections.get(".debug_info")?;
        let dwarf = dwarf::load(sections)?;
        let mut found = Variables::default();
        // A function two subprograms claim keeps no frame.
        let mut claims = Claims::default();
        for (index, unit) in dwarf::units(&dwarf) {
            let mut claim = |func: u32, entry: UnitOffset| claims.claim(func, index, entry);
            let _ = read_unit(&dwarf, &unit, code_start, &function, &mut claim, &mut found);
        }
        for func in claims.disputed() {
            found.frames.remove(&func);
        }
        found.globals.sort_by_key(|&(address, _)| address);
        found.globals.dedup_by_key(|(address, _)| *address);
        (!found.globals.is_empty() || !found.frames.is_empty()).then_some(found)
    }

    /// The global variable whose bytes hold `address`.
    pub fn global_at(&self, address: u64) -> Option<(u64, &Variable)> {
        let after = self.globals.partition_point(|&(a, _)| a <= address);
        let (base, v) = self.globals.get(after.checked_sub(1)?)?;
        (address < base + v.size).then_some((*base, v))
    }
}

/// The variables of one compilation unit. A variable belongs to the
/// frame of the innermost enclosing subprogram (inlined code and lexical
/// blocks share their function's frame base).
fn read_unit(
    dwarf: &Dwarf<Slice>,
    unit: &Unit<Slice>,
    code_start: u32,
    function: &impl Fn(u32, Option<&str>) -> Option<u32>,
    claim: &mut impl FnMut(u32, UnitOffset),
    found: &mut Variables,
) -> gimli::Result<()> {
    let mut entries = unit.entries();
    // The enclosing subprograms: depth, function index and frame base.
    let mut functions: Vec<(isize, Option<(u32, FrameBase)>)> = Vec::new();
    let mut depth = 0;
    while let Some((delta, entry)) = entries.next_dfs()? {
        depth += delta;
        while functions.last().is_some_and(|&(d, _)| d >= depth) {
            functions.pop();
        }
        match entry.tag() {
            gimli::DW_TAG_subprogram => {
                let frame = subprogram_frame(dwarf, unit, entry, code_start, function);
                if let Some((func, _)) = frame {
                    claim(func, entry.offset());
                }
                functions.push((depth, frame));
            }
            gimli::DW_TAG_variable | gimli::DW_TAG_formal_parameter => {
                let frame = functions.last().and_then(|&(_, f)| f);
                add_variable(dwarf, unit, entry, frame, found);
            }
            _ => {}
        }
    }
    Ok(())
}

/// The function a subprogram is, and its frame base, when both are known.
fn subprogram_frame(
    dwarf: &Dwarf<Slice>,
    unit: &Unit<Slice>,
    entry: &DebuggingInformationEntry<Slice>,
    code_start: u32,
    function: &impl Fn(u32, Option<&str>) -> Option<u32>,
) -> Option<(u32, FrameBase)> {
    let func = dwarf::subprogram_function(dwarf, unit, entry, code_start, function)?;
    let Ok(Some(AttributeValue::Exprloc(expr))) = entry.attr_value(gimli::DW_AT_frame_base) else {
        return None;
    };
    let base = match expr.operations(unit.encoding()).next().ok()?? {
        Operation::WasmLocal { index } => FrameBase::Local(index),
        Operation::WasmGlobal { index } => FrameBase::Global(index),
        _ => return None,
    };
    Some((func, base))
}

/// Adds a variable at a fixed address, or at an offset of `frame`'s base.
/// Variables in registers, or with location lists, are not in memory for
/// their whole life and are left out.
fn add_variable(
    dwarf: &Dwarf<Slice>,
    unit: &Unit<Slice>,
    entry: &DebuggingInformationEntry<Slice>,
    frame: Option<(u32, FrameBase)>,
    found: &mut Variables,
) {
    let Ok(Some(AttributeValue::Exprloc(expr))) = entry.attr_value(gimli::DW_AT_location) else {
        return;
    };
    let mut ops = expr.operations(unit.encoding());
    let (Ok(Some(op)), Ok(None)) = (ops.next(), ops.next()) else {
        return;
    };
    let Some(name) = dwarf::string(dwarf, unit, entry, gimli::DW_AT_name) else {
        return;
    };
    let Some(size) = type_of(entry).and_then(|t| type_size(unit, t, 0)) else {
        return;
    };
    if size == 0 {
        return;
    }
    let variable = Variable {
        name,
        size,
        declared: declared(dwarf, unit, entry),
    };
    match (op, frame) {
        (Operation::Address { address }, _) => found.globals.push((address, variable)),
        (Operation::FrameOffset { offset }, Some((func, base))) => found
            .frames
            .entry(func)
            .or_insert_with(|| FrameVariables {
                base,
                variables: Vec::new(),
            })
            .variables
            .push((offset, variable)),
        _ => {}
    }
}

fn type_of(entry: &DebuggingInformationEntry<Slice>) -> Option<UnitOffset> {
    dwarf::unit_ref(entry, gimli::DW_AT_type)
}

/// Bytes a value of the type at `offset` takes (qualifiers and typedefs
/// followed, arrays as their element times their counts).
fn type_size(unit: &Unit<Slice>, offset: UnitOffset, depth: u32) -> Option<u64> {
    if depth > 32 {
        return None;
    }
    let entry = unit.entry(offset).ok()?;
    if let Some(size) = entry
        .attr_value(gimli::DW_AT_byte_size)
        .ok()
        .flatten()
        .and_then(|v| v.udata_value())
    {
        return Some(size);
    }
    match entry.tag() {
        gimli::DW_TAG_pointer_type | gimli::DW_TAG_reference_type => {
            Some(u64::from(unit.encoding().address_size))
        }
        gimli::DW_TAG_array_type => {
            let element = type_size(unit, type_of(&entry)?, depth + 1)?;
            let mut count = 1u64;
            let mut tree = unit.entries_tree(Some(offset)).ok()?;
            let root = tree.root().ok()?;
            let mut children = root.children();
            while let Ok(Some(child)) = children.next() {
                let e = child.entry();
                if e.tag() != gimli::DW_TAG_subrange_type {
                    continue;
                }
                let value = |at| {
                    e.attr_value(at)
                        .ok()
                        .flatten()
                        .and_then(|v| v.udata_value())
                };
                let n = value(gimli::DW_AT_count)
                    .or_else(|| value(gimli::DW_AT_upper_bound).map(|u| u + 1))?;
                count = count.checked_mul(n)?;
            }
            element.checked_mul(count)
        }
        gimli::DW_TAG_typedef
        | gimli::DW_TAG_const_type
        | gimli::DW_TAG_volatile_type
        | gimli::DW_TAG_restrict_type
        | gimli::DW_TAG_atomic_type => type_size(unit, type_of(&entry)?, depth + 1),
        _ => None,
    }
}

/// The file and line a variable is declared at.
fn declared(
    dwarf: &Dwarf<Slice>,
    unit: &Unit<Slice>,
    entry: &DebuggingInformationEntry<Slice>,
) -> Option<SourceLine> {
    let value = |at| entry.attr_value(at).ok().flatten()?.udata_value();
    let line = u32::try_from(value(gimli::DW_AT_decl_line)?).ok()?;
    let header = unit.line_program.as_ref()?.header();
    let index = match entry.attr_value(gimli::DW_AT_decl_file).ok()?? {
        AttributeValue::FileIndex(index) => index,
        other => other.udata_value()?,
    };
    let file = header.file(index)?;
    let file = dwarf.attr_string(unit, file.path_name()).ok()?;
    Some(SourceLine {
        file: file.to_string_lossy().into_owned(),
        line,
    })
}
