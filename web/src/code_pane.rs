//! A pane of code with a gutter (byte offsets, line numbers) and one line
//! marked. Only the lines in view are drawn: a module of a megabyte prints
//! as 60,000 lines, which drawn whole took seconds of the page's time to
//! lay out. The pane takes the keyboard focus, so it scrolls with the keys.

use std::ops::Range;
use std::rc::Rc;
use web_sys::Element;
use yew::prelude::*;

/// Lines drawn before the pane has been measured, and beyond each edge of
/// the view, so that a quick scroll does not show blank lines.
const FIRST_DRAWN: usize = 80;
const BEYOND_VIEW: usize = 40;

/// The lines of a pane, each with its gutter label.
#[derive(Debug, Default, PartialEq)]
pub struct Listing {
    lines: Vec<(String, String)>,
    /// The longest label, in characters: the gutter's width.
    gutter: usize,
}

impl Listing {
    pub fn new<'a>(lines: impl IntoIterator<Item = (String, &'a str)>) -> Self {
        let lines: Vec<(String, String)> = lines
            .into_iter()
            .map(|(label, text)| (label, text.to_string()))
            .collect();
        let gutter = lines.iter().map(|l| l.0.chars().count()).max().unwrap_or(0);
        Listing { lines, gutter }
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

/// Where the pane is scrolled, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct View {
    top: f64,
    height: f64,
    line: f64,
}

/// The lines to draw for a view of `count` lines (before the first
/// measure, the first ones).
fn drawn(view: Option<View>, count: usize) -> Range<usize> {
    let Some(v) = view.filter(|v| v.line > 0.0) else {
        return 0..FIRST_DRAWN.min(count);
    };
    let first = (v.top / v.line).floor().max(0.0) as usize;
    let last = ((v.top + v.height) / v.line).ceil().max(0.0) as usize;
    first.saturating_sub(BEYOND_VIEW).min(count)..last.saturating_add(BEYOND_VIEW).min(count)
}

#[derive(Properties)]
pub struct CodeProps {
    /// The `pre`'s id.
    pub id: AttrValue,
    pub listing: Rc<Listing>,
    /// The index of the marked line.
    pub marked: Option<usize>,
    /// The scrolling `pre`, for the page to bring the marked line into view.
    pub pane: NodeRef,
}

impl PartialEq for CodeProps {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && Rc::ptr_eq(&self.listing, &other.listing)
            && self.marked == other.marked
            && self.pane == other.pane
    }
}

#[function_component]
pub fn CodePane(props: &CodeProps) -> Html {
    let view = use_state(|| None::<View>);
    let listing = &props.listing;
    let count = listing.lines.len();
    let onscroll = {
        let view = view.clone();
        Callback::from(move |e: Event| {
            let pane: Element = e.target_unchecked_into();
            view.set(Some(View {
                top: f64::from(pane.scroll_top()),
                height: f64::from(pane.client_height()),
                line: f64::from(pane.scroll_height()) / count.max(1) as f64,
            }));
        })
    };
    let range = drawn(*view, count);
    // The marked line is drawn wherever it is, so the page can scroll to it.
    let marked = props.marked.filter(|i| *i < count && !range.contains(i));
    let line = |i: usize| {
        let (label, text) = &listing.lines[i];
        html! {
            // Placed by its number: every line is one `--line` high.
            <div key={i} class={classes!("line", (props.marked == Some(i)).then_some("marked"))}
                style={format!("top: calc({i} * var(--line))")}>
                <span class="offset">{ label }</span>{ text }
            </div>
        }
    };
    html! {
        <pre id={props.id.clone()} class="code" tabindex="0" ref={props.pane.clone()} {onscroll}
            style={format!("--gutter: {}ch", listing.gutter)}>
            <div class="lines" style={format!("height: calc({count} * var(--line))")}>
                { for range.chain(marked).map(line) }
            </div>
        </pre>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lines_drawn_are_those_in_view_and_a_margin() {
        assert_eq!(drawn(None, 10), 0..10);
        assert_eq!(drawn(None, 100_000), 0..FIRST_DRAWN);
        let view = |top| {
            Some(View {
                top,
                height: 200.0,
                line: 20.0,
            })
        };
        // Lines 500 to 510 are in view.
        assert_eq!(
            drawn(view(10_000.0), 100_000),
            500 - BEYOND_VIEW..510 + BEYOND_VIEW
        );
        assert_eq!(drawn(view(0.0), 100_000), 0..10 + BEYOND_VIEW);
        // Scrolled to the end of a listing that has just become shorter.
        assert_eq!(drawn(view(10_000.0), 30), 30..30);
        let listing = Listing::new([("0x0a".to_string(), "(module"), (String::new(), "")]);
        assert_eq!(listing.gutter, 4);
    }
}
