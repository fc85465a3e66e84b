use super::*;
use crate::expr::random::Rng;
use crate::expr::{mask, Model, Sort, SymbolId, Value};
use crate::solver::{SolveResult, Solver};

/// The condition that `size` bytes at `addr + offset` are in bounds, as
/// [`FlatMemory::resolve`] gives it.
fn in_bounds(m: &FlatMemory, s: &mut TermStore, addr: TermId, offset: u32, size: u32) -> TermId {
    let pointer = match s.as_bv_const(addr) {
        Some(a) => Pointer::Con(a),
        None => Pointer::Sym(addr),
    };
    match m.resolve(s, pointer, offset, u64::from(size)) {
        Resolution::Certain(place) => s.bool_const(place.is_ok()),
        // The flat model has one object: one case is inside it.
        Resolution::Cases(cases) => match cases.iter().find(|c| c.target.is_ok()) {
            Some(inside) => inside.condition,
            None => s.fls(),
        },
    }
}

fn c32(s: &mut TermStore, v: u64) -> TermId {
    s.bv_const(32, v)
}

fn symbol_id(s: &TermStore, t: TermId) -> SymbolId {
    match *s.node(t) {
        Node::Symbol(id) => id,
        _ => panic!("not a symbol"),
    }
}

/// Gives the bit-vector symbol `t` the value `value` in `model`.
fn set_bv(model: &mut Model, s: &TermStore, t: TermId, value: u64) {
    let width = s.width(t);
    model.set(symbol_id(s, t), Value::Bv { width, value });
}

fn bv(s: &TermStore, t: TermId, model: &Model) -> u64 {
    s.eval(t, model).as_bv().expect("a bit-vector")
}

/// Chunks two memories share (the same `Rc`).
pub(super) fn shared_chunks(a: &FlatMemory, b: &FlatMemory) -> usize {
    let mut shared = 0;
    a.slots.for_each_written(0..a.slots.len(), |i, x| {
        if let (Slot::Data(p), Some(Slot::Data(q))) = (x, b.slots.get(i)) {
            shared += usize::from(Rc::ptr_eq(p, q));
        }
    });
    shared
}

/// Stores in an array term above its constant array.
fn chain_len(s: &TermStore, mut array: TermId) -> usize {
    let mut n = 0;
    while let Node::Store(below, _, _) = *s.node(array) {
        n += 1;
        array = below;
    }
    n
}

fn sat(solver: &mut Solver, s: &mut TermStore, assertions: &[TermId]) -> Option<Model> {
    match solver.check(s, assertions) {
        SolveResult::Sat(m) => Some(m),
        SolveResult::Unsat => None,
        SolveResult::Unknown(why) => panic!("unknown: {why}"),
    }
}

// ----- concrete addresses -----

#[test]
fn little_endian_loads_and_stores_of_every_size() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    // Across a chunk boundary.
    let a = c32(&mut s, CHUNK_U64 - 3);
    let v = s.bv_const(64, 0x0807_0605_0403_0201);
    m.store(&mut s, a, 0, v);
    for size in [1u32, 2, 4, 8] {
        for start in 0..=(8 - size) {
            let t = m.load(&mut s, a, start, size);
            let expected = (0x0807_0605_0403_0201u64 >> (8 * start)) & mask((8 * size) as u8);
            assert_eq!(s.as_bv_const(t), Some(expected), "size {size} at +{start}");
            assert_eq!(s.width(t), (8 * size) as u8);
        }
    }
    let v16 = s.bv_const(16, 0xbeef);
    m.store(&mut s, a, 2, v16);
    let v8 = s.bv_const(8, 0x7f);
    m.store(&mut s, a, 7, v8);
    let v32 = s.bv_const(32, 0xdead_c0de);
    let b = c32(&mut s, 100);
    m.store(&mut s, b, 1, v32);
    assert_eq!(
        m.concrete_bytes(CHUNK_U64 - 3, 8),
        Some(vec![1, 2, 0xef, 0xbe, 5, 6, 7, 0x7f])
    );
    assert_eq!(
        m.concrete_bytes(100, 6),
        Some(vec![0, 0xde, 0xc0, 0xad, 0xde, 0])
    );
    let t = m.load(&mut s, b, 1, 4);
    assert_eq!(s.as_bv_const(t), Some(0xdead_c0de));
}

#[test]
fn a_load_of_concrete_bytes_is_one_constant() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    m.write_concrete(
        &mut s,
        10,
        &[0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88],
    );
    let a = c32(&mut s, 10);
    let before = s.len();
    let t = m.load(&mut s, a, 0, 8);
    assert_eq!(s.len(), before + 1, "only the constant itself is new");
    assert_eq!(s.as_bv_const(t), Some(0x8877_6655_4433_2211));
}

#[test]
fn loads_give_back_stored_terms_without_new_concats() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    let x = s.declare("x", Sort::Bv(32)).unwrap();
    let y = s.declare("y", Sort::Bv(64)).unwrap();
    let a = c32(&mut s, 4094); // across chunks
    m.store(&mut s, a, 0, x);
    assert_eq!(m.load(&mut s, a, 0, 4), x);
    let low = s.extract(15, 0, x);
    assert_eq!(m.load(&mut s, a, 0, 2), low);
    let mid = s.extract(23, 8, x);
    assert_eq!(m.load(&mut s, a, 1, 2), mid);
    let b = c32(&mut s, 200);
    m.store(&mut s, b, 0, y);
    assert_eq!(m.load(&mut s, b, 0, 8), y);
    let high = s.extract(63, 32, y);
    assert_eq!(m.load(&mut s, b, 4, 4), high);
    // Copying a value through memory gives it back too.
    let c = c32(&mut s, 300);
    let loaded = m.load(&mut s, b, 0, 8);
    m.store(&mut s, c, 0, loaded);
    assert_eq!(m.load(&mut s, c, 0, 8), y);
    // A value built of a symbol and constants: the constants merge.
    let z = s.declare("z", Sort::Bv(8)).unwrap();
    let k = s.bv_const(8, 0xab);
    let zk = s.concat(z, k);
    let zext = s.zero_ext(16, zk);
    m.store(&mut s, c, 0, zext);
    let t = m.load(&mut s, c, 0, 4);
    let zero16 = s.bv_const(16, 0);
    let low = s.concat(z, k);
    assert_eq!(t, s.concat(zero16, low), "three pieces, not four bytes");
    let t = m.load(&mut s, c, 1, 2);
    let zero8 = s.bv_const(8, 0);
    assert_eq!(t, s.concat(zero8, z));
    // Storing a loaded value does not build extracts of concats.
    let before = s.len();
    let d = c32(&mut s, 400);
    m.store(&mut s, d, 0, t);
    assert_eq!(s.len(), before + 1, "only the address constant is new");
}

#[test]
fn load_concrete_reads_concrete_bytes_in_and_across_chunks() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    m.write_concrete(&mut s, 4092, &[1, 2, 3, 4, 5, 6, 7, 8]);
    m.write_concrete(&mut s, 100, &[0xaa, 0xbb]);
    assert_eq!(m.load_concrete(100, 1), Some(0xaa));
    assert_eq!(m.load_concrete(100, 4), Some(0xbbaa));
    assert_eq!(m.load_concrete(4092, 8), Some(0x0807_0605_0403_0201));
    assert_eq!(m.load_concrete(4094, 2), Some(0x0403));
    assert_eq!(
        m.load_concrete(65528, 8),
        Some(0),
        "unwritten memory is zero"
    );
    let x = s.declare("x", Sort::Bv(8)).unwrap();
    m.set_byte(&mut s, 4097, x);
    assert_eq!(m.load_concrete(4092, 8), None);
    assert_eq!(m.load_concrete(4092, 4), Some(0x0403_0201));
    let a = s.declare("a", Sort::Bv(32)).unwrap();
    let v = c32(&mut s, 7);
    m.store(&mut s, a, 0, v);
    assert_eq!(
        m.load_concrete(100, 1),
        None,
        "a hole after a symbolic store"
    );
}

