//! Formula patterns (`../shared/design/quantified_merging.md` §4): given
//! instances ψ_ℓ at numbers d_ℓ (an iteration's conditions at i = 1, 2, …,
//! or a state's last conditions at its k), a φ(x) with φ[d_ℓ/x] ≡ ψ_ℓ for
//! every ℓ. The instances are walked in lock step: where they differ they
//! must be constants of one width (a hole y), and elsewhere the same
//! operator; each hole's constants γ_ℓ must be `a·d_ℓ + b` in its width's
//! wrapping arithmetic, found in closed form from two instances and checked
//! on every one. Then φ is the first instance with each hole filled by its
//! `a·x + b`, and each instance is φ at its d_ℓ (the holes' constants are
//! what the fit computes there), which is what soundness needs.
//!
//! The seed allows one varying constant; holes with constants of their own
//! each get their own fit (the digest's extension, as sound since every
//! instance is checked), up to [`MAX_HOLES`].

use crate::expr::{mask, to_signed, BvBinOp, Node, TermId, TermStore};
use crate::report::RegularPartition;
use crate::state::Taken;
use rustc_hash::FxHashMap;

/// Holes (constants varying apart from each other) at most.
pub(super) const MAX_HOLES: usize = 16;
/// Positions of the instances compared at most: past them, a merge does
/// not spend more on a pattern.
const MAX_VISITS: usize = 200_000;

/// A synthesised φ(x): one term per root the instances have, over `x`, and
/// the fit of each hole.
#[derive(Debug)]
pub(super) struct Synthesised {
    pub(super) terms: Vec<TermId>,
    pub(super) holes: Vec<Hole>,
}

/// A constant that varies across the instances: its width, its value in
/// each, and `a·x + b` that gives them (wrapping in the width).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Hole {
    pub(super) width: u8,
    pub(super) values: Vec<u64>,
    pub(super) a: u64,
    pub(super) b: u64,
}

/// A partition's formula pattern (§4, Thm 6.2.11): `first` its prefix's
/// conditions (φ1), `repeated` an iteration's (φ2, over i = 1 to the
/// largest k) and `last` its suffix's (φ3, over each state's k).
#[derive(Debug)]
pub(super) struct FormulaPattern {
    pub(super) first: Vec<TermId>,
    pub(super) repeated: Synthesised,
    pub(super) last: Synthesised,
}

/// The formula pattern of partition `p` over `x`, from its states'
/// `branches` (by word index): the conditions of its words' parts. A
/// word's prefix is the same tree path for every state (siblings have
/// letters of their own), so any state's prefix, and the longest word's
/// iterations, serve all. An error names the part that has no pattern.
pub(super) fn formula_pattern(
    store: &mut TermStore,
    x: TermId,
    p: &RegularPartition,
    branches: &[Vec<Taken>],
) -> Result<FormulaPattern, String> {
    let conditions = |w: usize, from: usize, to: usize| -> Vec<TermId> {
        branches[w][from..to].iter().map(|t| t.condition).collect()
    };
    let (prefix, unit) = (p.prefix.len(), p.unit.len());
    let &(longest, most) = (p.members.iter())
        .max_by_key(|&&(_, k)| k)
        .ok_or("a partition with no states")?;
    let first = conditions(longest, 0, prefix);
    let at: Vec<u32> = (1..=most).collect();
    let iterations: Vec<Vec<TermId>> = (at.iter())
        .map(|&i| {
            let start = prefix + (i as usize - 1) * unit;
            conditions(longest, start, start + unit)
        })
        .collect();
    let repeated = match iterations.is_empty() {
        true => Synthesised {
            terms: Vec::new(),
            holes: Vec::new(),
        },
        false => synthesize(store, x, &at, &iterations).map_err(|e| format!("φ2: {e}"))?,
    };
    let ks: Vec<u32> = p.members.iter().map(|&(_, k)| k).collect();
    let lasts: Vec<Vec<TermId>> = (p.members.iter())
        .map(|&(w, k)| conditions(w, prefix + k as usize * unit, branches[w].len()))
        .collect();
    let last = synthesize(store, x, &ks, &lasts).map_err(|e| format!("φ3: {e}"))?;
    Ok(FormulaPattern {
        first,
        repeated,
        last,
    })
}

