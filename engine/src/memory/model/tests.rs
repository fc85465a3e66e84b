//! The interface as the interpreter uses it: resolve, then access.

use super::*;
use crate::expr::Sort;
use crate::memory::Fault;
use crate::memory::ObjectId;
use crate::solver::{SolveResult, Solver};

const PAGE: u64 = 65536;

fn sat(store: &mut TermStore, assertions: &[TermId]) -> bool {
    matches!(
        Solver::default().check(store, assertions),
        SolveResult::Sat(_)
    )
}

#[test]
fn a_concrete_access_lands_in_the_memory_or_out_of_bounds() {
    let mut s = TermStore::new();
    let m = MemoryModel::flat(&mut s, 1, None);
    let at = |offset| {
        Ok(Place::Concrete(Spot {
            object: ObjectId(0),
            offset,
        }))
    };
    let outside = Err(Fault::OutOfBounds);
    let cases = [
        (PAGE - 4, 0, 4, at(PAGE - 4)),
        (PAGE - 4, 1, 4, outside),
        (PAGE - 8, 4, 4, at(PAGE - 4)),
        (PAGE, 0, 0, at(PAGE)),
        (PAGE, 0, 1, outside),
        (0xffff_ffff, 0xffff_ffff, 8, outside),
    ];
    for (address, plus, width, expected) in cases {
        let found = m.resolve(&mut s, Pointer::Con(address), plus, width);
        assert_eq!(found, Resolution::Certain(expected), "{address} + {plus}");
    }
    assert_eq!(m.resolve_concrete(u64::MAX, 2), None, "no overflow");
}

#[test]
fn a_symbolic_access_has_one_case_inside_and_one_outside_that_split_every_pointer() {
    let mut s = TermStore::new();
    let m = MemoryModel::flat(&mut s, 1, None);
    let p = s.declare("p", Sort::Bv(32)).unwrap();
    let Resolution::Cases(cases) = m.resolve(&mut s, Pointer::Sym(p), 2, 4) else {
        panic!("a symbolic pointer has cases");
    };
    let inside: Vec<_> = cases.iter().filter(|c| c.target.is_ok()).collect();
    let outside: Vec<_> = cases.iter().filter(|c| c.target.is_err()).collect();
    assert_eq!((inside.len(), outside.len()), (1, 1));
    let (i, o) = (inside[0].condition, outside[0].condition);
    assert!(!sat(&mut s, &[i, o]), "disjoint");
    let (not_i, not_o) = (s.not(i), s.not(o));
    assert!(!sat(&mut s, &[not_i, not_o]), "covering");
    // The last in-bounds pointer and the first out of bounds.
    for (pointer, fits) in [(PAGE - 6, true), (PAGE - 5, false), (0xffff_fffe, false)] {
        let value = s.bv_const(32, pointer);
        let pinned = s.eq(p, value);
        assert_eq!(sat(&mut s, &[i, pinned]), fits, "{pointer}");
        assert_eq!(sat(&mut s, &[o, pinned]), !fits, "{pointer}");
    }
}

#[test]
fn what_is_written_at_a_spot_is_read_through_a_symbolic_place() {
    let mut s = TermStore::new();
    let mut m = MemoryModel::flat(&mut s, 1, None);
    let spot = m.resolve_concrete(100, 2).expect("in bounds");
    m.write_bytes(&mut s, spot, &[0xab, 0xcd]);
    assert_eq!(m.read_concrete(spot, 2), Some(0xcdab));
    let p = s.declare("p", Sort::Bv(32)).unwrap();
    let Resolution::Cases(cases) = m.resolve(&mut s, Pointer::Sym(p), 1, 1) else {
        panic!("a symbolic pointer has cases");
    };
    let place = cases
        .iter()
        .find_map(|c| c.target.ok())
        .expect("a place inside");
    let byte = m.read(&mut s, place, 1, Limits::default()).unwrap();
    // p + 1 = 101 reads the second byte written.
    let (hundred, cd) = (s.bv_const(32, 100), s.bv_const(8, 0xcd));
    let (at_100, is_cd) = (s.eq(p, hundred), s.eq(byte, cd));
    let not_cd = s.not(is_cd);
    assert!(!sat(&mut s, &[at_100, not_cd]));
    // A symbolic write is read back at the concrete spot it may hit.
    let v = s.declare("v", Sort::Bv(8)).unwrap();
    m.write(&mut s, place, v, Limits::default()).unwrap();
    let read = m
        .read(&mut s, Place::Concrete(spot.plus(1)), 1, Limits::default())
        .unwrap();
    let (is_v, was_cd) = (s.eq(read, v), s.eq(read, cd));
    let not_v = s.not(is_v);
    assert!(!sat(&mut s, &[at_100, not_v]), "p = 100 wrote byte 101");
    let not_at_100 = s.not(at_100);
    let not_was_cd = s.not(was_cd);
    assert!(
        !sat(&mut s, &[not_at_100, not_was_cd]),
        "elsewhere it stays"
    );
}
