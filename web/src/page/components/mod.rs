//! The page's larger views, each a yew component that redraws only when
//! its data changes.

pub mod bug_list;
pub mod code_editor;
pub mod code_pane;
pub mod comparison_view;
pub mod memory_view;
pub mod paths_table;
pub mod rows_in_view;
pub mod run_summary;
pub mod step_view;
pub mod tree;
pub mod wat_pane;
