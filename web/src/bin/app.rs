//! The playground page: a WAT editor, the entry picker and options, Run and
//! Stop, live progress, and the paths found. The engine runs in the worker
//! (`worker.rs`); the page only sends requests and shows the answers.

use std::rc::Rc;
use symplay_engine::report::Report;
use symplay_web::describe::{inputs, outcome};
use symplay_web::disassembly::{line_of, Line};
use symplay_web::examples::{self, Example, EXAMPLES};
use symplay_web::protocol::{ExportedFunction, Request, Response, RunOptions};
use symplay_web::tree::view::TreeView;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement, MessageEvent};
use yew::prelude::*;

/// The script trunk generates to start the worker's wasm.
const WORKER_SCRIPT: &str = "./worker_loader.js";

const GET_SIGN: &str = r#"(module
  ;; Three paths: x < 0, x = 0, x > 0.
  (func (export "get_sign") (param $x i32) (result i32)
    (if (i32.eqz (local.get $x)) (then (return (i32.const 0))))
    (if (i32.lt_s (local.get $x) (i32.const 0)) (then (return (i32.const -1))))
    (i32.const 1)))
"#;

enum Msg {
    Example(String),
    /// Show the WAT line of this byte offset.
    Highlight(u32),
    Edit(String),
    Inspect,
    Entry(String),
    Search(String),
    MaxPaths(String),
    Run,
    Stop,
    Worker(Response),
    WorkerFailed(String),
}

struct Progress {
    paths: usize,
    pending: usize,
    instructions: u64,
    elapsed_ms: f64,
}

struct App {
    worker: Option<web_sys::Worker>,
    /// Requests waiting for the worker to be ready.
    queued: Option<Vec<String>>,
    /// Keeps the worker's handlers alive.
    _handlers: Option<WorkerHandlers>,
    source: String,
    /// The gallery example in the editor, whose C source is shown beside it.
    example: Option<&'static Example>,
    /// The module as WAT with byte offsets, for showing locations.
    disassembly: Vec<Line>,
    highlight: Option<u32>,
    functions: Vec<ExportedFunction>,
    entry: String,
    search: String,
    max_paths: String,
    running: bool,
    progress: Option<Progress>,
    report: Option<Rc<Report>>,
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

