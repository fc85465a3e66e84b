//! The page's one state: the module that runs (as it came in), its exported
//! functions and the entry chosen, the parameter values and options, the
//! exploration under way and the results shown. Every way a module comes in
//! (typed, pasted, uploaded, dropped, a gallery example, a share link) goes
//! through [`PageState::set_module`]: it stops what runs on the old module,
//! clears what belonged to it, and loads the new one; once the worker lists
//! the new module's functions, the entry is kept if the module exports it
//! with the same type, or else the default ([`symplay_wasm::entry`]). The
//! page (`bin/app.rs`) draws this state and carries out the [`Effect`]s its
//! methods give; pure Rust, so it is tested natively against the worker's
//! [`crate::worker::session::Session`].

use crate::disassembly::Line;
use crate::examples::{self, Example};
use crate::page::input::{decode_pasted, OptionFields};
pub use crate::page::screen::{Code, Scroll, Side, Tab, View};
use crate::protocol::{CarriedLines, Envelope, ExportedFunction, Request, Response};
use crate::run_options::RunOptions;
use crate::share::{self, Shared};
use std::collections::BTreeMap;
use std::rc::Rc;
use symplay_engine::exec::MergeMode;
use symplay_engine::memory::{BaseMode, Resolve, SizeMode};
use symplay_engine::report::step::{Step, StepBy};
use symplay_engine::report::{PathReport, Report, TraceEvent};

/// What the page does for the state: talk to the worker, or replace it.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    Send(Envelope<Request>),
    /// The worker works for a module the page has left: it is replaced
    /// rather than waited for (it may be inside one long solver query).
    ReplaceWorker,
}

/// The module that runs, as it came in.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// WAT text in the editor; `file` names the file it was read from,
    /// until it is edited.
    Text { text: String, file: Option<String> },
    /// A binary module: uploaded, dropped, pasted as base64 or hex, from a
    /// link, or a gallery example.
    Binary {
        bytes: Vec<u8>,
        /// The file's name, or what it is (`pasted module`).
        name: String,
        wat: Wat,
    },
}

impl Source {
    /// The bytes the worker loads (it tells WAT text from binary itself).
    pub fn bytes(&self) -> &[u8] {
        match self {
            Source::Text { text, .. } => text.as_bytes(),
            Source::Binary { bytes, .. } => bytes,
        }
    }

    /// How the page speaks of it while it loads: `big.wasm (20.0 MB)`.
    fn label(&self) -> String {
        let size = size_text(self.bytes().len());
        match self {
            Source::Text { file: Some(f), .. } | Source::Binary { name: f, .. } => {
                format!("{f} ({size})")
            }
            Source::Text { file: None, .. } => format!("the module ({size})"),
        }
    }
}

/// A binary module's WAT text in the editor, asked for by "Edit text
/// instead" or a gallery example. The binary runs until the text is edited
/// (only it has the C line tables right; an edited example's text gets
/// them for its unchanged functions).
#[derive(Clone, Debug, PartialEq)]
pub enum Wat {
    /// Not asked for: the page shows the binary's size.
    Hidden,
    /// Asked for by this request.
    Printing(u32),
    /// In the editor, as printed.
    Shown(String),
}

/// Where the module stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Load {
    /// A file being read, as `big.wasm (20.0 MB)`.
    Reading(String),
    /// Sent to the worker; what it is, as above.
    Loading(String),
    /// Its functions are listed.
    Ready,
    /// It does not load: why.
    Failed(String),
}

/// A run's numbers as the worker last sent them.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub paths: usize,
    pub pending: usize,
    /// Of the pending states, those in a merge under way.
    pub merging: usize,
    pub queries: u64,
    pub instructions: u64,
    pub elapsed_ms: f64,
}

/// The results of one run of the current module.
#[derive(Clone)]
pub struct Results {
    /// The run's request number: a new run gets a new tree view.
    pub run: u32,
    pub progress: Option<Progress>,
    /// The report so far, or at the end.
    pub report: Option<Rc<Report>>,
    pub replays: Rc<BTreeMap<usize, Replay>>,
    /// A run in step mode: its steps.
    pub steps: Option<Steps>,
}

impl Results {
    /// The report the page draws: in step mode, as it was after the step
    /// shown; else the latest.
    pub fn report_shown(&self) -> Option<Rc<Report>> {
        match &self.steps {
            Some(steps) if steps.shown + 1 < steps.taken.len() => {
                Some(steps.taken[steps.shown].report.clone())
            }
            _ => self.report.clone(),
        }
    }
}

/// A bug's replay, by path id.
#[derive(Clone)]
pub enum Replay {
    Pending,
    Done {
        path: Box<PathReport>,
        trace: Vec<TraceEvent>,
    },
    Failed(String),
}

/// The steps of a run in step mode, each with the report after it, and
/// which one is shown: Back and Forward move through those taken.
#[derive(Clone, Default)]
pub struct Steps {
    pub taken: Vec<Rc<TakenStep>>,
    pub shown: usize,
    /// A step was asked for and has not come yet.
    pub waiting: bool,
    /// The run goes on to its end without steps (Run to end).
    pub resumed: bool,
}

pub struct TakenStep {
    pub step: Step,
    pub report: Rc<Report>,
}

impl PartialEq for Steps {
    /// Steps taken are never changed, only added: the same ones are the
    /// same objects.
    fn eq(&self, other: &Self) -> bool {
        self.taken.len() == other.taken.len()
            && self
                .taken
                .iter()
                .zip(&other.taken)
                .all(|(a, b)| Rc::ptr_eq(a, b))
            && (self.shown, self.waiting, self.resumed)
                == (other.shown, other.waiting, other.resumed)
    }
}

/// Steps kept to go back to; older ones are let go.
const MAX_STEPS_KEPT: usize = 1000;

