//! The page's layout: a bar on top (the gallery, the entry and its
//! parameters, the actions, the options and the help), the lesson of an
//! example, the program, the options form, and the outputs. Before a run
//! the program and the options share the screen; once a run starts the
//! execution tree takes the width of the screen, with the program and a
//! pane of results (the selected node, the bugs, the paths, step mode's
//! state, compare mode's figures) below it, and the options fold away
//! behind their button. On a phone everything stacks.

use super::{App, Msg};
use crate::examples::EXAMPLES;
use crate::page::state::Side;
use web_sys::{DragEvent, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// How the page lays itself out now.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// No results yet: the program and the options.
    Setup,
    /// A run's results.
    Results,
    /// Compare mode's two runs.
    Compare,
}

impl Mode {
    fn class(self) -> &'static str {
        match self {
            Mode::Setup => "setup-mode",
            Mode::Results => "results-mode",
            Mode::Compare => "compare-mode",
        }
    }
}

impl App {
    pub(super) fn mode(&self) -> Mode {
        let state = &self.state;
        if state.compare.is_some() && state.results(Side::A).is_some() {
            Mode::Compare
        } else if state.results(Side::A).is_some() {
            Mode::Results
        } else {
            Mode::Setup
        }
    }

    pub(super) fn page(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let state = &self.state;
        let mode = self.mode();
        // Dropping needs `dragover` cancelled, else the browser opens the file.
        let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
        let on_drop = link.batch_callback(|e: DragEvent| {
            e.prevent_default();
            e.data_transfer()
                .and_then(|d| d.files())
                .and_then(|files| files.get(0))
                .map(Msg::File)
        });
        // Ctrl+Enter (or Cmd+Enter) runs what is in the editor (Escape,
        // which stops, is heard on the whole window).
        let on_key = link.batch_callback(move |e: KeyboardEvent| {
            // Whether a run can start is for the state to say then: the
            // editor may hold text typed since the page was drawn.
            if e.key() == "Enter" && (e.ctrl_key() || e.meta_key()) {
                e.prevent_default();
                vec![Msg::Run]
            } else {
                Vec::new()
            }
        });
        let options_shown = mode == Mode::Setup || state.view.options_open;
        html! {
            <main class={classes!("page", mode.class())} onkeydown={on_key}
                ondragover={on_drag_over} ondrop={on_drop}>
                { self.view_top_bar(ctx, mode) }
                if state.view.help_open {
                    { help(ctx) }
                }
                if let Some(e) = state.example {
                    <p id="lesson" class="lesson" title={e.lesson}>{ e.lesson }</p>
                }
                { self.view_program(ctx, mode) }
                <section id="setup" class={classes!("setup", options_shown.then_some("open"))}
                    aria-label="options">
                    if options_shown {
                        { self.view_setup(ctx, mode) }
                    }
                </section>
                <div id="outputs" class="outputs">
                    { self.view_status() }
                    { self.view_results(ctx, mode) }
                </div>
            </main>
        }
    }

