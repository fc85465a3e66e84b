//! The table of paths found, one row per test case, the paths dropped, and
//! the run's statistics. A component of its own, so that thousands of rows are drawn
//! again only when the report changes; past `ROWS_SHOWN` rows, the rest
//! wait for a click, so that a huge run does not stall the page.

use crate::describe::{inputs, outcome};
use std::rc::Rc;
use symplay_engine::report::{Location, Report};
use yew::prelude::*;

/// Rows drawn before "show all".
pub const ROWS_SHOWN: usize = 2_000;

#[derive(Properties)]
pub struct PathsProps {
    pub report: Rc<Report>,
    /// Gets where the clicked row's path ended.
    pub on_locate: Callback<Location>,
}

/// The callback is new on every render of the page: only the report counts.
impl PartialEq for PathsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.report, &other.report)
    }
}

#[function_component]
pub fn PathsTable(props: &PathsProps) -> Html {
    let r = &props.report;
    let s = &r.stats;
    let all = use_state(|| false);
    let shown = if *all {
        r.paths.len()
    } else {
        ROWS_SHOWN.min(r.paths.len())
    };
    let more = (shown < r.paths.len()).then(|| {
        let all = all.clone();
        html! {
            <p class="more">
                { format!("showing {shown} of {} paths (the JSON report has every one) ", r.paths.len()) }
                <button id="all-paths" onclick={move |_| all.set(true)}>{ "show all" }</button>
            </p>
        }
    });
    html! {
        <section class="results">
            <h2>{ format!("{}: {} paths ({})", r.entry, r.paths.len(), r.stop_reason) }</h2>
            { for r.warnings.iter().map(|w| html! { <p class="drops warning run-warning">{ w }</p> }) }
            { r.concretised_summary().map(|missed| html! {
                <p id="concretised" class="drops warning">{ missed }</p>
            }) }
            { r.drops_summary().map(|drops| html! {
                <p id="drops" class={classes!("drops", r.paths.is_empty().then_some("warning"))}>{ drops }</p>
            }) }
            <table id="paths">
                <thead><tr><th>{ "path" }</th><th>{ "outcome" }</th><th>{ "input" }</th><th>{ "where" }</th></tr></thead>
                <tbody>
                { for r.paths.iter().take(shown).map(|p| {
                    let location = p.location.clone();
                    let status = serde_json::to_value(p.status).ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default();
                    html! {
                        <tr onclick={props.on_locate.reform(move |_: MouseEvent| location.clone())} class={format!("status-{status}")}>
                            <td>{ p.id }</td>
                            <td>
                                { outcome(p) }
                                if !p.notes.is_empty() {
                                    <span class="note-mark" title={p.notes.join("\n")}>{ " ⚠" }</span>
                                }
                            </td>
                            <td class="input">{ inputs(p) }</td>
                            <td>{ p.location.text() }</td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
            { more }
            <p class="stats">{ format!(
                "{} instructions, {} forks, {} queries ({} cache hits, {} SAT calls), solver {:.1} ms, total {:.1} ms; coverage {}/{} instructions",
                s.instructions, s.forks, s.queries, s.query_cache_hits + s.cex_cache_hits, s.sat_calls,
                s.timing.solver_ms, s.timing.total_ms, r.coverage.covered_instructions, r.coverage.total_instructions
            ) }</p>
        </section>
    }
}
