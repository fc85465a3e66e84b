//! The trace of a replay: calls, returns, branch decisions and host calls, in
//! the order a concrete run makes them, for `symplay replay` and the UI.
//! The executor records it ([`super::tracer`]).

use crate::report::{Number, TraceEvent};

/// Events recorded so far; past `limit` they are only counted.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub events: Vec<TraceEvent>,
    pub omitted: u64,
    limit: usize,
    /// The last event is a host call whose results are still to come.
    awaiting_results: bool,
}

impl Trace {
    pub fn new(limit: usize) -> Trace {
        Trace {
            limit,
            ..Trace::default()
        }
    }

    pub(super) fn push(&mut self, event: TraceEvent) {
        self.awaiting_results = false;
        if self.events.len() < self.limit {
            self.awaiting_results = matches!(event, TraceEvent::HostCall { .. });
            self.events.push(event);
        } else {
            self.omitted += 1;
        }
    }

    /// The results of the host call recorded last, if it awaits them.
    pub(super) fn fill_host_results(&mut self, values: Vec<Number>) {
        if !self.awaiting_results {
            return;
        }
        self.awaiting_results = false;
        if let Some(TraceEvent::HostCall { results, .. }) = self.events.last_mut() {
            *results = values;
        }
    }
}
