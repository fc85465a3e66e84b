//! A node's details, shown beside the tree: the selected node of the
//! tree, which the page's state owns.

use super::merged::MergeView;
use super::model::kind_of;
use crate::disassembly::{line_of, Line};
use crate::page::components::memory_view::{MemoryView, NodeMemoryView};
use crate::page::describe::{inputs, outcome};
use std::rc::Rc;
use symplay_engine::report::{bytes_text, ForkKind, Location, ObjectReport, Report};
use yew::prelude::*;

#[derive(Properties)]
pub struct DetailsProps {
    pub report: Rc<Report>,
    /// The module as WAT, to show the instruction at a node's location.
    pub disassembly: Rc<Vec<Line>>,
    /// The node shown, by `report.tree` index.
    pub node: Option<usize>,
    /// Starts the ids of the pane's elements, as the tree's (`b-`).
    #[prop_or_default]
    pub prefix: AttrValue,
    /// The SMT-LIB forms are shown, from one node to the next.
    pub smt_shown: bool,
    /// Gets whether the SMT-LIB forms were opened or closed.
    pub on_smt: Callback<bool>,
    /// Selects another node (from a merge to the leaves it came from).
    pub on_select: Callback<usize>,
    /// Marks a location in the code panes (a merge's loop).
    pub on_mark: Callback<Location>,
}

impl PartialEq for DetailsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.report, &other.report)
            && Rc::ptr_eq(&self.disassembly, &other.disassembly)
            && self.node == other.node
            && self.prefix == other.prefix
            && self.smt_shown == other.smt_shown
    }
}

/// The details of a node: its branch condition, where it forked or its
/// path ended (with the instruction), the memory when it forked, a leaf's
/// outcome, input, output and memory, and the path condition down to it,
/// readable with the SMT-LIB form one click away.
#[function_component]
pub fn NodeDetails(props: &DetailsProps) -> Html {
    let (report, prefix) = (&props.report, &props.prefix);
    let Some(v) = props.node else {
        return html! { <aside id={format!("{prefix}node-details")} class="node-details empty">{ "Click a node for its condition, location and input." }</aside> };
    };
    let Some(node) = report.tree.get(v) else {
        return Html::default();
    };
    let path = report.path_at(v);
    let kind = kind_of(report, v);
    let show_smt = props.on_smt.reform(|e: Event| {
        e.target_unchecked_into::<web_sys::HtmlDetailsElement>()
            .open()
    });
    let branch = match report.branch_condition(v) {
        Some(c) => html! { <>
            <dt>{ "branch condition" }</dt>
            <dd><code class="readable">{ c.readable.clone() }</code></dd>
            // The exact form, one click away.
            <dd><details id={format!("{prefix}branch-smt")} open={props.smt_shown} ontoggle={show_smt.clone()}><summary>{ "SMT-LIB" }</summary><code class="smt">{ c.smtlib.clone() }</code></details></dd>
        </> },
        None => html! { <><dt>{ "branch condition" }</dt><dd>{ "none (the root)" }</dd></> },
    };
    let disassembly = &props.disassembly;
    let location = report.location_at(v).map(|l| {
        let instruction = line_of(disassembly, l.offset).map(|i| disassembly[i].text.trim());
        html! { <>
            <dt>{ match (path.is_some(), node.fork_kind) {
                (true, _) => "ends at",
                (false, ForkKind::Branch) => "forks at",
                (false, ForkKind::Select) => "forks at a select",
                (false, ForkKind::Result) => "splits its result into values at",
            } }</dt>
            <dd class="location">{ l.text() }</dd>
            if let Some(text) = instruction {
                <dd><code class="instruction">{ text }</code></dd>
            }
        </> }
    });
    let node_memory = node
        .memory
        .as_ref()
        .filter(|m| path.is_none() && m.objects > 0)
        .and_then(|m| {
            let objects = objects_when_forked(report, v, m.objects as usize)?;
            Some(html! { <>
                <dt>{ "memory when it forked" }</dt>
                <dd><NodeMemoryView {objects} memory={m.clone()} /></dd>
            </> })
        });
    let state_bytes = node.state_bytes.map(|b| {
        let when = if path.is_some() {
            "when it ended"
        } else {
            "when it forked"
        };
        html! { <>
            <dt>{ "state memory" }</dt>
            <dd class="state-bytes">{ format!("{} of its own {when}", bytes_text(b)) }</dd>
        </> }
    });
    let leaf = path.map(|p| {
        html! { <>
            <dt>{ "outcome" }</dt><dd class="outcome">{ outcome(p) }</dd>
            <dt>{ "input" }</dt><dd class="input"><code>{ inputs(p, &report.params) }</code></dd>
            if !p.stdout.is_empty() {
                <dt>{ "stdout" }</dt><dd><pre class="stdout">{ p.stdout.clone() }</pre></dd>
            }
            if !p.stderr.is_empty() {
                <dt>{ "stderr" }</dt><dd><pre class="stderr">{ p.stderr.clone() }</pre></dd>
            }
            if !p.notes.is_empty() {
                <dt>{ "warnings" }</dt>
                { for p.notes.iter().map(|n| html! { <dd class="note warning">{ n }</dd> }) }
            }
        </> }
    });
    // A leaf has its path's own condition; an inner node, the conditions
    // of the branches down to it.
    let (readable, smtlib) = match path {
        Some(p) => (report.path_condition_readable(p), report.path_condition(p)),
        None => branches_to(report, v),
    };
    let condition = html! { <>
        <dt>{ "path condition" }</dt>
        <dd><code class="path-condition-readable">{ readable }</code></dd>
        <dd><details id={format!("{prefix}path-smt")} open={props.smt_shown} ontoggle={show_smt}><summary>{ "SMT-LIB" }</summary><pre class="path-condition">{ smtlib }</pre></details></dd>
    </> };
    html! {
        <aside id={format!("{prefix}node-details")} class="node-details">
            <h3>{ format!("node {} ({})", node.id, kind.label()) }</h3>
            <dl>{ branch }{ location }{ leaf }{ state_bytes }{ condition }</dl>
            <MergeView report={report.clone()} node={v} prefix={prefix.clone()}
                on_select={props.on_select.clone()} on_mark={props.on_mark.clone()} />
            // The memory as wide as the pane, under the fields.
            { node_memory }
            if let Some(p) = path.filter(|p| !p.objects.is_empty()) {
                <h4>{ "memory" }</h4>
                <MemoryView path={p.clone()} />
            }
        </aside>
    }
}

