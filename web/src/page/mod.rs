//! The page's side: the yew app (`app`), the one state it draws (`state`)
//! and what its screen shows besides the results (`screen`),
//! what the user types into the form (`input`), the browser's facilities
//! (`dom`), a path told in words (`describe`), and the page's components.

pub mod app;
pub mod components;
pub mod describe;
pub mod dom;
pub mod input;
pub mod screen;
pub mod state;