impl Steps {
    /// Adds the step just taken and shows it.
    fn add(&mut self, step: TakenStep) {
        if self.taken.len() == MAX_STEPS_KEPT {
            self.taken.remove(0);
        }
        self.taken.push(Rc::new(step));
        self.shown = self.taken.len() - 1;
        self.waiting = false;
    }

    /// The step shown.
    pub fn current(&self) -> Option<&TakenStep> {
        self.taken.get(self.shown).map(Rc::as_ref)
    }

    /// Whether the step shown is the last one taken.
    pub fn at_last(&self) -> bool {
        self.shown + 1 >= self.taken.len()
    }
}

/// The work kept in this browser and its share link (`state/saving.rs`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Saving {
    /// Changes made by the user so far, and the last one saved.
    changes: u32,
    saved: u32,
    /// Why the work is not saved in this browser.
    pub not_saved: Option<String>,
    /// The address bar holds a share link of the state shown.
    pub address_link: bool,
    /// Whether the link made by Share was copied to the clipboard, or why not.
    pub copied: Option<Result<(), String>>,
}

/// Compare mode: a second configuration of the same module and entry,
/// explored after the first (the worker runs one exploration at a time),
/// its results shown beside the first's.
pub struct Compare {
    /// B's options form; the parameter values are A's.
    pub fields: OptionFields,
    pub results: Option<Results>,
    /// B's options, to run once A's run ends.
    queued: Option<RunOptions>,
}

impl Compare {
    /// B as first offered: A's options without merging when A merges
    /// states, else with the other way of resolving a pointer into several
    /// blocks when A merges them into segments (fork against segment), else
    /// with the other way of sizing symbolic allocations (Base against
    /// ForkLazy, the seed's question).
    fn new(a: &OptionFields) -> Compare {
        let mut fields = a.clone();
        // B takes A's parameters when it runs: it has no fields of its own.
        fields.clear_args();
        if a.merge != MergeMode::None.name() {
            fields.merge = MergeMode::None.name().into();
        } else if a.resolve == Resolve::Segment.name() && a.heap_model != "module" {
            // Over the symbolic bases segments need, as A's run has them.
            fields.resolve = Resolve::Fork.name().into();
            fields.bases = BaseMode::Symbolic.name().into();
        } else if a.size_mode == SizeMode::Base.name() {
            fields.size_mode = SizeMode::ForkLazy.name().into();
        } else {
            fields.size_mode = SizeMode::Base.name().into();
        }
        Compare {
            fields,
            results: None,
            queued: None,
        }
    }

    /// Whether B waits for A's run to end.
    pub fn waiting(&self) -> bool {
        self.queued.is_some()
    }
}

/// The entry wanted once the module loading now is listed.
#[derive(Clone, Debug, PartialEq)]
struct Wanted {
    entry: String,
    /// Kept only with this type; `None`: whatever its type (an example's
    /// or a share link's entry).
    signature: Option<String>,
}

pub struct PageState {
    next_id: u32,
    pub source: Source,
    /// The gallery example the module is (or was edited from): its C
    /// source is shown beside.
    pub example: Option<&'static Example>,
    /// The editor's text as typed; [`PageState::take_editor`] makes it the
    /// module.
    pub editor: String,
    pub load: Load,
    /// The request that loads the module in the worker (or the file read
    /// that will): its answers are the module's functions and disassembly.
    module_request: u32,
    /// The module, listed once, is being loaded again into a new worker.
    reloading: bool,
    pub functions: Vec<ExportedFunction>,
    /// An edited example: whose C lines its module kept.
    lines: Option<CarriedLines>,
    /// Why no entry is chosen by default (only runtime helpers exported).
    pub no_entry: Option<String>,
    /// The function Run explores, as the picker shows it.
    pub entry: Option<String>,
    wanted: Option<Wanted>,
    /// The options form, with a value field per parameter of the entry.
    pub fields: OptionFields,
    /// The option fields the chosen example set: each with what it held
    /// before, which another example gives back, and the value set.
    imposed: Vec<(&'static str, String, &'static str)>,
    pub disassembly: Rc<Vec<Line>>,
    /// The request number of the exploration under way.
    pub run: Option<u32>,
    /// The worker has taken Stop for the run under way: it is finishing.
    pub stopping: bool,
    pub results: Option<Results>,
    /// Compare mode, when on.
    pub compare: Option<Compare>,
    /// The request replaying a path, and the path with its side.
    pub replaying: Option<(u32, Side, usize)>,
    /// Run once the module is listed (Run or Ctrl+Enter while it loaded,
    /// or a share link).
    run_when_loaded: bool,
    /// The run to start (now or once listed) is in step mode.
    stepping: bool,
    /// What went wrong last (a module that does not load, bad options, an
    /// engine error), or why nothing can be run.
    pub error: Option<String>,
    /// Why the module loaded last cannot be explored whatever the options
    /// (an imported memory, table or global): Run is off until it changes.
    pub cannot_explore: Option<String>,
    /// The share link the worker is decoding: its request.
    link_request: Option<u32>,
    /// The work saved in this browser, while a link opened over it is
    /// decoded.
    saved: Option<Shared>,
    /// The link made by Share, or why a link could not be made or opened.
    pub share: Option<Result<String, String>>,
    /// Edits typed so far: a pause in typing is for the last one only.
    edits: u32,
    pub view: View,
    pub saving: Saving,
}

impl Default for PageState {
    fn default() -> Self {
        PageState {
            next_id: 0,
            source: Source::Text {
                text: String::new(),
                file: None,
            },
            example: None,
            editor: String::new(),
            load: Load::Failed("no module yet".into()),
            module_request: 0,
            reloading: false,
            functions: Vec::new(),
            lines: None,
            no_entry: None,
            entry: None,
            wanted: None,
            fields: OptionFields::default(),
            imposed: Vec::new(),
            disassembly: Rc::default(),
            run: None,
            stopping: false,
            results: None,
            compare: None,
            replaying: None,
            run_when_loaded: false,
            stepping: false,
            error: None,
            cannot_explore: None,
            link_request: None,
            saved: None,
            share: None,
            edits: 0,
            view: View::default(),
            saving: Saving::default(),
        }
    }
}

