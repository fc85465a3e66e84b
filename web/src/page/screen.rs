//! What the page's screen shows besides the module and the results: in
//! compare mode, the two sides; the node selected (in the run it is of);
//! the location marked in the code panes; what is to be scrolled into view
//! once drawn; which code and which pane of results are shown; whether the
//! options and the help are open. Plain data: the page's state
//! (`state/view.rs`) says how each changes.

use symplay_engine::report::Location;

/// One of the two configurations of compare mode: A is the options form
/// of a single run, B the second form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Side {
    #[default]
    A,
    B,
}

impl Side {
    pub fn name(self) -> &'static str {
        match self {
            Side::A => "A",
            Side::B => "B",
        }
    }

    /// What starts the ids of the side's elements on the page (its form
    /// fields, its tree): none for A, which is the single run's.
    pub fn prefix(self) -> &'static str {
        match self {
            Side::A => "",
            Side::B => "b-",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct View {
    pub(super) selection: Option<Selection>,
    /// The location marked in the WAT and C panes, and the run it is of.
    pub(super) highlight: Option<(u32, Location)>,
    pub(super) scroll: Scroll,
    /// In compare mode, whose paths and bugs are listed.
    pub details: Side,
    /// The pane of results shown below the tree.
    pub tab: Tab,
    /// The code shown once there are results.
    pub code: Code,
    /// The options form is open over the results.
    pub options_open: bool,
    pub help_open: bool,
    /// The SMT-LIB forms of conditions are shown, from one node to the next.
    pub smt_shown: bool,
    /// The C source was typed in, and told to be read-only.
    pub c_read_only_told: bool,
}

/// The panes of results below the tree, one shown at a time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    /// The selected node's details.
    Node,
    Bugs,
    #[default]
    Paths,
    /// Step mode's pane.
    Step,
    /// Compare mode's figures.
    Comparison,
}

impl Tab {
    pub fn name(self) -> &'static str {
        match self {
            Tab::Node => "node",
            Tab::Bugs => "bugs",
            Tab::Paths => "paths",
            Tab::Step => "step",
            Tab::Comparison => "comparison",
        }
    }
}

/// The code shown beside the results: the example's C source, the WAT
/// with byte offsets (where a selected node's location is marked), or
/// the editor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Code {
    C,
    Wat,
    #[default]
    Edit,
}

/// A node of a side's execution tree, by its index in the report's tree,
/// in the run it is of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Selection {
    pub(super) run: u32,
    pub(super) side: Side,
    pub(super) node: usize,
}

/// What the page scrolls into view once it has drawn the state.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scroll {
    /// The marked lines of the WAT and C panes, to their middle.
    pub marks: bool,
    /// Step mode's pane (below the input on a phone).
    pub step_pane: bool,
    /// The results, when a run starts (below the input on a phone).
    pub results: bool,
}
