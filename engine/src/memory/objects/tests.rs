//! Placement, concrete checks and the cases of symbolic pointers and sizes.

use super::*;
use crate::expr::Sort;
use crate::solver::{SolveResult, Solver};

const HEAP: u64 = 2 * PAGE_SIZE;
const SITE: (u32, u32) = (0, 0);

fn sat(store: &mut TermStore, assertions: &[TermId]) -> bool {
    matches!(
        Solver::default().check(store, assertions),
        SolveResult::Sat(_)
    )
}

fn memory(store: &mut TermStore) -> ObjectMemory {
    ObjectMemory::new(FlatMemory::new(store, 2, None), HEAP)
}

fn base(m: &ObjectMemory, id: ObjectId) -> u64 {
    m.object(id).unwrap().base
}

fn fault(kind: FaultKind, object: ObjectId) -> Resolution {
    Resolution::Certain(Err(fault_of(kind, object)))
}

fn fault_of(kind: FaultKind, object: ObjectId) -> Fault {
    Fault::Object {
        kind,
        object: Some(object),
    }
}

#[test]
fn objects_are_placed_aligned_apart_and_memory_grows_to_hold_them() {
    let mut s = TermStore::new();
    let mut m = memory(&mut s);
    let a = m.alloc(&mut s, Size::Con(5), 5, 0, ALIGN, SITE).unwrap();
    let b = m.alloc(&mut s, Size::Con(1), 1, 0, 64, SITE).unwrap();
    let (ba, bb) = (base(&m, a), base(&m, b));
    assert_eq!(ba, HEAP + GAP);
    assert_eq!(bb % 64, 0);
    assert!(bb >= ba + 5 + 2 * GAP, "a guard gap after a and before b");
    assert_eq!(
        m.contents().pages(),
        3,
        "the heap starts at the end of memory"
    );
    assert_eq!(m.heap_object_at(bb), Some(b));
    assert_eq!(m.heap_object_at(bb + 1), None);
    let huge = m.alloc(&mut s, Size::Con(1 << 32), 1 << 32, 0, ALIGN, SITE);
    assert_eq!(huge, None, "no memory holds it");
}

#[test]
fn a_base_symbol_unfolds_to_its_objects_address_in_its_state_only() {
    let mut s = TermStore::new();
    let mut m = memory(&mut s);
    let mut sibling = m.clone();
    let a = m.alloc(&mut s, Size::Con(8), 8, 0, ALIGN, SITE).unwrap();
    let beta = m.give_base(&mut s, a).unwrap();
    assert_eq!(m.object(a).unwrap().beta, Some(beta));
    assert_eq!(m.base_symbol_at(base(&m, a)), Some(beta));
    let hidden = m.hidden(beta).and_then(|c| s.as_bv_const(c));
    assert_eq!(hidden, Some(base(&m, a)));
    assert_eq!(sibling.hidden(beta), None, "a state without it");
    // Another state whose first object is another block gets the same
    // symbol for it, with its own hidden address.
    let b = sibling
        .alloc(&mut s, Size::Con(64), 64, 0, 256, SITE)
        .unwrap();
    let c = sibling
        .alloc(&mut s, Size::Con(8), 8, 0, ALIGN, SITE)
        .unwrap();
    assert_ne!(base(&sibling, b), base(&m, a));
    assert_eq!(sibling.give_base(&mut s, b), Some(beta));
    let other = sibling.give_base(&mut s, c).unwrap();
    assert_ne!(other, beta);
    assert_eq!(
        sibling.hidden(beta).and_then(|h| s.as_bv_const(h)),
        Some(base(&sibling, b))
    );
}

#[test]
fn a_free_at_a_live_base_frees_and_any_other_says_why_not() {
    let mut s = TermStore::new();
    let mut m = memory(&mut s);
    let a = m.alloc(&mut s, Size::Con(8), 8, 0, ALIGN, SITE).unwrap();
    let ba = base(&m, a);
    assert_eq!(m.live_capacity(ba), Some(8));
    assert_eq!(m.free_at(ba + 1, SITE), Free::Invalid { near: Some(a) });
    assert_eq!(m.free_at(HEAP - 8, SITE), Free::Invalid { near: None });
    assert_eq!(m.free_at(ba, SITE), Free::Freed);
    assert_eq!(m.live_capacity(ba), None);
    assert_eq!(m.free_at(ba, SITE), Free::Double(a));
}

