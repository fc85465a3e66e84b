//! `memory.copy` and `memory.fill` at symbolic addresses: each end is
//! resolved as one access (a fork per place it may land in, a trap where
//! it may leave memory) and the bytes move one at a time, with nothing
//! made concrete; at concrete addresses with a symbolic length, the path
//! forks on whether the range fits and keeps the length where it does;
//! every path's result is the one its input gives. A symbolic length at
//! a symbolic address is kept too, the range resolved at both ends.

use symplay_engine::exec::{explore, Options};
use symplay_engine::memory::{BaseMode, Segments, Split};
use symplay_engine::report::{PathReport, Report, Status, Trap};
use symplay_engine::search::SearchKind;
use symplay_tests::reports::{explored_per_place, returned_u32, table_byte, table_module};

/// Where the table starts, and its length.
const TABLE: u64 = 1024;
const LEN: u64 = 256;

fn module() -> symplay_wasm::Module {
    let funcs = format!(
        r#"
          ;; 16 bytes from TABLE + (i & 63) to 4096, then the word at 4096
          (func (export "copy_from") (param $i i32) (result i32)
            (memory.copy (i32.const 4096)
              (i32.add (i32.const {TABLE}) (i32.and (local.get $i) (i32.const 63)))
              (i32.const 16))
            (i32.load (i32.const 4096)))
          ;; 16 bytes of the table moved by (i & 7) within it, overlapping;
          ;; then the word at TABLE + 8
          (func (export "move_within") (param $i i32) (result i32)
            (memory.copy
              (i32.add (i32.const {TABLE}) (i32.and (local.get $i) (i32.const 7)))
              (i32.const {TABLE})
              (i32.const 16))
            (i32.load (i32.const {at_8})))
          ;; 8 bytes of 0x5a from 8192 + (i & 15), then the byte at 8196
          (func (export "fill_at") (param $i i32) (result i32)
            (memory.fill
              (i32.add (i32.const 8192) (i32.and (local.get $i) (i32.const 15)))
              (i32.const 0x5a) (i32.const 8))
            (if (result i32) (i32.eq (i32.load8_u (i32.const 8196)) (i32.const 0x5a))
              (then (i32.const 1)) (else (i32.const 0))))
          ;; 16 bytes to 65528 + (i & 15): past memory's end but for i & 15 = 0
          (func (export "copy_past_end") (param $i i32) (result i32)
            (memory.copy
              (i32.add (i32.const 65520) (i32.and (local.get $i) (i32.const 15)))
              (i32.const {TABLE}) (i32.const 16))
            (i32.const 1))
          ;; (n & 31) bytes of the table to 4096, then whether byte 20 came
          (func (export "copy_length") (param $n i32) (result i32)
            (memory.copy (i32.const 4096) (i32.const {TABLE})
              (i32.and (local.get $n) (i32.const 31)))
            (if (result i32) (i32.eq (i32.load8_u (i32.const 4116)) (i32.const {byte_20}))
              (then (i32.const 1)) (else (i32.const 0))))
          ;; (n & 15) bytes of the table moved 4 up within it, overlapping,
          ;; then the byte at TABLE + 8 on each side of n & 15 > 4
          (func (export "move_length") (param $n i32) (result i32)
            (memory.copy (i32.const {at_4}) (i32.const {TABLE})
              (i32.and (local.get $n) (i32.const 15)))
            (if (result i32) (i32.gt_u (i32.and (local.get $n) (i32.const 15)) (i32.const 4))
              (then (i32.load8_u (i32.const {at_8})))
              (else (i32.load8_u (i32.const {at_8})))))
          ;; (n & 15) bytes of 0x5a at 8192, then whether byte 8196 is one
          (func (export "fill_length_at") (param $n i32) (result i32)
            (memory.fill (i32.const 8192) (i32.const 0x5a)
              (i32.and (local.get $n) (i32.const 15)))
            (if (result i32) (i32.eq (i32.load8_u (i32.const 8196)) (i32.const 0x5a))
              (then (i32.const 1)) (else (i32.const 0))))
          ;; (n & 15) bytes to 65530: past memory's end where n & 15 > 6
          (func (export "copy_length_past_end") (param $n i32) (result i32)
            (memory.copy (i32.const 65530) (i32.const {TABLE})
              (i32.and (local.get $n) (i32.const 15)))
            (i32.load8_u (i32.const 65535)))
          ;; (n & 15) bytes of 0x5a at 8192 + (i & 15), then whether byte
          ;; 8200 is one
          (func (export "fill_length") (param $i i32) (param $n i32) (result i32)
            (memory.fill (i32.add (i32.const 8192) (i32.and (local.get $i) (i32.const 15)))
              (i32.const 0x5a) (i32.and (local.get $n) (i32.const 15)))
            (if (result i32) (i32.eq (i32.load8_u (i32.const 8200)) (i32.const 0x5a))
              (then (i32.const 1)) (else (i32.const 0))))
          ;; (n & 15) bytes of 0x5a at 8192 + (i & 255), across two pieces
          ;; when split, then whether byte 8321 (in the second) is one
          (func (export "fill_length_across") (param $i i32) (param $n i32) (result i32)
            (memory.fill (i32.add (i32.const 8192) (i32.and (local.get $i) (i32.const 255)))
              (i32.const 0x5a) (i32.and (local.get $n) (i32.const 15)))
            (if (result i32) (i32.eq (i32.load8_u (i32.const 8321)) (i32.const 0x5a))
              (then (i32.const 1)) (else (i32.const 0))))
          ;; (n & 15) bytes from TABLE + (i & 63) to 4096, then byte 4101
          (func (export "copy_length_from") (param $i i32) (param $n i32) (result i32)
            (memory.copy (i32.const 4096)
              (i32.add (i32.const {TABLE}) (i32.and (local.get $i) (i32.const 63)))
              (i32.and (local.get $n) (i32.const 15)))
            (i32.load8_u (i32.const 4101)))
          ;; (n & 15) bytes of the table moved by (i & 7) within it,
          ;; overlapping; then the word at TABLE + 8
          (func (export "move_length_within") (param $i i32) (param $n i32) (result i32)
            (memory.copy
              (i32.add (i32.const {TABLE}) (i32.and (local.get $i) (i32.const 7)))
              (i32.const {TABLE})
              (i32.and (local.get $n) (i32.const 15)))
            (i32.load (i32.const {at_8})))
          ;; (n & 15) bytes to 65524 + (i & 15): past memory's end where
          ;; the two pass 12
          (func (export "fill_length_past_end") (param $i i32) (param $n i32) (result i32)
            (memory.fill (i32.add (i32.const 65524) (i32.and (local.get $i) (i32.const 15)))
              (i32.const 1) (i32.and (local.get $n) (i32.const 15)))
            (i32.const 1))
          ;; (n & 15) bytes at (i & 15) + 65537: past memory's end even
          ;; where n & 15 is 0
          (func (export "fill_nothing_past_end") (param $i i32) (param $n i32) (result i32)
            (memory.fill (i32.add (i32.const 65537) (i32.and (local.get $i) (i32.const 15)))
              (i32.const 1) (i32.and (local.get $n) (i32.const 15)))
            (i32.const 1))"#,
        at_4 = TABLE + 4,
        at_8 = TABLE + 8,
        byte_20 = table_byte(20),
    );
    table_module(TABLE, LEN, &funcs)
}

