//! Lazy Tseitin encoding of an [`Aig`] into a [`SatBackend`]: a node gets a
//! variable and its defining clauses the first time a literal that depends on
//! it is asked for, and never again.
//!
//! A node that is the complement of a multiplexer (or XOR, the multiplexer of
//! a literal and its complement) over its grandchildren is encoded as one:
//! adders and shifters are made of them, and the direct encoding needs no
//! variables for the two inner gates and propagates better.

use super::aig::{Aig, AigLit, AigNode, NodeId};
use crate::limits::{Checkpoint, Reached};
use crate::solver::sat::{Lit, SatBackend, Var};

/// Marks nodes without a variable.
const NO_VAR: u32 = u32::MAX;

#[derive(Default)]
pub struct Tseitin {
    /// The variable of each node, by node index.
    var_of: Vec<u32>,
    /// Nodes waiting to be encoded; kept to reuse its allocation.
    stack: Vec<NodeId>,
}

impl Tseitin {
    /// The variable of `n`, if it is encoded.
    pub fn var(&self, n: NodeId) -> Option<Var> {
        match self.var_of.get(n.index()) {
            Some(&v) if v != NO_VAR => Some(Var(v)),
            _ => None,
        }
    }

    /// The SAT literal equivalent to `lit`, encoding its cone first; a
    /// limit reached meanwhile stops the encoding.
    pub fn lit<B: SatBackend>(
        &mut self,
        aig: &Aig,
        sat: &mut B,
        lit: AigLit,
        checkpoint: &mut Checkpoint,
    ) -> Result<Lit, Reached> {
        let v = Lit::positive(self.encode(aig, sat, lit.node(), checkpoint)?);
        Ok(if lit.is_complemented() { !v } else { v })
    }

    fn sat_lit(&self, lit: AigLit) -> Option<Lit> {
        let v = Lit::positive(self.var(lit.node())?);
        Some(if lit.is_complemented() { !v } else { v })
    }

    fn encode<B: SatBackend>(
        &mut self,
        aig: &Aig,
        sat: &mut B,
        root: NodeId,
        checkpoint: &mut Checkpoint,
    ) -> Result<Var, Reached> {
        if let Some(v) = self.var(root) {
            return Ok(v);
        }
        if self.var_of.len() < aig.len() {
            self.var_of.resize(aig.len(), NO_VAR);
        }
        self.stack.push(root);
        while let Some(&n) = self.stack.last() {
            if self.var(n).is_some() {
                self.stack.pop();
                continue;
            }
            if let Some(reached) = checkpoint.after(1) {
                // Every node with a variable has its clauses: the encoding
                // so far stays sound.
                self.stack.clear();
                return Err(reached);
            }
            match aig.node(n) {
                AigNode::False => {
                    let v = sat.new_var();
                    sat.add_clause(&[!Lit::positive(v)]);
                    self.var_of[n.index()] = v.0;
                }
                AigNode::Input => self.var_of[n.index()] = sat.new_var().0,
                AigNode::And(a, b) => {
                    let (operands, arity) = match as_not_mux(aig, a, b) {
                        Some((c, x, y)) => ([c, x, y], 3),
                        None => ([a, b, AigLit::FALSE], 2),
                    };
                    // Operands first; this node comes back to the top after them.
                    let mut lits = [Lit::positive(Var(0)); 3];
                    let mut ready = true;
                    for (slot, &l) in lits.iter_mut().zip(&operands[..arity]) {
                        match self.sat_lit(l) {
                            Some(sl) => *slot = sl,
                            None => {
                                self.stack.push(l.node());
                                ready = false;
                            }
                        }
                    }
                    if !ready {
                        continue;
                    }
                    let v = sat.new_var();
                    let out = Lit::positive(v);
                    if arity == 3 {
                        add_not_mux(sat, out, lits[0], lits[1], lits[2]);
                    } else {
                        sat.add_clause(&[!out, lits[0]]);
                        sat.add_clause(&[!out, lits[1]]);
                        sat.add_clause(&[out, !lits[0], !lits[1]]);
                    }
                    self.var_of[n.index()] = v.0;
                }
            }
            self.stack.pop();
        }
        Ok(Var(self.var_of[root.index()]))
    }
}

/// `(c, x, y)` when `!a & !b` is `!ite(c, x, y)`, that is `a = c & x` and
/// `b = !c & y` in some order.
fn as_not_mux(aig: &Aig, a: AigLit, b: AigLit) -> Option<(AigLit, AigLit, AigLit)> {
    if !a.is_complemented() || !b.is_complemented() {
        return None;
    }
    let (AigNode::And(p, q), AigNode::And(r, s)) = (aig.node(a.node()), aig.node(b.node())) else {
        return None;
    };
    for (c, x) in [(p, q), (q, p)] {
        for (not_c, y) in [(r, s), (s, r)] {
            if not_c == !c {
                return Some((c, x, y));
            }
        }
    }
    None
}

/// Clauses for `out = !ite(c, x, y)`.
fn add_not_mux<B: SatBackend>(sat: &mut B, out: Lit, c: Lit, x: Lit, y: Lit) {
    sat.add_clause(&[!c, !x, !out]);
    sat.add_clause(&[!c, x, out]);
    sat.add_clause(&[c, !y, !out]);
    sat.add_clause(&[c, y, out]);
    // Redundant, but they decide `out` when `x` and `y` agree and `c` is
    // unknown; for an XOR (`y = !x`) they are tautologies.
    if y != !x {
        sat.add_clause(&[!x, !y, !out]);
        sat.add_clause(&[x, y, out]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::solver::query::QueryBudget;
    use crate::solver::sat::{SatAnswer, VarisatBackend};
    use rustc_hash::FxHashMap;

    #[test]
    fn gates_are_encoded_exactly_and_multiplexers_without_inner_gates() {
        let mut aig = Aig::new();
        let (x, y, z) = (aig.input(), aig.input(), aig.input());
        let xor = aig.xor(x, y);
        let mux = aig.mux(x, y, !z);
        let and = aig.and(x, !y);
        let majority = aig.majority(x, y, z);
        let mut sat = VarisatBackend::new();
        let mut tseitin = Tseitin::default();
        let mut unlimited = Checkpoint::new(Limits::default());
        let mut lit = |sat: &mut VarisatBackend, l| {
            tseitin
                .lit(&aig, sat, l, &mut unlimited)
                .expect("no limits")
        };
        lit(&mut sat, xor);
        assert_eq!(sat.num_vars(), 3, "x, y and the XOR itself");
        let gates = [xor, mux, and, majority];
        let encoded: Vec<Lit> = gates.iter().map(|&g| lit(&mut sat, g)).collect();
        let inputs = [x, y, z];
        for bits in 0..8 {
            let values = [bits & 1 == 1, bits & 2 == 2, bits & 4 == 4];
            let assumptions: Vec<Lit> = inputs
                .iter()
                .zip(values)
                .map(|(&i, v)| {
                    let l = lit(&mut sat, i);
                    if v {
                        l
                    } else {
                        !l
                    }
                })
                .collect();
            assert_eq!(
                sat.solve(&assumptions, &QueryBudget::default()),
                SatAnswer::Sat
            );
            let known = |n: NodeId| inputs.iter().position(|i| i.node() == n).map(|k| values[k]);
            for (&g, &l) in gates.iter().zip(&encoded) {
                let mut memo = FxHashMap::default();
                assert_eq!(
                    sat.value(l),
                    aig.evaluate(g, known, &mut memo),
                    "{values:?}"
                );
            }
        }
    }
}
