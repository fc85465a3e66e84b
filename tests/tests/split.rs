//! Intra-object splitting (`--split`) on memory regions without objects:
//! a table in the data section of a module with no allocator (flat
//! memory, cut every piece from address 0). Splitting changes which array
//! an access reads, never a value: reads and writes that straddle two
//! pieces see both, and every path's result is the one its input gives.

use symplay_engine::exec::{explore, Options};
use symplay_engine::memory::{Contents, Split};
use symplay_engine::report::{PathReport, Report};
use symplay_engine::search::SearchKind;
use symplay_tests::reports::{explored_per_place, returned_u32, table_byte, table_module};

/// Where the table starts, and its length.
const TABLE: u64 = 1024;
const LEN: u64 = 512;
/// The accesses start at `BASE + (i & 63)`, across the piece boundary at
/// 1,152 (pieces of 128 bytes from 0).
const BASE: u64 = 1100;

/// The little-endian word at `address`.
fn word(address: u64) -> u32 {
    let at = |k: u64| u32::from(table_byte(address + k - TABLE));
    at(0) | at(1) << 8 | at(2) << 16 | at(3) << 24
}

fn module() -> symplay_wasm::Module {
    let funcs = format!(
        r#"
          (func $at (param $i i32) (result i32)
            (i32.add (i32.const {BASE}) (i32.and (local.get $i) (i32.const 63))))
          ;; the word at BASE + (i & 63)
          (func (export "read") (param $i i32) (result i32)
            (i32.load (call $at (local.get $i))))
          ;; whether the word there is the one at 1,150, which straddles
          (func (export "find") (param $i i32) (result i32)
            (if (result i32) (i32.eq (i32.load (call $at (local.get $i))) (i32.const {find}))
              (then (i32.const 1)) (else (i32.const 0))))
          ;; a word written there, read back at 1,150
          (func (export "write") (param $i i32) (result i32)
            (i32.store (call $at (local.get $i)) (i32.const 0x5eed1e55))
            (if (result i32) (i32.eq (i32.load (i32.const 1150)) (i32.const 0x5eed1e55))
              (then (i32.const 1)) (else (i32.const 0))))"#,
        find = word(1150) as i32,
    );
    table_module(TABLE, LEN, &funcs)
}

fn explored(entry: &str, split: Option<Split>) -> Report {
    let r = explored_per_place(&module(), entry, split);
    assert_eq!(r.memory_model, "flat", "{entry}");
    r
}

/// `i & 63` on path `p`.
fn input(p: &PathReport) -> u64 {
    p.inputs.args[0] as u64 & 63
}

/// `(i & 63, result)` of each path, sorted.
fn outcomes(r: &Report) -> Vec<(u64, u32)> {
    let mut found: Vec<(u64, u32)> = r
        .paths
        .iter()
        .map(|p| (input(p), returned_u32(p)))
        .collect();
    found.sort_unstable();
    found
}

#[test]
fn a_read_forks_over_the_two_pieces_it_can_start_in_and_reads_the_right_word() {
    let whole = explored("read", None);
    assert_eq!(whole.paths.len(), 1);
    let r = explored("read", Some(Split::default()));
    assert_eq!(r.stats.split_accesses, 1);
    // First bytes 1,100 to 1,151 in one piece, 1,152 to 1,163 in the
    // next; the reads starting at 1,149 to 1,151 straddle into it.
    let starts: Vec<u64> = outcomes(&r).iter().map(|&(i, _)| BASE + i).collect();
    assert_eq!(starts.len(), 2);
    assert!(starts[0] < 1152 && starts[1] >= 1152, "{starts:?}");
    for p in &r.paths {
        assert_eq!(
            returned_u32(p),
            word(BASE + input(p)),
            "i & 63 = {}",
            input(p)
        );
    }
    // Each array holds a piece and the bytes a read straddles into.
    assert!(r.stats.largest_array_bytes <= 128 + 3);
    assert!(whole.stats.largest_array_bytes >= 64 + 3);
}

/// `i & 63` of each path of `r` that returned 1.
fn found(r: &Report) -> Vec<u64> {
    let ones = outcomes(r).into_iter().filter(|&(_, v)| v == 1);
    ones.map(|(i, _)| i).collect()
}

#[test]
fn a_word_that_straddles_two_pieces_is_found_as_without_splitting() {
    for split in [None, Some(Split::default())] {
        assert_eq!(found(&explored("find", split)), [50], "{split:?}");
    }
}

#[test]
fn a_write_that_straddles_two_pieces_is_read_back_whole() {
    for split in [None, Some(Split::default())] {
        let r = explored("write", split);
        assert_eq!(found(&r), [50], "{split:?}");
        assert!(outcomes(&r).iter().any(|&(_, v)| v == 0), "{split:?}");
    }
}

#[test]
fn bad_split_options_are_refused_naming_the_value() {
    let module = module();
    let refused = |split: Split, contents: Contents| {
        let mut options = Options::default();
        options.heap.split = Some(split);
        options.heap.contents = contents;
        explore(&module, "read", &options).unwrap_err().to_string()
    };
    let per_object = Contents::PerObject;
    let piece = Split {
        threshold: 300,
        piece: 0,
    };
    assert_eq!(
        refused(piece, per_object),
        "--split-piece must be greater than zero"
    );
    let threshold = Split {
        threshold: u32::MAX,
        piece: 128,
    };
    assert_eq!(
        refused(threshold, per_object),
        "--split-threshold 4294967295 is more than linear memory can hold (2147483648 bytes at most)"
    );
    assert!(
        refused(Split::default(), Contents::Whole).contains("--split needs --contents per-object")
    );
}

#[test]
fn an_untouched_input_is_not_split_since_its_array_has_no_store() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/memory/shapes.wat");
    let module = symplay_wasm::load(&std::fs::read(path).unwrap()).unwrap();
    let explored = |split: Option<Split>| {
        let mut options = Options {
            search: SearchKind::Dfs,
            concrete_args: vec![None, Some(4096)],
            ..Options::default()
        };
        options.heap.split = split;
        explore(&module, "index_read", &options).unwrap()
    };
    let whole = explored(None);
    let split = explored(Some(Split::default()));
    // 4,096 symbolic bytes read at a symbolic index: the read selects from
    // the input's array symbol, split or not.
    assert_eq!(split.stats.split_accesses, 0);
    assert_eq!(split.paths.len(), whole.paths.len());
    assert_eq!(split.stats.forks, whole.stats.forks);
}
