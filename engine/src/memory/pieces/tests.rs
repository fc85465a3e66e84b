//! The pieces of split objects and regions: which an access can start
//! in, their bytes, and the conditions that tell them apart.

use super::*;
use crate::expr::{BvBinOp, Sort};
use crate::solver::{SolveResult, Solver};

const SPLIT: Split = Split {
    threshold: 300,
    piece: 128,
};

fn at(object: u32, pointer: TermId, plus: u32) -> Place {
    Place::Symbolic {
        object: ObjectId(object),
        pointer,
        plus,
        piece: None,
    }
}

fn holds(store: &mut TermStore, cond: TermId, pointer: TermId, value: u64) -> bool {
    let v = store.bv_const(32, value);
    let is = store.eq(pointer, v);
    matches!(
        Solver::default().check(store, &[cond, is]),
        SolveResult::Sat(_)
    )
}

#[test]
fn an_object_over_the_threshold_is_cut_every_piece_from_its_first_byte() {
    let mut s = TermStore::new();
    let p = s.fresh("p", Sort::Bv(32));
    // 1,200 bytes at 1,000: nine whole pieces and one of 48 bytes.
    let span = ((1000, 2199), &[1000][..]);
    let pieces = Pieces::of(&s, at(3, p, 0), 4, span, SPLIT).unwrap();
    assert_eq!(pieces.len(), 10);
    let first = pieces.piece(0);
    assert_eq!((first.first, first.last, first.reach), (1000, 1127, 1130));
    let last = pieces.piece(9);
    // The last piece's array never reaches past the object.
    assert_eq!((last.first, last.last, last.reach), (2152, 2199, 2199));
    match pieces.place(1) {
        Place::Symbolic {
            object,
            piece: Some(piece),
            ..
        } => assert_eq!((object, piece.first), (ObjectId(3), 1128)),
        other => panic!("a piece's place: {other:?}"),
    }
    // No more than a first byte from which the access fits: an access of
    // 4 bytes cannot start in the last 3 bytes, but can in the last piece.
    let wide = Pieces::of(&s, at(3, p, 0), 100, span, SPLIT).unwrap();
    assert_eq!(wide.len(), 9, "a 100-byte access cannot start past 2100");
}

#[test]
fn an_object_at_most_the_threshold_or_one_reachable_piece_stays_whole() {
    let mut s = TermStore::new();
    let p = s.fresh("p", Sort::Bv(32));
    let small = ((1000, 1299), &[1000][..]);
    assert_eq!(Pieces::of(&s, at(0, p, 0), 1, small, SPLIT), None);
    // `p & 63` plus a constant reaches 64 bytes: one piece.
    let mask = s.bv_const(32, 63);
    let masked = s.bin(BvBinOp::And, p, mask);
    let large = ((0, 4095), &[0][..]);
    assert_eq!(Pieces::of(&s, at(0, masked, 130), 1, large, SPLIT), None);
    // `p & 255` from 100 reaches bytes 100 to 355: pieces 0 to 2.
    let mask = s.bv_const(32, 255);
    let masked = s.bin(BvBinOp::And, p, mask);
    let pieces = Pieces::of(&s, at(0, masked, 100), 1, large, SPLIT).unwrap();
    assert_eq!(pieces.len(), 3);
    assert_eq!(pieces.piece(0).first, 0);
    assert_eq!(pieces.piece(2).last, 383);
    // A concrete place or a piece is never split again.
    let piece = pieces.place(0);
    assert_eq!(Pieces::of(&s, piece, 1, large, SPLIT), None);
}

#[test]
fn regions_are_parts_and_only_the_large_ones_are_cut() {
    let mut s = TermStore::new();
    let p = s.fresh("p", Sort::Bv(32));
    // Data 1,024..1,200 (176 bytes, whole), a stack 1,200..2,000 (cut in
    // 128-byte pieces from 1,200), the rest 2,000..2,100 (whole).
    let span = ((1024, 2099), &[1024, 1200, 2000][..]);
    let pieces = Pieces::of(&s, at(u32::MAX, p, 0), 1, span, SPLIT).unwrap();
    let bytes: Vec<(u64, u64)> = (0..pieces.len())
        .map(|i| (pieces.piece(i).first, pieces.piece(i).last))
        .collect();
    assert_eq!(
        bytes,
        [
            (1024, 1199),
            (1200, 1327),
            (1328, 1455),
            (1456, 1583),
            (1584, 1711),
            (1712, 1839),
            (1840, 1967),
            (1968, 1999),
            (2000, 2099)
        ]
    );
    // Small regions alone split nothing.
    let small = ((1024, 1599), &[1024, 1300, 1500][..]);
    assert_eq!(Pieces::of(&s, at(u32::MAX, p, 0), 1, small, SPLIT), None);
}

#[test]
fn a_run_of_pieces_holds_exactly_where_the_access_starts_in_it() {
    let mut s = TermStore::new();
    let p = s.fresh("p", Sort::Bv(32));
    let span = ((1000, 2199), &[1000][..]);
    let pieces = Pieces::of(&s, at(0, p, 8), 4, span, SPLIT).unwrap();
    // The access starts at p + 8.
    let run = pieces.condition(&mut s, 1..3);
    for (pointer, inside) in [
        (1119, false),
        (1120, true),
        (1375, true),
        (1376, false),
        (0xffff_fff8, false),
    ] {
        assert_eq!(holds(&mut s, run, p, pointer), inside, "p = {pointer}");
    }
    // Each single piece's condition holds for its own bytes only, so the
    // pieces' conditions are disjoint.
    for i in 0..pieces.len() {
        let c = pieces.condition(&mut s, i..i + 1);
        let piece = pieces.piece(i);
        assert!(holds(&mut s, c, p, piece.first - 8), "piece {i}");
        assert!(holds(&mut s, c, p, piece.last - 8), "piece {i}");
        assert!(!holds(&mut s, c, p, piece.last - 7), "piece {i}");
    }
}

#[test]
fn a_pointer_s_piece_is_found_by_its_value() {
    let mut s = TermStore::new();
    let p = s.fresh("p", Sort::Bv(32));
    let span = ((1024, 2099), &[1024, 1200, 2000][..]);
    let pieces = Pieces::of(&s, at(u32::MAX, p, 4), 1, span, SPLIT).unwrap();
    // The access starts at p + 4.
    assert_eq!(pieces.index_of(1020), Some(0));
    assert_eq!(pieces.index_of(1195), Some(0));
    assert_eq!(pieces.index_of(1196), Some(1));
    assert_eq!(pieces.index_of(1964), Some(7));
    assert_eq!(pieces.index_of(2095), Some(8));
    assert_eq!(pieces.index_of(2096), None, "past the span");
    assert_eq!(pieces.index_of(1019), None, "before it");
    assert_eq!(pieces.index_of(u64::MAX), None);
    for i in 0..pieces.len() {
        assert_eq!(pieces.index_of(pieces.piece(i).first - 4), Some(i));
    }
    assert_eq!(pieces.bytes(), (1024, 2099));
}
