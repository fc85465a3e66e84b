//! The SAT core behind a small trait, and its varisat implementation.

use super::query::QueryBudget;
use crate::limits::{Limits, Reached};
use std::cell::Cell;
use std::io;
use std::rc::Rc;
use varisat::ExtendFormula;

/// A propositional variable, numbered from 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Var(pub u32);

/// A literal: a variable or its negation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Lit(u32);

impl Lit {
    pub fn positive(v: Var) -> Lit {
        Lit(v.0 << 1)
    }

    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    pub fn is_negative(self) -> bool {
        self.0 & 1 == 1
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

/// The answer of one SAT call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    Sat,
    Unsat,
    /// The budget ran out (`limit`: the run's limit that did). The backend
    /// cannot be used again: build a new one.
    Unknown {
        why: String,
        limit: Option<Reached>,
    },
}

/// An incremental SAT core: clauses accumulate, each call to `solve` takes its
/// own assumptions.
pub trait SatBackend {
    fn new_var(&mut self) -> Var;
    fn add_clause(&mut self, lits: &[Lit]);
    fn solve(&mut self, assumptions: &[Lit], budget: &QueryBudget) -> SatAnswer;
    /// The value of `lit` in the model of the last `Sat` answer.
    fn value(&self, lit: Lit) -> bool;
    /// The assumptions that the last `Unsat` answer depends on.
    fn failed_assumptions(&self) -> Vec<Lit>;
    fn num_vars(&self) -> usize;
    fn num_clauses(&self) -> usize;
}

/// What one solve call may spend, shared with the proof sink that watches it.
#[derive(Default)]
struct Meter {
    conflicts: Cell<u64>,
    max_conflicts: Cell<Option<u64>>,
    limits: Cell<Limits>,
    /// What ran out, and the run's limit if it was one.
    exhausted: Cell<Option<(&'static str, Option<Reached>)>>,
}

/// Fields that follow a step code in varisat's native proof format: plain
/// numbers, and counted lists whose entries are `n` numbers each.
#[derive(Clone, Copy)]
enum Field {
    Num,
    List(u64),
}

/// The layout of the step with each code (see `varisat-internal-proof`'s
/// `binary_format.rs`); code 7 and 8 are learnt clauses, one per conflict.
fn step_layout(code: u64) -> &'static [Field] {
    use Field::{List, Num};
    match code {
        0 | 2 => &[Num, Num],
        1 | 3..=6 | 13 => &[Num],
        7 | 8 | 17 => &[List(1), List(1)],
        9 => &[List(2)],
        10..=12 | 14..=16 => &[List(1)],
        _ => &[],
    }
}

/// Decodes the stream of varisat's variable-length integers: the count of
/// trailing zero bits of the first byte gives the length.
#[derive(Default)]
struct VliDecoder {
    bytes: [u8; 10],
    len: usize,
}

impl VliDecoder {
    /// Feeds one byte; returns the number once it is complete.
    fn push(&mut self, b: u8) -> Option<u64> {
        self.bytes[self.len] = b;
        self.len += 1;
        let total = if self.bytes[0] != 0 {
            self.bytes[0].trailing_zeros() as usize + 1
        } else if self.len < 2 {
            return None;
        } else if self.bytes[1] & 1 == 1 {
            9
        } else {
            10
        };
        if self.len < total {
            return None;
        }
        let value = if total <= 8 {
            let mut le = [0u8; 8];
            le[..total].copy_from_slice(&self.bytes[..total]);
            u64::from_le_bytes(le) >> total
        } else {
            // Only hashes are this large, and they are skipped.
            u64::MAX
        };
        self.len = 0;
        Some(value)
    }
}

/// Receives varisat's proof and counts its learnt clauses, one per conflict.
/// varisat has no interrupt API, but it stops solving when its proof sink
/// fails, so failing here is how a budget ends a call.
struct ProofMeter {
    meter: Rc<Meter>,
    vli: VliDecoder,
    layout: &'static [Field],
    /// Numbers still to skip in the current list.
    pending: u64,
    /// Entry size of the list whose count comes next, if any.
    expecting_count: Option<u64>,
}

impl ProofMeter {
    fn number(&mut self, n: u64) {
        if let Some(per_entry) = self.expecting_count.take() {
            self.pending = n.saturating_mul(per_entry);
        } else if self.pending > 0 {
            self.pending -= 1;
        } else if let Some((&field, rest)) = self.layout.split_first() {
            self.layout = rest;
            if let Field::List(per_entry) = field {
                self.pending = n.saturating_mul(per_entry);
            }
        } else {
            if n == 7 || n == 8 {
                self.meter.conflicts.set(self.meter.conflicts.get() + 1);
            }
            self.layout = step_layout(n);
        }
        // A list may be the first field after a code: its count is next.
        if self.pending == 0 && self.expecting_count.is_none() {
            if let Some((&Field::List(per_entry), rest)) = self.layout.split_first() {
                self.layout = rest;
                self.expecting_count = Some(per_entry);
            }
        }
    }
}

impl io::Write for ProofMeter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &b in buf {
            if let Some(n) = self.vli.push(b) {
                self.number(n);
            }
        }
        let m = &self.meter;
        if m.max_conflicts
            .get()
            .is_some_and(|max| m.conflicts.get() > max)
        {
            m.exhausted.set(Some(("conflict budget exhausted", None)));
        } else if let Some(reached) = m.limits.get().reached() {
            let why = match reached {
                Reached::Time => "time budget exhausted",
                Reached::Memory => "memory budget exhausted",
                Reached::Interrupt => "interrupted",
            };
            m.exhausted.set(Some((why, Some(reached))));
        }
        if m.exhausted.get().is_some() {
            return Err(io::Error::other("budget exhausted"));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// varisat, with a conflict and time budget per call.
pub struct VarisatBackend {
    solver: varisat::Solver<'static>,
    meter: Rc<Meter>,
    num_vars: usize,
    num_clauses: usize,
    model: Vec<bool>,
    failed: Vec<Lit>,
    clause_buf: Vec<varisat::Lit>,
}

impl Default for VarisatBackend {
    fn default() -> Self {
        VarisatBackend::new()
    }
}

impl VarisatBackend {
    pub fn new() -> VarisatBackend {
        let meter = Rc::new(Meter::default());
        let mut solver = varisat::Solver::new();
        solver.write_proof(
            ProofMeter {
                meter: meter.clone(),
                vli: VliDecoder::default(),
                layout: &[],
                pending: 0,
                expecting_count: None,
            },
            varisat::ProofFormat::Varisat,
        );
        VarisatBackend {
            solver,
            meter,
            num_vars: 0,
            num_clauses: 0,
            model: Vec::new(),
            failed: Vec::new(),
            clause_buf: Vec::new(),
        }
    }

    fn to_varisat(l: Lit) -> varisat::Lit {
        varisat::Lit::from_index(l.var().0 as usize, !l.is_negative())
    }

    fn from_varisat(l: varisat::Lit) -> Lit {
        let v = Lit::positive(Var(l.index() as u32));
        if l.is_positive() {
            v
        } else {
            !v
        }
    }
}

impl SatBackend for VarisatBackend {
    fn new_var(&mut self) -> Var {
        let v = Var(self.num_vars as u32);
        self.num_vars += 1;
        v
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        self.clause_buf.clear();
        self.clause_buf
            .extend(lits.iter().map(|&l| Self::to_varisat(l)));
        self.solver.add_clause(&self.clause_buf);
        self.num_clauses += 1;
    }

    fn solve(&mut self, assumptions: &[Lit], budget: &QueryBudget) -> SatAnswer {
        let m = &self.meter;
        m.conflicts.set(0);
        m.exhausted.set(None);
        m.max_conflicts.set(budget.max_conflicts);
        m.limits.set(budget.limits);
        let assumed: Vec<varisat::Lit> = assumptions.iter().map(|&l| Self::to_varisat(l)).collect();
        self.solver.assume(&assumed);
        self.model.clear();
        self.failed.clear();
        match self.solver.solve() {
            Ok(true) => {
                self.model = vec![false; self.num_vars];
                for l in self.solver.model().unwrap_or_default() {
                    if let Some(slot) = self.model.get_mut(l.index()) {
                        *slot = l.is_positive();
                    }
                }
                SatAnswer::Sat
            }
            Ok(false) => {
                self.failed = self
                    .solver
                    .failed_core()
                    .unwrap_or(&[])
                    .iter()
                    .map(|&l| Self::from_varisat(l))
                    .collect();
                SatAnswer::Unsat
            }
            Err(e) => match self.meter.exhausted.get() {
                Some((why, limit)) => SatAnswer::Unknown {
                    why: why.to_string(),
                    limit,
                },
                None => SatAnswer::Unknown {
                    why: format!("SAT solver error: {e}"),
                    limit: None,
                },
            },
        }
    }

    fn value(&self, lit: Lit) -> bool {
        let v = self
            .model
            .get(lit.var().0 as usize)
            .copied()
            .unwrap_or(false);
        v != lit.is_negative()
    }

    fn failed_assumptions(&self) -> Vec<Lit> {
        self.failed.clone()
    }

    fn num_vars(&self) -> usize {
        self.num_vars
    }

    fn num_clauses(&self) -> usize {
        self.num_clauses
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::query::Budget;

    fn pigeonhole(sat: &mut VarisatBackend, holes: usize) {
        let pigeons = holes + 1;
        let p: Vec<Vec<Lit>> = (0..pigeons)
            .map(|_| (0..holes).map(|_| Lit::positive(sat.new_var())).collect())
            .collect();
        for row in &p {
            sat.add_clause(row);
        }
        // No two pigeons share a hole.
        for h in 0..holes {
            for (a, row_a) in p.iter().enumerate() {
                for row_b in &p[a + 1..] {
                    sat.add_clause(&[!row_a[h], !row_b[h]]);
                }
            }
        }
    }

    #[test]
    fn assumptions_models_and_cores() {
        let mut sat = VarisatBackend::new();
        let a = Lit::positive(sat.new_var());
        let b = Lit::positive(sat.new_var());
        let c = Lit::positive(sat.new_var());
        sat.add_clause(&[!a, b]); // a -> b
        assert_eq!(sat.solve(&[a], &QueryBudget::default()), SatAnswer::Sat);
        assert!(sat.value(a) && sat.value(b));
        assert_eq!(
            sat.solve(&[a, !b, c], &QueryBudget::default()),
            SatAnswer::Unsat
        );
        let core = sat.failed_assumptions();
        assert!(core.contains(&a) && core.contains(&!b) && !core.contains(&c));
        // The same instance answers again without the assumptions.
        assert_eq!(sat.solve(&[!b], &QueryBudget::default()), SatAnswer::Sat);
        assert!(!sat.value(a));
    }

    #[test]
    fn a_conflict_budget_gives_unknown() {
        let mut sat = VarisatBackend::new();
        pigeonhole(&mut sat, 9);
        let budget = Budget {
            max_conflicts: Some(100),
            ..Budget::default()
        };
        match sat.solve(&[], &budget.starting_now()) {
            SatAnswer::Unknown { why, limit } => {
                assert!(why.contains("conflict"), "{why}");
                assert_eq!(limit, None);
            }
            other => panic!("expected unknown, got {other:?}"),
        }
    }

    #[test]
    fn small_pigeonhole_is_unsat_within_budget() {
        let mut sat = VarisatBackend::new();
        pigeonhole(&mut sat, 4);
        let budget = Budget {
            max_conflicts: Some(100_000),
            ..Budget::default()
        };
        assert_eq!(sat.solve(&[], &budget.starting_now()), SatAnswer::Unsat);
    }

    #[test]
    fn a_time_budget_gives_unknown() {
        let mut sat = VarisatBackend::new();
        pigeonhole(&mut sat, 11);
        let budget = Budget {
            timeout: Some(web_time::Duration::from_millis(50)),
            ..Budget::default()
        };
        match sat.solve(&[], &budget.starting_now()) {
            SatAnswer::Unknown { why, limit } => {
                assert!(why.contains("time"), "{why}");
                assert_eq!(limit, Some(Reached::Time));
            }
            other => panic!("expected unknown, got {other:?}"),
        }
    }

    #[test]
    fn a_set_interrupt_gives_unknown() {
        use crate::limits::Interrupt;
        static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);
        let mut sat = VarisatBackend::new();
        pigeonhole(&mut sat, 11);
        let budget = Budget {
            interrupt: Some(Interrupt(&STOP)),
            ..Budget::default()
        };
        match sat.solve(&[], &budget.starting_now()) {
            SatAnswer::Unknown { why, limit } => {
                assert_eq!(why, "interrupted");
                assert_eq!(limit, Some(Reached::Interrupt));
            }
            other => panic!("expected unknown, got {other:?}"),
        }
    }

    #[test]
    fn variable_length_integers_decode() {
        let mut d = VliDecoder::default();
        // 5 in one byte: 1 marker bit, then the value.
        assert_eq!(d.push((5 << 1) | 1), Some(5));
        // 300 needs two bytes: "01" marker then 14 bits.
        let enc = (300u64 << 2) | 0b10;
        assert_eq!(d.push(enc as u8), None);
        assert_eq!(d.push((enc >> 8) as u8), Some(300));
    }
}
