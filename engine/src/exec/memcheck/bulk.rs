//! Bulk memory: `memory.copy`, `memory.fill` and `memory.init`, each
//! range resolved as one access. A `memory.copy` or `memory.fill` with a
//! symbolic address and a length of at most [`SYMBOLIC_BULK`] bytes keeps
//! its addresses: each end forks over the objects (and pieces) it may
//! land in, as a load or a store does, and the bytes move one at a time
//! through the memory model. One at concrete addresses with a symbolic
//! length that is at most [`SYMBOLIC_BULK`] on the path keeps its length:
//! the path forks on whether the range fits where each end lies, and
//! where it does, byte k becomes `ite(k < n, new, old)`; where it may
//! not, the length is made concrete and the range checked as it is. One
//! with a symbolic length beside a symbolic address keeps both
//! ([`symbolic_range`]). A length over base symbols (the distance between
//! two pointers), a longer range and `memory.init`'s addresses are made
//! concrete (the path says so).

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::expr::{BvBinOp, BvCmp, TermId};
use crate::memory::interval::unsigned_interval;
use crate::memory::place::{Place, Spot};
use crate::report::{Access, Trap};
use crate::state::value::Val;
use crate::state::State;

mod symbolic_range;

const OOB: End = End::Trap(Trap::OutOfBounds);

/// The most bytes a `memory.copy` or `memory.fill` at a symbolic address
/// moves byte by byte; a longer one has its addresses made concrete.
const SYMBOLIC_BULK: u64 = 256;

/// Where a range's first byte landed.
#[derive(Clone, Copy, Debug)]
struct Start {
    place: Place,
    /// Its address, as `pointer + plus`.
    pointer: TermId,
    plus: u32,
    /// How many bytes from it lie in its place whatever the length: the
    /// first, or those up to the end of a concrete place's object.
    sure: u64,
}

