//! The allocator of the objects model, run in place of the module's own
//! (or the host's): `malloc`, `calloc`, `realloc`, `free` and their
//! aligned, Rust and C++ forms make and free memory objects, and a double
//! or invalid free is a memory error. An allocation of symbolic size gets
//! a capacity and is made under the run's size mode (`sizes.rs`,
//! `symbolic_size.md` §1.3, §1.7).

use super::sizes::Then;
use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow, MemoryFault};
use crate::expr::{BvBinOp, BvCmp, TermId};
use crate::memory::{options, BaseMode, Free, MemoryModel, Place, Size, ALIGN};
use crate::report::{Access, Trap};
use crate::state::value::Val;
use crate::state::State;
use symplay_wasm::imports::AllocatorFn;

/// Steps by which a capacity grows when no size fits it (the seed
/// prototype's).
const CAPACITY_STEP: u64 = 20;
const MAX_OBJECT: u64 = options::MAX_OBJECT as u64;
/// The largest size the path past an allocation's capacity takes (1 MiB):
/// larger sizes, where the path allows them, are left out.
pub const LARGEST_PAST_CAPACITY: u64 = 1 << 20;
const ENOMEM: u32 = 48;
const EINVAL: u32 = 28;

impl Executor<'_> {
    /// Runs allocator function `f` on the arguments on the stack.
    pub(crate) fn call_allocator(&mut self, s: &mut State, f: AllocatorFn) -> Result<Flow, End> {
        use AllocatorFn::*;
        match f {
            Malloc | New | NewArray => self.malloc(s),
            Calloc => self.calloc(s),
            AlignedAlloc => self.aligned_alloc(s),
            RustAlloc | RustAllocZeroed => self.rust_alloc(s),
            PosixMemalign => self.posix_memalign(s),
            Free | Delete | DeleteArray => self.free(s, 0),
            DeleteSized | DeleteArraySized => self.free(s, 1),
            RustDealloc => self.free(s, 2),
            Realloc => self.realloc(s, 0),
            RustRealloc => self.realloc(s, 2),
        }
    }

    /// `malloc(size)`, `operator new(size)`.
    fn malloc(&mut self, s: &mut State) -> Result<Flow, End> {
        let size = s.pop();
        self.allocate(s, size, ALIGN, &mut push_pointer)
    }

    /// Owi's `alloc(base, size)`, which its C library calls with the block
    /// its bump allocator placed at `base`: under the objects model a new
    /// object of `size` bytes, whose base the module then uses; else
    /// `base` itself.
    pub(crate) fn peer_alloc(&mut self, s: &mut State) -> Result<Flow, End> {
        let size = s.pop();
        let base = s.pop();
        if !self.checks_objects(s) {
            s.stack.push(base);
            return Ok(Flow::Next);
        }
        self.allocate(s, size, ALIGN, &mut push_pointer)
    }

    /// Owi's `dealloc(p)`: frees `p`'s object (a double or invalid free is
    /// the memory error it is; NULL does nothing) and gives `p` back.
    pub(crate) fn peer_dealloc(&mut self, s: &mut State) -> Result<Flow, End> {
        let p = s.pop();
        if !self.checks_objects(s) {
            s.stack.push(p);
            return Ok(Flow::Next);
        }
        self.with_block(s, p, &mut |exec, s, p| {
            exec.free_at(s, p, Access::Free)?;
            push_pointer(exec, s, p)
        })
    }

    /// `aligned_alloc(align, size)`.
    fn aligned_alloc(&mut self, s: &mut State) -> Result<Flow, End> {
        let size = s.pop();
        let align = s.pop();
        self.allocate_aligned(s, size, align)
    }

    /// `__rust_alloc(size, align)`, `__rust_alloc_zeroed(size, align)`.
    fn rust_alloc(&mut self, s: &mut State) -> Result<Flow, End> {
        let align = s.pop();
        let size = s.pop();
        self.allocate_aligned(s, size, align)
    }

    /// `size` bytes aligned to `align`; NULL for an alignment that is not
    /// a power of two.
    fn allocate_aligned(&mut self, s: &mut State, size: Val, align: Val) -> Result<Flow, End> {
        match self.alignment(s, align)? {
            Some(align) => self.allocate(s, size, align, &mut push_pointer),
            None => {
                s.stack.push(Val::i32(0));
                Ok(Flow::Next)
            }
        }
    }

    /// `posix_memalign(out, align, size)`: the pointer written at `out`, an
    /// error number the result.
    fn posix_memalign(&mut self, s: &mut State) -> Result<Flow, End> {
        let size = s.pop();
        let align = s.pop();
        let out = s.pop();
        let Some(align) = self.alignment(s, align)? else {
            s.stack.push(Val::i32(EINVAL));
            return Ok(Flow::Next);
        };
        // `out` is settled once the block is made: a freed block it points
        // into may have moved out of the slot the new block took.
        self.allocate(s, size, align, &mut |exec, s, ptr| {
            if ptr == 0 {
                s.stack.push(Val::i32(ENOMEM));
                return Ok(Flow::Next);
            }
            let out = exec.concretize(s, out, "the posix_memalign result address")?;
            let pointer = exec.pointer_val(s, ptr);
            let spot = exec.spot(s, out, 4, Access::Write)?;
            exec.write(s, Place::Concrete(spot), 4, pointer)?;
            s.stack.push(Val::i32(0));
            Ok(Flow::Next)
        })
    }

    /// `free(p)` and its C++ and Rust forms, whose `extra` arguments after
    /// the pointer (sizes, an alignment) are not needed.
    fn free(&mut self, s: &mut State, extra: usize) -> Result<Flow, End> {
        for _ in 0..extra {
            s.pop();
        }
        let p = s.pop();
        self.with_block(s, p, &mut |exec, s, p| {
            exec.free_at(s, p, Access::Free).map(|()| Flow::Next)
        })
    }

    /// `realloc(p, size)`, and `__rust_realloc(p, old_size, align, size)`,
    /// whose `extra` arguments between are not needed.
    fn realloc(&mut self, s: &mut State, extra: usize) -> Result<Flow, End> {
        let size = s.pop();
        for _ in 0..extra {
            s.pop();
        }
        let p = s.pop();
        self.with_block(s, p, &mut |exec, s, p| exec.realloc_at(s, p, size))
    }

    /// A power-of-two alignment, or `None` (the call fails).
    fn alignment(&mut self, s: &mut State, align: Val) -> Result<Option<u64>, End> {
        let align = self.concretize(s, align, "an allocation's alignment")?;
        Ok((align.is_power_of_two() && align <= MAX_OBJECT).then_some(align))
    }

    /// `calloc(n, m)`: `n * m` zero bytes, NULL where the product does not
    /// fit in 32 bits. (A block starts zero: a slot taken again is cleared first.)
    fn calloc(&mut self, s: &mut State) -> Result<Flow, End> {
        let m = s.pop();
        let m = self.unfolded_val(s, m);
        let n = s.pop();
        let n = self.unfolded_val(s, n);
        if let (Some(n), Some(m)) = (n.concrete(), m.concrete()) {
            return match n.checked_mul(m).filter(|&p| p <= u64::from(u32::MAX)) {
                Some(size) => self.allocate(s, Val::i32(size as u32), ALIGN, &mut push_pointer),
                None => {
                    s.stack.push(Val::i32(0));
                    Ok(Flow::Next)
                }
            };
        }
        let (n, m) = (n.term(&mut self.cx.terms), m.term(&mut self.cx.terms));
        let terms = &mut self.cx.terms;
        let (wide_n, wide_m) = (terms.zero_ext(32, n), terms.zero_ext(32, m));
        let product = terms.bin(BvBinOp::Mul, wide_n, wide_m);
        let limit = terms.bv_const(64, u64::from(u32::MAX));
        let overflows = terms.cmp(BvCmp::Ult, limit, product);
        let fits = terms.not(overflows);
        let size = terms.bin(BvBinOp::Mul, n, m);
        let size = Val::from_term(&self.cx.terms, size);
        let (chosen, siblings) = self.fork(s, &[fits, overflows])?;
        self.each_alternative(s, chosen, siblings, &mut |exec, s, i| {
            if i == 0 {
                exec.allocate(s, size, ALIGN, &mut push_pointer)
            } else {
                s.stack.push(Val::i32(0));
                Ok(Flow::Next)
            }
        })
    }

    /// Allocates `size` bytes aligned to `align` and runs `then` with the
    /// pointer (0 when the allocation fails) in every state it leaves: a
    /// symbolic size is made under the size mode, and an allocation that
    /// may fail forks off a state where it does.
    fn allocate(
        &mut self,
        s: &mut State,
        size: Val,
        align: u64,
        then: &mut Then<'_, u64>,
    ) -> Result<Flow, End> {
        if self.program.roles.heap.malloc_may_fail {
            let fails = self.fresh_int(s, "alloc_fails", 1);
            let fails = fails.term(&mut self.cx.terms);
            let one = self.cx.terms.bv_const(1, 1);
            let failed = self.cx.terms.eq(fails, one);
            let succeeds = self.cx.terms.not(failed);
            let (chosen, siblings) = self.fork(s, &[succeeds, failed])?;
            return self.each_alternative(s, chosen, siblings, &mut |exec, s, i| {
                if i == 0 {
                    exec.allocate_now(s, size, align, then)
                } else {
                    then(exec, s, 0)
                }
            });
        }
        self.allocate_now(s, size, align, then)
    }

    fn allocate_now(
        &mut self,
        s: &mut State,
        size: Val,
        align: u64,
        then: &mut Then<'_, u64>,
    ) -> Result<Flow, End> {
        let site = s.at;
        // A size computed from pointers (`end - begin`) is a number.
        let sigma = match self.unfolded_val(s, size) {
            Val::Con { bits, .. } => {
                let ptr = self.new_object(s, Size::Con(bits), bits, align, site);
                return then(self, s, ptr);
            }
            Val::Sym(t) => t,
        };
        let Some((capacity, larger)) = self.capacity(s, sigma)? else {
            return then(self, s, 0);
        };
        let within = |exec: &mut Self, s: &mut State, then: &mut Then<'_, u64>| {
            exec.sized(s, sigma, capacity, &mut |exec, s, size| {
                let ptr = exec.new_object(s, size, capacity, align, site);
                then(exec, s, ptr)
            })
        };
        if !larger {
            return within(self, s, then);
        }
        let c = self.cx.terms.bv_const(32, capacity);
        let fits = self.cx.terms.cmp(BvCmp::Ule, sigma, c);
        if !self.program.roles.heap.past_capacity {
            self.fork(s, &[fits])?;
            s.note(format!(
                "sizes above {capacity} of the allocation at {} are not explored",
                self.program.location_text(s.at)
            ));
            let what = format!("a symbolic allocation size, bounded by its capacity {capacity}");
            s.mark_concretised(what, s.at);
            return within(self, s, then);
        }
        // Sizes past the capacity: one more path, which takes the largest
        // (as size mode base would), so that a bug that needs a large
        // block is not lost.
        let past = self.cx.terms.not(fits);
        let (chosen, siblings) = self.fork(s, &[fits, past])?;
        self.each_alternative(s, chosen, siblings, &mut |exec, s, i| {
            if i == 0 {
                within(exec, s, then)
            } else {
                let size = exec.past_capacity(s, sigma, capacity)?;
                let ptr = exec.new_object(s, Size::Con(size), size, align, site);
                then(exec, s, ptr)
            }
        })
    }

    /// The size an allocation of symbolic size `sigma` takes past its
    /// `capacity`: the largest the path allows up to
    /// [`LARGEST_PAST_CAPACITY`] (else the smallest), pinned, the sizes
    /// left out recorded.
    fn past_capacity(&mut self, s: &mut State, sigma: TermId, capacity: u64) -> Result<u64, End> {
        let limit = self.cx.terms.bv_const(32, LARGEST_PAST_CAPACITY);
        let within_limit = self.cx.terms.cmp(BvCmp::Ule, sigma, limit);
        let size = if self.model_value(s, &[within_limit], sigma)?.is_some() {
            self.fork(s, &[within_limit])?;
            self.largest(s, sigma, LARGEST_PAST_CAPACITY)?
        } else {
            self.smallest(s, sigma)?
        };
        let value = self.cx.terms.bv_const(32, size);
        let other = self.cx.terms.eq(sigma, value);
        let other = self.cx.terms.not(other);
        if self.model_value(s, &[other], sigma)?.is_some() {
            s.note(format!(
                "past its capacity {capacity}, the allocation at {} takes its largest size {size}; the sizes between are not explored",
                self.program.location_text(s.at)
            ));
            let what = format!("a symbolic allocation size past its capacity {capacity}");
            s.mark_concretised(what, s.at);
        }
        let pinned = self.cx.terms.eq(sigma, value);
        self.fork(s, &[pinned])?;
        Ok(size)
    }

    /// A new heap object's base, or 0 when memory cannot hold it.
    fn new_object(
        &mut self,
        s: &mut State,
        size: Size,
        capacity: u64,
        align: u64,
        site: (u32, u32),
    ) -> u64 {
        if capacity > MAX_OBJECT {
            return 0;
        }
        // Every block reserves the capacity of a symbolic size, so that a
        // replay, where the size is concrete, lays the heap out alike.
        let reserve = u64::from(self.program.roles.heap.capacity);
        let context = self.allocation_context(s, site);
        let Some(memory) = self.program.memory_mut(s) else {
            return 0;
        };
        let crowded = memory.arena_crowded();
        let base = memory
            .alloc(
                &mut self.cx.terms,
                size,
                capacity,
                reserve,
                align,
                (site, context),
            )
            .unwrap_or(0);
        if base != 0 && self.program.roles.heap.bases == BaseMode::Symbolic {
            memory.give_base(&mut self.cx.terms, base);
        }
        self.note_crowding(s, crowded, "an allocation");
        base
    }

    /// Says on the path when `what` (at the current instruction) was the
    /// first to take a freed block's slot with no room left in the arena
    /// to move the block out (it was not, `before`).
    pub(super) fn note_crowding(&self, s: &mut State, before: bool, what: &str) {
        if before
            || !self
                .program
                .memory(s)
                .is_some_and(MemoryModel::arena_crowded)
        {
            return;
        }
        s.note(format!(
            "{what} at {} took a freed block's slot with no room left in the arena to move that block out: a use after free of it through a pointer kept from before goes unreported from here on",
            self.program.location_text(s.at)
        ));
    }

    /// The pointer to the heap object at `address` (0 for NULL): a term
    /// over its base symbol under relocatable bases, else the address.
    fn pointer_val(&self, s: &State, address: u64) -> Val {
        match self
            .program
            .memory(s)
            .and_then(|m| m.base_symbol_at(address))
        {
            Some(beta) => Val::Sym(beta),
            None => Val::i32(address as u32),
        }
    }

    /// The capacity of an allocation of symbolic size `sigma`: the run's,
    /// raised in steps while no size fits it; and whether larger sizes
    /// are feasible too. `None` when no size fits memory.
    fn capacity(&mut self, s: &mut State, sigma: TermId) -> Result<Option<(u64, bool)>, End> {
        let mut capacity = u64::from(self.program.roles.heap.capacity);
        let bound = |exec: &mut Self, c: u64| {
            let c = exec.cx.terms.bv_const(32, c);
            exec.cx.terms.cmp(BvCmp::Ule, sigma, c)
        };
        let fits = bound(self, capacity);
        let above = self.cx.terms.not(fits);
        if self.model_value(s, &[above], sigma)?.is_none() {
            return Ok(Some((capacity, false)));
        }
        if self.model_value(s, &[fits], sigma)?.is_none() {
            // No size fits: the least step above some feasible size.
            let v = self.value_now(s, sigma)?;
            capacity += v.saturating_sub(capacity).div_ceil(CAPACITY_STEP) * CAPACITY_STEP;
            if capacity > MAX_OBJECT {
                return Ok(None);
            }
            let fits = bound(self, capacity);
            let above = self.cx.terms.not(fits);
            if self.model_value(s, &[above], sigma)?.is_none() {
                return Ok(Some((capacity, false)));
            }
        }
        Ok(Some((capacity, true)))
    }

    /// Runs `then` with the value of the pointer `p` in every state: a
    /// symbolic `p` forks over NULL, each heap object's base, and any other
    /// value (pinned to one, which is an invalid free).
    fn with_block(&mut self, s: &mut State, p: Val, then: &mut Then<'_, u64>) -> Result<Flow, End> {
        let t = match self.settle(s, p) {
            Val::Con { bits, .. } => {
                self.pin_stray_block(s, p, bits);
                return then(self, s, bits);
            }
            Val::Sym(t) => t,
        };
        let bases: Vec<u64> = self
            .program
            .memory(s)
            .map(|m| m.heap_objects().map(|(_, o)| o.base).collect())
            .unwrap_or_default();
        // A freed block left behind and the block that took its slot
        // share a base.
        let mut values = vec![0];
        values.extend(bases);
        values.sort_unstable();
        values.dedup();
        let mut conds: Vec<TermId> = values
            .iter()
            .map(|&v| {
                let v = self.cx.terms.bv_const(32, v);
                self.cx.terms.eq(t, v)
            })
            .collect();
        let any = self.cx.terms.or_all(&conds);
        conds.push(self.cx.terms.not(any));
        let (chosen, siblings) = self.fork(s, &conds)?;
        self.each_alternative(s, chosen, siblings, &mut |exec, s, i| {
            let value = match values.get(i) {
                Some(&v) => v,
                None => exec.pin(s, t)?,
            };
            exec.pin_stray_block(s, p, value);
            then(exec, s, value)
        })
    }

    /// Pins what a free or a `realloc` of `raw`, whose value on the path
    /// is `value`, met: unless it is the block of `raw`'s base symbol, the
    /// block freed (or none) depends on where the blocks are.
    fn pin_stray_block(&mut self, s: &mut State, raw: Val, value: u64) {
        let block = self.program.memory(s).and_then(|m| m.block_at(value));
        self.pin_stray(s, raw, block);
    }

    /// Frees the block at `p`: NULL does nothing; anything but a live
    /// heap object's base is a memory error.
    fn free_at(&mut self, s: &mut State, p: u64, access: Access) -> Result<(), End> {
        if p == 0 {
            return Ok(());
        }
        let at = s.at;
        let freed = self
            .program
            .memory_mut(s)
            .and_then(|m| m.free_at(p, at))
            .ok_or(End::Trap(Trap::Unreachable))?;
        match freed {
            Free::Freed => Ok(()),
            Free::Double(id) => Err(MemoryFault::double_free(p, id, access).into()),
            Free::Invalid { near } => Err(MemoryFault::invalid_free(p, near, access).into()),
        }
    }

    /// `realloc(p, size)`: a new object with the old one's bytes (up to
    /// the smaller capacity, `symbolic_size.md` §1.5), the old one freed;
    /// NULL keeps the old one.
    fn realloc_at(&mut self, s: &mut State, p: u64, size: Val) -> Result<Flow, End> {
        if p == 0 {
            return self.allocate(s, size, ALIGN, &mut push_pointer);
        }
        let Some(old_capacity) = self.live_capacity(s, p) else {
            // Not a live block: free_at says which error it is.
            self.free_at(s, p, Access::Realloc)?;
            return Err(End::Trap(Trap::Unreachable));
        };
        self.allocate(s, size, ALIGN, &mut |exec, s, new| {
            if new != 0 {
                let len = old_capacity.min(exec.live_capacity(s, new).unwrap_or(0));
                if let Some(memory) = exec.program.memory_mut(s) {
                    memory.copy_object(&mut exec.cx.terms, new, p, len);
                }
                exec.free_at(s, p, Access::Realloc)?;
            }
            push_pointer(exec, s, new)
        })
    }

    /// Whether `s`'s memory is under the objects model.
    fn checks_objects(&self, s: &State) -> bool {
        self.program
            .memory(s)
            .is_some_and(MemoryModel::checks_objects)
    }

    /// The capacity of the live heap object whose base is `p`.
    fn live_capacity(&self, s: &State, p: u64) -> Option<u64> {
        self.program.memory(s)?.live_capacity(p)
    }
}

fn push_pointer(exec: &mut Executor<'_>, s: &mut State, ptr: u64) -> Result<Flow, End> {
    let pointer = exec.pointer_val(s, ptr);
    s.stack.push(pointer);
    Ok(Flow::Next)
}
