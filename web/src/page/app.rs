//! The playground page: the editor (or a binary module's size), the entry
//! picker and options, Run and Stop, live progress, and the paths found.
//! What the page shows is one state, [`PageState`]: this file draws it,
//! feeds it what the user does and what the worker answers, and carries out
//! the effects it gives (requests to the worker, which runs the engine).
//! Share links, downloads and bug replays use the library's `share`, `dom`
//! and `results` modules.

use super::components::bug_list::BugList;
use super::components::code_editor::CodeEditor;
use super::components::code_pane::{CodePane, Listing};
use super::components::comparison_view::ComparisonView;
use super::components::paths_table::PathsTable;
use super::components::step_view::StepView;
use super::components::tree::view::TreeView;
use super::components::wat_pane::WatPane;
use super::dom::{self, History};
use super::input::{OptionFields, BUFFER, LENGTH_OF, VALUE};
use super::state::{Effect, Load, PageState, Side, Source, Wat};
use crate::disassembly::line_of;
use crate::examples::{Example, EXAMPLES};
use crate::protocol::{Envelope, Request, Response};
use crate::share;
use std::rc::Rc;
use symplay_engine::memory::SizeMode;
use symplay_engine::report::step::StepBy;
use symplay_engine::report::Report;
use symplay_engine::search::SearchKind;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, ErrorEvent, HtmlInputElement, HtmlSelectElement, MessageEvent};
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
/// Changes that pause this long are saved in the browser.
const SAVE_PAUSE_MS: i32 = 500;
/// A module this large shows that it is loading.
const LARGE_MODULE: usize = 1_000_000;

pub enum Msg {
    Example(String),
    /// Select a node of a side's tree (`None` lets go).
    SelectNode(Side, Option<usize>),
    /// Select the leaf of a side's path (a row of the table).
    SelectPath(Side, usize),
    /// The editor's text changed; `at_once` for a paste or drop, which is
    /// taken as the module without waiting for typing to pause.
    Edit {
        text: String,
        at_once: bool,
    },
    /// The code editor could not start: why.
    EditorFailed(String),
    /// Typing paused: the edit of this number is the last.
    TypingPaused(u32),
    /// The editor lost the focus: what it holds is the module.
    TakeEditor,
    Entry(String),
    /// An options field by its element id, and its new text.
    Field(String, String),
    /// The value field of a parameter of the entry, and its new text.
    Arg(usize, String),
    /// What a parameter is: a value, a buffer, a buffer's length.
    ArgKind(usize, String),
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
    /// The share link was copied to the clipboard, or why not.
    Copied(Result<(), String>),
    /// Save the work in the browser: after the change of this number, if
    /// no other came since; `None` now (the page is being left).
    Save(Option<u32>),
    /// Save a side's report as JSON.
    Download(Side),
    Replay(Side, usize),
    Run,
    /// A run in step mode starts.
    StartStepping,
    /// Step mode: the next step.
    Step(StepBy),
    StepBack,
    /// Step mode off: the run goes on to its end.
    Resume,
    /// Compare mode on (B offered as A with the other size mode) and both
    /// configurations run.
    Compare,
    CloseCompare,
    /// Show this side's paths and bugs below the comparison.
    Details(Side),
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

pub struct App {
    worker: Option<web_sys::Worker>,
    /// Requests waiting for the worker to be ready.
    queued: Option<Vec<String>>,
    /// Keeps the worker's handlers alive.
    _handlers: Option<WorkerHandlers>,
    _on_fragment: Option<Closure<dyn Fn()>>,
    /// Escape stops a run, wherever the focus is.
    _on_escape: Option<Closure<dyn Fn(web_sys::KeyboardEvent)>>,
    _on_hide: Option<Closure<dyn Fn()>>,
    state: PageState,
    /// The WAT and C panes, scrolled to their marked lines.
    wat: NodeRef,
    c_pane: NodeRef,
    /// When the worker last spoke (ms since the epoch).
    heard_at: f64,
    ticker: Callback<u32>,
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

    fn share(&mut self, ctx: &Context<Self>) {
        self.take_editor(ctx);
        let link = self
            .state
            .snapshot()
            .and_then(|shared| dom::set_fragment(&share::encode(&shared)?, History::Replace));
        self.state.saving.copied = None;
        if let Ok(link) = &link {
            self.state.saving.address_link = true;
            let (link, copied) = (link.clone(), ctx.link().callback(Msg::Copied));
            wasm_bindgen_futures::spawn_local(async move { copied.emit(dom::copy(&link).await) });
        }
        self.state.share = Some(link);
    }

