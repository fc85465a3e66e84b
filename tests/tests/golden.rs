//! Golden reports: every exported function of every example and test
//! module (`static/examples/c/*.wasm`, `tests/data/*.wasm`,
//! `tests/data/wat/*.wat`) is explored with fixed options, and what the
//! exploration found (the parameters' names, paths with their outcomes,
//! inputs and locations, the tree's shape, drops, concretised values, memory
//! errors, instruction and fork counts, coverage) must equal
//! the committed `tests/golden/<module>.json`, and every golden file must
//! have its module. The engine's restructuring keeps behaviour: a change
//! here is either a bug or on purpose, and then the files are written anew
//! with `SYMPLAY_BLESS=1 cargo test -p symplay-tests --test golden` (which
//! says which files changed, and is refused under `CI`) and the change is
//! reviewed in the diff.

use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use symplay_engine::exec::{explore, Options};
use symplay_engine::report::Report;
use symplay_engine::search::SearchKind;
use symplay_tests::corpus;
use symplay_wasm::ExportKind;

/// Bounded by counts, not time, so that every run ends the same; the depth
/// bound ends the loops over a symbolic count, which depth first would
/// follow without end.
fn options() -> Options {
    Options {
        search: SearchKind::Dfs,
        max_paths: Some(200),
        max_depth: Some(64),
        max_instructions: Some(20_000_000),
        ..Options::default()
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The modules, by file name, sorted.
fn modules() -> Vec<(String, Vec<u8>)> {
    corpus::example_and_test_modules()
        .unwrap()
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(p).unwrap())
        })
        .collect()
}

/// What an exploration found, without timings and printed formulas (whose
/// form may change while their meaning does not).
fn summary(r: &Report) -> Value {
    let paths: Vec<Value> = r
        .paths
        .iter()
        .map(|p| {
            let mut path = json!({
                "status": p.status,
                "trap": p.trap,
                "returns": p.returns,
                "exit_code": p.exit_code,
                "inputs": p.inputs,
                "location": p.location.text(),
                "node": p.node,
                "stdout": p.stdout,
                "stderr": p.stderr,
                "notes": p.notes,
            });
            if let Some(e) = &p.memory_error {
                path["memory_error"] = json!(e.describe(&p.objects));
            }
            path
        })
        .collect();
    let tree: Vec<String> = r
        .tree
        .iter()
        .map(|n| {
            let parent = n
                .parent
                .map_or_else(|| "root".into(), |p| format!("of {p}"));
            let what = match (&n.fork, n.path, n.dropped) {
                (Some(fork), _, _) => format!("fork at {}", fork.text()),
                (None, Some(path), _) => format!("path {path}"),
                (None, None, true) => "dropped".into(),
                (None, None, false) => "open".into(),
            };
            format!("{} {parent}: {what}", n.id)
        })
        .collect();
    let drops: Vec<String> = r.drops.iter().map(|d| d.describe()).collect();
    let concretised: Vec<String> = r.concretised.iter().map(|c| c.describe()).collect();
    let s = &r.stats;
    json!({
        "params": r.params,
        "stop_reason": r.stop_reason,
        "paths": paths,
        "tree": tree,
        "drops": drops,
        "concretised": concretised,
        "counts": {
            "instructions": s.instructions,
            "forks": s.forks,
            "paths": s.paths,
            "dropped_paths": s.dropped_paths,
            "pending_states": s.pending_states,
            "covered_instructions": r.coverage.covered_instructions,
            "total_instructions": r.coverage.total_instructions,
        },
    })
}

/// Every exported function of `wasm`, explored, by name.
fn module_summary(name: &str, wasm: &[u8]) -> Value {
    let module = symplay_wasm::load(wasm).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut entries = serde_json::Map::new();
    for export in module.exports.iter().filter(|e| e.kind == ExportKind::Func) {
        let found = match explore(&module, &export.name, &options()) {
            Ok(report) => summary(&report),
            Err(e) => json!({ "error": e.to_string() }),
        };
        entries.insert(export.name.clone(), found);
    }
    Value::Object(entries)
}

/// Whether this run writes the golden files anew: only `SYMPLAY_BLESS=1`,
/// and never under `CI` (where a golden file is checked, not made).
fn blessing(bless: Option<&str>, ci: Option<&str>) -> Result<bool, String> {
    match (bless, ci) {
        (None, _) => Ok(false),
        (Some(_), Some(_)) => Err(
            "SYMPLAY_BLESS is refused under CI: golden files are written anew on a \
             developer's machine, and the change reviewed in the diff"
                .into(),
        ),
        (Some("1"), None) => Ok(true),
        (Some(other), None) => Err(format!(
            "SYMPLAY_BLESS={other}: only SYMPLAY_BLESS=1 writes the golden files anew"
        )),
    }
}

