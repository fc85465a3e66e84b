//! The page's outputs: what is going on (loading, errors, progress, the
//! share link), the run's summary and execution tree, and below it a pane
//! of results at a time: the selected node, the bugs, the paths, step
//! mode's state, compare mode's figures.

use super::layout::Mode;
use super::{App, Msg, LARGE_MODULE, SILENCE_MS};
use crate::page::components::bug_list::BugList;
use crate::page::components::comparison_view::ComparisonView;
use crate::page::components::paths_table::PathsTable;
use crate::page::components::run_summary::RunSummary;
use crate::page::components::step_view::StepView;
use crate::page::components::tree::details::NodeDetails;
use crate::page::components::tree::view::TreeView;
use crate::page::describe::count;
use crate::page::state::{Load, Side, Tab};
use std::rc::Rc;
use symplay_engine::memory::{BaseMode, Contents};
use symplay_engine::report::Report;
use yew::prelude::*;

impl App {
    /// The results: the summary and tree of the run (of both runs in
    /// compare mode), and the pane of results below.
    pub(super) fn view_results(&self, ctx: &Context<Self>, mode: Mode) -> Html {
        let state = &self.state;
        if mode == Mode::Setup {
            return Html::default();
        }
        let trees = match mode {
            Mode::Compare => self.view_sides(ctx),
            _ => html! {
                <>
                    { state.shown(Side::A).map(|(_, report)| report).map(|report| html! { <RunSummary {report} /> }) }
                    { self.view_tree(ctx, Side::A) }
                </>
            },
        };
        html! {
            <>
                <section id="trees" class="trees">{ trees }</section>
                { self.view_lower(ctx, mode) }
            </>
        }
    }

    /// A side's execution tree, once it has a report.
    fn view_tree(&self, ctx: &Context<Self>, side: Side) -> Html {
        let Some((results, report)) = self.state.shown(side) else {
            return Html::default();
        };
        // Step mode: the node of the state that runs next, while the tree
        // drawn is that of the step shown.
        let step = (results.steps.as_ref())
            .filter(|s| !s.at_last() || (self.state.run == Some(results.run) && !s.resumed))
            .and_then(|s| s.current())
            .map(|taken| &taken.step);
        let current = step.and_then(|s| Some(s.next.as_ref()?.node));
        let merging_next: Rc<[usize]> = (step.and_then(|s| s.next_merge.as_ref()))
            .map_or_else(|| Rc::from([]), |m| m.nodes.as_slice().into());
        html! {
            <TreeView key={results.run} {report}
                prefix={side.prefix()} selected={self.state.selected_node(side)} {current} {merging_next}
                on_select={ctx.link().callback(move |node| Msg::SelectNode(side, node))} />
        }
    }

    /// Compare mode's two trees side by side, each under its
    /// configuration.
    fn view_sides(&self, ctx: &Context<Self>) -> Html {
        let state = &self.state;
        let waiting = state.compare.as_ref().is_some_and(|c| c.waiting());
        let side = |side: Side| {
            let report = state.results(side).and_then(|r| r.report.clone());
            let title = match &report {
                Some(r) => format!("{}: {}", side.name(), configuration(r)),
                None if state.results(side).is_some() => format!("{}: running", side.name()),
                None if waiting => format!("{}: runs once A has ended", side.name()),
                None => format!("{}: not run (the comparison was stopped)", side.name()),
            };
            html! {
                <div class="side" id={format!("side-{}", side.name().to_lowercase())}>
                    <h2 title={title.clone()}>{ title }</h2>
                    { self.view_tree(ctx, side) }
                </div>
            }
        };
        html! { <div class="sides">{ side(Side::A) }{ side(Side::B) }</div> }
    }

