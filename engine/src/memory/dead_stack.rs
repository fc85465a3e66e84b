//! The stack bytes of frames that have returned. A function's stack
//! variables stay in linear memory when it returns, and nothing marks them
//! dead: the next call at the same depth reuses them. Until then no caller
//! has any business there, so a pointer a caller kept into the frame and
//! uses is a use after return.
//!
//! Each dead span records the call depth from which its bytes may be in use
//! again: code running shallower (a caller of the returned function)
//! touches them after return; code at that depth or deeper may be a new
//! frame reusing them. Each later return lowers that depth to its own (the
//! stack below the returning frame is free for the next call at that
//! depth), and so does a stack pointer set below a span's end (a frame or
//! an `alloca` of the code at that depth now covers it).

use std::rc::Rc;

/// One variable of a returned frame.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DeadSpan {
    pub start: u64,
    pub end: u64,
    /// Code running at a smaller call depth uses the span after return.
    pub depth: u32,
    /// The store function whose frame held it.
    pub func: u32,
    /// Its variable, by index in that function's frame variables.
    pub variable: u32,
    /// Where the function returned: function and pc.
    pub returned_at: (u32, u32),
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DeadStack {
    /// Shared between forks until a return changes them.
    spans: Rc<Vec<DeadSpan>>,
    /// The least start and the greatest end of the spans: concrete accesses
    /// in between leave the interpreter's fast path to be checked.
    bounds: (u64, u64),
}

impl DeadStack {
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Whether `[start, end)` may touch a span.
    #[inline(always)]
    pub fn overlaps(&self, start: u64, end: u64) -> bool {
        start < self.bounds.1 && self.bounds.0 < end
    }

    /// A frame returned from call depth `depth`, its variables `dead` (at
    /// that depth).
    pub fn bury(&mut self, depth: u32, dead: Vec<DeadSpan>) {
        debug_assert!(dead.iter().all(|d| d.depth == depth));
        if dead.is_empty() && self.spans.iter().all(|s| s.depth <= depth) {
            return;
        }
        let spans = Rc::make_mut(&mut self.spans);
        for s in spans.iter_mut() {
            s.depth = s.depth.min(depth);
        }
        spans.retain(|s| !dead.iter().any(|d| d.start < s.end && s.start < d.end));
        spans.extend(dead);
        self.settle();
    }

    /// Code at call depth `depth` set the stack pointer to `pointer`: the
    /// spans above it are in its frame now.
    pub fn cover(&mut self, pointer: u64, depth: u32) {
        if self
            .spans
            .iter()
            .any(|s| s.end > pointer && s.depth > depth)
        {
            for s in Rc::make_mut(&mut self.spans) {
                if s.end > pointer {
                    s.depth = s.depth.min(depth);
                }
            }
            self.settle();
        }
    }

    /// Drops the spans no code can use after return any more (the entry
    /// runs at depth 1), and sets the bounds of the others.
    fn settle(&mut self) {
        if self.spans.iter().any(|s| s.depth <= 1) {
            Rc::make_mut(&mut self.spans).retain(|s| s.depth > 1);
        }
        self.bounds = self.spans.iter().fold((u64::MAX, 0), |(lo, hi), s| {
            (lo.min(s.start), hi.max(s.end))
        });
    }

    /// The span that `[start, end)`, touched by code at call depth `depth`,
    /// uses after return.
    pub fn used_after_return(&self, start: u64, end: u64, depth: u32) -> Option<&DeadSpan> {
        if start >= end || !self.overlaps(start, end) {
            return None;
        }
        self.spans
            .iter()
            .find(|s| depth < s.depth && start < s.end && s.start < end)
    }

    /// The span holding `address` that code at call depth `depth` has no
    /// business in.
    pub fn span_holding(&self, address: u64, depth: u32) -> Option<&DeadSpan> {
        self.used_after_return(address, address + 1, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: u64, end: u64, depth: u32) -> DeadSpan {
        DeadSpan {
            start,
            end,
            depth,
            func: 1,
            variable: 0,
            returned_at: (1, 9),
        }
    }

    #[test]
    fn a_caller_uses_a_returned_frame_and_a_new_call_reuses_it() {
        let mut d = DeadStack::default();
        // f, at depth 3, returns: its variable at [100, 104) is dead.
        d.bury(3, vec![span(100, 104, 3)]);
        assert!(d.span_holding(102, 2).is_some(), "its caller reads it");
        assert!(
            d.span_holding(102, 3).is_none(),
            "a new call at f's depth reuses it"
        );
        assert!(d.span_holding(104, 2).is_none(), "past the span");
        assert!(d.used_after_return(98, 101, 2).is_some(), "overlapping it");
        // The caller (depth 2) returns: the next call at depth 2 may reuse
        // the bytes, and the caller's caller still may not touch them.
        d.bury(2, Vec::new());
        assert!(d.span_holding(102, 2).is_none());
        assert!(d.span_holding(102, 1).is_some());
        // Back in the entry (depth 1) nothing can use them after return.
        d.bury(1, Vec::new());
        assert!(d.spans.is_empty());
        assert!(!d.overlaps(0, u64::MAX), "the fast path may take them");
    }

    #[test]
    fn a_newer_frame_replaces_the_spans_it_overlaps_and_a_stack_pointer_covers_them() {
        let mut d = DeadStack::default();
        d.bury(3, vec![span(100, 104, 3), span(104, 120, 3)]);
        d.bury(3, vec![span(96, 102, 3)]);
        assert_eq!(d.spans.len(), 2, "the span at 100 is gone");
        assert_eq!(d.span_holding(100, 2).map(|s| s.start), Some(96));
        // Code at depth 2 allocas down to 110: the span at 104 is its own.
        d.cover(110, 2);
        assert!(d.span_holding(112, 2).is_none());
        assert!(
            d.span_holding(97, 2).is_some(),
            "below the new stack pointer"
        );
        assert!(d.used_after_return(97, 97, 2).is_none(), "no bytes touched");
        // The entry's alloca covers the rest: nothing is left to check.
        d.cover(0, 1);
        assert!(!d.overlaps(0, u64::MAX));
    }
}
