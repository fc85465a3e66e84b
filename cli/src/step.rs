//! `symplay step`: an exploration one branch or one instruction at a time,
//! printing after each step what it did and the state that runs next (its
//! place, frames with locals and operand stack, path condition, memory
//! objects).

use crate::explore::{explore_failure, prepare, progress_printer, ExploreArgs};
use crate::output::{say, Output};
use crate::status::Failure;
use clap::Args;
use std::fmt::Write;
use std::time::Duration;
use symplay_engine::exec::Exploration;
use symplay_engine::report::counted;
use symplay_engine::report::step::{StateView, Step, StepBy, StepEvent};

#[derive(Args)]
pub struct StepArgs {
    /// The run's module, entry and options, as `explore` takes them
    /// (`--json OUT` writes the steps taken as JSON).
    #[command(flatten)]
    run: ExploreArgs,
    /// `branch`: each step runs the next state until it forks or its path
    /// ends; `instruction`: one instruction.
    #[arg(long, default_value = "branch")]
    by: String,
    /// Steps to take at most; all, until the run is over, unless given.
    #[arg(long, value_name = "N")]
    steps: Option<u64>,
}

pub fn run(args: &StepArgs) -> Result<(), Failure> {
    let by = StepBy::parse(&args.by).ok_or_else(|| {
        Failure::Usage(format!(
            "--by takes branch or instruction, not `{}`",
            args.by
        ))
    })?;
    if args.steps == Some(0) {
        return Err(Failure::Usage("--steps must be greater than zero".into()));
    }
    let out = Output::open_optional(args.run.json_out())?;
    let prepared = prepare(&args.run)?;
    let mut exploration = Exploration::new(&prepared.module, &prepared.entry, &prepared.options)
        .map_err(explore_failure)?;
    // Ctrl-C sets the run's interrupt, which ends a long step.
    let mut interrupted = progress_printer();
    let mut taken = vec![exploration.first_step()];
    say(out.as_ref(), &describe(&exploration, &taken[0]));
    while taken.last().is_some_and(Step::goes_on)
        && args.steps.is_none_or(|n| (taken.len() as u64) <= n)
    {
        let Some(step) = exploration.step(by, Duration::from_millis(200)) else {
            let p = exploration.progress();
            if !interrupted(&p) {
                exploration.cancel();
            }
            continue;
        };
        say(out.as_ref(), &describe(&exploration, &step));
        taken.push(step);
    }
    if let Some(out) = out {
        let json = serde_json::to_string_pretty(&taken).expect("steps serialise");
        out.write(&(json + "\n"))?;
    }
    Ok(())
}

/// A step as the command line prints it.
fn describe(exploration: &Exploration<&symplay_wasm::Module>, step: &Step) -> String {
    // The first event heads the step, the others follow it, one a line.
    let mut text = format!("step {}: ", step.number);
    for (i, event) in step.events.iter().enumerate() {
        if i > 0 {
            text.push_str("  then ");
        }
        text.push_str(&event.describe());
        if let StepEvent::Ended { path, .. } = event {
            if let Some(p) = exploration.path(*path) {
                let inputs = serde_json::to_string(&p.inputs).unwrap_or_default();
                let _ = write!(text, ", input {inputs}");
            }
        }
        if i == 0 && step.instructions > 0 {
            let ran = counted(step.instructions, "instruction", "instructions");
            let _ = write!(text, " ({ran})");
        }
        text.push('\n');
    }
    if let Some(view) = &step.next {
        text.push_str(&state_text(view));
    }
    if let Some(merge) = &step.next_merge {
        let _ = writeln!(text, "  next: {}", merge.describe());
    }
    text
}

fn state_text(v: &StateView) -> String {
    let mut text = format!(
        "  next: {}, node #{}, depth {}, {}\n",
        v.location.text(),
        v.node,
        v.depth,
        v.waiting_text()
    );
    for frame in &v.frames {
        let _ = writeln!(text, "  frame {}", frame.location.text());
        for local in &frame.locals {
            let _ = writeln!(text, "    {} ({}) = {}", local.name, local.ty, local.value);
        }
        if !frame.stack.is_empty() {
            let _ = writeln!(text, "    stack: {}", frame.stack.join(", "));
        }
    }
    if v.path_condition.is_empty() {
        text.push_str("  path condition: true\n");
    } else {
        let _ = writeln!(text, "  path condition: {}", v.path_condition.join(" && "));
    }
    for o in &v.objects {
        let what = o
            .name
            .as_deref()
            .map_or_else(|| o.kind.clone(), |n| format!("{} {n}", o.kind));
        let state = o.freed_at.as_ref().map_or_else(
            || "live".to_string(),
            |at| format!("freed at {}", at.text()),
        );
        let size = match &o.symbolic_size {
            Some(term) => format!("{term} (symbolic, at most {})", o.capacity),
            None => o.size.to_string(),
        };
        let _ = writeln!(
            text,
            "  #{} {what} 0x{:x}: {size} bytes, {state}, made at {}",
            o.id,
            o.base,
            o.site.text()
        );
    }
    text
}
