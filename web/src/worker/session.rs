//! The worker's side: answers requests and runs an exploration in steps of
//! a given length, so that a stop request is seen between two steps. Pure
//! Rust, so it is tested natively; `bin/worker.rs` only moves messages.

use crate::disassembly::{disassemble, to_wat};
use crate::protocol::{CarriedLines, Envelope, ExportedFunction, Request, Response};
use crate::run_options::RunOptions;
use crate::share;
use std::rc::Rc;
use std::time::Duration;
use symplay_engine::exec::name_params;
use symplay_engine::exec::{import_problem, replay_traced, Exploration, Options, ReplayOptions};
use symplay_engine::report::step::{Step, StepBy};
use symplay_engine::search::SearchKind;
use symplay_engine::state::State;
use symplay_wasm::entry::{default_entry_name, START_ENTRY};
use symplay_wasm::{carry_source_lines, ExportKind, Module};
use web_time::Instant;

/// Trace events a replay keeps for the page.
const MAX_TRACE_EVENTS: usize = 2_000;
/// A replay that has not ended after this many instructions is stopped.
const MAX_REPLAY_INSTRUCTIONS: u64 = 100_000_000;
/// A running exploration's report goes to the page at most once in this
/// long per thousand tree nodes, so that sending and drawing it stay a small
/// share of the time; past `LIVE_TREE_NODES` only when the run ends.
const LIVE_EVERY_PER_1000_NODES: Duration = Duration::from_millis(400);
const LIVE_TREE_NODES: usize = 20_000;

/// What the worker holds: the module the page loaded last (explorations
/// and replays run on it, so it crosses to the worker once), and the
/// exploration under way.
#[derive(Default)]
pub struct Session {
    module: Option<Rc<Module>>,
    running: Option<Running>,
}

struct Running {
    /// The request that started it: its answers carry this number.
    id: u32,
    exploration: Exploration<Rc<Module>>,
    /// When the page last got a snapshot, and of how many tree nodes.
    shown: (Instant, usize),
    pace: Pace,
}

/// How a run goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pace {
    /// To its end, in steps of `work`'s budget.
    Free,
    /// Step mode, waiting for the page to ask for a step.
    Waiting,
    /// Step mode, taking a step.
    Stepping(StepBy),
}

impl Running {
    /// A step as the page gets it: with the report after it, unless the
    /// step only ran on (the tree and paths are as they were).
    fn stepped(&self, step: Step) -> Response {
        let changed = !step.only_ran();
        Response::Stepped {
            step: Box::new(step),
            report: changed.then(|| Box::new(self.exploration.snapshot())),
        }
    }

    /// The report so far, when the tree has grown and it is time to show it.
    fn live_snapshot(&mut self) -> Option<Response> {
        let nodes = self.exploration.tree_len();
        let wait = LIVE_EVERY_PER_1000_NODES * (nodes / 1000).max(1) as u32;
        if nodes == self.shown.1 || nodes > LIVE_TREE_NODES || self.shown.0.elapsed() < wait {
            return None;
        }
        self.shown = (Instant::now(), nodes);
        Some(Response::Snapshot {
            report: Box::new(self.exploration.snapshot()),
        })
    }
}