/// The page's first module, when no share link gives another.
pub const FIRST_MODULE: &str = r#"(module
  ;; Three paths: x < 0, x = 0, x > 0.
  (func (export "get_sign") (param $x i32) (result i32)
    (if (i32.eqz (local.get $x)) (then (return (i32.const 0))))
    (if (i32.lt_s (local.get $x) (i32.const 0)) (then (return (i32.const -1))))
    (i32.const 1)))
"#;

fn send(id: u32, body: Request) -> Effect {
    Effect::Send(Envelope { id, body })
}

/// `20.0 MB`, `0.7 kB`: sizes as a person reads them.
fn size_text(bytes: usize) -> String {
    if bytes >= 100_000 {
        format!("{:.1} MB", bytes as f64 / 1e6)
    } else {
        format!("{:.1} kB", bytes as f64 / 1e3)
    }
}

impl PageState {
    /// Opens the page on the share link in the address bar's `fragment`,
    /// or else on the work saved in this browser, or else on the first
    /// module.
    pub fn start(&mut self, fragment: &str, saved: Option<Shared>) -> Vec<Effect> {
        match saved {
            _ if share::is_link(fragment) => {
                // Shown if the link cannot be opened.
                self.saved = saved;
                self.open_fragment(fragment)
            }
            Some(saved) => self.restore(saved),
            None => self.first_module(),
        }
    }

    /// The user changed the page while a link was being decoded: it is not
    /// opened over the change.
    pub fn cancel_link(&mut self) {
        self.link_request = None;
    }

    fn first_module(&mut self) -> Vec<Effect> {
        self.type_text(FIRST_MODULE.to_string());
        self.take_editor()
    }

    /// The address bar has a new `fragment`: a share link is handed to the
    /// worker to decode (it may inflate to megabytes) and opened when it
    /// answers; the module shown stays until then, and if the link is bad.
    pub fn open_fragment(&mut self, fragment: &str) -> Vec<Effect> {
        self.share = None;
        if !share::is_link(fragment) {
            return Vec::new();
        }
        let id = self.next_id();
        self.link_request = Some(id);
        if self.module_request == 0 {
            self.load = Load::Reading(format!("the share link ({})", size_text(fragment.len())));
        }
        vec![send(
            id,
            Request::OpenLink {
                fragment: fragment.to_string(),
            },
        )]
    }

    /// The link could not be opened, and `why`: said where a link is; a
    /// page that has no module yet gets the work saved in this browser, or
    /// the first module.
    fn link_failed(&mut self, why: String) -> Vec<Effect> {
        self.link_request = None;
        let effects = match self.saved.take() {
            _ if self.module_request != 0 => Vec::new(),
            Some(saved) => self.restore(saved),
            None => self.first_module(),
        };
        self.share = Some(Err(why));
        effects
    }

    fn next_id(&mut self) -> u32 {
        self.next_id += 1;
        self.next_id
    }

    /// The worker explores or replays.
    pub fn busy(&self) -> bool {
        self.run.is_some() || self.replaying.is_some()
    }

    /// The worker is at work, not waiting for the next step of a run in
    /// step mode: it should speak now and then.
    pub fn working(&self) -> bool {
        self.replaying.is_some() || (self.run.is_some() && self.stepping_run().is_none())
    }

    /// The steps of the run under way, while it is in step mode and waits
    /// for the user (no step asked for).
    fn stepping_run(&self) -> Option<&Steps> {
        let run = self.run?;
        let steps = self
            .results
            .as_ref()
            .filter(|r| r.run == run)?
            .steps
            .as_ref()?;
        (!steps.waiting && !steps.resumed).then_some(steps)
    }

    /// Run is offered: the worker is free, and the module loads, or is
    /// listed with an entry chosen, or the editor holds a new one.
    pub fn can_run(&self) -> bool {
        !self.busy()
            && (self.editor_changed()
                || match self.load {
                    Load::Reading(_) | Load::Loading(_) => true,
                    Load::Ready => self.entry.is_some() && self.cannot_explore.is_none(),
                    Load::Failed(_) => false,
                })
    }

    /// What the page says beside an edited example's C source when
    /// functions lost their C lines: which, or that all did.
    pub fn lines_gone(&self) -> Option<String> {
        self.example?;
        let CarriedLines { kept, lost } = self.lines.as_ref()?;
        if lost.is_empty() {
            return None;
        }
        if kept.is_empty() {
            return Some(
                "C lines are gone: the code of every function was edited, so no C line is marked"
                    .into(),
            );
        }
        let whose = if lost.len() == 1 { "its" } else { "their" };
        Some(format!(
            "C lines are gone for {} ({whose} code was edited); the other functions keep theirs",
            lost.join(", ")
        ))
    }

    /// The function a run or a share link is for: the one chosen, or while
    /// a module loads, the one it is to keep.
    pub fn entry_to_run(&self) -> Option<&str> {
        self.entry
            .as_deref()
            .or(self.wanted.as_ref().map(|w| w.entry.as_str()))
    }

    /// The editor holds text that is not the module yet.
    pub fn editor_changed(&self) -> bool {
        match &self.source {
            Source::Text { text, .. } => *text != self.editor,
            Source::Binary {
                wat: Wat::Shown(printed),
                ..
            } => *printed != self.editor,
            Source::Binary { .. } => false,
        }
    }

