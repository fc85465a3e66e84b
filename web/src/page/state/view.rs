//! How the page shows its module and results: the node selected (in the
//! tree or, by its path, in the table), the location marked in the code
//! panes, what is to be scrolled into view once drawn, which code and
//! which pane of results are shown, whether the options and the help are
//! open, and in compare mode whose paths and bugs are listed. The
//! selection has one owner, this state: the tree and the table draw it
//! and ask for changes.

use super::PageState;
use crate::page::screen::{Code, Scroll, Selection, Side, Tab};
use symplay_engine::report::Location;

impl PageState {
    /// Selects node `node` of a side's tree (`None` lets go), and marks
    /// where it forked or its path ended.
    pub fn select_node(&mut self, side: Side, node: Option<usize>) {
        let Some(results) = self.results(side) else {
            return;
        };
        let run = results.run;
        let location = results
            .report_shown()
            .zip(node)
            .and_then(|(report, v)| report.location_at(v).cloned());
        self.view.selection = node.map(|node| Selection { run, side, node });
        if node.is_some() {
            self.view.tab = Tab::Node;
        }
        if let Some(location) = location {
            self.mark(run, location);
        }
    }

    /// Marks `location` of a side's results in the code panes.
    pub fn mark_location(&mut self, side: Side, location: Location) {
        if let Some(run) = self.results(side).map(|r| r.run) {
            self.mark(run, location);
        }
    }

    /// Selects the leaf of path `id` of a side (a row of the table).
    pub fn select_path(&mut self, side: Side, id: usize) {
        let leaf = self
            .shown(side)
            .map(|(_, report)| report)
            .and_then(|report| report.leaf_of(id));
        if leaf.is_some() {
            self.select_node(side, leaf);
        }
    }

    /// The node selected in a side's tree, if it is of the results shown.
    pub fn selected_node(&self, side: Side) -> Option<usize> {
        let run = self.results(side)?.run;
        self.view
            .selection
            .filter(|s| s.run == run && s.side == side)
            .map(|s| s.node)
    }

    /// The path whose leaf is selected in a side's tree.
    pub fn selected_path(&self, side: Side) -> Option<usize> {
        let node = self.selected_node(side)?;
        self.shown(side)?.1.tree.get(node)?.path
    }

    /// Marks `location` of run `run` in the code panes, scrolled to.
    pub(super) fn mark(&mut self, run: u32, location: Location) {
        self.view.highlight = Some((run, location));
        self.view.scroll.marks = true;
    }

    /// The location marked, if it is of results shown.
    pub fn highlight(&self) -> Option<&Location> {
        let (run, location) = self.view.highlight.as_ref()?;
        [Side::A, Side::B]
            .into_iter()
            .any(|side| self.results(side).is_some_and(|r| r.run == *run))
            .then_some(location)
    }

    /// What to scroll into view now that the state is drawn; asked once.
    pub fn take_scroll(&mut self) -> Scroll {
        std::mem::take(&mut self.view.scroll)
    }

    pub(super) fn scroll_mut(&mut self) -> &mut Scroll {
        &mut self.view.scroll
    }

    /// Step mode: the WAT and C lines of the state shown are marked (of
    /// the loop's header where a merge comes next).
    pub(super) fn follow_step(&mut self) {
        let Some(results) = &self.results else {
            return;
        };
        // The state's place, or the loop whose exit's states merge next.
        let step = (results.steps.as_ref()).and_then(|s| Some(&s.current()?.step));
        let location = step.and_then(|s| match (&s.next, &s.next_merge) {
            (Some(state), _) => Some(state.location.clone()),
            (None, Some(merge)) => Some(merge.loop_at.clone()),
            (None, None) => None,
        });
        if let Some(location) = location {
            let run = results.run;
            self.mark(run, location);
        }
    }

    /// In compare mode, the side whose paths and bugs are listed.
    pub fn show_details(&mut self, side: Side) {
        self.view.details = side;
    }

    pub fn show_tab(&mut self, tab: Tab) {
        self.view.tab = tab;
    }

    /// Shows the code `code`; its pane, drawn anew, is scrolled to the
    /// location marked.
    pub fn show_code(&mut self, code: Code) {
        self.view.code = code;
        self.view.scroll.marks |= self.highlight().is_some();
    }

    pub fn toggle_options(&mut self) {
        self.view.options_open = !self.view.options_open;
    }

    pub fn toggle_help(&mut self) {
        self.view.help_open = !self.view.help_open;
    }

    pub fn show_smt(&mut self, shown: bool) {
        self.view.smt_shown = shown;
    }

    /// A run starts: the results take the room, the options fold away,
    /// and the code shown is the one a location is marked in.
    pub(super) fn results_coming(&mut self, stepping: bool, compare: bool) {
        self.view.options_open = false;
        self.view.tab = match (stepping, compare) {
            (true, _) => Tab::Step,
            (false, true) => Tab::Comparison,
            (false, false) => Tab::Paths,
        };
        self.view.code = if self.example.is_some() {
            Code::C
        } else {
            Code::Wat
        };
    }

    /// A run ended: its bugs are shown if it found any and the paths were
    /// shown.
    pub(super) fn results_ended(&mut self, bugs: bool) {
        if bugs && self.view.tab == Tab::Paths {
            self.view.tab = Tab::Bugs;
        }
    }
}