impl Session {
    /// Whether an exploration waits for [`Session::work`] (not a run in
    /// step mode waiting for its next step).
    pub fn busy(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.pace != Pace::Waiting)
    }

    /// Answers request `id`; an exploration then runs through `work`.
    pub fn handle(&mut self, id: u32, request: Request) -> Vec<Envelope<Response>> {
        let answer = |body| Envelope { id, body };
        let result = match request {
            Request::Load { module, lines_from } => {
                // Whatever ran on the module before is of no use now.
                self.running = None;
                self.module = None;
                return match load(&module, lines_from.as_deref()) {
                    Ok((loaded, functions)) => {
                        self.module = Some(Rc::new(loaded));
                        let mut answers = vec![answer(functions)];
                        if let Ok(lines) = disassemble(&module) {
                            answers.push(answer(Response::Disassembly { lines }));
                        }
                        answers
                    }
                    Err(message) => vec![answer(Response::Error { message })],
                };
            }
            Request::Print { module } => to_wat(&module).map(|text| Response::Printed { text }),
            Request::OpenLink { fragment } => match share::decode(&fragment) {
                Some(Ok(shared)) => Ok(Response::Link {
                    shared: Box::new(shared),
                }),
                Some(Err(message)) => Err(message),
                None => Err("this is not a share link (it starts with `#share=`)".into()),
            },
            Request::Explore {
                entry,
                options,
                stepping,
            } => return self.start(id, &entry, &options, stepping),
            Request::Step { run, by } => {
                // One step at a time, and only in step mode.
                if let Some(running) = self
                    .running
                    .as_mut()
                    .filter(|r| r.id == run && r.pace == Pace::Waiting)
                {
                    running.pace = Pace::Stepping(by);
                }
                return Vec::new();
            }
            Request::Resume { run } => {
                if let Some(running) = self.running.as_mut().filter(|r| r.id == run) {
                    running.pace = Pace::Free;
                }
                return Vec::new();
            }
            Request::Stop { run } => {
                let Some(running) = self.running.as_mut().filter(|r| r.id == run) else {
                    return Vec::new();
                };
                running.exploration.cancel();
                // A run waiting in step mode ends at the next `work`.
                running.pace = Pace::Free;
                return vec![Envelope {
                    id: run,
                    body: Response::Stopping,
                }];
            }
            Request::Replay {
                entry,
                test,
                heap,
                buffer_args,
                max_depth,
                max_call_depth,
                havoc_imports,
            } => self.replay(
                &entry,
                &test,
                &ReplayOptions {
                    max_instructions: Some(MAX_REPLAY_INSTRUCTIONS),
                    max_events: MAX_TRACE_EVENTS,
                    heap,
                    buffer_args,
                    max_depth,
                    max_call_depth,
                    havoc_imports,
                },
            ),
        };
        vec![answer(
            result.unwrap_or_else(|message| Response::Error { message }),
        )]
    }

    /// Runs the exploration for about `budget`; gives its progress, now and
    /// then the report so far, and the report once it has ended.
    pub fn work(&mut self, budget: Duration) -> Vec<Envelope<Response>> {
        let Some(running) = &mut self.running else {
            return Vec::new();
        };
        let id = running.id;
        let mut answers = Vec::new();
        let done = match running.pace {
            Pace::Waiting => return Vec::new(),
            Pace::Free => running.exploration.advance(budget, &mut |_| true),
            Pace::Stepping(by) => {
                if let Some(step) = running.exploration.step(by, budget) {
                    running.pace = Pace::Waiting;
                    answers.push(running.stepped(step));
                }
                running.exploration.is_finished()
            }
        };
        let progress = running.exploration.progress();
        answers.insert(
            0,
            Response::Progress {
                paths: progress.paths,
                pending: progress.pending,
                merging: progress.merging,
                queries: progress.queries,
                instructions: progress.instructions,
                elapsed_ms: running.exploration.elapsed().as_secs_f64() * 1000.0,
            },
        );
        if !done {
            if running.pace == Pace::Free {
                answers.extend(running.live_snapshot());
            }
        } else if let Some(running) = self.running.take() {
            answers.push(Response::Finished {
                report: Box::new(running.exploration.finish()),
            });
        }
        answers
            .into_iter()
            .map(|body| Envelope { id, body })
            .collect()
    }

    fn loaded(&self) -> Result<Rc<Module>, String> {
        self.module
            .clone()
            .ok_or_else(|| "no module is loaded: load one first".to_string())
    }

    /// Starts exploring `entry`: answers its first progress, and in step
    /// mode its step 0.
    fn start(
        &mut self,
        id: u32,
        entry: &str,
        options: &RunOptions,
        stepping: bool,
    ) -> Vec<Envelope<Response>> {
        let started = engine_options(options).and_then(|options| {
            Exploration::new(self.loaded()?, entry, &options).map_err(|e| e.to_string())
        });
        let mut answers = vec![Response::Progress {
            paths: 0,
            pending: 1,
            merging: 0,
            queries: 0,
            instructions: 0,
            elapsed_ms: 0.0,
        }];
        match started {
            Ok(exploration) => {
                // A new run replaces one still going: the page shows one at a time.
                let mut running = Running {
                    id,
                    exploration,
                    shown: (Instant::now(), 0),
                    pace: if stepping { Pace::Waiting } else { Pace::Free },
                };
                if stepping {
                    let first = running.exploration.first_step();
                    answers.push(running.stepped(first));
                }
                self.running = Some(running);
            }
            Err(message) => answers = vec![Response::Error { message }],
        }
        answers
            .into_iter()
            .map(|body| Envelope { id, body })
            .collect()
    }

    fn replay(
        &self,
        entry: &str,
        test: &symplay_engine::report::TestInput,
        options: &ReplayOptions,
    ) -> Result<Response, String> {
        let replayed =
            replay_traced(&*self.loaded()?, entry, test, options).map_err(|e| e.to_string())?;
        Ok(Response::Replayed {
            path: Box::new(replayed.path),
            trace: replayed.trace,
        })
    }
}

