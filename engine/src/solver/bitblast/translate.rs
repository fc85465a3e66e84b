//! Terms to circuits. The bits of every term reachable from a constraint are
//! built once and kept across queries (term ids are stable in a store); for
//! each constraint it also records which symbols and array reads its models
//! have to give values to.

use super::aig::{Aig, AigLit};
use super::arrays::{ArrayReads, Index, Read, ReadId};
use super::term_bits::TermBits;
use super::words;
use crate::expr::{BvUnOp, Node, Sort, SymbolId, TermId, TermStore, ARRAY_INDEX_WIDTH};
use crate::limits::{Checkpoint, Reached};
use rustc_hash::{FxHashMap, FxHashSet};

/// What a constraint is in the circuit, and what its models must assign.
pub struct RootInfo {
    pub lit: AigLit,
    /// The symbols that occur in the constraint, sorted.
    pub symbols: Box<[SymbolId]>,
    /// The reads of array symbols its `select`s expand to, sorted.
    pub reads: Box<[ReadId]>,
}

#[derive(Default)]
pub struct Translator {
    aig: Aig,
    bits: TermBits,
    arrays: ArrayReads,
    /// The array-symbol reads each translated `select` depends on.
    select_reads: FxHashMap<TermId, Box<[ReadId]>>,
    roots: FxHashMap<TermId, RootInfo>,
}

impl Translator {
    pub fn aig(&self) -> &Aig {
        &self.aig
    }

    pub fn bits(&self, t: TermId) -> Option<&[AigLit]> {
        self.bits.get(t)
    }

    pub fn read(&self, id: ReadId) -> &Read {
        self.arrays.read(id)
    }

    /// Literals held for translated terms: with the graph's size, what the
    /// translation costs in memory.
    pub fn num_term_bits(&self) -> usize {
        self.bits.num_lits()
    }

    /// The literal that reads `a` and `b` are at equal indices.
    pub fn same_index(&mut self, a: ReadId, b: ReadId) -> AigLit {
        let (ia, ib) = (self.arrays.read(a).index, self.arrays.read(b).index);
        words::eq(&mut self.aig, &ia, &ib)
    }

    /// The boolean term `root` translated, with every term it contains; a
    /// limit reached meanwhile stops the translation (the terms translated
    /// so far stay, complete).
    pub fn root(
        &mut self,
        store: &TermStore,
        root: TermId,
        checkpoint: &mut Checkpoint,
    ) -> Result<&RootInfo, Reached> {
        if !self.roots.contains_key(&root) {
            let info = self.translate_root(store, root, checkpoint)?;
            self.roots.insert(root, info);
        }
        Ok(&self.roots[&root])
    }

    /// A constraint already translated by [`Translator::root`].
    pub fn root_info(&self, root: TermId) -> Option<&RootInfo> {
        self.roots.get(&root)
    }

