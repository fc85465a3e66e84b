//! The committed example modules, compiled by clang from `static/examples/c`,
//! load with their exports, names and the symbolic-input API recognised.

use symplay_wasm::imports::{ImportClass, SymbolicApi};
use symplay_wasm::load;

fn example(name: &str) -> symplay_wasm::Module {
    let path = format!(
        "{}/../static/examples/c/{name}.wasm",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn every_example_exports_its_entry_points() {
    let entries: [(&str, &[&str]); 5] = [
        ("get_sign", &["get_sign"]),
        ("divide", &["divide", "remainder_of"]),
        ("table_lookup", &["lookup", "lookup_checked"]),
        ("checksum", &["check_packet"]),
        ("string_scan", &["string_length", "split_key"]),
    ];
    for (file, exports) in entries {
        let module = example(file);
        module.check_no_unknown_imports().unwrap();
        for &export in exports {
            let func = module.export_func(export).unwrap();
            // The name section survives linking: the function is named after its source.
            assert_eq!(module.funcs[func as usize].name, export, "{file}");
        }
    }
}

#[test]
fn the_symbolic_input_api_is_recognised_in_compiled_code() {
    let classes = |file: &str| -> Vec<ImportClass> {
        example(file).func_imports().map(|(_, i)| i.class).collect()
    };
    assert_eq!(
        classes("string_scan"),
        [SymbolicApi::SymbolicBuffer, SymbolicApi::Assert].map(ImportClass::Symbolic)
    );
    assert_eq!(
        classes("checksum"),
        [SymbolicApi::SymbolicBuffer, SymbolicApi::Assert].map(ImportClass::Symbolic)
    );
    assert!(classes("table_lookup").is_empty());
    let module = example("table_lookup");
    assert_eq!(module.data.len(), 1, "the table is one data segment");
    assert_eq!(module.data[0].bytes.len(), 32);
}
