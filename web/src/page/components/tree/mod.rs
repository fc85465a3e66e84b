//! The execution tree view: its layout, and the yew component.

pub mod layout;
pub mod model;
pub mod view;
