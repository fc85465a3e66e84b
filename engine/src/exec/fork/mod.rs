//! Where a state's path splits or narrows on a symbolic condition: values
//! and conditions as the path fixes them ([`condition`]), the solver's
//! queries, cut off by the run's limits ([`queries`]), the fork itself,
//! which keeps the feasible sides and records each in the tree
//! ([`split`]), going on on every side of one ([`sides`]), values made
//! concrete under a model of the path ([`concretize`]), and a symbolic
//! result split into its values where a path ends ([`results`]), and the
//! base forms address-aware caching asks queries with ([`address_forms`]).
//! Every check and every instruction that depends on a symbolic value
//! comes here.

mod address_forms;
mod concretize;
mod condition;
mod queries;
mod results;
mod sides;
mod split;

pub(crate) use address_forms::PendingForms;
pub(crate) use condition::{Decision, Truth};
