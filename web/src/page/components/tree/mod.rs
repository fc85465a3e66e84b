//! The execution tree view: its layout, and the yew component.

pub mod details;
pub mod labels;
pub mod layout;
pub mod merged;
pub mod model;
pub mod view;