    /// The one way a module comes in: what ran on the old module stops
    /// (the worker is replaced if busy), its results, disassembly and
    /// errors go, and the new module is loaded. `wanted` is an entry to
    /// choose whatever its type; without one, the current entry is kept if
    /// the new module has it with the same type.
    fn set_module(
        &mut self,
        source: Source,
        example: Option<&'static Example>,
        wanted: Option<String>,
    ) -> Vec<Effect> {
        let mut effects = self.leave_module();
        if let Some(entry) = wanted {
            self.wanted = Some(Wanted {
                entry,
                signature: None,
            });
        }
        if let Source::Text { text, .. } = &source {
            self.editor = text.clone();
        }
        self.load = Load::Loading(source.label());
        self.source = source;
        self.example = example;
        let id = self.next_id();
        self.module_request = id;
        self.reloading = false;
        effects.push(self.load_request(id));
        effects
    }

    fn load_request(&self, id: u32) -> Effect {
        // An edited example goes with its binary, whose C lines the
        // functions not edited keep.
        let lines_from = match (&self.source, self.example) {
            (Source::Text { .. }, Some(example)) => Some(example.wasm.to_vec()),
            _ => None,
        };
        send(
            id,
            Request::Load {
                module: self.source.bytes().to_vec(),
                lines_from,
            },
        )
    }

    /// Stops and clears what belonged to the module shown until now; its
    /// entry is the one to keep if the next module has it.
    fn leave_module(&mut self) -> Vec<Effect> {
        // A link still being decoded would replace the module chosen since.
        self.link_request = None;
        // A run waiting for its next step ends with the module's load.
        let effects = if self.working() {
            vec![Effect::ReplaceWorker]
        } else {
            Vec::new()
        };
        if let Some(entry) = self.entry.take() {
            let signature = self.functions.iter().find(|f| f.name == entry);
            self.wanted = Some(Wanted {
                signature: signature.map(|f| f.signature.clone()),
                entry,
            });
        }
        self.functions.clear();
        self.lines = None;
        self.no_entry = None;
        self.run = None;
        self.replaying = None;
        self.results = None;
        if let Some(compare) = &mut self.compare {
            compare.results = None;
            compare.queued = None;
        }
        self.error = None;
        self.run_when_loaded = false;
        self.disassembly = Rc::default();
        effects
    }

    /// Asks for a binary module's WAT text, for the editor.
    fn print(&mut self) -> Option<Effect> {
        let id = self.next_id();
        let Source::Binary { bytes, wat, .. } = &mut self.source else {
            return None;
        };
        *wat = Wat::Printing(id);
        Some(send(
            id,
            Request::Print {
                module: bytes.clone(),
            },
        ))
    }

    /// The editor's text as typed; returns the edit's number.
    pub fn type_text(&mut self, text: String) -> u32 {
        self.editor = text;
        self.edits += 1;
        self.edits
    }

    /// Typing paused after edit `edit`: the editor's text becomes the
    /// module if no edit came since.
    pub fn typing_paused(&mut self, edit: u32) -> Vec<Effect> {
        if edit != self.edits {
            return Vec::new();
        }
        self.take_editor()
    }

    /// Makes the editor's text the module, if it changed: base64 or hex of
    /// a binary module is that module, anything else WAT text. An edited
    /// example keeps its C source beside it (while it still exports the
    /// example's entry).
    pub fn take_editor(&mut self) -> Vec<Effect> {
        if !self.editor_changed() {
            return Vec::new();
        }
        let text = self.editor.clone();
        match decode_pasted(&text) {
            Some(bytes) => self.set_module(
                Source::Binary {
                    bytes,
                    name: "pasted module".into(),
                    wat: Wat::Hidden,
                },
                None,
                None,
            ),
            None => self.set_module(Source::Text { text, file: None }, self.example, None),
        }
    }

    /// A file was chosen or dropped; its bytes are being read. Gives the
    /// read's number, for [`PageState::file_read`]: answers about the
    /// module before no longer count, nor does a file read before.
    pub fn reading_file(&mut self, name: &str, size: f64) -> (u32, Vec<Effect>) {
        let effects = self.leave_module();
        self.load = Load::Reading(format!("{name} ({})", size_text(size as usize)));
        self.module_request = self.next_id();
        (self.module_request, effects)
    }

    /// Whether read `read` is the one the page waits for.
    fn awaits(&self, read: u32) -> bool {
        read == self.module_request && matches!(self.load, Load::Reading(_))
    }

    /// A file's bytes: a binary module, its base64 or hex, or text (WAT,
    /// or a program to compile first, which the worker recognises).
    pub fn file_read(&mut self, read: u32, name: String, bytes: Vec<u8>) -> Vec<Effect> {
        if !self.awaits(read) {
            return Vec::new();
        }
        let binary = |bytes| Source::Binary {
            bytes,
            name: name.clone(),
            wat: Wat::Hidden,
        };
        let source = if bytes.starts_with(b"\0asm") {
            binary(bytes)
        } else {
            match String::from_utf8(bytes) {
                Ok(text) => match decode_pasted(&text) {
                    Some(module) => binary(module),
                    None => Source::Text {
                        text,
                        file: Some(name.clone()),
                    },
                },
                Err(e) => binary(e.into_bytes()),
            }
        };
        // Run pressed while the file was read is for this module.
        let run = self.run_when_loaded;
        let effects = self.set_module(source, None, None);
        self.run_when_loaded = run;
        effects
    }

    /// A file could not be read: the module before it is loaded again,
    /// with the reason.
    pub fn file_failed(&mut self, read: u32, message: String) -> Vec<Effect> {
        if !self.awaits(read) {
            return Vec::new();
        }
        let effects = self.set_module(self.source.clone(), self.example, None);
        self.error = Some(message);
        effects
    }

    /// A gallery example by id (`""`: none, the module stays).
    pub fn choose_example(&mut self, id: &str) -> Vec<Effect> {
        let Some(example) = examples::find(id) else {
            self.example = None;
            return Vec::new();
        };
        self.fields.clear_args();
        self.impose(example.options);
        let mut effects = self.set_module(
            Source::Binary {
                bytes: example.wasm.to_vec(),
                name: example.wasm_file(),
                wat: Wat::Hidden,
            },
            Some(example),
            Some(example.entry.to_string()),
        );
        effects.extend(self.print());
        effects
    }

