//! The WAT pane: the module's disassembly with byte offsets, one line
//! marked. A component of its own, so that the page's other updates
//! (progress, typing) do not redraw it.

use crate::disassembly::Line;
use crate::page::components::code_pane::{CodePane, Listing};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties)]
pub struct WatProps {
    pub lines: Rc<Vec<Line>>,
    /// The index of the marked line.
    pub marked: Option<usize>,
    /// The scrolling `pre`, for the page to bring the marked line into view.
    pub pane: NodeRef,
}

impl PartialEq for WatProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.lines, &other.lines)
            && self.marked == other.marked
            && self.pane == other.pane
    }
}

#[function_component]
pub fn WatPane(props: &WatProps) -> Html {
    let listing = Listing::Offsets(props.lines.clone());
    if listing.is_empty() {
        return Html::default();
    }
    html! {
        <section class="wat">
            <h2>{ "WAT" }</h2>
            // A new disassembly is a new pane, scrolled to its top.
            <CodePane key={format!("{:p}", Rc::as_ptr(&props.lines))} id="wat" {listing}
                marked={props.marked} pane={props.pane.clone()} />
        </section>
    }
}