/// Finds φ(x) over the 32-bit `x` with `φ[d[ℓ]/x] ≡ instances[ℓ]`, root by
/// root; the `d` are distinct. An error says why there is none.
pub(super) fn synthesize(
    store: &mut TermStore,
    x: TermId,
    d: &[u32],
    instances: &[Vec<TermId>],
) -> Result<Synthesised, String> {
    debug_assert_eq!(d.len(), instances.len());
    let Some(first) = instances.first() else {
        return Err("no instance".into());
    };
    if instances.iter().any(|roots| roots.len() != first.len()) {
        return Err("the instances have different numbers of conditions".into());
    }
    let roots: Vec<Vec<TermId>> = (0..first.len())
        .map(|r| instances.iter().map(|roots| roots[r]).collect())
        .collect();
    // First the holes, then each hole's fit, then φ with the fits in.
    let mut holes: Vec<Hole> = Vec::new();
    let mut walk = LockStep::default();
    for tuple in &roots {
        walk.term(store, tuple, &mut |_, values, width| {
            if !holes.iter().any(|h| h.width == width && h.values == values) {
                holes.push(Hole {
                    width,
                    values: values.to_vec(),
                    a: 0,
                    b: 0,
                });
            }
            Ok(None)
        })?;
    }
    if holes.len() > MAX_HOLES {
        return Err(format!("more than {MAX_HOLES} constants vary"));
    }
    for hole in &mut holes {
        (hole.a, hole.b) = fit(hole.width, d, &hole.values).ok_or_else(|| {
            let values: Vec<String> = hole.values.iter().map(u64::to_string).collect();
            format!("the constants {} are not a·x + b", values.join(", "))
        })?;
    }
    let fitted: Vec<(u8, &[u64], TermId)> = (holes.iter())
        .map(|h| (h.width, &h.values[..], linear(store, x, h)))
        .collect();
    let mut walk = LockStep::default();
    let mut terms = Vec::with_capacity(roots.len());
    for tuple in &roots {
        terms.push(walk.term(store, tuple, &mut |_, values, width| {
            let hole = fitted.iter().find(|&&(w, v, _)| w == width && v == values);
            Ok(hole.map(|&(_, _, t)| t))
        })?);
    }
    Ok(Synthesised { terms, holes })
}

/// `a` and `b` with `a·d[ℓ] + b = values[ℓ]` for every ℓ, in the wrapping
/// arithmetic of `width` bits: from the first two instances (a as their
/// difference's quotient, exact), then checked on all.
fn fit(width: u8, d: &[u32], values: &[u64]) -> Option<(u64, u64)> {
    let m = mask(width);
    let (&d0, &d1) = (d.first()?, d.get(1)?);
    let (v0, v1) = (values[0], values[1]);
    let dv = i128::from(to_signed(width, v1.wrapping_sub(v0) & m));
    let dd = i128::from(d1) - i128::from(d0);
    if dd == 0 || dv % dd != 0 {
        return None;
    }
    let a = ((dv / dd) as i64 as u64) & m;
    let b = v0.wrapping_sub(a.wrapping_mul(u64::from(d0))) & m;
    (d.iter().zip(values))
        .all(|(&dl, &vl)| a.wrapping_mul(u64::from(dl)).wrapping_add(b) & m == vl)
        .then_some((a, b))
}

