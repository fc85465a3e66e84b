//! Function names: from the `name` custom section, with fallbacks.

use std::collections::HashMap;

use wasmparser::{KnownCustom, Name, NameSectionReader};

use crate::module::{ExportKind, FuncBody, Module};

/// Function names read from a `name` section. A malformed name section is
/// ignored up to the first error rather than rejecting the module: custom
/// sections do not affect execution (the spec makes their errors non-fatal).
pub(crate) fn function_names(custom: &wasmparser::CustomSectionReader<'_>) -> HashMap<u32, String> {
    let mut names = HashMap::new();
    let KnownCustom::Name(reader) = custom.as_known() else {
        return names;
    };
    for subsection in NameSectionReader::into_iter(reader).map_while(Result::ok) {
        if let Name::Function(map) = subsection {
            for naming in map.map_while(Result::ok) {
                names.insert(naming.index, naming.name.to_string());
            }
        }
    }
    names
}

/// Names every function: the name section first, then the first export name,
/// then `module.name` for imports, else `func[N]`.
pub(crate) fn assign(module: &mut Module, mut from_section: HashMap<u32, String>) {
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