/// `store_concrete` against `write_concrete` of the same bytes, on chunks
/// that are zero, only concrete, mixed, holes, and shared with a fork,
/// with and without the array cache; the fork must not change.
#[test]
fn store_concrete_writes_what_write_concrete_writes() {
    for holes in [false, true] {
        let mut s = TermStore::new();
        let mut m = FlatMemory::new(&mut s, 1, None);
        if holes {
            // Every chunk becomes a hole, and the array cache is built.
            let a = s.declare("a", Sort::Bv(32)).unwrap();
            let v = c32(&mut s, 0x1234_5678);
            m.store(&mut s, a, 0, v);
        }
        m.write_concrete(&mut s, 0, &[7; 3 * CHUNK]);
        let x = s.declare("x", Sort::Bv(8)).unwrap();
        m.set_byte(&mut s, CHUNK_U64 + 10, x);
        let fork = m.clone();
        let before: Vec<TermId> = (0..m.len()).map(|i| fork.clone().byte(&mut s, i)).collect();
        let (mut fast, mut slow) = (m.clone(), m);
        let mut rng = Rng::new(7);
        for _ in 0..2000 {
            let size = [1u32, 2, 4, 8][rng.below(4) as usize];
            // Near chunk edges half the time.
            let addr = if rng.below(2) == 0 {
                (rng.below(8) * CHUNK_U64 + CHUNK_U64 - 8 + rng.below(16)).min(PAGE_SIZE - 8)
            } else {
                rng.below(PAGE_SIZE - 8)
            };
            let value = rng.next();
            fast.store_concrete(&mut s, addr, size, value);
            slow.write_concrete(&mut s, addr, &value.to_le_bytes()[..size as usize]);
        }
        for i in 0..fast.len() {
            let (f, w) = (fast.byte(&mut s, i), slow.byte(&mut s, i));
            assert_eq!(f, w, "byte {i}, holes {holes}");
            assert_eq!(fork.clone().byte(&mut s, i), before[i as usize]);
        }
        assert_eq!(fast.array(&mut s), slow.array(&mut s));
    }
}

#[test]
fn concrete_bytes_needs_in_bounds_concrete_bytes() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    m.write_concrete(&mut s, 4090, b"hello, world\0");
    assert_eq!(
        m.concrete_bytes(4090, 13).as_deref(),
        Some(&b"hello, world\0"[..])
    );
    assert_eq!(m.concrete_bytes(65530, 6), Some(vec![0; 6]));
    assert_eq!(m.concrete_bytes(65530, 7), None);
    assert_eq!(m.concrete_bytes(u64::MAX, 2), None);
    assert_eq!(m.concrete_bytes(65536, 0), Some(vec![]));
    let x = s.declare("x", Sort::Bv(8)).unwrap();
    m.set_byte(&mut s, 4095, x);
    assert_eq!(m.concrete_bytes(4090, 13), None);
    assert_eq!(m.concrete_bytes(4090, 5), Some(b"hello"[..].to_vec()));
    let k = s.bv_const(8, b'!' as u64);
    m.set_byte(&mut s, 4095, k);
    assert_eq!(
        m.concrete_bytes(4090, 13).as_deref(),
        Some(&b"hello! world\0"[..])
    );
    assert_eq!(m.byte(&mut s, 4095), k);
}

#[test]
fn fill_and_overlapping_copy() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    let data: Vec<u8> = (0..100u8).collect();
    m.write_concrete(&mut s, 1000, &data);
    // Forward overlap (dst above src) and backward overlap.
    m.copy(&mut s, 1010, 1000, 100);
    let mut model = vec![0u8; 2000];
    model[1000..1100].copy_from_slice(&data);
    model.copy_within(1000..1100, 1010);
    assert_eq!(m.concrete_bytes(0, 2000).unwrap(), model);
    m.copy(&mut s, 995, 1005, 100);
    model.copy_within(1005..1105, 995);
    assert_eq!(m.concrete_bytes(0, 2000).unwrap(), model);
    let seven = s.bv_const(8, 7);
    m.fill(&mut s, 1050, seven, 20);
    model[1050..1070].fill(7);
    assert_eq!(m.concrete_bytes(0, 2000).unwrap(), model);
    // A symbolic fill, then a copy of symbolic bytes.
    let x = s.declare("x", Sort::Bv(8)).unwrap();
    m.fill(&mut s, 3000, x, 9000);
    let a = c32(&mut s, 3000);
    let xx = s.concat(x, x);
    assert_eq!(m.load(&mut s, a, 0, 2), xx);
    let b = c32(&mut s, 12000);
    let after = m.load(&mut s, b, 0, 1);
    assert_eq!(s.as_bv_const(after), Some(0));
    m.copy(&mut s, 20000, 2998, 10);
    let c = c32(&mut s, 20000);
    let t = m.load(&mut s, c, 0, 4);
    let zero16 = s.bv_const(16, 0);
    let low = s.concat(x, zero16);
    assert_eq!(t, s.concat(x, low));
    assert_eq!(m.concrete_bytes(20000, 2), Some(vec![0, 0]));
    assert_eq!(m.concrete_bytes(20000, 3), None);
}

#[test]
fn whole_chunk_fill_and_copy_share_storage() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 4, None);
    let data: Vec<u8> = (0..CHUNK).map(|i| (i * 7) as u8).collect();
    m.write_concrete(&mut s, 0, &data);
    m.copy(&mut s, 8 * CHUNK_U64, 0, CHUNK_U64);
    match (&m.slots[0], &m.slots[8]) {
        (Slot::Data(a), Slot::Data(b)) => assert!(Rc::ptr_eq(a, b)),
        _ => panic!("both chunks hold data"),
    }
    assert_eq!(m.concrete_bytes(8 * CHUNK_U64, CHUNK_U64).unwrap(), data);
    // Writing one of them does not change the other.
    m.write_concrete(&mut s, 8 * CHUNK_U64, &[1, 2, 3]);
    assert_eq!(m.concrete_bytes(0, CHUNK_U64).unwrap(), data);
    let zero = s.bv_const(8, 0);
    m.fill(&mut s, 0, zero, 2 * CHUNK_U64);
    assert!(matches!(m.slots[0], Slot::Zero));
    assert_eq!(m.concrete_bytes(0, 3), Some(vec![0, 0, 0]));
    assert_eq!(m.concrete_bytes(8 * CHUNK_U64, 4), Some(vec![1, 2, 3, 21]));
}

// ----- forks -----

#[test]
fn clones_are_independent_and_share_unchanged_chunks() {
    let mut s = TermStore::new();
    let mut a = FlatMemory::new(&mut s, 256, None); // 16 MiB
    for i in 0..64u64 {
        a.write_concrete(&mut s, i * 65536 + 17, &[i as u8 + 1; 100]);
    }
    assert_eq!(a.data_chunks(0, a.len() - 1).len(), 64);
    let alone = a.heap_bytes();
    let mut b = a.clone();
    assert_eq!(shared_chunks(&a, &b), 64);
    // Sharing makes each memory's own share half of what one alone holds.
    assert!(
        b.heap_bytes() <= alone / 2 + 64,
        "{} of {alone}",
        b.heap_bytes()
    );
    let x = s.declare("x", Sort::Bv(32)).unwrap();
    let p = c32(&mut s, 17);
    b.store(&mut s, p, 0, x);
    let q = c32(&mut s, 65536 + 20);
    let k = s.bv_const(16, 0xffff);
    a.store(&mut s, q, 0, k);
    assert_eq!(shared_chunks(&a, &b), 62, "one chunk copied by each write");
    // Neither sees the other's write.
    let la = a.load(&mut s, p, 0, 4);
    assert_eq!(s.as_bv_const(la), Some(0x0101_0101));
    assert_eq!(b.load(&mut s, p, 0, 4), x);
    let lb = b.load(&mut s, q, 0, 2);
    assert_eq!(s.as_bv_const(lb), Some(0x0202));
    let la = a.load(&mut s, q, 0, 2);
    assert_eq!(s.as_bv_const(la), Some(0xffff));
    // A symbolic write in one fork does not reach the other.
    let i = s.declare("i", Sort::Bv(32)).unwrap();
    let y = s.declare("y", Sort::Bv(8)).unwrap();
    b.store(&mut s, i, 0, y);
    assert_eq!(a.concrete_bytes(17, 4), Some(vec![1; 4]));
    assert_eq!(b.concrete_bytes(17, 4), None);
    assert_eq!(shared_chunks(&a, &b), 0);
}