fn explored(entry: &str, split: Option<Split>) -> Report {
    explored_per_place(&module(), entry, split)
}

fn input(p: &PathReport, mask: i64) -> u64 {
    (p.inputs.args[0] & mask) as u64
}

fn returned(p: &PathReport) -> u64 {
    u64::from(returned_u32(p))
}

/// The little-endian word of `bytes` at `k`.
fn word(bytes: &[u8], k: usize) -> u64 {
    u64::from(u32::from_le_bytes(bytes[k..k + 4].try_into().unwrap()))
}

fn table() -> Vec<u8> {
    (0..LEN).map(table_byte).collect()
}

fn no_concretised(r: &Report) {
    for p in &r.paths {
        assert!(
            p.notes.iter().all(|n| !n.starts_with("concretised")),
            "{:?}",
            p.notes
        );
    }
}

#[test]
fn a_copy_from_a_symbolic_address_moves_the_bytes_there() {
    for split in [None, Some(Split::default())] {
        let r = explored("copy_from", split);
        no_concretised(&r);
        for p in &r.paths {
            let i = input(p, 63) as usize;
            assert_eq!(returned(p), word(&table(), i), "i & 63 = {i} ({split:?})");
        }
    }
}

#[test]
fn an_overlapping_copy_to_a_symbolic_address_moves_as_memmove_does() {
    let r = explored("move_within", None);
    no_concretised(&r);
    for p in &r.paths {
        let d = input(p, 7) as usize;
        let mut after = table();
        after.copy_within(0..16, d);
        assert_eq!(returned(p), word(&after, 8), "i & 7 = {d}");
    }
}