    /// The user changed the state: it is saved soon, and a share link in
    /// the address bar, or the message about one, no longer describes the
    /// page. Returns whether anything was cleared.
    fn forget_link(&mut self, ctx: &Context<Self>) -> bool {
        let change = self.state.changed_by_user();
        let save = ctx.link().callback(Msg::Save);
        if let Err(e) = dom::after(SAVE_PAUSE_MS, move || save.emit(Some(change))) {
            self.state.error = Some(e);
        }
        let in_address = share::is_link(&dom::fragment());
        self.state.saving.address_link = false;
        if self.state.share.take().is_none() && !in_address {
            return false;
        }
        if in_address {
            // The link's state stays in the history: Back returns to it.
            if let Err(e) = dom::set_fragment("", History::Push) {
                self.state.error = Some(e);
            }
        }
        true
    }

    /// Saves the work after change `change` (`None`: now), if it is due.
    fn save(&mut self, change: Option<u32>) {
        if let Some(work) = self.state.work_to_save(change) {
            let saved = share::to_json(&work).and_then(|json| dom::save_work(&json));
            self.state.saved(saved);
        }
    }

    /// The work saved in this browser, if any; work that cannot be read
    /// is said so, where a failed save is.
    fn saved_work(&mut self) -> Option<share::Shared> {
        let json = dom::saved_work()?;
        share::from_json(json.as_bytes())
            .map_err(|e| self.state.saved_work_unreadable(e.to_string()))
            .ok()
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
            _on_escape: {
                let stop = ctx.link().callback(|()| Msg::Stop);
                dom::on_escape(move || stop.emit(()))
            },
            _on_hide: {
                let save = ctx.link().callback(|()| Msg::Save(None));
                dom::on_page_hide(move || save.emit(()))
            },
            state,
            wat: NodeRef::default(),
            c_pane: NodeRef::default(),
            heard_at: 0.0,
            ticker: ctx.link().callback(Msg::Tick),
        };
        let fragment = dom::fragment();
        app.state.saving.address_link = share::is_link(&fragment);
        let saved = app.saved_work();
        let effects = app.state.start(&fragment, saved);
        app.perform(ctx, effects);
        app
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Example(id) => {
                self.forget_link(ctx);
                let effects = self.state.choose_example(&id);
                self.perform(ctx, effects);
            }
            Msg::SelectNode(side, node) => self.state.select_node(side, node),
            Msg::SelectPath(side, id) => self.state.select_path(side, id),
            Msg::Edit { text, at_once } => {
                let could_run = self.state.can_run();
                let edit = self.state.type_text(text);
                let forgot = self.forget_link(ctx);
                if at_once {
                    self.take_editor(ctx);
                    return true;
                }
                let paused = ctx.link().callback(Msg::TypingPaused);
                if let Err(e) = dom::after(TYPING_PAUSE_MS, move || paused.emit(edit)) {
                    self.state.error = Some(e);
                }
                // Typing is drawn by the editor itself; the page only when
                // Run or the link changes.
                return forgot || could_run != self.state.can_run();
            }
            Msg::TypingPaused(edit) => {
                let effects = self.state.typing_paused(edit);
                self.perform(ctx, effects);
            }
            Msg::TakeEditor => self.take_editor(ctx),
            Msg::EditorFailed(why) => self.state.error = Some(why),
            Msg::Entry(name) => {
                self.forget_link(ctx);
                self.state.choose_entry(name);
            }
            Msg::Arg(i, text) => {
                self.forget_link(ctx);
                if let Some(field) = self.state.fields.args.get_mut(i) {
                    *field = text;
                }
            }
            Msg::ArgKind(i, kind) => {
                self.forget_link(ctx);
                self.state.fields.set_arg_kind(i, kind);
            }
            Msg::Field(id, text) => {
                self.forget_link(ctx);
                if let Some(field) = self.state.field_mut(&id) {
                    *field = text;
                }
            }
            Msg::File(file) => {
                self.forget_link(ctx);
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
                self.state.saving.copied = None;
                // The work changed just before is saved before the page
                // shows another state.
                self.save(None);
                let fragment = dom::fragment();
                let effects = if share::is_link(&fragment) {
                    self.state.saving.address_link = true;
                    self.state.open_fragment(&fragment)
                } else if std::mem::take(&mut self.state.saving.address_link) {
                    // Back from a link: the user's own work again.
                    match self.saved_work() {
                        Some(saved) => self.state.restore(saved),
                        None => Vec::new(),
                    }
                } else {
                    Vec::new()
                };
                self.perform(ctx, effects);
            }
            Msg::Save(change) => {
                let before = self.state.saving.not_saved.clone();
                self.save(change);
                return before != self.state.saving.not_saved;
            }
            Msg::Copied(copied) => self.state.saving.copied = Some(copied),
            Msg::Download(side) => {
                let report = self.state.results(side).and_then(|r| r.report.clone());
                if let Some(report) = report {
                    let name = match (side, &self.state.compare) {
                        (Side::B, Some(_)) => "symplay-report-b.json",
                        (Side::A, Some(_)) => "symplay-report-a.json",
                        _ => "symplay-report.json",
                    };
                    let written = serde_json::to_string_pretty(report.as_ref())
                        .map_err(|e| e.to_string())
                        .and_then(|json| dom::download_json(name, &json));
                    if let Err(e) = written {
                        self.state.error = Some(e);
                    }
                }
            }
            Msg::Replay(side, id) => {
                let effects = self.state.replay(side, id);
                self.perform(ctx, effects);
            }
            Msg::Run => self.run(ctx),
            Msg::StartStepping => {
                let before = self.state.run;
                let effects = self.state.start_stepping();
                self.perform(ctx, effects);
                self.started_since(before);
            }
            Msg::Step(by) => {
                let effects = self.state.step(by);
                // The worker is asked for something now: its silence counts
                // from here, not from the last step.
                if !effects.is_empty() {
                    self.heard_at = js_sys::Date::now();
                }
                self.perform(ctx, effects);
            }
            Msg::StepBack => self.state.step_back(),
            Msg::Resume => {
                let effects = self.state.resume();
                self.perform(ctx, effects);
                self.heard_at = js_sys::Date::now();
            }
            Msg::Compare => {
                self.forget_link(ctx);
                let before = self.state.run;
                let effects = self.state.compare();
                self.perform(ctx, effects);
                self.started_since(before);
            }
            Msg::CloseCompare => {
                self.forget_link(ctx);
                self.state.close_compare();
            }
            Msg::Details(side) => self.state.show_details(side),
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
        let scroll = self.state.take_scroll();
        if scroll.results {
            dom::scroll_to_top_of("outputs");
        }
        if scroll.step_pane {
            dom::scroll_to_top_of("step");
        }
        if scroll.marks {
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
        let on_entry = link.callback(|e: Event| {
            Msg::Entry(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
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
        // Ctrl+Enter (or Cmd+Enter) runs what is in the editor (Escape,
        // which stops, is heard on the whole window).
        let (running, can_run) = (state.run.is_some(), state.can_run());
        let on_key = link.batch_callback(move |e: KeyboardEvent| {
            // Whether a run can start is for the state to say then: the
            // editor may hold text typed since the page was drawn.
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                vec![Msg::Run]
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
                            <option value="" selected={state.example.is_none()}>{ "(your own module)" }</option>
                            { for EXAMPLES.iter().enumerate().map(|(i, e)| html! {
                                <option value={e.id} selected={state.example.is_some_and(|x| x.id == e.id)}>
                                    { format!("{}. {}", i + 1, e.title) }
                                </option>
                            }) }
                        </select>
                    </label>
                    if let Some(e) = state.example {
                        <p id="lesson" class="lesson">{ e.lesson }</p>
                    }
                    <div class="panes">
                        { state.example.map(|e| self.view_c_source(e)).unwrap_or_default() }
                        { self.view_editor(ctx) }
                    </div>
                    <div class="controls">
                        { self.view_entry(on_entry) }
                        { self.view_args(ctx) }
                    </div>
                    { self.view_configurations(ctx) }
                    <div class="controls actions">
                        <button id="run" class="primary" title="Ctrl+Enter" disabled={!can_run}
                            onclick={link.callback(|_| Msg::Run)}>{ "Run" }</button>
                        <button id="stop" title="Escape" disabled={!running}
                            onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                        if state.compare.is_none() {
                            <button id="step-start" disabled={!can_run}
                                title="explore one branch at a time, with the state (locals, operand stack, path condition, memory) at each step"
                                onclick={link.callback(|_| Msg::StartStepping)}>{ "Step" }</button>
                        }
                        if state.compare.is_none() {
                            <button id="compare" disabled={!can_run}
                                title="run these options and a second configuration (the other size mode at first) side by side"
                                onclick={link.callback(|_| Msg::Compare)}>{ "Compare" }</button>
                        } else {
                            <button id="close-compare" disabled={state.busy()}
                                title="back to single runs"
                                onclick={link.callback(|_| Msg::CloseCompare)}>{ "Single run" }</button>
                        }
                        <button id="share" onclick={link.callback(|_| Msg::Share)}>{ "Share" }</button>
                        <label class="upload">{ "upload a .wasm, .wat or base64 .txt " }<input id="upload" type="file" accept=".wasm,.wat,.txt" onchange={on_file} /></label>
                    </div>
                    { self.view_share() }
                    if let Some(why) = &self.state.saving.not_saved {
                        <p id="not-saved" class="notice">{ why }</p>
                    }
                </section>
                // Beside the input on a wide screen, below it on a narrow one.
                <div id="outputs" class="outputs">
                    { self.view_status() }
                    { if state.compare.is_some() { self.view_comparison(ctx) } else { self.view_results(ctx, Side::A) } }
                    <WatPane lines={state.disassembly.clone()} pane={self.wat.clone()}
                        marked={state.highlight().and_then(|l| line_of(&state.disassembly, l.offset))} />
                </div>
            </main>
        }
    }
}

impl App {
    /// The options form, or in compare mode the forms of A and B.
    fn view_configurations(&self, ctx: &Context<Self>) -> Html {
        let state = &self.state;
        match &state.compare {
            None => self.view_options(ctx, &state.fields, ""),
            Some(compare) => html! {
                <div class="configurations">
                    <fieldset id="config-a" class="configuration">
                        <legend>{ "A" }</legend>
                        { self.view_options(ctx, &state.fields, Side::A.prefix()) }
                    </fieldset>
                    <fieldset id="config-b" class="configuration">
                        <legend>{ "B (the parameter values are A's)" }</legend>
                        { self.view_options(ctx, &compare.fields, Side::B.prefix()) }
                    </fieldset>
                </div>
            },
        }
    }

    /// The searcher, seed, limits and heap model of one configuration; its
    /// fields' ids start with `prefix`.
    fn view_options(&self, ctx: &Context<Self>, f: &OptionFields, prefix: &'static str) -> Html {
        let link = ctx.link();
        let id = |name: &str| format!("{prefix}{name}");
        let select = |name: &'static str| {
            let id = id(name);
            link.callback(move |e: Event| {
                Msg::Field(
                    id.clone(),
                    e.target_unchecked_into::<HtmlSelectElement>().value(),
                )
            })
        };
        let check = |name: &'static str| {
            let id = id(name);
            link.callback(move |e: Event| {
                let checked = e.target_unchecked_into::<HtmlInputElement>().checked();
                Msg::Field(id.clone(), checked.to_string())
            })
        };
        let objects = f.heap_model != "module";
        let field = |name: &'static str, label: &str, size: &str, value: &str| {
            let id = id(name);
            let on_input = {
                let id = id.clone();
                link.callback(move |e: InputEvent| {
                    Msg::Field(
                        id.clone(),
                        e.target_unchecked_into::<HtmlInputElement>().value(),
                    )
                })
            };
            // Only the heap's fields depend on the heap model.
            let disabled = name == "capacity" && !objects;
            html! {
                <label>{ format!("{label} ") }
                    <input id={id} size={size.to_string()} value={value.to_string()} {disabled} oninput={on_input} />
                </label>
            }
        };
        html! {
            <>
            <div class="controls options">
                <label>{ "search " }
                    <select id={id("search")} onchange={select("search")}>
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
            <div class="controls options heap">
                <label>{ "heap " }
                    <select id={id("heap-model")} onchange={select("heap-model")}>
                        <option value="objects" selected={objects}>{ "memory objects (checked)" }</option>
                        <option value="module" selected={!objects}>{ "the module's allocator" }</option>
                    </select>
                </label>
                <label title="how an allocation of symbolic size is made">{ "symbolic sizes " }
                    <select id={id("size-mode")} disabled={!objects} onchange={select("size-mode")}>
                        { for SizeMode::ALL.iter().map(|m| html! {
                            <option value={m.name()} selected={m.name() == f.size_mode}>{ m.name() }</option>
                        }) }
                    </select>
                </label>
                { field("capacity", "capacity (bytes for a symbolic size)", "5", &f.capacity) }
                <label><input id={id("malloc-may-fail")} type="checkbox" disabled={!objects}
                    checked={f.malloc_may_fail == "true"} onchange={check("malloc-may-fail")} />{ " malloc may fail" }</label>
                <label><input id={id("leaks")} type="checkbox" disabled={!objects}
                    checked={f.leaks == "true"} onchange={check("leaks")} />{ " report leaks" }</label>
            </div>
            </>
        }
    }

    /// A side's step pane in step mode, tree, paths and bugs.
    fn view_results(&self, ctx: &Context<Self>, side: Side) -> Html {
        let Some(results) = self.state.results(side) else {
            return Html::default();
        };
        let running = self.state.run == Some(results.run);
        let ended = results
            .report
            .as_ref()
            .filter(|r| !running && r.stop_reason != "running")
            .map(|r| (r.stop_reason.clone(), r.stats.pending_states));
        let steps = results.steps.clone().map(|steps| {
            let link = ctx.link();
            html! {
                <StepView {steps} running={running} {ended}
                    disassembly={self.state.disassembly.clone()}
                    on_step={link.callback(Msg::Step)} on_back={link.callback(|()| Msg::StepBack)}
                    on_resume={link.callback(|()| Msg::Resume)} />
            }
        });
        let Some(report) = results.report_shown() else {
            return steps.unwrap_or_default();
        };
        html! {
            <>
                { steps }
                { self.view_tree(ctx, side) }
                { self.view_details(ctx, side, report) }
            </>
        }
    }

    /// A side's execution tree, once it has a report.
    fn view_tree(&self, ctx: &Context<Self>, side: Side) -> Html {
        let Some((results, report)) = self
            .state
            .results(side)
            .and_then(|r| Some((r, r.report_shown()?)))
        else {
            return Html::default();
        };
        // Step mode: the node of the state that runs next, while the tree
        // drawn is that of the step shown.
        let current = results
            .steps
            .as_ref()
            .filter(|s| !s.at_last() || (self.state.run == Some(results.run) && !s.resumed))
            .and_then(|s| Some(s.current()?.step.next.as_ref()?.node));
        html! {
            <TreeView key={results.run} {report} disassembly={self.state.disassembly.clone()}
                prefix={side.prefix()} selected={self.state.selected_node(side)} {current}
                on_select={ctx.link().callback(move |node| Msg::SelectNode(side, node))} />
        }
    }

    /// A side's table of paths and its bugs (one side at a time, so that
    /// their element ids stay the page's only ones).
    fn view_details(&self, ctx: &Context<Self>, side: Side, report: Rc<Report>) -> Html {
        let link = ctx.link();
        let Some(results) = self.state.results(side) else {
            return Html::default();
        };
        html! {
            <>
                <PathsTable report={report.clone()} selected={self.state.selected_path(side)}
                    on_select={link.callback(move |id| Msg::SelectPath(side, id))} />
                <section class="downloads-and-bugs">
                    <button id="download" onclick={link.callback(move |_| Msg::Download(side))}>{ "Download report (JSON)" }</button>
                    <BugList {report} replays={results.replays.clone()}
                        busy={self.state.busy()} on_replay={link.callback(move |id| Msg::Replay(side, id))} />
                </section>
            </>
        }
    }

    /// Compare mode's results: the comparison once both runs have a
    /// report, the two trees side by side, and one side's paths and bugs.
    fn view_comparison(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let state = &self.state;
        let report = |side| state.results(side).and_then(|r| r.report.clone());
        let (a, b) = (report(Side::A), report(Side::B));
        if a.is_none() {
            return Html::default();
        }
        let waiting = state.compare.as_ref().is_some_and(|c| c.waiting());
        let side = |side: Side, report: &Option<Rc<Report>>| {
            let title = match report {
                Some(r) => format!("{}: {}", side.name(), configuration(r)),
                None if state.results(side).is_some() => format!("{}: running", side.name()),
                None if waiting => format!("{}: runs once A has ended", side.name()),
                None => format!("{}: not run (the comparison was stopped)", side.name()),
            };
            html! {
                <div class="side" id={format!("side-{}", side.name().to_lowercase())}>
                    <h2>{ title }</h2>
                    { self.view_tree(ctx, side) }
                </div>
            }
        };
        let shown = if b.is_some() {
            state.view.details
        } else {
            Side::A
        };
        let details = report(shown).map(|r| self.view_details(ctx, shown, r));
        html! {
            <>
                // Compared once both runs are over, not on a partial B.
                if let (Some(a), Some(b)) = (a.clone(), b.clone().filter(|b| b.stop_reason != "running")) {
                    <ComparisonView {a} {b} />
                }
                <div class="sides">
                    { side(Side::A, &a) }
                    { side(Side::B, &b) }
                </div>
                if b.is_some() {
                    <div class="details-choice" role="tablist">{ "paths and bugs of " }
                        { for [Side::A, Side::B].into_iter().map(|s| html! {
                            <button id={format!("details-{}", s.name().to_lowercase())} role="tab"
                                aria-selected={(s == shown).to_string()} class={classes!((s == shown).then_some("chosen"))}
                                onclick={link.callback(move |_| Msg::Details(s))}>{ s.name() }</button>
                        }) }
                    </div>
                }
                { details }
            </>
        }
    }

    fn view_c_source(&self, e: &Example) -> Html {
        let marked = self
            .state
            .highlight()
            .and_then(|l| l.source.as_ref())
            .filter(|s| s.file == e.c_file)
            .map(|s| (s.line as usize).saturating_sub(1));
        let listing = Listing::Numbered(e.c_source);
        html! {
            <div class="pane">
                <CodePane key={e.id} id="c-source" {listing} {marked} pane={self.c_pane.clone()} />
                if let Some(gone) = self.state.lines_gone() {
                    <p id="lines-gone" class="notice lines-gone">{ gone }</p>
                }
            </div>
        }
    }

    /// The editor with the module's text, or a binary module's size.
    fn view_editor(&self, ctx: &Context<Self>) -> Html {
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
                <div id="printing" class="pane editor">{ "printing the module as WAT..." }</div>
            },
            _ => html! {
                <CodeEditor text={self.state.editor.clone()}
                    on_edit={link.callback(|(text, at_once)| Msg::Edit { text, at_once })}
                    on_leave={link.callback(|()| Msg::TakeEditor)}
                    on_failure={link.callback(Msg::EditorFailed)} />
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
        let Some(function) = state.entry_function() else {
            return Html::default();
        };
        let fields = &state.fields;
        // Integer parameters may be a buffer (an i32 address) or the length
        // of another's.
        let integer = |ty: &str| ty == "i32" || ty == "i64";
        let buffers: Vec<usize> = (0..function.params.len())
            .filter(|&j| fields.arg_kind(j) == BUFFER)
            .collect();
        html! {
            <span class="args">
                { for function.params.iter().enumerate().map(|(i, ty)| {
                    let on_input = ctx.link().callback(move |e: InputEvent| {
                        Msg::Arg(i, e.target_unchecked_into::<HtmlInputElement>().value())
                    });
                    let on_kind = ctx.link().callback(move |e: Event| {
                        Msg::ArgKind(i, e.target_unchecked_into::<HtmlSelectElement>().value())
                    });
                    let value = fields.args.get(i).cloned().unwrap_or_default();
                    let kind = fields.arg_kind(i);
                    // The engine's values are integers: a float parameter is zero.
                    let float = ty.starts_with('f');
                    let name = function.param_name(i);
                    // The buffer parameter whose length this one is.
                    let length_of = kind
                        .strip_prefix(LENGTH_OF)
                        .map(|j| j.parse().map_or_else(|_| j.to_string(), |j| function.param_name(j)));
                    let (placeholder, title) = if float {
                        ("0: floats are not symbolic".to_string(), "float parameters are zero, and the report says so")
                    } else if kind == BUFFER {
                        ("capacity (bytes)".to_string(), "the parameter points to a buffer of symbolic bytes, of a symbolic length at most this many bytes")
                    } else if let Some(of) = &length_of {
                        (format!("{of}'s length"), "the parameter is the symbolic length of another parameter's buffer")
                    } else {
                        ("symbolic".to_string(), "a value fixes this parameter; empty leaves it symbolic")
                    };
                    let kinds = integer(ty).then(|| html! {
                        <select id={format!("arg-kind-{i}")} class="arg-kind" onchange={on_kind}>
                            <option value={VALUE} selected={kind == VALUE}>{ "value" }</option>
                            if ty == "i32" {
                                <option value={BUFFER} selected={kind == BUFFER}>{ "buffer of symbolic length \u{2264}" }</option>
                            }
                            { for buffers.iter().filter(|&&j| j != i).map(|j| {
                                let value = format!("{LENGTH_OF}{j}");
                                let selected = kind == value;
                                html! {
                                    <option {selected} {value}>{ format!("length of {}", function.param_name(*j)) }</option>
                                }
                            }) }
                        </select>
                    });
                    html! {
                        <label {title}>
                            { format!("{name} ({ty}) ") }
                            { kinds }
                            <input id={format!("arg-{i}")} class="arg" size={if float { "22" } else { "8" }}
                                {placeholder} disabled={float || length_of.is_some()} value={value} oninput={on_input} />
                        </label>
                    }
                }) }
            </span>
        }
    }

    fn view_share(&self) -> Html {
        match &self.state.share {
            None => Html::default(),
            Some(Ok(link)) => html! {
                <p id="share-link" class="share">
                    { match &self.state.saving.copied {
                        None => html! {},
                        Some(Ok(())) => html! { <span id="copy-notice" class="copied" role="status">{ "✓ copied to the clipboard" }</span> },
                        Some(Err(why)) => html! { <span id="copy-notice" class="not-copied" role="status">{ format!("not copied ({why}): copy the link below") }</span> },
                    } }
                    { " share link: " }<a href={link.clone()}>{ link.clone() }</a>
                </p>
            },
            Some(Err(message)) => {
                html! { <p id="share-error" class="error">{ message.clone() }</p> }
            }
        }
    }

    /// How long a running worker has not spoken, once that is long.
    fn silent_for(&self) -> Option<f64> {
        let silent = js_sys::Date::now() - self.heard_at;
        (self.state.working() && silent > SILENCE_MS).then_some(silent)
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
        // In compare mode, a line per side that has run or runs.
        let sides: &[Side] = if state.compare.is_some() {
            &[Side::A, Side::B]
        } else {
            &[Side::A]
        };
        let progress = sides.iter().filter_map(|&side| {
            let results = state.results(side)?;
            let p = results.progress.as_ref()?;
            let running = state.run == Some(results.run);
            let id = match (side, state.compare.is_some()) {
                (Side::B, true) => "progress-b",
                _ => "progress",
            };
            let who = if state.compare.is_some() {
                format!("{}: ", side.name())
            } else {
                String::new()
            };
            let stepping = results.steps.as_ref().is_some_and(|s| !s.resumed);
            Some(html! {
                <p {id}>{ format!(
                    "{who}{}{} paths, {} pending states, {} solver queries, {} instructions, {:.1} s",
                    match (running, stepping) {
                        (true, true) => "step mode: ",
                        (true, false) => "running: ",
                        (false, _) => "",
                    },
                    p.paths, p.pending, p.queries, p.instructions, p.elapsed_ms / 1000.0
                ) }
                if let Some(ms) = self.silent_for().filter(|_| running) {
                    <span id="busy">{ format!(
                        "; no word from the engine for {:.0} s: it is inside one long step, such as a hard solver query",
                        ms / 1000.0
                    ) }</span>
                }
                </p>
            })
        });
        let progress: Html = progress.collect();
        html! { <section class="status">{ loading }{ error }{ notice }{ progress }</section> }
    }
}

/// A run's configuration in words: `dfs, size mode base, capacity 100`.
fn configuration(r: &Report) -> String {
    let mut words = vec![r.search.clone()];
    if r.seed != 0 {
        words.push(format!("seed {}", r.seed));
    }
    if r.heap.objects {
        words.push(format!("size mode {}", r.heap.size_mode.name()));
        words.push(format!("capacity {}", r.heap.capacity));
        if r.heap.malloc_may_fail {
            words.push("malloc may fail".into());
        }
    } else {
        words.push("the module's allocator".into());
    }
    words.join(", ")
}