#[test]
fn memories_holding_the_same_bytes_hash_alike_however_they_were_written() {
    let mut s = TermStore::new();
    let blank = FlatMemory::new(&mut s, 4, None);
    let x = s.declare("x", Sort::Bv(8)).unwrap();
    let mut a = blank.clone();
    a.write_concrete(&mut s, 100, &[1, 2, 3]);
    a.set_byte(&mut s, 5000, x);
    let seven = s.bv_const(8, 7);
    a.fill(&mut s, 3 * CHUNK_U64, seven, 4 * CHUNK_U64);
    // The same bytes in another order, one by one, after a fork.
    let mut b = blank.clone();
    b.write_concrete(&mut s, 3 * CHUNK_U64, &[7; 4 * CHUNK]);
    let mut b = b.clone();
    b.set_byte(&mut s, 5000, x);
    b.write_concrete(&mut s, 102, &[3]);
    b.write_concrete(&mut s, 100, &[1, 2]);
    assert_eq!(a.content_hash(), b.content_hash());
    // Zeros written are no different from zeros never written.
    let mut zeros = blank.clone();
    zeros.write_concrete(&mut s, 70_000, &[0; 300]);
    assert_eq!(zeros.content_hash(), blank.content_hash());
    // Any byte changed tells them apart, and changing it back does not.
    let before = a.content_hash();
    a.write_concrete(&mut s, 101, &[9]);
    assert_ne!(a.content_hash(), before);
    a.write_concrete(&mut s, 101, &[2]);
    assert_eq!(a.content_hash(), before);
    let y = s.declare("y", Sort::Bv(8)).unwrap();
    let mut c = b.clone();
    c.set_byte(&mut s, 5000, y);
    assert_ne!(c.content_hash(), b.content_hash(), "another term");
    let mut d = b.clone();
    d.set_byte(&mut s, 5001, x);
    d.write_concrete(&mut s, 5000, &[0]);
    assert_ne!(d.content_hash(), b.content_hash(), "the term elsewhere");
    // The same write at a symbolic index in two forks: equal again.
    let i = s.declare("i", Sort::Bv(32)).unwrap();
    let at = masked(&mut s, i, 0xff, 2 * CHUNK_U64);
    let (mut e, mut f) = (a.clone(), b.clone());
    e.store(&mut s, at, 0, x);
    f.store(&mut s, at, 0, x);
    assert_eq!(e.content_hash(), f.content_hash());
    assert_ne!(e.content_hash(), a.content_hash());
    // Memories of other sizes differ.
    let mut grown = blank.clone();
    grown.grow(1);
    assert_ne!(grown.content_hash(), blank.content_hash());
}

#[test]
fn a_fork_of_sixteen_mib_is_cheap() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 256, None);
    let data = vec![0x5a; 1 << 20];
    m.write_concrete(&mut s, 0, &data);
    let alone = m.heap_bytes();
    let forks: Vec<FlatMemory> = (0..100).map(|_| m.clone()).collect();
    // Each fork owns a share of the data and of the nodes above it, not
    // a copy: together they hold about what one memory does.
    let total: usize = forks.iter().map(FlatMemory::heap_bytes).sum::<usize>() + m.heap_bytes();
    assert!(
        (1 << 20) <= alone && total <= alone + 101 * 64,
        "one memory holds {alone} bytes, 101 hold {total}"
    );
    for f in &forks {
        assert_eq!(shared_chunks(f, &m), (1 << 20) / CHUNK);
    }
}

// ----- symbolic addresses -----

#[test]
fn symbolic_store_then_constant_read_equals_iff_same_index() {
    let mut s = TermStore::new();
    let mut solver = Solver::default();
    let mut m = FlatMemory::new(&mut s, 1, None);
    let i = s.declare("i", Sort::Bv(32)).unwrap();
    let v = s.declare("v", Sort::Bv(8)).unwrap();
    let ok = in_bounds(&m, &mut s, i, 0, 1);
    m.store(&mut s, i, 0, v);
    let j = c32(&mut s, 1234);
    let r = m.load(&mut s, j, 0, 1);
    let same = s.eq(i, j);
    let differ = s.not(same);
    let r_is_v = s.eq(r, v);
    let r_not_v = s.not(r_is_v);
    let zero = s.bv_const(8, 0);
    let r_is_zero = s.eq(r, zero);
    let r_not_zero = s.not(r_is_zero);
    let v_is_zero = s.eq(v, zero);
    let v_not_zero = s.not(v_is_zero);

    let model = sat(&mut solver, &mut s, &[ok, same, r_is_v, v_not_zero]).expect("i = j reads v");
    assert_eq!(bv(&s, i, &model), 1234);
    assert!(sat(&mut solver, &mut s, &[ok, same, r_not_v]).is_none());
    let model =
        sat(&mut solver, &mut s, &[ok, differ, r_not_v, v_not_zero]).expect("i != j reads 0");
    assert_ne!(bv(&s, i, &model), 1234);
    assert_eq!(bv(&s, r, &model), 0);
    assert!(sat(&mut solver, &mut s, &[ok, differ, r_not_zero]).is_none());
    // A concrete write after the symbolic one is read back without the array.
    let k = s.bv_const(8, 9);
    m.set_byte(&mut s, 1234, k);
    assert_eq!(m.byte(&mut s, 1234), k);
    // And the array says so too, wherever i points.
    let r2 = m.load(&mut s, i, 0, 1);
    let r2_is_v = s.eq(r2, v);
    let r2_not_v = s.not(r2_is_v);
    let r2_is_k = s.eq(r2, k);
    let r2_not_k = s.not(r2_is_k);
    assert!(sat(&mut solver, &mut s, &[ok, differ, r2_not_v]).is_none());
    assert!(sat(&mut solver, &mut s, &[ok, same, r2_not_k]).is_none());
}

#[test]
fn symbolic_store_then_load_at_the_same_address_gives_the_value() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    let p = s.declare("p", Sort::Bv(32)).unwrap();
    let x = s.declare("x", Sort::Bv(32)).unwrap();
    let y = s.declare("y", Sort::Bv(16)).unwrap();
    m.store(&mut s, p, 8, x);
    m.store(&mut s, p, 12, y);
    assert_eq!(m.load(&mut s, p, 8, 4), x);
    assert_eq!(m.load(&mut s, p, 12, 2), y);
    let four = c32(&mut s, 4);
    let p4 = s.bin(BvBinOp::Add, p, four);
    assert_eq!(m.load(&mut s, p4, 4, 4), x, "(p + 4) + 4 is p + 8");
    let hi = s.extract(31, 16, x);
    assert_eq!(m.load(&mut s, p4, 6, 2), hi);
}

#[test]
fn owi_169_symbolic_read_of_a_data_segment() {
    let mut s = TermStore::new();
    let mut solver = Solver::default();
    let mut m = FlatMemory::new(&mut s, 1, None);
    m.write_concrete(&mut s, 0, b"\x00\x01\x02\x00");
    let i = s.declare("i", Sort::Bv(32)).unwrap();
    let ok = in_bounds(&m, &mut s, i, 0, 1);
    let r = m.load(&mut s, i, 0, 1);
    let three = s.bv_const(8, 3);
    let is3 = s.eq(r, three);
    assert!(
        sat(&mut solver, &mut s, &[ok, is3]).is_none(),
        "no byte is 3"
    );
    let two = s.bv_const(8, 2);
    let is2 = s.eq(r, two);
    let model = sat(&mut solver, &mut s, &[ok, is2]).expect("byte 2 is 2");
    assert_eq!(bv(&s, i, &model), 2);
    let one = s.bv_const(8, 1);
    let is1 = s.eq(r, one);
    let not1 = s.not(is1);
    let c1 = c32(&mut s, 1);
    let at1 = s.eq(i, c1);
    assert!(sat(&mut solver, &mut s, &[ok, at1, not1]).is_none());
    // The array has a store per non-zero byte only.
    let array = m.array(&mut s);
    assert_eq!(chain_len(&s, array), 2);
}