#[test]
fn a_fill_at_a_symbolic_address_writes_where_it_lands() {
    let r = explored("fill_at", None);
    no_concretised(&r);
    assert!(r.paths.len() >= 2, "both sides of 8196 are feasible");
    for p in &r.paths {
        let d = 8192 + input(p, 15);
        let hit = (d..d + 8).contains(&8196);
        assert_eq!(returned(p), u64::from(hit), "at {d}");
    }
}

#[test]
fn a_copy_that_may_leave_memory_traps_only_where_it_does() {
    let r = explored("copy_past_end", None);
    let trapped: Vec<&PathReport> = r
        .paths
        .iter()
        .filter(|p| p.status == Status::Trapped)
        .collect();
    assert_eq!(trapped.len(), 1);
    assert_eq!(trapped[0].trap, Some(Trap::OutOfBounds));
    assert!(input(trapped[0], 15) > 0);
    let returned: Vec<u64> = r
        .paths
        .iter()
        .filter(|p| p.status == Status::Returned)
        .map(|p| input(p, 15))
        .collect();
    assert_eq!(returned, [0]);
}

fn input_2(p: &PathReport, mask: i64) -> u64 {
    (p.inputs.args[1] & mask) as u64
}

/// A fill of a symbolic length at a symbolic address keeps both: each
/// path writes the bytes its inputs say, whatever the splitting.
#[test]
fn a_fill_of_a_symbolic_length_at_a_symbolic_address_keeps_both() {
    for split in [None, Some(Split::default())] {
        let r = explored("fill_length", split);
        no_concretised(&r);
        let mut hits = [false; 2];
        for p in &r.paths {
            let (d, n) = (8192 + input(p, 15), input_2(p, 15));
            let hit = (d..d + n).contains(&8200);
            hits[usize::from(hit)] = true;
            assert_eq!(returned(p), u64::from(hit), "{n} bytes at {d} ({split:?})");
        }
        assert_eq!(hits, [true; 2], "both sides of byte 8200 ({split:?})");
    }
}

/// Split into pieces, a range whose first byte lies in one piece writes
/// the bytes it reaches in the next.
#[test]
fn a_fill_of_a_symbolic_length_from_one_piece_reaches_into_the_next() {
    for split in [None, Some(Split::default())] {
        let r = explored("fill_length_across", split);
        no_concretised(&r);
        let mut straddled = false;
        for p in &r.paths {
            let (d, n) = (8192 + input(p, 255), input_2(p, 15));
            let hit = (d..d + n).contains(&8321);
            straddled |= hit && d < 8320;
            assert_eq!(returned(p), u64::from(hit), "{n} bytes at {d} ({split:?})");
        }
        assert!(
            straddled,
            "a range from the first piece into the second ({split:?})"
        );
    }
}

#[test]
fn a_copy_of_a_symbolic_length_from_a_symbolic_address_moves_its_bytes() {
    let r = explored("copy_length_from", None);
    no_concretised(&r);
    for p in &r.paths {
        let (i, n) = (input(p, 63), input_2(p, 15));
        let expected = if n > 5 { table_byte(i + 5) } else { 0 };
        assert_eq!(returned(p), u64::from(expected), "{n} bytes from {i}");
    }
    assert!(r.paths.iter().any(|p| input_2(p, 15) > 5));
}