    /// Sets the option fields `options` as an example asks, giving back
    /// first what the example before set (where no one changed it since).
    fn impose(&mut self, options: &'static [(&'static str, &'static str)]) {
        for (field, before, set) in std::mem::take(&mut self.imposed) {
            if let Some(text) = self.fields.field_mut(field).filter(|t| *t == set) {
                *text = before;
            }
        }
        for &(field, value) in options {
            if let Some(text) = self.fields.field_mut(field) {
                let before = std::mem::replace(text, value.to_string());
                self.imposed.push((field, before, value));
            }
        }
    }

    /// "Edit text instead": the binary module's WAT in the editor. The
    /// module does not change, so nothing is cleared.
    pub fn edit_as_text(&mut self) -> Vec<Effect> {
        match self.source {
            Source::Binary {
                wat: Wat::Hidden, ..
            } => self.print().into_iter().collect(),
            _ => Vec::new(),
        }
    }

    /// Opens a share link's state and runs it once its module is listed.
    /// A link that names a gallery example whose module it does not carry
    /// is taken as the module it carries.
    pub fn open_link(&mut self, shared: Shared) -> Vec<Effect> {
        let effects = self.open(shared, "module from the link");
        self.run_when_loaded = true;
        effects
    }

    /// Brings back the work saved in this browser, without running it.
    pub fn restore(&mut self, saved: Shared) -> Vec<Effect> {
        self.share = None;
        self.open(saved, "module saved in this browser")
    }

    /// Opens a state; a binary module that is no example is called `name`.
    fn open(&mut self, shared: Shared, name: &str) -> Vec<Effect> {
        self.fields = OptionFields::from_options(&shared.options);
        // The state's options are its own: no example's to give back.
        self.imposed.clear();
        self.compare = shared.compare.as_ref().map(|b| {
            let mut fields = OptionFields::from_options(b);
            fields.clear_args();
            Compare {
                fields,
                results: None,
                queued: None,
            }
        });
        let example = shared
            .example
            .as_deref()
            .and_then(examples::find)
            .filter(|e| shared.source.bytes() == e.wasm);
        let source = match (shared.source, example) {
            (crate::share::Source::Binary(bytes), Some(e)) => Source::Binary {
                bytes,
                name: e.wasm_file(),
                wat: Wat::Hidden,
            },
            (crate::share::Source::Binary(bytes), None) => Source::Binary {
                bytes,
                name: name.into(),
                wat: Wat::Hidden,
            },
            (crate::share::Source::Text(text), _) => Source::Text { text, file: None },
        };
        let mut effects = self.set_module(source, example, Some(shared.entry));
        // A gallery example comes back as if chosen: its text in the editor.
        if example.is_some() {
            effects.extend(self.print());
        }
        effects
    }

    /// The page's state as a share link holds it, or why it cannot be
    /// (options that do not parse).
    pub fn snapshot(&self) -> Result<Shared, String> {
        let compare = match &self.compare {
            Some(c) => Some(c.fields.parse(&[]).map_err(|e| format!("B: {e}"))?),
            None => None,
        };
        Ok(self.shared_with(self.fields.parse(self.param_names())?, compare))
    }

    /// What autosave keeps: the state with the editor's text as typed, and
    /// the default options while a field does not parse (half typed).
    pub fn work(&self) -> Shared {
        let mut work = self.snapshot().unwrap_or_else(|_| {
            let options = OptionFields::default().parse(&[]).unwrap_or_default();
            self.shared_with(options, None)
        });
        if self.editor_changed() {
            work.source = crate::share::Source::Text(self.editor.clone());
            work.example = None;
        }
        work
    }

    fn shared_with(&self, options: RunOptions, compare: Option<RunOptions>) -> Shared {
        let (source, example) = match &self.source {
            Source::Text { text, .. } => (crate::share::Source::Text(text.clone()), None),
            Source::Binary { bytes, .. } => (
                crate::share::Source::Binary(bytes.clone()),
                // An unedited example goes as its binary, with its name.
                self.example.filter(|e| e.wasm == bytes.as_slice()),
            ),
        };
        Shared {
            source,
            example: example.map(|e| e.id.to_string()),
            entry: self.entry_to_run().unwrap_or_default().to_string(),
            options,
            compare,
        }
    }

    /// The entry picked in the picker: its parameters start symbolic.
    pub fn choose_entry(&mut self, name: String) {
        self.fields.clear_args();
        self.entry = Some(name);
        self.fit_args();
    }

    /// The entry chosen, as the module lists it.
    pub fn entry_function(&self) -> Option<&ExportedFunction> {
        self.functions
            .iter()
            .find(|f| Some(&f.name) == self.entry.as_ref())
    }

    /// The names of the entry's parameters.
    fn param_names(&self) -> &[String] {
        self.entry_function().map_or(&[], |f| &f.param_names)
    }

    /// One value field per parameter of the entry.
    fn fit_args(&mut self) {
        let count = self.entry_function().map_or(0, |f| f.params.len());
        self.fields.fit_args(count);
    }

    /// Run: the editor's text first becomes the module if it changed; a
    /// module still loading runs once it is listed.
    pub fn run(&mut self) -> Vec<Effect> {
        self.stepping = false;
        self.start_or_wait()
    }

    /// Step: a run in step mode starts (as Run starts one) and shows its
    /// start; no step mode in compare mode.
    pub fn start_stepping(&mut self) -> Vec<Effect> {
        if self.compare.is_some() {
            return Vec::new();
        }
        self.stepping = true;
        self.start_or_wait()
    }

