//! The Web Worker: takes requests from the page as JSON text, answers them
//! through a [`Session`] and posts the responses back. An exploration runs in
//! steps of about [`STEP`], each scheduled with `setTimeout(0)`, so a stop
//! request that arrives meanwhile is handled before the next step.

use peak_alloc::PeakAlloc;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;
use symplay_engine::limits::{set_heap_meter, HeapMeter};
use symplay_web::protocol::{Envelope, Request, Response};
use symplay_web::worker::session::Session;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// Counts the worker's heap, so that the page's memory limit is on what
/// the engine really holds.
#[global_allocator]
static HEAP: PeakAlloc = PeakAlloc;

/// Long enough to amortise a step, short enough for a prompt stop.
const STEP: Duration = Duration::from_millis(50);

struct Worker {
    scope: DedicatedWorkerGlobalScope,
    session: RefCell<Session>,
    /// A step is already waiting in the event loop.
    scheduled: Cell<bool>,
}

impl Worker {
    fn post(&self, answers: &[Envelope<Response>]) {
        for answer in answers {
            let text = serde_json::to_string(answer).unwrap_or_else(|e| {
                format!(
                    r#"{{"id":{},"body":{{"type":"error","message":"cannot encode a response: {e}"}}}}"#,
                    answer.id
                )
            });
            // Posting a string to the page that created us cannot fail.
            let _ = self.scope.post_message(&JsValue::from_str(&text));
        }
    }

    fn schedule(self: &Rc<Self>) {
        if self.scheduled.get() || !self.session.borrow().busy() {
            return;
        }
        let worker = Rc::clone(self);
        let step = Closure::once_into_js(move || {
            worker.scheduled.set(false);
            let answers = worker.session.borrow_mut().work(STEP);
            worker.post(&answers);
            worker.schedule();
        });
        let scheduled = self
            .scope
            .set_timeout_with_callback_and_timeout_and_arguments_0(step.unchecked_ref(), 0);
        self.scheduled.set(scheduled.is_ok());
    }

    fn receive(self: &Rc<Self>, event: MessageEvent) {
        let request = event
            .data()
            .as_string()
            .ok_or_else(|| "a request must be JSON text".to_string())
            .and_then(|text| {
                serde_json::from_str::<Envelope<Request>>(&text)
                    .map_err(|e| format!("bad request: {e}"))
            });
        let answers = match request {
            Ok(Envelope { id, body }) => self.session.borrow_mut().handle(id, body),
            // Unreadable, so unnumbered: the page takes it as the worker's failure.
            Err(message) => vec![Envelope {
                id: 0,
                body: Response::Error { message },
            }],
        };
        self.post(&answers);
        self.schedule();
    }
}

fn main() {
    set_heap_meter(HeapMeter {
        in_use: || HEAP.current_usage(),
        peak: || HEAP.peak_usage(),
        reset_peak: || HEAP.reset_peak_usage(),
    });
    let worker = Rc::new(Worker {
        scope: js_sys::global().unchecked_into(),
        session: RefCell::new(Session::default()),
        scheduled: Cell::new(false),
    });
    let receiver = Rc::clone(&worker);
    let on_message =
        Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| receiver.receive(event));
    worker
        .scope
        .set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    worker.post(&[Envelope {
        id: 0,
        body: Response::Ready,
    }]);
}
