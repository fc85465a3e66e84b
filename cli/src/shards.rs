//! `symplay merge`: the JSON reports of a run's shards (`symplay explore
//! --shard I/N --json FILE`) joined into the report one run gives, its
//! summary printed and the report written.

use crate::explore::{ending, summary};
use crate::output::{say, Output};
use crate::status::{Ending, Failure};
use clap::Args;
use symplay_engine::report::shards::join_shards;
use symplay_engine::report::Report;

#[derive(Args)]
pub struct MergeArgs {
    /// The shards' JSON reports, one per shard, in any order.
    #[arg(required = true, value_name = "REPORT")]
    reports: Vec<String>,
    /// Write the merged JSON report here (`-`: standard output, the summary
    /// then goes to standard error); checked before the reports are read.
    #[arg(long, value_name = "OUT")]
    json: Option<String>,
    /// Exit with 0 when the shards found bugs (else 13).
    #[arg(long)]
    exit_zero: bool,
}

impl MergeArgs {
    pub(crate) fn exit_zero(&self) -> bool {
        self.exit_zero
    }
}

pub fn run(args: &MergeArgs) -> Result<Ending, Failure> {
    let out = Output::open_optional(args.json.as_deref())?;
    let reports = (args.reports.iter())
        .map(|file| Ok((file.clone(), read_report(file)?)))
        .collect::<Result<Vec<_>, Failure>>()?;
    let report = join_shards(reports).map_err(Failure::Usage)?;
    say(out.as_ref(), &summary(&report, false, false));
    if let Some(out) = out {
        let json = serde_json::to_string_pretty(&report).expect("a report serialises");
        out.write(&(json + "\n"))?;
    }
    Ok(ending(&report))
}

/// The report in `file`.
fn read_report(file: &str) -> Result<Report, Failure> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| Failure::Error(format!("cannot read {file}: {e}")))?;
    serde_json::from_str(&text)
        .map_err(|e| Failure::Usage(format!("{file} is not a Symplay report: {e}")))
}
