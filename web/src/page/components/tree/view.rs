//! The tree view: an SVG of the laid-out tree with zoom (wheel), pan
//! (drag), fit and collapsible subtrees; a click or the keyboard asks the
//! page to select a node (the page owns the selection and shows its
//! details apart). Zoom and pan only change one `transform` and the
//! labels, which are drawn on screen at one size; the nodes are a separate
//! component that redraws only when the layout changes, so large trees
//! stay quick.

use super::labels::{self, Placed, Screen};
use super::model::{legible_cut, memory_shades, Kind, Model};
use crate::page::describe::count;
use std::collections::HashSet;
use std::rc::Rc;
use symplay_engine::report::{bytes_text, Report};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{AddEventListenerOptions, Element, ResizeObserver, WheelEvent};
use yew::prelude::*;

/// Pixels per layout unit, across and down.
const DX: f64 = 24.0;
const DY: f64 = 44.0;
const RADIUS: f64 = 7.0;
/// A node's least radius on screen, in pixels, down to the first view's
/// least zoom (nodes are 24 units apart across, so they stay apart);
/// zoomed out further, they shrink.
const MIN_NODE_PX: f64 = 4.0;
const MARGIN: f64 = 20.0;
/// The first view fits the tree, but not smaller than this, from the root.
const MIN_START_SCALE: f64 = 0.35;
/// Trees with more drawn nodes than this have no labels (they would
/// cover each other); their tooltips stay.
const MAX_LABELLED: usize = 300;
/// A label character's width on screen in pixels (labels are 12 px
/// monospace at every zoom), and the gap between a label and its edge.
const LABEL_CHAR: f64 = 7.4;
const LABEL_GAP: f64 = 6.0;
/// Fit zooms out no further than this, collapsing deep subtrees instead,
/// so that labels stay legible.
const LEGIBLE_SCALE: f64 = 0.8;
/// One press of a zoom button or key, and of an arrow key in pixels.
const ZOOM_STEP: f64 = 1.25;
const PAN_STEP: f64 = 40.0;

#[derive(Properties)]
pub struct TreeProps {
    pub report: Rc<Report>,
    /// The node selected (here, or its path in the table), by
    /// `report.tree` index: ringed, its path from the root drawn, its
    /// details shown, and brought into view when it changes.
    pub selected: Option<usize>,
    /// Asks for a node to be selected (a click, the keyboard), or for none.
    pub on_select: Callback<Option<usize>>,
    /// Step mode: the node of the state that runs next, marked and kept
    /// in view.
    #[prop_or_default]
    pub current: Option<usize>,
    /// Step mode: the nodes of the states that merge next at a loop's
    /// exit, marked.
    #[prop_or_default]
    pub merging_next: Rc<[usize]>,
    /// Starts the ids of the view's elements, so that two trees (compare
    /// mode) can be on one page: `b-` gives `b-tree`, `b-tree-fit`, ...
    #[prop_or_default]
    pub prefix: AttrValue,
}

impl PartialEq for TreeProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.report, &other.report)
            && self.prefix == other.prefix
            && self.selected == other.selected
            && self.current == other.current
            && self.merging_next == other.merging_next
    }
}