/// The array a read of `index` selects from: the read's `select`, or the
/// array under the constant a read over stores folded to.
fn read_array(s: &TermStore, read: TermId) -> TermId {
    match *s.node(read) {
        Node::Select(array, _) => array,
        _ => panic!("not a select: {:?}", s.node(read)),
    }
}

/// `(i & mask) + base`: an index whose interval is `[base, base + mask]`.
fn masked(s: &mut TermStore, i: TermId, mask: u64, base: u64) -> TermId {
    let m = c32(s, mask);
    let low = s.bin(BvBinOp::And, i, m);
    let b = c32(s, base);
    s.bin(BvBinOp::Add, low, b)
}

/// An input `name` of `len` bytes at `start`, as the host writes one: byte
/// `k` is `select(name, k)`; its array symbol.
fn write_input(m: &mut FlatMemory, s: &mut TermStore, name: &str, start: u64, len: u64) -> TermId {
    let array = s.declare(name, Sort::Array).unwrap();
    for k in 0..len {
        let index = c32(s, k);
        let byte = s.select(array, index);
        m.set_byte(s, start + k, byte);
    }
    array
}

/// An input's bytes read at a symbolic index are the input's array read
/// at the offset, `text[i]`; a byte written since is one store over it,
/// and a heap object's array holds its own bytes only, indexed from its
/// base.
#[test]
fn an_object_read_at_a_symbolic_index_reads_its_own_array_from_its_base() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    let base = 4096;
    let text = write_input(&mut m, &mut s, "text", base, 16);
    m.write_concrete(&mut s, 2000, &[9; 64]);
    let i = s.declare("i", Sort::Bv(32)).unwrap();
    let object = Within::Object(base, base + 15);
    let unlimited = &mut Checkpoint::new(Limits::default());
    let at = masked(&mut s, i, 15, base);
    let read = m.load_within(&mut s, at, 0, 1, object, unlimited).unwrap();
    let fifteen = c32(&mut s, 15);
    let offset = s.bin(BvBinOp::And, i, fifteen);
    assert_eq!(read, s.select(text, offset), "text[i & 15]");
    let (one, two) = (c32(&mut s, 1), c32(&mut s, 2));
    let next = m.load_within(&mut s, at, 1, 1, object, unlimited).unwrap();
    let offset_one = s.bin(BvBinOp::Add, offset, one);
    assert_eq!(next, s.select(text, offset_one), "text[(i & 15) + 1]");
    // A byte written since: one store over the input's array.
    m.write_concrete(&mut s, base + 2, &[7]);
    let read = m.load_within(&mut s, at, 0, 1, object, unlimited).unwrap();
    let seven = s.bv_const(8, 7);
    let written = s.store(text, two, seven);
    assert_eq!(read_array(&s, read), written);
    // A heap object of zeros and a few bytes: its bytes only, from its base.
    let heap = 8192;
    m.write_concrete(&mut s, heap + 1, &[5, 6]);
    let object = Within::Object(heap, heap + 31);
    let at = masked(&mut s, i, 31, heap);
    let read = m.load_within(&mut s, at, 0, 1, object, unlimited).unwrap();
    assert_eq!(chain_len(&s, read_array(&s, read)), 2);
    let mut model = Model::new();
    for (index, expected) in [(1, 5), (2, 6), (3, 0)] {
        model.set(
            symbol_id(&s, i),
            Value::Bv {
                width: 32,
                value: index,
            },
        );
        assert_eq!(bv(&s, read, &model), expected, "byte {index}");
    }
}

/// A write at a symbolic offset into an object is one store over that
/// object's own array (KLEE's update list): a later read at a symbolic
/// offset selects from it, the object's bytes the write could not reach
/// and every byte outside the object stay as they were, and a write into
/// another object adds nothing to it.
#[test]
fn a_write_at_a_symbolic_offset_changes_only_its_objects_array() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    let (a, b) = (4096, 8192);
    let text = write_input(&mut m, &mut s, "text", a, 16);
    m.write_concrete(&mut s, a - 1, &[3]);
    m.write_concrete(&mut s, a + 16, &[4]);
    let unlimited = &mut Checkpoint::new(Limits::default());
    let (i, j, k) = (
        s.declare("i", Sort::Bv(32)).unwrap(),
        s.declare("j", Sort::Bv(32)).unwrap(),
        s.declare("k", Sort::Bv(32)).unwrap(),
    );
    let (in_a, in_b) = (Within::Object(a, a + 15), Within::Object(b, b + 31));
    // `text[i & 7] = v`: it can reach the first 8 bytes of `text` only.
    let v = s.declare("v", Sort::Bv(8)).unwrap();
    let at_i = masked(&mut s, i, 7, a);
    m.store_within(&mut s, at_i, 0, v, in_a, unlimited).unwrap();
    let w = s.declare("w", Sort::Bv(8)).unwrap();
    let at_j = masked(&mut s, j, 31, b);
    m.store_within(&mut s, at_j, 0, w, in_b, unlimited).unwrap();
    let at_k = masked(&mut s, k, 15, a);
    let read = m.load_within(&mut s, at_k, 0, 1, in_a, unlimited).unwrap();
    let seven = c32(&mut s, 7);
    let i_offset = s.bin(BvBinOp::And, i, seven);
    let written = s.store(text, i_offset, v);
    assert_eq!(read_array(&s, read), written, "store(text, i & 7, v)");
    let at_k = masked(&mut s, k, 31, b);
    let read = m.load_within(&mut s, at_k, 0, 1, in_b, unlimited).unwrap();
    let thirty_one = c32(&mut s, 31);
    let j_offset = s.bin(BvBinOp::And, j, thirty_one);
    let zeros = m.hole;
    let written = s.store(zeros, j_offset, w);
    assert_eq!(read_array(&s, read), written, "store(zeros, j & 31, w)");
    // Bytes the writes could not reach read as they did, and so do the
    // bytes around the objects.
    let eight = c32(&mut s, 8);
    assert_eq!(m.load_at(&mut s, a + 8, 1), s.select(text, eight));
    assert_eq!(m.load_concrete(a - 1, 1), Some(3));
    assert_eq!(m.load_concrete(a + 16, 1), Some(4));
    assert_eq!(m.load_concrete(b + 32, 1), Some(0));
    // A byte the write could reach reads the object's array at its offset.
    let three = m.load_at(&mut s, a + 3, 1);
    let mut model = Model::new();
    set_bv(&mut model, &s, i, 3);
    set_bv(&mut model, &s, v, 0x55);
    assert_eq!(bv(&s, three, &model), 0x55, "text[3] after text[3] = v");
    set_bv(&mut model, &s, i, 4);
    model.set_byte(symbol_id(&s, text), 3, 0x61);
    assert_eq!(bv(&s, three, &model), 0x61, "text[3] after text[4] = v");
    // The object's array is part of the content hash: another write over
    // the same holes changes it.
    let mut other = m.clone();
    assert_eq!(other.content_hash(), m.content_hash());
    other
        .store_within(&mut s, at_i, 0, w, in_a, unlimited)
        .unwrap();
    assert_ne!(other.content_hash(), m.content_hash());
}

