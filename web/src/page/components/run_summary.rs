//! A run's summary above its tree: the entry, how many paths and how the
//! run ended, its warnings (a limit that cut it short, values made
//! concrete), the paths that assumptions dropped, and the rules that made
//! outcomes into paths.

use crate::page::describe::count;
use std::rc::Rc;
use symplay_engine::report::Report;
use yew::prelude::*;

#[derive(Properties)]
pub struct SummaryProps {
    pub report: Rc<Report>,
}

impl PartialEq for SummaryProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.report, &other.report)
    }
}

#[function_component]
pub fn RunSummary(props: &SummaryProps) -> Html {
    let r = &props.report;
    html! {
        <section class="results">
            <h2>{ format!("{}: {} ({})", r.entry, count(r.paths.len(), "path", "paths"), r.stop_reason) }</h2>
            <div class="run-warnings">
                { for r.warnings.iter().map(|w| html! { <p class="drops warning run-warning">{ w }</p> }) }
                { r.concretised_summary().map(|missed| html! {
                    <p id="concretised" class="drops warning">{ missed }</p>
                }) }
                { r.drops_summary().map(|drops| html! {
                    <p id="drops" class={classes!("drops", r.paths.is_empty().then_some("warning"))}>{ drops }</p>
                }) }
                <p class="drops outcome-rules">{ format!("Outcomes: {}.", r.outcomes.describe()) }</p>
            </div>
        </section>
    }
}
