//! The worked examples of `../shared/design/fine_grain.md` §3, on the
//! flat memory's shared chunks: what each state shares, copies and writes
//! in place, and what its reads give.

use super::tests::shared_chunks;
use super::*;
use crate::expr::{Model, Sort};
use crate::solver::{SolveResult, Solver};

/// Where the examples put their object, in the third chunk of memory.
const BASE: u64 = 2 * CHUNK_U64;
const CI: usize = 2;

fn c32(s: &mut TermStore, v: u64) -> TermId {
    s.bv_const(32, v)
}

fn c8(s: &mut TermStore, v: u64) -> TermId {
    s.bv_const(8, v)
}

/// The chunk holding the object, to tell a shared or unchanged one from a
/// copy.
fn chunk(m: &FlatMemory) -> *const Chunk {
    match &m.slots[CI] {
        Slot::Data(c) => Rc::as_ptr(c),
        _ => std::ptr::null(),
    }
}

fn write(m: &mut FlatMemory, s: &mut TermStore, offset: u64, value: TermId) {
    m.store_at(s, BASE + offset, value);
}

fn read(m: &mut FlatMemory, s: &mut TermStore, offset: u64) -> TermId {
    m.load_at(s, BASE + offset, 1)
}

/// A byte of the object of `len` bytes at `index`, a term the path keeps
/// below `len`.
fn read_at(m: &mut FlatMemory, s: &mut TermStore, index: TermId, len: u64) -> TermId {
    let address = object_address(s, index);
    let unlimited = &mut Checkpoint::new(Limits::default());
    let object = Within::Object(BASE, BASE + len - 1);
    m.load_within(s, address, 0, 1, object, unlimited)
        .expect("no limits")
}

fn write_at(m: &mut FlatMemory, s: &mut TermStore, index: TermId, len: u64, value: TermId) {
    let address = object_address(s, index);
    let unlimited = &mut Checkpoint::new(Limits::default());
    let object = Within::Object(BASE, BASE + len - 1);
    m.store_within(s, address, 0, value, object, unlimited)
        .expect("no limits");
}

fn object_address(s: &mut TermStore, index: TermId) -> TermId {
    let base = c32(s, BASE);
    s.bin(BvBinOp::Add, base, index)
}

fn below(s: &mut TermStore, index: TermId, len: u64) -> TermId {
    let len = c32(s, len);
    s.cmp(BvCmp::Ult, index, len)
}

fn sat(s: &mut TermStore, assertions: &[TermId]) -> Option<Model> {
    match Solver::default().check(s, assertions) {
        SolveResult::Sat(model) => Some(model),
        SolveResult::Unsat => None,
        SolveResult::Unknown(why) => panic!("unknown: {why}"),
    }
}

/// `t` is one of `values` whenever `assumptions` hold, and each of them
/// can be.
fn takes_exactly(s: &mut TermStore, assumptions: &[TermId], t: TermId, values: &[TermId]) {
    let equal: Vec<TermId> = values.iter().map(|&v| s.eq(t, v)).collect();
    let any = equal
        .iter()
        .copied()
        .reduce(|a, b| s.or(a, b))
        .expect("a value");
    let none = s.not(any);
    assert!(
        sat(s, &[assumptions, &[none]].concat()).is_none(),
        "it takes another value"
    );
    for (&e, &v) in equal.iter().zip(values) {
        assert!(
            sat(s, &[assumptions, &[e]].concat()).is_some(),
            "it cannot be {}",
            s.to_smtlib(v)
        );
    }
}

/// Listing 1: `x[100]` zeroed and `y[100]`, never written again; on one
/// path `x[0] += 1`, on the other `x[input] += 5`. Each path pays for the
/// chunk it wrote, never for `y`, and the symbolic write leaves the bytes
/// after `x` concrete.
#[test]
fn listing_1_each_path_pays_for_what_it_wrote() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    let y = 8 * CHUNK_U64;
    m.write_concrete(&mut s, y, &[7; 100]);
    m.write_concrete(&mut s, BASE + 100, &[9; 20]);
    let input = s.declare("input", Sort::Bv(32)).unwrap();

    let mut then = m.clone();
    let x0 = read(&mut then, &mut s, 0);
    let x0 = s.as_bv_const(x0).expect("a concrete byte");
    let sum = c8(&mut s, x0 + 1);
    write(&mut then, &mut s, 0, sum);
    assert_eq!(shared_chunks(&m, &then), 1, "y is shared, x's chunk copied");

    let mut other = m.clone();
    let xi = read_at(&mut other, &mut s, input, 100);
    let five = c8(&mut s, 5);
    let sum = s.bin(BvBinOp::Add, xi, five);
    write_at(&mut other, &mut s, input, 100, sum);
    assert_eq!(shared_chunks(&m, &other), 1, "y is shared");
    assert_eq!(other.concrete_bytes(y, 100), Some(vec![7; 100]));
    assert_eq!(other.concrete_bytes(BASE + 100, 20), Some(vec![9; 20]));
    assert_eq!(other.concrete_bytes(BASE + 99, 1), None);

    // The paths read what they wrote: x[0] is 1; x[input] is 5.
    let x0 = read(&mut then, &mut s, 0);
    assert_eq!(s.as_bv_const(x0), Some(1));
    let in_x = below(&mut s, input, 100);
    let xi = read_at(&mut other, &mut s, input, 100);
    takes_exactly(&mut s, &[in_x], xi, &[five]);
    assert_eq!(m.concrete_bytes(BASE, 100), Some(vec![0; 100]));
}