#[test]
fn a_concrete_access_is_allowed_inside_a_live_object_or_below_the_heap() {
    let mut s = TermStore::new();
    let mut m = memory(&mut s);
    let a = m.alloc(&mut s, Size::Con(8), 8, 0, ALIGN, SITE).unwrap();
    let b = m.alloc(&mut s, Size::Con(8), 8, 0, ALIGN, SITE).unwrap();
    let (ba, bb) = (base(&m, a), base(&m, b));
    assert_eq!(m.resolve_concrete(ba + 4, 4).map(|s| s.object), Some(a));
    assert_eq!(
        m.resolve_concrete(100, 8).map(|s| s.object),
        Some(UNCHECKED)
    );
    assert_eq!(m.resolve_concrete(ba + 5, 4), None, "straddles the end");
    let at = |m: &ObjectMemory, s: &mut TermStore, address, width| {
        m.resolve(s, Pointer::Con(address), 0, width)
    };
    assert_eq!(at(&m, &mut s, ba + 8, 1), fault(FaultKind::Overflow, a));
    assert_eq!(
        at(&m, &mut s, ba + 8 + GAP - 1, 1),
        fault(FaultKind::Overflow, a)
    );
    assert_eq!(at(&m, &mut s, bb - 1, 1), fault(FaultKind::Underflow, b));
    assert_eq!(at(&m, &mut s, bb - 2, 4), fault(FaultKind::Underflow, b));
    assert_eq!(at(&m, &mut s, HEAP + 1, 1), fault(FaultKind::Underflow, a));
    m.free(a, SITE);
    assert_eq!(at(&m, &mut s, ba, 1), fault(FaultKind::UseAfterFree, a));
    assert_eq!(m.resolve_concrete(ba, 1), None);
    let beyond = bb + 8 + GAP + 100;
    assert_eq!(
        at(&m, &mut s, beyond, 1),
        Resolution::Certain(Err(Fault::Object {
            kind: FaultKind::Wild,
            object: None
        }))
    );
    assert_eq!(
        at(&m, &mut s, 3 * PAGE_SIZE, 1),
        Resolution::Certain(Err(Fault::OutOfBounds))
    );
}

#[test]
fn a_symbolic_size_is_checked_without_wrap_around() {
    let mut s = TermStore::new();
    let mut m = memory(&mut s);
    let sigma = s.declare("n", Sort::Bv(32)).unwrap();
    let a = m
        .alloc(&mut s, Size::Sym(sigma), 8, 0, ALIGN, SITE)
        .unwrap();
    let ba = base(&m, a);
    assert_eq!(m.resolve_concrete(ba, 1), None, "needs the size");
    let Resolution::Cases(cases) = m.resolve(&mut s, Pointer::Con(ba + 2), 0, 4) else {
        panic!("a symbolic size has cases");
    };
    let inside = cases.iter().find(|c| c.target.is_ok()).unwrap().condition;
    let outside = cases.iter().find(|c| c.target.is_err()).unwrap();
    assert_eq!(
        outside.target,
        Err(Fault::Object {
            kind: FaultKind::Overflow,
            object: Some(a)
        })
    );
    for n in [0u64, 3, 5, 6, 8, 0xffff_fffe] {
        let value = s.bv_const(32, n);
        let pinned = s.eq(sigma, value);
        assert_eq!(sat(&mut s, &[inside, pinned]), n >= 6, "size {n}");
        assert_eq!(sat(&mut s, &[outside.condition, pinned]), n < 6, "size {n}");
    }
    // Past the capacity, no size helps.
    assert_eq!(
        m.resolve(&mut s, Pointer::Con(ba + 8), 0, 1),
        fault(FaultKind::Overflow, a)
    );
}

