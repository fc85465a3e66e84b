//! An example binary printed as WAT, edited and assembled again keeps the
//! binary's C lines in the functions whose code is unchanged.

use symplay_wasm::{carry_source_lines, load, FuncBody, LinesCarried, Module, SourceLine};

fn example(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../static/examples/c/{name}.wasm",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `binary`'s text, edited by `edit` and assembled again, with the lines
/// carried from `binary`.
fn edited(binary: &Module, bytes: &[u8], edit: impl Fn(&str) -> String) -> (Module, LinesCarried) {
    let text = wasmprinter::print_bytes(bytes).unwrap();
    let mut again = load(edit(&text).as_bytes()).unwrap();
    // Text alone has no lines.
    assert_eq!(again.source_lines, None);
    let carried = carry_source_lines(&mut again, binary);
    (again, carried)
}

/// The line of each instruction of function `name`.
fn lines_of(module: &Module, name: &str) -> Vec<Option<SourceLine>> {
    let func = module.funcs.iter().find(|f| f.name == name).unwrap();
    let FuncBody::Defined(code) = &func.body else {
        panic!("{name} is imported");
    };
    let lines = module.source_lines.as_ref();
    code.offsets
        .iter()
        .map(|&o| lines.and_then(|l| l.line_at(o)))
        .collect()
}

/// Replaces the first `from` after `(func $name` by `to`.
fn in_function(text: &str, name: &str, from: &str, to: &str) -> String {
    let start = text.find(&format!("(func ${name} ")).unwrap();
    let at = start + text[start..].find(from).unwrap();
    format!("{}{to}{}", &text[..at], &text[at + from.len()..])
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn an_unedited_reprint_keeps_every_line_of_every_example() {
    let dir = format!("{}/../static/examples/c", env!("CARGO_MANIFEST_DIR"));
    let mut examples = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "wasm") {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let binary = load(&bytes).unwrap();
        let (again, carried) = edited(&binary, &bytes, str::to_string);
        assert!(carried.lost.is_empty(), "{path:?}: {carried:?}");
        assert!(!carried.kept.is_empty(), "{path:?}");
        for name in &carried.kept {
            let lines = lines_of(&binary, name);
            assert!(lines.iter().any(Option::is_some), "{path:?} {name}");
            assert_eq!(lines_of(&again, name), lines, "{path:?} {name}");
        }
        // Functions without lines (wasi-libc's) are neither kept nor lost.
        let with_lines = binary
            .funcs
            .iter()
            .filter(|f| matches!(f.body, FuncBody::Defined(_)))
            .filter(|f| lines_of(&binary, &f.name).iter().any(Option::is_some))
            .count();
        assert_eq!(carried.kept.len(), with_lines, "{path:?}");
        examples += 1;
    }
    assert!(examples >= 10, "{examples} examples");
}

#[test]
fn an_edited_function_loses_its_lines_and_the_others_keep_theirs() {
    let bytes = example("dangling_pointer");
    let binary = load(&bytes).unwrap();
    // 'a' + ... becomes 'b' + ...: one constant of `spell` changed.
    let (again, carried) = edited(&binary, &bytes, |text| {
        in_function(text, "spell", "i32.const 97", "i32.const 98")
    });
    assert_eq!(
        carried,
        LinesCarried {
            kept: names(&["_initialize", "first_letter", "pick_word"]),
            lost: names(&["spell"]),
        }
    );
    assert!(lines_of(&again, "spell").iter().all(Option::is_none));
    for name in ["pick_word", "first_letter"] {
        let lines = lines_of(&binary, name);
        assert!(lines
            .iter()
            .any(|l| l.as_ref().is_some_and(|l| l.file == "dangling_pointer.c")));
        assert_eq!(lines_of(&again, name), lines, "{name}");
    }
}

#[test]
fn a_renamed_function_loses_its_lines() {
    let bytes = example("dangling_pointer");
    let binary = load(&bytes).unwrap();
    let (again, carried) = edited(&binary, &bytes, |text| {
        text.replace("$first_letter", "$first")
    });
    assert_eq!(carried.lost, names(&["first_letter"]));
    assert_eq!(carried.kept, names(&["_initialize", "pick_word", "spell"]));
    assert!(lines_of(&again, "first").iter().all(Option::is_none));
}

#[test]
fn a_function_added_before_the_others_changes_none_of_them() {
    let bytes = example("dangling_pointer");
    let binary = load(&bytes).unwrap();
    // Every function after it, and every call, has another index now.
    let (again, carried) = edited(&binary, &bytes, |text| {
        in_function(
            text,
            "spell",
            "(func $spell ",
            "(func $added) (func $spell ",
        )
    });
    assert!(carried.lost.is_empty(), "{carried:?}");
    assert_eq!(
        carried.kept,
        names(&["_initialize", "first_letter", "pick_word", "spell"])
    );
    assert_eq!(
        lines_of(&again, "first_letter"),
        lines_of(&binary, "first_letter")
    );
    assert!(lines_of(&again, "added").iter().all(Option::is_none));
}