    /// Step mode's next step (`by` a branch or an instruction): the next
    /// one already taken, if Back was used; else the run takes it, if it
    /// goes on and takes no other.
    pub fn step(&mut self, by: StepBy) -> Vec<Effect> {
        let run = self.run;
        let id = self.next_id();
        let Some((results_run, steps)) = self
            .results
            .as_mut()
            .and_then(|r| Some((r.run, r.steps.as_mut()?)))
        else {
            return Vec::new();
        };
        if !steps.at_last() {
            steps.shown += 1;
            self.follow_step();
            return Vec::new();
        }
        if run != Some(results_run) || steps.waiting || steps.resumed {
            return Vec::new();
        }
        steps.waiting = true;
        vec![send(
            id,
            Request::Step {
                run: results_run,
                by,
            },
        )]
    }

    /// Step mode: the step before the one shown.
    pub fn step_back(&mut self) {
        if let Some(steps) = self.steps_mut() {
            steps.shown = steps.shown.saturating_sub(1);
        }
        self.follow_step();
    }

    /// Step mode off: the run goes on to its end.
    pub fn resume(&mut self) -> Vec<Effect> {
        let Some(run) = self.run else {
            return Vec::new();
        };
        let Some(steps) = self.steps_mut().filter(|s| !s.resumed) else {
            return Vec::new();
        };
        steps.resumed = true;
        // A step under way becomes the rest of the run.
        steps.waiting = false;
        steps.shown = steps.taken.len().saturating_sub(1);
        let id = self.next_id();
        vec![send(id, Request::Resume { run })]
    }

    /// The steps of the results shown, when they are of a run in step
    /// mode (it may have ended since).
    fn steps_mut(&mut self) -> Option<&mut Steps> {
        self.results.as_mut()?.steps.as_mut()
    }

    fn start_or_wait(&mut self) -> Vec<Effect> {
        let mut effects = self.take_editor();
        if self.busy() {
            return effects;
        }
        match self.load {
            Load::Reading(_) | Load::Loading(_) => self.run_when_loaded = true,
            Load::Failed(_) => {}
            Load::Ready => effects.extend(self.start_run()),
        }
        effects
    }

    fn start_run(&mut self) -> Option<Effect> {
        let entry = self.entry.clone()?;
        let parsed = self.fields.parse(self.param_names()).and_then(|a| {
            let b = match &self.compare {
                // B has no parameter fields: it takes A's.
                Some(compare) => Some(compare.fields.parse(&[]).map_err(|e| format!("B: {e}"))?),
                None => None,
            };
            Ok((a, b))
        });
        match parsed {
            Ok((options, b)) => {
                if let (Some(compare), Some(mut b)) = (&mut self.compare, b) {
                    // The parameters are the module's: B takes A's.
                    b.concrete_args = options.concrete_args.clone();
                    b.buffer_args = options.buffer_args.clone();
                    compare.queued = Some(b);
                    compare.results = None;
                }
                Some(self.explore(Side::A, entry, options))
            }
            Err(message) => {
                self.error = Some(message);
                self.clear_results();
                None
            }
        }
    }

    /// Starts a run whose results go to `side` (in step mode if asked, for
    /// A's single run).
    fn explore(&mut self, side: Side, entry: String, options: RunOptions) -> Effect {
        let id = self.next_id();
        self.error = None;
        self.run = Some(id);
        self.stopping = false;
        let stepping = std::mem::take(&mut self.stepping) && side == Side::A;
        if side == Side::A {
            self.results_coming(stepping, self.compare.is_some());
        }
        *self.results_of(side) = Some(Results {
            run: id,
            progress: None,
            report: None,
            replays: Rc::default(),
            steps: stepping.then(|| Steps {
                waiting: true,
                ..Steps::default()
            }),
        });
        send(
            id,
            Request::Explore {
                entry,
                options: Box::new(options),
                stepping,
            },
        )
    }

    /// The results of a side (B's exist in compare mode only).
    fn results_of(&mut self, side: Side) -> &mut Option<Results> {
        match (side, &mut self.compare) {
            (Side::B, Some(compare)) => &mut compare.results,
            _ => &mut self.results,
        }
    }

    /// The results shown for a side.
    pub fn results(&self, side: Side) -> Option<&Results> {
        match side {
            Side::A => self.results.as_ref(),
            Side::B => self.compare.as_ref()?.results.as_ref(),
        }
    }

    /// A side's results with the report they show, once there is one.
    pub fn shown(&self, side: Side) -> Option<(&Results, Rc<Report>)> {
        let results = self.results(side)?;
        Some((results, results.report_shown()?))
    }

    /// Compare mode on, with B offered as A's options with the other size
    /// mode, and both run: the one click that compares.
    pub fn compare(&mut self) -> Vec<Effect> {
        if self.compare.is_none() {
            self.compare = Some(Compare::new(&self.fields));
        }
        self.run()
    }

    /// Back to single runs, once the worker is free: B's form and results
    /// go.
    pub fn close_compare(&mut self) {
        if !self.busy() {
            self.compare = None;
            self.view.details = Side::A;
        }
    }

    /// The form of a field by element id: `b-` names B's.
    pub fn field_mut(&mut self, id: &str) -> Option<&mut String> {
        match id.strip_prefix(Side::B.prefix()) {
            Some(b) => self.compare.as_mut()?.fields.field_mut(b),
            None => self.fields.field_mut(id),
        }
    }

    /// Asks the run under way to stop; its results so far stay.
    pub fn stop(&mut self) -> Vec<Effect> {
        let Some(run) = self.run else {
            return Vec::new();
        };
        // Stop is for the whole comparison: B does not start after A.
        if let Some(compare) = &mut self.compare {
            compare.queued = None;
        }
        let id = self.next_id();
        vec![send(id, Request::Stop { run })]
    }