/// The conjunction of the branch conditions from the root down to `v`:
/// readable, and as an SMT-LIB2 script as the engine writes path conditions.
fn branches_to(report: &Report, v: usize) -> (String, String) {
    let mut conditions = Vec::new();
    let mut at = report.tree.get(v);
    // Bounded, since a malformed tree may loop.
    for _ in 0..=report.tree.len() {
        let Some(node) = at else { break };
        conditions.extend(node.condition);
        // Ids are indices in the engine's reports; a search only otherwise.
        at = node.parent.and_then(|p| {
            report
                .tree
                .get(p)
                .filter(|n| n.id == p)
                .or_else(|| report.tree.iter().find(|n| n.id == p))
        });
    }
    conditions.reverse();
    (
        report.formulas.readable(&conditions),
        report.formulas.script(&conditions),
    )
}

/// The first `count` objects of a path below `v`: those made when `v`
/// forked (objects are numbered as they are made, and every path below
/// shares them).
fn objects_when_forked(report: &Report, v: usize, count: usize) -> Option<Vec<ObjectReport>> {
    let mut stack = vec![v];
    // Bounded, since a malformed tree may loop.
    for _ in 0..=report.tree.len() {
        let u = stack.pop()?;
        if let Some(p) = report.path_at(u) {
            if !p.objects.is_empty() {
                let made = p.objects.iter().filter(|o| (o.id as usize) < count);
                return Some(made.cloned().collect());
            }
        }
        let node = report.tree.get(u)?;
        stack.extend(
            node.children
                .iter()
                .rev()
                .filter(|&&c| c < report.tree.len()),
        );
    }
    None
}