/// `a·x + b` in the hole's width, `x` cut or zero-extended to it; written
/// `x - c` where b is negative.
fn linear(store: &mut TermStore, x: TermId, hole: &Hole) -> TermId {
    let w = hole.width;
    let x = match w.cmp(&32) {
        std::cmp::Ordering::Less => store.extract(w - 1, 0, x),
        std::cmp::Ordering::Equal => x,
        std::cmp::Ordering::Greater => store.zero_ext(w - 32, x),
    };
    let ax = match hole.a {
        1 => x,
        a => {
            let a = store.bv_const(w, a);
            store.bin(BvBinOp::Mul, a, x)
        }
    };
    match to_signed(w, hole.b) {
        0 => ax,
        b if b < 0 => {
            let c = store.bv_const(w, b.unsigned_abs() & mask(w));
            store.bin(BvBinOp::Sub, ax, c)
        }
        _ => {
            let c = store.bv_const(w, hole.b);
            store.bin(BvBinOp::Add, ax, c)
        }
    }
}

/// A walk of instances in lock step, each tuple of their subterms visited
/// once; a hole's term comes from the caller (`None` keeps the first
/// instance's constant).
#[derive(Default)]
struct LockStep {
    done: FxHashMap<Vec<TermId>, TermId>,
}

type AtHole<'a> = dyn FnMut(&mut TermStore, &[u64], u8) -> Result<Option<TermId>, String> + 'a;

impl LockStep {
    /// The first instance's term with each hole as the caller says.
    fn term(
        &mut self,
        store: &mut TermStore,
        tuple: &[TermId],
        at_hole: &mut AtHole<'_>,
    ) -> Result<TermId, String> {
        let mut stack = vec![(tuple.to_vec(), false)];
        while let Some((tuple, children_done)) = stack.pop() {
            if self.done.contains_key(&tuple) {
                continue;
            }
            if self.done.len() >= MAX_VISITS {
                return Err("the instances are too large to compare".into());
            }
            let first = tuple[0];
            if tuple.iter().all(|&t| t == first) {
                self.done.insert(tuple, first);
                continue;
            }
            let node = *store.node(first);
            if let Node::BvConst { width, .. } = node {
                let values: Option<Vec<u64>> = tuple
                    .iter()
                    .map(|&t| match *store.node(t) {
                        Node::BvConst { width: w, value } if w == width => Some(value),
                        _ => None,
                    })
                    .collect();
                let values = values.ok_or_else(differ)?;
                let term = at_hole(store, &values, width)?.unwrap_or(first);
                self.done.insert(tuple, term);
                continue;
            }
            let head = |n: &Node| n.map_children(|_| first);
            if tuple[1..]
                .iter()
                .any(|&t| head(store.node(t)) != head(&node))
            {
                return Err(differ());
            }
            let children: Vec<Vec<TermId>> = {
                let of: Vec<Vec<TermId>> = tuple
                    .iter()
                    .map(|&t| store.node(t).children().collect())
                    .collect();
                (0..of[0].len())
                    .map(|c| of.iter().map(|kids| kids[c]).collect())
                    .collect()
            };
            if !children_done {
                stack.push((tuple, true));
                stack.extend(children.into_iter().map(|c| (c, false)));
                continue;
            }
            let mut built = children.iter().map(|c| self.done[c]);
            let rebuilt = node.map_children(|_| built.next().expect("one term per child"));
            let term = store.try_mk(rebuilt).map_err(|e| e.0)?;
            self.done.insert(tuple, term);
        }
        Ok(self.done[tuple])
    }
}

