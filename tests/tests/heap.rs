//! Heap checks on real compiler output: C compiled with wasi-libc at -O0
//! and -O1 (dlmalloc inside the module, replaced by the model) and a module
//! importing `malloc`/`free` from `env`. `tests/data/heap/expected.txt`
//! names, per module and entry, the memory error it has (kind, access, C
//! line) or `none`; the exploration must find exactly that, and the input
//! it gives must replay to the same error at the same place. The examples
//! of the gallery (but its heap bugs) and the test corpus have no memory
//! error at all.

use std::path::Path;
use symplay_engine::exec::{explore, replay_traced, Options, ReplayOptions};
use symplay_engine::memory::{HeapOptions, Split};
use symplay_engine::report::{PathReport, Report, Status};
use symplay_tests::corpus;
use symplay_wasm::ExportKind;

fn line(p: &PathReport) -> Option<u32> {
    p.location.source.as_ref().map(|s| s.line)
}

/// The replay of `p` ends with the same error at the same place.
fn assert_replays(module: &symplay_wasm::Module, entry: &str, p: &PathReport, what: &str) {
    let options = ReplayOptions {
        max_instructions: Some(50_000_000),
        max_events: 0,
        heap: HeapOptions::default(),
        buffer_args: Vec::new(),
        max_depth: None,
        max_call_depth: None,
        havoc_imports: false,
    };
    let replayed = replay_traced(module, entry, &p.inputs, &options)
        .unwrap_or_else(|e| panic!("{what}: replay: {e}"))
        .path;
    let error = |p: &PathReport| {
        p.memory_error
            .as_ref()
            .map(|e| (e.kind, e.access, e.offset, e.width))
    };
    assert_eq!(replayed.status, p.status, "{what}: replayed status");
    assert_eq!(error(&replayed), error(p), "{what}: replayed error");
    assert_eq!(replayed.location, p.location, "{what}: replayed place");
}

#[test]
fn each_heap_bug_is_found_with_its_kind_and_line_and_replays() {
    each_heap_bug_is_found(&corpus::heap_options());
}

/// Splitting objects into pieces changes what an access reads, never what
/// a program does: every bug is found alike under small pieces (so that
/// most blocks and the stack split), and its input replays to it in a run
/// that splits nothing.
#[test]
fn under_splitting_each_heap_bug_is_found_alike_and_replays_unsplit() {
    let mut options = corpus::heap_options();
    options.heap.split = Some(Split {
        threshold: 24,
        piece: 16,
    });
    each_heap_bug_is_found(&options);
}

fn each_heap_bug_is_found(options: &Options) {
    let dir = corpus::heap_dir();
    let cases = corpus::heap_cases().unwrap();
    assert!(cases.len() >= 40, "the expected list is complete");
    let mut correct_programs = std::collections::BTreeSet::new();
    for case in &cases {
        let what = format!("{} {}", case.file, case.entry);
        let wasm = std::fs::read(dir.join(&case.file)).unwrap();
        let module = symplay_wasm::load(&wasm).unwrap();
        let r: Report = explore(&module, &case.entry, options).unwrap();
        let without_malloc = [
            "stack_overflow",
            "global_overflow",
            "stack_buffer_overflow",
            "global_tables",
            "use_after_return",
            "stack_frames",
        ];
        if !without_malloc
            .iter()
            .any(|m| case.file.starts_with(&format!("{m}.")))
        {
            // (A program without malloc keeps flat memory: only its stack
            // pointer and its C variables are checked.)
            assert_eq!(r.memory_model, "objects", "{what}");
        }
        assert_eq!(r.stop_reason, "completed", "{what}");
        let bugs: Vec<&PathReport> = r
            .paths
            .iter()
            .filter(|p| p.status != Status::Returned)
            .collect();
        match case.kind.as_str() {
            "none" => {
                assert!(
                    bugs.is_empty(),
                    "{what}: no bug, found {:?}",
                    bugs[0].outcome()
                );
                assert!(
                    r.paths.iter().all(|p| p.leaks.is_empty()),
                    "{what}: no leak"
                );
                correct_programs.insert(case.file.split('.').next().unwrap().to_string());
            }
            "leak" => {
                assert!(bugs.is_empty(), "{what}: a leak is no error");
                let p = r
                    .paths
                    .iter()
                    .find(|p| !p.leaks.is_empty())
                    .unwrap_or_else(|| panic!("{what}: a leak"));
                let leaked = p.objects.iter().find(|o| o.id == p.leaks[0]).unwrap();
                assert_eq!(
                    leaked.site.source.as_ref().map(|s| s.line),
                    case.line,
                    "{what}: the leaked block's allocation"
                );
            }
            kind => {
                let p = bugs
                    .iter()
                    .find(|p| p.memory_error.as_ref().map(|e| e.kind.name()) == Some(kind))
                    .unwrap_or_else(|| {
                        panic!(
                            "{what}: a {kind}, found {:?}",
                            bugs.iter().map(|p| p.outcome()).collect::<Vec<_>>()
                        )
                    });
                let e = p.memory_error.as_ref().unwrap();
                if case.access != "-" {
                    assert_eq!(e.access.name(), case.access, "{what}: access");
                }
                assert_eq!(line(p), case.line, "{what}: line");
                assert!(
                    bugs.iter().all(|b| b.memory_error.is_some()),
                    "{what}: only memory errors"
                );
                assert_replays(&module, &case.entry, p, &what);
            }
        }
    }
    assert!(correct_programs.len() >= 10, "{correct_programs:?}");
}

