//! The playground page: the editor (or a binary module's size), the entry
//! picker and options, Run and Stop, live progress, and the paths found.
//! What the page shows is one state, [`PageState`]: this file draws it,
//! feeds it what the user does and what the worker answers, and carries out
//! the effects it gives (requests to the worker, which runs the engine).
//! Share links, downloads and bug replays use the library's `share`, `dom`
//! and `results` modules.

use std::rc::Rc;
use symplay_engine::memory::SizeMode;
use symplay_engine::report::{Location, Report};
use symplay_engine::search::SearchKind;
use symplay_web::disassembly::line_of;
use symplay_web::examples::{Example, EXAMPLES};
use symplay_web::page_state::{Effect, Load, PageState, Source, Wat};
use symplay_web::paths_table::PathsTable;
use symplay_web::protocol::{Envelope, Request, Response};
use symplay_web::results::BugList;
use symplay_web::tree::view::TreeView;
use symplay_web::wat_pane::WatPane;
use symplay_web::{dom, input, share};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    DragEvent, ErrorEvent, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement, MessageEvent,
};
use yew::prelude::*;

/// The script trunk generates to start the worker's wasm.
const WORKER_SCRIPT: &str = "./worker_loader.js";
/// How long the worker may take to acknowledge Stop before it is replaced:
/// it reads requests between two steps of a run, so a worker silent this
/// long is inside one long step (a hard solver query). One that
/// acknowledged is finishing its report, and is waited for.
const STOP_GRACE_MS: i32 = 1_000;
/// While a run goes on, the page checks this often that the worker speaks.
const TICK_MS: i32 = 500;
/// A worker silent for longer is inside one long step: the page says so.
const SILENCE_MS: f64 = 1_500.0;
/// Typing that pauses this long is taken as the module; a paste, a blur,
/// Run or Share take it at once.
const TYPING_PAUSE_MS: i32 = 400;
/// A module this large shows that it is loading.
const LARGE_MODULE: usize = 1_000_000;

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
    /// The editor's text changed; `at_once` for a paste or drop, which is
    /// taken as the module without waiting for typing to pause.
    Edit {
        text: String,
        at_once: bool,
    },
    /// Typing paused: the edit of this number is the last.
    TypingPaused(u32),
    /// The editor lost the focus: what it holds is the module.
    TakeEditor,
    Entry(String),
    /// An options field by its element id, and its new text.
    Field(&'static str, String),
    /// The value field of a parameter of the entry, and its new text.
    Arg(usize, String),
    /// A file was chosen or dropped.
    File(web_sys::File),
    /// The read's number, the file's name and bytes, or why they could
    /// not be read.
    FileRead(u32, String, Result<Vec<u8>, String>),
    /// Show a binary module's WAT in the editor.
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
    Worker(Envelope<Response>),
    WorkerFailed(String),
    /// The worker ended with an uncaught error.
    WorkerDied(String),
}

struct App {
    worker: Option<web_sys::Worker>,
    /// Requests waiting for the worker to be ready.
    queued: Option<Vec<String>>,
    /// Keeps the worker's handlers alive.
    _handlers: Option<WorkerHandlers>,
    _on_fragment: Option<Closure<dyn Fn()>>,
    state: PageState,
    /// Edits typed so far: a pause is for the last one only.
    edits: u32,
    /// The location marked in the WAT and C panes, and the run it is of.
    highlight: Option<(u32, Location)>,
    /// The WAT and C panes, and whether they are to scroll to their marked
    /// lines.
    wat: NodeRef,
    c_pane: NodeRef,
    scroll_to_mark: bool,
    /// When the worker last spoke (ms since the epoch).
    heard_at: f64,
    ticker: Callback<u32>,
    /// The link made by Share, or why a link could not be made or opened.
    share: Option<Result<String, String>>,
}

