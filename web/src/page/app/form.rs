//! The page's forms: the entry and its parameters, the program (the C
//! source of an example, the module's editor, its WAT with byte offsets),
//! and the options of one or two configurations.

use super::layout::Mode;
use super::{App, Msg};
use crate::disassembly::line_of;
use crate::examples::Example;
use crate::page::components::code_editor::CodeEditor;
use crate::page::components::code_pane::{CodePane, Listing};
use crate::page::components::wat_pane::WatPane;
use crate::page::input::{OptionFields, BUFFER, LENGTH_OF, VALUE};
use crate::page::state::{Code, Load, Side, Source, Wat};
use symplay_engine::exec::MergeMode;
use symplay_engine::memory::{AaCacheMode, BaseMode, Contents, Resolve, SizeMode};
use symplay_engine::search::SearchKind;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

impl App {
    /// The program: before a run, the example's C source and the module's
    /// editor one above the other; with results, one of them (or the WAT
    /// with byte offsets, where a node's place is marked) at a time.
    pub(super) fn view_program(&self, ctx: &Context<Self>, mode: Mode) -> Html {
        let link = ctx.link();
        let state = &self.state;
        let example = state.example;
        let wat = html! {
            <WatPane lines={state.disassembly.clone()} pane={self.wat.clone()}
                marked={state.highlight().and_then(|l| line_of(&state.disassembly, l.offset))} />
        };
        let setup = mode == Mode::Setup;
        let shown = match state.view.code {
            Code::C if example.is_none() => Code::Wat,
            code => code,
        };
        // Before a run, a binary module with no text shows its WAT with
        // offsets under its note.
        let binary = matches!(
            &state.source,
            Source::Binary {
                wat: Wat::Hidden,
                ..
            }
        );
        let tab = |code: Code, id: &'static str, label: &'static str| {
            let chosen = code == shown;
            html! {
                <button {id} role="tab" aria-selected={chosen.to_string()} class={classes!("tab", chosen.then_some("chosen"))}
                    onclick={link.callback(move |_| Msg::ShowCode(code))}>{ label }</button>
            }
        };
        // The editor comes first whatever is shown, so that it stays the
        // same element (with its text, undo and place) from one layout to
        // the other; the style sheet orders the panes.
        html! {
            <section id="program" class="program">
                { self.view_editor(ctx, setup || shown == Code::Edit, setup && example.is_some()) }
                if !setup {
                    <div class="tabs" role="tablist" aria-label="program">
                        if example.is_some() {
                            { tab(Code::C, "code-c", "C") }
                        }
                        { tab(Code::Wat, "code-wat", "WAT") }
                        { tab(Code::Edit, "code-edit", "Edit") }
                    </div>
                }
                if setup || shown == Code::C {
                    { example.map(|e| self.view_c_source(ctx, e)).unwrap_or_default() }
                }
                if (setup && binary) || (!setup && shown == Code::Wat) {
                    { wat }
                }
            </section>
        }
    }

    /// The options of a run, or of both in compare mode.
    pub(super) fn view_setup(&self, ctx: &Context<Self>, mode: Mode) -> Html {
        html! {
            <>
                if mode != Mode::Setup {
                    <h2 class="setup-title">{ "Options" }
                        <button id="options-close" class="close" title="close the options"
                            onclick={ctx.link().callback(|_| Msg::ToggleOptions)}>{ "\u{d7}" }</button>
                    </h2>
                }
                { self.view_configurations(ctx) }
            </>
        }
    }

    /// The options form, or in compare mode the forms of A and B.
    fn view_configurations(&self, ctx: &Context<Self>) -> Html {
        let state = &self.state;
        match &state.compare {
            None => self.view_options(ctx, &state.fields, ""),
            Some(compare) => html! {
                <div class="configurations">
                    <fieldset id="config-a" class="configuration">
                        <legend>{ "A" }</legend>
                        { self.view_options(ctx, &state.fields, Side::A.prefix()) }
                    </fieldset>
                    <fieldset id="config-b" class="configuration">
                        <legend>{ "B (the parameter values are A's)" }</legend>
                        { self.view_options(ctx, &compare.fields, Side::B.prefix()) }
                    </fieldset>
                </div>
            },
        }
    }