impl Executor<'_> {
    /// Concrete start and length of a bulk operation's range (a symbolic
    /// one is made concrete and recorded).
    pub(crate) fn range(
        &mut self,
        s: &mut State,
        start: Val,
        len: Val,
        what: &str,
    ) -> Result<(u64, u64), End> {
        let start = self.concretize(s, start, &format!("the {what} address"))?;
        let len = self.concretize(s, len, &format!("the {what} size"))?;
        Ok((start, len))
    }

    pub(crate) fn copy_range(
        &mut self,
        s: &mut State,
        dst: Val,
        src: Val,
        n: Val,
    ) -> Result<Flow, End> {
        // Resolution settles the addresses again: a segment made for one
        // end moves blocks the other may point into.
        let (to, from) = (self.settle(s, dst), self.settle(s, src));
        let symbolic = matches!(to, Val::Sym(_)) || matches!(from, Val::Sym(_));
        if let (Val::Sym(len), false) = (self.settle(s, n), self.over_bases(n)) {
            if let Some(most) = self.bulk_bound(s, len)? {
                let (Val::Con { bits: to, .. }, Val::Con { bits: from, .. }) = (to, from) else {
                    return self.copy_anywhere(s, [dst, src], len, most);
                };
                if let Some(room) = self.room(s, &[to, from], most) {
                    // Both ends are taken as numbers: their blocks stay
                    // where they are.
                    self.pin_number(s, dst, to);
                    self.pin_number(s, src, from);
                    return self.copy_sized(s, [(dst, to), (src, from)], len, room);
                }
            }
        }
        if symbolic {
            return self.copy_of_length(s, dst, src, n);
        }
        self.copy_concrete(s, dst, src, n)?;
        Ok(Flow::Next)
    }

    /// `memory.copy` with an end at a symbolic address and its length made
    /// concrete: at most [`SYMBOLIC_BULK`] bytes keep their addresses.
    fn copy_of_length(&mut self, s: &mut State, dst: Val, src: Val, n: Val) -> Result<Flow, End> {
        let len = self.concretize(s, n, "the memory.copy size")?;
        if len == 0 {
            self.check_in_memory(s, dst)?;
            self.check_in_memory(s, src)?;
            return Ok(Flow::Next);
        }
        if len <= SYMBOLIC_BULK {
            return self.copy_symbolic(s, dst, src, len);
        }
        self.copy_concrete(s, dst, src, Val::i32(len as u32))?;
        Ok(Flow::Next)
    }

    /// `memory.copy` of `n` bytes with an end at a symbolic address: the
    /// source resolved (a fork per place it may be), its bytes read, then
    /// the destination resolved and the bytes written, so that ranges that
    /// overlap copy as `memmove` does.
    fn copy_symbolic(&mut self, s: &mut State, dst: Val, src: Val, n: u64) -> Result<Flow, End> {
        let width = n as u32;
        let (from, others) = self.place(s, src, 0, n, Access::Read, false)?;
        self.at_each_flow(s, from, others, &mut |exec, s, from| {
            let bytes = (0..width)
                .map(|k| exec.read(s, from.plus(k), 1))
                .collect::<Result<Vec<Val>, End>>()?;
            let (to, others) = exec.place(s, dst, 0, n, Access::Write, false)?;
            exec.at_each(s, to, others, |exec, s, to| {
                for (k, &byte) in (0..width).zip(&bytes) {
                    exec.write(s, to.plus(k), 1, byte)?;
                }
                Ok(())
            })
        })
    }

    /// Whether `v` is a term over base symbols (a length taken between two
    /// pointers): made concrete, it pins their blocks, which a kept length
    /// would not.
    fn over_bases(&self, v: Val) -> bool {
        matches!(v, Val::Sym(t) if self.cx.terms.has_base(t))
    }

    /// The most a symbolic bulk length `n` is on the path, where that is
    /// at most [`SYMBOLIC_BULK`]: its bounds by its shape, else one query
    /// that it cannot pass [`SYMBOLIC_BULK`].
    fn bulk_bound(&mut self, s: &State, n: TermId) -> Result<Option<u64>, End> {
        let (_, hi) = unsigned_interval(&self.cx.terms, n);
        if hi <= SYMBOLIC_BULK {
            return Ok(Some(hi));
        }
        let most = self.cx.terms.bv_const(32, SYMBOLIC_BULK);
        let past = self.cx.terms.cmp(BvCmp::Ult, most, n);
        Ok((self.feasible(s, past)? == Some(false)).then_some(SYMBOLIC_BULK))
    }

    /// The most bytes, up to `most`, that each of `ends` (addresses) can
    /// take as one range of concrete bytes on the fast path (in one place,
    /// with no fault); `None` where an end takes not even an empty range
    /// there (past memory, in the null page): the length is made concrete
    /// then.
    fn room(&self, s: &State, ends: &[u64], most: u64) -> Option<u64> {
        let memory = self.program.memory(s)?;
        let fits = |address: u64, r: u64| {
            !s.dead_stack.overlaps(address, address + r)
                && memory.resolve_concrete(address, r).is_some()
        };
        let mut room = most;
        for &address in ends {
            if !fits(address, 0) {
                return None;
            }
            // A range that fits holds every shorter one: bisect.
            let (mut lo, mut hi) = (0, room);
            while lo < hi {
                let mid = lo + (hi - lo).div_ceil(2);
                if fits(address, mid) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            room = lo;
        }
        Some(room)
    }

    /// `memory.copy` of `n` bytes, a symbolic length, between the ends
    /// (each as the program gave it and at its concrete address), where
    /// `room` bytes fit: the source's first bytes (as many as `n` may be)
    /// read whole first (ranges that overlap copy as `memmove` does), then
    /// written as the first `n` ([`write_first`](Self::write_first)).
    fn copy_sized(
        &mut self,
        s: &mut State,
        [(dst, to), (src, from)]: [(Val, u64); 2],
        n: TermId,
        room: u64,
    ) -> Result<Flow, End> {
        let within = self.at_most(n, room);
        self.fits_or_concrete(
            s,
            within,
            &mut |exec, s| {
                let longest = exec.longest(s, n, room)?;
                let bytes = exec.bytes_at(s, from, longest, Access::Read)?;
                exec.write_first(s, to, n, &bytes)
            },
            &|exec, s| {
                exec.copy_concrete(s, dst, src, Val::Sym(n))?;
                Ok(Flow::Next)
            },
        )
    }

    /// The most the symbolic length `n` may be on the path, at most
    /// `room`, by bisection (a query the solver leaves undecided counts
    /// as possible): bytes past it stay as they are, not `ite` terms.
    fn longest(&mut self, s: &State, n: TermId, room: u64) -> Result<u64, End> {
        let (mut lo, mut hi) = (0, room);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let m = self.cx.terms.bv_const(32, mid);
            let past = self.cx.terms.cmp(BvCmp::Ult, m, n);
            match self.feasible(s, past)? {
                Some(false) => hi = mid,
                Some(true) | None => lo = mid + 1,
            }
        }
        Ok(lo)
    }

    /// That the symbolic length `n` is at most `room`.
    fn at_most(&mut self, n: TermId, room: u64) -> TermId {
        let room = self.cx.terms.bv_const(32, room);
        self.cx.terms.cmp(BvCmp::Ule, n, room)
    }

    /// Splits `s` on whether a range of a symbolic length fits where it
    /// lies (`within`): where it does, `fits` runs; where not,
    /// `otherwise`, which makes the length concrete and checks the range
    /// as it is (a fault, or room the fast path did not see).
    fn fits_or_concrete(
        &mut self,
        s: &mut State,
        within: TermId,
        fits: &mut dyn FnMut(&mut Self, &mut State) -> Result<Flow, End>,
        otherwise: &dyn Fn(&mut Self, &mut State) -> Result<Flow, End>,
    ) -> Result<Flow, End> {
        let past = self.cx.terms.not(within);
        let (chosen, siblings) = self.fork(s, &[within, past])?;
        self.each_alternative(s, chosen, siblings, &mut |exec, s, side| match side {
            0 => fits(exec, s),
            _ => otherwise(exec, s),
        })
    }

    /// The `len` bytes at concrete `address`, each a value, for `access`.
    fn bytes_at(
        &mut self,
        s: &mut State,
        address: u64,
        len: u64,
        access: Access,
    ) -> Result<Vec<Val>, End> {
        if len == 0 {
            return Ok(Vec::new());
        }
        let at = Place::Concrete(self.spot(s, address, len, access)?);
        (0..len as u32)
            .map(|k| self.read(s, at.plus(k), 1))
            .collect()
    }

    /// Writes the first `n` of `bytes` at concrete `address`, `n` a
    /// symbolic length of at most their count.
    fn write_first(
        &mut self,
        s: &mut State,
        address: u64,
        n: TermId,
        bytes: &[Val],
    ) -> Result<Flow, End> {
        if bytes.is_empty() {
            return Ok(Flow::Next);
        }
        let spot = self.spot(s, address, bytes.len() as u64, Access::Write)?;
        let start = self.start_at(spot, bytes.len() as u64);
        self.write_taken(s, start, n, bytes)
    }

    /// The start of a range at the concrete `spot`, whose first `sure`
    /// bytes lie in its object.
    fn start_at(&mut self, spot: Spot, sure: u64) -> Start {
        Start {
            place: Place::Concrete(spot),
            pointer: self.cx.terms.bv_const(32, spot.offset),
            plus: 0,
            sure,
        }
    }

    /// Where byte `k` of a range of `n` bytes from `start` is written:
    /// `ite(k < n, p + k, p)`, inside the object whatever `n` is.
    fn byte_place(&mut self, start: Start, k: u32, n: TermId) -> Place {
        if u64::from(k) < start.sure {
            return start.place.plus(k);
        }
        let taken = self.taken(k, n);
        let terms = &mut self.cx.terms;
        let index = terms.bv_const(32, u64::from(k));
        let on = terms.bin(BvBinOp::Add, start.pointer, index);
        let pointer = terms.ite(taken, on, start.pointer);
        let piece = match start.place {
            Place::Symbolic { piece, .. } => piece,
            Place::Concrete(_) => None,
        };
        Place::Symbolic {
            object: start.place.object(),
            pointer,
            plus: start.plus,
            piece,
        }
    }

    /// That byte `k` of a range of `n` bytes is taken: `k < n`.
    fn taken(&mut self, k: u32, n: TermId) -> TermId {
        let index = self.cx.terms.bv_const(32, u64::from(k));
        self.cx.terms.cmp(BvCmp::Ult, index, n)
    }

    /// Writes the first `n` of `bytes` from `start`: byte k becomes
    /// `ite(k < n, bytes[k], what it was)`. A byte past `start.sure`, whose
    /// place is `p` itself where it is not taken ([`byte_place`](Self::byte_place)),
    /// writes `ite(k < n, bytes[k], bytes[0])` there instead: such a range
    /// is never empty (see `unless_empty`), so `p` holds `bytes[0]`, and
    /// the write needs no read of the array the writes before it built
    /// (a read whose term would nest every earlier write, and cost the
    /// solver a query's worth of comparisons for each).
    fn write_taken(
        &mut self,
        s: &mut State,
        start: Start,
        n: TermId,
        bytes: &[Val],
    ) -> Result<Flow, End> {
        for (k, &new) in (0u32..).zip(bytes) {
            let at = self.byte_place(start, k, n);
            let old = if u64::from(k) < start.sure {
                self.read(s, at, 1)?
            } else {
                bytes[0]
            };
            let taken = self.taken(k, n);
            let terms = &mut self.cx.terms;
            let (new, old) = (new.term(terms), old.term(terms));
            let byte = terms.ite(taken, new, old);
            let byte = Val::from_term(terms, byte);
            self.write(s, at, 1, byte)?;
        }
        Ok(Flow::Next)
    }

    /// `memory.copy` over addresses made concrete (each end as the program
    /// computed it: `concretize` pins the blocks a pointer's number
    /// depends on).
    fn copy_concrete(&mut self, s: &mut State, dst: Val, src: Val, n: Val) -> Result<(), End> {
        let (from, n) = self.range(s, src, n, "memory.copy source")?;
        let from = self.spot(s, from, n, Access::Read)?;
        let (to, _) = self.range(s, dst, Val::i32(n as u32), "memory.copy destination")?;
        let (src, dst) = (from, self.spot(s, to, n, Access::Write)?);
        if let Some(memory) = self.program.memory_mut(s) {
            memory.copy(&mut self.cx.terms, dst, src, n);
        }
        Ok(())
    }

    pub(crate) fn fill_range(
        &mut self,
        s: &mut State,
        dst: Val,
        value: Val,
        n: Val,
    ) -> Result<Flow, End> {
        let settled = self.settle(s, dst);
        if let (Val::Sym(len), false) = (self.settle(s, n), self.over_bases(n)) {
            if let Some(most) = self.bulk_bound(s, len)? {
                let Val::Con { bits: to, .. } = settled else {
                    return self.fill_anywhere(s, dst, value, len, most);
                };
                if let Some(room) = self.room(s, &[to], most) {
                    self.pin_number(s, dst, to);
                    let byte = self.fill_byte(value);
                    let byte = Val::from_term(&self.cx.terms, byte);
                    let within = self.at_most(len, room);
                    return self.fits_or_concrete(
                        s,
                        within,
                        &mut |exec, s| {
                            let longest = exec.longest(s, len, room)?;
                            exec.write_first(s, to, len, &vec![byte; longest as usize])
                        },
                        &|exec, s| {
                            exec.fill_concrete(s, dst, value, Val::Sym(len))?;
                            Ok(Flow::Next)
                        },
                    );
                }
            }
        }
        if matches!(settled, Val::Sym(_)) {
            return self.fill_of_length(s, dst, value, n);
        }
        self.fill_concrete(s, dst, value, n)?;
        Ok(Flow::Next)
    }

    /// `memory.fill` at a symbolic address with its length made concrete:
    /// at most [`SYMBOLIC_BULK`] bytes keep their address.
    fn fill_of_length(&mut self, s: &mut State, dst: Val, value: Val, n: Val) -> Result<Flow, End> {
        let len = self.concretize(s, n, "the memory.fill size")?;
        if len == 0 {
            self.check_in_memory(s, dst)?;
            return Ok(Flow::Next);
        }
        if len <= SYMBOLIC_BULK {
            let (to, others) = self.place(s, dst, 0, len, Access::Write, false)?;
            return self.at_each(s, to, others, |exec, s, to| {
                for k in 0..len as u32 {
                    exec.write(s, to.plus(k), 1, value)?;
                }
                Ok(())
            });
        }
        self.fill_concrete(s, dst, value, Val::i32(len as u32))?;
        Ok(Flow::Next)
    }

    /// `memory.fill` over an address made concrete (as the program
    /// computed it).
    fn fill_concrete(&mut self, s: &mut State, dst: Val, value: Val, n: Val) -> Result<(), End> {
        let (to, n) = self.range(s, dst, n, "memory.fill")?;
        let dst = self.spot(s, to, n, Access::Write)?;
        let byte = self.fill_byte(value);
        if let Some(memory) = self.program.memory_mut(s) {
            memory.fill(&mut self.cx.terms, dst, byte, n);
        }
        Ok(())
    }

    /// The byte `memory.fill` writes: the low byte of its value.
    fn fill_byte(&mut self, value: Val) -> TermId {
        match value {
            Val::Con { bits, .. } => self.cx.terms.bv_const(8, bits),
            Val::Sym(t) => self.cx.terms.extract(7, 0, t),
        }
    }

    pub(crate) fn init_range(
        &mut self,
        s: &mut State,
        data: u32,
        dst: Val,
        src: Val,
        n: Val,
    ) -> Result<(), End> {
        let module = self.program.module_of(s);
        let bytes: &[u8] = if s.dropped_data[self.program.instance(s)][data as usize] {
            &[]
        } else {
            &module.data[data as usize].bytes
        };
        let (src, n) = self.range(s, src, n, "memory.init source")?;
        if src + n > bytes.len() as u64 {
            return Err(OOB);
        }
        let (to, _) = self.range(s, dst, Val::i32(n as u32), "memory.init destination")?;
        let dst = self.spot(s, to, n, Access::Write)?;
        if let Some(memory) = self.program.memory_mut(s) {
            memory.write_bytes(
                &mut self.cx.terms,
                dst,
                &bytes[src as usize..(src + n) as usize],
            );
        }
        Ok(())
    }
}
