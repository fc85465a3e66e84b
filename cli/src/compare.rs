//! `symplay compare`: one module explored under two configurations (two
//! size modes, two searchers, ...), their statistics side by side with the
//! right's ratio to the left's, and the bugs one found and the other did
//! not.

use crate::explore::{explore_report, ExploreArgs};
use clap::{Args, Parser};
use std::collections::BTreeMap;
use symplay_engine::report::{Report, Status};
use symplay_wasm::entry::default_entry;

#[derive(Args)]
pub struct CompareArgs {
    /// The module: binary `.wasm` or WAT text.
    file: String,
    /// The exported function to explore (as `explore` chooses without it).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// The first run's options, as `explore` takes them, in one argument:
    /// `--left "--size-mode base"`.
    #[arg(long, value_name = "OPTIONS", allow_hyphen_values = true)]
    left: String,
    /// The second run's options.
    #[arg(long, value_name = "OPTIONS", allow_hyphen_values = true)]
    right: String,
    /// Write both reports as JSON here: `{"left": ..., "right": ...}`.
    #[arg(long, value_name = "OUT")]
    json: Option<String>,
}

/// One side's options, parsed as `explore`'s.
#[derive(Parser)]
#[command(name = "symplay compare", no_binary_name = true)]
struct Side {
    #[command(flatten)]
    explore: ExploreArgs,
}

pub fn run(args: &CompareArgs) -> Result<(), String> {
    let entry = match &args.entry {
        Some(entry) => entry.clone(),
        None => {
            let bytes =
                std::fs::read(&args.file).map_err(|e| format!("cannot read {}: {e}", args.file))?;
            let module = symplay_wasm::load(&bytes).map_err(|e| format!("{}: {e}", args.file))?;
            let chosen = default_entry(&module)
                .map_err(|e| format!("{}: {e}; name it with --entry NAME", args.file))?;
            eprintln!("comparing `{}`, the first exported function", chosen.name);
            chosen.name.clone()
        }
    };
    let left = side(args, &entry, "--left", &args.left)?;
    let right = side(args, &entry, "--right", &args.right)?;
    let reports = [
        explore_report(&left).map_err(|e| format!("--left: {e}"))?,
        explore_report(&right).map_err(|e| format!("--right: {e}"))?,
    ];
    print!("{}", table(&args.left, &args.right, &reports));
    if let Some(out) = &args.json {
        let [l, r] = &reports;
        let json = serde_json::json!({ "left": l, "right": r });
        let text = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())? + "\n";
        std::fs::write(out, text).map_err(|e| format!("cannot write {out}: {e}"))?;
    }
    Ok(())
}

fn side(args: &CompareArgs, entry: &str, flag: &str, options: &str) -> Result<ExploreArgs, String> {
    let words: Vec<&str> = options.split_whitespace().collect();
    if words.contains(&"--json") || words.contains(&"--entry") {
        return Err(format!(
            "{flag}: --json and --entry are options of compare itself, not of one side"
        ));
    }
    let mut argv = vec![args.file.as_str(), "--entry", entry];
    argv.extend(words);
    Side::try_parse_from(argv)
        .map(|s| s.explore)
        .map_err(|e| format!("{flag} \"{options}\": {}", first_line(&e.to_string())))
}

fn first_line(text: &str) -> &str {
    text.lines()
        .next()
        .unwrap_or(text)
        .trim_start_matches("error: ")
}

/// Bugs by what and where: `heap_overflow at f+0x1a (x.c:9)`, with the
/// paths that end there.
fn bugs(r: &Report) -> BTreeMap<String, usize> {
    let mut found = BTreeMap::new();
    for p in r.paths.iter().filter(|p| p.is_bug()) {
        let what = match (p.trap, &p.memory_error) {
            (Some(trap), _) => format!("trap {}", trap.name()),
            (None, Some(e)) => e.kind.name().to_string(),
            (None, None) => "assertion failed".to_string(),
        };
        *found
            .entry(format!("{what} at {}", p.location.text()))
            .or_insert(0) += 1;
    }
    found
}

fn count(r: &Report, status: Status) -> f64 {
    r.paths.iter().filter(|p| p.status == status).count() as f64
}

fn coverage(r: &Report) -> f64 {
    let c = &r.coverage;
    100.0 * c.covered_instructions as f64 / c.total_instructions.max(1) as f64
}

fn mib(r: &Report) -> f64 {
    r.stats.peak_memory_bytes as f64 / f64::from(1 << 20)
}

fn table(left: &str, right: &str, [l, r]: &[Report; 2]) -> String {
    type Figure = fn(&Report) -> f64;
    let rows: [(&str, Figure); 11] = [
        ("paths", |r| r.paths.len() as f64),
        ("returned", |r| count(r, Status::Returned)),
        ("trapped", |r| count(r, Status::Trapped)),
        ("assertion failures", |r| count(r, Status::AssertFailed)),
        ("memory errors", |r| count(r, Status::MemoryError)),
        ("distinct bugs", |r| bugs(r).len() as f64),
        ("forks", |r| r.stats.forks as f64),
        ("solver queries", |r| r.stats.queries as f64),
        ("time (ms)", |r| r.stats.timing.total_ms),
        ("peak memory (MiB)", mib),
        ("coverage (%)", coverage),
    ];
    let mut text =
        format!(
        "compared {} under two configurations\nleft:  {}\nright: {}\n{:<20} {:>14} {:>14} {:>8}\n",
        l.entry,
        if left.trim().is_empty() { "(defaults)" } else { left },
        if right.trim().is_empty() { "(defaults)" } else { right },
        "",
        "left",
        "right",
        "right/left"
    );
    for (name, figure) in rows {
        let (a, b) = (figure(l), figure(r));
        let ratio = if a == 0.0 {
            "-".to_string()
        } else {
            format!("{:.2}", b / a)
        };
        let shown = |x: f64| {
            if x.fract() == 0.0 {
                format!("{x}")
            } else {
                format!("{x:.1}")
            }
        };
        text.push_str(&format!(
            "{name:<20} {:>14} {:>14} {ratio:>8}\n",
            shown(a),
            shown(b)
        ));
    }
    text.push_str(&format!(
        "{:<20} {:>14} {:>14}\n",
        "stopped", l.stop_reason, r.stop_reason
    ));
    let (lb, rb) = (bugs(l), bugs(r));
    for (side, mine, other) in [("left", &lb, &rb), ("right", &rb, &lb)] {
        let only: Vec<String> = mine
            .iter()
            .filter(|(bug, _)| !other.contains_key(*bug))
            .map(|(bug, &paths)| {
                let unit = if paths == 1 { "path" } else { "paths" };
                format!("  {bug} ({paths} {unit})")
            })
            .collect();
        if only.is_empty() {
            text.push_str(&format!("bugs only {side}: none\n"));
        } else {
            text.push_str(&format!("bugs only {side}:\n{}\n", only.join("\n")));
        }
    }
    text
}
