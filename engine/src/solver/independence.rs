//! Constraint independence: constraints that share nothing, directly or
//! through other constraints, are solved apart, so a new branch condition only
//! re-solves the constraints it is connected to and the rest hit the caches.
//!
//! As in KLEE, an array read at a constant index is its own unit: conditions
//! on `input[0]` and on `input[5]` are independent, although both read the
//! one `input` array. Any other use of the array (a read at a symbolic index,
//! a store over it) depends on all of its bytes.

use crate::expr::{ArrayValue, Model, Node, Sort, SymbolId, TermId, TermStore, Value};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// What a constraint depends on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Atom {
    /// A boolean or bit-vector symbol, or a whole array.
    Symbol(SymbolId),
    /// One byte of an array symbol, read at a constant index.
    Byte(SymbolId, u32),
}

/// The atoms of each constraint seen so far; constraints recur across
/// queries, so their atoms are computed once.
#[derive(Default)]
pub struct SymbolIndex {
    atoms: FxHashMap<TermId, Rc<[Atom]>>,
}

/// The values a model of one slice of constraints gives the atoms that
/// slice reads, and nothing else. Applied over one another in the order
/// of their slices, the witnesses of a path condition's slices make a
/// model of it all: a later slice that reads an atom holds every
/// constraint on that atom, since those are connected to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Witness(Rc<[Assignment]>);

/// One atom's value in a witness.
#[derive(Clone, Debug, PartialEq)]
enum Assignment {
    Byte(SymbolId, u32, u8),
    Symbol(SymbolId, Value),
}

impl Witness {
    /// Gives the atoms of this witness their values in `model`.
    pub fn apply(&self, model: &mut Model) {
        for assignment in self.0.iter() {
            match assignment {
                Assignment::Byte(s, i, byte) => model.set_byte(*s, *i, *byte),
                Assignment::Symbol(s, value) => model.set(*s, value.clone()),
            }
        }
    }

    /// The atoms it gives values.
    pub fn atoms(&self) -> usize {
        self.0.len()
    }

    /// Bytes it holds on the heap, what `n` holders share counting `1 / n`
    /// (an array value's entries estimated).
    pub fn heap_bytes(&self) -> usize {
        let arrays: usize = self
            .0
            .iter()
            .map(|a| match a {
                Assignment::Symbol(_, Value::Array(array)) => {
                    (std::mem::size_of::<ArrayValue>() + 16 * array.entries.len())
                        / Rc::strong_count(array)
                }
                _ => 0,
            })
            .sum();
        let own = 2 * std::mem::size_of::<usize>() + std::mem::size_of_val(&*self.0);
        (own + arrays) / Rc::strong_count(&self.0)
    }
}

impl SymbolIndex {
    pub fn atoms_of(&mut self, store: &TermStore, t: TermId) -> Rc<[Atom]> {
        self.atoms
            .entry(t)
            .or_insert_with(|| atoms_in(store, t).into())
            .clone()
    }

    /// What `model`, a model of the constraints `slice`, says of the
    /// atoms they read: their values (an atom the model leaves out has its
    /// default), and for arrays only the bytes read, unless the slice
    /// depends on the whole array (then no other slice touches it).
    pub fn witness(&mut self, store: &TermStore, slice: &[TermId], model: &Model) -> Witness {
        let mut atoms: Vec<Atom> = slice
            .iter()
            .flat_map(|&c| self.atoms_of(store, c).to_vec())
            .collect();
        atoms.sort_unstable();
        atoms.dedup();
        let values = atoms.into_iter().map(|atom| match atom {
            Atom::Symbol(s) => Assignment::Symbol(s, model.value_of(s, store.symbol_sort(s))),
            Atom::Byte(s, i) => Assignment::Byte(
                s,
                i,
                match model.get(s) {
                    Some(Value::Array(a)) => a.get(i),
                    _ => 0,
                },
            ),
        });
        Witness(values.collect())
    }

    /// Splits sorted `constraints` into groups that share no atom. Each group
    /// stays sorted; groups come in the order of their first constraint.
    pub fn partition(&mut self, store: &TermStore, constraints: &[TermId]) -> Vec<Vec<TermId>> {
        let mut sets = self.join_sharing(store, constraints);
        let mut group_of_root: FxHashMap<usize, usize> = FxHashMap::default();
        let mut groups: Vec<Vec<TermId>> = Vec::new();
        for (i, &c) in constraints.iter().enumerate() {
            let root = sets.find(i);
            let g = *group_of_root.entry(root).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(c);
        }
        groups
    }

