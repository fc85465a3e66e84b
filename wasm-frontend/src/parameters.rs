//! The names of functions' parameters in the DWARF that `clang -g` (or
//! rustc with debug information) emits: the formal parameters of each
//! function's subprogram, in order. A module without DWARF, or whose DWARF
//! does not parse, names none.

use crate::dwarf::{self, Claims, Slice};
use gimli::{Dwarf, Unit, UnitOffset};
use std::collections::HashMap;

/// The source's parameters of each function, by function index: a name
/// each (`None` for an unnamed one). `code_start` and `function` find a
/// subprogram's function as they do for the variables.
pub(crate) fn read(
    sections: &HashMap<String, &[u8]>,
    code_start: u32,
    function: impl Fn(u32, Option<&str>) -> Option<u32>,
) -> Option<HashMap<u32, Vec<Option<String>>>> {
    sections.get(".debug_info")?;
    let dwarf = dwarf::load(sections)?;
    let mut found = HashMap::new();
    let mut claims = Claims::default();
    for (index, unit) in dwarf::units(&dwarf) {
        let mut entries = unit.entries();
        while let Ok(Some((_, entry))) = entries.next_dfs() {
            if entry.tag() != gimli::DW_TAG_subprogram {
                continue;
            }
            let Some(func) =
                dwarf::subprogram_function(&dwarf, &unit, entry, code_start, &function)
            else {
                continue;
            };
            claims.claim(func, index, entry.offset());
            // An out-of-line copy of an inlined function may leave out the
            // parameters optimised away; its origin has them all, named.
            let owner =
                dwarf::unit_ref(entry, gimli::DW_AT_abstract_origin).unwrap_or(entry.offset());
            if let Some(names) = formal_parameters(&dwarf, &unit, owner) {
                found.insert(func, names);
            }
        }
    }
    for func in claims.disputed() {
        found.remove(&func);
    }
    Some(found)
}

/// The names of the formal parameters among the children of the
/// subprogram at `offset`.
fn formal_parameters(
    dwarf: &Dwarf<Slice>,
    unit: &Unit<Slice>,
    offset: UnitOffset,
) -> Option<Vec<Option<String>>> {
    let mut tree = unit.entries_tree(Some(offset)).ok()?;
    let mut children = tree.root().ok()?.children();
    let mut names = Vec::new();
    while let Ok(Some(child)) = children.next() {
        let e = child.entry();
        if e.tag() == gimli::DW_TAG_formal_parameter {
            names.push(dwarf::string(dwarf, unit, e, gimli::DW_AT_name));
        }
    }
    Some(names)
}
