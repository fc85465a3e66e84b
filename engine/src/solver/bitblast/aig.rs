//! And-inverter graph: the circuit every term is translated into before CNF.
//!
//! Nodes are two-input ANDs over possibly complemented literals, hashed by
//! their (ordered) operands so that equal gates are built once, and folded on
//! construction when an operand is constant or the operands are related.

use rustc_hash::{FxHashMap, FxHashSet};
use std::ops::Not;

/// A literal: node index times two, plus one when complemented. Node 0 is the
/// constant false, so `FALSE` is 0 and `TRUE` is 1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct AigLit(u32);

impl AigLit {
    pub const FALSE: AigLit = AigLit(0);
    pub const TRUE: AigLit = AigLit(1);

    pub fn constant(b: bool) -> AigLit {
        if b {
            AigLit::TRUE
        } else {
            AigLit::FALSE
        }
    }

    /// The node this literal reads.
    pub fn node(self) -> NodeId {
        NodeId(self.0 >> 1)
    }

    pub fn is_complemented(self) -> bool {
        self.0 & 1 == 1
    }

    pub fn as_constant(self) -> Option<bool> {
        (self.0 >> 1 == 0).then_some(self.0 == 1)
    }

    fn of_node(node: NodeId) -> AigLit {
        AigLit(node.0 << 1)
    }
}

impl Not for AigLit {
    type Output = AigLit;
    fn not(self) -> AigLit {
        AigLit(self.0 ^ 1)
    }
}

/// Index of a node of an [`Aig`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct NodeId(u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a node computes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AigNode {
    False,
    Input,
    And(AigLit, AigLit),
}

/// Operands stored for nodes that are not AND gates.
const NOT_A_GATE: [AigLit; 2] = [AigLit(u32::MAX), AigLit(u32::MAX)];

pub struct Aig {
    /// The operands of each node; [`NOT_A_GATE`] for the constant and inputs.
    operands: Vec<[AigLit; 2]>,
    /// AND gates by their ordered operands packed into one word.
    gates: FxHashMap<u64, NodeId>,
}

impl Default for Aig {
    fn default() -> Self {
        Aig::new()
    }
}

impl Aig {
    pub fn new() -> Aig {
        Aig {
            operands: vec![NOT_A_GATE],
            gates: FxHashMap::default(),
        }
    }

    /// Number of nodes, the constant included.
    pub fn len(&self) -> usize {
        self.operands.len()
    }

    /// Bytes the graph allocates at once if it grows by `nodes` more: its
    /// node vector and gate table double when full.
    pub fn growth_bytes(&self, nodes: usize) -> u64 {
        let doubled = |capacity: usize, len: usize, entry: usize| {
            if capacity - len < nodes {
                2 * capacity * entry
            } else {
                0
            }
        };
        let node = std::mem::size_of::<[AigLit; 2]>();
        // A table entry, its control byte, and its buckets' spare eighth.
        let gate = (std::mem::size_of::<(u64, NodeId)>() + 1) * 8 / 7;
        (doubled(self.operands.capacity(), self.operands.len(), node)
            + doubled(self.gates.capacity(), self.gates.len(), gate)) as u64
    }

    pub fn node(&self, n: NodeId) -> AigNode {
        match self.operands[n.index()] {
            _ if n.0 == 0 => AigNode::False,
            NOT_A_GATE => AigNode::Input,
            [a, b] => AigNode::And(a, b),
        }
    }

    fn push(&mut self, operands: [AigLit; 2]) -> NodeId {
        // Literals are 2 * node + 1, so nodes are bounded by 2^31.
        let id = u32::try_from(self.operands.len())
            .ok()
            .filter(|&n| n < 1 << 31)
            .expect("and-inverter graph exceeds 2^31 nodes");
        self.operands.push(operands);
        NodeId(id)
    }

    /// A fresh free variable.
    pub fn input(&mut self) -> AigLit {
        AigLit::of_node(self.push(NOT_A_GATE))
    }

    pub fn and(&mut self, a: AigLit, b: AigLit) -> AigLit {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        // The constants are the two smallest literals, so `a` is the one to test.
        if a == AigLit::FALSE || a == !b {
            return AigLit::FALSE;
        }
        if a == AigLit::TRUE || a == b {
            return b;
        }
        let key = (u64::from(a.0) << 32) | u64::from(b.0);
        if let Some(&n) = self.gates.get(&key) {
            return AigLit::of_node(n);
        }
        let n = self.push([a, b]);
        self.gates.insert(key, n);
        AigLit::of_node(n)
    }

    pub fn or(&mut self, a: AigLit, b: AigLit) -> AigLit {
        !self.and(!a, !b)
    }

    pub fn xor(&mut self, a: AigLit, b: AigLit) -> AigLit {
        let only_a = self.and(a, !b);
        let only_b = self.and(!a, b);
        self.or(only_a, only_b)
    }

    pub fn xnor(&mut self, a: AigLit, b: AigLit) -> AigLit {
        !self.xor(a, b)
    }

