//! The memory interface owns memory: no source outside `engine/src/memory/`
//! reaches a model's insides (the objects model's objects, the flat
//! model's store, the enum's variants), only `MemoryModel`'s methods and
//! the types `memory` re-exports, so that how memory is kept can change
//! behind the interface. The compiler refuses most of this while the
//! models are private; this says it again should one become public.

use symplay_tests::sources::{files, root};

/// The code of `text`, its `//` comments dropped.
fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where `code` reaches past the interface: each a short reason.
fn reaches_past(code: &str) -> Vec<String> {
    let squeezed: String = code.split_whitespace().collect();
    let mut found: Vec<String> = [
        ".objects()",
        ".objects_mut()",
        "MemoryModel::objects",
        "MemoryModel::Objects",
        "MemoryModel::Flat",
        "ObjectMemory",
        "FlatMemory",
        "memory::objects",
        "memory::flat",
    ]
    .iter()
    .filter(|p| squeezed.contains(*p))
    .map(|p| format!("`{p}`"))
    .collect();
    // `use crate::memory::{objects::X, …}`: the top names of each group.
    for (start, _) in squeezed.match_indices("memory::{") {
        let group = braced(&squeezed[start + "memory::".len()..]);
        let mut names = group.split(',').filter_map(|n| n.split("::").next());
        if let Some(module) = names.find(|&n| n == "objects" || n == "flat") {
            found.push(format!("an import from `memory::{module}`"));
        }
    }
    found
}

/// What the braces `text` starts with hold, inner groups whole.
fn braced(text: &str) -> &str {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 1 => return &text[1..i],
            '}' => depth -= 1,
            _ => {}
        }
    }
    text
}

#[test]
fn nothing_outside_memory_reaches_a_models_insides() {
    let root = root();
    let mut sources = Vec::new();
    files(&root, &[".rs"], &mut sources);
    assert!(sources.len() > 100, "{} sources", sources.len());
    let mut offences = Vec::new();
    for file in &sources {
        let relative = file.strip_prefix(&root).unwrap_or(file);
        // The models' own folder; and this test, which spells out what it
        // looks for.
        if relative.starts_with("engine/src/memory") || file.ends_with(file!()) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for what in reaches_past(&code(&text)) {
            offences.push(format!("{}: {what}", relative.display()));
        }
    }
    assert!(
        offences.is_empty(),
        "outside engine/src/memory/, use MemoryModel's methods and what memory \
         re-exports instead:\n{}",
        offences.join("\n")
    );
}

#[test]
fn the_scan_sees_each_way_past_the_interface() {
    let past = |code: &str| !reaches_past(code).is_empty();
    assert!(past("let o = memory.objects_mut()?;"));
    assert!(past("m.and_then(|m| m\n    .objects())"));
    assert!(past("m.and_then(MemoryModel::objects)"));
    assert!(past("if let MemoryModel::Objects(o) = m {}"));
    assert!(past("use crate::memory::objects::within;"));
    assert!(past(
        "use crate::memory::{\n    objects::{ALIGN, UNCHECKED},\n    Size,\n};"
    ));
    assert!(past("use crate::memory::{flat, Size};"));
    assert!(!past(
        "use crate::memory::{within, Object, ObjectKind, Size, ALIGN};"
    ));
    assert!(!past("let n = memory.made_objects().len();"));
    assert!(!past("use crate::report::objects;"));
    assert!(!past("use crate::{memory::{Size}, report::objects};"));
}