    fn options(&self) -> Result<RunOptions, String> {
        let max_paths = match self.max_paths.trim() {
            "" => None,
            text => Some(
                text.parse::<u64>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("max paths must be a positive number, not `{text}`"))?,
            ),
        };
        Ok(RunOptions {
            search: self.search.clone(),
            max_paths,
            ..RunOptions::default()
        })
    }

    fn apply(&mut self, response: Response) {
        match response {
            Response::Ready => self.worker_ready(),
            Response::Disassembly { lines } => self.disassembly = lines,
            Response::Printed { text } => {
                self.source = text;
                self.send(&Request::Inspect {
                    module: self.source.as_bytes().to_vec(),
                });
            }
            Response::Module { functions } => {
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
                self.error = None;
            }
            Response::Progress {
                paths,
                pending,
                instructions,
                elapsed_ms,
            } => {
                self.progress = Some(Progress {
                    paths,
                    pending,
                    instructions,
                    elapsed_ms,
                })
            }
            Response::Finished { report } => {
                self.running = false;
                self.report = Some(Rc::from(report));
            }
            Response::Replayed { .. } => {}
            Response::Error { message } => {
                self.running = false;
                self.error = Some(message);
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
    let on_failure = ctx.link().callback(Msg::WorkerFailed);
    let on_error = Closure::<dyn Fn(ErrorEvent)>::new(move |event: ErrorEvent| {
        on_failure.emit(format!("the engine stopped: {}", event.message()));
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
            source: GET_SIGN.to_string(),
            example: None,
            disassembly: Vec::new(),
            highlight: None,
            functions: Vec::new(),
            entry: String::new(),
            search: "dfs".into(),
            max_paths: String::new(),
            running: false,
            progress: None,
            report: None,
            error,
        };
        app.send(&Request::Inspect {
            module: app.source.as_bytes().to_vec(),
        });
        app
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Example(id) => {
                self.example = examples::find(&id);
                if let Some(e) = self.example {
                    self.report = None;
                    self.highlight = None;
                    self.send(&Request::Print {
                        module: e.wasm.to_vec(),
                    });
                }
            }
            Msg::Highlight(offset) => self.highlight = Some(offset),
            Msg::Edit(text) => {
                self.source = text;
                return false;
            }
            Msg::Inspect => self.send(&Request::Inspect {
                module: self.source.as_bytes().to_vec(),
            }),
            Msg::Entry(name) => self.entry = name,
            Msg::Search(kind) => self.search = kind,
            Msg::MaxPaths(text) => self.max_paths = text,
            Msg::Run => match self.options() {
                Ok(options) => {
                    self.error = None;
                    self.report = None;
                    self.progress = None;
                    self.running = true;
                    let request = Request::Explore {
                        module: self.source.as_bytes().to_vec(),
                        entry: self.entry.clone(),
                        options,
                    };
                    self.send(&request);
                }
                Err(e) => self.error = Some(e),
            },
            Msg::Stop => self.send(&Request::Stop),
            Msg::Worker(response) => self.apply(response),
            Msg::WorkerFailed(message) => {
                self.running = false;
                self.error = Some(message);
            }
        }
        true
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
            Msg::Search(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
        let on_max_paths = link.callback(|e: InputEvent| {
            Msg::MaxPaths(e.target_unchecked_into::<HtmlInputElement>().value())
        });
        html! {
            <main>
                <header><h1>{ "Symplay" }</h1><span class="tagline">{ "symbolic execution for WebAssembly" }</span></header>
                <section class="input">
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
                        { self.example.map(|e| html! { <pre id="c-source" class="pane">{ e.c_source }</pre> }).unwrap_or_default() }
                        <textarea id="source" class="pane" spellcheck="false" value={self.source.clone()}
                            oninput={on_edit} onblur={link.callback(|_| Msg::Inspect)} />
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
                        <label>{ "search " }
                            <select id="search" onchange={on_search}>
                                { for ["dfs", "bfs", "random-path", "coverage-new"].iter().map(|k| html! {
                                    <option value={*k} selected={*k == self.search}>{ *k }</option>
                                }) }
                            </select>
                        </label>
                        <label>{ "max paths " }
                            <input id="max-paths" size="6" value={self.max_paths.clone()} oninput={on_max_paths} />
                        </label>
                        <button id="run" disabled={self.running || self.entry.is_empty()}
                            onclick={link.callback(|_| Msg::Run)}>{ "Run" }</button>
                        <button id="stop" disabled={!self.running}
                            onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                    </div>
                </section>
                { self.view_status() }
                { self.report.clone().map(|report| html! { <TreeView {report} /> }).unwrap_or_default() }
                { self.report.as_deref().map(|r| view_report(r, link)).unwrap_or_default() }
                { self.view_wat() }
            </main>
        }
    }
}

impl App {
    /// The disassembly, with the line of the chosen location marked.
    fn view_wat(&self) -> Html {
        if self.disassembly.is_empty() {
            return Html::default();
        }
        let marked = self.highlight.and_then(|o| line_of(&self.disassembly, o));
        html! {
            <section class="wat">
                <h2>{ "WAT" }</h2>
                <pre id="wat">
                    { for self.disassembly.iter().enumerate().map(|(i, l)| html! {
                        <div class={classes!("line", (Some(i) == marked).then_some("marked"))}>
                            <span class="offset">{ l.offset.map(|o| format!("{o:#06x}")).unwrap_or_default() }</span>
                            { &l.text }
                        </div>
                    }) }
                </pre>
            </section>
        }
    }

    fn view_status(&self) -> Html {
        let error = self
            .error
            .as_ref()
            .map(|e| html! { <p id="error" class="error">{ e.clone() }</p> });
        let progress = self.progress.as_ref().map(|p| {
            html! {
                <p id="progress">{ format!(
                    "{}{} paths, {} pending, {} instructions, {:.1} s",
                    if self.running { "running: " } else { "" },
                    p.paths, p.pending, p.instructions, p.elapsed_ms / 1000.0
                ) }</p>
            }
        });
        html! { <section class="status">{ error }{ progress }</section> }
    }
}

fn view_report(r: &Report, link: &yew::html::Scope<App>) -> Html {
    let s = &r.stats;
    html! {
        <section class="results">
            <h2>{ format!("{} paths ({})", r.paths.len(), r.stop_reason) }</h2>
            <table id="paths">
                <thead><tr><th>{ "path" }</th><th>{ "outcome" }</th><th>{ "input" }</th><th>{ "where" }</th></tr></thead>
                <tbody>
                { for r.paths.iter().map(|p| html! {
                    <tr onclick={ let offset = p.location.offset; link.callback(move |_| Msg::Highlight(offset)) }
                        class={format!("status-{}", serde_json::to_value(p.status).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default())}>
                        <td>{ p.id }</td>
                        <td>{ outcome(p) }</td>
                        <td class="input">{ inputs(p) }</td>
                        <td>{ format!("{}+0x{:x}", p.location.function, p.location.offset) }</td>
                    </tr>
                }) }
                </tbody>
            </table>
            <p class="stats">{ format!(
                "{} instructions, {} forks, {} queries ({} cache hits, {} SAT calls), solver {:.1} ms, total {:.1} ms; coverage {}/{} instructions",
                s.instructions, s.forks, s.queries, s.query_cache_hits + s.cex_cache_hits, s.sat_calls,
                s.timing.solver_ms, s.timing.total_ms, r.coverage.covered_instructions, r.coverage.total_instructions
            ) }</p>
        </section>
    }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