    /// The constraints of `known` that share an atom with a term of
    /// `extra`, directly or through other constraints of `known`, in their
    /// order: all that can decide whether `extra` holds beside `known`.
    pub fn connected(
        &mut self,
        store: &TermStore,
        known: &[TermId],
        extra: &[TermId],
    ) -> Vec<TermId> {
        let all: Vec<TermId> = known.iter().chain(extra).copied().collect();
        let mut sets = self.join_sharing(store, &all);
        let roots: Vec<usize> = (known.len()..all.len()).map(|i| sets.find(i)).collect();
        known
            .iter()
            .enumerate()
            .filter(|&(i, _)| roots.contains(&sets.find(i)))
            .map(|(_, &c)| c)
            .collect()
    }

    /// The sets of `constraints` (by position) that share atoms, directly
    /// or through others.
    fn join_sharing(&mut self, store: &TermStore, constraints: &[TermId]) -> DisjointSets {
        let mut sets = DisjointSets::new(constraints.len());
        let mut owner: FxHashMap<Atom, usize> = FxHashMap::default();
        // For each array: a constraint that uses it whole, and the constraints
        // that read its bytes, which all depend on such a use.
        let mut whole: FxHashMap<SymbolId, usize> = FxHashMap::default();
        let mut bytes: FxHashMap<SymbolId, Vec<usize>> = FxHashMap::default();
        for (i, &c) in constraints.iter().enumerate() {
            for &atom in self.atoms_of(store, c).iter() {
                if let Some(&j) = owner.get(&atom) {
                    sets.join(i, j);
                } else {
                    owner.insert(atom, i);
                }
                match atom {
                    Atom::Symbol(s) if store.symbol_sort(s) == Sort::Array => {
                        whole.entry(s).or_insert(i);
                        for &j in bytes.get(&s).into_iter().flatten() {
                            sets.join(i, j);
                        }
                    }
                    Atom::Symbol(_) => {}
                    Atom::Byte(s, _) => {
                        if let Some(&j) = whole.get(&s) {
                            sets.join(i, j);
                        }
                        bytes.entry(s).or_default().push(i);
                    }
                }
            }
        }
        sets
    }
}

/// The atoms of `t`, sorted.
fn atoms_in(store: &TermStore, t: TermId) -> Vec<Atom> {
    let mut atoms = Vec::new();
    for u in store.reachable(&[t]) {
        let node = store.node(u);
        if let Node::Select(array, index) = *node {
            if let (Node::Symbol(s), Some(i)) = (store.node(array), store.as_bv_const(index)) {
                atoms.push(Atom::Byte(*s, i as u32));
                continue;
            }
        }
        match *node {
            Node::Symbol(s) if store.symbol_sort(s) != Sort::Array => atoms.push(Atom::Symbol(s)),
            // An array symbol used other than by a constant-index read.
            _ => atoms.extend(node.children().filter_map(|c| match *store.node(c) {
                Node::Symbol(s) if store.symbol_sort(s) == Sort::Array => Some(Atom::Symbol(s)),
                _ => None,
            })),
        }
    }
    atoms.sort_unstable();
    atoms.dedup();
    atoms
}

/// Union-find over constraint positions.
struct DisjointSets {
    parent: Vec<usize>,
}

impl DisjointSets {
    fn new(n: usize) -> DisjointSets {
        DisjointSets {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra.max(rb)] = ra.min(rb);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvCmp, Sort};

    #[test]
    fn constraints_join_through_shared_symbols() {
        let mut s = TermStore::new();
        let x = s.declare("x", Sort::Bv(8)).unwrap();
        let y = s.declare("y", Sort::Bv(8)).unwrap();
        let z = s.declare("z", Sort::Bv(8)).unwrap();
        let w = s.declare("w", Sort::Bv(8)).unwrap();
        let c1 = s.cmp(BvCmp::Ult, x, y);
        let c2 = s.cmp(BvCmp::Ult, z, w);
        let c3 = s.cmp(BvCmp::Ult, y, z);
        let c4 = s.cmp(BvCmp::Ult, w, w);
        let lone = s.declare("lone", Sort::Bv(8)).unwrap();
        let c5 = s.cmp(BvCmp::Ule, lone, lone);
        let mut index = SymbolIndex::default();
        let mut cs = vec![c1, c2, c4, c5];
        cs.sort();
        let groups = index.partition(&s, &cs);
        assert_eq!(groups.len(), 3, "{groups:?}");
        assert!(groups.iter().any(|g| g == &vec![c2, c4]));
        cs.push(c3);
        cs.sort();
        let groups = index.partition(&s, &cs);
        assert_eq!(groups.len(), 2, "{groups:?}");
        assert_eq!(groups[0], vec![c1, c2, c3, c4]);
        assert_eq!(groups[1], vec![c5]);
    }

