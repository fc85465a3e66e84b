//! A pane of code with a gutter (byte offsets, line numbers) and one line
//! marked. Only the lines in view are drawn: a module of a megabyte prints
//! as 60,000 lines, which drawn whole took seconds of the page's time to
//! lay out. The pane takes the keyboard focus, so it scrolls with the keys.

use crate::disassembly::Line;
use crate::page::components::rows_in_view::{drawn, View};
use std::ops::Range;
use std::rc::Rc;
use web_sys::Element;
use yew::prelude::*;

/// The lines of a pane; each gutter label is made as its line is drawn,
/// and the lines are not copied (a disassembly has tens of thousands).
#[derive(Clone, Debug)]
pub enum Listing {
    /// Disassembly, labelled with byte offsets.
    Offsets(Rc<Vec<Line>>),
    /// Source text, its lines numbered from 1.
    Numbered(&'static str),
}

/// Listings are the same when they show the same lines, by address: a new
/// disassembly is a new `Rc`, and comparing 60,000 lines to find that out
/// would cost what drawing few of them saves.
impl PartialEq for Listing {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Listing::Offsets(a), Listing::Offsets(b)) => Rc::ptr_eq(a, b),
            (Listing::Numbered(a), Listing::Numbered(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}

impl Listing {
    fn len(&self) -> usize {
        match self {
            Listing::Offsets(lines) => lines.len(),
            Listing::Numbered(text) => text.lines().count(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The gutter's width in characters: its longest label.
    fn gutter(&self) -> usize {
        match self {
            Listing::Offsets(lines) => {
                let last = lines.iter().filter_map(|l| l.offset).max();
                last.map_or(0, |o| offset_label(o).len())
            }
            Listing::Numbered(text) => text.lines().count().to_string().len(),
        }
    }

    /// The lines from `range.start`, up to its end, with their labels.
    fn lines(&self, range: Range<usize>) -> Vec<(usize, String, &str)> {
        match self {
            Listing::Offsets(lines) => lines[range.clone()]
                .iter()
                .zip(range)
                .map(|(l, i)| {
                    (
                        i,
                        l.offset.map(offset_label).unwrap_or_default(),
                        l.text.as_str(),
                    )
                })
                .collect(),
            Listing::Numbered(text) => text
                .lines()
                .enumerate()
                .skip(range.start)
                .take(range.len())
                .map(|(i, l)| (i, (i + 1).to_string(), l))
                .collect(),
        }
    }
}

fn offset_label(offset: u32) -> String {
    format!("{offset:#06x}")
}

#[derive(Properties)]
pub struct CodeProps {
    /// The `pre`'s id.
    pub id: AttrValue,
    pub listing: Listing,
    /// The index of the marked line.
    pub marked: Option<usize>,
    /// The scrolling `pre`, for the page to bring the marked line into view.
    pub pane: NodeRef,
}

impl PartialEq for CodeProps {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
            && self.listing == other.listing
            && self.marked == other.marked
            && self.pane == other.pane
    }
}

#[function_component]
pub fn CodePane(props: &CodeProps) -> Html {
    let view = use_state(|| None::<View>);
    let listing = &props.listing;
    let count = listing.len();
    let onscroll = {
        let view = view.clone();
        Callback::from(move |e: Event| {
            let pane: Element = e.target_unchecked_into();
            let line = f64::from(pane.scroll_height()) / count.max(1) as f64;
            view.set(Some(View::of(&pane, line)));
        })
    };
    let range = drawn(*view, count);
    // The marked line is drawn wherever it is, so the page can scroll to it.
    let marked = props
        .marked
        .filter(|i| *i < count && !range.contains(i))
        .map(|i| listing.lines(i..i + 1));
    let mut lines = listing.lines(range);
    lines.extend(marked.into_iter().flatten());
    let line = |(i, label, text): (usize, String, &str)| {
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
            style={format!("--gutter: {}ch", listing.gutter())}>
            <div class="lines" style={format!("height: calc({count} * var(--line))")}>
                { for lines.into_iter().map(line) }
            </div>
        </pre>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_gives_its_lines_with_their_labels() {
        let lines = vec![
            Line {
                offset: Some(0x1040a),
                text: "(module".into(),
            },
            Line {
                offset: None,
                text: ")".into(),
            },
        ];
        let listing = Listing::Offsets(Rc::new(lines));
        assert_eq!(listing.gutter(), "0x1040a".len());
        assert_eq!(
            listing.lines(0..2),
            [
                (0, "0x1040a".to_string(), "(module"),
                (1, String::new(), ")")
            ]
        );
        let numbered = Listing::Numbered("int f() {\n  return 1;\n}\n");
        assert_eq!(numbered.len(), 3);
        assert_eq!(numbered.lines(1..3)[1], (2, "3".to_string(), "}"));
        assert_eq!(numbered.gutter(), 1);
    }
}
