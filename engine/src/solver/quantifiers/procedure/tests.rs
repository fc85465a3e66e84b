//! The worked examples of `quantified_merging.md` §6.4 (T10-T12 of §7,
//! the quantifier-free solver a mock that gives scripted models, so each
//! stage is reached as the seed describes) and T13 (c).

use super::{solve, CellOrigins, Query, Stage};
use crate::expr::{BvBinOp, BvCmp, Model, Node, Sort, SymbolId, TermId, TermStore, Value};
use crate::solver::{SolveResult, Solver, SolverConfig};
use std::collections::VecDeque;

/// `φ = s[n] = 0 ∧ 1 ≤ k ≤ 10 ∧ s[k - 1] = 8 ∧ ∀i ∈ [1, k]: s[i - 1] ≠ 0`.
struct Example {
    st: TermStore,
    s: TermId,
    n: TermId,
    k: TermId,
    /// The forall's body, `s[i - 1] ≠ 0`.
    body: TermId,
    /// φ's conjuncts.
    phi: Vec<TermId>,
    /// Where the last answer's cells came from.
    origins: CellOrigins,
}

impl Example {
    /// φ, with `k ≤ 10` among its conjuncts where `bounded`.
    fn new(bounded: bool) -> Example {
        let mut st = TermStore::new();
        let s = st.declare("s", Sort::Array).unwrap();
        let n = st.declare("n", Sort::Bv(32)).unwrap();
        let k = st.declare("k", Sort::Bv(32)).unwrap();
        let (zero, one, eight, ten) = (
            st.bv_const(8, 0),
            st.bv_const(32, 1),
            st.bv_const(8, 8),
            st.bv_const(32, 10),
        );
        let at_n = st.select(s, n);
        let s_n_zero = st.eq(at_n, zero);
        let k_from_one = st.cmp(BvCmp::Ule, one, k);
        let k_to_ten = st.cmp(BvCmp::Ule, k, ten);
        let k_less_one = st.bin(BvBinOp::Sub, k, one);
        let at_k = st.select(s, k_less_one);
        let s_k_eight = st.eq(at_k, eight);
        let i = st.bound(32);
        let i_less_one = st.bin(BvBinOp::Sub, i, one);
        let at_i = st.select(s, i_less_one);
        let at_i_zero = st.eq(at_i, zero);
        let body = st.not(at_i_zero);
        let all = st.forall(one, k, body).unwrap();
        let mut phi = vec![s_n_zero, k_from_one, s_k_eight, all];
        if bounded {
            phi.insert(2, k_to_ten);
        }
        Example {
            st,
            s,
            n,
            k,
            body,
            phi,
            origins: CellOrigins::default(),
        }
    }

    fn symbol(&self, t: TermId) -> SymbolId {
        match *self.st.node(t) {
            Node::Symbol(s) => s,
            _ => panic!("a symbol"),
        }
    }

    /// The model `n ↦ n, k ↦ k, s ↦ bytes`.
    fn model(&self, n: u64, k: u64, bytes: &[u8]) -> Model {
        let mut m = Model::new();
        m.set(
            self.symbol(self.n),
            Value::Bv {
                width: 32,
                value: n,
            },
        );
        m.set(
            self.symbol(self.k),
            Value::Bv {
                width: 32,
                value: k,
            },
        );
        for (i, &b) in bytes.iter().enumerate() {
            m.set_byte(self.symbol(self.s), i as u32, b);
        }
        m
    }

    /// The first `len` bytes of `s` in `m`.
    fn bytes(&self, m: &Model, len: u32) -> Vec<u8> {
        match m.value_of(self.symbol(self.s), Sort::Array) {
            Value::Array(a) => (0..len).map(|i| a.get(i)).collect(),
            _ => panic!("an array"),
        }
    }

    /// The procedure's answer, its stage and the queries it asked, the
    /// quantifier-free solver answering from `script`, then (where the
    /// script runs out) the real chain.
    fn solve(
        &mut self,
        script: Vec<SolveResult>,
    ) -> (SolveResult, Option<Stage>, Vec<Vec<TermId>>) {
        let query = Query::of(&mut self.st, &self.phi).unwrap();
        let mut script = VecDeque::from(script);
        let mut asked = Vec::new();
        let mut chain = Solver::new(SolverConfig::default());
        let (answer, stage, origins) = solve(&mut self.st, &query, &mut |st, q| {
            asked.push(q.to_vec());
            script.pop_front().unwrap_or_else(|| chain.check(st, q))
        });
        self.origins = origins;
        (answer, stage, asked)
    }
}

