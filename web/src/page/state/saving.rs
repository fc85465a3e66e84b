//! The work kept in this browser and the share link made of it: changes
//! are counted, so that a save waits for a pause in them and is made once;
//! why the work is not saved, if it is not; whether the address bar holds
//! a share link; and whether Share's link reached the clipboard.

use super::PageState;
use crate::share::Shared;

impl PageState {
    /// The user changed the page: a share link made before, or being
    /// opened, no longer describes it. Returns the change's number, for
    /// the save that waits for a pause.
    pub fn changed_by_user(&mut self) -> u32 {
        self.saving.copied = None;
        self.cancel_link();
        self.saving.changes += 1;
        self.saving.changes
    }

    /// The work to save now: after change `change` if no other came since
    /// (`None`: now, the page is being left), and only if unsaved.
    pub fn work_to_save(&mut self, change: Option<u32>) -> Option<Shared> {
        if change.is_some_and(|c| c != self.saving.changes)
            || self.saving.saved == self.saving.changes
        {
            return None;
        }
        self.saving.saved = self.saving.changes;
        Some(self.work())
    }

    /// How the last save went.
    pub fn saved(&mut self, result: Result<(), String>) {
        self.saving.not_saved = result
            .err()
            .map(|why| format!("your work is not saved in this browser: {why}"));
    }

    /// The work saved in this browser could not be read back, and why.
    pub fn saved_work_unreadable(&mut self, why: String) {
        self.saving.not_saved = Some(format!(
            "the work saved in this browser cannot be read: {why}"
        ));
    }
}