#[test]
fn the_cases_of_a_symbolic_pointer_split_every_value_once() {
    let mut s = TermStore::new();
    let mut m = memory(&mut s);
    let a = m.alloc(&mut s, Size::Con(8), 8, 0, ALIGN, SITE).unwrap();
    let freed = m.alloc(&mut s, Size::Con(8), 8, 0, ALIGN, SITE).unwrap();
    m.free(freed, SITE);
    let sigma = s.declare("n", Sort::Bv(32)).unwrap();
    let c = m
        .alloc(&mut s, Size::Sym(sigma), 16, 0, ALIGN, SITE)
        .unwrap();
    let input_len = s.declare("len", Sort::Bv(32)).unwrap();
    let input = m
        .add_input(64, Size::Sym(input_len), 4, "in", SITE)
        .unwrap();
    let p = s.declare("p", Sort::Bv(32)).unwrap();
    let Resolution::Cases(cases) = m.resolve(&mut s, Pointer::Sym(p), 0, 2) else {
        panic!("a symbolic pointer has cases");
    };
    for (i, x) in cases.iter().enumerate() {
        for y in &cases[i + 1..] {
            assert!(!sat(&mut s, &[x.condition, y.condition]), "disjoint");
        }
    }
    let nots: Vec<TermId> = cases.iter().map(|c| s.not(c.condition)).collect();
    assert!(!sat(&mut s, &nots), "covering");
    // Each pointer lands in the case it should.
    let (ba, bf, bc) = (base(&m, a), base(&m, freed), base(&m, c));
    let two = s.bv_const(32, 2);
    let n_is_2 = s.eq(sigma, two);
    let len_is_2 = s.eq(input_len, two);
    let expected = [
        (0, Ok(UNCHECKED)),
        (63, Err(Fault::Unclassified)),
        (64, Ok(input)),
        (65, Err(Fault::Unclassified)),
        (ba + 6, Ok(a)),
        (ba + 7, Err(Fault::Unclassified)),
        (bf, Err(Fault::Unclassified)),
        (bc, Ok(c)),
        (bc + 1, Err(Fault::Unclassified)),
        (0xffff_ffff, Err(Fault::OutOfBounds)),
    ];
    for (address, target) in expected {
        let value = s.bv_const(32, address);
        let pinned = s.eq(p, value);
        let holding: Vec<_> = cases
            .iter()
            .filter(|case| sat(&mut s, &[case.condition, pinned, n_is_2, len_is_2]))
            .map(|case| match case.target {
                Ok(Place::Symbolic { object, .. }) => Ok(object),
                Ok(Place::Concrete(spot)) => Ok(spot.object),
                Err(f) => Err(f),
            })
            .collect();
        assert_eq!(holding, vec![target], "address {address}");
    }
    assert_eq!(
        m.classify(&mut s, bf, 2),
        Fault::Object {
            kind: FaultKind::UseAfterFree,
            object: Some(freed)
        }
    );
}

#[test]
fn input_buffers_end_when_overwritten_freed_or_left_behind() {
    let mut s = TermStore::new();
    let mut m = memory(&mut s);
    let len = s.declare("len", Sort::Bv(32)).unwrap();
    let first = m.add_input(256, Size::Sym(len), 4, "a", SITE).unwrap();
    // A new input over the same bytes replaces the first.
    let second = m.add_input(254, Size::Con(4), 4, "b", SITE).unwrap();
    assert!(m.object(first).unwrap().freed.is_some());
    assert_eq!(
        m.resolve_concrete(256, 2).map(|s| s.object),
        Some(second),
        "the second input takes it"
    );
    assert_eq!(m.resolve_concrete(257, 2), None, "past the second input");
    assert!(matches!(
        m.resolve(&mut s, Pointer::Con(257), 0, 2),
        Resolution::Certain(Err(Fault::Object { kind: FaultKind::Overflow, object: Some(o) })) if o == second
    ));
    // Freeing a block ends the input inside it: its bytes are freed memory.
    let block = m.alloc(&mut s, Size::Con(16), 16, 0, ALIGN, SITE).unwrap();
    let inside = base(&m, block) + 4;
    let third = m.add_input(inside, Size::Con(4), 4, "c", SITE).unwrap();
    m.free(block, SITE);
    assert!(m.object(third).unwrap().freed.is_some());
    assert_eq!(
        m.resolve(&mut s, Pointer::Con(inside), 0, 1),
        fault(FaultKind::UseAfterFree, block)
    );
    // A frame left behind: inputs from the stack bottom up to the new
    // stack pointer end.
    m.retire_inputs_in(100, 300, SITE);
    assert!(m.object(second).unwrap().freed.is_some());
    assert_eq!(
        m.resolve_concrete(258, 1).map(|s| s.object),
        Some(UNCHECKED)
    );
}

