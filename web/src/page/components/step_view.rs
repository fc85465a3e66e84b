//! Step mode's pane: the buttons that move through the exploration (back,
//! the next branch, the next instruction, run to the end), what the step
//! shown did, and the state that runs next: its instruction, call stack
//! with locals and operand stack, path condition and memory objects (or
//! the merge at a loop's exit that comes next).

use crate::disassembly::{line_of, Line};
use crate::page::components::memory_view::StateMemoryView;
use crate::page::state::Steps;
use std::rc::Rc;
use symplay_engine::report::step::{FrameView, StateView, StepBy};
use yew::prelude::*;

#[derive(Properties)]
pub struct StepProps {
    pub steps: Steps,
    /// The run goes on (it takes steps); else it is over.
    pub running: bool,
    /// How the run ended, once it has (`completed`, `cancelled`, ...), and
    /// the states it left unexplored.
    pub ended: Option<(String, u64)>,
    /// The module as WAT, for the instruction that runs next.
    pub disassembly: Rc<Vec<Line>>,
    pub on_step: Callback<StepBy>,
    pub on_back: Callback<()>,
    pub on_resume: Callback<()>,
}

impl PartialEq for StepProps {
    fn eq(&self, other: &Self) -> bool {
        self.steps == other.steps
            && self.running == other.running
            && self.ended == other.ended
            && Rc::ptr_eq(&self.disassembly, &other.disassembly)
    }
}