pub enum Msg {
    Wheel {
        delta: f64,
        x: f64,
        y: f64,
    },
    Down {
        x: f64,
        y: f64,
    },
    Move {
        x: f64,
        y: f64,
    },
    Up,
    /// The pointer came over the tree (where, in the SVG) or left it.
    Pointer(Option<(f64, f64)>),
    /// Zoom by a factor around the middle of the view (buttons, keys).
    Zoom(f64),
    /// Pan by pixels (arrow keys).
    Pan(f64, f64),
    Click(Option<usize>),
    /// An arrow key moves the selection along the branches.
    Arrow(&'static str),
    /// Fits the tree in view, zoomed out no further than `min_scale`.
    Fit {
        min_scale: f64,
    },
    /// Fits the tree at a legible scale, deep subtrees collapsed into
    /// counted stubs as far as needed.
    FitLegibly,
    /// Every collapsed subtree is drawn again.
    ExpandAll,
    /// The pane changed size.
    Resized,
    Toggle(usize),
    /// Colours the nodes by the memory their states held, or back by
    /// outcome.
    ColourByMemory(bool),
    /// Colours the nodes by the letter of their edge in the merged
    /// states' words (merged leaves labelled by their words), or back by
    /// outcome.
    ColourByLetter(bool),
}

struct Drag {
    from: (f64, f64),
    start: (f64, f64),
    moved: bool,
}

pub struct TreeView {
    model: Rc<Model>,
    /// Nodes are coloured by the bytes their states held of their own,
    /// or by their edge's letter, not by outcome.
    by_memory: bool,
    by_letter: bool,
    collapsed: HashSet<usize>,
    /// Subtrees the last legible fit collapsed.
    cut: usize,
    scale: f64,
    shift: (f64, f64),
    drag: Option<Drag>,
    /// A drag just ended: the click that follows is not a selection.
    dragged: bool,
    /// The user zoomed or panned: a growing tree no longer refits.
    moved: bool,
    /// Where the pointer is over the tree: as the tree grows, the node
    /// nearest it stays where it is on screen (no refit), so that a node
    /// does not slide away from a click aimed at it.
    pointer: Option<(f64, f64)>,
    svg: NodeRef,
    _wheel: Option<Closure<dyn Fn(WheelEvent)>>,
    /// Watches the pane's size; disconnected with the view.
    resize: Option<(ResizeObserver, Closure<dyn Fn()>)>,
}

impl TreeView {
    fn fit(&mut self, min_scale: f64) {
        let (w, h) = self.viewport();
        let layout = &self.model.layout;
        let (tw, th) = (
            layout.width * DX + 2.0 * MARGIN,
            f64::from(layout.height) * DY + 2.0 * MARGIN,
        );
        self.scale = (w / tw).min(h / th).clamp(min_scale.min(2.0), 2.0);
        let root_x = layout.x.first().copied().unwrap_or(0.0) * DX + MARGIN;
        // Centre the tree if it fits across, else the root.
        let centre = if tw * self.scale <= w {
            tw / 2.0
        } else {
            root_x
        };
        self.shift = (w / 2.0 - centre * self.scale, 0.0);
    }

    /// Fits the tree at [`LEGIBLE_SCALE`] at least: subtrees below the
    /// deepest level that allows it are collapsed.
    fn fit_legibly(&mut self, report: &Report) {
        let (w, h) = self.viewport();
        let (w, h) = (w / LEGIBLE_SCALE, h / LEGIBLE_SCALE);
        let fits = |l: &super::layout::Layout| {
            l.width * DX + 2.0 * MARGIN <= w && f64::from(l.height) * DY + 2.0 * MARGIN <= h
        };
        self.collapsed = legible_cut(report, MAX_LABELLED, fits);
        self.cut = self.collapsed.len();
        self.relayout(report);
        self.fit(LEGIBLE_SCALE);
        self.moved = false;
    }

    /// The drawn node the arrow `key` moves the selection to: up to the
    /// parent, down to the first child, left and right among siblings;
    /// from nothing, the root; from a node inside a collapsed subtree, its
    /// stub.
    fn moved_to(&self, props: &TreeProps, key: &str) -> Option<usize> {
        let m = &self.model;
        let selected = props.selected;
        let Some(at) = selected.and_then(|s| m.drawn_or_stub(&props.report, s)) else {
            return (!m.nodes.is_empty()).then_some(0);
        };
        if Some(m.nodes[at]) != selected {
            return Some(at);
        }
        let siblings = m.parent[at].map(|p| &m.children[p]);
        let index = siblings.and_then(|s| s.iter().position(|&c| c == at));
        match key {
            "ArrowUp" => m.parent[at],
            "ArrowDown" => m.children[at].first().copied(),
            "ArrowLeft" => Some(siblings?[index?.checked_sub(1)?]),
            "ArrowRight" => siblings?.get(index? + 1).copied(),
            _ => None,
        }
    }

    fn viewport(&self) -> (f64, f64) {
        self.svg
            .cast::<Element>()
            .map(|e| {
                (
                    f64::from(e.client_width()).max(1.0),
                    f64::from(e.client_height()).max(1.0),
                )
            })
            .unwrap_or((800.0, 480.0))
    }