    /// Replays the path `path` of the results shown for `side`.
    pub fn replay(&mut self, side: Side, path: usize) -> Vec<Effect> {
        if self.busy() {
            return Vec::new();
        }
        let Some(results) = self.results_of(side) else {
            return Vec::new();
        };
        let Some(request) = results.report.as_ref().and_then(|r| {
            let p = r.paths.iter().find(|p| p.id == path)?;
            Some(Request::Replay {
                entry: r.entry.clone(),
                test: p.inputs.clone(),
                heap: r.heap.clone(),
                buffer_args: r.buffer_args.clone(),
                max_depth: r.limits.max_depth,
                max_call_depth: r.limits.max_call_depth,
                havoc_imports: r.havoc_imports,
            })
        }) else {
            return Vec::new();
        };
        Rc::make_mut(&mut results.replays).insert(path, Replay::Pending);
        let id = self.next_id();
        self.replaying = Some((id, side, path));
        vec![send(id, request)]
    }

    /// The worker was lost (it did not stop in time, or it died) and
    /// `why`: a run ends as cancelled with the report shown last, and a
    /// replay fails. Gives the message that says so.
    pub fn worker_lost(&mut self, why: &str) -> String {
        let mut message = why.to_string();
        if let Some(run) = self.run.take() {
            if let Some(compare) = &mut self.compare {
                compare.queued = None;
            }
            let side = self.side_of(run).unwrap_or(Side::A);
            let results = self.results_of(side);
            if let Some(steps) = results.as_mut().and_then(|r| r.steps.as_mut()) {
                steps.waiting = false;
            }
            match results.as_mut().and_then(|r| r.report.as_mut()) {
                Some(shown) => {
                    let report = Rc::make_mut(shown);
                    report.stop_reason = "cancelled".into();
                    message.push_str(&format!(
                        "; the results are those shown last ({} paths)",
                        report.paths.len()
                    ));
                }
                None => {
                    message.push_str("; it had shown no results yet");
                    *results = None;
                }
            }
        }
        if let Some((_, side, path)) = self.replaying.take() {
            if let Some(results) = self.results_of(side) {
                Rc::make_mut(&mut results.replays).insert(path, Replay::Failed(why.to_string()));
            }
        }
        message
    }

    /// The side whose results are those of request `id`.
    fn side_of(&self, id: u32) -> Option<Side> {
        [Side::A, Side::B]
            .into_iter()
            .find(|&side| self.results(side).is_some_and(|r| r.run == id))
    }

    /// The lost worker was replaced by a new one: it is given the module
    /// listed (and asked again for its text), so that Run goes on working.
    /// A module that was loading, or loading again, when the worker was
    /// lost is taken as the cause and not sent again.
    pub fn worker_replaced(&mut self, why: &str) -> Vec<Effect> {
        let message = self.worker_lost(&format!("{why}, so it was restarted"));
        self.error = Some(message);
        let mut effects = Vec::new();
        match &self.load {
            Load::Loading(what) => {
                let why = format!("{what}: the engine stopped while loading it ({why})");
                self.fail_load(why);
            }
            Load::Ready if self.reloading => {
                let why = format!(
                    "{}: the engine stopped while loading it again ({why})",
                    self.source.label()
                );
                self.fail_load(why);
            }
            Load::Ready => {
                let id = self.next_id();
                self.module_request = id;
                self.reloading = true;
                effects.push(self.load_request(id));
            }
            Load::Reading(_) | Load::Failed(_) => {}
        }
        if let Source::Binary { wat, .. } = &mut self.source {
            if matches!(wat, Wat::Printing(_)) {
                *wat = Wat::Hidden;
            }
        }
        if self.link_request.is_some() {
            // Taken as the cause: its decoding ended the engine.
            effects.extend(self.link_failed(format!(
                "the share link could not be opened: the engine stopped ({why})"
            )));
        }
        effects
    }

    /// An answer of the worker. Answers to requests the page has moved on
    /// from (a module left, a run replaced) change nothing.
    pub fn answer(&mut self, answer: Envelope<Response>) -> Vec<Effect> {
        let Envelope { id, body } = answer;
        match body {
            // The page takes `Ready` itself, before the state sees it.
            Response::Ready => {}
            Response::Loaded {
                functions,
                default_entry,
                cannot_run,
                lines,
            } if id == self.module_request => {
                if std::mem::take(&mut self.reloading) {
                    // The same module again, for a new worker.
                    return Vec::new();
                }
                if matches!(self.load, Load::Loading(_)) {
                    // Said at once, not when Run is pressed (and a run
                    // waiting for the module does not start).
                    if cannot_run.is_some() {
                        self.run_when_loaded = false;
                    }
                    self.lines = lines;
                    let effects = self.listed(functions, default_entry);
                    if let Some(why) = &cannot_run {
                        self.error = Some(format!("this module cannot be explored: {why}"));
                    }
                    self.cannot_explore = cannot_run;
                    return effects;
                }
            }
            Response::Disassembly { lines } if id == self.module_request => {
                self.disassembly = Rc::new(lines);
            }
            Response::Printed { text } => {
                if let Source::Binary { wat, .. } = &mut self.source {
                    if *wat == Wat::Printing(id) {
                        self.editor = text.clone();
                        *wat = Wat::Shown(text);
                    }
                }
            }
            Response::Progress {
                paths,
                pending,
                merging,
                queries,
                instructions,
                elapsed_ms,
            } => {
                if let Some(results) = self.results_of_run(id) {
                    results.progress = Some(Progress {
                        paths,
                        pending,
                        merging,
                        queries,
                        instructions,
                        elapsed_ms,
                    });
                }
            }
            Response::Snapshot { report } => {
                if let Some(results) = self.results_of_run(id) {
                    let first = results.report.is_none();
                    results.report = Some(Rc::from(report));
                    self.first_report(id, first);
                }
            }
            Response::Stepped { step, report } => {
                if let Some(results) = self.results_of_run(id) {
                    // A step that only ran on changed no report.
                    if let Some(report) = report {
                        results.report = Some(Rc::from(report));
                    }
                    if let (Some(steps), Some(report)) = (&mut results.steps, &results.report) {
                        steps.add(TakenStep {
                            step: *step,
                            report: Rc::clone(report),
                        });
                        // The run's first step brings its pane into view.
                        let first = steps.taken.len() == 1;
                        self.scroll_mut().step_pane |= first;
                    }
                    self.follow_step();
                }
            }
            Response::Stopping => {
                self.stopping = self.run == Some(id);
            }
            Response::Finished { report } => {
                let bugs = report.paths.iter().any(|p| p.is_bug());
                if let Some(results) = self.results_of_run(id) {
                    let first = results.report.is_none();
                    results.report = Some(Rc::from(report));
                    self.first_report(id, first);
                    let results = self
                        .results_of_run(id)
                        .expect("the run's results, as above");
                    // A step asked for will not come: the run is over.
                    if let Some(steps) = &mut results.steps {
                        steps.waiting = false;
                    }
                    self.run = None;
                    self.results_ended(bugs);
                    return self.start_queued().into_iter().collect();
                }
            }
            Response::Replayed { path, trace } => {
                self.replayed(id, Replay::Done { path, trace });
            }
            Response::Link { shared } if self.link_request == Some(id) => {
                self.link_request = None;
                return self.open_link(*shared);
            }
            Response::Error { message } if self.link_request == Some(id) => {
                return self.link_failed(message);
            }
            Response::Error { message } => self.failed(id, message),
            Response::Loaded { .. } | Response::Disassembly { .. } | Response::Link { .. } => {}
        }
        Vec::new()
    }

