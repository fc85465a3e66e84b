//! The messages between the page and the worker, sent as JSON text. Every
//! request carries a number the page gives it, and every answer the number
//! of the request it answers, so the page can tell an answer about the
//! module or run it shows from a late one about an earlier one.

use crate::base64_bytes;
use crate::disassembly::Line;
use crate::run_options::RunOptions;
use crate::share::Shared;
use serde::{Deserialize, Serialize};
use symplay_engine::memory::HeapOptions;
use symplay_engine::report::step::{Step, StepBy};
use symplay_engine::report::{param_name, BufferArg, PathReport, Report, TestInput, TraceEvent};

/// A request or an answer with its request's number. Requests are numbered
/// from 1; `Ready`, which answers none, has 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope<T> {
    pub id: u32,
    pub body: T,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Load a module (binary or WAT text) in place of the one loaded
    /// before; an exploration of that one ends unreported. Answered by
    /// `loaded` and then `disassembly`, or by `error`.
    Load {
        #[serde(with = "base64_bytes")]
        module: Vec<u8>,
        /// The binary whose WAT text, edited, `module` is (a gallery
        /// example): its C lines are carried to the functions whose code
        /// is unchanged, and `loaded` says which functions lost theirs.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "base64_bytes::option"
        )]
        lines_from: Option<Vec<u8>>,
    },
    /// A binary module as WAT text, to edit: `printed` or `error`.
    Print {
        #[serde(with = "base64_bytes")]
        module: Vec<u8>,
    },
    /// Explore an exported function of the loaded module: `progress` and
    /// `snapshot`s until `finished`, or `error`. In step mode, the run
    /// waits at its start instead (`stepped`, step 0) for `step` requests.
    Explore {
        entry: String,
        /// Boxed: the largest of the requests, which the page's effects
        /// carry by value.
        options: Box<RunOptions>,
        #[serde(default)]
        stepping: bool,
    },
    /// Step mode: run request `run`'s next state for one step: `progress`
    /// while the step goes on, then `stepped` (and `finished` if the run
    /// is over).
    Step { run: u32, by: StepBy },
    /// Step mode off: request `run` runs to its end as any run does.
    Resume { run: u32 },
    /// End the exploration of request `run`: `stopping` at once (the worker
    /// reads requests between two steps of a run), then the run's
    /// `finished` with its results so far. A stop for a run that is over
    /// does nothing.
    Stop { run: u32 },
    /// Decode a share link's fragment, which may inflate to megabytes:
    /// `link` or `error`. The page would freeze doing it itself.
    OpenLink { fragment: String },
    /// Run one test of the loaded module concretely, with its trace,
    /// under the heap model of the run that found it: `replayed` or `error`.
    Replay {
        entry: String,
        test: TestInput,
        #[serde(default)]
        heap: HeapOptions,
        /// The run's buffer parameters, made again.
        #[serde(default)]
        buffer_args: Vec<BufferArg>,
        /// The run's depth limit, where a path it cut ends again.
        #[serde(default)]
        max_depth: Option<u32>,
        /// The run's call-depth limit, when not the default.
        #[serde(default)]
        max_call_depth: Option<u32>,
        /// Whether the run gave unprovided imports fresh results.
        #[serde(default)]
        havoc_imports: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportedFunction {
    pub name: String,
    /// As in `(i32, i32) -> i32`.
    pub signature: String,
    /// The parameters' types, as in `i32`.
    pub params: Vec<String>,
    /// The parameters' names, as their inputs are named (`x`, `arg1`).
    #[serde(default)]
    pub param_names: Vec<String>,
}

impl ExportedFunction {
    /// The name of parameter `i` (`arg{i}` in a message without names).
    pub fn param_name(&self, i: usize) -> String {
        param_name(&self.param_names, i)
    }
}

/// The functions of a `lines_from` binary that have C lines, by name:
/// those that keep them in the module loaded (their code is unchanged),
/// and those that lost them (their code was edited, or they are gone).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CarriedLines {
    pub kept: Vec<String>,
    pub lost: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Response {
    /// The worker has started; requests sent before this are lost, since
    /// its handler is set only once its wasm has loaded.
    Ready,
    Loaded {
        functions: Vec<ExportedFunction>,
        /// The function to explore unless another is chosen (the front
        /// end's rule, as the command line's), or why there is none.
        default_entry: Result<String, String>,
        /// Why no function can be explored (an import the engine does not
        /// provide), known at load.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cannot_run: Option<String>,
        /// Loaded with `lines_from`: whose C lines were carried over.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lines: Option<CarriedLines>,
    },
    /// The loaded module as WAT, each line with the byte offset it prints.
    Disassembly {
        lines: Vec<Line>,
    },
    Printed {
        text: String,
    },
    Progress {
        paths: usize,
        pending: usize,
        /// Of the pending states, those in a merge under way.
        #[serde(default)]
        merging: usize,
        queries: u64,
        instructions: u64,
        elapsed_ms: f64,
    },
    /// The report so far of a run still going (`stop_reason` `running`),
    /// so the page can draw the tree as it grows.
    Snapshot {
        report: Box<Report>,
    },
    /// A step of a run in step mode, and its report after it: none when
    /// the step only ran on without forking (the tree and paths are as
    /// they were).
    Stepped {
        step: Box<Step>,
        report: Option<Box<Report>>,
    },
    /// The run will end after its current step: the worker is not stuck.
    Stopping,
    Finished {
        report: Box<Report>,
    },
    Replayed {
        path: Box<PathReport>,
        trace: Vec<TraceEvent>,
    },
    /// The state a share link holds.
    Link {
        shared: Box<Shared>,
    },
    Error {
        message: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_answers_travel_as_json_with_their_numbers() {
        let request = Envelope {
            id: 7,
            body: Request::Load {
                module: b"\0asm\x01\0\0\0".to_vec(),
                lines_from: None,
            },
        };
        let text = serde_json::to_string(&request).unwrap();
        assert_eq!(
            text,
            r#"{"id":7,"body":{"type":"load","module":"AGFzbQEAAAA="}}"#
        );
        assert_eq!(
            serde_json::from_str::<Envelope<Request>>(&text).unwrap(),
            request
        );
        let answer = Envelope {
            id: 7,
            body: Response::Loaded {
                functions: Vec::new(),
                default_entry: Err("the module exports nothing".into()),
                cannot_run: Some("unsupported import env.foo (i32)".into()),
                lines: Some(CarriedLines {
                    kept: vec!["main".into()],
                    lost: vec!["parse".into()],
                }),
            },
        };
        let text = serde_json::to_string(&answer).unwrap();
        assert_eq!(
            serde_json::from_str::<Envelope<Response>>(&text).unwrap(),
            answer
        );
        // An edited example's text goes with the binary it was printed from.
        let edited = Envelope {
            id: 8,
            body: Request::Load {
                module: b"(module)".to_vec(),
                lines_from: Some(b"\0asm\x01\0\0\0".to_vec()),
            },
        };
        let text = serde_json::to_string(&edited).unwrap();
        assert_eq!(
            text,
            r#"{"id":8,"body":{"type":"load","module":"KG1vZHVsZSk=","lines_from":"AGFzbQEAAAA="}}"#
        );
        assert_eq!(
            serde_json::from_str::<Envelope<Request>>(&text).unwrap(),
            edited
        );
        let bad = r#"{"id":1,"body":{"type":"load","module":"not base64!"}}"#;
        let error = serde_json::from_str::<Envelope<Request>>(bad).unwrap_err();
        assert!(error.to_string().contains("Invalid"), "{error}");
    }
}
