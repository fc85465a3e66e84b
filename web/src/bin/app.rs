//! The playground page: a WAT editor, the entry picker and options, Run and
//! Stop, live progress, and the paths found. The engine runs in the worker
//! (`worker.rs`); the page only sends requests and shows the answers. Share
//! links, uploads, downloads and bug replays use the library's `share`,
//! `input`, `dom` and `results` modules.

use std::collections::BTreeMap;
use std::rc::Rc;
use symplay_engine::report::{Location, Report};
use symplay_web::disassembly::{line_of, Line};
use symplay_web::examples::{self, Example, EXAMPLES};
use symplay_web::input::{OptionFields, Source};
use symplay_web::paths_table::PathsTable;
use symplay_web::protocol::{ExportedFunction, Request, Response};
use symplay_web::results::{BugList, Replay};
use symplay_web::tree::view::TreeView;
use symplay_web::wat_pane::WatPane;
use symplay_web::{dom, share};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    DragEvent, ErrorEvent, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement, MessageEvent,
};
use yew::prelude::*;

/// The script trunk generates to start the worker's wasm.
const WORKER_SCRIPT: &str = "./worker_loader.js";
/// How long Stop may take before the worker, which takes Stop only between
/// two steps and so not inside one long solver query, is replaced.
const STOP_GRACE_MS: i32 = 2_000;
/// While a run goes on, the page checks this often that the worker speaks.
const TICK_MS: i32 = 500;
/// A worker silent for longer is inside one long step: the page says so.
const SILENCE_MS: f64 = 1_500.0;

const GET_SIGN: &str = r#"(module
  ;; Three paths: x < 0, x = 0, x > 0.
  (func (export "get_sign") (param $x i32) (result i32)
    (if (i32.eqz (local.get $x)) (then (return (i32.const 0))))
    (if (i32.lt_s (local.get $x) (i32.const 0)) (then (return (i32.const -1))))
    (i32.const 1)))
"#;

enum Msg {
    Example(String),
    /// Mark the WAT line of this byte offset and scroll to it.
    Highlight(Location),
    Edit(String),
    Inspect,
    /// Inspect the editor's module, then run it with the entry it lists.
    InspectAndRun,
    Entry(String),
    /// An options field by its element id, and its new text.
    Field(&'static str, String),
    /// The value field of a parameter of the entry, and its new text.
    Arg(usize, String),
    /// A file was chosen or dropped.
    File(web_sys::File),
    /// Its bytes, or why they could not be read.
    Loaded(Result<Vec<u8>, String>),
    /// Back from a binary module to the editor's text.
    EditText,
    /// The address bar's fragment changed: maybe a new share link.
    FragmentChanged,
    Share,
    Download,
    Replay(usize),
    Run,
    Stop,
    /// Stop's grace period for this run is over.
    StopOverdue(u32),
    /// Time to look at this run's progress again.
    Tick(u32),
    Worker(Response),
    WorkerFailed(String),
    /// The worker ended with an uncaught error.
    WorkerDied(String),
}

struct Progress {
    paths: usize,
    pending: usize,
    queries: u64,
    instructions: u64,
    elapsed_ms: f64,
}

struct App {
    worker: Option<web_sys::Worker>,
    /// Requests waiting for the worker to be ready.
    queued: Option<Vec<String>>,
    /// Keeps the worker's handlers alive.
    _handlers: Option<WorkerHandlers>,
    _on_fragment: Option<Closure<dyn Fn()>>,
    source: String,
    /// The gallery example in the editor, whose C source is shown beside it.
    example: Option<&'static Example>,
    /// A binary module being printed into the editor as WAT.
    printing: Option<Vec<u8>>,
    /// The binary the editor's text was printed from, and that text.
    printed: Option<(Vec<u8>, String)>,
    /// The module as WAT with byte offsets, for showing locations.
    disassembly: Rc<Vec<Line>>,
    highlight: Option<Location>,
    /// The WAT and C panes, and whether they are to scroll to their marked
    /// lines.
    wat: NodeRef,
    c_pane: NodeRef,
    scroll_to_mark: bool,
    /// A binary module, shown instead of the editor's text.
    binary: Option<Vec<u8>>,
    functions: Vec<ExportedFunction>,
    entry: String,
    fields: OptionFields,
    running: bool,
    /// A run waits for the module's functions (`InspectAndRun`).
    run_when_inspected: bool,
    /// Runs started: a new run gets a new tree view, a snapshot the same.
    runs: u32,
    /// When the worker last sent progress (ms since the epoch).
    heard_at: f64,
    ticker: Callback<u32>,
    progress: Option<Progress>,
    report: Option<Rc<Report>>,
    /// The module and entry of the report, for replays.
    ran: Option<(Vec<u8>, String)>,
    replays: Rc<BTreeMap<usize, Replay>>,
    /// The bug whose replay the worker is running.
    replaying: Option<usize>,
    /// The link made by Share, or why a link could not be made or opened.
    share: Option<Result<String, String>>,
    error: Option<String>,
}

impl App {
    fn send(&mut self, request: &Request) {
        let Some(worker) = &self.worker else {
            self.error = Some("the engine's worker is not running".into());
            return;
        };
        match serde_json::to_string(request) {
            Ok(text) => match &mut self.queued {
                Some(queue) => queue.push(text),
                None => {
                    if let Err(e) = worker.post_message(&JsValue::from_str(&text)) {
                        self.error = Some(format!("cannot reach the worker: {e:?}"));
                    }
                }
            },
            Err(e) => self.error = Some(format!("cannot encode the request: {e}")),
        }
    }