/// How `found` differs from the golden text `golden`: the count of
/// differing lines and the first of them; `None` when they are equal.
fn difference(golden: &str, found: &str) -> Option<String> {
    let (old, new): (Vec<&str>, Vec<&str>) = (golden.lines().collect(), found.lines().collect());
    let differing: Vec<usize> = (0..old.len().max(new.len()))
        .filter(|&i| old.get(i) != new.get(i))
        .collect();
    let &first = differing.first()?;
    let line = |lines: &[&str]| lines.get(first).copied().unwrap_or("(no line)").to_string();
    Some(format!(
        "{} of {} lines differ ({} lines now), first line {}:\n  golden: {}\n  now:    {}",
        differing.len(),
        old.len(),
        new.len(),
        first + 1,
        line(&old),
        line(&new)
    ))
}

/// The names of the `.json` files in `dir`.
fn golden_files(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".json"))
        .collect()
}

#[test]
fn every_module_explores_as_its_golden_report_says() {
    let var = |name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned());
    let bless = blessing(var("SYMPLAY_BLESS").as_deref(), var("CI").as_deref())
        .unwrap_or_else(|refusal| panic!("{refusal}"));
    let golden = root().join("tests/golden");
    let modules = modules();
    assert!(modules.len() >= 35, "{} modules", modules.len());
    let mut orphans = golden_files(&golden);
    // What differs from the golden files, by file: how, or that it is new.
    let mut differ = Vec::new();
    for (name, wasm) in &modules {
        let found = serde_json::to_string_pretty(&module_summary(name, wasm)).unwrap() + "\n";
        let file_name = format!("{name}.json");
        orphans.remove(&file_name);
        let file = golden.join(&file_name);
        let how = match std::fs::read_to_string(&file) {
            Ok(expected) => difference(&expected, &found),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some("a new file".into()),
            Err(e) => panic!("{}: {e}", file.display()),
        };
        let Some(how) = how else { continue };
        if bless {
            std::fs::write(&file, &found).unwrap();
        }
        differ.push(format!("{file_name}: {how}"));
    }
    let orphans: Vec<String> = orphans.into_iter().collect();
    if bless {
        for orphan in &orphans {
            std::fs::remove_file(golden.join(orphan)).unwrap();
        }
        println!(
            "golden files written anew: {} changed, {} removed (no module)",
            differ.len(),
            orphans.len()
        );
        for change in &differ {
            println!("  {change}");
        }
        for orphan in &orphans {
            println!("  {orphan}: removed, no module has this name");
        }
        return;
    }
    let mut problems = differ;
    problems.extend(
        orphans
            .iter()
            .map(|o| format!("{o}: no module has this name")),
    );
    assert!(
        problems.is_empty(),
        "{} golden files differ from what {} modules explore, or have no module \
         (a change on purpose is written with SYMPLAY_BLESS=1 and reviewed):\n{}",
        problems.len(),
        modules.len(),
        problems.join("\n")
    );
}

#[test]
fn only_symplay_bless_1_writes_golden_files_and_never_under_ci() {
    assert_eq!(blessing(None, None), Ok(false));
    assert_eq!(blessing(None, Some("true")), Ok(false));
    assert_eq!(blessing(Some("1"), None), Ok(true));
    for value in ["0", "yes", "true", ""] {
        let refused = blessing(Some(value), None).unwrap_err();
        assert_eq!(
            refused,
            format!("SYMPLAY_BLESS={value}: only SYMPLAY_BLESS=1 writes the golden files anew")
        );
    }
    for ci in ["true", "1", ""] {
        let refused = blessing(Some("1"), Some(ci)).unwrap_err();
        assert!(
            refused.starts_with("SYMPLAY_BLESS is refused under CI"),
            "{refused}"
        );
    }
}

#[test]
fn a_difference_names_the_first_differing_line_and_counts_the_rest() {
    assert_eq!(difference("a\nb\nc\n", "a\nb\nc\n"), None);
    assert_eq!(
        difference("a\nb\nc\n", "a\nB\nC\n").unwrap(),
        "2 of 3 lines differ (3 lines now), first line 2:\n  golden: b\n  now:    B"
    );
    assert_eq!(
        difference("a\n", "a\nb\n").unwrap(),
        "1 of 1 lines differ (2 lines now), first line 2:\n  golden: (no line)\n  now:    b"
    );
}
