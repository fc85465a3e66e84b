//! Dynamic segments (`--resolve segment`, `relocatable_and_caching.md`
//! §2.2) on small modules that read and write through a pointer loaded
//! from a table of block pointers at a symbolic index: the blocks it may
//! point into move into one segment, the access does not fork over them,
//! and every bug of a fork per block is still found, of the same kind, at
//! the same access and offset: an overflow into the gap past a member, a
//! use of a block freed before the access or of a member freed since its
//! segment was made. (Which block a path's bug names is its model's
//! choice: all faults of one access are one path, either way.) A block whose address a decision observed stays where it is.

use std::collections::BTreeSet;
use symplay_engine::exec::{explore, Options};
use symplay_engine::memory::{BaseMode, Segments};
use symplay_engine::report::{Report, Status};
use symplay_engine::search::SearchKind;

/// Blocks whose pointers are kept in a table at 32 (unchecked memory),
/// and a pointer read from it at the index `i` (symbolic): `table[i & 1]`
/// or, with three blocks, `table[i & 3]` with the first block at both
/// ends.
const TABLE: &str = r#"
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (import "env" "free" (func $free (param i32)))
  (import "symplay" "symbolic_i32" (func $symbolic_i32 (param i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "i\00j\00")

  ;; Two 16-byte blocks; a byte written at p + j, j < 32: past the block
  ;; when j >= 16 (into the gap after it).
  (func (export "overflow") (result i32)
    (local $p i32) (local $j i32)
    (i32.store (i32.const 32) (call $malloc (i32.const 16)))
    (i32.store (i32.const 36) (call $malloc (i32.const 16)))
    (local.set $p (i32.load (i32.add (i32.const 32)
      (i32.shl (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 1)) (i32.const 2)))))
    (local.set $j (i32.and (call $symbolic_i32 (i32.const 18)) (i32.const 31)))
    (i32.store8 (i32.add (local.get $p) (local.get $j)) (i32.const 7))
    (call $free (i32.load (i32.const 32)))
    (call $free (i32.load (i32.const 36)))
    (local.get $j))

  ;; Two blocks, a pointer to one read at a symbolic index, and four
  ;; reads through it in a loop: one instruction, four accesses.
  (func (export "loop_reads") (result i32)
    (local $p i32) (local $k i32) (local $sum i32)
    (i32.store (i32.const 32) (call $malloc (i32.const 16)))
    (i32.store (i32.const 36) (call $malloc (i32.const 16)))
    (i32.store8 offset=2 (i32.load (i32.const 36)) (i32.const 5))
    (local.set $p (i32.load (i32.add (i32.const 32)
      (i32.shl (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 1)) (i32.const 2)))))
    (loop $next
      (local.set $sum (i32.add (local.get $sum)
        (i32.load8_u (i32.add (local.get $p) (local.get $k)))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br_if $next (i32.lt_u (local.get $k) (i32.const 4))))
    (call $free (i32.load (i32.const 32)))
    (call $free (i32.load (i32.const 36)))
    (local.get $sum))

  ;; Three blocks, the third freed before a read through table[i & 3]:
  ;; the two live ones merge, the freed one is a use after free.
  (func (export "freed_before") (result i32)
    (local $p i32)
    (i32.store (i32.const 32) (call $malloc (i32.const 16)))
    (i32.store (i32.const 36) (call $malloc (i32.const 16)))
    (i32.store (i32.const 40) (call $malloc (i32.const 16)))
    (i32.store (i32.const 44) (i32.load (i32.const 32)))
    (call $free (i32.load (i32.const 40)))
    (local.set $p (i32.load (i32.add (i32.const 32)
      (i32.shl (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 3)) (i32.const 2)))))
    (i32.load8_u (local.get $p))
    (call $free (i32.load (i32.const 32)))
    (call $free (i32.load (i32.const 36))))

  ;; Two blocks merged by a first read through p; then the second is
  ;; freed and p read again: a use after free of a member.
  (func (export "freed_member") (result i32)
    (local $p i32) (local $sum i32)
    (i32.store (i32.const 32) (call $malloc (i32.const 16)))
    (i32.store (i32.const 36) (call $malloc (i32.const 16)))
    (local.set $p (i32.load (i32.add (i32.const 32)
      (i32.shl (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 1)) (i32.const 2)))))
    (local.set $sum (i32.load8_u (local.get $p)))
    (call $free (i32.load (i32.const 36)))
    (local.set $sum (i32.add (local.get $sum) (i32.load8_u (local.get $p))))
    (call $free (i32.load (i32.const 32)))
    (local.get $sum))

  ;; Which block lies higher decides a branch: both are pinned, and the
  ;; read through p forks over them.
  (func (export "ordered") (result i32)
    (local $p i32) (local $higher i32)
    (i32.store (i32.const 32) (call $malloc (i32.const 16)))
    (i32.store (i32.const 36) (call $malloc (i32.const 16)))
    (if (i32.gt_u (i32.load (i32.const 32)) (i32.load (i32.const 36)))
      (then (local.set $higher (i32.const 1))))
    (local.set $p (i32.load (i32.add (i32.const 32)
      (i32.shl (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 1)) (i32.const 2)))))
    (i32.store8 (local.get $p) (local.get $higher))
    (call $free (i32.load (i32.const 32)))
    (call $free (i32.load (i32.const 36)))
    (local.get $higher)))
