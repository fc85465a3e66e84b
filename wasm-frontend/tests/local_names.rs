//! Local names, the names the engine gives an entry's parameters: from the
//! name section (WAT's `$names`), else from DWARF's formal parameters.

use symplay_wasm::{load, Module};

fn module(path: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The names of the parameters of the function named `name`.
fn param_names<'m>(m: &'m Module, name: &str) -> Vec<Option<&'m str>> {
    let func = m
        .funcs
        .iter()
        .position(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function {name}")) as u32;
    let count = m.func_type(func).unwrap().params.len() as u32;
    (0..count).map(|local| m.local_name(func, local)).collect()
}

#[test]
fn wat_names_are_local_names_when_they_can_be_symbols() {
    let m = load(
        br#"(module
          (import "env" "g" (func $g (param $imported i32)))
          (func $f (export "f") (param $n i32) (param i32) (param $my-var i64) (param $true i32)
            (local $tmp i32)
            local.get 0
            call $g))"#,
    )
    .unwrap();
    assert_eq!(param_names(&m, "g"), [Some("imported")]);
    assert_eq!(param_names(&m, "f"), [Some("n"), None, None, None]);
    assert_eq!(m.local_name(1, 4), Some("tmp"));
    assert_eq!(m.local_name(1, 5), None);
}

/// `clang -g` at -O0 and -O1: the C parameters' names, also of a static
/// function kept out of line (`insert`), and, through its abstract origin,
/// of an out-of-line copy of an inlined one (`__fwritex`). `printf` takes
/// its variadic arguments through a hidden pointer parameter: its one C
/// parameter does not match its two Wasm ones, and neither is named.
#[test]
fn c_parameters_are_named_from_dwarf() {
    let get_sign = load(&module("static/examples/c/get_sign.wasm")).unwrap();
    assert_eq!(param_names(&get_sign, "get_sign"), [Some("x")]);
    let divide = load(&module("static/examples/c/divide.wasm")).unwrap();
    assert_eq!(param_names(&divide, "remainder_of"), [Some("a"), Some("b")]);
    for level in ["O0", "O1"] {
        let tree = load(&module(&format!(
            "tests/data/heap/binary_tree.{level}.wasm"
        )))
        .unwrap();
        assert_eq!(param_names(&tree, "insert"), [Some("t"), Some("key")]);
    }
    let classify = load(&module("static/examples/c/wasi_classify.wasm")).unwrap();
    assert_eq!(
        param_names(&classify, "__fwritex"),
        [Some("s"), Some("l"), Some("f")]
    );
    assert_eq!(param_names(&classify, "printf"), [None, None]);
}

/// Printed as WAT and assembled again, a C module keeps its DWARF, whose
/// subprograms are then found by their function's name; a name the text
/// gives a parameter wins over DWARF's.
#[test]
fn reassembled_text_names_parameters_and_its_own_names_win() {
    let text = wasmprinter::print_bytes(module("static/examples/c/get_sign.wasm")).unwrap();
    let reassembled = load(text.as_bytes()).unwrap();
    assert_eq!(param_names(&reassembled, "get_sign"), [Some("x")]);
    let header = "(func $get_sign (;0;) (type 0) (param i32)";
    assert!(text.contains(header), "{text}");
    let renamed = text.replace(header, "(func $get_sign (;0;) (type 0) (param $v i32)");
    let renamed = load(renamed.as_bytes()).unwrap();
    assert_eq!(param_names(&renamed, "get_sign"), [Some("v")]);
}

/// A module without a name section or DWARF names nothing.
#[test]
fn a_module_without_names_names_no_parameter() {
    let m = load(&module("tests/data/clamp.wasm")).unwrap();
    assert_eq!(param_names(&m, "clamp"), [None, None, None]);
}

/// A malformed local-names subsection is read up to its first error (a
/// function's names are read whole) and the module loads.
#[test]
fn a_malformed_name_section_keeps_the_names_before_its_error() {
    let mut bytes = b"\0asm\x01\0\0\0".to_vec();
    bytes.extend([0x01, 0x05, 0x01, 0x60, 0x01, 0x7f, 0x00]); // type (i32) -> ()
    bytes.extend([0x03, 0x03, 0x02, 0x00, 0x00]); // two functions
    bytes.extend([0x0a, 0x07, 0x02, 0x02, 0x00, 0x0b, 0x02, 0x00, 0x0b]); // empty bodies
                                                                          // "name": local names of function 0 (local 0 `n`) and function 1
                                                                          // (local 0, whose name's length is a truncated LEB128).
    bytes.extend([0x00, 0x11, 0x04, b'n', b'a', b'm', b'e', 0x02, 0x0a, 0x02]);
    bytes.extend([0x00, 0x01, 0x00, 0x01, b'n', 0x01, 0x01, 0x00, 0xff]);
    let m = load(&bytes).unwrap();
    assert_eq!(m.local_name(0, 0), Some("n"));
    assert_eq!(m.local_name(1, 0), None);
}
