//! The page's state driven against the worker's session, as the page and
//! the worker move messages between them: each journey checks the entry
//! shown, the entry run, the paths found and what is left on screen.

use super::*;
use crate::run_options::RunOptions;
use crate::share;
use crate::worker::session::Session;
use std::time::Duration;

const GET_SIGN: &str = r#"(module (func (export "get_sign") (param i32) (result i32)
  (if (i32.eqz (local.get 0)) (then (return (i32.const 0))))
  (if (i32.lt_s (local.get 0) (i32.const 0)) (then (return (i32.const -1))))
  (i32.const 1)))"#;

const PASTED: &str = r#"(module (func (export "pasted_fn") (param $x i32) (result i32)
  (if (result i32) (i32.gt_s (local.get $x) (i32.const 10))
    (then (i32.const 1)) (else (i32.const 0)))))"#;

/// Counts up to a symbolic bound: a new path every iteration, never done.
const ENDLESS: &str = r#"(module (func (export "endless") (param i32) (local i32)
  (loop (br_if 0 (i32.ne (local.get 0) (local.tee 1 (i32.add (local.get 1) (i32.const 1))))))))"#;

const CLAMP: &[u8] = include_bytes!("../../../../tests/data/clamp.wasm");

/// The page's state and a worker, with the messages between them.
struct Page {
    state: PageState,
    worker: Session,
    /// Answers the worker has sent that the page has not read yet.
    inbox: Vec<Envelope<Response>>,
    replaced: usize,
}

impl Page {
    /// A page with no module yet.
    fn blank() -> Page {
        Page {
            state: PageState::default(),
            worker: Session::default(),
            inbox: Vec::new(),
            replaced: 0,
        }
    }

    fn new() -> Page {
        let mut page = Page::blank();
        page.state.type_text(GET_SIGN.into());
        let effects = page.state.take_editor();
        page.apply(effects);
        page.settle();
        page
    }

    /// Carries out effects: requests go to the worker at once (it answers
    /// in order), answers wait in the inbox.
    fn apply(&mut self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Send(Envelope { id, body }) => {
                    let answers = self.worker.handle(id, body);
                    self.inbox.extend(answers);
                }
                Effect::ReplaceWorker => {
                    self.worker = Session::default();
                    self.inbox.clear();
                    self.replaced += 1;
                }
            }
        }
    }

    /// Delivers the answers waiting, and those they lead to.
    fn deliver(&mut self) {
        while !self.inbox.is_empty() {
            for answer in std::mem::take(&mut self.inbox) {
                let effects = self.state.answer(answer);
                self.apply(effects);
            }
        }
    }

    /// Delivers answers and lets a run go on until it ends.
    fn settle(&mut self) {
        for _ in 0..10_000 {
            self.deliver();
            if !self.worker.busy() {
                return;
            }
            let answers = self.worker.work(Duration::from_millis(1));
            self.inbox.extend(answers);
        }
        panic!("the run did not end");
    }

    /// Some steps of a run, delivered.
    fn steps(&mut self, n: usize) {
        for _ in 0..n {
            let answers = self.worker.work(Duration::from_millis(1));
            self.inbox.extend(answers);
            self.deliver();
        }
    }

    fn act(&mut self, effects: Vec<Effect>) {
        self.apply(effects);
        self.deliver();
    }

    /// A file chosen and read.
    fn upload(&mut self, name: &str, bytes: Vec<u8>) {
        let (read, effects) = self.state.reading_file(name, bytes.len() as f64);
        self.act(effects);
        let effects = self.state.file_read(read, name.into(), bytes);
        self.act(effects);
    }

    fn paste(&mut self, text: &str) {
        self.state.type_text(text.into());
        let effects = self.state.take_editor();
        self.act(effects);
    }

    fn run(&mut self) {
        let effects = self.state.run();
        self.act(effects);
        self.settle();
    }

    fn entry(&self) -> Option<&str> {
        self.state.entry.as_deref()
    }

    /// The report shown: its entry and path count.
    fn shown(&self) -> Option<(String, usize, String)> {
        let report = self.state.results.as_ref()?.report.as_ref()?;
        Some((
            report.entry.clone(),
            report.paths.len(),
            report.stop_reason.clone(),
        ))
    }
}

fn shown(entry: &str, paths: usize) -> Option<(String, usize, String)> {
    Some((entry.into(), paths, "completed".into()))
}

#[test]
fn run_right_after_a_paste_explores_the_pasted_function() {
    let mut page = Page::new();
    assert_eq!(page.entry(), Some("get_sign"));
    page.run();
    assert_eq!(page.shown(), shown("get_sign", 3));
    // The paste is typed text until Run takes it: no blur, no waiting.
    page.state.type_text(PASTED.into());
    assert!(page.state.editor_changed());
    let effects = page.state.run();
    // Run loads the text first and runs once it is listed.
    assert!(matches!(
        &effects[..],
        [Effect::Send(Envelope {
            body: Request::Load { .. },
            ..
        })]
    ));
    assert_eq!(page.state.results.as_ref().map(|r| r.run), None);
    page.act(effects);
    page.settle();
    assert_eq!(page.entry(), Some("pasted_fn"));
    assert_eq!(page.shown(), shown("pasted_fn", 2));
    assert_eq!(page.state.error, None);
}

#[test]
fn pasted_base64_of_a_clang_module_picks_its_function() {
    let mut page = Page::new();
    use base64::Engine;
    page.paste(&base64::engine::general_purpose::STANDARD.encode(CLAMP));
    assert!(
        matches!(&page.state.source, Source::Binary { name, wat: Wat::Hidden, .. } if name == "pasted module")
    );
    let names: Vec<&str> = page
        .state
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(names, ["__wasm_call_ctors", "clamp"]);
    assert_eq!(page.entry(), Some("clamp"));
    assert_eq!(page.state.fields.args.len(), 3);
    page.run();
    assert_eq!(page.shown(), shown("clamp", 3));
}

/// Base64 or hex cut anywhere (a copy that missed its end) is said to be a
/// module cut short, never text that is not WAT.
#[test]
fn a_cut_paste_says_the_module_is_cut_short() {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(CLAMP);
    let hex: String = CLAMP.iter().map(|b| format!("{b:02x}")).collect();
    for text in [&b64, &hex] {
        for cut in (0..4).map(|k| text.len() / 2 + k) {
            let mut page = Page::new();
            page.paste(&text[..cut]);
            let Load::Failed(why) = &page.state.load else {
                panic!("{cut}: {:?}", page.state.load);
            };
            assert!(
                why.starts_with("pasted module: the module is cut short"),
                "{cut}: {why}"
            );
        }
    }
}

