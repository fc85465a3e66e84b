//! The merged-formula view, in a node's details: at a node where states
//! merged, the merged condition beside the disjunction of the conditions
//! the states had, with their sizes, the values the merge joined, the
//! loop it belongs to and the leaves it came from, each a click away, and
//! the regular patterns of the states' words; at a leaf whose state
//! merged, the node it merged into.

use std::rc::Rc;
use symplay_engine::report::{
    FormulaSize, Location, MergeMode, MergeReport, RegularPartition, RegularPatterns, Report,
    Synthesis,
};
use symplay_engine::solver::QuantifiedQuery;
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
    // A node an incremental merge made may merge again at the exit.
    let into_view = node.merged_into.map(|into| {
        let incremental = report.merges.iter().any(|m| m.node == into && m.incremental);
        html! {
            <p id={format!("{prefix}merged-into")} class="merged-into">
                { match incremental {
                    true => "Its state came to a merge point of the loop (a fork's side or the loop's head) and merged incrementally (any cases below it explored again from the merged state) into ",
                    false => "Its state waited at the loop's exit and merged into ",
                } }
                <button class="link node-link" onclick={select(into)}>{ format!("node {into}") }</button>
                { "." }
            </p>
        }
    });
    let Some(m) = report.merges.iter().find(|m| m.node == props.node) else {
        return into_view.unwrap_or_default();
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
    html! { <>
        { into_view.unwrap_or_default() }
        <section id={format!("{prefix}merge")} class="merge">
            <h4>{ "merged states" }</h4>
            if m.incremental {
                <p class="merge-what incremental">
                    { format!("2 states merged here incrementally, at {} in the loop at ", m.point.as_ref().map_or_else(String::new, |p| p.text())) }
                    <button class="link loop-link" onclick={mark_loop}>{ m.loop_at.text() }</button>
                    { ", below " }
                    <button class="link node-link" onclick={select(m.root)}>{ format!("node {}", m.root) }</button>
                    { " where their ways parted (PAT, the seed's §5): both came there, at the start of a fork's side or the loop's head, holding the same values wherever they may still be read, so the merged state is either's under the disjunction of their ways, one edge of the tree and one letter of its words. The earlier state had gone on from there: its subtree is superseded, and the merged state explores its cases again." }
                </p>
            } else {
                <p class="merge-what">
                    { format!("{} states merged here, at an exit of the loop at ", m.states) }
                    <button class="link loop-link" onclick={mark_loop}>{ m.loop_at.text() }</button>
                    { format!(" ({}). {}", mode_text(m.mode), reason(m)) }
                </p>
            }
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
                <p class="merge-validated">{ match m.k {
                    _ if m.incremental => "Right as made: its condition is the two states' disjunction, and their values are equal term for term.",
                    Some(_) => "The solver proved this merge right (Thm 6.2.7): its condition allows no case the states' disjunction does not, each state's condition implies it at that state's k, and at each k each value is that state's own.",
                    None => "The solver proved this merge right: its condition is the states' disjunction, and each value is each state's own on its path.",
                } }</p>
            }
            <p class="merged-from">
                { if m.incremental { "From the nodes " } else { "From the leaves " } }
                { for node.merged_from.iter().enumerate().map(|(k, &leaf)| html! { <>
                    if k > 0 { { ", " } }
                    <button class="link node-link" onclick={select(leaf)}>{ format!("node {leaf}") }</button>
                </> }) }
                { if m.incremental { ", the later state's and the earlier's." } else { ", each the state of one way through the loop." } }
            </p>
            { over_k_view(report, m, &node.merged_from, &select) }
            { patterns_view(&m.patterns, &readable) }
        </section>
    </> }
}