#[test]
fn an_overlapping_copy_of_a_symbolic_length_to_a_symbolic_address_moves_as_memmove_does() {
    let r = explored("move_length_within", None);
    no_concretised(&r);
    for p in &r.paths {
        let (d, n) = (input(p, 7) as usize, input_2(p, 15) as usize);
        let mut after = table();
        after.copy_within(0..n, d);
        assert_eq!(returned(p), word(&after, 8), "{n} bytes moved by {d}");
    }
}

/// Where a range of a symbolic length at a symbolic address may pass
/// memory's end, the length is made concrete there and the path traps;
/// where it fits, nothing is made concrete. An empty range past the end
/// traps too, as Wasm says.
#[test]
fn a_symbolic_length_at_a_symbolic_address_traps_only_where_the_range_leaves_memory() {
    let r = explored("fill_length_past_end", None);
    let mut trapped = 0;
    for p in &r.paths {
        let (d, n) = (65524 + input(p, 15), input_2(p, 15));
        let passes = d + n > 65536;
        assert_eq!(p.status == Status::Trapped, passes, "{n} bytes at {d}");
        if passes {
            trapped += 1;
            assert_eq!(p.trap, Some(Trap::OutOfBounds));
        } else {
            assert!(
                p.notes.iter().all(|n| !n.starts_with("concretised")),
                "{n} at {d}: {:?}",
                p.notes
            );
        }
    }
    assert!(trapped >= 1 && trapped < r.paths.len(), "{trapped}");
    let r = explored("fill_nothing_past_end", None);
    for p in &r.paths {
        assert_eq!(p.trap, Some(Trap::OutOfBounds), "{:?}", p.inputs.args);
    }
    assert!(r.paths.iter().any(|p| input_2(p, 15) == 0));
}

/// The input `n & mask` of a path and its outcome, by input.
fn by_length(r: &Report, mask: i64) -> Vec<(u64, Status)> {
    let mut all: Vec<(u64, Status)> = r.paths.iter().map(|p| (input(p, mask), p.status)).collect();
    all.sort_by_key(|&(n, _)| n);
    all
}

/// Explores `entry`, whose length is `n & mask` and whose result says
/// whether the byte at index `byte` of the range was written: two paths,
/// the length kept on both, each with the result its input gives.
fn length_decides_the_byte(entry: &str, mask: i64, byte: u64) {
    let r = explored(entry, None);
    no_concretised(&r);
    assert_eq!(r.paths.len(), 2, "{entry}");
    for p in &r.paths {
        let n = input(p, mask);
        assert_eq!(
            returned(p),
            u64::from(n > byte),
            "{entry}: n & {mask} = {n}"
        );
    }
}

#[test]
fn a_copy_of_a_symbolic_length_keeps_it_and_each_side_of_a_byte_is_a_path() {
    // Byte 20 came where n & 31 > 20, and is zero where not.
    length_decides_the_byte("copy_length", 31, 20);
}

#[test]
fn a_fill_of_a_symbolic_length_writes_its_first_bytes_only() {
    length_decides_the_byte("fill_length_at", 15, 4);
}

/// A fill of at most `most` bytes at an address anywhere in memory, then
/// the word at that address.
fn fill_then_read(most: u32) -> symplay_wasm::Module {
    let wat = format!(
        r#"(module (memory 1)
          (func (export "fill_read") (param $p i32) (param $n i32) (result i32)
            (if (i32.gt_u (local.get $n) (i32.const {most}))
              (then (return (i32.const -1))))
            (memory.fill (local.get $p) (i32.const 0x5a) (local.get $n))
            (i32.load (local.get $p))))"#
    );
    symplay_wasm::load(&wat::parse_str(wat).unwrap()).unwrap()
}