"#;

/// Blocks a segment moves keep what their slots promised: the reserve of
/// a block's slot past its bytes, the alignment asked for, and the input
/// buffer made inside one.
const SLOTS: &str = r#"
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (import "env" "aligned_alloc" (func $aligned_alloc (param i32 i32) (result i32)))
  (import "symplay" "symbolic_i32" (func $symbolic_i32 (param i32) (result i32)))
  (import "symplay" "symbolic_sized_buffer" (func $sized (param i32 i32 i32) (result i32)))
  (import "symplay" "assert" (func $assert (param i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "i\00j\00b\00k\00")

  ;; Two 16-byte blocks merged by a read through table[i & 1]; then a
  ;; write at a + 48 + (j & 7): past a's bytes, in its slot's reserve.
  (func (export "reserve") (result i32)
    (local $j i32)
    (i32.store (i32.const 32) (call $malloc (i32.const 16)))
    (i32.store (i32.const 36) (call $malloc (i32.const 16)))
    (drop (i32.load8_u (i32.load (i32.add (i32.const 32)
      (i32.shl (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 1)) (i32.const 2))))))
    (local.set $j (i32.add (i32.const 48) (i32.and (call $symbolic_i32 (i32.const 18)) (i32.const 7))))
    (i32.store8 (i32.add (i32.load (i32.const 32)) (local.get $j)) (i32.const 1))
    (i32.const 0))

  ;; Two 64-byte-aligned blocks merged; the alignment asserted after.
  (func (export "aligned") (result i32)
    (i32.store (i32.const 32) (call $aligned_alloc (i32.const 64) (i32.const 16)))
    (i32.store (i32.const 36) (call $aligned_alloc (i32.const 64) (i32.const 16)))
    (drop (i32.load8_u (i32.load (i32.add (i32.const 32)
      (i32.shl (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 1)) (i32.const 2))))))
    (call $assert (i32.eqz (i32.and (i32.load (i32.const 32)) (i32.const 63))))
    (i32.const 0))

  ;; a and b merged; an input of at most 8 bytes made in a; a read that
  ;; may land in a or c; then a[k & 7], past the input's length when
  ;; k & 7 is not below it.
  (func (export "input_inside") (result i32)
    (local $n i32)
    (i32.store (i32.const 32) (call $malloc (i32.const 16)))
    (i32.store (i32.const 36) (call $malloc (i32.const 16)))
    (i32.store (i32.const 40) (call $malloc (i32.const 16)))
    (drop (i32.load8_u (i32.load (i32.add (i32.const 32)
      (i32.shl (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 1)) (i32.const 2))))))
    (local.set $n (call $sized (i32.load (i32.const 32)) (i32.const 8) (i32.const 20)))
    (drop (i32.load8_u offset=12 (i32.load (i32.add (i32.const 32)
      (i32.shl (i32.and (call $symbolic_i32 (i32.const 18)) (i32.const 1)) (i32.const 3))))))
    (i32.load8_u (i32.add (i32.load (i32.const 32))
      (i32.and (call $symbolic_i32 (i32.const 22)) (i32.const 7))))))