/// Outside objects, an access that can reach one region only (the data,
/// the stack) has that region's own array: a write at a symbolic offset
/// into the stack adds nothing to a read of the data, and an access that
/// can reach both regions still sees it.
#[test]
fn a_region_has_an_array_of_its_own() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    let (data, stack, heap) = (1024, 4096, 8192);
    m.set_regions(&[data, stack, heap]);
    m.write_concrete(&mut s, data, &[1, 2, 3, 4]);
    m.write_concrete(&mut s, stack, &[5, 6, 7, 8]);
    let (i, j) = (
        s.declare("i", Sort::Bv(32)).unwrap(),
        s.declare("j", Sort::Bv(32)).unwrap(),
    );
    let v = s.declare("v", Sort::Bv(8)).unwrap();
    let in_stack = masked(&mut s, j, 0xff, stack);
    m.store(&mut s, in_stack, 0, v);
    let in_data = masked(&mut s, i, 0xff, data);
    let read = m.load(&mut s, in_data, 0, 1);
    let array = read_array(&s, read);
    assert_eq!(chain_len(&s, array), 4, "the data's four bytes, no more");
    let mut a = array;
    while let Node::Store(below, index, _) = *s.node(a) {
        assert!(
            s.as_bv_const(index).is_some(),
            "a store at a constant offset"
        );
        a = below;
    }
    // Indexed from the region's first byte.
    let mut model = Model::new();
    set_bv(&mut model, &s, i, 2);
    assert_eq!(bv(&s, read, &model), 3);
    // Reaching both regions: the write is seen.
    let anywhere = masked(&mut s, i, 0x1fff, 0);
    let read = m.load(&mut s, anywhere, 0, 1);
    set_bv(&mut model, &s, j, 1);
    set_bv(&mut model, &s, v, 0x42);
    for (at, expected, what) in [
        (stack + 1, 0x42, "the stack byte written"),
        (stack + 2, 7, "the stack byte next to it"),
        (data + 3, 4, "a data byte"),
    ] {
        set_bv(&mut model, &s, i, at);
        assert_eq!(bv(&s, read, &model), expected, "{what}");
    }
}

/// Input bytes outside any object (a `symbolic_buffer`'s) read at a
/// symbolic index are the input's array too, indexed from its start; once
/// a byte at the ends of the reach is no longer the input's, the read goes
/// back to an array by address.
#[test]
fn input_bytes_outside_objects_read_at_a_symbolic_index_read_the_input() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 2, None);
    let start = 65536;
    let buf = write_input(&mut m, &mut s, "buf", start, 64);
    let i = s.declare("i", Sort::Bv(32)).unwrap();
    let at = masked(&mut s, i, 31, start + 16);
    let read = m.load(&mut s, at, 0, 1);
    let (mask, sixteen) = (c32(&mut s, 31), c32(&mut s, 16));
    let low = s.bin(BvBinOp::And, i, mask);
    let offset = s.bin(BvBinOp::Add, low, sixteen);
    assert_eq!(read, s.select(buf, offset), "buf[(i & 31) + 16]");
    m.write_concrete(&mut s, start + 16, &[1]);
    let read = m.load(&mut s, at, 0, 1);
    assert_ne!(read_array(&s, read), buf);
    assert!(matches!(*s.node(read), Node::Select(..)));
}

#[test]
fn a_read_of_a_masked_index_stores_only_the_bytes_it_can_reach() {
    let mut s = TermStore::new();
    let mut solver = Solver::default();
    let mut m = FlatMemory::new(&mut s, 16, None);
    let table: Vec<u8> = (1..=255u8).chain([7]).collect();
    m.write_concrete(&mut s, 1024, &table);
    // Half a mebibyte of non-zero bytes elsewhere.
    let seven = s.bv_const(8, 7);
    m.fill(&mut s, 65536, seven, 512 * 1024);
    let i = s.declare("i", Sort::Bv(32)).unwrap();
    let at = masked(&mut s, i, 0xff, 1024);
    let before = s.len();
    let r = m.load(&mut s, at, 0, 1);
    assert_eq!(
        chain_len(&s, read_array(&s, r)),
        256,
        "the table, not the fill"
    );
    // A store, an index and a value per byte of the table at most.
    assert!(
        s.len() - before <= 3 * 256 + 8,
        "{} terms",
        s.len() - before
    );
    // Still the table's bytes: index 9 reads 10, and nothing reads 0.
    let ten = s.bv_const(8, 10);
    let is10 = s.eq(r, ten);
    let model = sat(&mut solver, &mut s, &[is10]).expect("byte 9 is 10");
    assert_eq!(bv(&s, i, &model) & 0xff, 9);
    let zero = s.bv_const(8, 0);
    let is0 = s.eq(r, zero);
    assert!(sat(&mut solver, &mut s, &[is0]).is_none(), "no byte is 0");
    // A read the caller bounds to one object reaches only its bytes.
    let p = s.declare("p", Sort::Bv(32)).unwrap();
    m.write_concrete(&mut s, 8192, &[9; 64]);
    let unlimited = &mut Checkpoint::new(Limits::default());
    let r = m.load_within(&mut s, p, 0, 1, Within::Bytes(8192, 8192 + 15), unlimited);
    let r = r.unwrap();
    assert_eq!(chain_len(&s, read_array(&s, r)), 16);
}

#[test]
fn a_limit_stops_building_an_array_and_the_next_read_still_is_right() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 16, None);
    let seven = s.bv_const(8, 7);
    m.fill(&mut s, 0, seven, 16 * PAGE_SIZE);
    let p = s.declare("p", Sort::Bv(32)).unwrap();
    let past = Limits {
        deadline: Some(web_time::Instant::now() - web_time::Duration::from_millis(1)),
        ..Limits::default()
    };
    let before = s.len();
    let anywhere = Within::Bytes(ANYWHERE.0, ANYWHERE.1);
    let stopped = m.load_within(&mut s, p, 0, 1, anywhere, &mut Checkpoint::new(past));
    assert_eq!(stopped, Err(Reached::Time));
    assert!(
        s.len() - before <= 3 * Checkpoint::WORK as usize,
        "stopped early"
    );
    let v = s.bv_const(8, 9);
    let stopped = m.store_within(&mut s, p, 0, v, anywhere, &mut Checkpoint::new(past));
    assert_eq!(stopped, Err(Reached::Time));
    assert_eq!(
        m.load_concrete(5, 1),
        Some(7),
        "a write cut off changes nothing"
    );
    let r = m.load(&mut s, p, 0, 1);
    let mut model = Model::new();
    model.set(
        symbol_id(&s, p),
        Value::Bv {
            width: 32,
            value: 4097,
        },
    );
    assert_eq!(bv(&s, r, &model), 7);
}

#[test]
fn a_write_at_a_masked_index_leaves_other_chunks_concrete() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    m.write_concrete(&mut s, 100, &[5; 8]);
    m.write_concrete(&mut s, 5 * CHUNK_U64, &[6; 8]);
    let i = s.declare("i", Sort::Bv(32)).unwrap();
    let v = s.declare("v", Sort::Bv(8)).unwrap();
    let at = masked(&mut s, i, 0x3f, 2 * CHUNK_U64);
    m.store(&mut s, at, 0, v);
    // Chunk 2 may have been hit; chunks 0 and 5 were not.
    assert_eq!(m.load_concrete(100, 8), Some(0x0505_0505_0505_0505));
    assert_eq!(m.load_concrete(5 * CHUNK_U64, 2), Some(0x0606));
    assert_eq!(m.load_concrete(2 * CHUNK_U64, 1), None);
    // Reading back through the same index gives the value.
    let r = m.load(&mut s, at, 0, 1);
    assert_eq!(r, v);
    // A byte of chunk 2 is the value where the index hit it, else 0.
    let r = m.load_at(&mut s, 2 * CHUNK_U64 + 3, 1);
    let mut model = Model::new();
    model.set(
        symbol_id(&s, v),
        Value::Bv {
            width: 8,
            value: 0xab,
        },
    );
    for (index, expected) in [(3, 0xab), (4, 0)] {
        model.set(
            symbol_id(&s, i),
            Value::Bv {
                width: 32,
                value: index,
            },
        );
        assert_eq!(bv(&s, r, &model), expected, "index {index}");
    }
    // A later write at a symbolic index elsewhere keeps chunk 2's write.
    let at5 = masked(&mut s, i, 0x3f, 5 * CHUNK_U64 + 64);
    let w = s.bv_const(8, 0x11);
    m.store(&mut s, at5, 0, w);
    assert_eq!(bv(&s, r, &model), 0);
    let again = m.load_at(&mut s, 2 * CHUNK_U64 + 3, 1);
    model.set(
        symbol_id(&s, i),
        Value::Bv {
            width: 32,
            value: 3,
        },
    );
    assert_eq!(bv(&s, again, &model), 0xab);
    let fifth = m.load_at(&mut s, 5 * CHUNK_U64 + 67, 1);
    assert_eq!(bv(&s, fifth, &model), 0x11);
    assert_eq!(
        m.load_concrete(5 * CHUNK_U64 + 64, 1),
        None,
        "the bytes it can reach may be hit now"
    );
    assert_eq!(
        m.load_concrete(5 * CHUNK_U64, 2),
        Some(0x0606),
        "the bytes it cannot reach stay concrete"
    );
    assert_eq!(m.load_concrete(100, 8), Some(0x0505_0505_0505_0505));
}