    /// The pane of results below the tree, with a tab per pane.
    fn view_lower(&self, ctx: &Context<Self>, mode: Mode) -> Html {
        let link = ctx.link();
        let state = &self.state;
        let stepping = state.results(Side::A).is_some_and(|r| r.steps.is_some());
        // In compare mode the node shown is of the side it was selected in,
        // and the bugs and paths of the side chosen.
        let node_side = [Side::A, Side::B]
            .into_iter()
            .find(|&s| state.selected_node(s).is_some())
            .unwrap_or(Side::A);
        let listed = match mode {
            Mode::Compare
                if state
                    .results(Side::B)
                    .and_then(|r| r.report.as_ref())
                    .is_some() =>
            {
                state.view.details
            }
            _ => Side::A,
        };
        let report = state.shown(listed).map(|(_, report)| report);
        let bugs = report.as_ref().map_or(0, |r| r.bug_groups().len());
        let paths = report.as_ref().map_or(0, |r| r.paths.len());
        let mut tabs = Vec::new();
        if stepping && mode == Mode::Results {
            tabs.push((Tab::Step, "Step".to_string()));
        }
        if mode == Mode::Compare {
            tabs.push((Tab::Comparison, "Comparison".to_string()));
        }
        tabs.push((Tab::Node, "Node".to_string()));
        tabs.push((Tab::Bugs, format!("Bugs ({bugs})")));
        tabs.push((Tab::Paths, format!("Paths ({paths})")));
        let shown = if tabs.iter().any(|(t, _)| *t == state.view.tab) {
            state.view.tab
        } else {
            Tab::Node
        };
        let pane = match shown {
            Tab::Step => self.view_step(ctx),
            Tab::Comparison => self.view_comparison(),
            Tab::Node => self.view_node(ctx, node_side),
            Tab::Bugs => self.view_bugs(ctx, listed),
            Tab::Paths => self.view_paths(ctx, listed),
        };
        let choice = (mode == Mode::Compare
            && matches!(shown, Tab::Bugs | Tab::Paths)
            && state.results(Side::B).and_then(|r| r.report.as_ref()).is_some())
        .then(|| {
            html! {
                <div class="details-choice" role="tablist">{ "of " }
                    { for [Side::A, Side::B].into_iter().map(|s| html! {
                        <button id={format!("details-{}", s.name().to_lowercase())} role="tab"
                            aria-selected={(s == listed).to_string()} class={classes!((s == listed).then_some("chosen"))}
                            onclick={link.callback(move |_| Msg::Details(s))}>{ s.name() }</button>
                    }) }
                </div>
            }
        });
        html! {
            <section id="lower" class="lower">
                <div class="tabs" role="tablist" aria-label="results">
                    { for tabs.into_iter().map(|(tab, label)| {
                        let chosen = tab == shown;
                        html! {
                            <button id={format!("tab-{}", tab.name())} role="tab" aria-selected={chosen.to_string()}
                                class={classes!("tab", chosen.then_some("chosen"))}
                                onclick={link.callback(move |_| Msg::ShowTab(tab))}>{ label }</button>
                        }
                    }) }
                    { choice }
                </div>
                <div class="tab-pane" id={format!("pane-{}", shown.name())}>{ pane }</div>
            </section>
        }
    }

    fn view_step(&self, ctx: &Context<Self>) -> Html {
        let Some(results) = self.state.results(Side::A) else {
            return Html::default();
        };
        let running = self.state.run == Some(results.run);
        let ended = results
            .report
            .as_ref()
            .filter(|r| !running && r.stop_reason != "running")
            .map(|r| (r.stop_reason.clone(), r.stats.pending_states));
        let link = ctx.link();
        results
            .steps
            .clone()
            .map(|steps| {
                html! {
                    <StepView {steps} running={running} {ended}
                        disassembly={self.state.disassembly.clone()}
                        on_step={link.callback(Msg::Step)} on_back={link.callback(|()| Msg::StepBack)}
                        on_resume={link.callback(|()| Msg::Resume)} />
                }
            })
            .unwrap_or_default()
    }

    /// The selected node's details.
    fn view_node(&self, ctx: &Context<Self>, side: Side) -> Html {
        let Some(report) = self.state.shown(side).map(|(_, report)| report) else {
            return Html::default();
        };
        html! {
            <NodeDetails {report} disassembly={self.state.disassembly.clone()}
                node={self.state.selected_node(side)} prefix={side.prefix()}
                smt_shown={self.state.view.smt_shown} on_smt={ctx.link().callback(Msg::ShowSmt)}
                on_select={ctx.link().callback(move |node| Msg::SelectNode(side, Some(node)))}
                on_mark={ctx.link().callback(move |location| Msg::MarkLocation(side, location))} />
        }
    }

    /// A side's bugs, with their replays, and the report to download.
    fn view_bugs(&self, ctx: &Context<Self>, side: Side) -> Html {
        let link = ctx.link();
        let Some((results, report)) = self.state.shown(side) else {
            return Html::default();
        };
        html! {
            <section class="downloads-and-bugs">
                <BugList {report} replays={results.replays.clone()}
                    busy={self.state.busy()} on_replay={link.callback(move |id| Msg::Replay(side, id))} />
                <button id="download" onclick={link.callback(move |_| Msg::Download(side))}>{ "Download report (JSON)" }</button>
            </section>
        }
    }

    /// A side's table of paths (one side at a time, so that its element
    /// ids stay the page's only ones).
    fn view_paths(&self, ctx: &Context<Self>, side: Side) -> Html {
        let Some(report) = self.state.shown(side).map(|(_, report)| report) else {
            return Html::default();
        };
        html! {
            <PathsTable {report} selected={self.state.selected_path(side)}
                on_select={ctx.link().callback(move |id| Msg::SelectPath(side, id))} />
        }
    }

    /// Compare mode's figures, once both runs are over (not on a partial B).
    fn view_comparison(&self) -> Html {
        let report = |side| self.state.results(side).and_then(|r| r.report.clone());
        match (
            report(Side::A),
            report(Side::B).filter(|b| b.stop_reason != "running"),
        ) {
            (Some(a), Some(b)) => html! { <ComparisonView {a} {b} /> },
            _ => {
                html! { <p class="waiting">{ "The comparison comes once both runs have ended." }</p> }
            }
        }
    }

