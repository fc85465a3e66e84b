//! Unsupported features, malformed input and invalid modules give errors
//! (with the feature name and offset), never panics.

use symplay_wasm::{load, ErrorKind, LoadError};

/// Compiles `wat` with all features (the wat crate does not validate) and
/// loads the binary, which must fail.
fn load_err(wat: &str) -> (Vec<u8>, LoadError) {
    let wasm = wat::parse_str(wat).unwrap();
    let error = load(&wasm).unwrap_err();
    (wasm, error)
}

#[test]
fn simd_operator_names_feature_and_offset() {
    let (wasm, error) = load_err("(module (func (drop (i32x4.splat (i32.const 1)))))");
    assert_eq!(error.kind, ErrorKind::Unsupported);
    let offset = error.offset.unwrap() as usize;
    assert_eq!(wasm[offset], 0xfd, "offset must point at the SIMD prefix");
    assert_eq!(
        error.to_string(),
        format!("unsupported feature: SIMD (v128) at offset {offset:#x}")
    );
}

#[test]
fn simd_types_are_rejected_by_validation() {
    let (_, error) = load_err("(module (func (param v128)))");
    assert_eq!(error.kind, ErrorKind::Unsupported);
    assert!(error.message.ends_with("SIMD (v128)"), "{error}");
}

#[test]
fn every_unsupported_feature_is_named() {
    let cases = [
        (
            "(module (memory 1 1 shared) (func (drop (i32.atomic.load (i32.const 0)))))",
            "unsupported feature: threads (atomics, shared memory)",
        ),
        (
            "(module (memory 1) (func (drop (i32.atomic.rmw.add (i32.const 0) (i32.const 1)))))",
            "unsupported feature: threads (atomics, shared memory)",
        ),
        ("(module (memory i64 1))", "unsupported feature: memory64"),
        (
            "(module (tag) (func (throw 0)))",
            "unsupported feature: exception handling",
        ),
        (
            "(module (func return_call 0))",
            "unsupported feature: tail calls",
        ),
        (
            "(module (memory 1) (memory 1))",
            "unsupported feature: multiple memories",
        ),
        (
            "(module (type $t (func)) (func (param (ref null $t))))",
            "unsupported feature: function references",
        ),
        (
            "(module (type $t (func)) (func (param funcref) (call_ref $t (local.get 0))))",
            "unsupported feature: function references",
        ),
        ("(module (type (struct)))", "unsupported feature: GC"),
        (
            "(module (global i32 (i32.add (i32.const 1) (i32.const 2))))",
            "unsupported feature: extended constant expressions",
        ),
    ];
    for (wat, message) in cases {
        let (_, error) = load_err(wat);
        assert_eq!(error.kind, ErrorKind::Unsupported, "{wat}: {error}");
        assert_eq!(error.message, message, "{wat}");
        assert!(error.offset.is_some(), "{wat}");
    }
}

#[test]
fn tables_too_large_to_copy_per_path_are_refused() {
    let (_, error) = load_err("(module (table 2000000 funcref))");
    assert_eq!(error.kind, ErrorKind::Unsupported);
    assert_eq!(
        error.message,
        "tables of 2000000 entries in all are more than supported (1048576)"
    );
    assert!(load(b"(module (table 1048576 externref))").is_ok());
    let many = format!("(module {})", "(table 600000 funcref)".repeat(2));
    let (_, error) = load_err(&many);
    assert_eq!(
        error.message,
        "tables of 1200000 entries in all are more than supported (1048576)"
    );
}

#[test]
fn components_are_rejected() {
    let error = load(b"\0asm\x0d\0\x01\0").unwrap_err();
    assert_eq!(error.message, "unsupported feature: component model");
}

#[test]
fn truncated_and_garbage_binaries() {
    let empty = load(b"").unwrap_err();
    assert_eq!(
        (empty.kind, empty.message.as_str()),
        (ErrorKind::Malformed, "not a Wasm module: the file is empty")
    );
    let garbage = load(b"\0asm\x01\0\0\0\x01\xff\xff\xff").unwrap_err();
    assert_eq!(garbage.kind, ErrorKind::Malformed);
    assert!(garbage.offset.is_some());
    assert!(
        garbage
            .message
            .starts_with("the module is cut short: its 12 bytes end in the middle of a section"),
        "{garbage}"
    );
    // A file of another kind is named by its first bytes, not read as WAT.
    let elf = load(b"\x7fELF\x02\x01\x01\x00\x00\x00").unwrap_err();
    assert!(
        elf.message
            .starts_with("not a Wasm module: it starts with 7f 45 4c 46 02 01 01 00"),
        "{elf}"
    );
    let cut_magic = load(b"\0as").unwrap_err();
    assert!(
        cut_magic.message.contains("cut short after 3 bytes"),
        "{cut_magic}"
    );
    let bad_version = load(b"\0asm\x09\0\0\0").unwrap_err();
    assert!(
        bad_version.message.starts_with("malformed module:"),
        "{bad_version}"
    );
    let not_text = load(&[0xff, 0xfe, 0x00]).unwrap_err();
    assert_eq!(not_text.kind, ErrorKind::Malformed);

    let wasm = wat::parse_str(
        r#"(module (memory 1) (data (i32.const 0) "abc")
           (func (export "f") (param i32) (result i32) (local.get 0)))"#,
    )
    .unwrap();
    // A prefix that ends between sections is a valid smaller module; every
    // other prefix is an error, and none panics.
    let failures = (0..wasm.len())
        .filter(|&len| load(&wasm[..len]).is_err())
        .count();
    assert!(failures >= wasm.len() - 8, "{failures} of {}", wasm.len());
    assert!(load(&wasm[..wasm.len() - 1]).is_err());
}

