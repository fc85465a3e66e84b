//! `symplay compare`: one module explored under two configurations (two
//! size modes, two searchers, ...), their statistics side by side with the
//! right's ratio to the left's, and the bugs one found and the other did
//! not.

use crate::explore::{explore_report, load_module, ExploreArgs};
use crate::output::{say, Output};
use crate::status::Failure;
use clap::{Args, Parser};
use symplay_engine::report::comparison::{Comparison, Figure};
use symplay_engine::report::Report;
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

pub fn run(args: &CompareArgs) -> Result<(), Failure> {
    let out = Output::open_optional(args.json.as_deref())?;
    let entry = match &args.entry {
        Some(entry) => entry.clone(),
        None => {
            let module = load_module(&args.file)?;
            let chosen = default_entry(&module).map_err(|e| {
                Failure::Usage(format!("{}: {e}; name it with --entry NAME", args.file))
            })?;
            eprintln!("comparing `{}`, the first exported function", chosen.name);
            chosen.name.clone()
        }
    };
    let left = side(args, &entry, "--left", &args.left).map_err(Failure::Usage)?;
    let right = side(args, &entry, "--right", &args.right).map_err(Failure::Usage)?;
    let reports = [
        explore_report(&left).map_err(|e| on_side("--left", e))?,
        explore_report(&right).map_err(|e| on_side("--right", e))?,
    ];
    say(out.as_ref(), &table(&args.left, &args.right, &reports));
    if let Some(out) = out {
        let [l, r] = &reports;
        let json = serde_json::json!({ "left": l, "right": r });
        out.write(&(serde_json::to_string_pretty(&json).expect("reports serialise") + "\n"))?;
    }
    Ok(())
}

/// A side's failure, named by its flag.
fn on_side(flag: &str, failure: Failure) -> Failure {
    match failure {
        Failure::Usage(m) => Failure::Usage(format!("{flag}: {m}")),
        Failure::Error(m) => Failure::Error(format!("{flag}: {m}")),
    }
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

fn table(left: &str, right: &str, [l, r]: &[Report; 2]) -> String {
    let c = Comparison::of(l, r);
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
    for f in &c.figures {
        let ratio = f
            .ratio()
            .map_or_else(|| "-".to_string(), |x| format!("{x:.2}"));
        text.push_str(&format!(
            "{:<20} {:>14} {:>14} {ratio:>8}\n",
            f.name,
            Figure::text(f.left),
            Figure::text(f.right)
        ));
    }
    let [left_stop, right_stop] = &c.stopped;
    text.push_str(&format!(
        "{:<20} {left_stop:>14} {right_stop:>14}\n",
        "stopped"
    ));
    for (side, is_left) in [("left", true), ("right", false)] {
        let only: Vec<String> = c
            .bugs_only(is_left)
            .map(|bug| {
                let paths = bug.left.max(bug.right);
                let unit = if paths == 1 { "path" } else { "paths" };
                format!("  {} ({paths} {unit})", bug.what)
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