fn engine_options(o: &RunOptions) -> Result<Options, String> {
    let search = SearchKind::parse(&o.search)
        .ok_or_else(|| format!("unknown searcher `{}` ({})", o.search, SearchKind::names()))?;
    Ok(Options {
        search,
        seed: o.seed,
        max_time: o.max_time_ms.map(Duration::from_millis),
        max_paths: o.max_paths,
        max_depth: o.max_depth,
        max_instructions: o.max_instructions,
        max_memory: o.max_memory_mib.map(|mib| mib.saturating_mul(1 << 20)),
        interrupt: None,
        concrete_args: o.concrete_args.clone(),
        buffer_args: o.buffer_args.clone(),
        heap: o.heap.clone(),
        outcomes: o.outcomes,
        max_call_depth: o.max_call_depth,
        havoc_imports: o.havoc_imports,
        merge: o.merge,
    })
}

/// The exported functions of `bytes` and the entry to explore by default,
/// with the C lines of `lines_from` carried over (a binary that does not
/// load has none to give).
fn load(bytes: &[u8], lines_from: Option<&[u8]>) -> Result<(Module, Response), String> {
    let mut module = symplay_wasm::load(bytes).map_err(|e| e.to_string())?;
    let lines = lines_from.map(|original| {
        let carried = symplay_wasm::load(original)
            .map(|original| carry_source_lines(&mut module, &original))
            .unwrap_or_default();
        CarriedLines {
            kept: carried.kept,
            lost: carried.lost,
        }
    });
    let default_entry = default_entry_name(&module).map_err(|e| e.to_string());
    // A module whose program is its start function (as the Owi and WASP
    // benchmarks are written) lists that function as its entry.
    let start = module
        .start
        .filter(|_| default_entry.as_deref() == Ok(START_ENTRY))
        .map(|index| (START_ENTRY.to_string(), index));
    let exported = module
        .exports
        .iter()
        .filter(|e| e.kind == ExportKind::Func)
        .map(|e| (e.name.clone(), e.index));
    let functions = exported
        .chain(start)
        .map(|(name, index)| {
            let ty = module.func_type(index);
            ExportedFunction {
                name,
                signature: ty.map_or_else(String::new, ToString::to_string),
                params: ty.map_or_else(Vec::new, |t| {
                    t.params.iter().map(ToString::to_string).collect()
                }),
                // As a run names them, in a state of its own.
                param_names: name_params(&module, index, &mut State::default()),
            }
        })
        .collect();
    let cannot_run = import_problem(&module);
    Ok((
        module,
        Response::Loaded {
            functions,
            default_entry,
            cannot_run,
            lines,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use symplay_engine::exec::{MergeMode, MergeOptions};
    use symplay_engine::memory::HeapOptions;
    use symplay_engine::report::step::StepEvent;
    use symplay_engine::report::{BufferArg, Number, OutcomeRules, Report, Status};

    const GET_SIGN: &str = r#"(module (func (export "get_sign") (param $x i32) (result i32)
      (if (i32.eqz (local.get $x)) (then (return (i32.const 0))))
      (if (i32.lt_s (local.get $x) (i32.const 0)) (then (return (i32.const -1))))
      (i32.const 1)))"#;

    /// Counts up to a symbolic bound: one more path per iteration, forever.
    const ENDLESS: &str = r#"(module (func (export "f") (param i32) (local i32)
      (loop (br_if 0 (i32.ne (local.get 0) (local.tee 1 (i32.add (local.get 1) (i32.const 1))))))))"#;

    fn load_request(wat: &str) -> Request {
        Request::Load {
            module: wat.as_bytes().to_vec(),
            lines_from: None,
        }
    }

    fn explore_request(entry: &str) -> Request {
        Request::Explore {
            entry: entry.into(),
            options: Box::new(RunOptions {
                search: "bfs".into(),
                ..RunOptions::default()
            }),
            stepping: false,
        }
    }

    /// The answers' bodies, each checked to answer request `id`.
    fn bodies(id: u32, answers: Vec<Envelope<Response>>) -> Vec<Response> {
        answers
            .into_iter()
            .map(|a| {
                assert_eq!(a.id, id, "{:?}", a.body);
                a.body
            })
            .collect()
    }

    /// Loads `wat` as request 1 and starts exploring `entry` as request 2.
    fn started(wat: &str, entry: &str) -> Session {
        let mut session = Session::default();
        let loaded = bodies(1, session.handle(1, load_request(wat)));
        assert!(matches!(loaded[0], Response::Loaded { .. }), "{loaded:?}");
        let answers = bodies(2, session.handle(2, explore_request(entry)));
        assert!(matches!(answers[..], [Response::Progress { paths: 0, .. }]));
        assert!(session.busy());
        session
    }

    fn run_to_end(session: &mut Session) -> symplay_engine::report::Report {
        for _ in 0..10_000 {
            for answer in session.work(Duration::from_millis(1)) {
                if let Response::Finished { report } = answer.body {
                    assert!(!session.busy());
                    return *report;
                }
            }
        }
        panic!("the exploration did not finish");
    }

    #[test]
    fn an_exploration_runs_in_steps_to_its_report() {
        let mut session = started(GET_SIGN, "get_sign");
        let report = run_to_end(&mut session);
        assert_eq!(report.stop_reason, "completed");
        let mut returns: Vec<_> = report.paths.iter().map(|p| p.returns.clone()).collect();
        returns.sort_by_key(|r| format!("{r:?}"));
        assert_eq!(
            returns,
            [[Number::Int(-1)], [Number::Int(0)], [Number::Int(1)]]
        );
    }

    #[test]
    fn stop_ends_its_own_run_and_keeps_its_paths() {
        let mut session = started(ENDLESS, "f");
        let (mut paths, mut queries) = (0, 0);
        while paths < 5 {
            for answer in bodies(2, session.work(Duration::from_millis(1))) {
                match answer {
                    Response::Progress {
                        paths: p,
                        queries: q,
                        ..
                    } => {
                        assert!(q >= queries, "queries went back from {queries} to {q}");
                        (paths, queries) = (p, q);
                    }
                    Response::Snapshot { .. } => {}
                    other => panic!("{other:?}"),
                }
            }
        }
        // Every iteration forks on the symbolic bound: a query each.
        assert!(queries >= 5, "{queries} queries for {paths} paths");
        // A late stop of an earlier run does not stop this one.
        assert!(session.handle(3, Request::Stop { run: 1 }).is_empty());
        session.work(Duration::from_millis(1));
        assert!(session.busy());
        // A stop is acknowledged at once, as an answer about its run.
        assert_eq!(
            bodies(2, session.handle(4, Request::Stop { run: 2 })),
            [Response::Stopping]
        );
        let report = run_to_end(&mut session);
        assert_eq!(report.stop_reason, "cancelled");
        assert!(report.paths.len() >= 5);
        assert!(report.stats.queries >= queries);
        assert!(report.paths.iter().all(|p| p.status == Status::Returned));
    }

    /// A loop over a symbolic `n` of at most 40 that writes a byte per
    /// iteration: 41 states wait at its exit to merge.
    const WRITES: &str = r#"(module (memory 1)
      (func (export "f") (param $n i32) (result i32) (local $i i32)
        (if (i32.gt_u (local.get $n) (i32.const 40)) (then (return (i32.const 0))))
        (block $exit
          (loop $loop
            (br_if $exit (i32.ge_u (local.get $i) (local.get $n)))
            (i32.store8 (i32.add (i32.const 1024) (local.get $i)) (local.get $i))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $loop)))
        (i32.load8_u (i32.const 1030))))"#;

    /// The states the progress of `answers` says are merging, if it says.
    fn merging(answers: Vec<Response>) -> Option<usize> {
        answers.into_iter().find_map(|answer| match answer {
            Response::Progress { merging, .. } => Some(merging),
            _ => None,
        })
    }

    #[test]
    fn stop_ends_a_run_in_the_middle_of_a_merge_with_its_states_pending() {
        let mut session = Session::default();
        let loaded = bodies(1, session.handle(1, load_request(WRITES)));
        assert!(matches!(loaded[0], Response::Loaded { .. }), "{loaded:?}");
        let explore = Request::Explore {
            entry: "f".into(),
            options: Box::new(RunOptions {
                merge: MergeOptions {
                    mode: MergeMode::Cfg,
                    validate: true,
                    ..MergeOptions::default()
                },
                search: "dfs".into(),
                ..RunOptions::default()
            }),
            stepping: false,
        };
        let started = bodies(2, session.handle(2, explore));
        assert!(session.busy(), "{started:?}");
        // With no time to spend, each call runs one slice or one step of
        // the merge, and the worker answers between them.
        let mut calls = 0;
        while merging(bodies(2, session.work(Duration::ZERO))) == Some(0) {
            calls += 1;
            assert!(calls < 10_000, "the states never merged");
        }
        for _ in 0..5 {
            let answers = bodies(2, session.work(Duration::ZERO));
            assert_eq!(merging(answers), Some(41));
        }
        assert_eq!(
            bodies(2, session.handle(3, Request::Stop { run: 2 })),
            [Response::Stopping]
        );
        let report = run_to_end(&mut session);
        assert_eq!(report.stop_reason, "cancelled");
        assert_eq!(report.stats.merging.as_ref().unwrap().merges, 0);
        // The 41 unmerged, and the state for n > 40 unless it ran first.
        let pending = report.stats.pending_states as usize;
        assert_eq!((pending >= 41, pending + report.paths.len()), (true, 42));
    }

    #[test]
    fn loading_another_module_ends_the_run_on_the_old_one_unreported() {
        let mut session = started(ENDLESS, "f");
        session.work(Duration::from_millis(1));
        let answers = bodies(3, session.handle(3, load_request(GET_SIGN)));
        assert!(matches!(answers[0], Response::Loaded { .. }));
        assert!(!session.busy());
        assert!(session.work(Duration::from_millis(1)).is_empty());
        // Runs and replays are of the new module now.
        let answers = bodies(4, session.handle(4, explore_request("f")));
        match &answers[..] {
            [Response::Error { message }] => assert!(
                message.contains("no exported function `f` (exported functions: get_sign)"),
                "{message}"
            ),
            other => panic!("{other:?}"),
        }
        let mut session = started(GET_SIGN, "get_sign");
        assert_eq!(run_to_end(&mut session).paths.len(), 3);
        // A module that does not load leaves none loaded.
        let failed = bodies(5, session.handle(5, load_request("(module (func")));
        assert!(
            matches!(&failed[..], [Response::Error { message }] if message.contains("invalid WAT"))
        );
        let answers = bodies(6, session.handle(6, explore_request("get_sign")));
        assert!(
            matches!(&answers[..], [Response::Error { message }] if message == "no module is loaded: load one first"),
            "{answers:?}"
        );
    }

    #[test]
    fn a_long_run_sends_its_growing_tree_now_and_then() {
        let mut session = started(ENDLESS, "f");
        let mut snapshots = Vec::new();
        let mut progress_paths = 0;
        for _ in 0..20_000 {
            for answer in bodies(2, session.work(Duration::from_millis(1))) {
                match answer {
                    Response::Progress { paths, .. } => progress_paths = paths,
                    Response::Snapshot { report } => snapshots.push((progress_paths, report)),
                    other => panic!("{other:?}"),
                }
            }
            if snapshots.len() == 2 {
                break;
            }
        }
        let [(paths_then, first), (_, second)] = &snapshots[..] else {
            panic!("{} snapshots", snapshots.len());
        };
        assert_eq!(first.stop_reason, "running");
        assert_eq!(first.paths.len(), *paths_then);
        // The later tree extends the earlier one: same nodes, more of them.
        assert!(second.tree.len() > first.tree.len());
        for (a, b) in first.tree.iter().zip(&second.tree) {
            assert_eq!(
                (a.id, a.parent, &a.condition),
                (b.id, b.parent, &b.condition)
            );
        }
        session.handle(3, Request::Stop { run: 2 });
        let report = run_to_end(&mut session);
        assert!(report.tree.len() >= second.tree.len());
    }

    #[test]
    fn bad_requests_get_errors_that_name_the_problem() {
        let mut session = Session::default();
        let cases = [
            (
                Request::Load {
                    module: b"\0asm\x01\0\0\0\x01".to_vec(),
                    lines_from: None,
                },
                "",
            ),
            (load_request("(module (func"), "invalid WAT"),
            (
                load_request("int main(void) { return 0; }"),
                "this is C source, not a WebAssembly module: compile it to .wasm first",
            ),
            (load_request(GET_SIGN), ""),
            (explore_request("nope"), "nope"),
            (
                Request::Explore {
                    entry: "get_sign".into(),
                    options: Box::new(RunOptions {
                        search: "best-first".into(),
                        ..RunOptions::default()
                    }),
                    stepping: true,
                },
                "unknown searcher `best-first`",
            ),
        ];
        for (id, (request, message)) in (1..).zip(cases) {
            match &bodies(id, session.handle(id, request))[..] {
                [Response::Error { message: m }] => assert!(m.contains(message), "{m}"),
                [Response::Loaded { .. }, Response::Disassembly { .. }] if message.is_empty() => {}
                other => panic!("{other:?}"),
            }
        }
        assert!(!session.busy());
    }

    #[test]
    fn an_imported_global_is_named_at_load_and_an_unprovided_function_is_not() {
        let mut session = Session::default();
        let global = r#"(module (import "env" "limit" (global i32))
          (func (export "f") (result i32) (global.get 0)))"#;
        let answers = bodies(1, session.handle(1, load_request(global)));
        let Response::Loaded {
            cannot_run: Some(why),
            default_entry,
            ..
        } = &answers[0]
        else {
            panic!("{answers:?}");
        };
        assert!(why.starts_with("unsupported import env.limit"), "{why}");
        assert_eq!(default_entry.as_deref(), Ok("f"));
        // A function the engine does not provide ends the paths that call it.
        let unknown = r#"(module (import "env" "beep" (func (param i32)))
          (func (export "f") (call 0 (i32.const 1))))"#;
        let answers = bodies(2, session.handle(2, load_request(unknown)));
        assert!(
            matches!(
                &answers[0],
                Response::Loaded {
                    cannot_run: None,
                    ..
                }
            ),
            "{answers:?}"
        );
    }

    /// Owi's test programs export nothing: their start function is the
    /// program, listed and chosen as the entry, and explored.
    #[test]
    fn a_module_whose_program_is_its_start_function_is_explored_from_it() {
        let mut session = Session::default();
        let owi = include_str!("../../../tests/data/peers/owi_trap.wat");
        let answers = bodies(1, session.handle(1, load_request(owi)));
        let Response::Loaded {
            functions,
            default_entry,
            cannot_run: None,
            ..
        } = &answers[0]
        else {
            panic!("{answers:?}");
        };
        assert_eq!(default_entry.as_deref(), Ok(START_ENTRY));
        let listed: Vec<(&str, &str)> = functions
            .iter()
            .map(|f| (f.name.as_str(), f.signature.as_str()))
            .collect();
        assert_eq!(listed, [(START_ENTRY, "()")]);
        bodies(2, session.handle(2, explore_request(START_ENTRY)));
        let report = run_to_end(&mut session);
        assert_eq!(report.stop_reason, "completed");
        let exits: Vec<Option<i64>> = report.paths.iter().map(|p| p.exit_code).collect();
        assert_eq!(report.paths.len(), 3);
        assert!(exits.contains(&Some(7)), "{exits:?}");
        assert!(report.paths.iter().any(|p| p.status == Status::Trapped));
        // A module with an export of its own keeps its start function out.
        let both = r#"(module (func $init) (start $init) (func (export "f")))"#;
        let answers = bodies(3, session.handle(3, load_request(both)));
        let Response::Loaded { functions, .. } = &answers[0] else {
            panic!("{answers:?}");
        };
        assert_eq!(functions.len(), 1);
        assert_eq!(functions[0].name, "f");
    }

    #[test]
    fn load_lists_functions_and_the_default_entry_and_replay_traces_a_test() {
        let mut session = Session::default();
        let clamp = include_bytes!("../../../tests/data/clamp.wasm");
        let answers = bodies(
            1,
            session.handle(
                1,
                Request::Load {
                    module: clamp.to_vec(),
                    lines_from: None,
                },
            ),
        );
        let Response::Loaded {
            functions,
            default_entry,
            cannot_run: None,
            lines: None,
        } = &answers[0]
        else {
            panic!("{answers:?}");
        };
        let names: Vec<&str> = functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["__wasm_call_ctors", "clamp"]);
        // Built without names: its parameters are `arg{i}`.
        assert_eq!(functions[1].param_names, ["arg0", "arg1", "arg2"]);
        assert_eq!(default_entry.as_deref(), Ok("clamp"));
        let answers = bodies(2, session.handle(2, load_request(GET_SIGN)));
        assert_eq!(
            answers[0],
            Response::Loaded {
                functions: vec![ExportedFunction {
                    name: "get_sign".into(),
                    signature: "(i32) -> i32".into(),
                    params: vec!["i32".into()],
                    param_names: vec!["x".into()],
                }],
                default_entry: Ok("get_sign".into()),
                cannot_run: None,
                lines: None,
            }
        );
        let Response::Disassembly { lines } = &answers[1] else {
            panic!("{answers:?}");
        };
        assert!(lines.iter().any(|l| l.text.contains("i32.lt_s")));
        let [Response::Printed { text }] = &bodies(
            3,
            session.handle(
                3,
                Request::Print {
                    module: wat::parse_str(GET_SIGN).unwrap(),
                },
            ),
        )[..] else {
            panic!("no WAT");
        };
        assert!(text.contains("(export \"get_sign\""), "{text}");
        let test = serde_json::from_str(r#"{"args": [-7]}"#).unwrap();
        let answers = bodies(
            4,
            session.handle(
                4,
                Request::Replay {
                    entry: "get_sign".into(),
                    test,
                    heap: HeapOptions::default(),
                    buffer_args: Vec::new(),
                    max_depth: None,
                    max_call_depth: None,
                    havoc_imports: false,
                },
            ),
        );
        let [Response::Replayed { path, trace }] = &answers[..] else {
            panic!("{answers:?}");
        };
        assert_eq!(path.returns, [Number::Int(-1)]);
        assert_eq!(trace.len(), 3, "{trace:?}");
        let helpers = r#"(module (func (export "__wasm_call_ctors")))"#;
        let answers = bodies(5, session.handle(5, load_request(helpers)));
        assert!(
            matches!(&answers[0], Response::Loaded { default_entry: Err(why), .. }
                if why.starts_with("the module exports only runtime helpers (__wasm_call_ctors)")),
            "{answers:?}"
        );
    }

    #[test]
    fn an_edited_example_keeps_the_c_lines_of_the_functions_not_edited() {
        let binary = crate::examples::find("dangling-pointer").unwrap().wasm;
        let edited = crate::examples::edited_dangling_pointer();
        let mut session = Session::default();
        let request = Request::Load {
            module: edited.clone().into_bytes(),
            lines_from: Some(binary.to_vec()),
        };
        let answers = bodies(1, session.handle(1, request));
        let Response::Loaded {
            lines: Some(lines), ..
        } = &answers[0]
        else {
            panic!("{answers:?}");
        };
        assert_eq!(lines.lost, ["spell"]);
        assert!(lines.kept.iter().any(|f| f == "first_letter"), "{lines:?}");
        bodies(2, session.handle(2, explore_request("first_letter")));
        // Paths end in `first_letter`, whose code is unchanged: on C lines.
        let with_lines = |report: &Report| {
            let ends = report.paths.iter().map(|p| &p.location);
            ends.filter(|l| l.function == "first_letter")
                .filter(|l| {
                    l.source.as_ref().map(|s| s.file.as_str()) == Some("dangling_pointer.c")
                })
                .count()
        };
        assert!(with_lines(&run_to_end(&mut session)) >= 2);
        // Without the binary, the text has no C lines.
        let answers = bodies(3, session.handle(3, load_request(&edited)));
        assert!(matches!(answers[0], Response::Loaded { lines: None, .. }));
        bodies(4, session.handle(4, explore_request("first_letter")));
        assert_eq!(with_lines(&run_to_end(&mut session)), 0);
    }

    #[test]
    fn page_options_become_engine_options() {
        let page = RunOptions {
            search: "random-path".into(),
            seed: 3,
            max_time_ms: Some(1500),
            max_paths: Some(9),
            max_depth: Some(4),
            max_instructions: Some(1000),
            max_memory_mib: Some(2),
            concrete_args: vec![None, Some(-4)],
            buffer_args: vec![BufferArg {
                param: 0,
                capacity: 8,
                length_param: None,
            }],
            heap: HeapOptions {
                size_mode: symplay_engine::memory::SizeMode::ForkEager,
                ..HeapOptions::default()
            },
            outcomes: OutcomeRules {
                fork_selects: false,
                result_values: 3,
            },
            max_call_depth: Some(200),
            havoc_imports: true,
            merge: MergeOptions {
                mode: MergeMode::Sm,
                max_states: 7,
                validate: true,
            },
        };
        let engine = engine_options(&page).unwrap();
        assert_eq!(
            engine,
            Options {
                search: SearchKind::RandomPath,
                seed: 3,
                max_time: Some(Duration::from_millis(1500)),
                max_paths: Some(9),
                max_depth: Some(4),
                max_instructions: Some(1000),
                max_memory: Some(2 << 20),
                max_call_depth: Some(200),
                havoc_imports: true,
                merge: page.merge,
                interrupt: None,
                concrete_args: vec![None, Some(-4)],
                buffer_args: page.buffer_args.clone(),
                heap: HeapOptions {
                    size_mode: symplay_engine::memory::SizeMode::ForkEager,
                    ..HeapOptions::default()
                },
                outcomes: OutcomeRules {
                    fork_selects: false,
                    result_values: 3,
                },
            }
        );
    }

    /// The step a session answers with once it has taken it.
    fn next_step(session: &mut Session, id: u32, by: StepBy) -> (Step, Option<Report>) {
        assert!(session.handle(id, Request::Step { run: 2, by }).is_empty());
        assert!(session.busy());
        for _ in 0..10_000 {
            for answer in bodies(2, session.work(Duration::from_millis(1))) {
                match answer {
                    Response::Stepped { step, report } => return (*step, report.map(|r| *r)),
                    Response::Progress { .. } | Response::Finished { .. } => {}
                    other => panic!("{other:?}"),
                }
            }
        }
        panic!("no step");
    }

    #[test]
    fn a_run_in_step_mode_waits_for_each_step_and_can_run_to_its_end() {
        let mut session = Session::default();
        bodies(1, session.handle(1, load_request(GET_SIGN)));
        let mut request = explore_request("get_sign");
        if let Request::Explore { stepping, .. } = &mut request {
            *stepping = true;
        }
        let answers = bodies(2, session.handle(2, request));
        let [Response::Progress { .. }, Response::Stepped { step, report }] = &answers[..] else {
            panic!("{answers:?}");
        };
        assert_eq!(step.number, 0);
        assert_eq!(step.next.as_ref().unwrap().location.function, "get_sign");
        assert_eq!(report.as_ref().unwrap().stop_reason, "running");
        // Waiting for a step, the run takes no time.
        assert!(!session.busy());
        assert!(session.work(Duration::from_millis(1)).is_empty());
        // A step for another run changes nothing.
        assert!(session
            .handle(
                3,
                Request::Step {
                    run: 1,
                    by: StepBy::Branch
                }
            )
            .is_empty());
        assert!(!session.busy());
        let (first, report) = next_step(&mut session, 4, StepBy::Branch);
        assert_eq!(first.number, 1);
        assert!(
            matches!(first.events[..], [StepEvent::Forked { node: 0, .. }]),
            "{first:?}"
        );
        assert_eq!(report.unwrap().tree.len(), 3);
        assert!(!session.busy());
        // A step that only ran on comes without a report: nothing changed.
        let (second, report) = next_step(&mut session, 5, StepBy::Instruction);
        assert_eq!((second.number, second.instructions), (2, 1));
        assert_eq!(second.events, [StepEvent::Ran]);
        assert!(report.is_none());
        // A step asked for while one is taken is not taken twice.
        session.handle(
            6,
            Request::Step {
                run: 2,
                by: StepBy::Branch,
            },
        );
        session.handle(
            7,
            Request::Step {
                run: 2,
                by: StepBy::Instruction,
            },
        );
        let mut steps = Vec::new();
        for _ in 0..1000 {
            for answer in bodies(2, session.work(Duration::from_millis(1))) {
                if let Response::Stepped { step, .. } = answer {
                    steps.push(step);
                }
            }
        }
        assert_eq!(steps.len(), 1);
        assert!(matches!(
            steps[0].events[0],
            StepEvent::Forked { .. } | StepEvent::Ended { .. }
        ));
        // Resumed, it runs to its end as a run does.
        assert!(session.handle(8, Request::Resume { run: 2 }).is_empty());
        let report = run_to_end(&mut session);
        assert_eq!(report.stop_reason, "completed");
        assert_eq!(report.paths.len(), 3);
    }

    #[test]
    fn stop_ends_a_run_waiting_in_step_mode_with_its_results() {
        let mut session = Session::default();
        bodies(1, session.handle(1, load_request(ENDLESS)));
        let mut request = explore_request("f");
        if let Request::Explore { stepping, .. } = &mut request {
            *stepping = true;
        }
        bodies(2, session.handle(2, request));
        for id in 3..6 {
            next_step(&mut session, id, StepBy::Branch);
        }
        assert_eq!(
            bodies(2, session.handle(7, Request::Stop { run: 2 })),
            [Response::Stopping]
        );
        let report = run_to_end(&mut session);
        assert_eq!(report.stop_reason, "cancelled");
        assert!(!report.paths.is_empty());
    }
}