#[test]
fn the_entry_and_its_values_stay_while_the_module_keeps_them() {
    let mut page = Page::new();
    page.state.fields.args[0] = "5".into();
    // The same function, edited: entry and value stay.
    page.paste(&GET_SIGN.replace("(i32.const 1)))", "(i32.const 2)))"));
    assert_eq!(page.entry(), Some("get_sign"));
    assert_eq!(page.state.fields.args, ["5"]);
    page.run();
    assert_eq!(page.shown(), shown("get_sign", 1));
    // Another type: the default entry (the same name) with its values cleared.
    page.paste(r#"(module (func (export "get_sign") (param i64 i64)))"#);
    assert_eq!(page.entry(), Some("get_sign"));
    assert_eq!(page.state.fields.args, ["", ""]);
    assert!(page.state.results.is_none());
    // A module without it: its own default.
    page.paste(PASTED);
    assert_eq!(page.entry(), Some("pasted_fn"));
    // A picked entry is kept by the next module that has it.
    page.paste(r#"(module (func (export "a")) (func (export "b") (param i32)))"#);
    assert_eq!(page.entry(), Some("a"));
    page.state.choose_entry("b".into());
    assert_eq!(page.state.fields.args, [""]);
    page.paste(
        r#"(module (func (export "a")) (func (export "b") (param i32)) (func (export "c")))"#,
    );
    assert_eq!(page.entry(), Some("b"));
    // A file read anew (a rebuilt module) keeps the entry picked.
    let divide = include_bytes!("../../../../static/examples/c/divide.wasm");
    page.upload("divide.wasm", divide.to_vec());
    assert_eq!(page.entry(), Some("divide"));
    page.state.choose_entry("remainder_of".into());
    page.state.fields.args[1] = "3".into();
    let (read, effects) = page.state.reading_file("divide.wasm", 693.0);
    page.act(effects);
    assert_eq!(page.entry(), None);
    let effects = page
        .state
        .file_read(read, "divide.wasm".into(), divide.to_vec());
    page.act(effects);
    assert_eq!(page.entry(), Some("remainder_of"));
    assert_eq!(page.state.fields.args, ["", "3"]);
}

#[test]
fn a_module_changed_during_a_run_replaces_the_busy_worker_and_clears_the_run() {
    let mut page = Page::new();
    page.paste(ENDLESS);
    let effects = page.state.run();
    page.act(effects);
    page.steps(20);
    assert!(page.state.busy());
    let running = page.state.results.as_ref().unwrap();
    assert!(running.progress.as_ref().unwrap().paths > 0);
    // What the old worker would still send, had it not been replaced: its
    // progress and its tree so far.
    let mut late = Vec::new();
    while !late
        .iter()
        .any(|a: &Envelope<Response>| matches!(a.body, Response::Snapshot { .. }))
    {
        late.extend(page.worker.work(Duration::from_millis(1)));
    }
    let effects = page.state.choose_example("sign");
    assert_eq!(effects[0], Effect::ReplaceWorker);
    assert!(page.state.results.is_none() && !page.state.busy());
    assert_eq!(
        page.state.load,
        Load::Loading("get_sign.wasm (0.7 kB)".into())
    );
    page.act(effects);
    assert!(page.state.results.is_none());
    assert_eq!(page.entry(), Some("get_sign"));
    // A run of the new module starts; the old run's answers come late.
    let effects = page.state.run();
    page.act(effects);
    for answer in late {
        assert!(page.state.answer(answer).is_empty());
    }
    let results = page.state.results.as_ref().unwrap();
    assert!(results.report.is_none());
    assert_eq!(results.progress.as_ref().map(|p| p.paths), Some(0));
    assert!(
        matches!(&page.state.source, Source::Binary { wat: Wat::Shown(text), .. } if text.contains("(export \"get_sign\""))
    );
    assert_eq!(
        page.state.editor,
        match &page.state.source {
            Source::Binary {
                wat: Wat::Shown(text),
                ..
            } => text.clone(),
            _ => unreachable!(),
        }
    );
    assert_eq!(page.state.example.map(|e| e.id), Some("sign"));
    assert!(page
        .state
        .disassembly
        .iter()
        .any(|l| l.text.contains("get_sign")));
    page.settle();
    assert_eq!(page.shown(), shown("get_sign", 3));
    assert_eq!(page.replaced, 1);
    // A module changed when nothing runs keeps the worker.
    let effects = page.state.choose_example("division");
    assert!(!effects.contains(&Effect::ReplaceWorker));
}

#[test]
fn a_module_that_does_not_load_clears_the_run_and_leaves_nothing_to_run() {
    let mut page = Page::new();
    page.run();
    page.paste(r#"(module (func (export "f") (result i32) (i64.const 1)))"#);
    assert!(
        matches!(&page.state.load, Load::Failed(m) if m.starts_with("invalid module: type mismatch"))
    );
    assert!(page.state.results.is_none() && page.state.functions.is_empty());
    assert_eq!(page.entry(), None);
    assert!(page.state.disassembly.is_empty());
    assert!(!page.state.can_run());
    // Run does nothing then.
    assert!(page.state.run().is_empty());
    // A C file: named, with what to do.
    let (read, effects) = page.state.reading_file("divide.c", 200.0);
    page.act(effects);
    assert_eq!(page.state.load, Load::Reading("divide.c (0.2 kB)".into()));
    let source = include_bytes!("../../../../static/examples/c/divide.c").to_vec();
    let effects = page.state.file_read(read, "divide.c".into(), source);
    page.act(effects);
    assert!(
        matches!(&page.state.load, Load::Failed(m) if m.starts_with("divide.c: this is C source, not a WebAssembly module: compile it to .wasm first")),
        "{:?}",
        page.state.load
    );
    assert_eq!(
        page.state.editor,
        include_str!("../../../../static/examples/c/divide.c")
    );
}

#[test]
fn no_function_or_only_helpers_say_so() {
    let mut page = Page::new();
    page.paste(r#"(module (memory (export "memory") 1))"#);
    assert_eq!(page.state.load, Load::Ready);
    assert_eq!(
        page.state.error.as_deref(),
        Some("the module exports no function to explore (it exports memory `memory`)")
    );
    assert!(!page.state.can_run());
    page.paste(r#"(module (func (export "__wasm_call_ctors")) (func (export "_initialize")))"#);
    assert_eq!(page.state.error, None);
    assert_eq!(
        page.state.no_entry.as_deref(),
        Some("the module exports only runtime helpers (__wasm_call_ctors, _initialize), no function of the program: choose one to explore it")
    );
    assert_eq!(page.entry(), None);
    assert!(!page.state.can_run());
    page.state.choose_entry("_initialize".into());
    assert!(page.state.can_run());
    page.run();
    assert_eq!(page.shown(), shown("_initialize", 1));
}

#[test]
fn files_come_in_as_binary_text_or_base64() {
    let mut page = Page::new();
    page.upload("clamp.wasm", CLAMP.to_vec());
    assert_eq!(page.entry(), Some("clamp"));
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(CLAMP);
    page.upload("clamp.txt", b64.into_bytes());
    assert!(
        matches!(&page.state.source, Source::Binary { name, bytes, .. } if name == "clamp.txt" && bytes == CLAMP)
    );
    page.upload("mine.wat", PASTED.as_bytes().to_vec());
    assert_eq!(page.state.editor, PASTED);
    assert_eq!(page.entry(), Some("pasted_fn"));
    page.run();
    assert_eq!(page.shown(), shown("pasted_fn", 2));
}

#[test]
fn edit_text_instead_shows_the_binary_as_text_and_changes_nothing_else() {
    let mut page = Page::new();
    let password = include_bytes!("../../../../static/examples/c/password.wasm");
    page.upload("password.wasm", password.to_vec());
    page.run();
    assert_eq!(page.shown(), shown("check_password", 9));
    let effects = page.state.edit_as_text();
    assert!(matches!(
        &effects[..],
        [Effect::Send(Envelope {
            body: Request::Print { .. },
            ..
        })]
    ));
    page.act(effects);
    assert!(page.state.editor.contains("(export \"check_password\""));
    assert!(!page.state.editor_changed());
    assert!(matches!(
        &page.state.source,
        Source::Binary {
            wat: Wat::Shown(_),
            ..
        }
    ));
    // The module is the same binary: entry and results stay.
    assert_eq!(page.entry(), Some("check_password"));
    assert_eq!(page.shown(), shown("check_password", 9));
    // Edited, it becomes text.
    page.state
        .type_text(format!("{}\n;; edited", page.state.editor));
    let effects = page.state.run();
    page.act(effects);
    page.settle();
    assert!(matches!(page.state.source, Source::Text { .. }));
    assert_eq!(page.shown(), shown("check_password", 9));
}

#[test]
fn a_pasted_module_over_an_example_drops_the_example_but_an_edit_keeps_it() {
    let mut page = Page::new();
    let effects = page.state.choose_example("sign");
    page.act(effects);
    assert_eq!(page.state.example.map(|e| e.id), Some("sign"));
    let edited = format!("{}\n;; edited", page.state.editor);
    page.paste(&edited);
    assert_eq!(page.state.example.map(|e| e.id), Some("sign"));
    page.paste(PASTED);
    assert!(page.state.example.is_none());
}

/// The C lines a load request carries over: from which binary, if any.
fn lines_from(effects: &[Effect]) -> Option<&[u8]> {
    match effects {
        [Effect::Send(Envelope {
            body: Request::Load { lines_from, .. },
            ..
        }), ..] => lines_from.as_deref(),
        other => panic!("no load: {other:?}"),
    }
}

#[test]
fn an_edited_example_keeps_the_c_lines_of_its_unchanged_functions_and_names_the_others() {
    let mut page = Page::new();
    let example = examples::find("dangling-pointer").unwrap();
    let effects = page.state.choose_example(example.id);
    // The binary runs as it is: it has its lines.
    assert!(lines_from(&effects).is_none());
    page.act(effects);
    let printed = page.state.editor.clone();
    assert_eq!(page.state.lines_gone(), None);
    // One function edited: the text goes with the example's binary.
    let edited = examples::edited_dangling_pointer();
    page.state.type_text(edited.clone());
    let effects = page.state.take_editor();
    assert!(lines_from(&effects) == Some(example.wasm));
    page.act(effects);
    assert_eq!(page.state.example.map(|e| e.id), Some(example.id));
    assert_eq!(
        page.state.lines_gone().as_deref(),
        Some("C lines are gone for spell (its code was edited); the other functions keep theirs")
    );
    page.run();
    let report = page.state.results.as_ref().unwrap().report.clone().unwrap();
    assert!(report.paths.iter().any(|p| {
        p.location.function == "first_letter"
            && p.location.source.as_ref().map(|s| s.file.as_str()) == Some(example.c_file)
    }));
    // A comment changes no function: every line is kept.
    page.paste(&format!("{printed}\n;; a note"));
    assert_eq!(page.state.lines_gone(), None);
    assert_eq!(page.state.example.map(|e| e.id), Some(example.id));
    // Another module (without the example's entry) is not the example.
    page.paste(PASTED);
    assert!(page.state.example.is_none());
    assert_eq!(page.state.lines_gone(), None);
}

#[test]
fn lines_gone_names_the_functions_or_says_that_all_are_gone() {
    let mut state = PageState::default();
    let carried = |kept: &[&str], lost: &[&str]| {
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
        Some(CarriedLines {
            kept: names(kept),
            lost: names(lost),
        })
    };
    state.lines = carried(&["main"], &["parse", "scan"]);
    // Said of an example only: another module has no C source shown.
    assert_eq!(state.lines_gone(), None);
    state.example = examples::find("parser");
    assert_eq!(
        state.lines_gone().as_deref(),
        Some("C lines are gone for parse, scan (their code was edited); the other functions keep theirs")
    );
    state.lines = carried(&[], &["parse"]);
    assert_eq!(
        state.lines_gone().as_deref(),
        Some("C lines are gone: the code of every function was edited, so no C line is marked")
    );
    state.lines = carried(&["parse"], &[]);
    assert_eq!(state.lines_gone(), None);
}

#[test]
fn a_share_link_opens_its_module_entry_and_values_and_runs() {
    let mut page = Page::new();
    let link = share::Shared {
        source: crate::share::Source::Text(PASTED.into()),
        example: None,
        entry: "pasted_fn".into(),
        options: RunOptions {
            search: "bfs".into(),
            concrete_args: vec![Some(42)],
            ..RunOptions::default()
        },
        compare: None,
    };
    let effects = page.state.open_link(link);
    page.act(effects);
    page.settle();
    assert_eq!(page.shown(), shown("pasted_fn", 1));
    assert_eq!(page.state.fields.args, ["42"]);
    assert_eq!(page.state.fields.search, "bfs");
    // A link naming an example but carrying another module is that module.
    let sign = examples::find("sign").unwrap();
    let mismatched = share::Shared {
        source: crate::share::Source::Binary(CLAMP.to_vec()),
        example: Some(sign.id.into()),
        entry: "get_sign".into(),
        options: RunOptions {
            search: "dfs".into(),
            ..RunOptions::default()
        },
        compare: None,
    };
    let effects = page.state.open_link(mismatched);
    page.act(effects);
    page.settle();
    assert!(page.state.example.is_none());
    assert_eq!(page.shown(), shown("clamp", 3));
}

#[test]
fn a_link_is_decoded_by_the_worker_and_a_bad_one_keeps_the_module_shown() {
    let link = share::Shared {
        source: crate::share::Source::Text(PASTED.into()),
        example: None,
        entry: "pasted_fn".into(),
        options: RunOptions {
            search: "dfs".into(),
            ..RunOptions::default()
        },
        compare: None,
    };
    let fragment = format!("#{}", share::encode(&link).unwrap());
    // A page opened on the link asks the worker, and shows that it waits.
    let mut page = Page::blank();
    let effects = page.state.start(&fragment, None);
    assert!(
        matches!(
            &effects[..],
            [Effect::Send(Envelope {
                body: Request::OpenLink { .. },
                ..
            })]
        ),
        "{effects:?}"
    );
    assert!(matches!(&page.state.load, Load::Reading(what) if what.starts_with("the share link")));
    page.act(effects);
    page.settle();
    assert_eq!(page.shown(), shown("pasted_fn", 2));
    assert_eq!(page.state.editor, PASTED);
    // A damaged link opened on this page: named, and the module stays.
    let effects = page.state.open_fragment("#share=AAAAAAAA");
    page.act(effects);
    assert_eq!(page.entry(), Some("pasted_fn"));
    assert_eq!(page.shown(), shown("pasted_fn", 2));
    assert!(
        matches!(&page.state.share, Some(Err(m)) if m.contains("damaged: its data ends or changes where it should not")),
        "{:?}",
        page.state.share
    );
    // A page opened on a damaged link gets the first module.
    let mut fresh = Page::blank();
    let effects = fresh.state.start("#share=AAAAAAAA", None);
    fresh.act(effects);
    assert_eq!(fresh.entry(), Some("get_sign"));
    assert!(matches!(&fresh.state.share, Some(Err(_))));
    // With work saved in the browser, that work instead.
    let mut saved = Page::blank();
    let effects = saved.state.start("#share=AAAAAAAA", Some(link.clone()));
    saved.act(effects);
    assert_eq!(saved.state.editor, PASTED);
    assert_eq!(saved.shown(), None);
    // A change made while a link is decoded: the link is not opened over it.
    let effects = saved.state.open_fragment(&fragment);
    saved.apply(effects);
    saved.state.cancel_link();
    saved.settle();
    assert_eq!(saved.shown(), None);
    // A module chosen while a link is decoded is not replaced by it.
    let effects = page.state.open_fragment(&fragment);
    page.apply(effects);
    page.paste(GET_SIGN);
    page.settle();
    assert_eq!(page.entry(), Some("get_sign"));
    assert_eq!(page.state.editor, GET_SIGN);
}

#[test]
fn the_work_saved_comes_back_as_it_was_typed_without_running() {
    let mut page = Page::new();
    page.state.fields.search = "bfs".into();
    // Typed, not yet taken as the module.
    page.state.type_text(PASTED.into());
    let work = page.state.work();
    assert_eq!(work.source, crate::share::Source::Text(PASTED.into()));
    assert_eq!(work.options.search, "bfs");
    // Kept as the JSON of a link, read back into a new page.
    let saved = share::from_json(share::to_json(&work).unwrap().as_bytes()).unwrap();
    let mut again = Page::blank();
    let effects = again.state.start("", Some(saved));
    again.act(effects);
    assert_eq!(again.state.editor, PASTED);
    assert_eq!(again.entry(), Some("pasted_fn"));
    assert_eq!(again.state.fields.search, "bfs");
    assert_eq!(
        again.shown(),
        None,
        "a restored page runs nothing by itself"
    );
    // A field half typed is not saved; the module still is.
    again.state.fields.seed = "12x".into();
    let work = again.state.work();
    assert_eq!(work.source, crate::share::Source::Text(PASTED.into()));
    assert_eq!(work.options.seed, 0);
    // An example comes back as the example, with its C source.
    let effects = again.state.choose_example("sign");
    again.act(effects);
    let saved = again.state.work();
    assert_eq!(saved.example.as_deref(), Some("sign"));
    let mut third = Page::blank();
    let effects = third.state.start("", Some(saved));
    third.act(effects);
    assert_eq!(third.state.example.map(|e| e.id), Some("sign"));
    assert_eq!(third.entry(), Some("get_sign"));
    // A link in the address bar wins over the work saved.
    let link = format!("#{}", share::encode(&work).unwrap());
    let mut linked = Page::blank();
    let effects = linked.state.start(&link, Some(third.state.work()));
    linked.act(effects);
    linked.settle();
    assert_eq!(linked.shown(), shown("pasted_fn", 2));
}

#[test]
fn stop_keeps_the_results_and_a_replaced_worker_gets_the_module_again() {
    let mut page = Page::new();
    page.paste(ENDLESS);
    let effects = page.state.run();
    page.act(effects);
    page.steps(10);
    let effects = page.state.stop();
    page.act(effects);
    // The worker takes Stop at once: the page waits for its report.
    assert!(page.state.stopping);
    page.settle();
    let (entry, paths, reason) = page.shown().unwrap();
    assert_eq!((entry.as_str(), reason.as_str()), ("endless", "cancelled"));
    assert!(paths > 0);
    // A run whose worker is replaced (it did not take Stop in time).
    let effects = page.state.run();
    page.act(effects);
    // Until the tree so far is shown.
    while page.shown().is_none() {
        page.steps(1);
    }
    page.worker = Session::default();
    page.inbox.clear();
    let effects = page
        .state
        .worker_replaced("the engine did not stop within 1 s");
    assert!(matches!(
        &effects[..],
        [Effect::Send(Envelope {
            body: Request::Load { .. },
            ..
        })]
    ));
    page.act(effects);
    assert!(page.state.error.as_deref().is_some_and(|e| e.starts_with(
        "the engine did not stop within 1 s, so it was restarted; the results are those shown last"
    )));
    assert_eq!(page.shown().map(|s| s.2), Some("cancelled".into()));
    assert_eq!(page.entry(), Some("endless"));
    // Run works at once on the new worker: the module was sent again.
    page.state.fields.max_paths = "3".into();
    let effects = page.state.run();
    page.act(effects);
    page.settle();
    assert_eq!(
        page.shown(),
        Some(("endless".into(), 3, "path limit".into()))
    );
}

#[test]
fn a_bug_replays_and_a_late_replay_answer_is_dropped() {
    let mut page = Page::new();
    let divide = include_bytes!("../../../../static/examples/c/divide.wasm");
    page.upload("divide.wasm", divide.to_vec());
    page.run();
    let report = page.state.results.as_ref().unwrap().report.clone().unwrap();
    let bug = report.paths.iter().find(|p| p.trap.is_some()).unwrap();
    let effects = page.state.replay(Side::A, bug.id);
    assert!(page.state.busy());
    page.act(effects);
    let replays = &page.state.results.as_ref().unwrap().replays;
    assert!(
        matches!(replays.get(&bug.id), Some(Replay::Done { path, .. }) if path.trap == bug.trap)
    );
    // A replay under way when the module changes: its answer comes late,
    // while a replay of the new module's path waits for its own.
    let effects = page.state.replay(Side::A, bug.id);
    page.apply(effects);
    let late = std::mem::take(&mut page.inbox);
    let effects = page.state.choose_example("sign");
    assert_eq!(effects[0], Effect::ReplaceWorker);
    page.act(effects);
    page.run();
    let effects = page.state.replay(Side::A, bug.id);
    page.apply(effects);
    let own = std::mem::take(&mut page.inbox);
    for answer in late {
        page.state.answer(answer);
    }
    let replays = &page.state.results.as_ref().unwrap().replays;
    assert!(matches!(replays.get(&bug.id), Some(Replay::Pending)));
    assert!(page.state.busy());
    for answer in own {
        page.state.answer(answer);
    }
    let replays = &page.state.results.as_ref().unwrap().replays;
    assert!(matches!(replays.get(&bug.id), Some(Replay::Done { path, .. }) if path.trap.is_none()));
    assert!(!page.state.busy());
}

#[test]
fn answers_about_the_module_before_a_file_do_not_count() {
    let mut page = Page::new();
    // A module sent to the worker, then a file chosen before its answer.
    page.state.type_text(PASTED.into());
    let effects = page.state.take_editor();
    page.apply(effects);
    let (read, effects) = page.state.reading_file("clamp.wasm", 516.0);
    page.act(effects);
    assert_eq!(page.state.load, Load::Reading("clamp.wasm (0.5 kB)".into()));
    assert!(page.state.functions.is_empty() && page.state.disassembly.is_empty());
    // Run waits for the file, not for the module before.
    assert!(page.state.run().is_empty());
    let effects = page
        .state
        .file_read(read, "clamp.wasm".into(), CLAMP.to_vec());
    page.act(effects);
    page.settle();
    assert_eq!(page.shown(), shown("clamp", 3));
    // Of two files chosen in a row, the second is the module, whichever is
    // read first.
    let (first, _) = page.state.reading_file("get_sign.wasm", 675.0);
    let (second, _) = page.state.reading_file("clamp.wasm", 516.0);
    let effects = page
        .state
        .file_read(second, "clamp.wasm".into(), CLAMP.to_vec());
    page.act(effects);
    let sign = include_bytes!("../../../../static/examples/c/get_sign.wasm");
    assert!(page
        .state
        .file_read(first, "get_sign.wasm".into(), sign.to_vec())
        .is_empty());
    assert!(page
        .state
        .file_failed(first, "cannot read".into())
        .is_empty());
    assert_eq!(page.entry(), Some("clamp"));
    // A file that cannot be read: the module before it comes back.
    let (read, effects) = page.state.reading_file("gone.wasm", 10.0);
    page.act(effects);
    let effects = page
        .state
        .file_failed(read, "cannot read gone.wasm: NotFoundError".into());
    page.act(effects);
    assert_eq!(page.entry(), Some("clamp"));
    assert_eq!(
        page.state.error.as_deref(),
        Some("cannot read gone.wasm: NotFoundError")
    );
}

#[test]
fn a_worker_lost_while_loading_fails_the_module_instead_of_loading_it_again() {
    let mut page = Page::new();
    // The worker dies while it loads the module (out of memory, say).
    page.state.type_text(PASTED.into());
    let effects = page.state.take_editor();
    page.apply(effects);
    page.worker = Session::default();
    page.inbox.clear();
    let effects = page
        .state
        .worker_replaced("the engine stopped: out of memory");
    assert!(effects.is_empty());
    assert!(
        matches!(&page.state.load, Load::Failed(m) if m == "the module (0.2 kB): the engine stopped while loading it (the engine stopped: out of memory)"),
        "{:?}",
        page.state.load
    );
    assert!(!page.state.can_run());
    // Listed, lost: loaded again once; lost again while that loads: failed.
    page.paste(GET_SIGN);
    let effects = page.state.worker_replaced("the engine stopped");
    assert_eq!(effects.len(), 1);
    page.apply(effects);
    page.inbox.clear();
    assert!(page.state.worker_replaced("the engine stopped").is_empty());
    assert!(
        matches!(&page.state.load, Load::Failed(m) if m.ends_with("the engine stopped while loading it again (the engine stopped)"))
    );
}

#[test]
fn a_link_shared_while_the_module_loads_names_the_entry_kept() {
    let mut page = Page::new();
    let divide = include_bytes!("../../../../static/examples/c/divide.wasm");
    page.upload("divide.wasm", divide.to_vec());
    page.state.choose_entry("remainder_of".into());
    let (_, effects) = page.state.reading_file("divide.wasm", 693.0);
    page.act(effects);
    assert_eq!(page.state.entry, None);
    assert_eq!(page.state.entry_to_run(), Some("remainder_of"));
}

#[test]
fn after_a_failed_load_new_text_in_the_editor_can_run() {
    let mut page = Page::new();
    page.paste("(module (func");
    assert!(!page.state.can_run());
    page.state.type_text(PASTED.into());
    assert!(page.state.can_run());
    page.run();
    assert_eq!(page.shown(), shown("pasted_fn", 2));
}

#[test]
fn run_while_loading_runs_once_listed_and_bad_options_are_named() {
    let mut page = Page::new();
    let (read, effects) = page.state.reading_file("clamp.wasm", 516.0);
    page.act(effects);
    assert!(page.state.can_run());
    let effects = page.state.run();
    assert!(effects.is_empty());
    let effects = page
        .state
        .file_read(read, "clamp.wasm".into(), CLAMP.to_vec());
    page.act(effects);
    page.settle();
    assert_eq!(page.shown(), shown("clamp", 3));
    page.state.fields.max_paths = "none".into();
    let effects = page.state.run();
    assert!(effects.is_empty());
    assert_eq!(
        page.state.error.as_deref(),
        Some("max paths must be a positive whole number, not `none`")
    );
    // The engine's own refusals come back as the run's error.
    page.state.fields.max_paths = String::new();
    page.state.fields.args = vec!["99999999999".into()];
    page.run();
    assert_eq!(
        page.state.error.as_deref(),
        Some("parameter 0 is an i32 (-2147483648 to 2147483647): 99999999999 is out of range")
    );
    assert!(page.state.results.is_none() && !page.state.busy());
}

/// A C program whose read past a `malloc(n)` buffer happens for some
/// lengths only: Base pins the length and misses it, ForkLazy finds it.
const LENGTH_READ: &[u8] = include_bytes!("../../../../static/examples/c/length_read.wasm");

fn report_of(page: &Page, side: Side) -> Rc<Report> {
    page.state.results(side).unwrap().report.clone().unwrap()
}

fn bugs(report: &Report) -> usize {
    report.paths.iter().filter(|p| p.is_bug()).count()
}

const HASH_TABLES: &[u8] = include_bytes!("../../../../static/examples/c/hash_tables.wasm");

#[test]
fn compare_offers_fork_against_segment_when_a_merges_blocks() {
    let mut page = Page::new();
    page.upload("hash_tables.wasm", HASH_TABLES.to_vec());
    // The bases field keeps its value: the form shows it symbolic and
    // disabled, and the run takes it so.
    *page.state.field_mut("resolve").unwrap() = "segment".into();
    assert_eq!(page.state.fields.bases, "concrete");
    let effects = page.state.compare();
    page.apply(effects);
    let b = &page.state.compare.as_ref().unwrap().fields;
    assert_eq!((b.resolve.as_str(), b.bases.as_str()), ("fork", "symbolic"));
    assert_eq!(b.size_mode, page.state.fields.size_mode);
    page.settle();
    let (a, b) = (report_of(&page, Side::A), report_of(&page, Side::B));
    assert_eq!((a.paths.len(), a.stats.segments), (3, 1));
    assert_eq!((b.paths.len(), b.stats.segments), (11, 0));
    assert_eq!(
        (a.heap.bases, b.heap.bases),
        (BaseMode::Symbolic, BaseMode::Symbolic)
    );
}

#[test]
fn a_gallery_example_sets_the_options_that_show_its_point() {
    // The seed's first loop: fork-lazy and SMOpt, set as the example is
    // chosen; its five states merge under the condition true, and the
    // count splits into its four values.
    let mut page = Page::new();
    *page.state.field_mut("size-mode").unwrap() = "base".into();
    let effects = page.state.choose_example("size-loop");
    page.act(effects);
    let f = &page.state.fields;
    assert_eq!(
        (f.size_mode.as_str(), f.merge.as_str()),
        ("fork-lazy", "smopt")
    );
    page.run();
    let r = report_of(&page, Side::A);
    assert_eq!(r.paths.len(), 4);
    let [merge] = &r.merges[..] else {
        panic!("{:?}", r.merges)
    };
    assert!(merge.whole && merge.states == 5, "{merge:?}");
    // Another example gives back what the fields held, except what the
    // person changed since.
    *page.state.field_mut("merge").unwrap() = "cfg".into();
    let effects = page.state.choose_example("sign");
    page.act(effects);
    let f = &page.state.fields;
    assert_eq!((f.size_mode.as_str(), f.merge.as_str()), ("base", "cfg"));
}

#[test]
fn memspn_merges_its_383_paths_into_17_as_its_lesson_says() {
    let mut page = Page::new();
    let effects = page.state.choose_example("memspn");
    page.act(effects);
    let effects = page.state.compare();
    page.apply(effects);
    page.settle();
    let (a, b) = (report_of(&page, Side::A), report_of(&page, Side::B));
    assert_eq!(
        (a.merge.mode.name(), b.merge.mode.name()),
        ("smopt", "none")
    );
    assert_eq!((a.paths.len(), b.paths.len()), (17, 383));
    assert!(examples::find("memspn")
        .unwrap()
        .lesson
        .contains("383 paths 17"));
}

#[test]
fn compare_offers_no_merging_against_merging() {
    let mut page = Page::new();
    page.upload("length_read.wasm", LENGTH_READ.to_vec());
    for (field, value) in [
        ("size-mode", "fork-lazy"),
        ("merge", "smopt"),
        ("validate-merge", "true"),
    ] {
        *page.state.field_mut(field).unwrap() = value.into();
    }
    let effects = page.state.compare();
    page.apply(effects);
    let b = &page.state.compare.as_ref().unwrap().fields;
    assert_eq!(
        (b.merge.as_str(), b.size_mode.as_str()),
        ("none", "fork-lazy")
    );
    page.settle();
    let (a, b) = (report_of(&page, Side::A), report_of(&page, Side::B));
    // The search loop's states merged in A, each merge proved right, and
    // B, exploring each way apart, finds the same bug on more paths.
    let merging = a.stats.merging.clone().unwrap();
    assert!(merging.merges > 0 && merging.validated == merging.merges);
    assert_eq!(a.merges.len() as u64, merging.merges);
    assert!(b.merges.is_empty() && b.stats.merging.is_none());
    assert!(b.paths.len() > a.paths.len());
    let bugs = |r: &Report| r.paths.iter().filter(|p| p.is_bug()).count();
    assert_eq!((bugs(&a), bugs(&b)), (1, 1));
}

#[test]
fn compare_runs_both_configurations_one_after_the_other() {
    let mut page = Page::new();
    page.upload("length_read.wasm", LENGTH_READ.to_vec());
    *page.state.field_mut("size-mode").unwrap() = "base".into();
    // One click: B is offered as A with the other size mode, and both run.
    let effects = page.state.compare();
    page.apply(effects);
    let b = page.state.compare.as_ref().unwrap();
    assert_eq!(b.fields.size_mode, "fork-lazy");
    assert!(b.waiting(), "B waits for A");
    assert!(page.state.results(Side::B).is_none());
    page.settle();
    let (a, b) = (report_of(&page, Side::A), report_of(&page, Side::B));
    assert_eq!(a.heap.size_mode, SizeMode::Base);
    assert_eq!(b.heap.size_mode, SizeMode::ForkLazy);
    assert_eq!((bugs(&a), a.stop_reason.as_str()), (0, "completed"));
    assert!(bugs(&b) > 0, "ForkLazy finds the read past the end");
    assert!(!page.state.busy());
    // B's bug replays under B's heap model.
    let bug = b.paths.iter().find(|p| p.is_bug()).unwrap().id;
    let effects = page.state.replay(Side::B, bug);
    page.act(effects);
    let replays = &page.state.results(Side::B).unwrap().replays;
    assert!(
        matches!(replays.get(&bug), Some(Replay::Done { path, .. }) if path.memory_error.is_some())
    );
    assert!(page.state.results(Side::A).unwrap().replays.is_empty());
    // B's form is edited by its own field ids; bad values are B's.
    *page.state.field_mut("b-capacity").unwrap() = "0".into();
    page.run();
    assert!(page
        .state
        .error
        .as_ref()
        .unwrap()
        .starts_with("B: capacity"));
    *page.state.field_mut("b-capacity").unwrap() = "8".into();
    *page.state.field_mut("b-size-mode").unwrap() = "fork-eager".into();
    page.run();
    assert_eq!(
        report_of(&page, Side::B).heap.size_mode,
        SizeMode::ForkEager
    );
    assert_eq!(report_of(&page, Side::B).heap.capacity, 8);
    // Back to single runs.
    page.state.close_compare();
    assert!(page.state.compare.is_none());
    page.run();
    assert!(page.state.results(Side::B).is_none());
}

#[test]
fn stop_in_a_comparison_stops_both_and_a_new_module_clears_both() {
    let mut page = Page::new();
    page.paste(ENDLESS);
    let effects = page.state.compare();
    page.act(effects);
    page.steps(10);
    let effects = page.state.stop();
    page.act(effects);
    page.settle();
    assert_eq!(page.shown().unwrap().2, "cancelled");
    let compare = page.state.compare.as_ref().unwrap();
    assert!(
        !compare.waiting() && compare.results.is_none(),
        "B never ran"
    );
    // B stopped while it runs: A (with a path limit) ended on its own, and
    // its results stay; B's are partial.
    *page.state.field_mut("max-paths").unwrap() = "3".into();
    let effects = page.state.run();
    page.act(effects);
    for _ in 0..1_000 {
        if page.state.results(Side::B).is_some() {
            break;
        }
        page.steps(1);
    }
    assert!(page.state.results(Side::B).is_some(), "A ended on its own");
    assert_eq!(report_of(&page, Side::A).stop_reason, "path limit");
    page.steps(5);
    let effects = page.state.stop();
    page.act(effects);
    page.settle();
    assert_eq!(report_of(&page, Side::B).stop_reason, "cancelled");
    assert_eq!(report_of(&page, Side::A).paths.len(), 3);
    // A new module leaves compare mode on, without the old results.
    page.paste(PASTED);
    assert!(page.state.compare.is_some());
    assert!(page.state.results(Side::A).is_none() && page.state.results(Side::B).is_none());
}

#[test]
fn a_shared_comparison_opens_in_compare_mode_and_runs_both() {
    let mut page = Page::new();
    let link = share::Shared {
        source: crate::share::Source::Binary(LENGTH_READ.to_vec()),
        example: None,
        entry: "first_header".into(),
        options: RunOptions {
            search: "dfs".into(),
            heap: symplay_engine::memory::HeapOptions {
                size_mode: SizeMode::Base,
                ..Default::default()
            },
            ..RunOptions::default()
        },
        compare: Some(RunOptions {
            search: "bfs".into(),
            heap: symplay_engine::memory::HeapOptions {
                size_mode: SizeMode::ForkEager,
                ..Default::default()
            },
            ..RunOptions::default()
        }),
    };
    let effects = page.state.open_link(link);
    page.act(effects);
    page.settle();
    let b = page.state.compare.as_ref().unwrap();
    assert_eq!(
        (b.fields.search.as_str(), b.fields.size_mode.as_str()),
        ("bfs", "fork-eager")
    );
    assert_eq!(report_of(&page, Side::A).search, "dfs");
    assert_eq!(report_of(&page, Side::B).search, "bfs");
    assert!(bugs(&report_of(&page, Side::B)) > bugs(&report_of(&page, Side::A)));
}

#[test]
fn b_takes_a_s_parameter_values_and_keeps_no_stale_ones() {
    let mut page = Page::new();
    page.upload(
        "divide.wasm",
        include_bytes!("../../../../static/examples/c/divide.wasm").to_vec(),
    );
    page.state.choose_entry("divide".into());
    // A bad value in A's field when Compare is clicked: named (`int
    // divide(int a, int b)`), and once fixed, both run with it.
    page.state.fields.args[1] = "ten".into();
    let effects = page.state.compare();
    page.act(effects);
    assert!(page.state.error.as_ref().unwrap().starts_with("b must be"));
    page.state.fields.args[1] = "3".into();
    page.run();
    assert_eq!(page.state.error, None);
    for side in [Side::A, Side::B] {
        let report = report_of(&page, side);
        assert!(
            report.paths.iter().all(|p| p.inputs.args[1] == 3),
            "{side:?}"
        );
    }
}

#[test]
fn no_results_stay_under_an_error() {
    let mut page = Page::new();
    page.run();
    assert_eq!(page.shown(), shown("get_sign", 3));
    // Nonsense options: the run does not start, and the old paths go.
    *page.state.field_mut("max-paths").unwrap() = "lots".into();
    page.run();
    assert!(page.state.error.is_some());
    assert_eq!(page.shown(), None);
    *page.state.field_mut("max-paths").unwrap() = String::new();
    page.run();
    assert_eq!(page.shown(), shown("get_sign", 3));
    // A module that does not load: the paths of the one before go too.
    page.paste("(module (func (export \"f\") (i32.add)))");
    assert!(page.state.error.is_some() || matches!(page.state.load, Load::Failed(_)));
    assert_eq!(page.shown(), None);
}

/// The step shown, as a number and the node of the state it shows.
fn shown_step(page: &Page) -> (u64, Option<usize>) {
    let steps = page.state.results.as_ref().unwrap().steps.as_ref().unwrap();
    let step = &steps.current().unwrap().step;
    (step.number, step.next.as_ref().map(|v| v.node))
}

#[test]
fn step_mode_goes_forward_back_and_forward_again_without_asking_twice() {
    let mut page = Page::new();
    let effects = page.state.start_stepping();
    page.act(effects);
    assert_eq!(shown_step(&page), (0, Some(0)));
    // Waiting for the user, the run is not at work: no silence to report.
    assert!(page.state.busy() && !page.state.working());
    for expected in 1..=3 {
        let effects = page.state.step(StepBy::Branch);
        page.act(effects);
        page.settle();
        assert_eq!(shown_step(&page).0, expected);
    }
    let results = page.state.results.as_ref().unwrap();
    let after_three = results.report_shown().unwrap().tree.len();
    // Back shows the tree as it was then.
    page.state.step_back();
    page.state.step_back();
    assert_eq!(shown_step(&page).0, 1);
    let results = page.state.results.as_ref().unwrap();
    assert_eq!(results.report_shown().unwrap().tree.len(), 3);
    assert!(after_three >= 5);
    // Forward through the steps taken asks the worker for nothing.
    let effects = page.state.step(StepBy::Branch);
    assert!(effects.is_empty());
    assert_eq!(shown_step(&page).0, 2);
    let effects = page.state.step(StepBy::Branch);
    assert!(effects.is_empty());
    // Past the last one, a step is asked for again.
    let effects = page.state.step(StepBy::Branch);
    assert!(matches!(
        &effects[..],
        [Effect::Send(Envelope {
            body: Request::Step { .. },
            ..
        })]
    ));
    page.act(effects);
    page.settle();
    assert_eq!(shown_step(&page).0, 4);
}

#[test]
fn run_to_end_finishes_a_run_in_step_mode_and_stop_ends_one_waiting() {
    let mut page = Page::new();
    let effects = page.state.start_stepping();
    page.act(effects);
    let effects = page.state.step(StepBy::Instruction);
    page.act(effects);
    page.settle();
    assert_eq!(shown_step(&page).0, 1);
    let effects = page.state.resume();
    page.act(effects);
    page.settle();
    assert_eq!(page.state.run, None);
    let results = page.state.results.as_ref().unwrap();
    assert_eq!(results.report.as_ref().unwrap().paths.len(), 3);
    assert_eq!(results.report_shown().unwrap().stop_reason, "completed");
    // The steps taken stay to look at.
    assert_eq!(results.steps.as_ref().unwrap().taken.len(), 2);

    let mut page = Page::new();
    page.paste(ENDLESS);
    page.settle();
    let effects = page.state.start_stepping();
    page.act(effects);
    let effects = page.state.stop();
    page.act(effects);
    page.settle();
    assert_eq!(page.state.run, None);
    let report = page.state.results.as_ref().unwrap().report.clone().unwrap();
    assert_eq!(report.stop_reason, "cancelled");
}

#[test]
fn a_new_module_ends_a_run_waiting_for_its_step_without_replacing_the_worker() {
    let mut page = Page::new();
    let effects = page.state.start_stepping();
    page.act(effects);
    page.paste(PASTED);
    page.settle();
    assert_eq!(page.replaced, 0);
    assert!(page.state.results.is_none());
    assert_eq!(page.state.run, None);
    assert_eq!(page.state.entry.as_deref(), Some("pasted_fn"));
}

/// Whether the page waits for a step asked for.
fn waiting_for_step(page: &Page) -> bool {
    let steps = page.state.results.as_ref().unwrap().steps.as_ref().unwrap();
    steps.waiting
}

#[test]
fn stop_or_run_to_end_while_a_step_is_taken_leaves_no_step_awaited() {
    for resume in [false, true] {
        let mut page = Page::new();
        page.paste(ENDLESS);
        page.settle();
        let effects = page.state.start_stepping();
        page.act(effects);
        // The step is asked for; the worker has not taken it yet.
        let effects = page.state.step(StepBy::Branch);
        page.apply(effects);
        assert!(waiting_for_step(&page));
        let effects = if resume {
            page.state.resume()
        } else {
            page.state.stop()
        };
        page.act(effects);
        if resume {
            assert!(!waiting_for_step(&page), "run to end waits for no step");
            let effects = page.state.stop();
            page.act(effects);
        }
        page.settle();
        assert_eq!(page.state.run, None);
        assert!(!waiting_for_step(&page));
        // The steps taken can still be gone through.
        page.state.step_back();
        assert_eq!(shown_step(&page).0, 0);
        let effects = page.state.step(StepBy::Branch);
        assert!(effects.is_empty());
    }
}

#[test]
fn step_starts_a_new_run_whatever_step_of_an_ended_one_is_shown() {
    let mut page = Page::new();
    let effects = page.state.start_stepping();
    page.act(effects);
    let effects = page.state.resume();
    page.act(effects);
    page.settle();
    let first_run = page.state.results.as_ref().unwrap().run;
    page.state.step_back();
    let effects = page.state.start_stepping();
    page.act(effects);
    let results = page.state.results.as_ref().unwrap();
    assert_ne!(results.run, first_run);
    assert_eq!(shown_step(&page), (0, Some(0)));
    // The next-step buttons of the ended run's pane did nothing meanwhile.
    let mut ended = Page::new();
    let effects = ended.state.start_stepping();
    ended.act(effects);
    let effects = ended.state.resume();
    ended.act(effects);
    ended.settle();
    assert!(ended.state.step(StepBy::Branch).is_empty());
}

#[test]
fn the_steps_kept_are_the_last_thousand() {
    let mut page = Page::new();
    page.paste(ENDLESS);
    page.settle();
    let effects = page.state.start_stepping();
    page.act(effects);
    for _ in 0..1_005 {
        let effects = page.state.step(StepBy::Instruction);
        page.act(effects);
        page.settle();
    }
    let steps = page.state.results.as_ref().unwrap().steps.as_ref().unwrap();
    assert_eq!(steps.taken.len(), 1_000);
    assert_eq!(shown_step(&page).0, 1_005);
    for _ in 0..1_200 {
        page.state.step_back();
    }
    assert_eq!(shown_step(&page).0, 6);
}

#[test]
fn the_work_saved_keeps_the_parameter_values_typed() {
    let mut page = Page::new();
    page.state.fields.args = vec!["-7".into()];
    let saved = share::from_json(share::to_json(&page.state.work()).unwrap().as_bytes()).unwrap();
    let mut again = Page::blank();
    let effects = again.state.start("", Some(saved));
    again.act(effects);
    assert_eq!(again.entry(), Some("get_sign"));
    assert_eq!(again.state.fields.args, vec!["-7".to_string()]);
    again.run();
    assert_eq!(
        again.shown(),
        shown("get_sign", 1),
        "the value restored is the one run"
    );
    // So does a gallery example's.
    let effects = again.state.choose_example("sign");
    again.act(effects);
    again.state.fields.args = vec!["42".into()];
    let mut third = Page::blank();
    let effects = third.state.start("", Some(again.state.work()));
    third.act(effects);
    assert_eq!(third.state.example.map(|e| e.id), Some("sign"));
    assert_eq!(third.state.fields.args, vec!["42".to_string()]);
}

#[test]
fn the_selection_has_one_owner_shared_by_the_tree_and_the_table() {
    let mut page = Page::new();
    page.run();
    let report = page.state.results(Side::A).unwrap().report.clone().unwrap();
    // A row of the table selects its path's leaf, which the tree draws,
    // and marks where the path ended, scrolled to.
    let path = &report.paths[1];
    page.state.select_path(Side::A, path.id);
    let leaf = page.state.selected_node(Side::A).unwrap();
    assert_eq!(report.tree[leaf].path, Some(path.id));
    assert_eq!(page.state.selected_path(Side::A), Some(path.id));
    assert_eq!(page.state.highlight(), Some(&path.location));
    let scroll = page.state.take_scroll();
    assert!(scroll.marks);
    assert_eq!(page.state.take_scroll(), Scroll::default(), "asked once");
    // The code shown another way (the WAT for the C): the mark is
    // scrolled to in it too; with nothing marked, nothing is.
    page.state.show_code(Code::Wat);
    assert!(page.state.take_scroll().marks);
    // An inner node of the tree: no path, its fork marked.
    let root = report.tree.iter().position(|n| n.parent.is_none()).unwrap();
    page.state.select_node(Side::A, Some(root));
    assert_eq!(page.state.selected_path(Side::A), None);
    assert_eq!(page.state.highlight(), report.tree[root].fork.as_ref());
    // Letting go keeps the mark; a new run's results have no selection.
    page.state.select_node(Side::A, None);
    assert_eq!(page.state.selected_node(Side::A), None);
    page.state.select_path(Side::A, path.id);
    page.run();
    assert_eq!(page.state.selected_node(Side::A), None, "of the run before");
    assert_eq!(page.state.highlight(), None, "of the run before");
    page.state.take_scroll();
    page.state.show_code(Code::Edit);
    assert!(!page.state.take_scroll().marks);
    // B has none of A's.
    assert_eq!(page.state.selected_node(Side::B), None);
}

#[test]
fn a_run_asks_for_its_results_to_come_into_view_once_they_are_there() {
    let mut page = Page::new();
    page.state.take_scroll();
    let effects = page.state.run();
    page.apply(effects);
    assert!(!page.state.take_scroll().results, "nothing to show yet");
    page.settle();
    assert!(page.state.take_scroll().results);
    // Later answers of the same run do not pull the page back.
    let run = page.state.results(Side::A).unwrap().run;
    page.state.answer(Envelope {
        id: run,
        body: Response::Stopping,
    });
    assert!(!page.state.take_scroll().results);
}

#[test]
fn a_pause_in_typing_takes_the_last_edit_only() {
    let mut page = Page::new();
    let first = page.state.type_text(ENDLESS.into());
    let second = page.state.type_text(PASTED.into());
    assert!(
        page.state.typing_paused(first).is_empty(),
        "an edit came since"
    );
    assert!(!page.state.typing_paused(second).is_empty());
}

#[test]
fn work_is_saved_once_after_the_last_change() {
    let mut page = Page::new();
    let first = page.state.changed_by_user();
    let second = page.state.changed_by_user();
    assert_eq!(
        page.state.work_to_save(Some(first)),
        None,
        "a change came since"
    );
    assert!(page.state.work_to_save(Some(second)).is_some());
    assert_eq!(page.state.work_to_save(Some(second)), None, "saved already");
    assert_eq!(
        page.state.work_to_save(None),
        None,
        "nothing new to save on leaving"
    );
    page.state.changed_by_user();
    assert!(
        page.state.work_to_save(None).is_some(),
        "leaving saves what is new"
    );
    page.state.saved(Err("quota".into()));
    assert_eq!(
        page.state.saving.not_saved.as_deref(),
        Some("your work is not saved in this browser: quota")
    );
    page.state.saved(Ok(()));
    assert_eq!(page.state.saving.not_saved, None);
}

#[test]
fn a_run_folds_the_options_and_shows_its_bugs_once_it_ends() {
    let mut page = Page::new();
    page.state.toggle_options();
    assert!(page.state.view.options_open);
    let effects = page.state.choose_example("division");
    page.act(effects);
    page.run();
    assert!(!page.state.view.options_open, "the results take the room");
    assert_eq!(
        page.state.view.code,
        Code::C,
        "an example's C source, where lines are marked"
    );
    assert_eq!(
        page.state.view.tab,
        Tab::Bugs,
        "a run that found bugs shows them"
    );
    // A node selected shows its details; a run without bugs its paths.
    page.state.select_node(Side::A, Some(0));
    assert_eq!(page.state.view.tab, Tab::Node);
    let effects = page.state.choose_example("sign");
    page.act(effects);
    page.run();
    assert_eq!(page.state.view.tab, Tab::Paths);
    // A typed module's code is its WAT.
    page.paste(PASTED);
    page.run();
    assert_eq!(page.state.view.code, Code::Wat);
}