/// The fast path's answer for every access near inputs and heap blocks,
/// live, freed and nested, is the slow path's, and it answers away from
/// them.
#[test]
fn concrete_accesses_resolve_on_the_fast_path_as_on_the_slow_one_among_inputs() {
    let mut s = TermStore::new();
    let mut m = memory(&mut s);
    let len = s.declare("len", Sort::Bv(32)).unwrap();
    let data = m.add_input(1024, Size::Con(16), 16, "data", SITE).unwrap();
    m.add_input(2048, Size::Sym(len), 8, "sized", SITE).unwrap();
    let block = m.alloc(&mut s, Size::Con(32), 32, 0, ALIGN, SITE).unwrap();
    let inside = base(&m, block) + 8;
    let nested = m
        .add_input(inside, Size::Con(4), 4, "nested", SITE)
        .unwrap();
    let freed = m.alloc(&mut s, Size::Con(8), 8, 0, ALIGN, SITE).unwrap();
    m.free(freed, SITE);
    let (ranges, mut fast) = ([0..64, 1000..1060, 2040..2070, HEAP..HEAP + 160], 0);
    for address in ranges.into_iter().flatten() {
        for width in [1, 2, 4, 8] {
            let Some(spot) = m.resolve_concrete(address, width) else {
                continue;
            };
            fast += 1;
            assert_eq!(
                m.resolve(&mut s, Pointer::Con(address), 0, width),
                Resolution::Certain(Ok(Place::Concrete(spot))),
                "{width} bytes at {address}"
            );
        }
    }
    assert!(fast > 400, "{fast} accesses on the fast path");
    let object = |a, w| m.resolve_concrete(a, w).map(|s| s.object);
    assert_eq!(object(600, 8), Some(UNCHECKED), "away from the inputs");
    assert_eq!(object(1030, 2), Some(data));
    assert_eq!(object(inside, 4), Some(nested));
    assert_eq!(object(inside - 4, 4), Some(block), "the block around it");
    assert_eq!(object(2048, 1), None, "a symbolic size is the slow path's");
}

#[test]
fn a_slot_reserves_its_capacity_and_its_padding_is_its_own() {
    let mut s = TermStore::new();
    let mut m = memory(&mut s);
    let a = m.alloc(&mut s, Size::Con(1), 1, 100, ALIGN, SITE).unwrap();
    let b = m.alloc(&mut s, Size::Con(1), 1, 100, 64, SITE).unwrap();
    let (ba, bb) = (base(&m, a), base(&m, b));
    assert!(bb >= ba + 100 + 2 * GAP, "the reserve is kept free");
    // Past a's gap, in the reserve and the alignment padding: still a's.
    for address in [ba + 20, ba + 100 + GAP, bb - GAP - 1] {
        assert_eq!(
            m.resolve(&mut s, Pointer::Con(address), 0, 1),
            fault(FaultKind::Overflow, a),
            "{address}"
        );
    }
    assert_eq!(
        m.resolve(&mut s, Pointer::Con(bb - GAP), 0, 1),
        fault(FaultKind::Underflow, b)
    );
}

#[test]
fn a_segment_merged_again_keeps_its_members_distances() {
    let mut s = TermStore::new();
    let mut m = memory(&mut s);
    let x = m.alloc(&mut s, Size::Con(16), 16, 0, ALIGN, SITE).unwrap();
    let small = m.alloc(&mut s, Size::Con(16), 16, 0, ALIGN, SITE).unwrap();
    let aligned = m.alloc(&mut s, Size::Con(16), 16, 0, 64, SITE).unwrap();
    for id in [x, small, aligned] {
        m.give_base(&mut s, id).unwrap();
    }
    let first = m.merge(&mut s, &[small, aligned], (1, 2)).unwrap();
    let distance = base(&m, aligned) - base(&m, small);
    // x, below them, joins: the old segment starts where its members'
    // largest alignment puts it, so the two keep their distance.
    m.merge(&mut s, &[x, first], (1, 3)).unwrap();
    assert_eq!(base(&m, aligned) - base(&m, small), distance);
    assert_eq!(base(&m, aligned) % 64, 0);
    assert!(base(&m, small) > base(&m, x));
}