    /// Zooms by `k`, keeping the point `(x, y)` of the view in place.
    fn zoom_at(&mut self, k: f64, x: f64, y: f64) {
        let scale = (self.scale * k).clamp(0.002, 8.0);
        let k = scale / self.scale;
        self.shift = (x - (x - self.shift.0) * k, y - (y - self.shift.1) * k);
        self.scale = scale;
        self.moved = true;
    }

    /// Centres node `v` (a `report.tree` index) if it is drawn and out of
    /// view.
    fn bring_into_view(&mut self, v: usize) {
        if let Some(i) = self.model.drawn(v) {
            let (x, y) = position(&self.model, i);
            let (w, h) = self.viewport();
            let on_screen = (self.shift.0 + self.scale * x, self.shift.1 + self.scale * y);
            if !(0.0..=w).contains(&on_screen.0) || !(0.0..=h).contains(&on_screen.1) {
                self.shift = (w / 2.0 - self.scale * x, h / 2.0 - self.scale * y);
                self.moved = true;
            }
        }
    }

    /// The branch labels on screen at the present zoom, while the tree
    /// drawn is small enough to read.
    fn labels(&self) -> Vec<Placed> {
        if self.model.nodes.len() > MAX_LABELLED {
            return Vec::new();
        }
        let (width, height) = self.viewport();
        let on_screen = |i: usize| {
            let (x, y) = position(&self.model, i);
            (self.shift.0 + self.scale * x, self.shift.1 + self.scale * y)
        };
        labels::place(
            &self.model,
            &Screen {
                position: &on_screen,
                width,
                height,
                char_px: LABEL_CHAR,
                gap_px: LABEL_GAP,
            },
        )
    }

    /// The node drawn nearest to `at` on screen (a `report.tree` index),
    /// and where it is.
    fn nearest_on_screen(&self, at: (f64, f64)) -> Option<(usize, (f64, f64))> {
        (0..self.model.nodes.len())
            .map(|i| {
                let (x, y) = position(&self.model, i);
                let screen = (self.shift.0 + self.scale * x, self.shift.1 + self.scale * y);
                (i, screen)
            })
            .min_by(|a, b| distance(a.1, at).total_cmp(&distance(b.1, at)))
            .map(|(i, screen)| (self.model.nodes[i], screen))
    }

    /// Shifts the view so that node `v` is drawn at `at` on screen.
    fn keep_on_screen(&mut self, v: usize, at: (f64, f64)) {
        if let Some(i) = self.model.drawn(v) {
            let (x, y) = position(&self.model, i);
            self.shift = (at.0 - self.scale * x, at.1 - self.scale * y);
        }
    }

    fn relayout(&mut self, report: &Report) {
        let model = Model::new(report, &self.collapsed);
        self.model = Rc::new(match self.by_letter {
            true => model.labelled_by_words(),
            false => model,
        });
    }
}

/// Pointer position inside the SVG element.
fn local(svg: &NodeRef, client_x: i32, client_y: i32) -> (f64, f64) {
    let origin = svg.cast::<Element>().map(|e| e.get_bounding_client_rect());
    let (left, top) = origin.map_or((0.0, 0.0), |r| (r.left(), r.top()));
    (f64::from(client_x) - left, f64::from(client_y) - top)
}

impl Component for TreeView {
    type Message = Msg;
    type Properties = TreeProps;

    fn create(ctx: &Context<Self>) -> Self {
        TreeView {
            model: Rc::new(Model::new(&ctx.props().report, &HashSet::new())),
            by_memory: false,
            by_letter: false,
            collapsed: HashSet::new(),
            cut: 0,
            scale: 1.0,
            shift: (0.0, 0.0),
            drag: None,
            dragged: false,
            moved: false,
            pointer: None,
            svg: NodeRef::default(),
            _wheel: None,
            resize: None,
        }
    }

