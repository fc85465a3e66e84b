//! Exploration of the committed C examples; every path's input is replayed
//! concretely and must reach the same outcome.

use symplay_engine::exec::{explore, replay, Options};
use symplay_engine::report::{
    DropCause, InputValue, Location, Number, PathReport, Report, Status, Trap,
};
use symplay_wasm::Module;

fn example(name: &str) -> Module {
    let path = format!("{}/../static/examples/c/{name}", env!("CARGO_MANIFEST_DIR"));
    symplay_wasm::load(&std::fs::read(path).unwrap()).unwrap()
}

fn explore_checked(module: &Module, entry: &str) -> Report {
    let report = explore(module, entry, &Options::default()).unwrap();
    assert_eq!(report.stop_reason, "completed");
    for path in &report.paths {
        let again = replay(module, entry, &path.inputs).unwrap();
        assert_eq!(
            (again.status, again.trap),
            (path.status, path.trap),
            "{path:?}"
        );
        assert_eq!(again.returns, path.returns, "{path:?}");
    }
    report
}

fn ints(p: &PathReport) -> Vec<i64> {
    p.returns
        .iter()
        .map(|n| match n {
            Number::Int(i) => *i,
            other => panic!("not an integer: {other}"),
        })
        .collect()
}

fn bytes(p: &PathReport, name: &str) -> Vec<u8> {
    match p.inputs.get(name) {
        Some(InputValue::Bytes(b)) => b.clone(),
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn get_sign_has_three_paths() {
    let m = example("get_sign.wasm");
    let r = explore_checked(&m, "get_sign");
    assert_eq!(r.paths.len(), 3);
    let mut seen: Vec<i64> = r
        .paths
        .iter()
        .map(|p| {
            let ret = ints(p)[0];
            let x = p.inputs.args[0];
            assert_eq!(ret, x.signum());
            ret
        })
        .collect();
    seen.sort();
    assert_eq!(seen, [-1, 0, 1]);
    // `int get_sign(int x)`: its parameter is named from DWARF.
    assert_eq!(r.params, ["x"]);
    let mut conditions: Vec<_> = r
        .paths
        .iter()
        .map(|p| r.path_condition_readable(p))
        .collect();
    conditions.sort();
    assert_eq!(
        conditions,
        ["x != 0 && x < 0", "x != 0 && x >= 0", "x == 0"]
    );
}

#[test]
fn divide_traps_twice() {
    let m = example("divide.wasm");
    let r = explore_checked(&m, "divide");
    let by_zero = r
        .paths
        .iter()
        .find(|p| p.trap == Some(Trap::DivByZero))
        .unwrap();
    assert_eq!(by_zero.inputs.args[1], 0);
    let overflow = r
        .paths
        .iter()
        .find(|p| p.trap == Some(Trap::IntOverflow))
        .unwrap();
    assert_eq!(overflow.inputs.args, [i64::from(i32::MIN), -1]);
    assert!(r.paths.iter().any(|p| p.status == Status::Returned));
    assert_eq!(r.paths.len(), 3);

    let r = explore_checked(&m, "remainder_of");
    let traps: Vec<_> = r.paths.iter().filter_map(|p| p.trap).collect();
    assert_eq!(traps, [Trap::DivByZero]);
}

#[test]
fn locations_name_their_c_lines() {
    let line = |l: &Location| l.source.as_ref().map(|s| (s.file.clone(), s.line));
    let r = explore_checked(&example("get_sign.wasm"), "get_sign");
    // The two `if`s fork, on lines 3 and 5; every path returns at the `}`.
    let mut forks: Vec<_> = r
        .tree
        .iter()
        .filter_map(|n| n.fork.as_ref())
        .map(line)
        .collect();
    forks.sort();
    let at = |n| Some(("get_sign.c".to_string(), n));
    assert_eq!(forks, [at(3), at(5)]);
    assert!(r.paths.iter().all(|p| line(&p.location) == at(9)));
    let r = explore_checked(&example("divide.wasm"), "divide");
    let bug = r
        .paths
        .iter()
        .find(|p| p.trap == Some(Trap::DivByZero))
        .unwrap();
    assert_eq!(bug.location.text(), "divide+0x52 (divide.c:2)");
    // wasi-libc has no line tables: only the example's own code has lines.
    let r = explore_checked(&example("heap.wasm"), "copy_record");
    assert!(r
        .paths
        .iter()
        .all(|p| line(&p.location).is_some_and(|(f, _)| f == "heap.c")));
    // A module without debug information has no lines.
    let wat = symplay_wasm::load(b"(module (func (export \"f\") (param i32) (result i32) (i32.div_s (i32.const 1) (local.get 0))))").unwrap();
    let r = explore_checked(&wat, "f");
    assert!(r.paths.iter().all(|p| p.location.source.is_none()));
}

#[test]
fn a_parameter_given_a_value_is_no_longer_symbolic() {
    let m = example("divide.wasm");
    let options = |args: Vec<Option<i64>>| Options {
        concrete_args: args,
        ..Options::default()
    };
    // a = 10: no overflow is possible, only the division by zero is left.
    let r = explore(&m, "divide", &options(vec![Some(10)])).unwrap();
    assert_eq!(r.concrete_args, [Some(10)]);
    let mut traps: Vec<_> = r.paths.iter().map(|p| p.trap).collect();
    traps.sort_by_key(|t| format!("{t:?}"));
    assert_eq!(traps, [None, Some(Trap::DivByZero)]);
    for p in &r.paths {
        assert_eq!(p.inputs.args[0], 10, "{p:?}");
        let script = r.path_condition(p);
        assert!(!script.contains("declare-fun a "), "{script}");
        let again = replay(&m, "divide", &p.inputs).unwrap();
        assert_eq!(
            (again.trap, again.returns.clone()),
            (p.trap, p.returns.clone())
        );
    }
    // Both fixed: one path, the quotient.
    let r = explore(&m, "divide", &options(vec![Some(-7), Some(-1)])).unwrap();
    assert_eq!(r.paths.len(), 1);
    assert_eq!(ints(&r.paths[0]), [7]);
    assert_eq!(r.paths[0].inputs.args, [-7, -1]);
    // Values a parameter cannot take are errors that say why.
    for (args, message) in [
        (
            vec![None, None, Some(1)],
            "parameter 2, but the entry has 2 parameters",
        ),
        (
            vec![Some(1 << 32)],
            "parameter 0 is an i32 (-2147483648 to 2147483647): 4294967296 is out of range",
        ),
        (
            vec![Some(i64::from(u32::MAX))],
            "4294967295 is out of range (the same bits are -1)",
        ),
        (
            vec![Some(i64::from(i32::MIN) - 1)],
            "-2147483649 is out of range",
        ),
    ] {
        let err = explore(&m, "divide", &options(args))
            .unwrap_err()
            .to_string();
        assert!(err.contains(message), "{err}");
    }
    let floats = symplay_wasm::load(br#"(module (func (export "f") (param f32 i32)))"#).unwrap();
    let err = explore(&floats, "f", &options(vec![Some(1)])).unwrap_err();
    assert!(
        err.to_string()
            .contains("parameter 0 is f32: only integer parameters take a value"),
        "{err}"
    );
    assert_eq!(
        explore(&floats, "f", &options(vec![None, Some(5)]))
            .unwrap()
            .paths
            .len(),
        1
    );
}

#[test]
fn table_lookup_runs_out_of_bounds() {
    let m = example("table_lookup.wasm");
    let r = explore_checked(&m, "lookup");
    let oob = r
        .paths
        .iter()
        .find(|p| p.trap == Some(Trap::OutOfBounds))
        .unwrap();
    assert!(oob.inputs.args[0].unsigned_abs() > 1000, "{:?}", oob.inputs);
    for p in r.paths.iter().filter(|p| p.status == Status::Returned) {
        let i = p.inputs.args[0];
        if (0..8).contains(&i) {
            assert_eq!(ints(p)[0], i * i);
        }
    }
    let r = explore_checked(&m, "lookup_checked");
    assert!(r.paths.iter().all(|p| p.status == Status::Returned));
    for p in &r.paths {
        let i = p.inputs.args[0] as u32;
        assert_eq!(ints(p)[0], if i < 8 { i64::from(i * i) } else { -1 });
    }
}

#[test]
fn checksum_assertion_fails_with_the_checksum() {
    let m = example("checksum.wasm");
    let r = explore_checked(&m, "check_packet");
    let failed = r
        .paths
        .iter()
        .find(|p| p.status == Status::AssertFailed)
        .unwrap();
    let packet = bytes(failed, "packet");
    assert_eq!(packet[0], 0x7f);
    let sum = packet
        .iter()
        .fold(0u32, |s, &b| s.wrapping_mul(31).wrapping_add(u32::from(b)));
    assert_eq!(sum, 0xcafe_1234);
}

#[test]
fn string_length_has_one_path_per_length() {
    let m = example("string_scan.wasm");
    let r = explore_checked(&m, "string_length");
    assert_eq!(r.paths.len(), 8);
    let mut lengths: Vec<i64> = r
        .paths
        .iter()
        .map(|p| {
            let n = ints(p)[0];
            let s = bytes(p, "s");
            assert_eq!(
                s.iter().take(7).position(|&b| b == 0).unwrap_or(7) as i64,
                n
            );
            n
        })
        .collect();
    lengths.sort();
    assert_eq!(lengths, (0..8).collect::<Vec<_>>());
}

#[test]
fn split_key_rejects_an_empty_key() {
    let m = example("string_scan.wasm");
    let r = explore_checked(&m, "split_key");
    let failed = r
        .paths
        .iter()
        .find(|p| p.status == Status::AssertFailed)
        .unwrap();
    assert_eq!(bytes(failed, "s")[0], b':');
}

#[test]
fn printf_through_wasi_is_captured_per_path() {
    let m = example("wasi_classify.wasm");
    let r = explore_checked(&m, "classify");
    let (mut big, mut small) = (0, 0);
    for p in &r.paths {
        let x = p.inputs.args[0];
        match ints(p)[..] {
            [2] => {
                assert!(x > 100, "{p:?}");
                assert_eq!(p.stdout, format!("big {x}\n"));
                big += 1;
            }
            [1] => {
                assert!(x <= 100, "{p:?}");
                assert_eq!(p.stdout, "small\n");
                small += 1;
            }
            _ => panic!("unexpected result {p:?}"),
        }
        let again = replay(&m, "classify", &p.inputs).unwrap();
        assert_eq!(again.stdout, p.stdout);
    }
    // One small path, and one big path per number of digits printf can meet (3 to 10).
    assert_eq!(small, 1);
    assert_eq!(big, 8);
}

#[test]
fn parse_int_finds_negative_zero() {
    let m = example("parse_int.wasm");
    let r = explore_checked(&m, "parse_int");
    let failed: Vec<Vec<u8>> = r
        .paths
        .iter()
        .filter(|p| p.status == Status::AssertFailed)
        .map(|p| bytes(p, "text"))
        .collect();
    assert!(!failed.is_empty());
    for text in &failed {
        let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
        let text = std::str::from_utf8(&text[..end]).unwrap();
        assert!(
            text.starts_with('-') && text[1..].bytes().all(|b| b == b'0'),
            "{text}"
        );
    }
    for p in r.paths.iter().filter(|p| p.status == Status::Returned) {
        let text = bytes(p, "text");
        let end = text.iter().position(|&b| b == 0).unwrap_or(text.len());
        let expected = std::str::from_utf8(&text[..end])
            .ok()
            .and_then(|t| t.parse::<i64>().ok())
            .filter(|_| text[..end].iter().all(|b| b.is_ascii_digit() || *b == b'-'))
            .unwrap_or(-10000);
        assert_eq!(ints(p), [expected], "{text:?}");
    }
}

#[test]
fn sum_to_has_one_path_per_trip_count() {
    let m = example("sum_to.wasm");
    let r = explore_checked(&m, "sum_to");
    let mut trips: Vec<i64> = r
        .paths
        .iter()
        .map(|p| {
            let n = p.inputs.args[0];
            assert_eq!(ints(p), [n * (n + 1) / 2]);
            n
        })
        .collect();
    trips.sort();
    assert_eq!(trips, (0..=8).collect::<Vec<_>>());
    // `n >= 0 && n <= 8` branches at -O0: on the side n < 0 the assumed
    // value is a plain 0, and the path is dropped at the assumption, which
    // the report names with its C line. (On the other side it is `n <= 8`,
    // assumed symbolically: nothing is dropped.)
    assert_eq!(r.stats.dropped_paths, 1);
    let [site] = &r.drops[..] else {
        panic!("{:?}", r.drops);
    };
    assert_eq!(
        (site.cause, site.paths, site.location.function.as_str()),
        (DropCause::Assumption, 1, "sum_to")
    );
    assert_eq!(site.location.source.as_ref().map(|s| s.line), Some(6));
    let summary = r.drops_summary().unwrap();
    assert!(
        summary.starts_with("1 path dropped: 1 by the assumption at sum_to+0x")
            && summary.ends_with(" (sum_to.c:6)"),
        "{summary}"
    );
}

#[test]
fn a_value_that_breaks_the_assumption_leaves_no_path_and_says_why() {
    let m = example("sum_to.wasm");
    let options = Options {
        concrete_args: vec![Some(-3)],
        ..Options::default()
    };
    let r = explore(&m, "sum_to", &options).unwrap();
    assert_eq!((r.stop_reason.as_str(), r.paths.len()), ("completed", 0));
    assert_eq!(r.stats.dropped_paths, 1);
    assert!(r.tree[0].dropped);
    let summary = r.drops_summary().unwrap();
    assert!(
        summary.starts_with(
            "no path is left: every path was dropped (1 path: 1 by the assumption at sum_to+0x"
        ) && summary.ends_with(" (sum_to.c:6))"),
        "{summary}"
    );
    // The replay of such an input says the same.
    let test = serde_json::from_str(r#"{"args": [-3]}"#).unwrap();
    let error = replay(&m, "sum_to", &test).unwrap_err().to_string();
    assert!(
        error.starts_with("the input breaks the assumption at sum_to+0x")
            && error.ends_with("(sum_to.c:6): it takes no path to replay"),
        "{error}"
    );
}

#[test]
fn password_check_gives_away_the_password() {
    let m = example("password.wasm");
    let r = explore_checked(&m, "check_password");
    let granted: Vec<_> = r
        .paths
        .iter()
        .filter(|p| p.status == Status::AssertFailed)
        .collect();
    assert_eq!(granted.len(), 1);
    assert_eq!(bytes(granted[0], "guess"), b"s3cr3t!\0");
    assert_eq!(r.paths.len(), 9);
}

#[test]
fn heap_copies_keep_symbolic_bytes() {
    let m = example("heap.wasm");
    let r = explore_checked(&m, "copy_record");
    let mut lengths: Vec<u8> = r
        .paths
        .iter()
        .filter(|p| p.status == Status::AssertFailed)
        .map(|p| {
            let record = bytes(p, "record");
            assert_eq!(record[1], b'X');
            record[0]
        })
        .collect();
    lengths.sort();
    assert_eq!(lengths, [1, 2, 3, 4]);
}
