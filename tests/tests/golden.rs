//! Golden reports: every exported function of every example and test
//! module (`static/examples/c/*.wasm`, `tests/data/*.wasm`,
//! `tests/data/wat/*.wat`) is explored with fixed options, and what the
//! exploration found (the parameters' names, paths with their outcomes,
//! inputs and locations, the tree's shape, drops, concretised values, memory
//! errors, instruction and fork counts, coverage) must equal
//! the committed `tests/golden/<module>.json`. The engine's restructuring
//! keeps behaviour: a change here is either a bug or on purpose, and then
//! the files are written anew with `SYMPLAY_BLESS=1 cargo test -p
//! symplay-tests --test golden` and the change is reviewed in the diff.

use serde_json::{json, Value};
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

#[test]
fn every_module_explores_as_its_golden_report_says() {
    let bless = std::env::var_os("SYMPLAY_BLESS").is_some();
    let golden = root().join("tests/golden");
    let modules = modules();
    assert!(modules.len() >= 35, "{} modules", modules.len());
    let mut differ = Vec::new();
    for (name, wasm) in &modules {
        let found = serde_json::to_string_pretty(&module_summary(name, wasm)).unwrap() + "\n";
        let file = golden.join(format!("{name}.json"));
        if bless {
            std::fs::create_dir_all(&golden).unwrap();
            std::fs::write(&file, &found).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("{}: {e} (SYMPLAY_BLESS=1 writes it)", file.display()));
        if let Some((line, (want, got))) = expected
            .lines()
            .zip(found.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
        {
            differ.push(format!(
                "{name}, line {}:\n  golden: {want}\n  now:    {got}",
                line + 1
            ));
        } else if expected.lines().count() != found.lines().count() {
            differ.push(format!(
                "{name}: {} lines golden, {} now",
                expected.lines().count(),
                found.lines().count()
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} modules explore otherwise than their golden reports:\n{}",
        differ.len(),
        modules.len(),
        differ.join("\n")
    );
}