#[test]
fn merged_blocks_move_with_their_bytes_and_their_base_symbols() {
    let mut s = TermStore::new();
    let mut m = memory(&mut s);
    let a = m.alloc(&mut s, Size::Con(8), 8, 0, ALIGN, SITE).unwrap();
    let between = m.alloc(&mut s, Size::Con(4), 4, 0, ALIGN, SITE).unwrap();
    let b = m.alloc(&mut s, Size::Con(8), 8, 0, ALIGN, SITE).unwrap();
    let (beta_a, beta_b) = (
        m.give_base(&mut s, a).unwrap(),
        m.give_base(&mut s, b).unwrap(),
    );
    let (old_a, old_b) = (base(&m, a), base(&m, b));
    m.contents_mut().write_concrete(&mut s, old_a, &[1, 2, 3]);
    m.contents_mut().write_concrete(&mut s, old_b + 7, &[9]);
    let segment = m.merge(&mut s, &[b, a], (1, 2)).unwrap();
    // Members in the order of their bases, past every slot, as slots
    // allocated one after the other lie.
    let (new_a, new_b) = (base(&m, a), base(&m, b));
    assert!(new_a > old_b);
    // 8 bytes and two gaps, to the next 16-byte boundary.
    assert_eq!(new_b, new_a + 48);
    let seg = m.segment(segment).unwrap();
    assert_eq!((seg.base, seg.capacity), (new_a, 48 + 8));
    assert_eq!(*seg.members, [a, b]);
    assert_eq!(m.object(between).unwrap().segment, None);
    // The bytes moved, and the base symbols unfold to the new places.
    assert_eq!(m.contents().load_concrete(new_a, 2), Some(0x0201));
    assert_eq!(m.contents().load_concrete(new_b + 7, 1), Some(9));
    assert_eq!(s.as_bv_const(m.hidden(beta_a).unwrap()), Some(new_a));
    assert_eq!(s.as_bv_const(m.hidden(beta_b).unwrap()), Some(new_b));
    // Concrete accesses find the members where they are now.
    assert_eq!(
        m.resolve_concrete(new_b, 8).map(|spot| spot.object),
        Some(b)
    );
    assert_eq!(m.heap_object_at(new_a), Some(a));
    assert_eq!(
        m.resolve(&mut s, Pointer::Con(new_a + 8), 0, 1),
        fault(FaultKind::Overflow, a)
    );
    // A symbolic pointer has one case for both members: within a or b.
    let p = s.declare("p", Sort::Bv(32)).unwrap();
    let Resolution::Cases(cases) = m.resolve(&mut s, Pointer::Sym(p), 0, 1) else {
        panic!("cases")
    };
    let in_segment = |cases: &[Case]| {
        let case = cases.iter().find(|c| {
            c.target.ok()
                == Some(Place::Symbolic {
                    object: segment,
                    pointer: p,
                    plus: 0,
                    piece: None,
                })
        });
        case.map(|c| c.condition)
    };
    let inside = in_segment(&cases).unwrap();
    for (at, expected) in [
        (new_a, true),
        (new_b + 7, true),
        (new_a + 8, false),
        (old_a, false),
    ] {
        let value = s.bv_const(32, at);
        let is = s.eq(p, value);
        assert_eq!(sat(&mut s, &[inside, is]), expected, "0x{at:x}");
    }
    // A freed member leaves the segment's case, and is a use after free.
    assert_eq!(m.free_at(new_b, SITE), Free::Freed);
    let Resolution::Cases(cases) = m.resolve(&mut s, Pointer::Sym(p), 0, 1) else {
        panic!("cases")
    };
    let inside = in_segment(&cases).unwrap();
    let value = s.bv_const(32, new_b);
    let is = s.eq(p, value);
    assert!(!sat(&mut s, &[inside, is]));
    assert_eq!(
        m.resolve(&mut s, Pointer::Con(new_b), 0, 1),
        fault(FaultKind::UseAfterFree, b)
    );
}

