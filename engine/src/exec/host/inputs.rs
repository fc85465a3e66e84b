//! Symbolic inputs: a fresh integer or buffer of bytes, each a named
//! input of the path (its test gives their values). An integer is a
//! symbol; a buffer is one array symbol, its byte `k` the read at `k`. In a
//! concrete replay they are the test's values; in a guided one, symbols the
//! run's forks follow to the test's values.

use crate::exec::context::guidance::InputSource;
use crate::exec::executor::Executor;
use crate::exec::outcome::End;
use crate::expr::{Sort, TermId, TermStore, ARRAY_INDEX_WIDTH, ARRAY_VALUE_WIDTH};
use crate::report::{Access, InputValue};
use crate::state::value::Val;
use crate::state::{Input, State};

/// Bytes a host call makes between two looks at the run's limits.
const HOST_CALL_CHECK: u64 = 4096;

impl Executor<'_> {
    /// The term of input `name`, `width` bits wide: the test's value
    /// `given` in a concrete replay, else a symbol, which a guided replay
    /// pins to `given` (`input = value` joins the guide).
    pub(crate) fn input_term(&mut self, name: &str, width: u8, given: Option<u64>) -> TermId {
        self.input_value(width, given, |terms| {
            declare_input(terms, name, Sort::Bv(width))
        })
    }

    /// Byte `k` of the buffer input whose array symbol is `array`:
    /// `array[k]`, or the test's byte `given` as [`Self::input_term`] has it.
    fn input_byte(&mut self, array: TermId, k: u64, given: Option<u64>) -> TermId {
        self.input_value(ARRAY_VALUE_WIDTH, given, |terms| {
            let index = terms.bv_const(ARRAY_INDEX_WIDTH, k);
            terms.select(array, index)
        })
    }

    /// The constant `given` in a concrete replay, else the term `make`
    /// builds, pinned to `given` in a guided replay.
    fn input_value(
        &mut self,
        width: u8,
        given: Option<u64>,
        make: impl FnOnce(&mut TermStore) -> TermId,
    ) -> TermId {
        if let (Some(value), false) = (given, self.cx.guidance.source.symbolic()) {
            return self.cx.terms.bv_const(width, value);
        }
        let term = make(&mut self.cx.terms);
        if let (InputSource::Guided(_), Some(value)) = (&self.cx.guidance.source, given) {
            let c = self.cx.terms.bv_const(width, value);
            let eq = self.cx.terms.eq(term, c);
            self.cx.guidance.guide.push(eq);
        }
        term
    }

    /// A fresh integer input (or, in replay, its value from the test).
    pub(crate) fn fresh_int(&mut self, s: &mut State, name: &str, width: u8) -> Val {
        let name = s.unique_name(name);
        let given = self.cx.guidance.given_int(&name, width);
        let term = self.input_term(&name, width, given);
        s.add_input(Input::Int { name, width, term });
        Val::from_term(&self.cx.terms, term)
    }

    /// `symbolic_buffer`, `random_get`: `len` fresh bytes at `ptr`, one input.
    pub(super) fn fresh_input_bytes(
        &mut self,
        s: &mut State,
        name: &str,
        ptr: Val,
        len: Val,
    ) -> Result<(), End> {
        let ptr = self.concretize(s, ptr, "a symbolic buffer address")?;
        let len = self.concretize(s, len, "a symbolic buffer length")?;
        let (name, bytes) = self.fresh_bytes(s, name, ptr, len, Some(len))?;
        s.add_input(Input::Bytes { name, bytes });
        Ok(())
    }

    /// Writes `len` fresh symbolic bytes (or, in replay, the test's, of
    /// which there are `exact`, else at most `len`) at `ptr`; gives their
    /// input's unique name and their terms.
    pub(super) fn fresh_bytes(
        &mut self,
        s: &mut State,
        name: &str,
        ptr: u64,
        len: u64,
        exact: Option<u64>,
    ) -> Result<(String, Vec<TermId>), End> {
        // New input in place of the input buffers it overwrites.
        let at = s.at;
        if let Some(memory) = self.program.memory_mut(s) {
            memory.retire_inputs_over(ptr, ptr + len, at);
        }
        self.write_fresh_bytes(s, name, ptr, len, exact)
    }

    /// [`Self::fresh_bytes`] into memory that holds no input to retire:
    /// `len` bytes, of which a test gives exactly `exact` (else at most
    /// `len`, the capacity of a buffer of symbolic length).
    pub(crate) fn write_fresh_bytes(
        &mut self,
        s: &mut State,
        name: &str,
        ptr: u64,
        len: u64,
        exact: Option<u64>,
    ) -> Result<(String, Vec<TermId>), End> {
        let buffer = self.spot(s, ptr, len, Access::Write)?;
        let name = s.unique_name(name);
        let replayed = self.cx.guidance.given_bytes(&name, exact, len);
        let array = declare_input(&mut self.cx.terms, &name, Sort::Array);
        let mut bytes = Vec::with_capacity(len as usize);
        for k in 0..len {
            // A buffer of megabytes takes seconds and gigabytes: the run's
            // limits hold inside it.
            if k % HOST_CALL_CHECK == HOST_CALL_CHECK - 1 && self.cut_off() {
                return Err(End::CutOff);
            }
            let given = replayed
                .as_ref()
                .map(|b| u64::from(b.get(k as usize).copied().unwrap_or(0)));
            let t = self.input_byte(array, k, given);
            if let Some(memory) = self.program.memory_mut(s) {
                memory.write_byte(&mut self.cx.terms, buffer.plus(k), t);
            }
            bytes.push(t);
        }
        Ok((name, bytes))
    }

    /// The length of the sized input `name` of `capacity` bytes: symbolic,
    /// or in replay the length of the test's bytes.
    pub(crate) fn input_length(&mut self, name: &str, capacity: u64) -> TermId {
        // The bytes were read (and their length checked) as they were written.
        let given = self
            .cx
            .guidance
            .source
            .test()
            .map(|test| match test.get(name) {
                Some(InputValue::Bytes(b)) => (b.len() as u64).min(capacity),
                _ => 0,
            });
        self.input_term(&format!("{name}.len"), 32, given)
    }
}

/// The symbol of input `name` of `sort`; another one, named after it, when
/// `name` already has another sort (an integer and a buffer of one name).
fn declare_input(terms: &mut TermStore, name: &str, sort: Sort) -> TermId {
    terms
        .declare(name, sort)
        .unwrap_or_else(|_| terms.fresh(name, sort))
}