#[function_component]
pub fn StepView(props: &StepProps) -> Html {
    let steps = &props.steps;
    let Some(taken) = steps.current() else {
        return html! { <section id="step" class="step"><p>{ "starting..." }</p></section> };
    };
    let step = &taken.step;
    let last = steps.at_last();
    // Forward through steps taken works even once the run is over.
    let can_step = !steps.waiting && !steps.resumed && (props.running || !last);
    let on_step = |by: StepBy| {
        let cb = props.on_step.clone();
        Callback::from(move |_: MouseEvent| cb.emit(by))
    };
    let on_back = {
        let cb = props.on_back.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let on_resume = {
        let cb = props.on_resume.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    // With the pane focused: the arrows move through the steps, Shift+Right
    // takes one instruction.
    let on_key = {
        let (step_cb, back) = (props.on_step.clone(), props.on_back.clone());
        Callback::from(move |e: KeyboardEvent| {
            match (e.key().as_str(), e.shift_key()) {
                ("ArrowRight", false) if can_step => step_cb.emit(StepBy::Branch),
                ("ArrowRight", true) if can_step => step_cb.emit(StepBy::Instruction),
                ("ArrowLeft", _) => back.emit(()),
                _ => return,
            }
            e.prevent_default();
        })
    };
    let newest = steps.taken.last().map_or(0, |t| t.step.number);
    let count = if last {
        format!("step {}", step.number)
    } else {
        format!("step {} of {newest}, going back", step.number)
    };
    // The first event heads the step; the paths that ended at its fork
    // (a failed check, a split result) follow it.
    let mut events = step.describe().into_iter();
    let first = events.next().unwrap_or_default();
    let then: Vec<String> = events.collect();
    let instructions = match step.instructions {
        0 => String::new(),
        1 => " (1 instruction)".into(),
        n => format!(" ({n} instructions)"),
    };
    let ended = props.ended.as_ref().filter(|_| last).map(|(reason, left)| {
        let how = match (steps.resumed, reason.as_str()) {
            (true, reason) => format!("Step mode was left: the run went on to its end ({reason})."),
            (false, "completed") => "The run is over: every path was explored.".to_string(),
            (false, reason) => format!("The run was stopped ({reason})."),
        };
        match left {
            0 => how,
            1 => format!("{how} 1 state was not explored."),
            n => format!("{how} {n} states were not explored."),
        }
    });
    html! {
        <section id="step" class="step" tabindex="0" onkeydown={on_key}
            aria-label="step mode: the left and right arrows move through the steps">
            <div class="step-bar">
                <h2>{ "Step mode" }</h2>
                <button id="step-back" title="the step before (←)" disabled={steps.shown == 0} onclick={on_back}>{ "\u{25c0} back" }</button>
                <button id="step-branch" class="primary" title="run until the state forks or its path ends (→)"
                    disabled={!can_step} onclick={on_step(StepBy::Branch)}>{ "next branch \u{25b6}" }</button>
                <button id="step-instruction" title="run one instruction (Shift+→)"
                    disabled={!can_step} onclick={on_step(StepBy::Instruction)}>{ "next instruction" }</button>
                <button id="step-resume" title="leave step mode: explore the rest at once"
                    disabled={!props.running || steps.resumed} onclick={on_resume}>{ "run to end" }</button>
                <span id="step-count" class="step-count">{ count }</span>
            </div>
            <p id="step-event" class="step-event">
                { format!("{}{instructions}", first) }
                if steps.waiting { <span class="waiting">{ " \u{2026} taking the next step" }</span> }
            </p>
            if !then.is_empty() {
                <ul id="step-then" class="step-then">
                    { for then.iter().map(|event| html! { <li>{ format!("then {event}") }</li> }) }
                </ul>
            }
            if let Some(ended) = ended {
                <p id="step-over" class="step-over">{ ended }</p>
            }
            { step.next.as_ref().map(|next| view_state(next, &props.disassembly)).unwrap_or_default() }
            if let Some(merge) = &step.next_merge {
                <p id="step-next" class="step-next">{ format!("next: {}", merge.describe()) }</p>
            }
        </section>
    }
}

fn view_state(v: &StateView, disassembly: &[Line]) -> Html {
    let instruction = line_of(disassembly, v.location.offset)
        .and_then(|i| disassembly.get(i))
        .map(|l| l.text.trim().to_string());
    let pending = v.waiting_text();
    html! {
        <div class="step-state">
            <p id="step-next" class="step-next">{ "next: " }
                if let Some(text) = instruction { <code class="instruction">{ text }</code>{ " at " } }
                <span class="location">{ v.location.text() }</span>
                { format!(" \u{2014} node #{}, depth {}, {pending}", v.node, v.depth) }
            </p>
            <div class="step-columns">
                <div id="step-frames" class="frames">
                    // The running frame first.
                    { for v.frames.iter().rev().enumerate().map(|(i, f)| view_frame(f, i == 0)) }
                </div>
                <div class="step-side">
                    <div id="step-path-condition" class="path-condition">
                        <h3>{ "path condition" }</h3>
                        if v.path_condition.is_empty() {
                            <p>{ "true (no branch taken yet)" }</p>
                        } else {
                            <ol>{ for v.path_condition.iter().map(|c| html! { <li><code>{ c.clone() }</code></li> }) }</ol>
                        }
                    </div>
                    if !v.objects.is_empty() {
                        <div id="step-memory">
                            <h3>{ "memory objects" }</h3>
                            <StateMemoryView objects={v.objects.clone()} />
                        </div>
                    }
                </div>
            </div>
        </div>
    }
}

fn view_frame(f: &FrameView, running: bool) -> Html {
    let title = if running {
        format!("{} (running)", f.location.function)
    } else {
        format!(
            "{} (at its call, {})",
            f.location.function,
            f.location.text()
        )
    };
    html! {
        <div class={classes!("frame", running.then_some("running"))}>
            <h3>{ title }</h3>
            <table class="locals">
                <thead><tr><th>{ "local" }</th><th>{ "type" }</th><th>{ "value" }</th></tr></thead>
                <tbody>
                { for f.locals.iter().map(|l| html! {
                    <tr><td>{ l.name.clone() }</td><td>{ l.ty.clone() }</td><td><code>{ l.value.clone() }</code></td></tr>
                }) }
                </tbody>
            </table>
            <p class="operands">{ "operand stack: " }
                if f.stack.is_empty() {
                    { "empty" }
                } else {
                    { for f.stack.iter().map(|v| html! { <code class="operand">{ v.clone() }</code> }) }
                }
            </p>
        </div>
    }
}