#[test]
fn reading_unwritten_memory_at_a_symbolic_address_builds_no_stores() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 256, None);
    let before = s.len();
    let i = s.declare("i", Sort::Bv(32)).unwrap();
    let r = m.load(&mut s, i, 0, 4);
    assert_eq!(s.as_bv_const(r), Some(0), "a read of const_array(0) is 0");
    let array = m.array(&mut s);
    assert!(matches!(*s.node(array), Node::ConstArray(_)));
    // The symbol, i + 1, i + 2, i + 3 and their constants at most.
    assert!(s.len() - before <= 8, "{} new terms", s.len() - before);
}

#[test]
fn the_data_array_is_built_once_and_shared_by_forks() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, None);
    let data: Vec<u8> = (0..1000u32).map(|k| (k % 251) as u8).collect();
    m.write_concrete(&mut s, 0, &data);
    let nonzero = data.iter().filter(|&&b| b != 0).count();
    let i = s.declare("i", Sort::Bv(32)).unwrap();
    let _ = m.load(&mut s, i, 0, 1);
    let array = m.array(&mut s);
    assert_eq!(chain_len(&s, array), nonzero);
    let mut fork = m.clone();
    let before = s.len();
    let _ = fork.load(&mut s, i, 0, 1);
    assert_eq!(fork.array(&mut s), array);
    assert!(fork.windows.iter().all(|w| w.dirty.is_empty()));
    assert_eq!(s.len(), before, "the fork reuses the array");
    // A concrete write then a symbolic read adds one store, not a rebuild.
    let k = s.bv_const(8, 0xee);
    fork.set_byte(&mut s, 500, k);
    let _ = fork.load(&mut s, i, 0, 1);
    let forked = fork.array(&mut s);
    assert_eq!(chain_len(&s, forked), nonzero + 1);
    assert_eq!(m.array(&mut s), array, "the original is unchanged");
}

#[test]
fn concrete_writes_between_symbolic_reads_stay_linear() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 16, None);
    m.write_concrete(&mut s, 0, &[1; 4000]);
    let p = s.declare("p", Sort::Bv(32)).unwrap();
    let before = s.len();
    let n = 3000u64;
    for k in 0..n {
        let a = c32(&mut s, (k * 4) % 8192);
        let v = s.bv_const(32, k | 0x100);
        m.store(&mut s, a, 0, v);
        let _ = m.load(&mut s, p, 0, 4);
    }
    let created = s.len() - before;
    assert!(created < 40 * n as usize, "{created} terms for {n} rounds");
    let array = m.array(&mut s);
    assert!(
        chain_len(&s, array) <= 2 * 8192 + 64,
        "the chain is rebuilt before it outgrows memory"
    );
    // Still right: evaluate the array.
    let model = Model::new();
    let Value::Array(av) = s.eval(array, &model) else {
        panic!("an array");
    };
    let mut expected = vec![0u8; 16 * 65536];
    expected[..4000].fill(1);
    for k in 0..n {
        let a = ((k * 4) % 8192) as usize;
        expected[a..a + 4].copy_from_slice(&((k | 0x100) as u32).to_le_bytes());
    }
    for (a, &b) in expected.iter().enumerate().take(9000) {
        assert_eq!(av.get(a as u32), b, "byte {a}");
    }
}

// ----- bounds and growth -----

#[test]
fn in_bounds_is_exact_at_the_edges() {
    let mut s = TermStore::new();
    let mut solver = Solver::default();
    let m = FlatMemory::new(&mut s, 1, None);
    let len = 65536u64;
    let x = s.declare("x", Sort::Bv(32)).unwrap();
    let cases: &[(u64, u32, u32, bool)] = &[
        (len - 1, 0, 1, true),
        (len, 0, 1, false),
        (len - 8, 0, 8, true),
        (len - 7, 0, 8, false),
        (len - 9, 1, 8, true),
        (len - 8, 1, 8, false),
        (0, 65535, 1, true),
        (0, 65536, 1, false),
        (1, 65535, 1, false),
        (0xffff_ffff, 1, 1, false),
        (0xffff_ffff, 0xffff_ffff, 2, false),
        (0, 0, 4, true),
    ];
    for &(addr, offset, size, expected) in cases {
        let a = c32(&mut s, addr);
        let c = in_bounds(&m, &mut s, a, offset, size);
        assert_eq!(
            s.as_bool_const(c),
            Some(expected),
            "{addr} + {offset}, {size} bytes"
        );
        // The same question with a symbolic address pinned to `addr`.
        let sym = in_bounds(&m, &mut s, x, offset, size);
        let pin = s.eq(x, a);
        assert_eq!(
            sat(&mut solver, &mut s, &[sym, pin]).is_some(),
            expected,
            "symbolic {addr} + {offset}, {size} bytes"
        );
    }
    // Offsets past the memory need no solver.
    let c = in_bounds(&m, &mut s, x, 0xffff_fff0, 4);
    assert_eq!(s.as_bool_const(c), Some(false));

    // A full 4 GiB memory: addr + offset must not wrap past 2^32.
    let big = FlatMemory::new(&mut s, MAX_PAGES, None);
    assert_eq!(big.len(), 1 << 32);
    let c = in_bounds(&big, &mut s, x, 0xffff_ffff, 1);
    for (addr, expected) in [(0u64, true), (1, false), (0xffff_ffff, false)] {
        let a = c32(&mut s, addr);
        let pin = s.eq(x, a);
        assert_eq!(sat(&mut solver, &mut s, &[c, pin]).is_some(), expected);
    }
    let c = in_bounds(&big, &mut s, x, 0, 8);
    for (addr, expected) in [((1u64 << 32) - 8, true), ((1 << 32) - 7, false)] {
        let a = c32(&mut s, addr);
        let pin = s.eq(x, a);
        assert_eq!(sat(&mut solver, &mut s, &[c, pin]).is_some(), expected);
    }
}

#[test]
fn grow_respects_the_maximum_and_returns_the_old_size() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 1, Some(3));
    assert_eq!(m.pages(), 1);
    assert_eq!(m.grow(0), Some(1));
    assert_eq!(m.grow(1), Some(1));
    assert_eq!(m.len(), 2 * PAGE_SIZE);
    assert_eq!(m.grow(2), None);
    assert_eq!(m.pages(), 2);
    assert_eq!(m.grow(1), Some(2));
    assert_eq!(m.grow(1), None);
    assert_eq!(m.grow(u32::MAX), None);
    assert_eq!(m.pages(), 3);
    let mut e = FlatMemory::new(&mut s, 0, None);
    assert!(e.is_empty());
    assert_eq!(e.grow(MAX_PAGES), Some(0));
    assert_eq!(e.grow(1), None);
    assert_eq!(e.len(), 1 << 32);
    let mut n = FlatMemory::new(&mut s, 0, Some(0));
    assert_eq!(n.grow(1), None);
    assert_eq!(n.grow(0), Some(0));

    // Pages grown after a symbolic write are zero.
    let mut m = FlatMemory::new(&mut s, 1, Some(2));
    let i = s.declare("i", Sort::Bv(32)).unwrap();
    let v = s.declare("v", Sort::Bv(8)).unwrap();
    m.store(&mut s, i, 0, v);
    assert_eq!(m.grow(1), Some(1));
    assert_eq!(m.concrete_bytes(PAGE_SIZE, 16), Some(vec![0; 16]));
    let a = c32(&mut s, PAGE_SIZE + 5);
    let r = m.load(&mut s, a, 0, 4);
    assert_eq!(s.as_bv_const(r), Some(0));
}