"#;

#[test]
fn moved_blocks_keep_their_slots_reserve_their_alignment_and_their_inputs() {
    for entry in ["reserve", "aligned", "input_inside"] {
        let (fork, merged) = (
            explored_in(SLOTS, entry, false),
            explored_in(SLOTS, entry, true),
        );
        assert!(merged.stats.segments > 0, "{entry}");
        let ends = |r: &Report| -> BTreeSet<String> {
            r.paths
                .iter()
                .map(|p| {
                    format!(
                        "{:?} {:?}",
                        p.status,
                        p.memory_error.as_ref().map(|e| (e.kind, e.offset))
                    )
                })
                .collect()
        };
        assert_eq!(ends(&merged), ends(&fork), "{entry}");
    }
}

/// `entry` of [`TABLE`] explored depth first, under segments or not (each
/// over symbolic bases).
fn explored(entry: &str, segments: bool) -> Report {
    explored_in(TABLE, entry, segments)
}

/// `entry` of the module `source` (WAT) explored as [`explored`] does.
fn explored_in(source: &str, entry: &str, segments: bool) -> Report {
    explored_under(source, entry, segments.then(Segments::default))
}

/// `entry` of the module `source` (WAT) explored depth first over symbolic
/// bases, with `segments`.
fn explored_under(source: &str, entry: &str, segments: Option<Segments>) -> Report {
    let module = symplay_wasm::load(&wat::parse_str(source).unwrap()).unwrap();
    let mut options = Options {
        search: SearchKind::Dfs,
        ..Options::default()
    };
    options.heap.bases = BaseMode::Symbolic;
    options.heap.segments = segments;
    let report = explore(&module, entry, &options).unwrap();
    assert_eq!(report.stop_reason, "completed", "{entry}");
    report
}

/// Context-based resolution (§2.3): the first read through the pointer
/// merges the two blocks, asking each; the loop's later reads at the same
/// instruction know their blocks' allocation contexts and ask once, that
/// the pointer lands in the segment, instead of asking every place it may
/// reach. The paths and results are those of asking every block.
#[test]
fn a_loops_later_reads_are_placed_by_their_blocks_contexts_with_one_query() {
    let with = explored_under(TABLE, "loop_reads", Some(Segments::default()));
    let without = explored_under(
        TABLE,
        "loop_reads",
        Some(Segments {
            context_depth: None,
            ..Segments::default()
        }),
    );
    assert_eq!(with.stats.segments, 1);
    assert_eq!(without.stats.segments, 1);
    // Each read after the merge, at the one instruction of the loop.
    assert_eq!(with.stats.context_resolutions, 4);
    assert_eq!(without.stats.context_resolutions, 0);
    assert!(
        with.stats.queries < without.stats.queries,
        "{} against {}",
        with.stats.queries,
        without.stats.queries
    );
    let results = |r: &Report| -> BTreeSet<String> {
        r.paths
            .iter()
            .map(|p| format!("{:?} {:?}", p.status, p.returns))
            .collect()
    };
    assert_eq!(results(&with), results(&without));
    assert_eq!(with.paths.len(), without.paths.len());
}

/// Each memory error of `r`: kind, access and offset.
fn bugs(r: &Report) -> BTreeSet<String> {
    r.paths
        .iter()
        .filter_map(|p| p.memory_error.as_ref())
        .map(|e| format!("{:?} {:?} at {:?}", e.kind, e.access, e.offset))
        .collect()
}

#[test]
fn an_overflow_past_a_member_is_found_at_the_same_offset() {
    let (fork, merged) = (explored("overflow", false), explored("overflow", true));
    assert_eq!(merged.stats.segments, 1);
    assert_eq!(fork.stats.segments, 0);
    assert!(!bugs(&fork).is_empty());
    assert_eq!(bugs(&merged), bugs(&fork));
    // The write fits in either block on one path, where forking made one
    // path per block.
    let fits = |r: &Report| {
        r.paths
            .iter()
            .filter(|p| p.status == Status::Returned)
            .count()
    };
    assert_eq!((fits(&fork), fits(&merged)), (2, 1));
    // Both blocks say which segment they are in.
    let ok = merged
        .paths
        .iter()
        .find(|p| p.status == Status::Returned)
        .unwrap();
    let segment = ok.objects[0].segment.as_ref().unwrap();
    assert_eq!(segment.members, [0, 1]);
    assert_eq!(ok.objects[1].segment.as_ref(), Some(segment));
    assert!(ok.objects[0].state_text(ok).ends_with(", in segment 0"));
    assert!(segment
        .describe()
        .starts_with("segment 0: blocks #0 and #1 moved next to each other at 0x"));
}

