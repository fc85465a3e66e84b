//! Function, global and local names: from the `name` custom section, with
//! fallbacks for functions.

use std::collections::HashMap;

use wasmparser::{KnownCustom, Name, NameSectionReader};

use crate::local_names::LocalNames;
use crate::module::{ExportKind, FuncBody, FuncIdx, Module};

/// Names read from a `name` section, by index.
#[derive(Default)]
pub(crate) struct SectionNames {
    pub funcs: HashMap<u32, String>,
    pub globals: HashMap<u32, String>,
    pub locals: LocalNames,
}

/// Adds the function, global and local names of a `name` section. A malformed name
/// section is ignored from its first error on rather than rejecting the
/// module: custom sections do not affect execution (the spec makes their
/// errors non-fatal).
pub(crate) fn read(custom: &wasmparser::CustomSectionReader<'_>, names: &mut SectionNames) {
    let KnownCustom::Name(reader) = custom.as_known() else {
        return;
    };
    for subsection in NameSectionReader::into_iter(reader).map_while(Result::ok) {
        let (map, into) = match subsection {
            Name::Function(map) => (map, &mut names.funcs),
            Name::Global(map) => (map, &mut names.globals),
            Name::Local(map) => {
                for func in map.map_while(Result::ok) {
                    for naming in func.names.map_while(Result::ok) {
                        names.locals.add(func.index, naming.index, naming.name);
                    }
                }
                continue;
            }
            _ => continue,
        };
        for naming in map.map_while(Result::ok) {
            into.insert(naming.index, naming.name.to_string());
        }
    }
}

/// Names every function: the name section first (Rust names demangled,
/// without their hash: `core::panicking::panic_bounds_check`), then the
/// first export name, then `module.name` for imports, else `func[N]`;
/// keeps the globals' and locals' names.
pub(crate) fn assign(module: &mut Module, names: SectionNames) {
    module.global_names = names.globals.into_iter().collect();
    module.local_names = names.locals;
    let mut from_section = names.funcs;
    let mut exported: HashMap<u32, &str> = HashMap::new();
    for export in module.exports.iter().filter(|e| e.kind == ExportKind::Func) {
        exported.entry(export.index).or_insert(&export.name);
    }
    let names: Vec<String> = module
        .funcs
        .iter()
        .zip(0u32..)
        .map(|(func, index)| {
            from_section
                .remove(&index)
                .map(|name| demangled(&name))
                .or_else(|| exported.get(&index).map(|name| name.to_string()))
                .unwrap_or_else(|| match &func.body {
                    FuncBody::Import(import) => import.name.to_string(),
                    FuncBody::Defined(_) => format!("func[{index}]"),
                })
        })
        .collect();
    for (func, name) in module.funcs.iter_mut().zip(names) {
        func.name = name;
    }
}

/// Each function by its name, `None` for a name two of them share: a
/// name that is not unique identifies nothing.
pub(crate) fn unique<'a>(
    funcs: impl IntoIterator<Item = (&'a str, FuncIdx)>,
) -> HashMap<&'a str, Option<FuncIdx>> {
    let mut by_name = HashMap::new();
    for (name, func) in funcs {
        by_name
            .entry(name)
            .and_modify(|f| *f = None)
            .or_insert(Some(func));
    }
    by_name
}

/// A Rust symbol's path without its hash; any other name as it is.
fn demangled(name: &str) -> String {
    match rustc_demangle::try_demangle(name) {
        Ok(symbol) => format!("{symbol:#}"),
        Err(_) => name.to_string(),
    }
}
