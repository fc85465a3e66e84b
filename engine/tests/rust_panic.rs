//! Rust compiled by stable rustc for `wasm32-unknown-unknown` with its
//! defaults (`tests/data/rust`, rebuilt by its `build.sh`): a table of
//! closures called through trait objects, a `Vec`, and an index out of
//! bounds. The panic is reported as Rust reports it, and replays.

use symplay_engine::exec::{explore, replay, Options};
use symplay_engine::report::{Number, Status};

const PICK: &[u8] = include_bytes!("../../tests/data/rust/pick.wasm");

#[test]
fn rust_names_are_demangled() {
    let module = symplay_wasm::load(PICK).unwrap();
    let names: Vec<&str> = module.funcs.iter().map(|f| f.name.as_str()).collect();
    assert!(
        names.contains(&"core::panicking::panic_bounds_check"),
        "{names:?}"
    );
    assert!(names.contains(&"__rustc::__rust_abort"), "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| !n.starts_with("_R") && !n.starts_with("_ZN")),
        "{names:?}"
    );
}

#[test]
fn an_index_out_of_bounds_is_a_panic_with_rusts_message_and_location() {
    let module = symplay_wasm::load(PICK).unwrap();
    let report = explore(&module, "pick", &Options::default()).unwrap();
    let mut returned = [false; 3];
    let mut panicked = [false; 3];
    for p in &report.paths {
        let (op, a, index) = (
            p.inputs.args[0] as u32 % 3,
            p.inputs.args[1] as i32,
            p.inputs.args[2] as u32,
        );
        match p.status {
            Status::Returned => {
                assert!(index < 4, "{p:?}");
                let k = index as i32;
                let expected = [a.wrapping_add(k), a.wrapping_sub(k), a.wrapping_mul(k)];
                assert_eq!(p.returns, [Number::Int(expected[op as usize].into())]);
                returned[op as usize] = true;
            }
            Status::Panicked => {
                assert!(index >= 4, "{p:?}");
                let panic = p.panic.as_ref().expect("a panicked path has its panic");
                assert_eq!(
                    panic.message.as_deref(),
                    Some(&*format!(
                        "index out of bounds: the len is 4 but the index is {index}"
                    ))
                );
                let location = panic.location.as_deref().unwrap_or_default();
                assert!(location.starts_with("src/lib.rs:17:"), "{location}");
                assert_eq!(p.trap, None);
                assert_eq!(p.location.function, "pick");
                panicked[op as usize] = true;
            }
            other => panic!("path {} ended {other:?}", p.id),
        }
        let again = replay(&module, "pick", &p.inputs).unwrap();
        assert_eq!(
            (again.status, &again.returns, &again.panic),
            (p.status, &p.returns, &p.panic)
        );
    }
    assert_eq!(
        (returned, panicked),
        ([true; 3], [true; 3]),
        "{:?}",
        report.paths
    );
    assert_eq!(report.paths.len(), 6);
}

/// The other panic functions, by their mangled names as rustc writes them:
/// a message from memory, a fixed message, and one formatted at run time,
/// each with the `Location` the caller passes.
#[test]
fn panic_functions_give_their_messages_and_locations() {
    let wat = r#"(module (memory 1)
      (data (i32.const 100) "src/main.rs")
      (data (i32.const 200) "\64\00\00\00\0b\00\00\00\07\00\00\00\09\00\00\00")
      (data (i32.const 300) "boom")
      (func $_ZN4core9panicking5panic17h0123456789abcdefE (param i32 i32 i32) unreachable)
      (func $_ZN4core9panicking11panic_const24panic_const_add_overflow17h0123456789abcdefE
        (param i32) unreachable)
      (func $_ZN4core9panicking9panic_fmt17h0123456789abcdefE (param i32 i32) unreachable)
      (func (export "f") (param $x i32) (result i32)
        (if (i32.eq (local.get $x) (i32.const 1))
          (then (call $_ZN4core9panicking5panic17h0123456789abcdefE
                  (i32.const 300) (i32.const 4) (i32.const 200))))
        (if (i32.eq (local.get $x) (i32.const 2))
          (then (call $_ZN4core9panicking11panic_const24panic_const_add_overflow17h0123456789abcdefE
                  (i32.const 200))))
        (if (i32.eq (local.get $x) (i32.const 3))
          (then (call $_ZN4core9panicking9panic_fmt17h0123456789abcdefE
                  (i32.const 0) (i32.const 200))))
        (local.get $x)))"#;
    let module = symplay_wasm::load(wat.as_bytes()).unwrap();
    let report = explore(&module, "f", &Options::default()).unwrap();
    let mut panics: Vec<(i64, String)> = report
        .paths
        .iter()
        .filter(|p| p.status == Status::Panicked)
        .map(|p| (p.inputs.args[0], p.panic.as_ref().unwrap().describe()))
        .collect();
    panics.sort();
    assert_eq!(
        panics,
        [
            (1, "'boom' at src/main.rs:7:9".to_string()),
            (
                2,
                "'attempt to add with overflow' at src/main.rs:7:9".to_string()
            ),
            (
                3,
                "a message formatted at run time at src/main.rs:7:9".to_string()
            ),
        ]
    );
    assert_eq!(report.paths.len(), 4);
}