    /// The bar on top: the gallery, the entry with a field per parameter,
    /// and the actions.
    fn view_top_bar(&self, ctx: &Context<Self>, mode: Mode) -> Html {
        let link = ctx.link();
        let state = &self.state;
        let on_example = link.callback(|e: Event| {
            Msg::Example(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
        let (running, can_run) = (state.run.is_some(), state.can_run());
        let on_file = link.batch_callback(|e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let file = input.files().and_then(|files| files.get(0));
            // Emptied, so that choosing the same file again loads it again.
            input.set_value("");
            file.map(Msg::File)
        });
        html! {
            <header class="top-bar">
                <h1 title="symbolic execution for WebAssembly">{ "Symplay" }</h1>
                <label class="gallery">{ "example " }
                    <select id="example" onchange={on_example}>
                        <option value="" selected={state.example.is_none()}>{ "(your own module)" }</option>
                        { for EXAMPLES.iter().enumerate().map(|(i, e)| html! {
                            <option value={e.id} selected={state.example.is_some_and(|x| x.id == e.id)}>
                                { format!("{}. {}", i + 1, e.title) }
                            </option>
                        }) }
                    </select>
                </label>
                <div class="entry-bar">
                    { self.view_entry(ctx) }
                    { self.view_args(ctx) }
                </div>
                <div class="actions">
                    <button id="run" class="primary" disabled={!can_run}
                        title={state.cannot_explore.as_ref().map_or_else(
                            || "Ctrl+Enter".to_string(),
                            |why| format!("this module cannot be explored: {why}"),
                        )}
                        onclick={link.callback(|_| Msg::Run)}>{ "Run" }</button>
                    <button id="stop" title="Escape" disabled={!running}
                        onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                    if state.compare.is_none() {
                        <button id="step-start" disabled={!can_run}
                            title="explore one branch at a time, with the state (locals, operand stack, path condition, memory) at each step"
                            onclick={link.callback(|_| Msg::StartStepping)}>{ "Step" }</button>
                        <button id="compare" disabled={!can_run}
                            title="run these options and a second configuration (at first: A resolving by fork if A merges blocks into segments, else A with the other size mode) side by side"
                            onclick={link.callback(|_| Msg::Compare)}>{ "Compare" }</button>
                    } else {
                        <button id="close-compare" disabled={state.busy()}
                            title="back to single runs"
                            onclick={link.callback(|_| Msg::CloseCompare)}>{ "Single run" }</button>
                    }
                    <button id="share" title="put the module, the entry and the options in a link"
                        onclick={link.callback(|_| Msg::Share)}>{ "Share" }</button>
                    <label class="upload button" title="a .wasm, a .wat, or a .txt of base64 (or drop a file on the page)">
                        { "Upload" }<input id="upload" type="file" accept=".wasm,.wat,.txt" onchange={on_file} />
                    </label>
                    if mode != Mode::Setup {
                        <button id="options-toggle" aria-expanded={state.view.options_open.to_string()}
                            title="the searcher, seed, limits and heap model"
                            onclick={link.callback(|_| Msg::ToggleOptions)}>
                            { if state.view.options_open { "Options \u{25b4}" } else { "Options \u{25be}" } }
                        </button>
                    }
                    <button id="help-toggle" aria-expanded={state.view.help_open.to_string()}
                        title="keys, and what each pane shows"
                        onclick={link.callback(|_| Msg::ToggleHelp)}>{ "? Help" }</button>
                </div>
            </header>
        }
    }
}

/// The short help: the keys, and what each pane shows.
fn help(ctx: &Context<App>) -> Html {
    let keys: &[(&str, &str)] = &[
        ("Ctrl+Enter", "run the module in the editor"),
        (
            "Escape",
            "stop a run (or, in the tree, let go of the selection)",
        ),
        (
            "\u{2190} \u{2191} \u{2192} \u{2193}",
            "in the tree: move the selection along the branches",
        ),
        ("Shift + arrows", "in the tree: pan"),
        ("+ \u{2212} 0", "in the tree: zoom in, zoom out, fit"),
        (
            "Enter",
            "in the tree: collapse or expand the selected subtree",
        ),
        (
            "\u{2192}, Shift+\u{2192}, \u{2190}",
            "in step mode's pane: the next branch, the next instruction, back",
        ),
    ];
    let panes: &[(&str, &str)] = &[
        ("Example", "a course of C programs, each with its lesson; or your own module: type or paste WAT, paste base64 or hex, or upload or drop a .wasm"),
        ("Entry", "the exported function to explore; a parameter left empty is symbolic, a value fixes it, and an i32 can be a buffer of symbolic bytes"),
        ("C and WAT", "the program; a selected node's place is marked in both. The C source is read-only: edit the WAT, or compile your C and upload the .wasm"),
        ("Execution tree", "one node per branch, one leaf per path, coloured by how the path ended; labels are branch conditions, and a node's tooltip tells it whole"),
        ("Node", "the selected node's condition, place, input, output, memory and path condition (SMT-LIB one click away)"),
        ("Bugs", "each bug once per way and place it ends, with the shortest input; Replay runs it concretely and shows its trace"),
        ("Paths", "every path with its outcome, input and place"),
        ("Step", "step mode: the next branch or instruction, with the state that runs next"),
        ("Options", "the searcher, seed, limits and heap model; Compare runs two configurations side by side; Share makes a link of it all"),
    ];
    html! {
        <aside id="help" class="help" role="dialog" aria-label="help">
            <button id="help-close" class="close" title="close the help"
                onclick={ctx.link().callback(|_| Msg::ToggleHelp)}>{ "\u{d7}" }</button>
            <h2>{ "Keys" }</h2>
            <dl class="keys">
                { for keys.iter().map(|(k, what)| html! { <><dt><kbd>{ *k }</kbd></dt><dd>{ *what }</dd></> }) }
            </dl>
            <h2>{ "Panes" }</h2>
            <dl class="panes-help">
                { for panes.iter().map(|(k, what)| html! { <><dt>{ *k }</dt><dd>{ *what }</dd></> }) }
            </dl>
        </aside>
    }
}