    fn view_share(&self) -> Html {
        match &self.state.share {
            None => Html::default(),
            Some(Ok(link)) => html! {
                <p id="share-link" class="share">
                    { match &self.state.saving.copied {
                        None => html! {},
                        Some(Ok(())) => html! { <span id="copy-notice" class="copied" role="status">{ "✓ copied to the clipboard" }</span> },
                        Some(Err(why)) => html! { <span id="copy-notice" class="not-copied" role="status">{ format!("not copied ({why}): copy the link below") }</span> },
                    } }
                    { " share link: " }<a href={link.clone()}>{ link.clone() }</a>
                </p>
            },
            Some(Err(message)) => {
                html! { <p id="share-error" class="error">{ message.clone() }</p> }
            }
        }
    }

    /// How long a running worker has not spoken, once that is long.
    pub(super) fn silent_for(&self) -> Option<f64> {
        let silent = js_sys::Date::now() - self.heard_at;
        (self.state.working() && silent > SILENCE_MS).then_some(silent)
    }

    pub(super) fn view_status(&self) -> Html {
        let state = &self.state;
        let loading = match &state.load {
            Load::Reading(what) => Some(what),
            Load::Loading(what) if state.source.bytes().len() >= LARGE_MODULE => Some(what),
            _ => None,
        }
        .map(|what| html! { <p id="loading">{ format!("loading {what}...") }</p> });
        let error = match &state.load {
            Load::Failed(why) => Some(why),
            _ => state.error.as_ref(),
        }
        .map(|e| html! { <p id="error" class="error">{ e.clone() }</p> });
        let notice = state
            .no_entry
            .as_ref()
            .map(|n| html! { <p id="notice" class="notice">{ n.clone() }</p> });
        // In compare mode, a line per side that has run or runs.
        let sides: &[Side] = if state.compare.is_some() {
            &[Side::A, Side::B]
        } else {
            &[Side::A]
        };
        let progress = sides.iter().filter_map(|&side| {
            let results = state.results(side)?;
            let p = results.progress.as_ref()?;
            let running = state.run == Some(results.run);
            let id = match (side, state.compare.is_some()) {
                (Side::B, true) => "progress-b",
                _ => "progress",
            };
            let who = if state.compare.is_some() {
                format!("{}: ", side.name())
            } else {
                String::new()
            };
            let stepping = results.steps.as_ref().is_some_and(|s| !s.resumed);
            let merging = match p.merging {
                0 => String::new(),
                n => format!(" ({n} merging)"),
            };
            Some(html! {
                <p {id}>{ format!(
                    "{who}{}{}, {}{merging}, {}, {}, {:.1} s",
                    match (running, stepping) {
                        (true, true) => "step mode: ",
                        (true, false) => "running: ",
                        (false, _) => "",
                    },
                    count(p.paths, "path", "paths"),
                    count(p.pending, "pending state", "pending states"),
                    count(p.queries as usize, "solver query", "solver queries"),
                    count(p.instructions as usize, "instruction", "instructions"),
                    p.elapsed_ms / 1000.0
                ) }
                if let Some(ms) = self.silent_for().filter(|_| running) {
                    <span id="busy">{ format!(
                        "; no word from the engine for {:.0} s: it is inside one long step, such as a hard solver query",
                        ms / 1000.0
                    ) }</span>
                }
                </p>
            })
        });
        let progress: Html = progress.collect();
        let not_saved = state
            .saving
            .not_saved
            .as_ref()
            .map(|why| html! { <p id="not-saved" class="notice">{ why.clone() }</p> });
        html! {
            <section class="status">
                { loading }{ error }{ notice }{ not_saved }{ self.view_share() }{ progress }
            </section>
        }
    }
}

/// A run's configuration in words: `dfs, size mode base, capacity 100`.
fn configuration(r: &Report) -> String {
    let mut words = vec![r.search.clone()];
    if r.seed != 0 {
        words.push(format!("seed {}", r.seed));
    }
    if r.heap.objects {
        words.push(format!("size mode {}", r.heap.size_mode.name()));
        words.push(format!("capacity {}", r.heap.capacity));
        if r.heap.malloc_may_fail {
            words.push("malloc may fail".into());
        }
        if !r.heap.past_capacity {
            words.push("no sizes past the capacity".into());
        }
    } else {
        words.push("the module's allocator".into());
    }
    if r.heap.contents != Contents::default() {
        words.push(format!("{} contents", r.heap.contents.name()));
    }
    if let Some(split) = r.heap.split {
        words.push(format!(
            "split over {} B into {} B pieces",
            split.threshold, split.piece
        ));
    }
    if r.heap.bases == BaseMode::Symbolic {
        words.push("symbolic bases".into());
    }
    if let Some(segments) = r.heap.segments {
        words.push(format!("segments of at most {} B", segments.cap));
        if let Some(depth) = segments.context_depth {
            words.push(format!("allocation contexts of {depth} callers"));
        }
    }
    if let Some(frames) = r.limits.max_call_depth {
        words.push(format!("max call depth {frames}"));
    }
    if r.havoc_imports {
        words.push("unknown imports return fresh inputs".into());
    }
    if !r.merge.is_none() {
        words.push(format!("merging {}", r.merge.mode));
        if r.merge.validate {
            words.push("merges validated".into());
        }
    }
    words.join(", ")
}
