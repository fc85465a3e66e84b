//! The table of paths found, one row per test case, and the run's
//! statistics. Only the rows in view are drawn, each one line
//! high (the whole input in its tooltip): a run of thousands of paths made
//! a page tens of thousands of pixels long. The selected path's row is
//! marked and scrolled into view; a click on a row selects its path.

use crate::page::components::rows_in_view::{drawn, View};
use crate::page::describe::{count, inputs, outcome};
use std::rc::Rc;
use symplay_engine::report::Report;
use web_sys::Element;
use yew::prelude::*;

/// A row's height in pixels (the style sheet's `--row`).
const ROW_PX: i32 = 26;

#[derive(Properties)]
pub struct PathsProps {
    pub report: Rc<Report>,
    /// The path selected (in the tree or here), by id.
    pub selected: Option<usize>,
    /// Gets the id of the clicked row's path, and where it ended.
    pub on_select: Callback<usize>,
}

/// The callback is new on every render of the page: only the report and
/// the selection count.
impl PartialEq for PathsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.report, &other.report) && self.selected == other.selected
    }
}

#[function_component]
pub fn PathsTable(props: &PathsProps) -> Html {
    let r = &props.report;
    let s = &r.stats;
    let scroller = use_node_ref();
    let view = use_state(|| None::<View>);
    let onscroll = {
        let view = view.clone();
        Callback::from(move |e: Event| {
            let pane: Element = e.target_unchecked_into();
            view.set(Some(View::of(&pane, f64::from(ROW_PX))));
        })
    };
    // A path selected elsewhere (in the tree) is scrolled to the middle.
    let row = props
        .selected
        .and_then(|id| r.paths.iter().position(|p| p.id == id));
    {
        let scroller = scroller.clone();
        use_effect_with(row, move |row| {
            if let (Some(i), Some(pane)) = (row, scroller.cast::<Element>()) {
                let top = *i as i32 * ROW_PX;
                let height = pane.client_height();
                if top < pane.scroll_top() || top + ROW_PX > pane.scroll_top() + height {
                    pane.set_scroll_top(top - height / 2);
                }
            }
        });
    }
    let range = drawn(*view, r.paths.len());
    let spacer = |rows: usize| {
        (rows > 0).then(|| {
            html! { <tr class="spacer" aria-hidden="true" style={format!("height: {}px", rows as i32 * ROW_PX)} /> }
        })
    };
    html! {
        <section class="paths-pane">
            <div id="paths-scroll" class="paths-scroll" tabindex="0" ref={scroller} {onscroll}>
                <table id="paths">
                    <thead><tr><th>{ "path" }</th><th>{ "outcome" }</th><th>{ "input" }</th><th>{ "where" }</th></tr></thead>
                    <tbody>
                    { spacer(range.start) }
                    { for r.paths[range.clone()].iter().map(|p| {
                        let id = p.id;
                        let status = serde_json::to_value(p.status).ok()
                            .and_then(|v| v.as_str().map(str::to_string))
                            .unwrap_or_default();
                        let (outcome, input, place) = (outcome(p), inputs(p, &r.params), p.location.text());
                        let selected = props.selected == Some(id);
                        html! {
                            <tr key={id} onclick={props.on_select.reform(move |_: MouseEvent| id)}
                                class={classes!(format!("status-{status}"), selected.then_some("selected"))}
                                aria-selected={selected.to_string()}>
                                <td>{ id }</td>
                                <td title={outcome.clone()}>
                                    { outcome }
                                    if !p.notes.is_empty() {
                                        <span class="note-mark" title={p.notes.join("\n")}>{ " ⚠" }</span>
                                    }
                                </td>
                                <td class="input" title={input.clone()}>{ input }</td>
                                <td title={place.clone()}>{ place }</td>
                            </tr>
                        }
                    }) }
                    { spacer(r.paths.len() - range.end) }
                    </tbody>
                </table>
            </div>
            <p class="stats">{ format!(
                "{}, {}, {}; solver {:.1} ms, total {:.1} ms; coverage {}/{} instructions",
                count(s.instructions as usize, "instruction", "instructions"),
                count(s.forks as usize, "fork", "forks"),
                s.queries_text(),
                s.timing.solver_ms, s.timing.total_ms, r.coverage.covered_instructions, r.coverage.total_instructions
            ) }</p>
            if let Some(states) = s.state_bytes_text() {
                <p class="state-memory">{ states }</p>
            }
            if let Some(arrays) = s.arrays_text() {
                <p class="arrays">{ arrays }</p>
            }
            if !s.layers.is_empty() {
                <details class="solver-layers">
                    <summary>{ "queries by solver layer" }</summary>
                    <table>
                        <thead><tr>
                            <th>{ "layer" }</th><th>{ "reached" }</th><th>{ "answered" }</th><th>{ "ms" }</th>
                        </tr></thead>
                        <tbody>
                        { for s.layers.iter().enumerate().map(|(k, l)| html! {
                            <tr>
                                <td>{ &l.name }</td>
                                <td>{ l.queries }</td>
                                <td>{ l.answered }</td>
                                <td>{ format!("{:.1}", s.timing.layers_ms.get(k).copied().unwrap_or(0.0)) }</td>
                            </tr>
                        }) }
                        </tbody>
                    </table>
                    if let Some(aa) = s.address_aware_text() {
                        <p class="aa-cache">{ aa }</p>
                    }
                </details>
            }
        </section>
    }
}