impl App {
    /// Carries out what the state asks for.
    fn perform(&mut self, ctx: &Context<Self>, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Send(request) => self.send(&request),
                Effect::ReplaceWorker => {
                    if let Err(e) = self.replace_worker(ctx) {
                        self.state.error = Some(format!("cannot start a new engine: {e}"));
                    }
                }
            }
        }
    }

    fn send(&mut self, request: &Envelope<Request>) {
        let Some(worker) = &self.worker else {
            // Why it is not running was said first.
            self.state
                .error
                .get_or_insert_with(|| "the engine's worker is not running".into());
            return;
        };
        match serde_json::to_string(request) {
            Ok(text) => match &mut self.queued {
                Some(queue) => queue.push(text),
                None => {
                    if let Err(e) = worker.post_message(&JsValue::from_str(&text)) {
                        self.state.error = Some(format!("cannot reach the worker: {e:?}"));
                    }
                }
            },
            Err(e) => self.state.error = Some(format!("cannot encode the request: {e}")),
        }
    }

    fn worker_ready(&mut self) {
        let (Some(worker), Some(queue)) = (&self.worker, self.queued.take()) else {
            return;
        };
        for text in queue {
            if let Err(e) = worker.post_message(&JsValue::from_str(&text)) {
                self.state.error = Some(format!("cannot reach the worker: {e:?}"));
            }
        }
    }

    /// Asks for a `Tick` of the current run in `TICK_MS`.
    fn tick(&mut self) {
        let (Some(run), ticker) = (self.state.run, self.ticker.clone()) else {
            return;
        };
        if let Err(e) = dom::after(TICK_MS, move || ticker.emit(run)) {
            self.state.error = Some(e);
        }
    }

    /// Ends the worker at once and starts a new one; requests wait for it.
    fn replace_worker(&mut self, ctx: &Context<Self>) -> Result<(), String> {
        if let Some(old) = self.worker.take() {
            // What it still has on the way must not reach freed handlers.
            old.set_onmessage(None);
            old.set_onerror(None);
            old.terminate();
        }
        self._handlers = None;
        self.queued = Some(Vec::new());
        let (worker, handlers) = start_worker(ctx)?;
        self.worker = Some(worker);
        self._handlers = Some(handlers);
        Ok(())
    }

    /// Replaces a stuck or dead worker; the state says what it lost.
    fn restart_worker(&mut self, ctx: &Context<Self>, why: &str) {
        match self.replace_worker(ctx) {
            Ok(()) => {
                let effects = self.state.worker_replaced(why);
                self.perform(ctx, effects);
            }
            Err(e) => {
                let lost = self.state.worker_lost(why);
                self.state.error = Some(format!("{lost}; cannot start a new engine: {e}"));
            }
        }
    }

    /// Makes the editor's text the module, if it changed.
    fn take_editor(&mut self, ctx: &Context<Self>) {
        let effects = self.state.take_editor();
        self.perform(ctx, effects);
    }

    fn run(&mut self, ctx: &Context<Self>) {
        let before = self.state.run;
        let effects = self.state.run();
        self.perform(ctx, effects);
        self.started_since(before);
    }

    /// A run that started since `before` (Run, or a module listed with a
    /// run waiting for it) is watched from now.
    fn started_since(&mut self, before: Option<u32>) {
        if self.state.run.is_some() && self.state.run != before {
            self.heard_at = js_sys::Date::now();
            self.tick();
        }
    }

    /// Restores the state of the share link in the address bar, if any, and
    /// runs it once its module is listed. `None` when there is none.
    fn open_link(&mut self, ctx: &Context<Self>) -> Option<()> {
        self.share = None;
        match share::decode(&dom::fragment())? {
            Err(message) => {
                self.share = Some(Err(message));
                None
            }
            Ok(shared) => {
                let effects = self.state.open_link(shared);
                self.perform(ctx, effects);
                Some(())
            }
        }
    }

    fn share(&mut self, ctx: &Context<Self>) {
        self.take_editor(ctx);
        let state = &self.state;
        let link = state.fields.parse().and_then(|options| {
            let (source, example) = match &state.source {
                Source::Text { text, .. } => (input::Source::Text(text.clone()), None),
                Source::Binary { bytes, .. } => (
                    input::Source::Binary(bytes.clone()),
                    // An unedited example goes as its binary, with its name.
                    state.example.filter(|e| e.wasm == bytes.as_slice()),
                ),
            };
            let shared = share::Shared {
                source,
                example: example.map(|e| e.id.to_string()),
                entry: state.entry_to_run().unwrap_or_default().to_string(),
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
            self.state.error = Some(e);
        }
        true
    }

    fn answer(&mut self, ctx: &Context<Self>, answer: Envelope<Response>) {
        self.heard_at = js_sys::Date::now();
        if answer.body == Response::Ready {
            self.worker_ready();
            return;
        }
        let before = self.state.run;
        let effects = self.state.answer(answer);
        self.perform(ctx, effects);
        self.started_since(before);
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
            .and_then(|text| serde_json::from_str::<Envelope<Response>>(&text).ok());
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
        let mut state = PageState::default();
        let (worker, handlers) = match start_worker(ctx) {
            Ok((worker, handlers)) => (Some(worker), Some(handlers)),
            Err(e) => {
                state.error = Some(format!("cannot start the engine: {e}"));
                (None, None)
            }
        };
        let mut app = App {
            worker,
            queued: Some(Vec::new()),
            _handlers: handlers,
            _on_fragment: {
                let changed = ctx.link().callback(|()| Msg::FragmentChanged);
                dom::on_fragment_change(move || changed.emit(()))
            },
            state,
            edits: 0,
            highlight: None,
            wat: NodeRef::default(),
            c_pane: NodeRef::default(),
            scroll_to_mark: false,
            heard_at: 0.0,
            ticker: ctx.link().callback(Msg::Tick),
            share: None,
        };
        if app.open_link(ctx).is_none() {
            app.state.type_text(GET_SIGN.to_string());
            app.take_editor(ctx);
        }
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Example(id) => {
                self.forget_link();
                let effects = self.state.choose_example(&id);
                self.perform(ctx, effects);
            }
            Msg::Highlight(location) => {
                let Some(results) = &self.state.results else {
                    return false;
                };
                self.highlight = Some((results.run, location));
                self.scroll_to_mark = true;
            }
            Msg::Edit { text, at_once } => {
                let could_run = self.state.can_run();
                self.state.type_text(text);
                self.edits += 1;
                let forgot = self.forget_link();
                if at_once {
                    self.take_editor(ctx);
                    return true;
                }
                let (paused, edit) = (ctx.link().callback(Msg::TypingPaused), self.edits);
                if let Err(e) = dom::after(TYPING_PAUSE_MS, move || paused.emit(edit)) {
                    self.state.error = Some(e);
                }
                // Typing is drawn by the editor itself; the page only when
                // Run or the link changes.
                return forgot || could_run != self.state.can_run();
            }
            Msg::TypingPaused(edit) => {
                if edit != self.edits {
                    return false;
                }
                self.take_editor(ctx);
            }
            Msg::TakeEditor => self.take_editor(ctx),
            Msg::Entry(name) => {
                self.forget_link();
                self.state.choose_entry(name);
            }
            Msg::Arg(i, text) => {
                self.forget_link();
                if let Some(field) = self.state.fields.args.get_mut(i) {
                    *field = text;
                }
            }
            Msg::Field(id, text) => {
                self.forget_link();
                if let Some(field) = self.state.fields.field_mut(id) {
                    *field = text;
                }
            }
            Msg::File(file) => {
                self.forget_link();
                let name = file.name();
                let (read, effects) = self.state.reading_file(&name, file.size());
                self.perform(ctx, effects);
                let read = ctx
                    .link()
                    .callback(move |bytes| Msg::FileRead(read, name.clone(), bytes));
                wasm_bindgen_futures::spawn_local(async move {
                    read.emit(dom::read_file(file).await);
                });
            }
            Msg::FileRead(read, name, Ok(bytes)) => {
                let effects = self.state.file_read(read, name, bytes);
                self.perform(ctx, effects);
            }
            Msg::FileRead(read, _, Err(message)) => {
                let effects = self.state.file_failed(read, message);
                self.perform(ctx, effects);
            }
            Msg::EditText => {
                let effects = self.state.edit_as_text();
                self.perform(ctx, effects);
            }
            Msg::Share => self.share(ctx),
            Msg::FragmentChanged => {
                self.open_link(ctx);
            }
            Msg::Download => {
                let report = self.state.results.as_ref().and_then(|r| r.report.clone());
                if let Some(report) = report {
                    let written = serde_json::to_string_pretty(report.as_ref())
                        .map_err(|e| e.to_string())
                        .and_then(|json| dom::download_json("symplay-report.json", &json));
                    if let Err(e) = written {
                        self.state.error = Some(e);
                    }
                }
            }
            Msg::Replay(id) => {
                let effects = self.state.replay(id);
                self.perform(ctx, effects);
            }
            Msg::Run => self.run(ctx),
            Msg::Stop => {
                let effects = self.state.stop();
                self.perform(ctx, effects);
                if let Some(run) = self.state.run {
                    let overdue = ctx.link().callback(Msg::StopOverdue);
                    if let Err(e) = dom::after(STOP_GRACE_MS, move || overdue.emit(run)) {
                        self.state.error = Some(e);
                    }
                }
            }
            Msg::StopOverdue(run) => {
                if self.state.run != Some(run) || self.state.stopping {
                    return false;
                }
                let why = format!(
                    "the engine did not stop within {} s (it takes Stop between two steps, not inside one long solver query)",
                    STOP_GRACE_MS / 1000
                );
                self.restart_worker(ctx, &why);
            }
            Msg::Tick(run) => {
                if self.state.run != Some(run) {
                    return false;
                }
                self.tick();
                return self.silent_for().is_some();
            }
            Msg::WorkerDied(message) => {
                self.restart_worker(ctx, &format!("the engine stopped: {message}"))
            }
            Msg::Worker(answer) => self.answer(ctx, answer),
            Msg::WorkerFailed(message) => self.restart_worker(ctx, &message),
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
        let state = &self.state;
        let on_example = link.callback(|e: Event| {
            Msg::Example(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
        let on_edit = link.callback(|e: InputEvent| {
            // A paste or drop is a module coming in, not typing.
            let at_once = matches!(
                e.input_type().as_str(),
                "insertFromPaste" | "insertFromDrop"
            );
            Msg::Edit {
                text: e.target_unchecked_into::<HtmlTextAreaElement>().value(),
                at_once,
            }
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
        let f = &state.fields;
        // Ctrl+Enter (or Cmd+Enter) runs what is in the editor; Escape stops.
        let (running, can_run) = (state.run.is_some(), state.can_run());
        let on_key = link.batch_callback(move |e: KeyboardEvent| {
            // Whether a run can start is for the state to say then: the
            // editor may hold text typed since the page was drawn.
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                vec![Msg::Run]
            } else if e.key() == "Escape" && running {
                vec![Msg::Stop]
            } else {
                Vec::new()
            }
        });
        let report = state.results.as_ref().and_then(|r| r.report.clone());
        html! {
            <main onkeydown={on_key}>
                <header><h1>{ "Symplay" }</h1><span class="tagline">{ "symbolic execution for WebAssembly" }</span></header>
                <section class="input" ondragover={on_drag_over} ondrop={on_drop}>
                    <label>{ "example " }
                        <select id="example" onchange={on_example}>
                            <option value="" selected={state.example.is_none()}>{ "(your own module)" }</option>
                            { for EXAMPLES.iter().map(|e| html! {
                                <option value={e.id} selected={state.example.is_some_and(|x| x.id == e.id)}>
                                    { format!("{}: {}", e.title, e.about) }
                                </option>
                            }) }
                        </select>
                    </label>
                    <div class="panes">
                        { state.example.map(|e| self.view_c_source(e)).unwrap_or_default() }
                        { self.view_editor(ctx, on_edit) }
                    </div>
                    <div class="controls">
                        { self.view_entry(on_entry) }
                        { self.view_args(ctx) }
                    </div>
                    <div class="controls options">
                        <label>{ "search " }
                            <select id="search" onchange={on_search}>
                                { for SearchKind::ALL.iter().map(|k| html! {
                                    <option value={k.name()} selected={k.name() == f.search}>{ k.name() }</option>
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
                    { self.view_heap_options(ctx) }
                    <div class="controls actions">
                        <button id="run" class="primary" title="Ctrl+Enter" disabled={!can_run}
                            onclick={link.callback(|_| Msg::Run)}>{ "Run" }</button>
                        <button id="stop" title="Escape" disabled={!running}
                            onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                        <button id="share" onclick={link.callback(|_| Msg::Share)}>{ "Share" }</button>
                        <label class="upload">{ "upload a .wasm, .wat or base64 .txt " }<input id="upload" type="file" accept=".wasm,.wat,.txt" onchange={on_file} /></label>
                    </div>
                    { self.view_share() }
                </section>
                { self.view_status() }
                { report.clone().zip(state.results.as_ref()).map(|(report, results)| html! {
                    <TreeView key={results.run} {report} disassembly={state.disassembly.clone()} on_locate={link.callback(Msg::Highlight)} />
                }).unwrap_or_default() }
                { report.clone().map(|report| html! {
                    <PathsTable {report} on_locate={link.callback(Msg::Highlight)} />
                }).unwrap_or_default() }
                { self.view_bugs(ctx, report) }
                <WatPane lines={state.disassembly.clone()} pane={self.wat.clone()}
                    marked={self.highlight().and_then(|l| line_of(&state.disassembly, l.offset))} />
            </main>
        }
    }
}

impl App {
    /// An example's C source, numbered, with the line of the chosen
    /// location marked (from the module's line tables).
    /// The heap model: memory objects or the module's allocator, the size
    /// mode and capacity of symbolic sizes, failing allocations, leaks.
    fn view_heap_options(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let f = &self.state.fields;
        let select = |id: &'static str| {
            link.callback(move |e: Event| {
                Msg::Field(id, e.target_unchecked_into::<HtmlSelectElement>().value())
            })
        };
        let check = |id: &'static str| {
            link.callback(move |e: Event| {
                let checked = e.target_unchecked_into::<HtmlInputElement>().checked();
                Msg::Field(id, checked.to_string())
            })
        };
        let on_capacity = link.callback(|e: InputEvent| {
            Msg::Field(
                "capacity",
                e.target_unchecked_into::<HtmlInputElement>().value(),
            )
        });
        let objects = f.heap_model != "module";
        html! {
            <div class="controls options heap">
                <label>{ "heap " }
                    <select id="heap-model" onchange={select("heap-model")}>
                        <option value="objects" selected={objects}>{ "memory objects (checked)" }</option>
                        <option value="module" selected={!objects}>{ "the module's allocator" }</option>
                    </select>
                </label>
                <label title="how an allocation of symbolic size is made">{ "symbolic sizes " }
                    <select id="size-mode" disabled={!objects} onchange={select("size-mode")}>
                        { for SizeMode::ALL.iter().map(|m| html! {
                            <option value={m.name()} selected={m.name() == f.size_mode}>{ m.name() }</option>
                        }) }
                    </select>
                </label>
                <label title="bytes reserved for an allocation of symbolic size">{ "capacity " }
                    <input id="capacity" size="5" disabled={!objects} value={f.capacity.clone()} oninput={on_capacity} />
                </label>
                <label><input id="malloc-may-fail" type="checkbox" disabled={!objects}
                    checked={f.malloc_may_fail == "true"} onchange={check("malloc-may-fail")} />{ " malloc may fail" }</label>
                <label><input id="leaks" type="checkbox" disabled={!objects}
                    checked={f.leaks == "true"} onchange={check("leaks")} />{ " report leaks" }</label>
            </div>
        }
    }

    fn view_c_source(&self, e: &Example) -> Html {
        let marked = self
            .highlight()
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

    /// The editor with the module's text, or a binary module's size.
    fn view_editor(&self, ctx: &Context<Self>, on_edit: Callback<InputEvent>) -> Html {
        let link = ctx.link();
        match &self.state.source {
            Source::Binary {
                bytes,
                name,
                wat: Wat::Hidden,
            } => html! {
                <div id="binary-note" class="binary-note pane">
                    { format!("binary module, {} bytes ({name})", bytes.len()) }{ " " }
                    <button id="edit-text" onclick={link.callback(|_| Msg::EditText)}>{ "Edit text instead" }</button>
                </div>
            },
            Source::Binary {
                wat: Wat::Printing(_),
                ..
            } => html! {
                <textarea id="source" class="pane" disabled=true value="" placeholder="printing the module as WAT..." />
            },
            _ => html! {
                <textarea id="source" class="pane" spellcheck="false" value={self.state.editor.clone()}
                    placeholder="WAT text, base64 or hex of a .wasm, or drop a .wasm file here; Ctrl+Enter runs"
                    oninput={on_edit} onblur={link.callback(|_| Msg::TakeEditor)} />
            },
        }
    }

    /// The entry picker: the module's functions once listed, nothing
    /// chosen when only runtime helpers are exported.
    fn view_entry(&self, on_entry: Callback<Event>) -> Html {
        let state = &self.state;
        let options = match &state.load {
            Load::Reading(_) | Load::Loading(_) => {
                html! { <option value="">{ "loading..." }</option> }
            }
            Load::Failed(_) => Html::default(),
            Load::Ready => html! {
                <>
                    if state.entry.is_none() && !state.functions.is_empty() {
                        <option value="" selected=true disabled=true>{ "choose a function" }</option>
                    }
                    { for state.functions.iter().map(|f| html! {
                        <option value={f.name.clone()} selected={Some(&f.name) == state.entry.as_ref()}>
                            { format!("{} {}", f.name, f.signature) }
                        </option>
                    }) }
                </>
            },
        };
        let disabled = state.load != Load::Ready || state.functions.is_empty();
        html! {
            <label>{ "entry " }
                <select id="entry" onchange={on_entry} {disabled}>{ options }</select>
            </label>
        }
    }

    /// A value field per parameter of the entry: empty is symbolic.
    fn view_args(&self, ctx: &Context<Self>) -> Html {
        let state = &self.state;
        let Some(function) = state
            .functions
            .iter()
            .find(|f| Some(&f.name) == state.entry.as_ref())
        else {
            return Html::default();
        };
        html! {
            <span class="args">
                { for function.params.iter().enumerate().map(|(i, ty)| {
                    let on_input = ctx.link().callback(move |e: InputEvent| {
                        Msg::Arg(i, e.target_unchecked_into::<HtmlInputElement>().value())
                    });
                    let value = state.fields.args.get(i).cloned().unwrap_or_default();
                    // The engine's values are integers: a float parameter is zero.
                    let float = ty.starts_with('f');
                    let (placeholder, title) = if float {
                        ("0: floats are not symbolic", "float parameters are zero, and the report says so")
                    } else {
                        ("symbolic", "a value fixes this parameter; empty leaves it symbolic")
                    };
                    html! {
                        <label {title}>
                            { format!("arg{i} ({ty}) ") }
                            <input id={format!("arg-{i}")} class="arg" size={if float { "22" } else { "8" }}
                                {placeholder} disabled={float} value={value} oninput={on_input} />
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

    fn view_bugs(&self, ctx: &Context<Self>, report: Option<Rc<Report>>) -> Html {
        let (Some(report), Some(results)) = (report, &self.state.results) else {
            return Html::default();
        };
        html! {
            <section class="downloads-and-bugs">
                <button id="download" onclick={ctx.link().callback(|_| Msg::Download)}>{ "Download report (JSON)" }</button>
                <BugList {report} replays={results.replays.clone()}
                    busy={self.state.busy()} on_replay={ctx.link().callback(Msg::Replay)} />
            </section>
        }
    }

    /// The location marked, if it is of the results shown.
    fn highlight(&self) -> Option<&Location> {
        let (run, location) = self.highlight.as_ref()?;
        (self.state.results.as_ref()?.run == *run).then_some(location)
    }

    /// How long a running worker has not spoken, once that is long.
    fn silent_for(&self) -> Option<f64> {
        let silent = js_sys::Date::now() - self.heard_at;
        (self.state.run.is_some() && silent > SILENCE_MS).then_some(silent)
    }

    fn view_status(&self) -> Html {
        let state = &self.state;
        let loading = match &state.load {
            Load::Reading(what) => Some(what),
            Load::Loading(what) if state.source.bytes().len() >= LARGE_MODULE => Some(what),
            _ => None,
        }
        .map(|what| html! { <p id="loading">{ format!("loading {what}...") }</p> });
        let error = match &state.load {
            Load::Failed(why) => Some(why),
            _ => state.error.as_ref(),
        }
        .map(|e| html! { <p id="error" class="error">{ e.clone() }</p> });
        let notice = state
            .no_entry
            .as_ref()
            .map(|n| html! { <p id="notice" class="notice">{ n.clone() }</p> });
        let progress = state
            .results
            .as_ref()
            .and_then(|r| r.progress.as_ref())
            .map(|p| {
                html! {
                    <p id="progress">{ format!(
                        "{}{} paths, {} pending states, {} solver queries, {} instructions, {:.1} s",
                        if state.run.is_some() { "running: " } else { "" },
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
        html! { <section class="status">{ loading }{ error }{ notice }{ progress }</section> }
    }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
