//! A `memory.copy` or `memory.fill` of a symbolic length with an end at a
//! symbolic address, resolved at both ends rather than made concrete
//! (`relocatable_and_caching.md` §3, §7.3). The path forks on an empty
//! range, which moves nothing (and traps only where an end may lie past
//! memory). Otherwise each end's first byte is resolved as a one-byte
//! access (a fork per object or piece it may land in, as a load's), and
//! a path where the range's last byte leaves the C variable the address
//! was computed from ends with an overflow of it. The others fork on
//! whether the last byte lands in the same object. Where it does, byte k,
//! up to the most the length can be, is written at
//! `ite(k < n, p + k, p)` with `ite(k < n, new, old)`: every write stays
//! inside the object, and one past the length writes back what is there.
//! Where the last byte may land elsewhere, the length is made concrete
//! and the range checked as it is (an overflow, or a trap).

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::expr::{BvBinOp, TermId};
use crate::memory::{effective_address, Fault, Place, Pointer};
use crate::report::Access;
use crate::state::value::Val;
use crate::state::State;

use super::{Start, OOB};

/// What runs where a range of a symbolic length fits whole: given where
/// it starts and the most its length is on the path.
type Fitting<'a, 'm> =
    dyn FnMut(&mut Executor<'m>, &mut State, Start, u64) -> Result<Flow, End> + 'a;

impl<'m> Executor<'m> {
    /// `memory.copy` of `n` bytes (at most `most`) from `src` to `dst`,
    /// an end at a symbolic address: the source's bytes are read whole
    /// first, so that ranges that overlap copy as `memmove` does.
    pub(super) fn copy_anywhere(
        &mut self,
        s: &mut State,
        [dst, src]: [Val; 2],
        n: TermId,
        most: u64,
    ) -> Result<Flow, End> {
        let whole = &|exec: &mut Self, s: &mut State| exec.copy_of_length(s, dst, src, Val::Sym(n));
        self.unless_empty(s, &[dst, src], n, &mut |exec, s| {
            exec.in_range(
                s,
                (src, Access::Read),
                (n, most),
                whole,
                &mut |exec, s, from, longest| {
                    let bytes = (0..longest as u32)
                        .map(|k| {
                            let at = exec.byte_place(from, k, n);
                            exec.read(s, at, 1)
                        })
                        .collect::<Result<Vec<Val>, End>>()?;
                    exec.in_range(
                        s,
                        (dst, Access::Write),
                        (n, longest),
                        whole,
                        &mut |exec, s, to, _| exec.write_taken(s, to, n, &bytes),
                    )
                },
            )
        })
    }

    /// `memory.fill` of `n` bytes (at most `most`) at the symbolic `dst`.
    pub(super) fn fill_anywhere(
        &mut self,
        s: &mut State,
        dst: Val,
        value: Val,
        n: TermId,
        most: u64,
    ) -> Result<Flow, End> {
        let byte = self.fill_byte(value);
        let byte = Val::from_term(&self.cx.terms, byte);
        let whole =
            &|exec: &mut Self, s: &mut State| exec.fill_of_length(s, dst, value, Val::Sym(n));
        self.unless_empty(s, &[dst], n, &mut |exec, s| {
            exec.in_range(
                s,
                (dst, Access::Write),
                (n, most),
                whole,
                &mut |exec, s, to, longest| {
                    exec.write_taken(s, to, n, &vec![byte; longest as usize])
                },
            )
        })
    }

    /// Forks `s` on an empty range (`n == 0`), where nothing moves and a
    /// path traps only where an end lies past memory, as Wasm says; the
    /// other side goes on in `filled`.
    fn unless_empty(
        &mut self,
        s: &mut State,
        ends: &[Val],
        n: TermId,
        filled: &mut dyn FnMut(&mut Self, &mut State) -> Result<Flow, End>,
    ) -> Result<Flow, End> {
        let zero = self.cx.terms.bv_const(32, 0);
        let empty = self.cx.terms.eq(n, zero);
        let some = self.cx.terms.not(empty);
        let (chosen, siblings) = self.fork(s, &[empty, some])?;
        self.each_alternative(s, chosen, siblings, &mut |exec, s, side| {
            if side == 1 {
                return filled(exec, s);
            }
            for &end in ends {
                exec.check_in_memory(s, end)?;
            }
            Ok(Flow::Next)
        })
    }

    /// Ends the paths where an empty range at `end` lies past memory (and
    /// the arena's slots) with a trap.
    pub(super) fn check_in_memory(&mut self, s: &mut State, end: Val) -> Result<(), End> {
        let memory = self.program.memory(s).ok_or(OOB)?;
        match self.settle(s, end) {
            Val::Con { bits, .. } if memory.addressable(bits, 0) => Ok(()),
            Val::Con { .. } => Err(OOB),
            Val::Sym(t) => {
                let a = effective_address(&mut self.cx.terms, t, 0);
                let inside = memory.holds_empty(&mut self.cx.terms, a);
                let outside = self.cx.terms.not(inside);
                self.guard(s, outside, OOB)
            }
        }
    }

    /// Resolves the first byte of the range of `n` bytes (at most `most`,
    /// at least 1) at `end` (a fork per place it may land in), ends the
    /// paths where its last byte leaves the C variable `end` was computed
    /// from, then forks each state on whether its last byte lands in the
    /// same object: where it does, `fits` runs with the range's start and
    /// the most `n` is on the path; where it may not, `whole`.
    fn in_range(
        &mut self,
        s: &mut State,
        (end, access): (Val, Access),
        (n, most): (TermId, u64),
        whole: &dyn Fn(&mut Self, &mut State) -> Result<Flow, End>,
        fits: &mut Fitting<'_, 'm>,
    ) -> Result<Flow, End> {
        let (first, others) = self.place_range_start(s, end, n, access)?;
        self.at_each_flow(s, first, others, &mut |exec, s, first| {
            let start = exec.start(s, first, most);
            let last = exec.last_byte(start, n);
            exec.check_variable_range(s, (end, access), (start, last), n)?;
            let within = exec.last_lands(s, (start, last), access)?;
            exec.fits_or_concrete(
                s,
                within,
                &mut |exec, s| {
                    let longest = exec.longest(s, n, most)?;
                    fits(exec, s, start, longest)
                },
                whole,
            )
        })
    }

    /// The range's start at `first`, for a range of at most `most` bytes.
    fn start(&mut self, s: &State, first: Place, most: u64) -> Start {
        match first {
            Place::Concrete(spot) => {
                let sure = self.room(s, &[spot.offset], most).unwrap_or(1).max(1);
                self.start_at(spot, sure)
            }
            Place::Symbolic { pointer, plus, .. } => Start {
                place: self
                    .program
                    .memory(s)
                    .map_or(first, |m| m.reaching(first, most)),
                pointer,
                plus,
                sure: 1,
            },
        }
    }

    /// The address of the last of `n` bytes (at least 1) from `start`, as
    /// `pointer + start.plus`.
    fn last_byte(&mut self, start: Start, n: TermId) -> TermId {
        let terms = &mut self.cx.terms;
        let one = terms.bv_const(32, 1);
        let extra = terms.bin(BvBinOp::Sub, n, one);
        terms.bin(BvBinOp::Add, start.pointer, extra)
    }

    /// That `last`, the last byte of a range from `start`, lands in the
    /// same object as the first; a path where it lands in a returned
    /// frame's variable ends first.
    fn last_lands(
        &mut self,
        s: &mut State,
        (start, last): (Start, TermId),
        access: Access,
    ) -> Result<TermId, End> {
        if self.program.roles.heap.objects {
            self.check_dead_frames(s, Pointer::Sym(last), start.plus, 1, access)?;
        }
        let ends = (start.pointer, last, start.plus);
        self.lands_in(s, ends, start.place.object())
    }

    /// Ends the paths where `last`, the last of `n` bytes from `start`,
    /// leaves the C variable the address `end` was computed from: an
    /// overflow of it, of the length the path gives. (Made concrete first,
    /// the range would no longer say which variable it was meant for.)
    fn check_variable_range(
        &mut self,
        s: &mut State,
        (end, access): (Val, Access),
        (start, last): (Start, TermId),
        n: TermId,
    ) -> Result<(), End> {
        let Val::Sym(t) = self.settle(s, end) else {
            return Ok(());
        };
        if !self.program.roles.heap.objects {
            return Ok(());
        }
        let Some(meant) = self.meant_variable(s, t, 0, 1)? else {
            return Ok(());
        };
        let held = meant.holds(&mut self.cx.terms, last, start.plus);
        let leaves = self.cx.terms.not(held);
        self.guard_with(s, leaves, &mut |exec, s| match exec.pin(s, n) {
            Ok(width) => {
                let pointer = Pointer::Sym(t);
                let variable = Some(&meant);
                exec.fault_end(s, Fault::Variable, pointer, 0, width, access, variable)
            }
            Err(end) => end,
        })
    }
}
