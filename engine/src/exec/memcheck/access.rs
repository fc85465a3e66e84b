//! Loads, stores and the host's reads and writes: the one place that
//! resolves accesses through the memory model ([`crate::memory::model`])
//! and then makes them. A concrete address lands in one place or faults; a
//! symbolic address forks the state over the model's cases, a path ending
//! with an `out_of_bounds` trap or a memory error only where that is
//! feasible. Under the objects model, an access is first checked against
//! returned frames' variables (`stack.rs`) and the C variable its address
//! was computed from (`c_variables.rs`).

use super::c_variables::Meant;
use super::segments::Segmented;
use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow, MemoryFault};
use crate::expr::TermId;
use crate::limits::Checkpoint;
use crate::memory::{effective_address, Fault, ObjectId, Place, Pointer, Resolution, Spot};
use crate::report::{Access, Trap};
use crate::state::value::Val;
use crate::state::State;

const OOB: End = End::Trap(Trap::OutOfBounds);

impl Executor<'_> {
    /// Where `width` bytes at the concrete `address` land on this path (a
    /// host access, or a bulk operation's range). Under the objects model
    /// an object of symbolic size may fork off a path with the error.
    pub(crate) fn spot(
        &mut self,
        s: &mut State,
        address: u64,
        width: u64,
        access: Access,
    ) -> Result<Spot, End> {
        let memory = self.program.memory(s).ok_or(OOB)?;
        if !s.dead_stack.overlaps(address, address + width) {
            if let Some(spot) = memory.resolve_concrete(address, width) {
                return Ok(spot);
            }
        }
        // A concrete address has one place at most.
        match self.place(s, Val::con(32, address), 0, width, access, false)? {
            (Place::Concrete(spot), _) => Ok(spot),
            (Place::Symbolic { .. }, _) => Err(OOB),
        }
    }

    /// Where `width` bytes at `addr + plus` land. A symbolic pointer, or
    /// a concrete one into an object of symbolic size, forks the state
    /// over the model's cases: paths where the access faults end with a
    /// trap or a memory error, `s` goes on in the first feasible place,
    /// and the other feasible places (of a model with several objects, or
    /// the pieces of a split one) come back with their states. Under
    /// `--resolve segment`, the blocks a pointer may point into are first
    /// merged into one segment, one place.
    pub(super) fn place(
        &mut self,
        s: &mut State,
        addr: Val,
        plus: u32,
        width: u64,
        access: Access,
        load: bool,
    ) -> Result<(Place, Vec<(Place, State)>), End> {
        self.place_reporting(s, addr, (plus, width), (access, None), load)
    }

    /// [`place`](Self::place) of the first byte of a bulk range of the
    /// symbolic length `n` at `addr`: a path where that byte faults ends
    /// with the whole range as its access, as long as the path makes `n`
    /// (a trap where the range passes memory's end, which Wasm checks
    /// first).
    pub(super) fn place_range_start(
        &mut self,
        s: &mut State,
        addr: Val,
        n: TermId,
        access: Access,
    ) -> Result<(Place, Vec<(Place, State)>), End> {
        self.place_reporting(s, addr, (0, 1), (access, Some(n)), false)
    }

    /// [`place`](Self::place), a fault reported as an access of `length`
    /// bytes when it is given, else of `width`.
    fn place_reporting(
        &mut self,
        s: &mut State,
        addr: Val,
        (plus, width): (u32, u64),
        (access, length): (Access, Option<TermId>),
        load: bool,
    ) -> Result<(Place, Vec<(Place, State)>), End> {
        let mut pointer = as_pointer(self.settle(s, addr));
        if self.program.roles.heap.objects {
            self.check_dead_frames(s, pointer, plus, width, access)?;
        }
        // A symbolic address computed from a C variable's is checked
        // against that variable too.
        let meant = match pointer {
            Pointer::Sym(t) if self.program.roles.heap.objects => {
                self.meant_variable(s, t, plus, width)?
            }
            _ => None,
        };
        let meant = meant.as_ref();
        let memory = self.program.memory(s).ok_or(OOB)?;
        // An aligned load is checked at its first byte: past the end of an
        // object it reads the gap or the unused capacity, never written,
        // and word-wise `strlen` and `strchr` read the word holding the
        // terminator whole (Valgrind's partial loads). The price: an
        // aligned word load that starts inside a block and ends past it is
        // not reported.
        let checked = match pointer {
            Pointer::Con(a)
                if load
                    && width > 1
                    && (a + u64::from(plus)).is_multiple_of(width)
                    && memory.checks_objects() =>
            {
                1
            }
            _ => width,
        };
        let mut resolution = memory.resolve(&mut self.cx.terms, pointer, plus, checked);
        // Under segments: a place by allocation context, else blocks
        // merged into a segment; after a merge, the place by context again
        // (the segment's blocks are known now), else the fork below.
        for scan in [true, false] {
            let Resolution::Cases(cases) = &resolution else {
                break;
            };
            match self.resolved_in_segment(s, cases, scan)? {
                Segmented::Unchanged => break,
                Segmented::Certain(place) => resolution = Resolution::Certain(Ok(place)),
                Segmented::Moved => {
                    // The blocks moved: the pointer unfolds to their new place.
                    pointer = as_pointer(self.settle(s, addr));
                    let memory = self.program.memory(s).ok_or(OOB)?;
                    resolution = memory.resolve(&mut self.cx.terms, pointer, plus, checked);
                }
            }
        }
        if let Some(meant) = meant {
            resolution = meant.restrict(&mut self.cx.terms, resolution);
        }
        if let Resolution::Cases(cases) = &mut resolution {
            self.record_case_forms(s, addr, (plus, checked), cases);
        }
        let mut cases = match resolution {
            Resolution::Certain(Ok(place)) => {
                self.pin_stray(s, addr, Some(place.object()));
                // A symbolic place (one allocation contexts found) is
                // narrowed to its pieces as a chosen case is.
                if let Place::Symbolic { .. } = place {
                    return self.split_places(s, place, Vec::new(), width);
                }
                return Ok((place, Vec::new()));
            }
            Resolution::Certain(Err(fault)) => {
                let faulted = (pointer, plus, width, length);
                return Err(self.access_fault(s, fault, faulted, access, meant));
            }
            Resolution::Cases(cases) => cases,
        };
        // Faults last: `s` takes the first feasible case, so it ends with
        // one only when no place is feasible.
        cases.sort_by_key(|c| c.target.is_err());
        let conditions: Vec<_> = cases.iter().map(|c| c.condition).collect();
        let (chosen, siblings) = self.fork(s, &conditions)?;
        let mut others = Vec::new();
        for (i, mut sibling) in siblings {
            match cases[i].target {
                Ok(place) => {
                    self.pin_stray(&mut sibling, addr, Some(place.object()));
                    others.push((place, sibling));
                }
                Err(fault) => {
                    let faulted = (pointer, plus, width, length);
                    let end = self.access_fault(&mut sibling, fault, faulted, access, meant);
                    self.end_path(sibling, end);
                }
            }
        }
        match cases[chosen].target {
            Ok(place) => {
                self.pin_stray(s, addr, Some(place.object()));
                self.split_places(s, place, others, width)
            }
            Err(fault) => {
                let faulted = (pointer, plus, width, length);
                Err(self.access_fault(s, fault, faulted, access, meant))
            }
        }
    }

    /// That the last byte of a range, at `last + plus`, lands in `object`
    /// with its first, at `first + plus`, as a load's resolution finds it:
    /// then the range lies in it whole. In a segment, both must lie in one
    /// member.
    pub(super) fn lands_in(
        &mut self,
        s: &State,
        (first, last, plus): (TermId, TermId, u32),
        object: ObjectId,
    ) -> Result<TermId, End> {
        let memory = self.program.memory(s).ok_or(OOB)?;
        let terms = &mut self.cx.terms;
        let ends = (
            effective_address(terms, first, plus),
            effective_address(terms, last, plus),
        );
        if let Some(inside) = memory.in_one_member(terms, object, ends) {
            return Ok(inside);
        }
        let cases = memory
            .resolve(terms, Pointer::Sym(last), plus, 1)
            .into_cases(terms);
        let mut lands = terms.fls();
        for case in cases {
            if case.target.is_ok_and(|place| place.object() == object) {
                lands = terms.or(lands, case.condition);
            }
        }
        Ok(lands)
    }

    /// How a path ends whose access of `width` bytes at `pointer + plus`
    /// faults, or, given a `length`, whose bulk range of that many bytes
    /// from there does: as an access of the length the path gives, a trap
    /// where it passes memory's end.
    fn access_fault(
        &mut self,
        s: &mut State,
        fault: Fault,
        (pointer, plus, width, length): (Pointer, u32, u64, Option<TermId>),
        access: Access,
        meant: Option<&Meant>,
    ) -> End {
        let Some(n) = length else {
            return self.fault_end(s, fault, pointer, plus, width, access, meant);
        };
        let address = match pointer {
            Pointer::Con(a) => Ok(a),
            Pointer::Sym(t) => self.pin(s, t),
        };
        let (address, width) = match (address, self.pin(s, n)) {
            (Ok(a), Ok(width)) => (a + u64::from(plus), width),
            (Err(end), _) | (_, Err(end)) => return end,
        };
        let memory = self.program.memory(s);
        if !memory.is_some_and(|m| m.addressable(address, width)) {
            return OOB;
        }
        self.fault_end(s, fault, Pointer::Con(address), 0, width, access, meant)
    }

    /// How a path whose access faults ends: a trap outside linear memory,
    /// else a memory error naming the object (or the C variable `meant`).
    /// A symbolic pointer is given its value on the path first, which also
    /// tells which fault it is.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fault_end(
        &mut self,
        s: &mut State,
        fault: Fault,
        pointer: Pointer,
        plus: u32,
        width: u64,
        access: Access,
        meant: Option<&Meant>,
    ) -> End {
        let address = match pointer {
            Pointer::Con(a) => a,
            Pointer::Sym(t) => match self.pin(s, t) {
                Ok(a) => a,
                Err(end) => return end,
            },
        } + u64::from(plus);
        let meant = meant.map(Meant::fault_variable);
        MemoryFault::of_access(
            fault,
            address,
            width,
            access,
            self.program.memory(s),
            &mut self.cx.terms,
            meant,
        )
        .map_or(OOB, End::from)
    }

    /// Makes `access` at `place` in `s` and at each other place in its
    /// state; a state whose access ends its path ends, the others go on.
    pub(super) fn at_each(
        &mut self,
        s: &mut State,
        place: Place,
        others: Vec<(Place, State)>,
        mut access: impl FnMut(&mut Self, &mut State, Place) -> Result<(), End>,
    ) -> Result<Flow, End> {
        self.at_each_flow(s, place, others, &mut |exec, s, place| {
            access(exec, s, place).map(|()| Flow::Next)
        })
    }

    /// [`at_each`](Self::at_each) of an access that may fork in turn.
    pub(super) fn at_each_flow(
        &mut self,
        s: &mut State,
        place: Place,
        others: Vec<(Place, State)>,
        access: &mut dyn FnMut(&mut Self, &mut State, Place) -> Result<Flow, End>,
    ) -> Result<Flow, End> {
        let mut places = vec![place];
        let mut siblings = Vec::with_capacity(others.len());
        for (i, (p, sibling)) in others.into_iter().enumerate() {
            places.push(p);
            siblings.push((i + 1, sibling));
        }
        self.each_alternative(s, 0, siblings, &mut |exec, s, i| access(exec, s, places[i]))
    }

    /// The `size` bytes at `place`, little-endian.
    pub(super) fn read(&mut self, s: &mut State, place: Place, size: u32) -> Result<Val, End> {
        let memory = self.program.memory_mut(s).ok_or(OOB)?;
        if let Place::Concrete(spot) = place {
            if let Some(bits) = memory.read_concrete(spot, size) {
                return Ok(Val::con((size * 8) as u8, bits));
            }
        }
        let bytes = memory.array_bytes(&self.cx.terms, place, size);
        self.cx.counters.array_of(bytes);
        let limits = self.cx.bounds.limits;
        let t = memory
            .read(&mut self.cx.terms, place, size, limits)
            .map_err(|limit| self.cut_at(limit))?;
        let checkpoint = &mut Checkpoint::new(limits);
        let t = self
            .cx
            .caches
            .simplifier
            .simplify_within(&mut self.cx.terms, t, checkpoint)
            .map_err(|limit| self.cut_at(limit))?;
        Ok(Val::from_term(&self.cx.terms, t))
    }

    /// A load of `size` bytes at `addr + plus`; `then` takes the value in
    /// each state the load leaves.
    pub(crate) fn load_value(
        &mut self,
        s: &mut State,
        addr: Val,
        plus: u32,
        size: u32,
        mut then: impl FnMut(&mut Self, &mut State, Val) -> Result<(), End>,
    ) -> Result<Flow, End> {
        let (place, others) = self.place(s, addr, plus, u64::from(size), Access::Read, true)?;
        self.at_each(s, place, others, |exec, s, place| {
            let v = exec.read(s, place, size)?;
            then(exec, s, v)
        })
    }

    /// The `size` bytes at the concrete `address`, for the host.
    pub(crate) fn load_at(&mut self, s: &mut State, address: u64, size: u32) -> Result<Val, End> {
        let spot = self.spot(s, address, u64::from(size), Access::Read)?;
        self.read(s, Place::Concrete(spot), size)
    }

    pub(crate) fn store_value(
        &mut self,
        s: &mut State,
        addr: Val,
        plus: u32,
        size: u32,
        value: Val,
    ) -> Result<Flow, End> {
        let (place, others) = self.place(s, addr, plus, u64::from(size), Access::Write, false)?;
        self.at_each(s, place, others, |exec, s, place| {
            exec.write(s, place, size, value)
        })
    }

    /// Writes the low `size` bytes of `value` at `place`, little-endian.
    pub(super) fn write(
        &mut self,
        s: &mut State,
        place: Place,
        size: u32,
        value: Val,
    ) -> Result<(), End> {
        let memory = self.program.memory_mut(s).ok_or(OOB)?;
        match (place, value) {
            (Place::Concrete(spot), Val::Con { bits, .. }) => {
                memory.write_bytes(
                    &mut self.cx.terms,
                    spot,
                    &bits.to_le_bytes()[..size as usize],
                );
            }
            _ => {
                let mut v = value.term(&mut self.cx.terms);
                if u32::from(self.cx.terms.width(v)) > size * 8 {
                    v = self.cx.terms.extract((size * 8 - 1) as u8, 0, v);
                }
                let bytes = memory.array_bytes(&self.cx.terms, place, size);
                self.cx.counters.array_of(bytes);
                let limits = self.cx.bounds.limits;
                memory
                    .write(&mut self.cx.terms, place, v, limits)
                    .map_err(|limit| self.cut_at(limit))?;
            }
        }
        Ok(())
    }

    /// Writes concrete bytes at a concrete address, for the host.
    pub(crate) fn write_bytes(
        &mut self,
        s: &mut State,
        address: u64,
        bytes: &[u8],
    ) -> Result<(), End> {
        let spot = self.spot(s, address, bytes.len() as u64, Access::Write)?;
        let memory = self.program.memory_mut(s).ok_or(OOB)?;
        memory.write_bytes(&mut self.cx.terms, spot, bytes);
        Ok(())
    }
}

fn as_pointer(addr: Val) -> Pointer {
    match addr {
        Val::Con { bits, .. } => Pointer::Con(bits),
        Val::Sym(t) => Pointer::Sym(t),
    }
}