    fn worker_ready(&mut self) {
        let (Some(worker), Some(queue)) = (&self.worker, self.queued.take()) else {
            return;
        };
        for text in queue {
            if let Err(e) = worker.post_message(&JsValue::from_str(&text)) {
                self.error = Some(format!("cannot reach the worker: {e:?}"));
            }
        }
    }

    /// One value field per parameter of the entry; `keep` keeps the values
    /// typed (or restored from a link) for the same entry.
    fn fit_args(&mut self, keep: bool) {
        let count = self
            .functions
            .iter()
            .find(|f| f.name == self.entry)
            .map_or(0, |f| f.params.len());
        if !keep {
            self.fields.args.clear();
        }
        self.fields.fit_args(count);
    }

    /// Asks for a `Tick` of the current run in `TICK_MS`.
    fn tick(&mut self) {
        let (ticker, run) = (self.ticker.clone(), self.runs);
        if let Err(e) = dom::after(TICK_MS, move || ticker.emit(run)) {
            self.error = Some(e);
        }
    }

    /// Replaces a stuck or dead worker with a new one. A run it had ends
    /// as cancelled with the report shown last; `why` says what happened.
    fn restart_worker(&mut self, ctx: &Context<Self>, why: &str) {
        if let Some(old) = self.worker.take() {
            // What it still has on the way must not reach freed handlers.
            old.set_onmessage(None);
            old.set_onerror(None);
            old.terminate();
        }
        self._handlers = None;
        self.queued = Some(Vec::new());
        match start_worker(ctx) {
            Ok((worker, handlers)) => {
                self.worker = Some(worker);
                self._handlers = Some(handlers);
            }
            Err(e) => {
                self.running = false;
                self.error = Some(format!("{why}; cannot start a new engine: {e}"));
                return;
            }
        }
        let mut message = format!("{why}, so it was restarted");
        if std::mem::take(&mut self.running) {
            match self.report.take() {
                Some(shown) => {
                    let mut report = Report::clone(&shown);
                    report.stop_reason = "cancelled".into();
                    message.push_str(&format!(
                        "; the results are those shown last ({} paths)",
                        report.paths.len()
                    ));
                    self.report = Some(Rc::new(report));
                }
                None => message.push_str("; it had shown no results yet"),
            }
        }
        if let Some(id) = self.replaying.take() {
            Rc::make_mut(&mut self.replays).insert(id, Replay::Failed(why.to_string()));
        }
        self.error = Some(message);
    }

    fn module(&self) -> Vec<u8> {
        self.binary_module()
            .map_or_else(|| self.source.as_bytes().to_vec(), <[u8]>::to_vec)
    }

    /// The module as a binary: uploaded or pasted, or the one the editor's
    /// unedited text was printed from. `None` when the editor's text is it.
    fn binary_module(&self) -> Option<&[u8]> {
        self.binary.as_deref().or(self.unedited_binary())
    }

    /// The worker runs an exploration or a replay.
    fn busy(&self) -> bool {
        self.running || self.replaying.is_some()
    }

