//! The bugs of a report (trapped, assertion-failed, memory-error and
//! panicked paths, grouped by how and where they end, the memory errors
//! with their memory view), each with a Replay button and, once replayed,
//! its concrete outcome and trace. A
//! component, drawn again only when the report, a replay or `busy` changes.

use crate::page::components::memory_view::MemoryView;
use crate::page::describe::{count, inputs};
use crate::page::state::Replay;
use std::collections::BTreeMap;
use std::rc::Rc;
use symplay_engine::report::{Report, TraceEvent};
use yew::prelude::*;

/// Bugs listed; the others are in the table of paths and the report.
pub const BUGS_SHOWN: usize = 200;

#[derive(Properties)]
pub struct BugsProps {
    pub report: Rc<Report>,
    pub replays: Rc<BTreeMap<usize, Replay>>,
    /// Replay buttons are off while the worker is busy.
    pub busy: bool,
    /// Gets the path id of the bug to replay.
    pub on_replay: Callback<usize>,
}

/// The callback is new on every render of the page: it does not count.
impl PartialEq for BugsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.report, &other.report)
            && Rc::ptr_eq(&self.replays, &other.replays)
            && self.busy == other.busy
    }
}

#[function_component]
pub fn BugList(props: &BugsProps) -> Html {
    let (report, replays, busy, on_replay) =
        (&props.report, &props.replays, props.busy, &props.on_replay);
    // One line per bug: the paths that end the same way at the same place,
    // shown by the one with the shortest input.
    let groups = report.bug_groups();
    if groups.is_empty() {
        let paths = count(report.paths.len(), "path", "paths");
        let text = if report.stop_reason == "running" {
            format!("No bug so far, on the {paths} found.")
        } else {
            format!("No bug on the {paths} found.")
        };
        return html! { <section class="bugs"><p id="no-bugs">{ text }</p></section> };
    }
    let more = (groups.len() > BUGS_SHOWN).then(|| {
        html! { <p class="more">{ format!(
            "and {} more bugs: see the table of paths or the JSON report",
            groups.len() - BUGS_SHOWN
        ) }</p> }
    });
    html! {
        <section class="bugs">
            <h3>{ count(groups.len(), "bug", "bugs") }</h3>
            <ul id="bugs">
            { for groups.iter().take(BUGS_SHOWN).map(|g| {
                let p = &report.paths[g.paths[0]];
                let id = p.id;
                let on_click = on_replay.reform(move |_: MouseEvent| id);
                let text = match g.paths.len() {
                    1 => format!("path {id}: {} with {}", p.outcome(), inputs(p, &report.params)),
                    n => format!(
                        "{}, on {n} paths; the shortest input, path {id}: {}",
                        p.outcome(),
                        inputs(p, &report.params)
                    ),
                };
                html! {
                    <li class="bug" data-path={id.to_string()} data-paths={g.paths.len().to_string()}>
                        <span>{ text }</span>
                        { " " }
                        <button class="replay" disabled={busy} onclick={on_click}>{ "Replay" }</button>
                        if p.memory_error.is_some() {
                            <MemoryView path={p.clone()} />
                        }
                        { view_replay(replays.get(&id)) }
                    </li>
                }
            }) }
            </ul>
            { more }
        </section>
    }
}

fn view_replay(replay: Option<&Replay>) -> Html {
    match replay {
        None => Html::default(),
        Some(Replay::Pending) => html! { <p class="replayed">{ "replaying..." }</p> },
        Some(Replay::Failed(message)) => {
            html! { <p class="replayed error">{ format!("replay failed: {message}") }</p> }
        }
        Some(Replay::Done { path, trace }) => {
            let mut lines: Vec<String> = trace.iter().map(TraceEvent::line).collect();
            if lines.is_empty() {
                lines.push("(no calls or branches on this path)".into());
            }
            html! {
                <div class="replayed">
                    <p class="replay-outcome">{ format!("replayed: {}", path.outcome()) }</p>
                    <pre class="trace">{ lines.join("\n") }</pre>
                </div>
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symplay_engine::report::{Location, Number};

    fn at(offset: u32) -> Location {
        Location {
            function: "divide".into(),
            func_index: 1,
            offset,
            source: None,
        }
    }

    #[test]
    fn trace_lines_read_like_the_cli() {
        let events = [
            TraceEvent::Call {
                at: at(0x10),
                callee: "divide".into(),
                args: vec![Number::Int(7), Number::Int(0)],
                table_slot: None,
                depth: 1,
            },
            TraceEvent::Branch {
                at: at(0x14),
                instruction: "if".into(),
                taken: false,
                depth: 2,
            },
            TraceEvent::Return {
                at: at(0x20),
                values: vec![Number::Int(-1)],
                depth: 2,
            },
        ];
        let lines: Vec<String> = events.iter().map(TraceEvent::line).collect();
        assert_eq!(
            lines,
            [
                "divide+0x10  call divide(7, 0)",
                "  divide+0x14  if: else",
                "  divide+0x20  return [-1]",
            ]
        );
    }
}