#[test]
fn a_mebibyte_of_concrete_writes_stays_small() {
    let mut s = TermStore::new();
    let mut m = FlatMemory::new(&mut s, 16, None);
    let terms_before = s.len();
    let mut rng = Rng::new(7);
    for k in 0..(1u64 << 18) {
        let a = c32(&mut s, k * 4);
        let v = s.bv_const(32, rng.next() & 0xffff);
        m.store(&mut s, a, 0, v);
    }
    let heap = m.heap_bytes();
    // The bytes, a header per chunk and the nodes above the chunks.
    assert!(
        heap <= (1 << 20) + (1 << 20) / 4,
        "1 MiB of concrete bytes takes {heap} bytes"
    );
    let chunks = m.data_chunks(0, m.len() - 1);
    assert_eq!(chunks.len(), (1 << 20) / CHUNK);
    assert!(chunks.iter().all(|(_, c)| matches!(**c, Chunk::Bytes(_))));
    // The constants of values and addresses, nothing per byte.
    assert!(s.len() - terms_before <= 2 * (1 << 18) + 256);
}

// ----- randomized differential test against a byte vector -----

/// The objects of the differential test (first and last byte): symbolic
/// accesses inside one of them often go through its own array.
const OBJECTS: [(u64, u64); 3] = [(40, 139), (300, 555), (600, 615)];
/// Where the differential test's regions start, and the last ends.
const REGIONS: [u64; 3] = [128, 512, 900];