    /// The binary the editor's text was printed from, while it is unedited:
    /// that runs instead, since only it keeps the C line tables right
    /// (assembled text lays the code out anew).
    fn unedited_binary(&self) -> Option<&[u8]> {
        let (bytes, text) = self.printed.as_ref()?;
        (self.binary.is_none() && *text == self.source).then_some(bytes.as_slice())
    }

    /// Asks for `bytes` as WAT text for the editor.
    fn print(&mut self, bytes: Vec<u8>) {
        self.printing = Some(bytes.clone());
        self.send(&Request::Print { module: bytes });
    }

    fn inspect_editor(&mut self) {
        // Pasted base64 or hex of a binary module is taken as that module.
        if let Source::Binary(bytes) = Source::from_editor(&self.source) {
            self.binary = Some(bytes);
        }
        self.inspect();
    }

    fn inspect(&mut self) {
        let module = self.module();
        self.send(&Request::Inspect { module });
    }

    fn run(&mut self) {
        match self.fields.parse() {
            Ok(options) => {
                self.error = None;
                self.report = None;
                self.progress = None;
                self.replays = Rc::default();
                self.running = true;
                self.runs += 1;
                self.heard_at = js_sys::Date::now();
                self.tick();
                let module = self.module();
                self.ran = Some((module.clone(), self.entry.clone()));
                let request = Request::Explore {
                    module,
                    entry: self.entry.clone(),
                    options,
                };
                self.send(&request);
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Restores the state of the share link in the address bar, if any, and
    /// runs it at once (its entry is known before the worker lists them).
    fn open_link(&mut self) {
        self.share = None;
        let restored = match share::decode(&dom::fragment()) {
            None => false,
            Some(Err(message)) => {
                self.share = Some(Err(message));
                false
            }
            Some(Ok(shared)) => {
                self.entry = shared.entry;
                self.fields = OptionFields::from_options(&shared.options);
                self.example = shared.example.as_deref().and_then(examples::find);
                match (shared.source, self.example) {
                    // A gallery example: its C beside its WAT, as if chosen.
                    (Source::Binary(bytes), Some(_)) => {
                        self.print(bytes);
                        self.run_when_inspected = true;
                        return;
                    }
                    (Source::Text(text), _) => {
                        self.source = text;
                        self.binary = None;
                    }
                    (Source::Binary(bytes), None) => self.binary = Some(bytes),
                }
                true
            }
        };
        self.inspect();
        if restored {
            self.run();
        }
    }

    fn share(&mut self) {
        let link = self.fields.parse().and_then(|options| {
            // An unedited example goes as its binary, with its name.
            let example = self.example.filter(|_| self.unedited_binary().is_some());
            let source = match self.binary_module() {
                Some(bytes) => Source::Binary(bytes.to_vec()),
                None => Source::Text(self.source.clone()),
            };
            let shared = share::Shared {
                source,
                example: example.map(|e| e.id.to_string()),
                entry: self.entry.clone(),
                options,
            };
            dom::set_fragment(&share::encode(&shared)?)
        });
        if let Ok(link) = &link {
            dom::copy(link);
        }
        self.share = Some(link);
    }

    /// The user changed the state: a share link in the address bar, or the
    /// message about one, no longer describes the page. Returns whether
    /// anything was cleared.
    fn forget_link(&mut self) -> bool {
        if self.share.take().is_none() && dom::fragment().is_empty() {
            return false;
        }
        if let Err(e) = dom::set_fragment("") {
            self.error = Some(e);
        }
        true
    }

    fn loaded(&mut self, bytes: Vec<u8>) {
        // A `.wat` file is text for the editor; anything else is loaded as is.
        match String::from_utf8(bytes) {
            Ok(text) if !text.starts_with('\0') => {
                self.source = text;
                self.binary = None;
            }
            Ok(text) => self.binary = Some(text.into_bytes()),
            Err(e) => self.binary = Some(e.into_bytes()),
        }
        self.inspect();
    }

    fn apply(&mut self, response: Response) {
        match response {
            Response::Ready => self.worker_ready(),
            Response::Disassembly { lines } => self.disassembly = Rc::new(lines),
            Response::Printed { text } => {
                self.source = text.clone();
                self.binary = None;
                self.printed = self.printing.take().map(|bytes| (bytes, text));
                self.inspect();
            }
            Response::Module { functions } => {
                let before = self.entry.clone();
                if let Some(e) = self
                    .example
                    .filter(|e| functions.iter().any(|f| f.name == e.entry))
                {
                    self.entry = e.entry.to_string();
                } else if !functions.iter().any(|f| f.name == self.entry) {
                    self.entry = functions
                        .first()
                        .map_or_else(String::new, |f| f.name.clone());
                }
                self.functions = functions;
                self.fit_args(self.entry == before);
                self.error = None;
                if std::mem::take(&mut self.run_when_inspected) {
                    self.run();
                }
            }
            Response::Progress {
                paths,
                pending,
                queries,
                instructions,
                elapsed_ms,
            } => {
                self.heard_at = js_sys::Date::now();
                self.progress = Some(Progress {
                    paths,
                    pending,
                    queries,
                    instructions,
                    elapsed_ms,
                })
            }
            // A late snapshot (after Stop's report) would hide the final one.
            Response::Snapshot { report } => {
                if self.running {
                    self.report = Some(Rc::from(report));
                }
            }
            Response::Finished { report } => {
                self.running = false;
                self.report = Some(Rc::from(report));
            }
            Response::Replayed { path, trace } => {
                if let Some(id) = self.replaying.take() {
                    Rc::make_mut(&mut self.replays).insert(id, Replay::Done { path, trace });
                }
            }
            // The worker answers in order: while a replay waits, an error is its.
            Response::Error { message } => {
                if let Some(id) = self.replaying.take() {
                    Rc::make_mut(&mut self.replays).insert(id, Replay::Failed(message));
                } else {
                    // A module that does not load leaves nothing to run.
                    self.run_when_inspected = false;
                    self.running = false;
                    self.error = Some(message);
                }
            }
        }
    }
}

type WorkerHandlers = (Closure<dyn Fn(MessageEvent)>, Closure<dyn Fn(ErrorEvent)>);

fn start_worker(ctx: &Context<App>) -> Result<(web_sys::Worker, WorkerHandlers), String> {
    let worker = web_sys::Worker::new(WORKER_SCRIPT).map_err(|e| format!("{e:?}"))?;
    let on_response = ctx.link().callback(Msg::Worker);
    let on_failure = ctx.link().callback(Msg::WorkerFailed);
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let parsed = event
            .data()
            .as_string()
            .and_then(|text| serde_json::from_str::<Response>(&text).ok());
        match parsed {
            Some(response) => on_response.emit(response),
            None => on_failure.emit("the worker sent an unreadable message".into()),
        }
    });
    let on_death = ctx.link().callback(Msg::WorkerDied);
    let on_error = Closure::<dyn Fn(ErrorEvent)>::new(move |event: ErrorEvent| {
        on_death.emit(event.message());
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Ok((worker, (on_message, on_error)))
}

impl Component for App {
    type Message = Msg;
    type Properties = ();

    fn create(ctx: &Context<Self>) -> Self {
        let (worker, handlers, error) = match start_worker(ctx) {
            Ok((worker, handlers)) => (Some(worker), Some(handlers), None),
            Err(e) => (None, None, Some(format!("cannot start the engine: {e}"))),
        };
        let mut app = App {
            worker,
            queued: Some(Vec::new()),
            _handlers: handlers,
            _on_fragment: {
                let changed = ctx.link().callback(|()| Msg::FragmentChanged);
                dom::on_fragment_change(move || changed.emit(()))
            },
            source: GET_SIGN.to_string(),
            example: None,
            printing: None,
            printed: None,
            disassembly: Rc::default(),
            highlight: None,
            wat: NodeRef::default(),
            c_pane: NodeRef::default(),
            scroll_to_mark: false,
            binary: None,
            functions: Vec::new(),
            entry: String::new(),
            fields: OptionFields::default(),
            running: false,
            run_when_inspected: false,
            runs: 0,
            heard_at: 0.0,
            ticker: ctx.link().callback(Msg::Tick),
            progress: None,
            report: None,
            ran: None,
            replays: Rc::default(),
            replaying: None,
            share: None,
            error,
        };
        app.open_link();
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Example(id) => {
                self.forget_link();
                self.example = examples::find(&id);
                if let Some(e) = self.example {
                    self.report = None;
                    self.highlight = None;
                    self.print(e.wasm.to_vec());
                }
            }
            Msg::Highlight(location) => {
                self.highlight = Some(location);
                self.scroll_to_mark = true;
            }
            Msg::Edit(text) => {
                self.source = text;
                return self.forget_link();
            }
            Msg::Inspect => self.inspect_editor(),
            Msg::InspectAndRun => {
                self.inspect_editor();
                self.run_when_inspected = true;
            }
            Msg::Entry(name) => {
                self.forget_link();
                self.entry = name;
                self.fit_args(false);
            }
            Msg::Arg(i, text) => {
                self.forget_link();
                if let Some(field) = self.fields.args.get_mut(i) {
                    *field = text;
                }
            }
            Msg::Field(id, text) => {
                self.forget_link();
                if let Some(field) = self.fields.field_mut(id) {
                    *field = text;
                }
            }
            Msg::File(file) => {
                self.forget_link();
                let loaded = ctx.link().callback(Msg::Loaded);
                wasm_bindgen_futures::spawn_local(async move {
                    loaded.emit(dom::read_file(file).await);
                });
                return false;
            }
            Msg::Loaded(Ok(bytes)) => self.loaded(bytes),
            Msg::Loaded(Err(message)) => self.error = Some(message),
            Msg::EditText => {
                self.forget_link();
                self.binary = None;
                self.inspect();
            }
            Msg::Share => self.share(),
            Msg::FragmentChanged => self.open_link(),
            Msg::Download => {
                if let Some(report) = &self.report {
                    let written = serde_json::to_string_pretty(report.as_ref())
                        .map_err(|e| e.to_string())
                        .and_then(|json| dom::download_json("symplay-report.json", &json));
                    if let Err(e) = written {
                        self.error = Some(e);
                    }
                }
            }
            Msg::Replay(id) => {
                let test = self
                    .report
                    .as_ref()
                    .and_then(|r| r.paths.iter().find(|p| p.id == id))
                    .map(|p| p.inputs.clone());
                if let (Some(test), Some((module, entry))) = (test, self.ran.clone()) {
                    self.replaying = Some(id);
                    Rc::make_mut(&mut self.replays).insert(id, Replay::Pending);
                    self.send(&Request::Replay {
                        module,
                        entry,
                        test,
                    });
                }
            }
            Msg::Run => self.run(),
            Msg::Stop => {
                self.send(&Request::Stop);
                let overdue = ctx.link().callback(Msg::StopOverdue);
                let run = self.runs;
                if let Err(e) = dom::after(STOP_GRACE_MS, move || overdue.emit(run)) {
                    self.error = Some(e);
                }
            }
            Msg::StopOverdue(run) => {
                if !self.running || run != self.runs {
                    return false;
                }
                let why = format!(
                    "the engine did not stop within {} s (it takes Stop between two steps, not inside one long solver query)",
                    STOP_GRACE_MS / 1000
                );
                self.restart_worker(ctx, &why);
            }
            Msg::Tick(run) => {
                if !self.running || run != self.runs {
                    return false;
                }
                self.tick();
                return self.silent_for().is_some();
            }
            Msg::WorkerDied(message) => {
                self.restart_worker(ctx, &format!("the engine stopped: {message}"))
            }
            Msg::Worker(response) => self.apply(response),
            Msg::WorkerFailed(message) => {
                self.running = false;
                self.error = Some(message);
            }
        }
        true
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first_render: bool) {
        if std::mem::take(&mut self.scroll_to_mark) {
            for pane in [&self.wat, &self.c_pane] {
                if let Some(pane) = pane.cast::<web_sys::Element>() {
                    dom::scroll_to_middle(&pane, ".line.marked");
                }
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let on_example = link.callback(|e: Event| {
            Msg::Example(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
        let on_edit = link.callback(|e: InputEvent| {
            Msg::Edit(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        });
        let on_entry = link.callback(|e: Event| {
            Msg::Entry(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
        let on_search = link.callback(|e: Event| {
            Msg::Field(
                "search",
                e.target_unchecked_into::<HtmlSelectElement>().value(),
            )
        });
        let field = |id: &'static str, label: &str, size: &str, value: &str| {
            let on_input = link.callback(move |e: InputEvent| {
                Msg::Field(id, e.target_unchecked_into::<HtmlInputElement>().value())
            });
            html! {
                <label>{ format!("{label} ") }
                    <input id={id} size={size.to_string()} value={value.to_string()} oninput={on_input} />
                </label>
            }
        };
        let on_file = link.batch_callback(|e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let file = input.files().and_then(|files| files.get(0));
            // Emptied, so that choosing the same file again loads it again.
            input.set_value("");
            file.map(Msg::File)
        });
        // Dropping needs `dragover` cancelled, else the browser opens the file.
        let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
        let on_drop = link.batch_callback(|e: DragEvent| {
            e.prevent_default();
            e.data_transfer()
                .and_then(|d| d.files())
                .and_then(|files| files.get(0))
                .map(Msg::File)
        });
        let f = &self.fields;
        // Ctrl+Enter (or Cmd+Enter) runs what is in the editor; Escape stops.
        let (running, busy) = (self.running, self.busy());
        let on_key = link.batch_callback(move |e: KeyboardEvent| {
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) && !busy {
                e.prevent_default();
                vec![Msg::InspectAndRun]
            } else if e.key() == "Escape" && running {
                vec![Msg::Stop]
            } else {
                Vec::new()
            }
        });
        html! {
            <main onkeydown={on_key}>
                <header><h1>{ "Symplay" }</h1><span class="tagline">{ "symbolic execution for WebAssembly" }</span></header>
                <section class="input" ondragover={on_drag_over} ondrop={on_drop}>
                    <label>{ "example " }
                        <select id="example" onchange={on_example}>
                            <option value="" selected={self.example.is_none()}>{ "(your own module)" }</option>
                            { for EXAMPLES.iter().map(|e| html! {
                                <option value={e.id} selected={self.example.is_some_and(|x| x.id == e.id)}>
                                    { format!("{}: {}", e.title, e.about) }
                                </option>
                            }) }
                        </select>
                    </label>
                    <div class="panes">
                        { self.example.map(|e| self.view_c_source(e)).unwrap_or_default() }
                        { match &self.binary {
                            Some(bytes) => html! {
                                <div id="binary-note" class="binary-note pane">
                                    { format!("binary module, {} bytes", bytes.len()) }{ " " }
                                    <button id="edit-text" onclick={link.callback(|_| Msg::EditText)}>{ "Edit text instead" }</button>
                                </div>
                            },
                            None => html! {
                                <textarea id="source" class="pane" spellcheck="false" value={self.source.clone()}
                                    placeholder="WAT text, base64 or hex of a .wasm, or drop a .wasm file here; Ctrl+Enter runs"
                                    oninput={on_edit} onblur={link.callback(|_| Msg::Inspect)} />
                            },
                        } }
                    </div>
                    <div class="controls">
                        <label>{ "entry " }
                            <select id="entry" onchange={on_entry}>
                                { for self.functions.iter().map(|f| html! {
                                    <option value={f.name.clone()} selected={f.name == self.entry}>
                                        { format!("{} {}", f.name, f.signature) }
                                    </option>
                                }) }
                            </select>
                        </label>
                        { self.view_args(ctx) }
                    </div>
                    <div class="controls options">
                        <label>{ "search " }
                            <select id="search" onchange={on_search}>
                                { for ["dfs", "bfs", "random-path", "coverage-new"].iter().map(|k| html! {
                                    <option value={*k} selected={*k == f.search}>{ *k }</option>
                                }) }
                            </select>
                        </label>
                        { field("seed", "seed", "6", &f.seed) }
                        { field("max-time", "max time (s)", "4", &f.max_time) }
                        { field("max-paths", "max paths", "6", &f.max_paths) }
                        { field("max-depth", "max depth", "6", &f.max_depth) }
                        { field("max-instructions", "max instructions", "9", &f.max_instructions) }
                        { field("max-memory", "max memory (MiB)", "5", &f.max_memory) }
                    </div>
                    <div class="controls actions">
                        <button id="run" class="primary" title="Ctrl+Enter" disabled={self.busy() || self.entry.is_empty()}
                            onclick={link.callback(|_| Msg::Run)}>{ "Run" }</button>
                        <button id="stop" title="Escape" disabled={!self.running}
                            onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                        <button id="share" onclick={link.callback(|_| Msg::Share)}>{ "Share" }</button>
                        <label class="upload">{ "upload a .wasm or .wat " }<input id="upload" type="file" accept=".wasm,.wat" onchange={on_file} /></label>
                    </div>
                    { self.view_share() }
                </section>
                { self.view_status() }
                { self.report.clone().map(|report| html! {
                    <TreeView key={self.runs} {report} disassembly={self.disassembly.clone()} on_locate={link.callback(Msg::Highlight)} />
                }).unwrap_or_default() }
                { self.report.clone().map(|report| html! {
                    <PathsTable {report} on_locate={link.callback(Msg::Highlight)} />
                }).unwrap_or_default() }
                { self.view_bugs(ctx) }
                <WatPane lines={self.disassembly.clone()} pane={self.wat.clone()}
                    marked={self.highlight.as_ref().and_then(|l| line_of(&self.disassembly, l.offset))} />
            </main>
        }
    }
}

impl App {
    /// An example's C source, numbered, with the line of the chosen
    /// location marked (from the module's line tables).
    fn view_c_source(&self, e: &Example) -> Html {
        let marked = self
            .highlight
            .as_ref()
            .and_then(|l| l.source.as_ref())
            .filter(|s| s.file == e.c_file)
            .map(|s| s.line as usize);
        html! {
            <pre id="c-source" class="pane" ref={self.c_pane.clone()}>
                { for e.c_source.lines().enumerate().map(|(i, text)| html! {
                    <div class={classes!("line", (marked == Some(i + 1)).then_some("marked"))}>
                        <span class="offset">{ i + 1 }</span>{ text }
                    </div>
                }) }
            </pre>
        }
    }

    /// A value field per parameter of the entry: empty is symbolic.
    fn view_args(&self, ctx: &Context<Self>) -> Html {
        let Some(function) = self.functions.iter().find(|f| f.name == self.entry) else {
            return Html::default();
        };
        html! {
            <span class="args">
                { for function.params.iter().enumerate().map(|(i, ty)| {
                    let on_input = ctx.link().callback(move |e: InputEvent| {
                        Msg::Arg(i, e.target_unchecked_into::<HtmlInputElement>().value())
                    });
                    let value = self.fields.args.get(i).cloned().unwrap_or_default();
                    html! {
                        <label title="a value fixes this parameter; empty leaves it symbolic">
                            { format!("arg{i} ({ty}) ") }
                            <input id={format!("arg-{i}")} class="arg" size="8" placeholder="symbolic"
                                value={value} oninput={on_input} />
                        </label>
                    }
                }) }
            </span>
        }
    }

    fn view_share(&self) -> Html {
        match &self.share {
            None => Html::default(),
            Some(Ok(link)) => html! {
                <p id="share-link" class="share">{ "share link: " }<a href={link.clone()}>{ link.clone() }</a></p>
            },
            Some(Err(message)) => {
                html! { <p id="share-error" class="error">{ message.clone() }</p> }
            }
        }
    }

    fn view_bugs(&self, ctx: &Context<Self>) -> Html {
        let Some(report) = &self.report else {
            return Html::default();
        };
        html! {
            <section class="downloads-and-bugs">
                <button id="download" onclick={ctx.link().callback(|_| Msg::Download)}>{ "Download report (JSON)" }</button>
                <BugList report={report.clone()} replays={self.replays.clone()}
                    busy={self.busy()} on_replay={ctx.link().callback(Msg::Replay)} />
            </section>
        }
    }

    /// How long a running worker has not sent progress, once that is long.
    fn silent_for(&self) -> Option<f64> {
        let silent = js_sys::Date::now() - self.heard_at;
        (self.running && silent > SILENCE_MS).then_some(silent)
    }

    fn view_status(&self) -> Html {
        let error = self
            .error
            .as_ref()
            .map(|e| html! { <p id="error" class="error">{ e.clone() }</p> });
        let progress = self.progress.as_ref().map(|p| {
            html! {
                <p id="progress">{ format!(
                    "{}{} paths, {} pending states, {} solver queries, {} instructions, {:.1} s",
                    if self.running { "running: " } else { "" },
                    p.paths, p.pending, p.queries, p.instructions, p.elapsed_ms / 1000.0
                ) }
                if let Some(ms) = self.silent_for() {
                    <span id="busy">{ format!(
                        "; no word from the engine for {:.0} s: it is inside one long step, such as a hard solver query",
                        ms / 1000.0
                    ) }</span>
                }
                </p>
            }
        });
        html! { <section class="status">{ error }{ progress }</section> }
    }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