    /// The module's functions are listed: the entry is the one wanted if
    /// it is there (with its type, where that matters), else the default.
    fn listed(
        &mut self,
        functions: Vec<ExportedFunction>,
        default_entry: Result<String, String>,
    ) -> Vec<Effect> {
        self.load = Load::Ready;
        let wanted = self.wanted.take().filter(|w| {
            functions.iter().any(|f| {
                f.name == w.entry && w.signature.as_ref().is_none_or(|s| *s == f.signature)
            })
        });
        self.functions = functions;
        let keep_args = wanted.is_some();
        self.entry = match wanted {
            Some(w) => Some(w.entry),
            None => default_entry.as_ref().ok().cloned(),
        };
        if !keep_args {
            self.fields.clear_args();
        }
        self.fit_args();
        self.no_entry = None;
        match default_entry {
            Err(why) if self.entry.is_none() && self.functions.is_empty() => {
                self.error = Some(why);
            }
            Err(why) if self.entry.is_none() => {
                self.no_entry = Some(format!("{why}: choose one to explore it"));
            }
            _ => {}
        }
        // An edited example that no longer has the example's function is
        // another module: its C source is not this module's.
        if let (Some(e), Source::Text { .. }) = (self.example, &self.source) {
            if !self.functions.iter().any(|f| f.name == e.entry) {
                self.example = None;
            }
        }
        if std::mem::take(&mut self.run_when_loaded) {
            return self.start_run().into_iter().collect();
        }
        Vec::new()
    }

    /// The module does not load: nothing of it can run.
    fn fail_load(&mut self, why: String) {
        self.load = Load::Failed(why);
        self.reloading = false;
        self.run_when_loaded = false;
        self.functions.clear();
        self.entry = None;
        self.disassembly = Rc::default();
        self.clear_results();
    }

    /// No results stay on screen under an error: they would be taken for
    /// the module or options that failed.
    fn clear_results(&mut self) {
        self.results = None;
        if let Some(compare) = &mut self.compare {
            compare.results = None;
        }
    }

    /// The results of the run under way, if `id` is its request.
    fn results_of_run(&mut self, id: u32) -> Option<&mut Results> {
        if self.run != Some(id) {
            return None;
        }
        let side = self.side_of(id)?;
        self.results_of(side).as_mut()
    }

    /// The results of run `id` have their first report (`first`): A's
    /// come into view (below the input, on a phone).
    fn first_report(&mut self, id: u32, first: bool) {
        if first && self.side_of(id) == Some(Side::A) {
            self.scroll_mut().results = true;
        }
    }

    /// B's run, once A's has ended, in compare mode.
    fn start_queued(&mut self) -> Option<Effect> {
        let options = self.compare.as_mut()?.queued.take()?;
        let entry = self.results.as_ref()?.report.as_ref()?.entry.clone();
        Some(self.explore(Side::B, entry, options))
    }

    /// The replay of request `id` ended so.
    fn replayed(&mut self, id: u32, replay: Replay) {
        let Some((_, side, path)) = self.replaying.filter(|(r, _, _)| *r == id) else {
            return;
        };
        self.replaying = None;
        if let Some(results) = self.results_of(side) {
            Rc::make_mut(&mut results.replays).insert(path, replay);
        }
    }

    /// An error answer: it goes with the request it answers.
    fn failed(&mut self, id: u32, message: String) {
        if id == self.module_request && (self.reloading || matches!(self.load, Load::Loading(_))) {
            let message = match &self.source {
                Source::Text {
                    file: Some(name), ..
                }
                | Source::Binary { name, .. } => {
                    format!("{name}: {message}")
                }
                Source::Text { file: None, .. } => message,
            };
            self.fail_load(message);
            return;
        }
        if let Source::Binary { wat, .. } = &mut self.source {
            if *wat == Wat::Printing(id) {
                *wat = Wat::Hidden;
                self.error = Some(format!("the module cannot be shown as text: {message}"));
                return;
            }
        }
        if self.run == Some(id) {
            self.run = None;
            let side = self.side_of(id).unwrap_or(Side::A);
            *self.results_of(side) = None;
            if let Some(compare) = &mut self.compare {
                compare.queued = None;
            }
            self.error = Some(match (side, &self.compare) {
                (Side::B, Some(_)) => format!("B: {message}"),
                _ => message,
            });
        } else if self.replaying.is_some_and(|(r, _, _)| r == id) {
            self.replayed(id, Replay::Failed(message));
        } else if id == 0 {
            // Unnumbered: the worker could not read a request.
            self.error = Some(message);
        }
    }
}

mod saving;
#[cfg(test)]
mod tests;
mod view;
