//! The playground page: the editor (or a binary module's size), the entry
//! picker and options, Run and Stop, live progress, and the paths found.
//! What the page shows is one state, [`PageState`]: this file draws it,
//! feeds it what the user does and what the worker answers, and carries out
//! the effects it gives (requests to the worker, which runs the engine).
//! Share links, downloads and bug replays use the library's `share`, `dom`
//! and `results` modules.

use super::dom::{self, History};
use super::state::{Code, Effect, PageState, Side, Tab};
use crate::protocol::{Envelope, Request, Response};
use crate::share;
use symplay_engine::report::step::StepBy;
use symplay_engine::report::Location;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent};
use yew::prelude::*;

mod form;
mod layout;
mod outputs;

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
    /// Mark a location of a side's module in the code panes.
    MarkLocation(Side, Location),
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
    /// Show this pane of results below the tree.
    ShowTab(Tab),
    /// Show this code beside the results.
    ShowCode(Code),
    ToggleOptions,
    ToggleHelp,
    /// The SMT-LIB forms of conditions were shown or hidden.
    ShowSmt(bool),
    /// A key was typed in the read-only C source.
    CReadOnly,
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
            Msg::MarkLocation(side, location) => self.state.mark_location(side, location),
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
            Msg::ShowTab(tab) => self.state.show_tab(tab),
            Msg::ShowCode(code) => self.state.show_code(code),
            Msg::ToggleOptions => self.state.toggle_options(),
            Msg::ToggleHelp => self.state.toggle_help(),
            Msg::ShowSmt(shown) => {
                // The element shows itself; only later nodes need to know.
                self.state.show_smt(shown);
                return false;
            }
            Msg::CReadOnly => {
                if self.state.view.c_read_only_told {
                    return false;
                }
                self.state.view.c_read_only_told = true;
            }
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
        self.page(ctx)
    }
}