/// Fig. 1: a 4-byte object of zeros; `write(2, 4)`, `write(3, sym1)`, a
/// read at `sym2` gives 0, 4 or `sym1`; after `write(sym3, 5)` a read at 2
/// gives 4 or 5.
#[test]
fn fig_1_reads_after_concrete_and_symbolic_writes() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    let four = c8(&mut s, 4);
    write(&mut m, &mut s, 2, four);
    let r = read(&mut m, &mut s, 2);
    assert_eq!(s.as_bv_const(r), Some(4));
    let sym1 = s.declare("sym1", Sort::Bv(8)).unwrap();
    write(&mut m, &mut s, 3, sym1);

    let sym2 = s.declare("sym2", Sort::Bv(32)).unwrap();
    let in_object = below(&mut s, sym2, 4);
    let r = read_at(&mut m, &mut s, sym2, 4);
    let zero = c8(&mut s, 0);
    let nine = c8(&mut s, 9);
    let sym1_is_9 = s.eq(sym1, nine);
    takes_exactly(&mut s, &[in_object, sym1_is_9], r, &[zero, four, sym1]);

    let sym3 = s.declare("sym3", Sort::Bv(32)).unwrap();
    let in_object = below(&mut s, sym3, 4);
    let five = c8(&mut s, 5);
    write_at(&mut m, &mut s, sym3, 4, five);
    let r = read(&mut m, &mut s, 2);
    takes_exactly(&mut s, &[in_object], r, &[four, five]);
}

/// Fig. 3, steps I to X, on a 3-byte object shared by two states.
#[test]
fn fig_3_states_share_copy_and_write_in_place() {
    let mut s = TermStore::new();
    // I: S1's object, never written.
    let mut s1 = FlatMemory::new(&mut s, 1, None);
    // II: S1 alone holds it, and writes in place.
    let v23 = c8(&mut s, 23);
    write(&mut s1, &mut s, 2, v23);
    let first = chunk(&s1);
    let v24 = c8(&mut s, 24);
    write(&mut s1, &mut s, 2, v24);
    write(&mut s1, &mut s, 2, v23);
    assert_eq!(chunk(&s1), first, "written in place");
    // III: a read at a symbolic index builds an array from the chunk; a
    // term never changes, so the read needs no snapshot.
    let sym1 = s.declare("sym1", Sort::Bv(32)).unwrap();
    let r1 = read_at(&mut s1, &mut s, sym1, 3);
    // IV: S2 forks from S1 and shares its chunk.
    let mut s2 = s1.clone();
    assert_eq!(shared_chunks(&s1, &s2), 1);
    // V: S1 writes a chunk it shares: it copies it; S2 keeps the old one.
    let v17 = c8(&mut s, 17);
    write(&mut s1, &mut s, 1, v17);
    assert_eq!(shared_chunks(&s1, &s2), 0);
    assert_eq!(chunk(&s2), first);
    assert_eq!(s2.concrete_bytes(BASE, 3), Some(vec![0, 0, 23]));
    // VI: S1 reads back its own write and the byte from before the fork.
    let r = read(&mut s1, &mut s, 2);
    assert_eq!(s.as_bv_const(r), Some(23));
    // VII: writing the value already there copies nothing, even shared.
    let mut s3 = s2.clone();
    write(&mut s3, &mut s, 2, v23);
    assert_eq!(shared_chunks(&s2, &s3), 1, "a conditional update");
    // VIII: S2 writes a symbolic value into the chunk it shares with S3.
    let sym2 = s.declare("sym2", Sort::Bv(8)).unwrap();
    write(&mut s2, &mut s, 2, sym2);
    assert_eq!(shared_chunks(&s2, &s3), 0);
    assert_eq!(read(&mut s2, &mut s, 2), sym2);
    // IX: S1 alone holds its copy now, and writes it in place.
    let copied = chunk(&s1);
    let v5 = c8(&mut s, 5);
    write(&mut s1, &mut s, 0, v5);
    assert_eq!(chunk(&s1), copied);
    assert_eq!(s1.concrete_bytes(BASE, 3), Some(vec![5, 17, 23]));
    // X: S2 writes 8 at `sym3 & 1`, which reaches bytes 0 and 1 only: a
    // read at 2 is still `sym2`, and bytes 0 and 1 are 0 or 8.
    let sym3 = s.declare("sym3", Sort::Bv(32)).unwrap();
    let one = c32(&mut s, 1);
    let masked = s.bin(BvBinOp::And, sym3, one);
    let v8 = c8(&mut s, 8);
    write_at(&mut s2, &mut s, masked, 3, v8);
    assert_eq!(read(&mut s2, &mut s, 2), sym2);
    let zero = c8(&mut s, 0);
    for k in 0..2 {
        let r = read(&mut s2, &mut s, k);
        takes_exactly(&mut s, &[], r, &[zero, v8]);
    }
    // The read of step III still says what S1 held then: 0 or 23.
    let in_object = below(&mut s, sym1, 3);
    takes_exactly(&mut s, &[in_object], r1, &[zero, v23]);
}