    /// `if c { t } else { e }`.
    pub fn mux(&mut self, c: AigLit, t: AigLit, e: AigLit) -> AigLit {
        match (c.as_constant(), t.as_constant(), e.as_constant()) {
            (Some(true), _, _) => t,
            (Some(false), _, _) => e,
            _ if t == e => t,
            (_, Some(true), _) => self.or(c, e),
            (_, Some(false), _) => self.and(!c, e),
            (_, _, Some(true)) => self.or(!c, t),
            (_, _, Some(false)) => self.and(c, t),
            _ => {
                let then_part = self.and(c, t);
                let else_part = self.and(!c, e);
                self.or(then_part, else_part)
            }
        }
    }

    /// True when at least two of the three are.
    pub fn majority(&mut self, a: AigLit, b: AigLit, c: AigLit) -> AigLit {
        let both = self.and(a, b);
        let either = self.or(a, b);
        let carried = self.and(c, either);
        self.or(both, carried)
    }

    pub fn and_all(&mut self, lits: impl IntoIterator<Item = AigLit>) -> AigLit {
        lits.into_iter()
            .fold(AigLit::TRUE, |acc, lit| self.and(acc, lit))
    }

    /// How many nodes the literals depend on, counted up to just past `limit`.
    pub fn cone_size(&self, roots: impl IntoIterator<Item = AigLit>, limit: usize) -> usize {
        let mut seen = FxHashSet::default();
        let mut stack: Vec<NodeId> = roots.into_iter().map(AigLit::node).collect();
        while let Some(n) = stack.pop() {
            if seen.len() > limit {
                break;
            }
            if seen.insert(n) {
                if let AigNode::And(a, b) = self.node(n) {
                    stack.extend([a.node(), b.node()]);
                }
            }
        }
        seen.len()
    }

    /// The value of `lit` when `known` gives the value of some nodes and every
    /// other input is false. Fills `memo` with the nodes it evaluates.
    pub fn evaluate(
        &self,
        lit: AigLit,
        known: impl Fn(NodeId) -> Option<bool>,
        memo: &mut FxHashMap<NodeId, bool>,
    ) -> bool {
        let root = lit.node();
        let mut stack = vec![root];
        while let Some(&n) = stack.last() {
            if memo.contains_key(&n) {
                stack.pop();
                continue;
            }
            let value = match known(n) {
                Some(v) => v,
                None => match self.node(n) {
                    AigNode::False | AigNode::Input => false,
                    AigNode::And(a, b) => match (memo.get(&a.node()), memo.get(&b.node())) {
                        (Some(&va), Some(&vb)) => {
                            (va != a.is_complemented()) && (vb != b.is_complemented())
                        }
                        (va, vb) => {
                            if va.is_none() {
                                stack.push(a.node());
                            }
                            if vb.is_none() {
                                stack.push(b.node());
                            }
                            continue;
                        }
                    },
                },
            };
            memo.insert(n, value);
            stack.pop();
        }
        memo[&root] != lit.is_complemented()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trivial_rules_fold_without_new_nodes() {
        let mut aig = Aig::new();
        let x = aig.input();
        let before = aig.len();
        assert_eq!(aig.and(x, x), x);
        assert_eq!(aig.and(x, !x), AigLit::FALSE);
        assert_eq!(aig.and(x, AigLit::TRUE), x);
        assert_eq!(aig.and(AigLit::FALSE, x), AigLit::FALSE);
        assert_eq!(aig.xor(x, x), AigLit::FALSE);
        assert_eq!(aig.xor(x, AigLit::TRUE), !x);
        assert_eq!(aig.mux(AigLit::TRUE, x, !x), x);
        assert_eq!(aig.len(), before);
    }

    #[test]
    fn equal_gates_are_shared_in_either_operand_order() {
        let mut aig = Aig::new();
        let (x, y) = (aig.input(), aig.input());
        let g = aig.and(x, !y);
        let before = aig.len();
        assert_eq!(aig.and(!y, x), g);
        assert_eq!(aig.xor(x, y), aig.xor(y, x));
        assert_eq!(aig.len(), before + 2);
    }

    #[test]
    fn evaluation_follows_the_gates() {
        let mut aig = Aig::new();
        let (x, y, z) = (aig.input(), aig.input(), aig.input());
        let f = aig.majority(x, !y, z);
        for bits in 0..8u32 {
            let vals = [bits & 1 == 1, bits & 2 == 2, bits & 4 == 4];
            let inputs = [x.node(), y.node(), z.node()];
            let known = |n: NodeId| inputs.iter().position(|&i| i == n).map(|k| vals[k]);
            let expected = u8::from(vals[0]) + u8::from(!vals[1]) + u8::from(vals[2]) >= 2;
            let mut memo = FxHashMap::default();
            assert_eq!(aig.evaluate(f, known, &mut memo), expected, "{vals:?}");
        }
        // Three inputs and the four gates of the majority.
        assert_eq!(aig.cone_size([f, x], usize::MAX), 7);
        assert_eq!(aig.cone_size([f], 2), 3);
    }
}