    fn translate_root(
        &mut self,
        store: &TermStore,
        root: TermId,
        checkpoint: &mut Checkpoint,
    ) -> Result<RootInfo, Reached> {
        // One walk over the whole term, without recursion: the terms not yet
        // translated, and the symbols and selects models will need.
        let mut seen = FxHashSet::default();
        let mut stack = vec![root];
        let mut new_terms = Vec::new();
        let mut symbols = Vec::new();
        let mut selects = Vec::new();
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            let node = store.node(t);
            match *node {
                Node::Symbol(s) => symbols.push(s),
                Node::Select(..) => selects.push(t),
                _ => {}
            }
            if store.sort(t) != Sort::Array && self.bits.get(t).is_none() {
                new_terms.push(t);
            }
            stack.extend(node.children());
        }
        // Children have smaller ids than their parents.
        new_terms.sort_unstable();
        for t in new_terms {
            let before = self.aig.len();
            self.translate(store, t);
            let made = self.aig.len() - before;
            let aig = &self.aig;
            let growth = || aig.growth_bytes(Checkpoint::WORK as usize);
            if let Some(reached) = checkpoint.after_with(1 + made as u64, growth) {
                return Err(reached);
            }
        }
        symbols.sort_unstable();
        let mut reads: Vec<ReadId> = selects
            .iter()
            .filter_map(|s| self.select_reads.get(s))
            .flat_map(|r| r.iter().copied())
            .collect();
        reads.sort_unstable();
        reads.dedup();
        Ok(RootInfo {
            lit: self.bits.word(root)[0],
            symbols: symbols.into(),
            reads: reads.into(),
        })
    }

    /// Translates `t`, whose non-array children are translated already.
    fn translate(&mut self, store: &TermStore, t: TermId) {
        let aig = &mut self.aig;
        let bits = &self.bits;
        let word = |c: TermId| bits.word(c).to_vec();
        let bit = |c: TermId| bits.word(c)[0];
        let result = match *store.node(t) {
            Node::BoolConst(b) => vec![AigLit::constant(b)],
            Node::BvConst { width, value } => words::constant(width, value),
            Node::Symbol(_) => {
                let width = match store.sort(t) {
                    Sort::Bool => 1,
                    Sort::Bv(w) => w,
                    Sort::Array => return,
                };
                (0..width).map(|_| aig.input()).collect()
            }
            Node::Not(a) => vec![!bit(a)],
            Node::And(a, b) => vec![aig.and(bit(a), bit(b))],
            Node::Or(a, b) => vec![aig.or(bit(a), bit(b))],
            Node::Xor(a, b) => vec![aig.xor(bit(a), bit(b))],
            Node::Ite(c, a, b) => {
                if store.sort(t) == Sort::Array {
                    return;
                }
                words::mux(aig, bit(c), &word(a), &word(b))
            }
            Node::Eq(a, b) => vec![words::eq(aig, &word(a), &word(b))],
            Node::BvUn(BvUnOp::Not, a) => word(a).into_iter().map(|l| !l).collect(),
            Node::BvUn(BvUnOp::Neg, a) => words::neg(aig, &word(a)),
            Node::BvBin(op, a, b) => words::binary(aig, op, &word(a), &word(b)),
            Node::BvCmp(op, a, b) => vec![words::compare(aig, op, &word(a), &word(b))],
            Node::Extract { hi, lo, arg } => {
                bits.word(arg)[usize::from(lo)..=usize::from(hi)].to_vec()
            }
            Node::Concat(high, low) => [bits.word(low), bits.word(high)].concat(),
            Node::ZeroExt(extra, a) => {
                let mut w = word(a);
                w.resize(w.len() + usize::from(extra), AigLit::FALSE);
                w
            }
            Node::SignExt(extra, a) => {
                let mut w = word(a);
                let sign = w[w.len() - 1];
                w.resize(w.len() + usize::from(extra), sign);
                w
            }
            Node::RotateLeft(k, a) => {
                let w = bits.word(a);
                let k = usize::from(k) % w.len();
                (0..w.len())
                    .map(|i| w[(i + w.len() - k) % w.len()])
                    .collect()
            }
            Node::RotateRight(k, a) => {
                let w = bits.word(a);
                let k = usize::from(k) % w.len();
                (0..w.len()).map(|i| w[(i + k) % w.len()]).collect()
            }
            Node::Select(array, i) => {
                let mut index: Index = [AigLit::FALSE; ARRAY_INDEX_WIDTH as usize];
                index.copy_from_slice(bits.word(i));
                let mut reads = Vec::new();
                let value = self
                    .arrays
                    .select(aig, store, bits, array, &index, &mut reads);
                if !reads.is_empty() {
                    reads.sort_unstable();
                    reads.dedup();
                    self.select_reads.insert(t, reads.into());
                }
                value.to_vec()
            }
            Node::Store(..) | Node::ConstArray(_) => return,
            Node::Forall(..) | Node::Bound(_) => {
                unreachable!("the solver expands a query's foralls before its layers see it")
            }
        };
        self.bits.insert(t, &result);
    }
}