#[test]
fn a_block_freed_before_the_access_stays_out_of_the_segment() {
    let (fork, merged) = (
        explored("freed_before", false),
        explored("freed_before", true),
    );
    assert_eq!(merged.stats.segments, 1);
    assert_eq!(bugs(&merged), bugs(&fork));
    assert_eq!(bugs(&merged).len(), 1);
    assert!(bugs(&merged).iter().all(|b| b.starts_with("UseAfterFree")));
    let ok = merged
        .paths
        .iter()
        .find(|p| p.status == Status::Returned)
        .unwrap();
    let members = &ok.objects[0].segment.as_ref().unwrap().members;
    assert_eq!(members, &[0, 1]);
    assert!(ok.objects[2].segment.is_none());
}

#[test]
fn a_member_freed_since_the_segment_was_made_is_a_use_after_free() {
    let (fork, merged) = (
        explored("freed_member", false),
        explored("freed_member", true),
    );
    assert_eq!(merged.stats.segments, 1);
    assert_eq!(bugs(&merged), bugs(&fork));
    assert_eq!(bugs(&merged).len(), 1);
    assert!(bugs(&merged).iter().all(|b| b.starts_with("UseAfterFree")));
    // No leak: the member freed through its base symbol is the moved block.
    assert!(merged.paths.iter().all(|p| p.leaks.is_empty()));
}

#[test]
fn blocks_whose_order_a_branch_observed_are_pinned_and_not_merged() {
    let (fork, merged) = (explored("ordered", false), explored("ordered", true));
    assert_eq!(merged.stats.segments, 0);
    assert_eq!(merged.paths.len(), fork.paths.len());
    assert_eq!(merged.stats.forks, fork.stats.forks);
    for p in &merged.paths {
        assert!(p.objects.iter().all(|o| o.pinned_at.is_some()));
    }
}

