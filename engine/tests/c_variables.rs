//! C global and stack variables as objects, known from DWARF: a symbolic
//! index that may leave the variable its address was computed from is an
//! overflow of that variable, reported with its name and declaration and
//! replayed to the same error; a correct index is no error.

use symplay_engine::exec::{explore, replay, Options};
use symplay_engine::report::{MemoryErrorKind, Status};

fn heap_module(name: &str) -> symplay_wasm::Module {
    let path = format!("{}/../tests/data/heap/{name}", env!("CARGO_MANIFEST_DIR"));
    symplay_wasm::load(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn the_variables_come_from_dwarf_with_their_sizes_and_frames() {
    let m = heap_module("stack_buffer_overflow.O1.wasm");
    let v = m.variables.as_ref().expect("DWARF variables");
    let (func, _) = m
        .funcs
        .iter()
        .zip(0u32..)
        .map(|(f, i)| (i, f))
        .find(|(_, f)| f.name == "stack_buffer_overflow")
        .unwrap();
    let frame = &v.frames[&func];
    let mut names: Vec<(i64, &str, u64)> = frame
        .variables
        .iter()
        .map(|(offset, v)| (*offset, v.name.as_str(), v.size))
        .collect();
    names.sort();
    assert_eq!(names, [(0, "name", 8), (8, "input", 8)]);
    let g = heap_module("global_overflow.O1.wasm");
    let globals = &g.variables.as_ref().unwrap().globals;
    let days = globals.iter().find(|(_, v)| v.name == "days_in").unwrap();
    assert_eq!(days.1.size, 48);
    assert_eq!(days.1.declared.as_ref().map(|d| d.line), Some(7));
    let (base, found) = g
        .variables
        .as_ref()
        .unwrap()
        .global_at(days.0 + 47)
        .unwrap();
    assert_eq!((base, found.name.as_str()), (days.0, "days_in"));
}

#[test]
fn an_index_past_a_global_or_a_stack_array_is_its_overflow_and_replays() {
    for (file, entry, kind, name, object_kind, offset) in [
        (
            "global_overflow.O0.wasm",
            "global_overflow",
            MemoryErrorKind::GlobalOverflow,
            "days_in",
            "global",
            48,
        ),
        (
            "global_overflow.O1.wasm",
            "global_overflow",
            MemoryErrorKind::GlobalOverflow,
            "days_in",
            "global",
            48,
        ),
        (
            "stack_buffer_overflow.O0.wasm",
            "stack_buffer_overflow",
            MemoryErrorKind::StackBufferOverflow,
            "name",
            "local",
            8,
        ),
        (
            "stack_buffer_overflow.O1.wasm",
            "stack_buffer_overflow",
            MemoryErrorKind::StackBufferOverflow,
            "name",
            "local",
            8,
        ),
    ] {
        let m = heap_module(file);
        let r = explore(&m, entry, &Options::default()).unwrap();
        let bugs: Vec<_> = r.paths.iter().filter(|p| p.is_bug()).collect();
        assert_eq!(bugs.len(), 1, "{file}: one bug path");
        let p = bugs[0];
        let e = p.memory_error.as_ref().unwrap();
        assert_eq!(e.kind, kind, "{file}");
        assert_eq!(e.offset, Some(offset), "{file}: the first byte past it");
        let o = p.objects.iter().find(|o| Some(o.id) == e.object).unwrap();
        assert_eq!(
            (o.kind.as_str(), o.name.as_deref()),
            (object_kind, Some(name)),
            "{file}"
        );
        assert!(
            p.outcome()
                .contains(&format!("the {object_kind} {name} of")),
            "{}",
            p.outcome()
        );
        // Every other path returns: the checks let the in-bounds indices be.
        assert!(r
            .paths
            .iter()
            .filter(|p| !p.is_bug())
            .all(|p| p.status == Status::Returned));
        let again = replay(&m, entry, &p.inputs).unwrap();
        assert_eq!(again.status, Status::MemoryError, "{file}: replay");
        assert_eq!(again.memory_error, p.memory_error, "{file}: replay");
        assert_eq!(
            again.inputs, p.inputs,
            "{file}: the replay reports the test's values"
        );
    }
}

#[test]
fn indices_that_stay_inside_raise_no_alarm() {
    // `t[k - 1]` puts the constant part of the address before `t`.
    for file in ["global_tables.O0.wasm", "global_tables.O1.wasm"] {
        let m = heap_module(file);
        let r = explore(&m, "global_tables", &Options::default()).unwrap();
        assert!(r.paths.len() > 2, "{file}");
        assert!(
            r.paths.iter().all(|p| p.status == Status::Returned),
            "{file}"
        );
    }
}

#[test]
fn keeping_the_module_allocator_turns_the_checks_off() {
    let m = heap_module("global_overflow.O1.wasm");
    let mut options = Options::default();
    options.heap.objects = false;
    let r = explore(&m, "global_overflow", &options).unwrap();
    assert!(r.paths.iter().all(|p| p.status == Status::Returned));
}