/// A memory whose blocks have base symbols and slots in the arena.
fn arena(store: &mut TermStore) -> ObjectMemory {
    let mut m = memory(store);
    m.use_arena();
    m
}

/// A block of `size` bytes with a base symbol.
fn block(m: &mut ObjectMemory, s: &mut TermStore, size: u64) -> (ObjectId, TermId) {
    let id = m.alloc(s, Size::Con(size), size, 0, ALIGN, SITE).unwrap();
    (id, m.give_base(s, id).unwrap())
}

#[test]
fn in_the_arena_blocks_lie_above_the_memory_the_module_sees_which_they_never_grow() {
    let mut s = TermStore::new();
    let mut m = arena(&mut s);
    let ids: Vec<ObjectId> = (0..40)
        .map(|_| {
            m.alloc(&mut s, Size::Con(4000), 4000, 0, ALIGN, SITE)
                .unwrap()
        })
        .collect();
    let (first, last) = (base(&m, ids[0]), base(&m, ids[39]));
    assert_eq!(first, ARENA_START + GAP);
    assert!(ids.iter().all(|&id| base(&m, id).is_multiple_of(ALIGN)));
    assert_eq!(m.contents().pages(), 2, "the module's memory.size");
    // The last block's bytes take accesses on the fast path; past the
    // slots, nothing does.
    let spot = m.resolve_concrete(last + 3996, 4).unwrap();
    assert_eq!(spot.object, ids[39]);
    assert_eq!(
        m.resolve(&mut s, Pointer::Con(last + 4000 + 2 * GAP + 64), 0, 1),
        Resolution::Certain(Err(Fault::OutOfBounds))
    );
    assert_eq!(
        m.resolve(&mut s, Pointer::Con(last + 4000), 0, 1),
        fault(FaultKind::Overflow, ids[39])
    );
    // Below the arena: the module's memory, then nothing.
    assert_eq!(
        m.resolve(&mut s, Pointer::Con(ARENA_START - 16), 0, 1),
        Resolution::Certain(Err(Fault::OutOfBounds))
    );
    // The module's memory grows up to the arena, never into it.
    let below = (ARENA_START / PAGE_SIZE) as u32;
    assert_eq!(m.contents_mut().grow(below - 2), Some(2));
    assert_eq!(m.contents_mut().grow(1), None);
    assert_eq!(base(&m, ids[0]), first, "blocks stay where they are");
}

#[test]
fn a_freed_slot_is_taken_again_as_zero_bytes_and_its_live_block_takes_its_accesses() {
    let mut s = TermStore::new();
    let mut m = arena(&mut s);
    let (a, _) = block(&mut m, &mut s, 24);
    let at = base(&m, a);
    m.contents_mut()
        .store_concrete(&mut s, at + 4, 4, 0xdead_beef);
    assert_eq!(m.free_at(at, SITE), Free::Freed);
    assert_eq!(base(&m, a), at, "nothing took its slot yet");
    let (b, _) = block(&mut m, &mut s, 20);
    assert_eq!(base(&m, b), at, "the freed slot");
    assert!(base(&m, a) > at + 24, "a moved out");
    assert_eq!(m.contents().load_concrete(at + 4, 4), Some(0));
    assert_eq!(m.heap_object_at(at), Some(b), "the live block there");
    assert_eq!(
        m.resolve_concrete(at + 4, 4).map(|spot| spot.object),
        Some(b)
    );
    assert_eq!(m.free_at(at, SITE), Free::Freed, "b's free, not a's second");
    // A block that does not fit in a freed slot takes a new one.
    let (c, _) = block(&mut m, &mut s, 100);
    assert!(base(&m, c) > at + 24);
}