/// Runs random operations on a memory and on a `Vec<u8>` model. With
/// `symbolic`, values and addresses may be terms: the model then holds their
/// values under one fixed assignment of the symbols, and every load is
/// checked by evaluating it under that assignment.
fn differential(seed: u64, symbolic: bool, ops: usize) {
    let mut rng = Rng::new(seed);
    let mut s = TermStore::new();
    let max_pages = 3;
    let mut mem = FlatMemory::new(&mut s, 1, Some(max_pages));
    // Regions that objects overlap: accesses to their bytes go through
    // either's array.
    mem.set_regions(&REGIONS);
    let mut model = vec![0u8; PAGE_SIZE as usize];
    let mut other: Option<(FlatMemory, Vec<u8>)> = None;
    let mut assignment = Model::new();
    let mut pool: Vec<TermId> = Vec::new();
    let mut pointers: Vec<(TermId, u64)> = Vec::new();
    let mut fresh = 0u32;
    let anywhere = Within::Bytes(ANYWHERE.0, ANYWHERE.1);
    let unlimited = &mut Checkpoint::new(Limits::default());

    let mut new_symbol = |s: &mut TermStore, assignment: &mut Model, width: u8, value: u64| {
        fresh += 1;
        let t = s.declare(&format!("s{fresh}"), Sort::Bv(width)).unwrap();
        assignment.set(
            symbol_id(s, t),
            Value::Bv {
                width,
                value: value & mask(width),
            },
        );
        t
    };

    for step in 0..ops {
        let len = model.len() as u64;
        // An address with room for `n` bytes, often near a chunk boundary.
        let addr = |rng: &mut Rng, n: u64| -> u64 {
            // Symbolic runs stay mostly in a few chunks: every load is
            // evaluated, and arrays over all of memory are slow to evaluate.
            let a = if symbolic && rng.chance(85) {
                rng.below(4 * CHUNK_U64)
            } else if rng.chance(30) {
                let chunk = rng.below(len / CHUNK_U64 + 1) * CHUNK_U64;
                (chunk + rng.below(16)).saturating_sub(8)
            } else if rng.chance(50) {
                rng.below(3 * CHUNK_U64)
            } else {
                rng.below(len)
            };
            a.min(len - n)
        };
        match rng.below(100) {
            // Store at a concrete address.
            0..=24 => {
                let size = rng.pick(&[1u32, 2, 4, 8]);
                let width = (8 * size) as u8;
                let a = addr(&mut rng, u64::from(size));
                let value = if symbolic && rng.chance(50) {
                    let same_width: Vec<TermId> = pool
                        .iter()
                        .copied()
                        .filter(|&t| s.width(t) == width)
                        .collect();
                    if !same_width.is_empty() && rng.chance(50) {
                        rng.pick(&same_width)
                    } else if rng.chance(30) && size > 1 {
                        let half = width / 2;
                        let hi = new_symbol(&mut s, &mut assignment, half, rng.next());
                        let lo = s.bv_const(half, rng.next());
                        s.concat(hi, lo)
                    } else {
                        new_symbol(&mut s, &mut assignment, width, rng.next())
                    }
                } else {
                    s.bv_const(width, rng.value(width, 20))
                };
                let v = bv(&s, value, &assignment);
                let at = c32(&mut s, a);
                let offset = rng.below(a + 1).min(7);
                let base = c32(&mut s, a - offset);
                let ok = in_bounds(&mem, &mut s, base, offset as u32, size);
                assert_eq!(s.as_bool_const(ok), Some(true));
                if rng.chance(50) {
                    mem.store(&mut s, at, 0, value);
                } else {
                    mem.store(&mut s, base, offset as u32, value);
                }
                model[a as usize..(a + u64::from(size)) as usize]
                    .copy_from_slice(&v.to_le_bytes()[..size as usize]);
            }
            // Load at a concrete address.
            25..=44 => {
                let size = rng.pick(&[1u32, 2, 4, 8]);
                let a = addr(&mut rng, u64::from(size));
                let at = c32(&mut s, a);
                let t = mem.load(&mut s, at, 0, size);
                let mut expected = [0u8; 8];
                expected[..size as usize]
                    .copy_from_slice(&model[a as usize..(a + u64::from(size)) as usize]);
                let expected = u64::from_le_bytes(expected);
                if symbolic {
                    assert_eq!(bv(&s, t, &assignment), expected, "step {step}: load at {a}");
                    pool.push(t);
                } else {
                    assert_eq!(s.as_bv_const(t), Some(expected), "step {step}: load at {a}");
                }
            }
            // Load or store at a symbolic address.
            45..=52 if symbolic => {
                let size = rng.pick(&[1u32, 2, 4, 8]);
                let a = addr(&mut rng, u64::from(size));
                let offset = rng.below(a + 1).min(20);
                // p + c + offset = a, with p a symbol pointing near a.
                let reuse: Vec<(TermId, u64)> = pointers
                    .iter()
                    .copied()
                    .filter(|&(_, pv)| pv + offset <= a && a - pv - offset < 64)
                    .collect();
                let (p, pv) = if !reuse.is_empty() && rng.chance(70) {
                    rng.pick(&reuse)
                } else {
                    let pv = a - offset - rng.below(a - offset + 1).min(rng.below(8));
                    let p = if rng.chance(50) {
                        // `(q & 0xff) + high`: its interval is a window of
                        // 256 bytes, and the read's array covers only it.
                        let (low, high) = (pv & 0xff, pv & !0xff);
                        let q = new_symbol(&mut s, &mut assignment, 32, rng.next() << 8 | low);
                        let m = c32(&mut s, 0xff);
                        let masked = s.bin(BvBinOp::And, q, m);
                        if high == 0 {
                            masked
                        } else {
                            let h = c32(&mut s, high);
                            s.bin(BvBinOp::Add, masked, h)
                        }
                    } else {
                        new_symbol(&mut s, &mut assignment, 32, pv)
                    };
                    pointers.push((p, pv));
                    (p, pv)
                };
                let c = a - offset - pv;
                let address = if c == 0 {
                    p
                } else {
                    let k = c32(&mut s, c);
                    s.bin(BvBinOp::Add, p, k)
                };
                let ok = in_bounds(&mem, &mut s, address, offset as u32, size);
                assert_eq!(s.eval(ok, &assignment), Value::Bool(true));
                let range = a as usize..(a + u64::from(size)) as usize;
                // Inside an object, often through the object's own array.
                let end = a + u64::from(size) - 1;
                let within = OBJECTS
                    .iter()
                    .find(|&&(lo, hi)| lo <= a && end <= hi && rng.chance(70))
                    .map_or(anywhere, |&(lo, hi)| Within::Object(lo, hi));
                if rng.chance(50) {
                    let t = mem
                        .load_within(&mut s, address, offset as u32, size, within, unlimited)
                        .expect("no limits");
                    let mut expected = [0u8; 8];
                    expected[..size as usize].copy_from_slice(&model[range]);
                    assert_eq!(
                        bv(&s, t, &assignment),
                        u64::from_le_bytes(expected),
                        "step {step}: symbolic load at {a}"
                    );
                    pool.push(t);
                } else {
                    let width = (8 * size) as u8;
                    let value = if rng.chance(50) {
                        new_symbol(&mut s, &mut assignment, width, rng.next())
                    } else {
                        s.bv_const(width, rng.next())
                    };
                    let v = bv(&s, value, &assignment);
                    mem.store_within(&mut s, address, offset as u32, value, within, unlimited)
                        .expect("no limits");
                    model[range].copy_from_slice(&v.to_le_bytes()[..size as usize]);
                }
            }
            // Grow.
            53..=54 => {
                let delta = rng.below(3) as u32;
                let pages = (model.len() as u64 / PAGE_SIZE) as u32;
                let expected = (pages + delta <= max_pages).then_some(pages);
                assert_eq!(mem.grow(delta), expected);
                if expected.is_some() {
                    model.resize(model.len() + delta as usize * PAGE_SIZE as usize, 0);
                }
                assert_eq!(mem.len(), model.len() as u64);
            }
            // Fill.
            55..=61 => {
                let n = if rng.chance(if symbolic { 5 } else { 30 }) {
                    CHUNK_U64 * (1 + rng.below(3))
                } else {
                    rng.below(300)
                };
                let n = n.min(len);
                let a = if rng.chance(30) {
                    (rng.below(len / CHUNK_U64) * CHUNK_U64).min(len - n)
                } else {
                    addr(&mut rng, n)
                };
                let value = if symbolic && rng.chance(40) {
                    new_symbol(&mut s, &mut assignment, 8, rng.next())
                } else {
                    let any = rng.next() & 0xff;
                    s.bv_const(8, rng.pick(&[0, 0, 1, 0xff, any]))
                };
                let v = bv(&s, value, &assignment) as u8;
                mem.fill(&mut s, a, value, n);
                model[a as usize..(a + n) as usize].fill(v);
            }
            // Copy, often overlapping, sometimes whole aligned chunks.
            62..=71 => {
                let n = if rng.chance(if symbolic { 5 } else { 25 }) {
                    CHUNK_U64 * (1 + rng.below(2))
                } else {
                    rng.below(400)
                }
                .min(len / 2);
                let (src, dst) = if rng.chance(25) {
                    let chunks = len / CHUNK_U64 - n.div_ceil(CHUNK_U64);
                    (
                        rng.below(chunks + 1) * CHUNK_U64,
                        rng.below(chunks + 1) * CHUNK_U64,
                    )
                } else {
                    let src = addr(&mut rng, n);
                    let dst = if rng.chance(50) {
                        (src + rng.below(2 * n + 1)).saturating_sub(n).min(len - n)
                    } else {
                        addr(&mut rng, n)
                    };
                    (src, dst)
                };
                mem.copy(&mut s, dst, src, n);
                model.copy_within(src as usize..(src + n) as usize, dst as usize);
            }
            // Concrete bytes from the host.
            72..=79 => {
                let n = rng.below(200);
                let a = addr(&mut rng, n);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                mem.write_concrete(&mut s, a, &bytes);
                model[a as usize..(a + n) as usize].copy_from_slice(&bytes);
            }
            80..=87 => {
                let n = rng.below(300);
                let a = if rng.chance(5) {
                    len - rng.below(5)
                } else {
                    addr(&mut rng, n)
                };
                let got = mem.concrete_bytes(a, n);
                if a + n > len {
                    assert_eq!(got, None);
                } else if let Some(bytes) = got {
                    assert_eq!(bytes, model[a as usize..(a + n) as usize]);
                } else {
                    assert!(symbolic, "step {step}: concrete bytes at {a} missing");
                }
            }
            // Single bytes.
            88..=91 => {
                let a = addr(&mut rng, 1);
                if rng.chance(50) {
                    let t = mem.byte(&mut s, a);
                    assert_eq!(bv(&s, t, &assignment) as u8, model[a as usize]);
                } else {
                    let v = s.bv_const(8, rng.next());
                    mem.set_byte(&mut s, a, v);
                    model[a as usize] = bv(&s, v, &assignment) as u8;
                }
            }
            // Fork, or switch to the other fork.
            92..=94 => {
                if let Some((m2, model2)) = other.as_mut().filter(|_| rng.chance(50)) {
                    std::mem::swap(&mut mem, m2);
                    std::mem::swap(&mut model, model2);
                } else {
                    other = Some((mem.clone(), model.clone()));
                }
            }
            // The whole memory as an array agrees with the model.
            95 if symbolic => {
                let array = mem.array(&mut s);
                let Value::Array(av) = s.eval(array, &assignment) else {
                    panic!("an array");
                };
                for (a, &b) in model.iter().enumerate() {
                    assert_eq!(av.get(a as u32), b, "step {step}: array at {a}");
                }
            }
            _ => {}
        }
    }
    // Both forks agree with their models byte for byte.
    let mut forks = vec![(mem, model)];
    forks.extend(other);
    for (mut mem, model) in forks {
        if symbolic {
            let array = mem.array(&mut s);
            let Value::Array(av) = s.eval(array, &assignment) else {
                panic!("an array");
            };
            for (a, &b) in model.iter().enumerate() {
                assert_eq!(av.get(a as u32), b, "final array at {a}");
            }
        } else {
            assert_eq!(mem.concrete_bytes(0, model.len() as u64).unwrap(), model);
            for (a, &b) in model.iter().enumerate() {
                let t = mem.byte(&mut s, a as u64);
                assert_eq!(s.as_bv_const(t), Some(u64::from(b)), "final byte {a}");
            }
        }
    }
}

#[test]
fn differential_concrete() {
    for seed in 0..6 {
        differential(seed, false, 5000);
    }
}

#[test]
fn differential_symbolic() {
    for seed in 100..102 {
        differential(seed, true, 700);
    }
}

/// Under whole contents, a write at a symbolic address spans every byte
/// held, an arena's too; the bytes between the module's pages and the
/// arena, which no access lands in, stay blank (never walked) and out of
/// the array's size, and the written value still reads back.
#[test]
fn a_whole_memory_write_leaves_the_gap_below_an_arena_blank() {
    let s = &mut TermStore::new();
    let mut m = FlatMemory::new(s, 1, None);
    m.set_contents(Contents::Whole);
    let arena = 0x4000_0000;
    m.start_arena(arena);
    m.hold(arena + PAGE_SIZE);
    let p = s.declare("p", Sort::Bv(32)).unwrap();
    let v = s.bv_const(8, 0x5a);
    m.store(s, p, 0, v);
    let mut walked = 0;
    m.slots
        .for_each_written(0..m.slots.len(), |_, _| walked += 1);
    let held = 2 * CHUNKS_PER_PAGE;
    assert!(walked <= held + 16, "{walked} chunks walked, {held} held");
    let anywhere = Within::Bytes(ANYWHERE.0, ANYWHERE.1);
    assert_eq!(m.array_bytes(s, p, 0, 1, anywhere), 2 * PAGE_SIZE);
    // Where it lands, in the module's pages or the arena's, it reads back.
    for at in [100, arena + 7] {
        let read = m.load(s, p, 0, 1);
        let mut model = Model::default();
        set_bv(&mut model, s, p, at);
        assert_eq!(bv(s, read, &model), 0x5a, "at {at:#x}");
    }
}
