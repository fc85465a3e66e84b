//! The WAT pane: the module's disassembly with byte offsets, one line
//! marked. A component of its own, so that the page's other updates
//! (progress, typing) do not redraw it.

use crate::code_pane::{CodePane, Listing};
use crate::disassembly::Line;
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

/// The lines the listing was made of, compared by address: a new
/// disassembly is a new `Rc`, and comparing 60,000 lines to find that out
/// would cost what the listing saves.
struct SameLines(Rc<Vec<Line>>);

impl PartialEq for SameLines {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[function_component]
pub fn WatPane(props: &WatProps) -> Html {
    let listing = use_memo(SameLines(props.lines.clone()), |lines| {
        Listing::new(lines.0.iter().map(|l| {
            let offset = l.offset.map(|o| format!("{o:#06x}")).unwrap_or_default();
            (offset, l.text.as_str())
        }))
    });
    if listing.is_empty() {
        return Html::default();
    }
    html! {
        <section class="wat">
            <h2>{ "WAT" }</h2>
            <CodePane id="wat" listing={listing} marked={props.marked} pane={props.pane.clone()} />
        </section>
    }
}