/// Each byte of a fill of a symbolic length at a symbolic address is a
/// write at `ite(k < n, p + k, p)`; one past the length writes `p`'s own
/// byte again, not a read of all the writes before it (whose terms nested
/// every earlier write: this run took 497,000 clauses for 64 bytes, 12
/// times those of 16, where it takes 70,000 now, and 44 s). The clauses
/// grow with the bytes, not with their square; and each path's word is
/// the one its input gives.
#[test]
fn a_fill_of_a_symbolic_length_at_a_symbolic_address_costs_the_solver_in_proportion_to_it() {
    let mut clauses = Vec::new();
    for most in [16, 64] {
        let r = explore(&fill_then_read(most), "fill_read", &Options::default()).unwrap();
        assert_eq!(r.stop_reason, "completed");
        for p in r.paths.iter().filter(|p| p.status == Status::Returned) {
            let n = p.inputs.args[1] as u64 & 0xffff_ffff;
            let expected = match n {
                _ if n > u64::from(most) => 0xffff_ffff,
                _ => (0..n.min(4)).fold(0, |w, k| w | 0x5a << (8 * k)),
            };
            assert_eq!(returned(p), expected, "{most}: {:?}", p.inputs);
        }
        clauses.push(r.stats.sat_clauses);
    }
    assert!(
        clauses[1] < 6 * clauses[0],
        "4 times the bytes, {} clauses against {}",
        clauses[1],
        clauses[0]
    );
}

#[test]
fn an_overlapping_copy_of_a_symbolic_length_moves_as_memmove_does() {
    let r = explored("move_length", None);
    no_concretised(&r);
    assert_eq!(r.paths.len(), 2);
    for p in &r.paths {
        let n = input(p, 15) as usize;
        let mut after = table();
        after.copy_within(0..n, 4);
        // Byte-by-byte forwards, byte 8 would be byte 0 where n > 4.
        assert_eq!(returned(p), u64::from(after[8]), "n & 15 = {n}");
    }
}

#[test]
fn a_symbolic_length_past_memorys_end_traps_only_where_it_is() {
    let r = explored("copy_length_past_end", None);
    let outcomes = by_length(&r, 15);
    assert_eq!(outcomes.len(), 2, "{outcomes:?}");
    // The range fits for n & 15 up to 6: one path, its length kept.
    let (fits, past) = (outcomes[0], outcomes[1]);
    assert!(fits.0 <= 6 && fits.1 == Status::Returned, "{outcomes:?}");
    // Past that, the length is made concrete and the copy traps.
    assert!(past.0 > 6 && past.1 == Status::Trapped, "{outcomes:?}");
    let trapped = r
        .paths
        .iter()
        .find(|p| p.status == Status::Trapped)
        .unwrap();
    assert_eq!(trapped.trap, Some(Trap::OutOfBounds));
    assert!(trapped
        .notes
        .iter()
        .any(|n| n.starts_with("concretised the memory.copy source size")));
    let returned = r
        .paths
        .iter()
        .find(|p| p.status == Status::Returned)
        .unwrap();
    assert!(returned.notes.iter().all(|n| !n.starts_with("concretised")));
}

/// A copy between two heap blocks of `((q - p) >> 4) & k` bytes, a length
/// taken between the blocks' pointers.
fn between_blocks() -> symplay_wasm::Module {
    let wat = r#"(module
      (import "env" "malloc" (func $malloc (param i32) (result i32)))
      (memory 1)
      (func (export "copy_between") (param $k i32) (result i32)
        (local $p i32) (local $q i32)
        (local.set $p (call $malloc (i32.const 64)))
        (local.set $q (call $malloc (i32.const 64)))
        (memory.copy (local.get $q) (local.get $p)
          (i32.and (i32.shr_u (i32.sub (local.get $q) (local.get $p)) (i32.const 4))
            (local.get $k)))
        (i32.const 0)))"#;
    symplay_wasm::load(&wat::parse_str(wat).unwrap()).unwrap()
}

/// Over concrete pointers the length is a number and `k`: kept. Over
/// base symbols it is the distance between two blocks, which a layout
/// changes: made concrete, as the host takes it, which keeps both blocks
/// where they are.
#[test]
fn a_length_taken_between_two_pointers_over_base_symbols_is_made_concrete() {
    for bases in [BaseMode::Concrete, BaseMode::Symbolic] {
        let mut options = Options {
            search: SearchKind::Dfs,
            ..Options::default()
        };
        options.heap.bases = bases;
        let r = explore(&between_blocks(), "copy_between", &options).unwrap();
        let concretised = r
            .paths
            .iter()
            .flat_map(|p| &p.notes)
            .any(|n| n.starts_with("concretised the memory.copy source size"));
        assert_eq!(concretised, bases == BaseMode::Symbolic, "{bases:?}");
        assert!(
            r.paths.iter().all(|p| p.status == Status::Returned),
            "{bases:?}"
        );
    }
}

