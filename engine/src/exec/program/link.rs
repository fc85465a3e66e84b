//! How the instances of a store refer to each other. Every function has a
//! store-wide id, and each instance maps its function, global, memory and
//! table indices to the store's, so a call, a table entry or an imported
//! memory can point into another instance. `explore` runs one instance,
//! whose store ids are its own indices.

/// Where a store function lives: the instance whose module has its code (or
/// imports it from the host) and its index in that module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FuncAt {
    pub instance: u32,
    pub index: u32,
}

/// One instance's index spaces, mapped to the store.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstanceLinks {
    /// Function index -> store function id.
    pub funcs: Vec<u32>,
    /// Global index -> index in [`State::globals`](super::state::State::globals).
    pub globals: Vec<u32>,
    /// Memory 0 -> index in [`State::memories`](super::state::State::memories).
    pub memory: Option<u32>,
    /// Table index -> index in [`State::tables`](super::state::State::tables).
    pub tables: Vec<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Links {
    /// By store function id.
    pub funcs: Vec<FuncAt>,
    /// By instance.
    pub instances: Vec<InstanceLinks>,
}