#[test]
fn freed_slots_side_by_side_merge_and_a_pinned_blocks_slot_is_never_taken() {
    let mut s = TermStore::new();
    let mut m = arena(&mut s);
    let blocks: Vec<_> = (0..4).map(|_| block(&mut m, &mut s, 16)).collect();
    let at = |m: &ObjectMemory, k: usize| base(m, blocks[k].0);
    // Block 0's address decided something, before its free: its slot is
    // kept. Block 3's after it.
    m.pin_met(&[blocks[0].1], None, SITE);
    for k in 0..4 {
        assert_eq!(m.free_at(at(&m, k), SITE), Free::Freed);
    }
    m.pin_met(&[blocks[3].1], None, SITE);
    // Blocks 1 and 2's slots, merged, hold a block of 48 bytes, which
    // takes every access to its bytes, those where block 2 was too.
    let old: Vec<u64> = (0..4).map(|k| at(&m, k)).collect();
    let (big, _) = block(&mut m, &mut s, 48);
    assert_eq!(base(&m, big), old[1]);
    for byte in [0, 16, old[2] - GAP - old[1], 47] {
        let spot = m.resolve_concrete(old[1] + byte, 1);
        assert_eq!(spot.map(|spot| spot.object), Some(big), "byte {byte}");
    }
    // Blocks 1 and 2 moved out of it; the pinned ones stayed.
    assert!(at(&m, 1) > old[3] && at(&m, 2) > at(&m, 1));
    assert_eq!((at(&m, 0), at(&m, 3)), (old[0], old[3]));
    let (next, _) = block(&mut m, &mut s, 16);
    assert!(base(&m, next) > at(&m, 2), "block 3's slot is kept");
}

#[test]
fn a_freed_block_whose_slot_is_taken_moves_out_so_a_pointer_to_it_finds_it_freed() {
    let mut s = TermStore::new();
    let mut m = arena(&mut s);
    let (a, alpha) = block(&mut m, &mut s, 24);
    let at = base(&m, a);
    let input = m.add_input(at + 4, Size::Con(8), 8, "x", SITE).unwrap();
    assert_eq!(m.free_at(at, SITE), Free::Freed);
    assert!(!m.base_moved(alpha));
    let (b, _) = block(&mut m, &mut s, 8);
    assert_eq!(base(&m, b), at, "b takes a's slot");
    let moved = base(&m, a);
    assert!(moved > at + 24, "a slot of its own");
    assert_eq!(m.hidden(alpha), Some(s.bv_const(32, moved)));
    assert!(m.base_moved(alpha));
    assert!(!m.arena_crowded());
    assert_eq!(m.object(input).unwrap().base, moved + 4, "its input too");
    // By number: the old slot is b's, a lies where it moved.
    assert_eq!(m.resolve_concrete(at, 8).map(|spot| spot.object), Some(b));
    assert_eq!(
        m.resolve(&mut s, Pointer::Con(moved), 4, 4),
        fault(FaultKind::UseAfterFree, a)
    );
    // A symbolic pointer over a's base symbol, unfolded: never b's bytes.
    let k = s.declare("k", Sort::Bv(32)).unwrap();
    let hidden = m.hidden(alpha).unwrap();
    let p = s.bin(BvBinOp::Add, hidden, k);
    let Resolution::Cases(cases) = m.resolve(&mut s, Pointer::Sym(p), 0, 4) else {
        panic!("cases")
    };
    // No live block there: a fault, which the address classifies.
    let fault = cases
        .iter()
        .find(|c| c.target == Err(Fault::Unclassified))
        .unwrap()
        .condition;
    for offset in [0, 8, 20] {
        let value = s.bv_const(32, offset);
        let is = s.eq(k, value);
        assert!(sat(&mut s, &[fault, is]), "k = {offset}");
        for c in cases
            .iter()
            .filter(|c| c.target.map(|p| p.object()) == Ok(b))
        {
            assert!(!sat(&mut s, &[c.condition, is]), "k = {offset}");
        }
        assert_eq!(
            m.classify(&mut s, moved + offset, 4),
            fault_of(FaultKind::UseAfterFree, a)
        );
    }
    // Freed again through it: a's double free; b's own free is b's.
    assert_eq!(m.free_at(moved, SITE), Free::Double(a));
    assert_eq!(m.free_at(at, SITE), Free::Freed);
    // A block without a base symbol stays behind, and the block that took
    // its slot takes its accesses.
    let plain = m.alloc(&mut s, Size::Con(8), 8, 0, ALIGN, SITE).unwrap();
    let plain_at = base(&m, plain);
    assert_eq!(m.free_at(plain_at, SITE), Free::Freed);
    let (c, _) = block(&mut m, &mut s, 8);
    assert_eq!((base(&m, c), base(&m, plain)), (plain_at, plain_at));
    assert_eq!(m.heap_object_at(plain_at), Some(c));
}