/// Two blocks of 16 bytes, their pointers stored at 256 and 260; the one
/// `which & 1` picks cleared for `17 + (n & 191)` bytes: an overflow of
/// either. In a segment the second block lies less than 192 bytes after
/// the first, so some ranges' last byte lands in it.
fn two_blocks() -> symplay_wasm::Module {
    let wat = r#"(module
      (import "env" "malloc" (func $malloc (param i32) (result i32)))
      (memory 1)
      (func (export "clear_either") (param $which i32) (param $n i32) (result i32)
        (i32.store (i32.const 256) (call $malloc (i32.const 16)))
        (i32.store (i32.const 260) (call $malloc (i32.const 16)))
        (memory.fill
          (i32.load (i32.add (i32.const 256)
            (i32.shl (i32.and (local.get $which) (i32.const 1)) (i32.const 2))))
          (i32.const 0)
          (i32.add (i32.const 17) (i32.and (local.get $n) (i32.const 191))))
        (i32.const 0)))"#;
    symplay_wasm::load(&wat::parse_str(wat).unwrap()).unwrap()
}

/// A block of 16 bytes cleared for `n & 15` bytes from its byte
/// `at & 31`.
fn cleared_from() -> symplay_wasm::Module {
    let wat = r#"(module
      (import "env" "malloc" (func $malloc (param i32) (result i32)))
      (memory 1)
      (func (export "clear_from") (param $at i32) (param $n i32) (result i32)
        (memory.fill
          (i32.add (call $malloc (i32.const 16)) (i32.and (local.get $at) (i32.const 31)))
          (i32.const 0)
          (i32.and (local.get $n) (i32.const 15)))
        (i32.const 0)))"#;
    symplay_wasm::load(&wat::parse_str(wat).unwrap()).unwrap()
}

/// A range whose first byte already lies past its block is an overflow
/// of the whole range, as long as the path makes it, and one whose first
/// byte lies inside but last past is one too; every path that returns
/// fits.
#[test]
fn a_range_of_a_symbolic_length_that_leaves_its_block_is_an_overflow_of_its_length() {
    let r = explore(&cleared_from(), "clear_from", &Options::default()).unwrap();
    let mut starts_past = false;
    for p in &r.paths {
        let (at, n) = (input(p, 31), input_2(p, 15));
        match &p.memory_error {
            Some(e) => {
                assert_eq!(e.kind.name(), "heap_overflow");
                assert!(at + n > 16, "{n} bytes from {at}");
                assert_eq!(
                    (e.offset, u64::from(e.width)),
                    (Some(at as i64), n),
                    "{n} bytes from {at}"
                );
                starts_past |= at >= 16;
            }
            None => assert!(n == 0 || at + n <= 16, "{n} bytes from {at}"),
        }
    }
    assert!(starts_past);
}

/// A range of a symbolic length from one member of a segment whose last
/// byte lands in the next member is an overflow of the first, as it is
/// with a fork per block: no path returns. (With a fork per block each
/// block's overflow is a path; a segment's are one.)
#[test]
fn a_symbolic_length_from_one_segment_member_into_the_next_is_an_overflow() {
    for segments in [None, Some(Segments::default())] {
        let mut options = Options {
            search: SearchKind::Dfs,
            ..Options::default()
        };
        options.heap.bases = BaseMode::Symbolic;
        options.heap.segments = segments;
        let r = explore(&two_blocks(), "clear_either", &options).unwrap();
        assert!(!r.paths.is_empty());
        for p in &r.paths {
            let e = p
                .memory_error
                .as_ref()
                .unwrap_or_else(|| panic!("{segments:?}: {:?} returned", p.inputs.args));
            assert_eq!(e.kind.name(), "heap_overflow", "{segments:?}");
        }
        let forked = r.paths.len() == 2;
        assert_eq!(forked, segments.is_none(), "{segments:?}");
    }
}