fn differ() -> String {
    "the instances differ beyond their constants".into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::{BvCmp, Sort};
    use crate::solver::simplify::Simplifier;

    /// memspn's iteration i: `n > i - 1` and `s[i - 1] = 97` (T4).
    fn iteration(st: &mut TermStore, i: u64) -> Vec<TermId> {
        let (n, s) = (
            st.declare("n", Sort::Bv(32)).unwrap(),
            st.declare("s", Sort::Array).unwrap(),
        );
        let c = st.bv_const(32, i - 1);
        let a = st.bv_const(8, 97);
        let read = st.select(s, c);
        vec![st.cmp(BvCmp::Ult, c, n), st.eq(read, a)]
    }

    #[test]
    fn memspns_iterations_give_the_seeds_formula_pattern() {
        let mut st = TermStore::new();
        let x = st.declare("x", Sort::Bv(32)).unwrap();
        let instances: Vec<Vec<TermId>> = (1..=3).map(|i| iteration(&mut st, i)).collect();
        let found = synthesize(&mut st, x, &[1, 2, 3], &instances).unwrap();
        // One hole, 0, 1, 2 at i = 1, 2, 3: y = x - 1.
        assert_eq!(found.holes.len(), 1);
        let hole = &found.holes[0];
        assert_eq!(
            (hole.width, &hole.values[..], hole.a),
            (32, &[0, 1, 2][..], 1)
        );
        assert_eq!(to_signed(32, hole.b), -1);
        // φ2(x) = n > x - 1 ∧ s[x - 1] = 97, each instance φ2 at its i.
        let one = st.bv_const(32, 1);
        let x1 = st.bin(BvBinOp::Sub, x, one);
        let (n, s) = (
            st.declare("n", Sort::Bv(32)).unwrap(),
            st.declare("s", Sort::Array).unwrap(),
        );
        let read = st.select(s, x1);
        let a = st.bv_const(8, 97);
        assert_eq!(found.terms, [st.cmp(BvCmp::Ult, x1, n), st.eq(read, a)]);
        let mut simplifier = Simplifier::new();
        for (i, instance) in (1..=3).zip(&instances) {
            let at = st.bv_const(32, i);
            for (&t, &want) in found.terms.iter().zip(instance) {
                let t = Simplifier::substitute(&mut st, |t| (t == x).then_some(at), t);
                let (t, want) = (
                    simplifier.simplify(&mut st, t),
                    simplifier.simplify(&mut st, want),
                );
                assert_eq!(t, want);
            }
        }
    }

    #[test]
    fn constants_not_linear_in_x_and_other_shapes_have_no_pattern() {
        let mut st = TermStore::new();
        let x = st.declare("x", Sort::Bv(32)).unwrap();
        // T13 (b): 0, 1, 3 at 1, 2, 3.
        let bumpy: Vec<Vec<TermId>> = [1, 2, 4].map(|i| iteration(&mut st, i)).to_vec();
        assert_eq!(
            synthesize(&mut st, x, &[1, 2, 3], &bumpy).unwrap_err(),
            "the constants 0, 1, 3 are not a·x + b"
        );
        // Constants going down by two, wrapping under zero, fit.
        let down: Vec<Vec<TermId>> = [3, 1].map(|i| iteration(&mut st, i)).to_vec();
        let found = synthesize(&mut st, x, &[1, 2], &down).unwrap();
        assert_eq!(found.holes[0].a, mask(32) - 1);
        // n > 0 against n ≥ 1: other operators.
        let n = st.declare("n", Sort::Bv(32)).unwrap();
        let (zero, one) = (st.bv_const(32, 0), st.bv_const(32, 1));
        let (lt, le) = (st.cmp(BvCmp::Ult, zero, n), st.cmp(BvCmp::Ule, one, n));
        assert_eq!(
            synthesize(&mut st, x, &[1, 2], &[vec![lt], vec![le]]).unwrap_err(),
            "the instances differ beyond their constants"
        );
        // Seventeen constants varying apart.
        let wide: Vec<Vec<TermId>> = (0..2)
            .map(|i| {
                (0..17)
                    .map(|h| {
                        let c = st.bv_const(32, i * (h + 1));
                        st.cmp(BvCmp::Ult, c, n)
                    })
                    .collect()
            })
            .collect();
        assert_eq!(
            synthesize(&mut st, x, &[1, 2], &wide).unwrap_err(),
            "more than 16 constants vary"
        );
    }
}