#[test]
fn with_no_room_left_to_move_a_freed_block_its_slot_is_taken_all_the_same() {
    let mut s = TermStore::new();
    let mut m = arena(&mut s);
    // A loop of 1 MiB blocks, each freed before the next: every later one
    // takes the first's slot, and moves the one freed before it out,
    // until the arena has no room for that.
    const MIB: u64 = 1 << 20;
    let rounds = (ARENA_END - ARENA_START) / MIB + 100;
    let mut blocks = Vec::new();
    for _ in 0..rounds {
        let (id, _) = block(&mut m, &mut s, MIB);
        assert_eq!(m.free_at(base(&m, id), SITE), Free::Freed);
        blocks.push(id);
    }
    let first = ARENA_START + GAP;
    let stayed: Vec<usize> = (0..blocks.len())
        .filter(|&k| base(&m, blocks[k]) == first)
        .collect();
    // The first thousand moved; the rest, with no room left, stayed.
    assert!(stayed[0] > 1000, "{}", stayed[0]);
    assert_eq!(stayed.len() as u64, rounds - stayed[0] as u64);
    assert!(base(&m, blocks[1]) > first + MIB);
    assert!(m.arena_crowded());
    // The newest freed block holds the slot by number.
    assert_eq!(m.heap_object_at(first), blocks.last().copied());
    // A block that fits no free range, with no fresh room, takes slots
    // freed blocks were moved out to, which stay behind.
    let (wide, _) = block(&mut m, &mut s, 2 * MIB);
    let taken = base(&m, wide);
    assert_eq!(taken, first, "the first slot and the next, block 0's");
    let behind = (blocks.iter()).filter(|&&id| {
        let b = base(&m, id);
        taken <= b && b < taken + 2 * MIB
    });
    assert_eq!(behind.count(), stayed.len() + 1, "those there and block 0");
    let spot = m.resolve_concrete(taken + MIB, 4).map(|spot| spot.object);
    assert_eq!(spot, Some(wide), "the live block takes its bytes");
}

#[test]
fn a_segment_in_a_freed_slot_takes_its_accesses_and_frees() {
    let mut s = TermStore::new();
    let mut m = arena(&mut s);
    let (a, _) = block(&mut m, &mut s, 8);
    let (b, _) = block(&mut m, &mut s, 8);
    let (t, _) = block(&mut m, &mut s, 256);
    let freed_at = base(&m, t);
    assert_eq!(m.free_at(freed_at, SITE), Free::Freed);
    m.merge(&mut s, &[a, b], SITE).unwrap();
    assert_eq!(base(&m, a), freed_at, "the segment took t's slot");
    assert_eq!(m.heap_object_at(freed_at), Some(a));
    assert_eq!(
        m.resolve_concrete(freed_at, 8).map(|spot| spot.object),
        Some(a)
    );
    assert_eq!(m.free_at(freed_at, SITE), Free::Freed, "a's free");
}

#[test]
fn the_slots_blocks_leave_for_a_segment_are_taken_by_later_blocks() {
    let mut s = TermStore::new();
    let mut m = arena(&mut s);
    let (a, _) = block(&mut m, &mut s, 8);
    let (b, _) = block(&mut m, &mut s, 8);
    let (old_a, old_b) = (base(&m, a), base(&m, b));
    let segment = m.merge(&mut s, &[a, b], SITE).unwrap();
    assert!(base(&m, a) > old_b);
    let (c, _) = block(&mut m, &mut s, 8);
    assert_eq!(base(&m, c), old_a, "a's old slot");
    // Merged again, the segment's slot is left too: a block as large as
    // it takes it.
    let span = m.segment(segment).unwrap().capacity;
    let at = m.segment(segment).unwrap().base;
    let (d, _) = block(&mut m, &mut s, 8);
    m.merge(&mut s, &[segment, d], SITE).unwrap();
    let (e, _) = block(&mut m, &mut s, span);
    assert_eq!(base(&m, e), at, "the first segment's slot");
}