    /// `input[i] < 10` for a constant or symbolic index term.
    fn byte_below_ten(s: &mut TermStore, input: TermId, index: TermId) -> TermId {
        let read = s.select(input, index);
        let ten = s.bv_const(8, 10);
        s.cmp(BvCmp::Ult, read, ten)
    }

    #[test]
    fn bytes_read_at_constant_indices_are_independent() {
        let mut s = TermStore::new();
        let input = s.declare("input", Sort::Array).unwrap();
        let (i0, i5) = (s.bv_const(32, 0), s.bv_const(32, 5));
        let on0 = byte_below_ten(&mut s, input, i0);
        let on5 = byte_below_ten(&mut s, input, i5);
        let again0 = {
            let read = s.select(input, i0);
            let one = s.bv_const(8, 1);
            s.cmp(BvCmp::Ult, one, read)
        };
        let mut index = SymbolIndex::default();
        let mut cs = vec![on0, on5, again0];
        cs.sort();
        let groups = index.partition(&s, &cs);
        assert_eq!(groups, vec![vec![on0, again0], vec![on5]]);
        // A read at a symbolic index may read any byte: it joins them all.
        let k = s.declare("k", Sort::Bv(32)).unwrap();
        let anywhere = byte_below_ten(&mut s, input, k);
        cs.push(anywhere);
        cs.sort();
        assert_eq!(index.partition(&s, &cs).len(), 1);
    }

    #[test]
    fn a_new_condition_is_connected_to_the_constraints_it_shares_atoms_with() {
        let mut s = TermStore::new();
        let input = s.declare("input", Sort::Array).unwrap();
        let x = s.declare("x", Sort::Bv(8)).unwrap();
        let (i0, i5) = (s.bv_const(32, 0), s.bv_const(32, 5));
        let on0 = byte_below_ten(&mut s, input, i0);
        let on5 = byte_below_ten(&mut s, input, i5);
        let read5 = s.select(input, i5);
        let x_is_5th = s.eq(x, read5);
        let zero = s.bv_const(8, 0);
        let x_positive = s.cmp(BvCmp::Ult, zero, x);
        let mut index = SymbolIndex::default();
        let known = [on0, on5, x_is_5th];
        // Through input[5], x reaches on5; on0 reads another byte.
        assert_eq!(index.connected(&s, &known, &[x_positive]), [on5, x_is_5th]);
        let y = s.declare("y", Sort::Bv(8)).unwrap();
        let y_positive = s.cmp(BvCmp::Ult, zero, y);
        assert_eq!(index.connected(&s, &known, &[y_positive]), []);
        // A read anywhere reaches every byte.
        let k = s.declare("k", Sort::Bv(32)).unwrap();
        let anywhere = byte_below_ten(&mut s, input, k);
        assert_eq!(index.connected(&s, &known, &[anywhere]), known);
    }

    #[test]
    fn witnesses_apply_byte_by_byte() {
        let mut s = TermStore::new();
        let input = s.declare("input", Sort::Array).unwrap();
        let (i0, i5) = (s.bv_const(32, 0), s.bv_const(32, 5));
        let on0 = byte_below_ten(&mut s, input, i0);
        let on5 = byte_below_ten(&mut s, input, i5);
        let sym = s.symbol_named("input").unwrap();
        let model_with = |entries: &[(u32, u8)]| {
            let mut a = ArrayValue::default();
            for &(i, v) in entries {
                a.set(i, v);
            }
            let mut m = Model::new();
            m.set(sym, Value::Array(Rc::new(a)));
            m
        };
        let mut index = SymbolIndex::default();
        let mut merged = Model::new();
        // Each group's model also holds a stale value for the other's byte.
        index
            .witness(&s, &[on0], &model_with(&[(0, 3), (5, 200)]))
            .apply(&mut merged);
        index
            .witness(&s, &[on5], &model_with(&[(0, 99), (5, 7)]))
            .apply(&mut merged);
        assert!(s.satisfies(&[on0, on5], &merged));
        let Some(Value::Array(a)) = merged.get(sym) else {
            panic!("array value");
        };
        assert_eq!((a.get(0), a.get(5)), (3, 7));
    }
}
