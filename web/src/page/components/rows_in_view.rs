//! Which rows of a long list a scrolling pane draws: those in view and a
//! margin beyond each edge, so that a quick scroll shows no blank rows
//! (the code panes' lines, the paths table's rows).

use std::ops::Range;
use web_sys::Element;

/// Rows drawn before the pane has been measured, and beyond each edge of
/// its view.
pub const FIRST_DRAWN: usize = 80;
pub const BEYOND_VIEW: usize = 40;

/// Where a pane is scrolled, in pixels, and how high its rows are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    pub top: f64,
    pub height: f64,
    pub row: f64,
}

impl View {
    /// The view of a scrolled `pane` whose rows are `row` pixels high.
    pub fn of(pane: &Element, row: f64) -> View {
        View {
            top: f64::from(pane.scroll_top()),
            height: f64::from(pane.client_height()),
            row,
        }
    }
}

/// The rows to draw of `count`, for a view (before the first measure, the
/// first ones).
pub fn drawn(view: Option<View>, count: usize) -> Range<usize> {
    let Some(v) = view.filter(|v| v.row > 0.0) else {
        return 0..FIRST_DRAWN.min(count);
    };
    let first = (v.top / v.row).floor().max(0.0) as usize;
    let last = ((v.top + v.height) / v.row).ceil().max(0.0) as usize;
    first.saturating_sub(BEYOND_VIEW).min(count)..last.saturating_add(BEYOND_VIEW).min(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(top: f64, height: f64, row: f64) -> Option<View> {
        Some(View { top, height, row })
    }

    #[test]
    fn the_rows_drawn_are_those_in_view_and_a_margin() {
        assert_eq!(drawn(None, 10), 0..10);
        assert_eq!(drawn(None, 100_000), 0..FIRST_DRAWN);
        // Lines 500 to 510 are in view.
        assert_eq!(
            drawn(view(10_000.0, 200.0, 20.0), 100_000),
            500 - BEYOND_VIEW..510 + BEYOND_VIEW
        );
        assert_eq!(drawn(view(0.0, 200.0, 20.0), 100_000), 0..10 + BEYOND_VIEW);
        // Scrolled to the end of a listing that has just become shorter.
        assert_eq!(drawn(view(10_000.0, 200.0, 20.0), 30), 30..30);
        // Rows of 26 px, 100 to 110 in view.
        assert_eq!(
            drawn(view(2600.0, 260.0, 26.0), 5000),
            100 - BEYOND_VIEW..110 + BEYOND_VIEW
        );
        assert_eq!(drawn(view(2600.0, 260.0, 26.0), 105), 60..105);
        assert_eq!(drawn(view(0.0, 300.0, 26.0), 3), 0..3);
    }
}