#[test]
fn invalid_wat_reports_line_and_column() {
    let error = load(b"(module\n  (func (result i32)\n    i32.bogus))").unwrap_err();
    assert_eq!(error.kind, ErrorKind::InvalidText);
    assert!(error.message.contains("3:5"), "{error}");
}

#[test]
fn validation_errors_carry_offsets() {
    let (_, error) = load_err("(module (func (result i32) (i64.const 1)))");
    assert_eq!(error.kind, ErrorKind::Invalid);
    assert!(
        error.message.starts_with("invalid module: type mismatch"),
        "{error}"
    );
    assert!(error.offset.is_some());
}

/// A small deterministic generator, so failures reproduce.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn mutated_modules_never_panic() {
    let wasm = wat::parse_str(
        r#"(module
            (import "env" "malloc" (func (param i32) (result i32)))
            (import "symplay" "symbolic_i32" (func (param i32) (result i32)))
            (memory (export "memory") 1)
            (table 2 funcref)
            (global $sp (mut i32) (i32.const 1024))
            (elem (i32.const 0) $f)
            (data (i32.const 16) "hello")
            (func $f (export "f") (param i32) (result i32) (local i64)
              (block $out
                (loop $top
                  local.get 0
                  i32.eqz
                  br_if $out
                  (br_table $top $out (local.get 0))))
              (call_indirect (param i32 i32) (result i32)
                (if (result i32) (local.get 0) (then (i32.const 1)) (else (i32.const 2)))
                (i32.const 5)
                (i32.const 0)))
            (func (param i32 i32) (result i32) local.get 0))"#,
    )
    .unwrap();
    assert!(load(&wasm).is_ok());
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut loaded = 0;
    for round in 0..5000 {
        let mut bytes = wasm.clone();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(bytes.len());
            match rng.below(4) {
                0 => bytes[at] = rng.next() as u8,
                1 => bytes[at] ^= 1 << rng.below(8),
                2 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, rng.next() as u8),
            }
        }
        if rng.below(8) == 0 {
            bytes.truncate(rng.below(bytes.len() + 1));
        }
        let result = std::panic::catch_unwind(|| load(&bytes));
        match result {
            Ok(Ok(_)) => loaded += 1,
            Ok(Err(_)) => {}
            Err(_) => panic!("round {round} panicked on {bytes:02x?}"),
        }
    }
    // Some mutations (inside data or names) still give valid modules.
    assert!(loaded > 0);
}

#[test]
fn mutated_wat_loads_or_says_where_it_is_wrong() {
    let text = "(module (func (export \"f\") (param i32) (result i32) (block (result i32) (local.get 0))))";
    let mut rng = XorShift(42);
    let (mut loaded, mut refused) = (0, 0);
    for _ in 0..2000 {
        let mut bytes = text.as_bytes().to_vec();
        let at = rng.below(bytes.len());
        bytes[at] = b"()$ \"0afi.;\\x"[rng.below(13)];
        let mutated = String::from_utf8_lossy(&bytes);
        match load(&bytes) {
            Ok(_) => loaded += 1,
            Err(error) => {
                refused += 1;
                // Text that does not parse names its line and column;
                // anything the binary made of it fails at an offset.
                let placed = match error.kind {
                    ErrorKind::InvalidText => error.message.contains("<anon>:1:"),
                    _ => error.offset.is_some(),
                };
                assert!(placed, "{mutated}: {error}");
            }
        }
    }
    // A byte in a name or a number can keep the module valid.
    assert!(
        loaded > 50 && refused > 1000,
        "{loaded} loaded, {refused} refused"
    );
}

#[test]
fn the_wasm_1_0_profile_rejects_later_features() {
    use symplay_wasm::{load_with, Profile};
    let later = [
        "(module (func (result i32 i32) (i32.const 1) (i32.const 2)))",
        "(module (func (result i32) (i32.extend8_s (i32.const 1))))",
        "(module (func (result i32) (i32.trunc_sat_f32_s (f32.const 1))))",
        "(module (memory 1) (func (memory.fill (i32.const 0) (i32.const 0) (i32.const 0))))",
    ];
    for wat in later {
        assert!(load(wat.as_bytes()).is_ok(), "{wat}");
        let error = load_with(wat.as_bytes(), Profile::Wasm1).unwrap_err();
        assert_eq!(error.kind, ErrorKind::Invalid, "{wat}: {error}");
    }
    let mvp = "(module (global (mut i32) (i32.const 0)) (func (result i32) (i32.const 1)))";
    assert!(load_with(mvp.as_bytes(), Profile::Wasm1).is_ok());
}

#[test]
fn c_and_rust_source_is_told_to_be_compiled_first() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../static/examples/c/");
    for file in ["divide.c", "sum_to.c", "heap.c"] {
        let source = std::fs::read(format!("{examples}{file}")).unwrap();
        let error = load(&source).unwrap_err();
        assert_eq!(error.kind, ErrorKind::SourceCode, "{file}: {error}");
        assert!(
            error.message.starts_with(
                "this is C source, not a WebAssembly module: compile it to .wasm first"
            ),
            "{file}: {error}"
        );
    }
    let rust = load(b"#[no_mangle]\npub extern \"C\" fn f(x: i32) -> i32 { x }").unwrap_err();
    assert_eq!(rust.kind, ErrorKind::SourceCode);
    assert!(
        rust.message
            .contains("rustc --target wasm32-unknown-unknown"),
        "{rust}"
    );
    // WAT that does not parse is still a WAT error.
    let wat =
        load(b"(module (func (export \"f\") (param i32) (result i32) (local.get 1)").unwrap_err();
    assert_eq!(wat.kind, ErrorKind::InvalidText, "{wat}");
}