/// The gallery's memory bugs, there to be found (their reports are golden),
/// and the worked examples of relocatable addressing, whose E8 reads past
/// a block (`tests/tests/relocatable.rs` checks them).
const BUGGY_EXAMPLES: [&str; 8] = [
    "table_lookup.wasm",
    "dangling_pointer.wasm",
    "heap_overflow.wasm",
    "use_after_free.wasm",
    "double_free.wasm",
    "length_read.wasm",
    "pointer_array.wasm",
    "examples.wasm",
];

#[test]
fn the_examples_have_no_memory_error_or_leak() {
    let mut checked = 0;
    for path in corpus::example_and_test_modules().unwrap() {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        if BUGGY_EXAMPLES.contains(&name.as_ref()) {
            continue;
        }
        let module = symplay_wasm::load(&std::fs::read(&path).unwrap()).unwrap();
        for export in module.exports.iter().filter(|e| e.kind == ExportKind::Func) {
            let options = Options {
                max_paths: Some(200),
                max_depth: Some(64),
                ..corpus::heap_options()
            };
            let Ok(r) = explore(&module, &export.name, &options) else {
                continue;
            };
            for p in &r.paths {
                assert!(
                    p.memory_error.is_none() && p.leaks.is_empty(),
                    "{} {}: {}",
                    path.display(),
                    export.name,
                    p.outcome()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked} entries");
}

/// A block of `4 * n` bytes for `n` below 50,000 whose check fails only
/// for `n >= 40`, past the default capacity of 100 bytes: the default
/// options find the failure, as the module's own allocator does, with an
/// input that replays it.
#[test]
fn a_bug_that_needs_a_block_past_the_capacity_is_found_with_the_defaults() {
    let dir = corpus::heap_dir();
    for level in ["O0", "O1"] {
        let what = format!("large_block.{level}.wasm");
        let module = symplay_wasm::load(&std::fs::read(dir.join(&what)).unwrap()).unwrap();
        let own_allocator = Options {
            heap: HeapOptions {
                objects: false,
                ..HeapOptions::default()
            },
            ..Options::default()
        };
        for (options, how) in [
            (Options::default(), "defaults"),
            (own_allocator, "own allocator"),
        ] {
            let r = explore(&module, "large_block", &options).unwrap();
            let failed: Vec<&PathReport> = r
                .paths
                .iter()
                .filter(|p| p.status == Status::AssertFailed)
                .collect();
            assert!(!failed.is_empty(), "{what} ({how}): no assertion failure");
            for p in failed {
                let n = p.inputs.get("n").cloned();
                assert!(
                    matches!(n, Some(symplay_engine::report::InputValue::Int(n)) if (40..50_000).contains(&n)),
                    "{what} ({how}): n = {n:?}"
                );
                if how == "defaults" {
                    assert_replays(&module, "large_block", p, &what);
                }
            }
        }
    }
}

/// `symplay_symbolic_sized_buffer` under the module's own allocator (no
/// memory objects): the buffer's bytes and length are inputs as under the
/// objects model, its reads unchecked; before, the call trapped with
/// `unreachable`.
#[test]
fn a_sized_buffer_under_the_module_s_allocator_is_explored_unchecked() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let wasm = std::fs::read(root.join("static/examples/c/length_read.wasm")).unwrap();
    let module = symplay_wasm::load(&wasm).unwrap();
    let kept = Options {
        heap: HeapOptions {
            objects: false,
            ..HeapOptions::default()
        },
        ..corpus::heap_options()
    };
    let r = explore(&module, "first_header", &kept).unwrap();
    assert!(
        r.paths.iter().all(|p| p.status == Status::Returned),
        "{r:#?}"
    );
    let mut lengths: Vec<i64> = r
        .paths
        .iter()
        .filter_map(|p| match p.inputs.get("headers") {
            Some(symplay_engine::report::InputValue::Bytes(b)) => Some(b.len() as i64),
            _ => None,
        })
        .collect();
    lengths.sort_unstable();
    lengths.dedup();
    // Every place the scan can stop is a path: 0 to 7 characters, '&' or
    // the end; the empty string and length 1 among them.
    assert!(r.paths.len() >= 15, "{}", r.paths.len());
    assert!(lengths.starts_with(&[0, 1]), "{lengths:?}");
    // The objects model finds the read past the buffer of length 1.
    let checked = explore(&module, "first_header", &corpus::heap_options()).unwrap();
    assert!(checked.paths.iter().any(|p| p.memory_error.is_some()));
}