    /// The searcher, seed, limits and heap model of one configuration; its
    /// fields' ids start with `prefix`.
    fn view_options(&self, ctx: &Context<Self>, f: &OptionFields, prefix: &'static str) -> Html {
        let link = ctx.link();
        let id = |name: &str| format!("{prefix}{name}");
        let select = |name: &'static str| {
            let id = id(name);
            link.callback(move |e: Event| {
                Msg::Field(
                    id.clone(),
                    e.target_unchecked_into::<HtmlSelectElement>().value(),
                )
            })
        };
        let check = |name: &'static str| {
            let id = id(name);
            link.callback(move |e: Event| {
                let checked = e.target_unchecked_into::<HtmlInputElement>().checked();
                Msg::Field(id.clone(), checked.to_string())
            })
        };
        let objects = f.heap_model != "module";
        // Segments move blocks: their pointers are symbolic, whatever was
        // chosen before.
        let segments = objects && f.resolve == Resolve::Segment.name();
        // Address-aware caching keys on pointers over base symbols.
        let aa_cache = objects && f.aa_cache != AaCacheMode::Off.name();
        let merging = f.merge != MergeMode::None.name();
        let bases = if segments || aa_cache {
            BaseMode::Symbolic.name()
        } else {
            f.bases.as_str()
        };
        let field = |name: &'static str, label: &str, size: &str, value: &str| {
            let id = id(name);
            let on_input = {
                let id = id.clone();
                link.callback(move |e: InputEvent| {
                    Msg::Field(
                        id.clone(),
                        e.target_unchecked_into::<HtmlInputElement>().value(),
                    )
                })
            };
            // Only the heap's fields depend on the heap model.
            let disabled = name == "capacity" && !objects;
            html! {
                <label>{ format!("{label} ") }
                    <input id={id} size={size.to_string()} value={value.to_string()} {disabled} oninput={on_input} />
                </label>
            }
        };
        html! {
            <>
            <div class="controls options">
                <label>{ "search " }
                    <select id={id("search")} onchange={select("search")}>
                        { for SearchKind::ALL.iter().map(|k| html! {
                            <option value={k.name()} selected={k.name() == f.search}>{ k.name() }</option>
                        }) }
                    </select>
                </label>
                { field("seed", "seed", "6", &f.seed) }
                { field("max-time", "max time (s)", "4", &f.max_time) }
                { field("max-paths", "max paths", "6", &f.max_paths) }
                { field("max-depth", "max depth", "6", &f.max_depth) }
                { field("max-instructions", "max instructions", "9", &f.max_instructions) }
                { field("max-call-depth", "max call depth", "6", &f.max_call_depth) }
                { field("max-memory", "max memory (MiB)", "5", &f.max_memory) }
            </div>
            <div class="controls options heap">
                <label>{ "heap " }
                    <select id={id("heap-model")} onchange={select("heap-model")}>
                        <option value="objects" selected={objects}>{ "memory objects (checked)" }</option>
                        <option value="module" selected={!objects}>{ "the module's allocator" }</option>
                    </select>
                </label>
                <label title="how an allocation of symbolic size is made">{ "symbolic sizes " }
                    <select id={id("size-mode")} disabled={!objects} onchange={select("size-mode")}>
                        { for SizeMode::ALL.iter().map(|m| html! {
                            <option value={m.name()} selected={m.name() == f.size_mode}>{ m.name() }</option>
                        }) }
                    </select>
                </label>
                { field("capacity", "capacity (bytes for a symbolic size)", "5", &f.capacity) }
                <label><input id={id("malloc-may-fail")} type="checkbox" disabled={!objects}
                    checked={f.malloc_may_fail == "true"} onchange={check("malloc-may-fail")} />{ " malloc may fail" }</label>
                <label><input id={id("leaks")} type="checkbox" disabled={!objects}
                    checked={f.leaks == "true"} onchange={check("leaks")} />{ " report leaks" }</label>
                <label title="where a symbolic size can pass the capacity, one more path takes the largest such size (up to 1 MiB); off, as the seed's model, those sizes are left out">
                    <input id={id("past-capacity")} type="checkbox" disabled={!objects}
                    checked={f.past_capacity == "true"} onchange={check("past-capacity")} />{ " sizes past the capacity" }</label>
                <label title="which bytes the array of a symbolic read or write holds: per-object, the bytes it can reach in the object it resolved into; whole, all of linear memory (the baseline)">{ "contents " }
                    <select id={id("contents")} onchange={select("contents")}>
                        { for Contents::ALL.iter().map(|c| html! {
                            <option value={c.name()} selected={c.name() == f.contents}>{ c.name() }</option>
                        }) }
                    </select>
                </label>
                <label title="objects and regions (data, stack) larger than the threshold are split into pieces for reads and writes at symbolic offsets: the access forks over the pieces it can start in, each read as an array of its piece's bytes only (smaller formulas, more paths)">
                    <input id={id("split")} type="checkbox" disabled={f.contents != "per-object"}
                    checked={f.split == "true"} onchange={check("split")} />{ " split large objects" }</label>
                if f.split == "true" {
                    { field("split-threshold", "when larger than (bytes)", "6", &f.split_threshold) }
                    { field("split-piece", "into pieces of (bytes)", "5", &f.split_piece) }
                }
                <label title="what a pointer to a heap block is: concrete, its address; symbolic, a term over the block's base symbol (&obj3), whose hidden address the memory model keeps apart from the path condition, so that a block can move without a term changing (segments need it)">{ "heap pointers " }
                    <select id={id("bases")} disabled={!objects || segments || aa_cache} onchange={select("bases")}>
                        { for BaseMode::ALL.iter().map(|b| html! {
                            <option value={b.name()} selected={b.name() == bases}>{ b.name() }</option>
                        }) }
                    </select>
                </label>
                <label title="how an access through a pointer that may point into several heap blocks is resolved: fork, a path per block; segment, the blocks are moved next to each other into one segment, which the access reads as one array (no fork)">{ "pointer into several blocks " }
                    <select id={id("resolve")} disabled={!objects} onchange={select("resolve")}>
                        { for Resolve::ALL.iter().map(|r| html! {
                            <option value={r.name()} selected={r.name() == f.resolve}>{ r.name() }</option>
                        }) }
                    </select>
                </label>
                if segments {
                    { field("segment-cap", "segments of at most (bytes)", "5", &f.segment_cap) }
                    <span title="an access first takes the blocks allocated in the contexts (allocation site and this many callers) of the blocks it met before, and asks once whether the pointer can land elsewhere; off asks every block">
                        { field("segment-context", "allocation contexts of (callers, or off)", "3", &f.segment_context) }
                    </span>
                }
                <label title="address-aware query caching: a branch's query is also known by its form over the blocks' base symbols, so that queries differing only by where blocks lie (paths that allocated differently before) share an answer; check asks the solver again for each answer it gives and counts disagreements">{ "address-aware cache " }
                    <select id={id("aa-cache")} disabled={!objects} onchange={select("aa-cache")}>
                        { for AaCacheMode::ALL.iter().map(|m| html! {
                            <option value={m.name()} selected={m.name() == f.aa_cache}>{ m.name() }</option>
                        }) }
                    </select>
                </label>
            </div>
            <div class="controls options outcomes">
                <label title="off: a select on a symbolic condition is one value (an ite) on one path, and the outcomes it chooses between may not show">
                    <input id={id("fork-selects")} type="checkbox"
                    checked={f.fork_selects == "true"} onchange={check("fork-selects")} />{ " select forks" }</label>
                { field("result-values", "split a result of at most (values)", "4", &f.result_values) }
                <label title="off: a call of an import the engine does not provide ends its path (status limit); on: it returns fresh symbolic values, a new input per call">
                    <input id={id("havoc-imports")} type="checkbox"
                    checked={f.havoc_imports == "true"} onchange={check("havoc-imports")} />{ " unknown imports return fresh inputs" }</label>
            </div>
            <div class="controls options merging">
                <label title="none: every path on its own; cfg: states that leave a loop at the same exit wait there for the loop's other states and merge into one (differing values become ite terms, conditions a disjunction); sm: as cfg, for loops that leave on a size kept symbolic (fork-lazy); smopt: as sm, its formulas built over the forks between the states, each condition once; pat: as cfg, the states of each regular pattern of their branches merged over a new k, an iteration's conditions said once under a forall, the others as smopt">{ "merge states " }
                    <select id={id("merge")} onchange={select("merge")}>
                        { for MergeMode::ALL.iter().map(|m| html! {
                            <option value={m.name()} selected={m.name() == f.merge}>{ m.name() }</option>
                        }) }
                    </select>
                </label>
                if merging {
                    { field("merge-max-states", "at most (states in one merge)", "6", &f.merge_max_states) }
                    <label title="the solver checks each merge against the states it replaced: a wrong one is an engine error, and its states go on unmerged">
                        <input id={id("validate-merge")} type="checkbox"
                        checked={f.validate_merge == "true"} onchange={check("validate-merge")} />{ " validate merges" }</label>
                }
            </div>
            </>
        }
    }

    fn view_c_source(&self, ctx: &Context<Self>, e: &Example) -> Html {
        let marked = self
            .state
            .highlight()
            .and_then(|l| l.source.as_ref())
            .filter(|s| s.file == e.c_file)
            .map(|s| (s.line as usize).saturating_sub(1));
        let listing = Listing::Numbered(e.c_source);
        // Typing in the C pane changes nothing: it says so, and how to edit.
        let on_key = ctx.link().batch_callback(|e: KeyboardEvent| {
            let typing = e.key().chars().count() == 1 && !e.ctrl_key() && !e.meta_key();
            typing.then_some(Msg::CReadOnly)
        });
        html! {
            <div class="pane c-pane" onkeydown={on_key}>
                <h3 class="pane-title">{ format!("{} ", e.c_file) }<span class="read-only">{ "read-only C source" }</span></h3>
                if self.state.view.c_read_only_told {
                    <p id="c-read-only" class="notice" role="status">
                        { "The C source is read-only: to change the program, edit its WAT, or compile your C to .wasm (see build.sh beside the examples) and upload it." }
                    </p>
                }
                <CodePane key={e.id} id="c-source" {listing} {marked} pane={self.c_pane.clone()} />
                if let Some(gone) = self.state.lines_gone() {
                    <p id="lines-gone" class="notice lines-gone">{ gone }</p>
                }
            </div>
        }
    }

    /// The editor with the module's text, or a binary module's size.
    /// The editor, in a pane kept (hidden when not `shown`) so that it keeps
    /// its text, undo and place; `titled` before a run, where the C source
    /// is beside it.
    fn view_editor(&self, ctx: &Context<Self>, shown: bool, titled: bool) -> Html {
        let link = ctx.link();
        let body = match &self.state.source {
            Source::Binary {
                bytes,
                name,
                wat: Wat::Hidden,
            } => html! {
                <div id="binary-note" class="binary-note pane">
                    { format!("binary module, {} bytes ({name})", bytes.len()) }{ " " }
                    <button id="edit-text" onclick={link.callback(|_| Msg::EditText)}>{ "Edit text instead" }</button>
                </div>
            },
            Source::Binary {
                wat: Wat::Printing(_),
                ..
            } => html! {
                <div id="printing" class="pane editor">{ "printing the module as WAT..." }</div>
            },
            _ => html! {
                <CodeEditor text={self.state.editor.clone()}
                    on_edit={link.callback(|(text, at_once)| Msg::Edit { text, at_once })}
                    on_leave={link.callback(|()| Msg::TakeEditor)}
                    on_failure={link.callback(Msg::EditorFailed)} />
            },
        };
        html! {
            <div class={classes!("pane", "module-pane", (!shown).then_some("hidden"))}>
                if titled {
                    <h3 class="pane-title">{ "WAT module " }<span class="read-only">{ "editable: type or paste WAT, base64 or hex" }</span></h3>
                }
                { body }
            </div>
        }
    }

    /// The entry picker: the module's functions once listed, nothing
    /// chosen when only runtime helpers are exported.
    pub(super) fn view_entry(&self, ctx: &Context<Self>) -> Html {
        let state = &self.state;
        let on_entry = ctx.link().callback(|e: Event| {
            Msg::Entry(e.target_unchecked_into::<HtmlSelectElement>().value())
        });
        let options = match &state.load {
            Load::Reading(_) | Load::Loading(_) => {
                html! { <option value="">{ "loading..." }</option> }
            }
            Load::Failed(_) => Html::default(),
            Load::Ready => html! {
                <>
                    if state.entry.is_none() && !state.functions.is_empty() {
                        <option value="" selected=true disabled=true>{ "choose a function" }</option>
                    }
                    { for state.functions.iter().map(|f| html! {
                        <option value={f.name.clone()} selected={Some(&f.name) == state.entry.as_ref()}>
                            { format!("{} {}", f.name, f.signature) }
                        </option>
                    }) }
                </>
            },
        };
        let disabled = state.load != Load::Ready || state.functions.is_empty();
        html! {
            <label>{ "entry " }
                <select id="entry" onchange={on_entry} {disabled}>{ options }</select>
            </label>
        }
    }

    /// A value field per parameter of the entry: empty is symbolic.
    pub(super) fn view_args(&self, ctx: &Context<Self>) -> Html {
        let state = &self.state;
        let Some(function) = state.entry_function() else {
            return Html::default();
        };
        let fields = &state.fields;
        // Integer parameters may be a buffer (an i32 address) or the length
        // of another's.
        let integer = |ty: &str| ty == "i32" || ty == "i64";
        let buffers: Vec<usize> = (0..function.params.len())
            .filter(|&j| fields.arg_kind(j) == BUFFER)
            .collect();
        html! {
            <span class="args">
                { for function.params.iter().enumerate().map(|(i, ty)| {
                    let on_input = ctx.link().callback(move |e: InputEvent| {
                        Msg::Arg(i, e.target_unchecked_into::<HtmlInputElement>().value())
                    });
                    let on_kind = ctx.link().callback(move |e: Event| {
                        Msg::ArgKind(i, e.target_unchecked_into::<HtmlSelectElement>().value())
                    });
                    let value = fields.args.get(i).cloned().unwrap_or_default();
                    let kind = fields.arg_kind(i);
                    // The engine's values are integers: a float parameter is zero.
                    let float = ty.starts_with('f');
                    let name = function.param_name(i);
                    // The buffer parameter whose length this one is.
                    let length_of = kind
                        .strip_prefix(LENGTH_OF)
                        .map(|j| j.parse().map_or_else(|_| j.to_string(), |j| function.param_name(j)));
                    let (placeholder, title) = if float {
                        ("0: floats are not symbolic".to_string(), "float parameters are zero, and the report says so")
                    } else if kind == BUFFER {
                        ("capacity (bytes)".to_string(), "the parameter points to a buffer of symbolic bytes, of a symbolic length at most this many bytes")
                    } else if let Some(of) = &length_of {
                        (format!("{of}'s length"), "the parameter is the symbolic length of another parameter's buffer")
                    } else {
                        ("symbolic".to_string(), "a value fixes this parameter; empty leaves it symbolic")
                    };
                    let kinds = integer(ty).then(|| html! {
                        <select id={format!("arg-kind-{i}")} class="arg-kind" onchange={on_kind}>
                            <option value={VALUE} selected={kind == VALUE}>{ "value" }</option>
                            if ty == "i32" {
                                <option value={BUFFER} selected={kind == BUFFER}>{ "buffer of symbolic length \u{2264}" }</option>
                            }
                            { for buffers.iter().filter(|&&j| j != i).map(|j| {
                                let value = format!("{LENGTH_OF}{j}");
                                let selected = kind == value;
                                html! {
                                    <option {selected} {value}>{ format!("length of {}", function.param_name(*j)) }</option>
                                }
                            }) }
                        </select>
                    });
                    html! {
                        <label {title}>
                            { format!("{name} ({ty}) ") }
                            { kinds }
                            <input id={format!("arg-{i}")} class="arg" size={if float { "22" } else { "8" }}
                                {placeholder} disabled={float || length_of.is_some()} value={value} oninput={on_input} />
                        </label>
                    }
                }) }
            </span>
        }
    }
}