    /// A new report is the same run grown (a new run makes a new view):
    /// collapsed subtrees and the selection stay, and so does the view once
    /// the user has moved it.
    fn changed(&mut self, ctx: &Context<Self>, old: &Self::Properties) -> bool {
        if !Rc::ptr_eq(&ctx.props().report, &old.report) {
            let anchor = self.pointer.and_then(|p| self.nearest_on_screen(p));
            self.relayout(&ctx.props().report);
            match anchor {
                Some((v, at)) => self.keep_on_screen(v, at),
                None if !self.moved => self.fit(MIN_START_SCALE),
                None => {}
            }
        }
        if let Some(v) = ctx.props().selected.filter(|&v| Some(v) != old.selected) {
            self.bring_into_view(v);
        }
        if let Some(v) = ctx.props().current.filter(|&v| Some(v) != old.current) {
            self.bring_into_view(v);
        }
        true
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        if !first_render {
            return;
        }
        // Not through yew: its wheel listeners are passive, and the page
        // must not scroll while the tree zooms.
        if let Some(svg) = self.svg.cast::<Element>() {
            let link = ctx.link().clone();
            let target = self.svg.clone();
            let on_wheel = Closure::<dyn Fn(WheelEvent)>::new(move |e: WheelEvent| {
                e.prevent_default();
                let (x, y) = local(&target, e.client_x(), e.client_y());
                link.send_message(Msg::Wheel {
                    delta: e.delta_y(),
                    x,
                    y,
                });
            });
            let options = AddEventListenerOptions::new();
            options.set_passive(false);
            let added = svg.add_event_listener_with_callback_and_add_event_listener_options(
                "wheel",
                on_wheel.as_ref().unchecked_ref(),
                &options,
            );
            if added.is_ok() {
                self._wheel = Some(on_wheel);
            }
            // The pane takes its size as the page lays itself out, and again
            // when the window changes: the tree is fitted anew, unless the
            // user has moved it, and the labels placed for the new size.
            let link = ctx.link().clone();
            let on_resize = Closure::<dyn Fn()>::new(move || link.send_message(Msg::Resized));
            if let Ok(observer) = ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
                observer.observe(&svg);
                self.resize = Some((observer, on_resize));
            }
        }
        ctx.link().send_message(Msg::Fit {
            min_scale: MIN_START_SCALE,
        });
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        if let Some((observer, _)) = self.resize.take() {
            observer.disconnect();
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Resized => {
                if !self.moved {
                    self.fit(MIN_START_SCALE);
                }
            }
            Msg::Wheel { delta, x, y } => {
                self.zoom_at((-delta * 0.0015).exp().clamp(0.5, 2.0), x, y);
            }
            Msg::Zoom(k) => {
                let (w, h) = self.viewport();
                self.zoom_at(k, w / 2.0, h / 2.0);
            }
            Msg::Pan(dx, dy) => {
                self.shift = (self.shift.0 + dx, self.shift.1 + dy);
                self.moved = true;
            }
            Msg::Down { x, y } => {
                self.dragged = false;
                self.drag = Some(Drag {
                    from: (x, y),
                    start: self.shift,
                    moved: false,
                });
                return false;
            }
            Msg::Move { x, y } => {
                self.pointer = Some((x, y));
                let Some(drag) = &mut self.drag else {
                    return false;
                };
                let (dx, dy) = (x - drag.from.0, y - drag.from.1);
                drag.moved |= dx.abs() + dy.abs() > 3.0;
                if !drag.moved {
                    return false;
                }
                self.shift = (drag.start.0 + dx, drag.start.1 + dy);
                self.moved = true;
            }
            Msg::Up => {
                self.dragged = self.drag.take().is_some_and(|d| d.moved);
                return false;
            }
            Msg::Pointer(at) => {
                self.pointer = at;
                if at.is_none() {
                    self.dragged = self.drag.take().is_some_and(|d| d.moved);
                }
                return false;
            }
            Msg::Click(node) => {
                if std::mem::take(&mut self.dragged) {
                    return false;
                }
                ctx.props().on_select.emit(node);
                return false;
            }
            Msg::Arrow(key) => {
                let node = self.moved_to(ctx.props(), key);
                if let Some(&v) = node.and_then(|i| self.model.nodes.get(i)) {
                    ctx.props().on_select.emit(Some(v));
                }
                return false;
            }
            Msg::Fit { min_scale } => {
                self.fit(min_scale);
                self.moved = false;
            }
            Msg::FitLegibly => self.fit_legibly(&ctx.props().report),
            Msg::ExpandAll => {
                self.collapsed.clear();
                self.cut = 0;
                self.relayout(&ctx.props().report);
            }
            Msg::Toggle(v) => {
                let report = &ctx.props().report;
                if report.tree.get(v).is_none_or(|n| n.children.is_empty()) {
                    return false;
                }
                if !self.collapsed.remove(&v) {
                    self.collapsed.insert(v);
                }
                // What the last fit collapsed and the user has not opened.
                if self.cut > 0 {
                    self.cut = self.collapsed.len();
                }
                self.relayout(&ctx.props().report);
            }
            Msg::ColourByMemory(on) => {
                self.by_memory = on;
                if on && self.by_letter {
                    self.by_letter = false;
                    self.relayout(&ctx.props().report);
                }
            }
            Msg::ColourByLetter(on) => {
                self.by_letter = on;
                self.by_memory &= !on;
                self.relayout(&ctx.props().report);
            }
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let report = &ctx.props().report;
        let svg = self.svg.clone();
        let on_down = link.callback(move |e: MouseEvent| {
            let (x, y) = local(&svg, e.client_x(), e.client_y());
            Msg::Down { x, y }
        });
        let svg = self.svg.clone();
        let on_enter = {
            let svg = svg.clone();
            link.callback(move |e: MouseEvent| {
                Msg::Pointer(Some(local(&svg, e.client_x(), e.client_y())))
            })
        };
        let on_move = link.callback(move |e: MouseEvent| {
            let (x, y) = local(&svg, e.client_x(), e.client_y());
            Msg::Move { x, y }
        });
        // With the tree focused: the arrows move the selection (with
        // Shift they pan), Enter collapses or expands the selected
        // subtree, Escape lets go of the selection, + and - zoom, 0 fits.
        let selected_node = ctx.props().selected;
        let on_key = link.batch_callback(move |e: KeyboardEvent| {
            let key = e.key();
            let msg = match (key.as_str(), e.shift_key()) {
                ("+" | "=", _) => Msg::Zoom(ZOOM_STEP),
                ("-" | "_", _) => Msg::Zoom(1.0 / ZOOM_STEP),
                ("ArrowLeft", true) => Msg::Pan(PAN_STEP, 0.0),
                ("ArrowRight", true) => Msg::Pan(-PAN_STEP, 0.0),
                ("ArrowUp", true) => Msg::Pan(0.0, PAN_STEP),
                ("ArrowDown", true) => Msg::Pan(0.0, -PAN_STEP),
                ("ArrowUp", false) => Msg::Arrow("ArrowUp"),
                ("ArrowDown", false) => Msg::Arrow("ArrowDown"),
                ("ArrowLeft", false) => Msg::Arrow("ArrowLeft"),
                ("ArrowRight", false) => Msg::Arrow("ArrowRight"),
                ("Enter", _) => Msg::Toggle(selected_node?),
                // Taken only to let go of a selection; else it stops a run.
                ("Escape", _) if selected_node.is_some() => Msg::Click(None),
                ("0", _) => Msg::FitLegibly,
                _ => return None,
            };
            e.prevent_default();
            Some(msg)
        });
        let drawn = self.model.nodes.clone();
        // One listener for all nodes: each circle carries its drawn index.
        let on_click = link.callback(move |e: MouseEvent| {
            let node = e
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|t| t.closest("[data-node]").ok().flatten())
                .and_then(|n| n.get_attribute("data-node"))
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|i| drawn.get(i).copied());
            Msg::Click(node)
        });
        let selected = selected_node.and_then(|s| self.model.drawn(s));
        let ring = selected.map(|i| {
            let (x, y) = position(&self.model, i);
            html! { <circle class="selected-ring" cx={x.to_string()} cy={y.to_string()} r={(RADIUS + 4.0).to_string()} /> }
        });
        let drawn_current = ctx.props().current.and_then(|c| self.model.drawn(c));
        // The path from the root to the selected node, and in step mode to
        // the state that runs next, drawn under the edges.
        let trail = |to: Option<usize>, class: &'static str| {
            to.map(|i| {
                let d: String = self
                    .model
                    .path_to(i)
                    .iter()
                    .enumerate()
                    .map(|(k, &v)| {
                        let (x, y) = position(&self.model, v);
                        format!("{}{x} {y}", if k == 0 { 'M' } else { 'L' })
                    })
                    .collect();
                html! { <path class={class} {d} /> }
            })
        };
        let trails = html! { <>
            { trail(drawn_current, "trail current-trail") }
            { trail(selected, "trail selected-trail") }
        </> };
        // A ring around a state's node, labelled: the state that runs
        // next, or those that merge next.
        let state_ring = |i: usize, label: &'static str| {
            let (x, y) = position(&self.model, i);
            html! { <>
                <circle class="current-ring" cx={x.to_string()} cy={y.to_string()} r={(RADIUS + 7.0).to_string()} />
                <text x={(x + RADIUS + 10.0).to_string()} y={(y + 4.0).to_string()}>{ label }</text>
            </> }
        };
        let current = drawn_current.map(|i| {
            html! {
                <g id={format!("{}tree-current", ctx.props().prefix)} class="current-state">
                    { state_ring(i, "next") }
                </g>
            }
        });
        let merging_next = (ctx.props().merging_next.iter())
            .filter_map(|&v| self.model.drawn(v))
            .map(|i| html! { <g class="current-state merging-next">{ state_ring(i, "merges next") }</g> });
        let prefix = ctx.props().prefix.clone();
        let id = |name: &str| format!("{prefix}{name}");
        // Nodes stay big enough to see and click when the tree is zoomed
        // out: the style sheet reads this radius (without redrawing them).
        let node_radius = format!(
            "--node-r: {}px",
            RADIUS.max(MIN_NODE_PX / self.scale.max(MIN_START_SCALE))
        );
        let transform = format!(
            "translate({} {}) scale({})",
            self.shift.0, self.shift.1, self.scale
        );
        html! {
            <section id={id("tree")} class="tree">
                <div class="tree-bar">
                    <h2>{ format!("Execution tree: {}{}", count(report.tree.len(), "node", "nodes"),
                        if report.stop_reason == "running" { " so far" } else { "" }) }</h2>
                    <button id={id("tree-fit")} title="fit the tree, collapsing deep subtrees so that labels stay legible (0)"
                        onclick={link.callback(|_| Msg::FitLegibly)}>{ "fit" }</button>
                    <button id={id("tree-zoom-in")} title="zoom in (+)" onclick={link.callback(|_| Msg::Zoom(ZOOM_STEP))}>{ "+" }</button>
                    <button id={id("tree-zoom-out")} title="zoom out (-)" onclick={link.callback(|_| Msg::Zoom(1.0 / ZOOM_STEP))}>{ "\u{2212}" }</button>
                    if let Some(v) = selected_node.filter(|&v| report.tree.get(v).is_some_and(|n| !n.children.is_empty())) {
                        <button id={id("toggle-subtree")} title="collapse or expand the selected node's subtree (Enter)"
                            onclick={link.callback(move |_| Msg::Toggle(v))}>
                            { if self.collapsed.contains(&v) { "expand subtree" } else { "collapse subtree" } }
                        </button>
                    }
                    if self.cut > 0 {
                        <span id={id("tree-cut")} class="tree-cut">
                            { format!("{} deep subtrees collapsed to fit ", self.cut) }
                            <button id={id("tree-expand-all")} onclick={link.callback(|_| Msg::ExpandAll)}>{ "expand all" }</button>
                        </span>
                    }
                    if self.model.state_bytes.iter().any(Option::is_some) {
                        <button id={id("tree-colour")} title="colour the nodes by the memory their states held of their own, or by how their paths ended"
                            onclick={link.callback({ let on = !self.by_memory; move |_| Msg::ColourByMemory(on) })}>
                            { if self.by_memory { "colour by outcome" } else { "colour by memory" } }
                        </button>
                    }
                    if !self.model.shapes.is_empty() {
                        <button id={id("tree-letters")} title="colour each branch of a merged state's word by its letter (its condition's shape, constants as _), and label each merged leaf by its word"
                            onclick={link.callback({ let on = !self.by_letter; move |_| Msg::ColourByLetter(on) })}>
                            { if self.by_letter { "colour by outcome" } else { "colour by letter" } }
                        </button>
                    }
                    if self.by_letter {
                        <ul id={id("letter-legend")} class="legend">
                            { for self.model.shapes.iter().enumerate().map(|(k, shape)| html! {
                                <li><span class={classes!("swatch", format!("letter-{}", k % 12))} /><code>{ shape.clone() }</code></li>
                            }) }
                        </ul>
                    } else if self.by_memory {
                        <ul id={id("memory-legend")} class="legend">
                            // The bytes where each shade starts.
                            { for memory_shades(&self.model.state_bytes).1.iter().enumerate().map(|(k, &from)| html! {
                                <li><span class={classes!("swatch", format!("shade-{k}"))} />{ format!("{}+", bytes_text(from)) }</li>
                            }) }
                        </ul>
                    } else {
                        <ul class="legend">
                            // The kinds this tree has.
                            { for Kind::ALL.iter().filter(|k| self.model.kind.contains(k)).map(|k| html! {
                                <li><span class={classes!("swatch", k.class())} />{ k.label() }</li>
                            }) }
                        </ul>
                    }
                </div>
                <div class="tree-body">
                    <svg ref={self.svg.clone()} tabindex="0" style={node_radius} onkeydown={on_key} onmousedown={on_down} onmousemove={on_move}
                        onmouseup={link.callback(|_| Msg::Up)} onmouseenter={on_enter}
                        onmouseleave={link.callback(|_| Msg::Pointer(None))}
                        onclick={on_click}>
                        <g transform={transform}>
                            { trails }
                            <Nodes model={self.model.clone()} by_memory={self.by_memory} by_letter={self.by_letter} />
                            { ring }
                            { current }
                            { for merging_next }
                        </g>
                        <g class="labels">{ for self.labels().into_iter().map(label) }</g>
                    </svg>
                </div>
            </section>
        }
    }
}