/// Under PAT, where the states merged over a k: each state's k, its leaf
/// (a click away) and its word, each repetition of the unit shaded; and
/// the quantified queries over k, each with the stage of the solver's
/// procedure that answered it, its time and its model.
fn over_k_view(
    report: &Report,
    m: &MergeReport,
    merged_from: &[usize],
    select: &dyn Fn(usize) -> Callback<MouseEvent>,
) -> Html {
    let (Some(k), Some(partition)) = (&m.k, m.patterns.partitions.first()) else {
        return Html::default();
    };
    let queries: Vec<_> = m.queries(&report.quantified_queries).collect();
    html! {
        <div class="over-k">
            <h5>{ format!("the states by {k}") }</h5>
            <p>{ format!("{k} names each state: its number of repetitions of the unit. Under the merged condition {k} takes one state's value, and that state's condition holds.") }</p>
            <table class="k-leaves">
                <thead><tr><th>{ k.clone() }</th><th>{ "leaf" }</th><th>{ "word" }</th></tr></thead>
                <tbody>
                    { for m.states_by_k(merged_from).into_iter().map(|(kj, leaf, w)| html! {
                        <tr>
                            <td>{ kj }</td>
                            <td><button class="link node-link" onclick={select(leaf)}>{ format!("node {leaf}") }</button></td>
                            <td>{ m.patterns.words.get(w).map_or_else(Html::default, |word| word_view(word, partition, kj)) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            <h5>{ format!("quantified queries over {k}") }</h5>
            if queries.is_empty() {
                <p class="no-queries">{ "No query over it was asked." }</p>
            } else {
                <table class="quantified-queries">
                    <thead><tr><th>{ "answer" }</th><th>{ "stage" }</th><th>{ "time" }</th><th>{ "model" }</th></tr></thead>
                    <tbody>
                        { for queries.iter().map(|q| html! {
                            <tr>
                                <td>{ q.answer.clone() }</td>
                                <td>{ q.stage.map_or("", |s| s.name()) }</td>
                                <td>{ format!("{:.1} ms", q.micros as f64 / 1000.0) }</td>
                                <td>{ model_view(q) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                if queries.iter().any(|q| !q.cells.is_empty()) {
                    <p class="cell-legend">
                        { "An array's cells: " }
                        <span class="cell solver">{ "the solver's" }</span>{ ", " }
                        <span class="cell duplicated">{ "copied from the first instance's cell (duplicate)" }</span>{ ", " }
                        <span class="cell protected">{ "kept as the solver gave it, a conflict (repair)" }</span>{ "." }
                    </p>
                }
            }
        </div>
    }
}

/// A quantified query's model: its scalars as text, each array's cells
/// as chips marked by where their values came from.
fn model_view(q: &QuantifiedQuery) -> Html {
    let arrays: Vec<&str> = q.cells.iter().map(|c| c.array.as_str()).collect();
    let scalars: Vec<&String> = (q.model.iter())
        .filter(|m| !arrays.iter().any(|a| m.starts_with(&format!("{a} = "))))
        .collect();
    let mut names = arrays.clone();
    names.dedup();
    html! { <>
        <code>{ scalars.iter().map(|m| m.as_str()).collect::<Vec<_>>().join("; ") }</code>
        { for names.into_iter().map(|name| html! {
            <span class="model-array">
                <code>{ format!("{name}:") }</code>
                { for q.cells.iter().filter(|c| c.array == name).map(|c| html! {
                    <span class={classes!("cell", c.origin.name())} title={c.origin.name()}>
                        { format!("[{}] {}", c.index, c.value) }
                    </span>
                }) }
            </span>
        }) }
    </> }
}

/// A word as letter chips, the unit's `k` repetitions of `partition`
/// shaded in turn.
fn word_view(word: &[u32], partition: &RegularPartition, k: u32) -> Html {
    let (prefix, unit) = (partition.prefix.len(), partition.unit.len());
    let repeated = prefix..prefix + unit * k as usize;
    html! {
        <span class="word">
            { for word.iter().enumerate().map(|(i, &l)| {
                let repetition = repeated.contains(&i).then(|| format!("repetition-{}", (i - prefix) / unit.max(1) % 2));
                html! { <span class={classes!("letter", letter_class(l), repetition)}>{ RegularPatterns::letter(l) }</span> }
            }) }
        </span>
    }
}

/// The colour class of letter `l`: one of twelve, in turn.
fn letter_class(l: u32) -> String {
    format!("letter-{}", l % 12)
}

/// Letters as chips, in a group of class `part`.
fn chips(letters: &[u32], part: &'static str, repeated: bool) -> Html {
    html! {
        <span class={classes!("chip", part)}>
            if repeated { { "(" } }
            { for letters.iter().map(|&l| html! {
                <span class={classes!("letter", letter_class(l))}>{ RegularPatterns::letter(l) }</span>
            }) }
            if repeated { { ")^k" } }
        </span>
    }
}

/// A partition as chips: prefix, (unit)^k and suffix, an empty part left
/// out (its text is the pattern's).
fn pattern_chips(p: &RegularPartition) -> Html {
    let parts = [
        (&p.prefix, "prefix", false),
        (&p.unit, "unit", true),
        (&p.suffix, "suffix", false),
    ];
    let shown: Vec<Html> = (parts.into_iter())
        .filter(|(letters, _, _)| !letters.is_empty())
        .map(|(letters, part, repeated)| chips(letters, part, repeated))
        .collect();
    html! {
        <span class="chips">
            { for shown.into_iter().enumerate().map(|(i, chip)| html! { <>
                if i > 0 { { " " } }
                { chip }
            </> }) }
        </span>
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
                        { pattern_chips(part) }
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
                        <td><span class={classes!("letter", letter_class(l as u32))}>{ RegularPatterns::letter(l as u32) }</span></td>
                        <td><code class="shape">{ RegularPatterns::shape(&readable(f)) }</code></td>
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
        MergeMode::Pat => "PAT: every state at the same exit, each regular pattern of their branches merged over a new k with a forall over its iterations",
    }
}

/// Why the merged condition is what it is.
fn reason(m: &MergeReport) -> &'static str {
    match (m.whole, m.mode) {
        (_, MergeMode::Pat) if m.k.is_some() => "The states' branches follow one regular pattern: the condition says an iteration's conditions once, under a forall over i from 1 to k, where k names the state (its number of iterations).",
        (false, MergeMode::Pat) => "These states have no formula pattern (see why below): each fork's condition appears once, on the way to the states merged.",
        (true, MergeMode::SmOpt | MergeMode::Pat) => "Every side of every fork in the loop merged here, so the condition folds to true: the merged state holds wherever the loop started.",
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
