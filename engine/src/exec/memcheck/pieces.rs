//! Intra-object splitting (`relocatable_and_caching.md` §3): an access at
//! a symbolic offset into an object or region larger than the run's
//! threshold forks over the pieces the path allows it to start in, each
//! of which then reads an array of its own bytes only.

use crate::exec::executor::Executor;
use crate::exec::outcome::End;
use crate::limits::Checkpoint;
use crate::memory::{Pieces, Place, Split};
use crate::state::State;

/// The most pieces one access forks over: past it the access stays whole,
/// as an access with no split would (a pointer the path leaves free to
/// point anywhere in a large region).
const MAX_PIECES: usize = 64;

impl Executor<'_> {
    /// `place` in `s` and each other place in its state, each narrowed to
    /// the piece of a split object or region it starts in: a state whose
    /// access may start in several forks over them. A state whose fork
    /// ends its path ends; `s` takes another's place then.
    pub(super) fn split_places(
        &mut self,
        s: &mut State,
        place: Place,
        others: Vec<(Place, State)>,
        width: u64,
    ) -> Result<(Place, Vec<(Place, State)>), End> {
        let Some(cut) = self.program.roles.heap.split else {
            return Ok((place, others));
        };
        let mut split = Vec::with_capacity(others.len());
        for (p, mut sibling) in others {
            match self.narrowed_to_piece(&mut sibling, p, (width, cut)) {
                Ok((p, more)) => {
                    split.push((p, sibling));
                    split.extend(more);
                }
                Err(end) => self.end_path(sibling, end),
            }
        }
        match self.narrowed_to_piece(s, place, (width, cut)) {
            Ok((p, more)) => {
                split.extend(more);
                Ok((p, split))
            }
            Err(end) => {
                let Some((p, next)) = split.pop() else {
                    return Err(end);
                };
                let ended = std::mem::replace(s, next);
                self.end_path(ended, end);
                Ok((p, split))
            }
        }
    }

    /// `place` narrowed to the piece its access of `width` bytes starts in
    /// on the path of `s`, as `split` cuts objects; `s` forks when it may
    /// start in several.
    fn narrowed_to_piece(
        &mut self,
        s: &mut State,
        place: Place,
        (width, split): (u64, Split),
    ) -> Result<(Place, Vec<(Place, State)>), End> {
        let pieces = self
            .program
            .memory(s)
            .and_then(|m| m.pieces(&self.cx.terms, place, width, split));
        let Some(pieces) = pieces else {
            return Ok((place, Vec::new()));
        };
        let likely = self.likely_piece(s, place, &pieces);
        let row = (pieces.len(), likely);
        let forked = self.fork_in_row(s, row, MAX_PIECES, &mut |terms, range| {
            pieces.condition(terms, range)
        })?;
        let Some((chosen, siblings)) = forked else {
            return Ok((place, Vec::new()));
        };
        self.cx.counters.split_accesses += 1;
        let piece = u64::from(split.piece);
        let mark = |exec: &mut Self, state: &mut State| {
            if let (Some(memory), Place::Symbolic { object, .. }) =
                (exec.program.memory_mut(state), place)
            {
                memory.mark_split(object, piece);
            }
        };
        mark(self, s);
        let mut others = Vec::with_capacity(siblings.len());
        for (i, mut sibling) in siblings {
            mark(self, &mut sibling);
            others.push((pieces.place(i), sibling));
        }
        Ok((pieces.place(chosen), others))
    }

    /// The piece the access starts in under the model the path's witnesses
    /// make, found without a query (none when a constraint has no witness).
    fn likely_piece(&self, s: &State, place: Place, pieces: &Pieces) -> Option<usize> {
        let Place::Symbolic { pointer, .. } = place else {
            return None;
        };
        let model = s.condition.model()?;
        let checkpoint = &mut Checkpoint::new(self.cx.bounds.limits);
        let value = self
            .cx
            .terms
            .eval_within(pointer, &model, checkpoint)
            .ok()?;
        pieces.index_of(value.as_bv()?)
    }
}