#[test]
fn strip_keeps_the_first_instance_and_refutes_the_instance_a_clause_contradicts() {
    let mut ex = Example::new(true);
    let query = Query::of(&mut ex.st, &ex.phi).unwrap();
    let stripped = query.strip(&mut ex.st);
    let st = &mut ex.st;
    // The quantifier-free clauses as they were.
    assert_eq!(&stripped[..4], &ex.phi[..4]);
    // k ≥ 1 → s[0] ≠ 0 (the range's lower bound 1 for i).
    let one = st.bv_const(32, 1);
    let nonempty = st.cmp(BvCmp::Ule, one, ex.k);
    let first = st.instantiate(ex.body, one);
    let first = st.implies(nonempty, first);
    // s[n] = 0 is the body failing at i = n + 1: ¬(1 ≤ n + 1 ≤ k).
    let t = st.bin(BvBinOp::Add, ex.n, one);
    let from = st.cmp(BvCmp::Ule, one, t);
    let to = st.cmp(BvCmp::Ule, t, ex.k);
    let inside = st.and(from, to);
    let refuted = st.not(inside);
    assert_eq!(&stripped[4..], &[first, refuted]);
}

#[test]
fn t10_duplication_fails_and_repair_keeps_the_conflicting_cell() {
    let mut ex = Example::new(true);
    let m = ex.model(7, 7, &[1, 0, 0, 0, 0, 0, 8, 0]);
    let (answer, stage, asked) = ex.solve(vec![SolveResult::Sat(m.clone()), SolveResult::Sat(m)]);
    let SolveResult::Sat(repaired) = answer else {
        panic!("sat")
    };
    assert_eq!(stage, Some(Stage::Repair));
    assert_eq!(ex.bytes(&repaired, 8), [1, 1, 1, 1, 1, 1, 8, 0]);
    assert!(ex.st.satisfies(&ex.phi, &repaired));
    // s[1] to s[5] copied from s[0]; s[6], the conflict, kept.
    let s = ex.symbol(ex.s);
    let cells = |range: std::ops::Range<u32>| range.map(|i| (s, i)).collect();
    assert_eq!(ex.origins.duplicated, cells(1..6));
    assert_eq!(ex.origins.protected, cells(6..7));
    // The repair query: strip, the instance that reads the conflicting
    // cell s[6] (i = 7), and n, k pinned; no other instance.
    assert_eq!(asked.len(), 2);
    let st = &mut ex.st;
    let at = |st: &mut TermStore, i| {
        let i = st.bv_const(32, i);
        st.instantiate(ex.body, i)
    };
    let (seventh, second) = (at(st, 7), at(st, 2));
    let (seven, n, k) = (st.bv_const(32, 7), ex.n, ex.k);
    let (n_pinned, k_pinned) = (st.eq(n, seven), st.eq(k, seven));
    for wanted in [seventh, n_pinned, k_pinned] {
        assert!(asked[1].contains(&wanted), "{}", st.to_readable(wanted));
    }
    assert!(!asked[1].contains(&second));
    assert_eq!(asked[1][..6], asked[0][..]);
}

#[test]
fn t11_a_luckier_first_cell_is_solved_by_duplication() {
    let mut ex = Example::new(true);
    let m = ex.model(7, 7, &[8, 0, 0, 0, 0, 0, 8, 0]);
    let (answer, stage, asked) = ex.solve(vec![SolveResult::Sat(m)]);
    let SolveResult::Sat(duplicated) = answer else {
        panic!("sat")
    };
    assert_eq!(stage, Some(Stage::Duplicate));
    assert_eq!(ex.bytes(&duplicated, 8), [8, 8, 8, 8, 8, 8, 8, 0]);
    let s = ex.symbol(ex.s);
    assert_eq!(ex.origins.duplicated, (1..7).map(|i| (s, i)).collect());
    assert!(ex.origins.protected.is_empty());
    assert_eq!(asked.len(), 1);
}

#[test]
fn t12_a_model_of_the_stripped_query_may_satisfy_it_all() {
    let mut ex = Example::new(true);
    let m = ex.model(1, 1, &[8, 0]);
    let (answer, stage, asked) = ex.solve(vec![SolveResult::Sat(m.clone())]);
    assert_eq!((answer, stage), (SolveResult::Sat(m), Some(Stage::Strip)));
    assert_eq!(asked.len(), 1);
    assert_eq!(ex.origins, CellOrigins::default());
}