/// Three 16-byte blocks a, c and b, in that order, their pointers in a
/// table at 32; `D` stands for the distance from a to b, which the layout
/// probe finds. Each entry makes a decision through a's pointer that
/// only the layout makes (a + D is b), then reads through `table[i & 1]`
/// (a or b; a or c in `free_stray`), which would merge them, then makes
/// the decision again: moving the blocks after the first would change it.
const STRAY: &str = r#"
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (import "env" "free" (func $free (param i32)))
  (import "symplay" "symbolic_i32" (func $symbolic_i32 (param i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "i\00")

  (func $blocks
    (i32.store (i32.const 32) (call $malloc (i32.const 16)))
    (i32.store (i32.const 40) (call $malloc (i32.const 16)))
    (i32.store (i32.const 36) (call $malloc (i32.const 16))))

  ;; A byte of table[i & 1] (a or b): the read that would merge them.
  (func $read_either (result i32)
    (i32.load8_u (i32.load (i32.add (i32.const 32)
      (i32.shl (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 1)) (i32.const 2))))))

  (func (export "layout") (call $blocks))

  ;; A write through a + D lands in b; after the read, a + D is read back.
  (func (export "access_stray") (result i32)
    (call $blocks)
    (i32.store8 (i32.add (i32.load (i32.const 32)) (i32.const D)) (i32.const 7))
    (drop (call $read_either))
    (i32.load8_u (i32.add (i32.load (i32.const 32)) (i32.const D))))

  ;; free(a + D) frees b; after a read of a or c, free(a + D) again is
  ;; the double free of b.
  (func (export "free_stray")
    (call $blocks)
    (call $free (i32.add (i32.load (i32.const 32)) (i32.const D)))
    (i32.store (i32.const 36) (i32.load (i32.const 40)))
    (drop (call $read_either))
    (call $free (i32.add (i32.load (i32.const 32)) (i32.const D))))

  ;; A byte written at a + 31 rounded down to 32 (offset 0 or 16 of a,
  ;; here 64 bytes long, as a's address lies), read back after the read
  ;; of a or b.
  (func (export "rounded") (result i32)
    (i32.store (i32.const 32) (call $malloc (i32.const 64)))
    (i32.store (i32.const 40) (call $malloc (i32.const 64)))
    (i32.store (i32.const 36) (call $malloc (i32.const 64)))
    (i32.store8 (i32.and (i32.add (i32.load (i32.const 32)) (i32.const 31)) (i32.const -32))
      (i32.const 7))
    (drop (call $read_either))
    (i32.load8_u (i32.and (i32.add (i32.load (i32.const 32)) (i32.const 31)) (i32.const -32))))

  ;; A hash of a's address (bits 4 to 9, as a pointer-keyed table takes
  ;; them) decides a branch; after the read it is asked again.
  (func (export "hashed") (result i32)
    (local $h i32)
    (call $blocks)
    (local.set $h (i32.and (i32.xor (i32.shr_u (i32.load (i32.const 32)) (i32.const 4))
      (i32.shr_u (i32.load (i32.const 32)) (i32.const 9))) (i32.const 63)))
    (if (result i32) (i32.eq (local.get $h) (i32.const H))
      (then
        (drop (call $read_either))
        (i32.eq (i32.const H) (i32.and (i32.xor (i32.shr_u (i32.load (i32.const 32)) (i32.const 4))
          (i32.shr_u (i32.load (i32.const 32)) (i32.const 9))) (i32.const 63))))
      (else (i32.const -1))))

  ;; Whether b lies D bytes from a, either way (the square of the
  ;; distance), decides a branch; after the read it is asked again.
  (func (export "distance") (result i32)
    (local $d i32) (local $near i32)
    (call $blocks)
    (local.set $d (i32.sub (i32.load (i32.const 36)) (i32.load (i32.const 32))))
    (if (i32.eq (i32.mul (local.get $d) (local.get $d)) (i32.const D2))
      (then (local.set $near (i32.const 1))))
    (drop (call $read_either))
    (local.set $d (i32.sub (i32.load (i32.const 36)) (i32.load (i32.const 32))))
    (i32.add (local.get $near)
      (i32.shl (i32.eq (i32.mul (local.get $d) (local.get $d)) (i32.const D2)) (i32.const 1)))))
"#;

#[test]
fn a_decision_or_access_another_layout_would_change_pins_its_blocks() {
    let probe = STRAY
        .replace("D2", "0")
        .replace(" H)", " 0)")
        .replace(" D)", " 0)");
    let layout = explored_in(&probe, "layout", false);
    let bases: Vec<u64> = layout.paths[0].objects.iter().map(|o| o.base).collect();
    let d = bases[2] - bases[0];
    assert!(bases[0] < bases[1] && bases[1] < bases[2], "{bases:?}");
    let a = bases[0];
    let module = STRAY
        .replace("D2", &(d * d).to_string())
        .replace(" H)", &format!(" {})", ((a >> 4) ^ (a >> 9)) & 63))
        .replace(" D)", &format!(" {d})"));
    for entry in [
        "access_stray",
        "free_stray",
        "distance",
        "rounded",
        "hashed",
    ] {
        let (fork, merged) = (
            explored_in(&module, entry, false),
            explored_in(&module, entry, true),
        );
        let ends = |r: &Report| -> BTreeSet<String> {
            r.paths
                .iter()
                .map(|p| {
                    let error = p.memory_error.as_ref().map(|e| e.kind);
                    format!("{:?} {:?} {:?}", p.status, p.returns, error)
                })
                .collect()
        };
        assert_eq!(ends(&merged), ends(&fork), "{entry}");
        assert_eq!(merged.stats.segments, 0, "{entry}");
        // a, and the blocks the read then forks over (a pointer read at a
        // symbolic index may be either): b, or in `free_stray` c. A block
        // nothing met stays free to move.
        let objects = &merged.paths[0].objects;
        assert!(objects[0].pinned_at.is_some(), "{entry}");
        assert!(objects[2].pinned_at.is_some(), "{entry}");
        if entry != "free_stray" {
            assert!(objects[1].pinned_at.is_none(), "{entry}");
        }
    }
}
