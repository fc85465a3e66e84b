//! The merged-formula view, in a node's details: at a node where states
//! merged, the merged condition beside the disjunction of the conditions
//! the states had, with their sizes, the values the merge joined, the
//! loop it belongs to and the leaves it came from, each a click away, and
//! the regular patterns of the states' words; at a leaf whose state
//! merged, the node it merged into.

use std::rc::Rc;
use symplay_engine::report::{
    FormulaSize, Location, MergeMode, MergeReport, RegularPatterns, Report, Synthesis,
};
use yew::prelude::*;

#[derive(Properties)]
pub struct MergeProps {
    pub report: Rc<Report>,
    pub node: usize,
    /// Starts the ids of the view's elements, as the tree's (`b-`).
    #[prop_or_default]
    pub prefix: AttrValue,
    /// Selects another node of the tree.
    pub on_select: Callback<usize>,
    /// Marks a location in the code panes.
    pub on_mark: Callback<Location>,
}

impl PartialEq for MergeProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.report, &other.report)
            && self.node == other.node
            && self.prefix == other.prefix
    }
}

#[function_component]
pub fn MergeView(props: &MergeProps) -> Html {
    let (report, prefix) = (&props.report, &props.prefix);
    let Some(node) = report.tree.get(props.node) else {
        return Html::default();
    };
    let select = |v: usize| {
        let on_select = props.on_select.clone();
        Callback::from(move |_: MouseEvent| on_select.emit(v))
    };
    if let Some(into) = node.merged_into {
        return html! {
            <p id={format!("{prefix}merged-into")} class="merged-into">
                { "Its state waited at the loop's exit and merged into " }
                <button class="link node-link" onclick={select(into)}>{ format!("node {into}") }</button>
                { "." }
            </p>
        };
    }
    let Some(m) = report.merges.iter().find(|m| m.node == props.node) else {
        return Html::default();
    };
    let readable = |formula: u32| {
        (report.formulas.terms.get(formula as usize))
            .map_or_else(String::new, |f| f.readable.clone())
    };
    let on_mark = props.on_mark.clone();
    let loop_at = m.loop_at.clone();
    let mark_loop = Callback::from(move |_: MouseEvent| on_mark.emit(loop_at.clone()));
    let size_rows = [
        (
            "DAG nodes",
            (|s: &FormulaSize| Some(s.nodes)) as fn(&FormulaSize) -> Option<u64>,
        ),
        ("or", |s| Some(s.ors)),
        ("ite", |s| Some(s.ites)),
        ("CNF variables", |s| s.cnf_variables),
        ("CNF clauses", |s| s.cnf_clauses),
    ];
    let cell = |v: Option<u64>| v.map_or_else(|| "not counted".to_string(), |n| n.to_string());
    html! {
        <section id={format!("{prefix}merge")} class="merge">
            <h4>{ "merged states" }</h4>
            <p class="merge-what">
                { format!("{} states merged here, at an exit of the loop at ", m.states) }
                <button class="link loop-link" onclick={mark_loop}>{ m.loop_at.text() }</button>
                { format!(" ({}). {}", mode_text(m.mode), reason(m)) }
            </p>
            <table class="merge-formulas">
                <thead><tr>
                    <th></th>
                    <th>{ format!("merged ({})", m.mode) }</th>
                    <th>{ "the states' disjunction" }</th>
                </tr></thead>
                <tbody>
                    <tr class="formula">
                        <td>{ "condition past the loop's start" }</td>
                        <td><code class="merged-condition">{ readable(m.condition) }</code></td>
                        <td><code class="disjunction">{ readable(m.disjunction) }</code></td>
                    </tr>
                    { for size_rows.iter().map(|(name, measure)| html! {
                        <tr class="size">
                            <td>{ *name }</td>
                            <td>{ cell(measure(&m.condition_size)) }</td>
                            <td>{ cell(measure(&m.disjunction_size)) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            <p class="merge-values">{ values_text(m) }</p>
            if m.validated {
                <p class="merge-validated">{ "The solver proved this merge right: its condition is the states' disjunction, and each value is each state's own on its path." }</p>
            }
            <p class="merged-from">
                { "From the leaves " }
                { for node.merged_from.iter().enumerate().map(|(k, &leaf)| html! { <>
                    if k > 0 { { ", " } }
                    <button class="link node-link" onclick={select(leaf)}>{ format!("node {leaf}") }</button>
                </> }) }
                { ", each the state of one way through the loop." }
            </p>
            { patterns_view(&m.patterns, &readable) }
        </section>
    }
}

/// The regular patterns of the merged states' words: each partition with
/// its states' k, the words in none, and a condition of each letter.
fn patterns_view(p: &RegularPatterns, readable: &dyn Fn(u32) -> String) -> Html {
    let summary = match &p.none_because {
        Some(why) => format!("No words: {why}."),
        None => format!(
            "Each state's word is a letter per branch it took in the loop, conditions alike but for their constants sharing a letter: {} words over {} letters, in {} partition{}.",
            p.words.len(),
            p.letters.len(),
            p.partitions.len(),
            if p.partitions.len() == 1 { "" } else { "s" },
        ),
    };
    html! {
        <div class="merge-patterns">
            <h5>{ "regular patterns" }</h5>
            <p class="patterns-summary">{ summary }</p>
            <ul class="partitions">
                { for p.partitions.iter().map(|part| html! {
                    <li class="partition">
                        <code>{ part.pattern_text() }</code>
                        { format!(": {} states, k = {}", part.members.len(), part.ks_text()) }
                        { synthesis_view(&part.synthesis, readable) }
                    </li>
                }) }
            </ul>
            if !p.alone.is_empty() {
                <p class="alone">{ format!("In no partition: {}.", p.alone_text()) }</p>
            }
            <table class="letters">
                { for p.letters.iter().enumerate().map(|(l, &f)| html! {
                    <tr>
                        <td>{ RegularPatterns::letter(l as u32) }</td>
                        <td><code>{ readable(f) }</code></td>
                    </tr>
                }) }
            </table>
        </div>
    }
}

/// A partition's formula pattern (`quantified_merging.md` §4): φ1, φ2(x)
/// and φ3(x), each varying constant with the `a·x + b` that fits it, the
/// differing values as terms of x; or why synthesis found none.
fn synthesis_view(s: &Synthesis, readable: &dyn Fn(u32) -> String) -> Html {
    let p = match s {
        Synthesis::NotTried => return Html::default(),
        Synthesis::Fallback(why) => {
            return html! { <p class="fallback">{ format!("No formula pattern: {why}.") }</p> }
        }
        Synthesis::Pattern(p) => p,
    };
    let x = &p.variable;
    let row = |name: String, text: String| {
        html! { <tr><th>{ name }</th><td><code>{ text }</code></td></tr> }
    };
    let fits = [("φ2", &p.repeated_holes), ("φ3", &p.last_holes)];
    html! {
        <table class="synthesis">
            { row("φ1".into(), readable(p.first)) }
            { row(format!("φ2({x})"), readable(p.repeated)) }
            { row(format!("φ3({x})"), readable(p.last)) }
            { for fits.iter().flat_map(|&(part, holes)| holes.iter().map(move |h| html! {
                <tr class="fit">
                    <th>{ format!("{part}'s constants") }</th>
                    <td>{ h.instances_text(x) }{ ": " }<code>{ h.formula(x) }</code></td>
                </tr>
            })) }
            { for p.values.iter().map(|v| match v.term {
                Some(t) => html! {
                    <tr class="value"><th>{ v.place.clone() }</th><td><code>{ readable(t) }</code></td></tr>
                },
                None => html! {
                    <tr class="value"><th>{ v.place.clone() }</th><td>{ format!("ite: {}", v.reason.as_deref().unwrap_or("no term of k")) }</td></tr>
                },
            }) }
        </table>
    }
}

fn mode_text(mode: MergeMode) -> &'static str {
    match mode {
        MergeMode::None => "no merging",
        MergeMode::Cfg => "CFG: every state at the same exit, with ites over each state's own condition",
        MergeMode::Sm => "SM: a loop that depends on a size, with ites over each state's own condition",
        MergeMode::SmOpt => "SMOpt: a loop that depends on a size, its formulas built over the forks between the states",
    }
}

/// Why the merged condition is what it is.
fn reason(m: &MergeReport) -> &'static str {
    match (m.whole, m.mode) {
        (true, MergeMode::SmOpt) => "Every side of every fork in the loop merged here, so the condition folds to true: the merged state holds wherever the loop started.",
        (true, _) => "These are every state the loop had, and one query showed their conditions cover every case: the merged state holds wherever the loop started.",
        (false, MergeMode::SmOpt) => "Each fork's condition appears once, on the way to the states merged.",
        (false, _) => "The condition is the disjunction of what each state assumed in the loop.",
    }
}

fn values_text(m: &MergeReport) -> String {
    match m.values {
        0 => "The states held the same values.".into(),
        n => format!(
            "{n} value{} differed (locals, operands, memory bytes), each now one term: {} DAG nodes with {} ite{} in all.",
            if n == 1 { "" } else { "s" },
            m.values_size.nodes,
            m.values_size.ites,
            if m.values_size.ites == 1 { "" } else { "s" },
        ),
    }
}
