//! Compare mode's summary of runs A and B of one module: their figures side
//! by side with B's ratio to A's, and where their paths end, bugs first.
//! Counts that differ and bugs only one run found are marked, and a
//! sentence says which bugs each run missed.

use std::rc::Rc;
use symplay_engine::report::comparison::{Comparison, Ending, Figure};
use symplay_engine::report::Report;
use yew::prelude::*;

/// Endings listed before "and N more".
pub const ENDINGS_SHOWN: usize = 100;

#[derive(Properties)]
pub struct ComparisonProps {
    pub a: Rc<Report>,
    pub b: Rc<Report>,
}

impl PartialEq for ComparisonProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.a, &other.a) && Rc::ptr_eq(&self.b, &other.b)
    }
}

#[function_component]
pub fn ComparisonView(props: &ComparisonProps) -> Html {
    let c = Comparison::of(&props.a, &props.b);
    let [a_stopped, b_stopped] = &c.stopped;
    let more = c.endings.len().saturating_sub(ENDINGS_SHOWN);
    html! {
        <section id="comparison" class="comparison">
            <p id="comparison-verdict" class="verdict">{ verdict(&c) }</p>
            <div class="comparison-tables">
                <table id="comparison-figures">
                    <thead><tr><th></th><th>{ "A" }</th><th>{ "B" }</th><th>{ "B / A" }</th></tr></thead>
                    <tbody>
                    { for c.figures.iter().map(|f| html! {
                        <tr class={classes!(f.differs().then_some("differs"))}>
                            <td>{ f.name }</td>
                            <td>{ Figure::text(f.left) }</td>
                            <td>{ Figure::text(f.right) }</td>
                            <td>{ f.ratio().map_or_else(|| "-".to_string(), |r| format!("{r:.2}")) }</td>
                        </tr>
                    }) }
                        <tr class={classes!((a_stopped != b_stopped).then_some("differs"))}>
                            <td>{ "stopped" }</td><td>{ a_stopped }</td><td>{ b_stopped }</td><td></td>
                        </tr>
                    </tbody>
                </table>
                <table id="comparison-endings">
                    <thead><tr><th>{ "where paths end" }</th><th>{ "A" }</th><th>{ "B" }</th></tr></thead>
                    <tbody>
                    { for c.endings.iter().take(ENDINGS_SHOWN).map(ending_row) }
                    </tbody>
                </table>
            </div>
            if more > 0 {
                <p class="more">{ format!("and {more} more ways paths end: see the JSON reports") }</p>
            }
        </section>
    }
}

fn ending_row(e: &Ending) -> Html {
    let only = match (e.left, e.right) {
        (0, _) => Some("only B"),
        (_, 0) => Some("only A"),
        _ => None,
    };
    html! {
        <tr class={classes!(e.bug.then_some("bug"), (e.left != e.right).then_some("differs"))}>
            <td>
                { e.what.clone() }
                if let Some(only) = only {
                    { " " }<span class="only">{ only }</span>
                }
            </td>
            <td>{ e.left }</td>
            <td>{ e.right }</td>
        </tr>
    }
}

/// Which bugs each run missed, in a sentence or two.
fn verdict(c: &Comparison) -> String {
    let names = |left: bool| -> Vec<String> { c.bugs_only(left).map(|e| e.what.clone()).collect() };
    let (only_a, only_b) = (names(true), names(false));
    let found = |run: &str, other: &str, bugs: &[String]| match bugs.len() {
        0 => String::new(),
        1 => format!("{run} found a bug {other} missed: {}. ", bugs[0]),
        n => format!("{run} found {n} bugs {other} missed: {}. ", bugs.join("; ")),
    };
    let sentence = found("A", "B", &only_a) + &found("B", "A", &only_b);
    if !sentence.is_empty() {
        return sentence.trim_end().to_string();
    }
    let bugs = c.endings.iter().filter(|e| e.bug).count();
    match bugs {
        0 => "Neither run found a bug.".into(),
        1 => "Both runs found the same bug.".into(),
        n => format!("Both runs found the same {n} bugs."),
    }
}
