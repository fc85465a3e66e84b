//! What the DWARF readers share: the debug sections loaded with gimli, the
//! Wasm function a subprogram describes, and which functions more than one
//! subprogram claims.

use gimli::{
    AttributeValue, DebuggingInformationEntry, Dwarf, EndianSlice, LittleEndian, SectionId, Unit,
    UnitOffset,
};
use std::collections::HashMap;

pub(crate) type Slice<'a> = EndianSlice<'a, LittleEndian>;

/// The DWARF among `sections` (custom sections by name); a section missing
/// is empty.
pub(crate) fn load<'a>(sections: &HashMap<String, &'a [u8]>) -> Option<Dwarf<Slice<'a>>> {
    let load = |id: SectionId| -> Result<_, gimli::Error> {
        let data = sections.get(id.name()).copied().unwrap_or(&[]);
        Ok(EndianSlice::new(data, LittleEndian))
    };
    Dwarf::load(load).ok()
}

/// The units that parse, each with its number (from 1), which tells
/// entries of two units apart.
pub(crate) fn units<'d, 'a>(
    dwarf: &'d Dwarf<Slice<'a>>,
) -> impl Iterator<Item = (usize, Unit<Slice<'a>>)> + 'd {
    let mut headers = dwarf.units();
    std::iter::from_fn(move || headers.next().ok().flatten())
        .zip(1..)
        .filter_map(|(header, index)| Some((index, dwarf.unit(header).ok()?)))
}

/// The function a subprogram describes: `function` finds it from the
/// module offset its code starts at (`code_start` plus its low pc) and its
/// name. A declaration, with no code, describes none.
pub(crate) fn subprogram_function(
    dwarf: &Dwarf<Slice>,
    unit: &Unit<Slice>,
    entry: &DebuggingInformationEntry<Slice>,
    code_start: u32,
    function: &impl Fn(u32, Option<&str>) -> Option<u32>,
) -> Option<u32> {
    let Ok(Some(AttributeValue::Addr(low_pc))) = entry.attr_value(gimli::DW_AT_low_pc) else {
        return None;
    };
    let name = subprogram_name(dwarf, unit, entry);
    function(
        code_start.checked_add(u32::try_from(low_pc).ok()?)?,
        name.as_deref(),
    )
}

/// The name the linker gives a subprogram's function: its linkage name, if
/// any, else its name; an out-of-line copy of an inlined function, or a
/// method defined apart from its declaration, has them on its origin.
fn subprogram_name(
    dwarf: &Dwarf<Slice>,
    unit: &Unit<Slice>,
    entry: &DebuggingInformationEntry<Slice>,
) -> Option<String> {
    let own = |e: &DebuggingInformationEntry<Slice>| {
        [gimli::DW_AT_linkage_name, gimli::DW_AT_name]
            .into_iter()
            .find_map(|at| string(dwarf, unit, e, at))
    };
    own(entry).or_else(|| {
        [gimli::DW_AT_abstract_origin, gimli::DW_AT_specification]
            .into_iter()
            .find_map(|at| own(&unit.entry(unit_ref(entry, at)?).ok()?))
    })
}

/// An entry's string attribute `at`, such as its `DW_AT_name`.
pub(crate) fn string(
    dwarf: &Dwarf<Slice>,
    unit: &Unit<Slice>,
    entry: &DebuggingInformationEntry<Slice>,
    at: gimli::DwAt,
) -> Option<String> {
    let value = entry.attr_value(at).ok()??;
    let text = dwarf.attr_string(unit, value).ok()?;
    Some(text.to_string_lossy().into_owned())
}

/// The entry of the same unit that attribute `at` (such as
/// `DW_AT_abstract_origin` or `DW_AT_type`) refers to.
pub(crate) fn unit_ref(
    entry: &DebuggingInformationEntry<Slice>,
    at: gimli::DwAt,
) -> Option<UnitOffset> {
    match entry.attr_value(at).ok()?? {
        AttributeValue::UnitRef(offset) => Some(offset),
        _ => None,
    }
}

/// The subprogram that claimed each function. A function two subprograms
/// claim (two functions of one name, in reassembled text) cannot say whose
/// its DWARF is.
#[derive(Default)]
pub(crate) struct Claims {
    owners: HashMap<u32, (usize, UnitOffset)>,
    disputed: Vec<u32>,
}

impl Claims {
    /// Subprogram `entry` of unit number `unit` describes `func`.
    pub(crate) fn claim(&mut self, func: u32, unit: usize, entry: UnitOffset) {
        if *self.owners.entry(func).or_insert((unit, entry)) != (unit, entry) {
            self.disputed.push(func);
        }
    }

    /// The functions that two subprograms or more claimed.
    pub(crate) fn disputed(self) -> Vec<u32> {
        self.disputed
    }
}
