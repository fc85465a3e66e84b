//! Use after return: a caller that reads a returned function's stack
//! variable through a pointer it kept ends its path with a
//! `use_after_return` naming the variable, its function and where that
//! returned, and the test input replays it; frames reused by later calls,
//! recursion and a variable-length array raise no alarm.

use symplay_engine::exec::{explore, replay, Options};
use symplay_engine::report::{Access, InputValue, MemoryErrorKind, Report, Status};

fn heap_module(name: &str) -> symplay_wasm::Module {
    let path = format!("{}/../tests/data/heap/{name}", env!("CARGO_MANIFEST_DIR"));
    symplay_wasm::load(&std::fs::read(path).unwrap()).unwrap()
}

fn reading(r: &Report, path: usize) -> i64 {
    let named = &r.paths[path].inputs.named;
    assert_eq!(named.len(), 1);
    match named[0].value {
        InputValue::Int(v) => v,
        InputValue::Bytes(_) => panic!("an integer input"),
    }
}

#[test]
fn a_caller_reading_a_returned_frame_uses_it_after_return_and_replays() {
    for level in ["O0", "O1"] {
        let file = format!("use_after_return.{level}.wasm");
        let m = heap_module(&file);
        let r = explore(&m, "use_after_return", &Options::default()).unwrap();
        assert_eq!(r.paths.len(), 2, "{file}");
        let bug = r.paths.iter().position(|p| p.is_bug()).expect("a bug");
        let p = &r.paths[bug];
        let e = p.memory_error.as_ref().unwrap();
        assert_eq!(
            (e.kind, e.access, e.width, e.offset),
            (MemoryErrorKind::UseAfterReturn, Access::Read, 1, Some(0)),
            "{file}"
        );
        assert!(reading(&r, bug) > 100, "{file}: only large readings");
        let ok = 1 - bug;
        assert_eq!(r.paths[ok].status, Status::Returned, "{file}");
        assert!(reading(&r, ok) <= 100, "{file}");
        let o = p.objects.iter().find(|o| Some(o.id) == e.object).unwrap();
        assert_eq!(
            (o.kind.as_str(), o.name.as_deref(), o.size),
            ("local", Some("text"), 4),
            "{file}"
        );
        assert_eq!(o.site.function, "parse", "{file}");
        assert_eq!(o.site.source.as_ref().map(|s| s.line), Some(17), "{file}");
        let returned = o.freed_at.as_ref().expect("where parse returned");
        assert_eq!(returned.function, "parse", "{file}");
        assert_eq!(returned.source.as_ref().map(|s| s.line), Some(20), "{file}");
        assert_eq!(p.location.source.as_ref().map(|s| s.line), Some(37));
        assert!(
            p.outcome()
                .contains("the local text of 4 bytes in parse's frame"),
            "{}",
            p.outcome()
        );
        let again = replay(&m, "use_after_return", &p.inputs).unwrap();
        assert_eq!(again.memory_error, p.memory_error, "{file}: replay");
        assert_eq!(again.location, p.location, "{file}: replay");
    }
}

#[test]
fn a_later_call_reusing_the_frame_is_fine_and_the_caller_still_is_not() {
    for level in ["O0", "O1"] {
        let file = format!("use_after_return.{level}.wasm");
        let m = heap_module(&file);
        let r = explore(&m, "use_after_call", &Options::default()).unwrap();
        // checksum's frame takes parse's bytes on both paths: no error
        // there; the read through the kept pointer is one, on line 46.
        assert_eq!(r.paths.len(), 2, "{file}");
        let bug = r.paths.iter().position(|p| p.is_bug()).expect("a bug");
        let e = r.paths[bug].memory_error.as_ref().unwrap();
        assert_eq!(e.kind, MemoryErrorKind::UseAfterReturn, "{file}");
        assert_eq!(
            r.paths[bug].location.source.as_ref().map(|s| s.line),
            Some(46)
        );
        assert!(reading(&r, bug) > 100, "{file}");
        assert_eq!(r.paths[1 - bug].status, Status::Returned, "{file}");
    }
}

#[test]
fn frames_reused_by_calls_recursion_and_a_growing_frame_raise_no_alarm() {
    for level in ["O0", "O1"] {
        let file = format!("stack_frames.{level}.wasm");
        let m = heap_module(&file);
        let r = explore(&m, "stack_frames", &Options::default()).unwrap();
        // One path per x in 0..=5 and the range check's.
        assert!(r.paths.len() >= 7, "{file}: {} paths", r.paths.len());
        for p in &r.paths {
            assert_eq!(p.status, Status::Returned, "{file}: {}", p.outcome());
        }
    }
}

#[test]
fn keeping_the_module_allocator_turns_the_check_off() {
    let m = heap_module("use_after_return.O1.wasm");
    let mut options = Options::default();
    options.heap.objects = false;
    let r = explore(&m, "use_after_return", &options).unwrap();
    assert!(r.paths.iter().all(|p| p.status == Status::Returned));
}