/// A label as an SVG text in screen coordinates.
fn label(placed: Placed) -> Html {
    let anchor = if placed.ends_at_x { "end" } else { "start" };
    html! {
        <text class="label" data-node={placed.node.to_string()} data-parent={placed.parent.to_string()} x={placed.x.to_string()} y={(placed.y + 4.0).to_string()} text-anchor={anchor}>{ placed.text }</text>
    }
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

fn position(model: &Model, i: usize) -> (f64, f64) {
    let x = model.layout.x.get(i).copied().unwrap_or(0.0);
    let d = model.layout.depth.get(i).copied().unwrap_or(0);
    (x * DX + MARGIN, f64::from(d) * DY + MARGIN)
}

#[derive(Properties)]
struct NodesProps {
    model: Rc<Model>,
    /// Each node's colour is its state's memory, or its edge's letter,
    /// not its outcome.
    by_memory: bool,
    by_letter: bool,
}

impl PartialEq for NodesProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.model, &other.model)
            && self.by_memory == other.by_memory
            && self.by_letter == other.by_letter
    }
}

/// All edges as one path and a circle per node: cheap SVG for many nodes.
/// Each node has its tooltip (the labels are drawn apart, on screen).
#[function_component]
fn Nodes(props: &NodesProps) -> Html {
    let model = &props.model;
    let mut edges = String::new();
    for (i, p) in model.parent.iter().enumerate() {
        if let Some(p) = *p {
            let ((x0, y0), (x1, y1)) = (position(model, p), position(model, i));
            edges.push_str(&format!("M{x0} {y0}L{x1} {y1}"));
        }
    }
    let shades = props.by_memory.then(|| memory_shades(&model.state_bytes).0);
    let colour = |i: usize, kind: Kind| match &shades {
        Some(shades) => shades[i].map_or("no-memory".to_string(), |k| format!("shade-{k}")),
        None if props.by_letter => {
            model.letters[i].map_or("no-letter".to_string(), |k| format!("letter-{}", k % 12))
        }
        None => kind.class().to_string(),
    };
    html! {
        <>
            <path class="edges" d={edges} />
            { for model.kind.iter().enumerate().map(|(i, kind)| {
                let (x, y) = position(model, i);
                let leaf = if *kind == Kind::Inner { "inner-node" } else { "leaf" };
                let hidden = model.hidden.get(i).copied().unwrap_or(0);
                html! {
                    <g data-node={i.to_string()} class={classes!("node", leaf, colour(i, *kind), (hidden > 0).then_some("collapsed"))}>
                        <title>{ &model.tips[i] }</title>
                        <circle cx={x.to_string()} cy={y.to_string()} r={RADIUS.to_string()} />
                        if hidden > 0 {
                            <text class="count" x={x.to_string()} y={(y + RADIUS + 11.0).to_string()} text-anchor="middle">{ format!("+{hidden}") }</text>
                        }
                    </g>
                }
            }) }
        </>
    }
}
