//! The examples and the heap corpus under each contents mode: the entries
//! the other benchmarks and the heap test explore, with their options.

use crate::measure::{self, Case, Pair};
use std::path::Path;
use symplay_tests::bench;
use symplay_tests::corpus::{self, c_examples, heap_cases, integer_entries};

/// `file entry`, or `file` alone where the entry is named as the file is.
fn name(file: &str, entry: &str) -> String {
    if file.split('.').next() == Some(entry) {
        file.to_string()
    } else {
        format!("{file} {entry}")
    }
}

/// Every integer entry of every C example (default options), and every
/// entry of the heap corpus (depth first, its limits).
fn cases() -> Result<Vec<Case>, String> {
    let mut all = Vec::new();
    let examples = bench::root().join("static/examples/c");
    for example in c_examples()? {
        for entry in integer_entries(&example.module) {
            all.push(Case {
                name: name(&example.name, &entry),
                module: examples.join(&example.name),
                args: vec!["--entry".into(), entry],
            });
        }
    }
    let heap = corpus::heap_dir();
    for case in heap_cases()? {
        all.push(Case {
            name: name(&case.file, &case.entry),
            module: heap.join(&case.file),
            args: [
                "--entry",
                &case.entry,
                "--search",
                "dfs",
                "--max-paths",
                &corpus::HEAP_MAX_PATHS.to_string(),
                "--max-instructions",
                &corpus::HEAP_MAX_INSTRUCTIONS.to_string(),
            ]
            .map(String::from)
            .to_vec(),
        });
    }
    Ok(all)
}

/// Entries quicker than this under either mode count in the geometric
/// mean but not as the slowest: a few milliseconds are the process
/// starting, and one run of them on a busy machine can take ten times as
/// long as the next.
const MIN_JUDGED_MS: f64 = 10.0;

/// Explores every entry under both modes, prints a row per entry when
/// `rows`, and a summary; an error when an entry's paths differ.
pub fn run(binary: &Path, runs: usize, limit: u32, rows: bool) -> Result<(), String> {
    let cases = cases()?;
    println!(
        "examples and heap corpus: {} entries, median of {runs} runs",
        cases.len()
    );
    if rows {
        measure::print_header("entry");
    }
    let mut measured: Vec<(String, Pair)> = Vec::new();
    for case in cases {
        let pair = measure::compare(binary, &case, runs, limit)?;
        if rows {
            measure::print_row(&case.name, &pair);
        }
        if !pair.paths_agree() {
            return Err(format!(
                "{}: {} paths under whole contents, {} per object",
                case.name, pair.whole.paths, pair.ours.paths
            ));
        }
        measured.push((case.name, pair));
    }
    let log_mean = |ratio: fn(&Pair) -> f64| {
        let logs: f64 = measured.iter().map(|(_, p)| ratio(p).ln()).sum();
        (logs / measured.len() as f64).exp()
    };
    let slowest = measured
        .iter()
        .filter(|(_, p)| p.whole.ms.min(p.ours.ms) >= MIN_JUDGED_MS)
        .min_by(|(_, a), (_, b)| a.time_ratio().total_cmp(&b.time_ratio()));
    println!(
        "  the {} entries, geometric mean of whole / per-object: time {:.2}x, peak memory {:.2}x",
        measured.len(),
        log_mean(Pair::time_ratio),
        log_mean(|p| p.whole.peak_mib / p.ours.peak_mib),
    );
    if let Some((name, pair)) = slowest {
        println!(
            "  per-object's worst time against whole (of the entries of {MIN_JUDGED_MS} ms or more under both): {name}, {:.1} ms whole, {:.1} ms per object ({:.2}x)",
            pair.whole.ms,
            pair.ours.ms,
            pair.time_ratio()
        );
    }
    Ok(())
}