#[test]
fn t13c_a_stripped_query_that_is_unsat_answers_without_the_fallback() {
    let mut ex = Example::new(true);
    // k ≥ 1 and s[0] = 0 against ∀i ∈ [1, k]: s[i - 1] ≠ 0.
    let st = &mut ex.st;
    let (zero, zero_byte) = (st.bv_const(32, 0), st.bv_const(8, 0));
    let first = st.select(ex.s, zero);
    let first_zero = st.eq(first, zero_byte);
    let all = *ex.phi.last().unwrap();
    let one = st.bv_const(32, 1);
    let k_from_one = st.cmp(BvCmp::Ule, one, ex.k);
    ex.phi = vec![k_from_one, first_zero, all];
    let (answer, stage, asked) = ex.solve(Vec::new());
    assert_eq!(
        (answer, stage, asked.len()),
        (SolveResult::Unsat, Some(Stage::Strip), 1)
    );
    // Through the solver, counted as answered at strip.
    let mut solver = Solver::new(SolverConfig::default());
    assert_eq!(solver.check(&mut ex.st, &ex.phi), SolveResult::Unsat);
    assert_eq!(solver.stats().quantified.strip, 1);
}

#[test]
fn the_fallback_expands_up_to_the_queries_bound_on_k_and_needs_one() {
    let mut ex = Example::new(true);
    let m = ex.model(7, 7, &[1, 0, 0, 0, 0, 0, 8, 0]);
    let (answer, stage, asked) = ex.solve(vec![SolveResult::Sat(m), SolveResult::Unsat]);
    let SolveResult::Sat(model) = answer else {
        panic!("sat")
    };
    assert_eq!(stage, Some(Stage::Fallback));
    assert!(ex.st.satisfies(&ex.phi, &model));
    // The quantifier-free clauses and one instance for each k from 1 to 10.
    assert_eq!(asked.len(), 3);
    assert_eq!(asked[2].len(), 4 + 10);
    assert!(asked[2].iter().all(|&t| !ex.st.has_forall(t)));
    // The bound found inside a conjunction, as a PAT merge's condition
    // holds it: (s[n] = 0 ∧ 1 ≤ k) ∧ (k ≤ 10 ∧ …).
    let mut nested = Example::new(true);
    let st = &mut nested.st;
    let front = st.and(nested.phi[0], nested.phi[1]);
    let back = st.and_all(&nested.phi[2..]);
    nested.phi = vec![st.and(front, back)];
    let m = nested.model(7, 7, &[1, 0, 0, 0, 0, 0, 8, 0]);
    let (_, stage, asked) = nested.solve(vec![SolveResult::Sat(m), SolveResult::Unsat]);
    assert_eq!((stage, asked[2].len()), (Some(Stage::Fallback), 2 + 10));
    // Without k ≤ 10 there is no bound to expand over.
    let mut ex = Example::new(false);
    let m = ex.model(7, 7, &[1, 0, 0, 0, 0, 0, 8, 0]);
    let (answer, stage, _) = ex.solve(vec![SolveResult::Sat(m), SolveResult::Unsat]);
    assert_eq!(stage, None);
    assert_eq!(
        answer,
        SolveResult::Unknown(
            "a forall whose upper bound k has no constant bound in the query".into()
        )
    );
}

#[test]
fn a_forall_that_is_not_a_conjunct_is_refused_by_name() {
    let mut ex = Example::new(true);
    let all = *ex.phi.last().unwrap();
    let negated = ex.st.not(all);
    let Err(why) = Query::of(&mut ex.st, &[negated]) else {
        panic!("refused")
    };
    assert!(why.starts_with("a forall under a negation"), "{why}");
}

#[test]
fn without_a_bound_in_the_query_a_narrow_upper_bound_expands_over_its_width() {
    // ∀i ∈ [1, k]: i < 5, with k ≥ 6: unsat, which only the fallback
    // sees (no array to duplicate or repair); k's 8 bits give 255 instances.
    let mut st = TermStore::new();
    let k = st.declare("k", Sort::Bv(8)).unwrap();
    let (one, five, six) = (st.bv_const(8, 1), st.bv_const(8, 5), st.bv_const(8, 6));
    let i = st.bound(8);
    let below_five = st.cmp(BvCmp::Ult, i, five);
    let all = st.forall(one, k, below_five).unwrap();
    let from_six = st.cmp(BvCmp::Ule, six, k);
    let mut solver = Solver::new(SolverConfig::default());
    assert_eq!(solver.check(&mut st, &[all, from_six]), SolveResult::Unsat);
    assert_eq!(solver.stats().quantified.fallback, 1);
    // Over 32 bits there is no such bound: unknown, with the reason.
    let k = st.declare("k32", Sort::Bv(32)).unwrap();
    let (one, five, six) = (st.bv_const(32, 1), st.bv_const(32, 5), st.bv_const(32, 6));
    let i = st.bound(32);
    let below_five = st.cmp(BvCmp::Ult, i, five);
    let all = st.forall(one, k, below_five).unwrap();
    let from_six = st.cmp(BvCmp::Ule, six, k);
    let SolveResult::Unknown(why) = solver.check(&mut st, &[all, from_six]) else {
        panic!("unknown")
    };
    assert_eq!(
        why,
        "a forall whose upper bound k32 has no constant bound in the query"
    );
}
