//! The result of an exploration, serialisable as JSON; the schema is
//! documented in `docs/report-schema.md` and versioned by [`SCHEMA_VERSION`].

pub use crate::memory::{HeapOptions, SizeMode};
use crate::solver::{AaStats, QuantifiedQuery, QuantifiedStages, QueryAnswers};
pub use crate::state::{MergeMode, MergeOptions};
use serde::{Deserialize, Serialize};

pub mod comparison;
mod formulas;
pub mod join;
pub mod shards;
pub mod step;

pub use formulas::{Formula, Formulas};

/// Bumped whenever a field changes meaning or disappears.
pub const SCHEMA_VERSION: u32 = 2;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub schema_version: u32,
    pub entry: String,
    /// The names of the entry's parameters, in order: the names of their
    /// inputs (`arg{i}` where the module gives none).
    #[serde(default)]
    pub params: Vec<String>,
    pub search: String,
    pub seed: u64,
    /// The values given to the entry's parameters, by index; `None` (and
    /// any past the end) is a symbolic parameter.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub concrete_args: Vec<Option<i64>>,
    /// Parameters that pointed to buffers of symbolic length.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buffer_args: Vec<BufferArg>,
    /// How the heap was modelled.
    #[serde(default)]
    pub heap: HeapOptions,
    /// Which states were merged; left out when none was.
    #[serde(default, skip_serializing_if = "MergeOptions::is_none")]
    pub merge: MergeOptions,
    /// `objects` when memory objects were checked, else `flat`.
    #[serde(default)]
    pub memory_model: String,
    /// What the engine could not do as asked (an allocator function it did
    /// not take for one, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// Why exploration ended: `completed`, or the limit that stopped it.
    pub stop_reason: String,
    /// The limits the run had.
    #[serde(default)]
    pub limits: RunLimits,
    /// The rules that made outcomes into paths of their own.
    #[serde(default)]
    pub outcomes: OutcomeRules,
    /// Calls of imports the engine does not provide gave fresh symbolic
    /// results (havoc) instead of ending their paths.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub havoc_imports: bool,
    /// A shard's report (`--shard I/N`): its share of the run; absent in
    /// a whole run's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardReport>,
    pub paths: Vec<PathReport>,
    pub tree: Vec<TreeNode>,
    /// The merges of states, in the order they happened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merges: Vec<MergeReport>,
    /// The first queries with a forall over a symbolic bound (PAT's merged
    /// conditions), as the solver's procedure answered them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quantified_queries: Vec<QuantifiedQuery>,
    /// The formulas of the tree's branch conditions and the paths'
    /// conditions, each once.
    #[serde(default)]
    pub formulas: Formulas,
    /// Where paths were dropped without an outcome, and why; their total
    /// is `stats.dropped_paths`.
    #[serde(default)]
    pub drops: Vec<DropSite>,
    /// Where values were made concrete on reported paths (float operands,
    /// addresses a host call needs, ...): other values there were not
    /// explored, so a run with any is not complete however it ended.
    #[serde(default)]
    pub concretised: Vec<ConcretisedSite>,
    pub coverage: Coverage,
    pub stats: Stats,
}

/// The bugs of a report that end the same way at the same place: one
/// bug, found on `paths` (their ids, the shortest input first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BugGroup {
    /// How the paths end, without where: `trap unreachable`, `heap_overflow`.
    pub ending: String,
    pub location: Location,
    pub paths: Vec<usize>,
}

impl Report {
    /// The path that ends at node `tree_index` of `tree`, if it is a leaf.
    pub fn path_at(&self, tree_index: usize) -> Option<&PathReport> {
        let p = self.tree.get(tree_index)?.path?;
        // Ids are indices in the engine's reports; a search only otherwise.
        self.paths
            .get(p)
            .filter(|path| path.id == p)
            .or_else(|| self.paths.iter().find(|path| path.id == p))
    }

    /// Where node `tree_index` of `tree` ended its path, or forked.
    pub fn location_at(&self, tree_index: usize) -> Option<&Location> {
        self.path_at(tree_index)
            .map(|p| &p.location)
            .or_else(|| self.tree.get(tree_index)?.fork.as_ref())
    }

    /// The condition of `path` as a self-contained SMT-LIB2 script.
    pub fn path_condition(&self, path: &PathReport) -> String {
        self.formulas.script(&path.condition)
    }

    /// The condition of `path` in readable form, its formulas joined by
    /// `&&` (`true` for none).
    pub fn path_condition_readable(&self, path: &PathReport) -> String {
        self.formulas.readable(&path.condition)
    }

    /// The branch condition on the edge into node `tree_index`: its
    /// formula, `None` at the root.
    pub fn branch_condition(&self, tree_index: usize) -> Option<&Formula> {
        self.formulas.get(self.tree.get(tree_index)?.condition?)
    }

    /// The alternatives taken from the root down to node `tree_index`:
    /// what names it in every run of the same options.
    pub fn decisions_of(&self, tree_index: usize) -> Vec<u32> {
        let mut decisions = Vec::new();
        let mut at = tree_index;
        while let Some(parent) = self.tree.get(at).and_then(|n| n.parent) {
            decisions.push(self.tree[at].side);
            at = parent;
        }
        decisions.reverse();
        decisions
    }

    /// The node of `tree` where path `id` ends.
    pub fn leaf_of(&self, id: usize) -> Option<usize> {
        self.tree.iter().position(|n| n.path == Some(id))
    }

    /// The name of the entry's parameter `i`.
    pub fn param_name(&self, i: usize) -> String {
        param_name(&self.params, i)
    }

    /// The bugs, grouped by how and where they end, in the order each was
    /// first found; in a group, the path with the shortest input (its JSON)
    /// comes first.
    pub fn bug_groups(&self) -> Vec<BugGroup> {
        let mut groups: Vec<BugGroup> = Vec::new();
        for p in self.paths.iter().filter(|p| p.is_bug()) {
            let ending = p.ending();
            let same = |g: &&mut BugGroup| {
                g.ending == ending
                    && g.location.func_index == p.location.func_index
                    && g.location.offset == p.location.offset
            };
            match groups.iter_mut().find(same) {
                Some(g) => g.paths.push(p.id),
                None => groups.push(BugGroup {
                    ending,
                    location: p.location.clone(),
                    paths: vec![p.id],
                }),
            }
        }
        let size = |id: usize| {
            self.paths.get(id).map_or(0, |p| {
                serde_json::to_string(&p.inputs).map_or(0, |j| j.len())
            })
        };
        for g in &mut groups {
            g.paths.sort_by_cached_key(|&id| (size(id), id));
        }
        groups
    }

    /// What a run with concretised values missed, in a sentence, or `None`
    /// when it concretised nothing.
    pub fn concretised_summary(&self) -> Option<String> {
        if self.concretised.is_empty() {
            return None;
        }
        let sites: Vec<String> = self.concretised.iter().map(|c| c.describe()).collect();
        Some(format!(
            "not every path was explored: values were made concrete ({})",
            sites.join("; ")
        ))
    }

    /// The dropped paths in a sentence, or `None` when none was: how many,
    /// where and why, saying so first when no path is left at all.
    pub fn drops_summary(&self) -> Option<String> {
        if self.drops.is_empty() {
            return None;
        }
        let sites: Vec<String> = self.drops.iter().map(DropSite::describe).collect();
        let total = self.stats.dropped_paths;
        let paths = if total == 1 { "path" } else { "paths" };
        Some(if self.paths.is_empty() {
            format!(
                "no path is left: every path was dropped ({total} {paths}: {})",
                sites.join("; ")
            )
        } else {
            format!("{total} {paths} dropped: {}", sites.join("; "))
        })
    }
}

/// A parameter that points to a buffer of symbolic length at most
/// `capacity` bytes, whose length another parameter may give.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BufferArg {
    /// The pointer parameter, by index (an `i32`).
    pub param: usize,
    pub capacity: u32,
    /// The parameter that gets the buffer's length, by index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length_param: Option<usize>,
}

impl BufferArg {
    /// The name of the buffer's input, from its parameter's among `params`
    /// (the entry's): `text_buf`, `arg0_buf`.
    pub fn input_name(&self, params: &[String]) -> String {
        format!("{}_buf", param_name(params, self.param))
    }
}

/// The name of parameter `i` among `names`, else `arg{i}`: the name of a
/// parameter its module does not name, and of every parameter in a report
/// or message from before parameters had names.
pub fn param_name(names: &[String], i: usize) -> String {
    names.get(i).cloned().unwrap_or_else(|| format!("arg{i}"))
}

/// The limits of a run; `None` is no limit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunLimits {
    pub max_time_ms: Option<u64>,
    pub max_paths: Option<u64>,
    pub max_depth: Option<u32>,
    pub max_instructions: Option<u64>,
    /// Heap in use, where the program meters it; else the engine's
    /// estimate of what its states and terms hold.
    pub max_memory_bytes: Option<u64>,
    /// The engine's call-depth limit in frames, when not its default.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub max_call_depth: Option<u32>,
}

/// Which values become paths of their own, so that every outcome a
/// program can have shows (optimised code computes many of its branches
/// as values: a `select`, a comparison's result).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeRules {
    /// A `select` on a symbolic condition forks, one path per feasible
    /// side; else it is an `ite` term on one path.
    pub fork_selects: bool,
    /// A result still symbolic where a path ends (the entry's results, an
    /// `exit` code) that chooses among values (an `ite`, a lookup) splits
    /// into one path per feasible value when it can take at most this many;
    /// one that can take more, or arithmetic on the inputs, stays a term on
    /// one path. 0 splits none.
    pub result_values: u32,
}

impl OutcomeRules {
    /// The values a result splits into unless told otherwise.
    pub const RESULT_VALUES: u32 = 16;
    /// The most a run may ask for: each value costs a query at every
    /// path's end.
    pub const MAX_RESULT_VALUES: u32 = 1024;

    /// The rules in words, as the summaries say them.
    pub fn describe(&self) -> String {
        let selects = if self.fork_selects {
            "a symbolic select forks"
        } else {
            "a symbolic select is one ite value"
        };
        let results = match self.result_values {
            0 => "a symbolic result stays a term".to_string(),
            n => format!("a symbolic result of at most {n} values splits into them"),
        };
        format!("{selects}; {results}")
    }
}

impl Default for OutcomeRules {
    fn default() -> Self {
        OutcomeRules {
            fork_selects: true,
            result_values: OutcomeRules::RESULT_VALUES,
        }
    }
}

/// What made a node fork: a branch (or a check the engine adds), a
/// `select`, or a result split into its values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForkKind {
    #[default]
    Branch,
    Select,
    Result,
}

impl ForkKind {
    fn is_branch(&self) -> bool {
        *self == ForkKind::Branch
    }
}

/// Why the engine stopped following a path without an outcome to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DropCause {
    /// A `symplay.assume` whose condition cannot hold on the path.
    Assumption,
    /// The solver could not decide a branch within its budget.
    Undecided,
    /// The program called Owi's `abort`, which ends a path silently.
    Abort,
}

/// The reported paths on which one instruction made a value concrete.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConcretisedSite {
    /// What was made concrete: `a float operand`, `the float parameter arg0`.
    pub what: String,
    pub location: Location,
    pub paths: u64,
}

impl ConcretisedSite {
    /// `a float operand at f+0x1a (f.c:4), on 2 paths`.
    pub fn describe(&self) -> String {
        let paths = if self.paths == 1 { "path" } else { "paths" };
        format!(
            "{} at {}, on {} {paths}",
            self.what,
            self.location.text(),
            self.paths
        )
    }
}

/// The paths dropped at one instruction for one cause.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DropSite {
    pub cause: DropCause,
    pub location: Location,
    pub paths: u64,
}

impl DropSite {
    /// `2 by the assumption at f+0x1c (f.c:4)`.
    pub fn describe(&self) -> String {
        let what = match self.cause {
            DropCause::Assumption => "by the assumption",
            DropCause::Undecided => "undecided by the solver",
            DropCause::Abort => "by abort",
        };
        format!("{} {what} at {}", self.paths, self.location.text())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Returned,
    Trapped,
    AssertFailed,
    /// An access or a free the objects model does not allow (see
    /// [`PathReport::memory_error`]).
    MemoryError,
    /// A Rust panic (see [`PathReport::panic`]).
    Panicked,
    /// The path reached the depth limit before it ended.
    Limit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trap {
    Unreachable,
    DivByZero,
    IntOverflow,
    InvalidConversion,
    OutOfBounds,
    IndirectCall,
    StackExhausted,
}

impl Trap {
    /// The name in reports: `div_by_zero`, ...
    pub fn name(self) -> &'static str {
        match self {
            Trap::Unreachable => "unreachable",
            Trap::DivByZero => "div_by_zero",
            Trap::IntOverflow => "int_overflow",
            Trap::InvalidConversion => "invalid_conversion",
            Trap::OutOfBounds => "out_of_bounds",
            Trap::IndirectCall => "indirect_call",
            Trap::StackExhausted => "stack_exhausted",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathReport {
    pub id: usize,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub trap: Option<Trap>,
    /// Return values of the entry: integers signed, floats as numbers.
    pub returns: Vec<Number>,
    /// Where each result that is a pointer to a heap block points (one
    /// entry per result), when one is: under `--bases symbolic`, a result
    /// that is a term over a block's base symbol.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub points_into: Vec<Option<PointsInto>>,
    /// Set when the path ended in WASI `proc_exit`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub exit_code: Option<i64>,
    pub inputs: TestInput,
    pub location: Location,
    /// The path condition: indices into the report's `formulas`, in the
    /// order they were assumed ([`Report::path_condition`] prints it).
    pub condition: Vec<u32>,
    /// The tree leaf of this path.
    pub node: usize,
    /// Values the engine concretised, and similar remarks.
    pub notes: Vec<String>,
    pub stdout: String,
    pub stderr: String,
    /// What went wrong, for a path whose status is `memory_error`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub memory_error: Option<MemoryError>,
    /// The panic, for a path whose status is `panicked`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub panic: Option<PanicReport>,
    /// The memory objects (heap blocks, input buffers) at the end of the
    /// path, under the objects model; at most [`MAX_OBJECTS`].
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub objects: Vec<ObjectReport>,
    /// Ids of the heap objects still allocated when the entry returned.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub leaks: Vec<u32>,
    /// For a path of status `limit` that the engine's call-depth limit
    /// ended (not `--max-depth`): that limit, in frames.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub call_depth_limit: Option<u32>,
    /// For a path of status `limit` that called an import the engine does
    /// not provide: the import with its type, as `env.foo (i32) -> i32`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub not_provided: Option<String>,
}

/// Where a pointer points: into heap block `object`, `offset` bytes past
/// its base. A block's address depends on where the run put it (a segment
/// moves blocks, a replay without segments does not), so replays compare
/// pointer results by this, not by number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointsInto {
    pub object: u32,
    pub offset: u64,
}

/// A Rust panic: its message, as Rust would print it, when the engine
/// could read it (not for messages formatted at run time), and the
/// source location Rust gives, `file:line:column`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PanicReport {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub location: Option<String>,
}

impl PanicReport {
    /// `'index out of bounds: ...' at src/lib.rs:17:5`, as Rust says it.
    pub fn describe(&self) -> String {
        let message = self.message.as_ref().map_or_else(
            || "a message formatted at run time".into(),
            |m| format!("'{m}'"),
        );
        match &self.location {
            Some(at) => format!("{message} at {at}"),
            None => message,
        }
    }
}

/// Objects listed per path, the first allocated first.
pub const MAX_OBJECTS: usize = 256;

/// A memory error: the access, and the object it was meant for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryError {
    pub kind: MemoryErrorKind,
    pub access: Access,
    /// The address accessed (for a free, the pointer freed).
    pub address: u64,
    /// Bytes accessed; 0 for a free.
    pub width: u32,
    /// The object, by id in the path's `objects`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub object: Option<u32>,
    /// The access's offset from the object's base (negative before it).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub offset: Option<i64>,
    /// What was wrong with the arguments of a call, for `bad_argument`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub detail: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryErrorKind {
    HeapOverflow,
    HeapUnderflow,
    /// Past the length of an input buffer of symbolic length.
    BufferOverflow,
    BufferUnderflow,
    UseAfterFree,
    DoubleFree,
    /// A free (or realloc) of a pointer that is not a heap block's base.
    InvalidFree,
    /// Into the heap area where no object is near.
    WildAccess,
    /// Into the low page a null pointer points into (in wasm-ld's layout,
    /// below the data).
    NullDereference,
    /// The C stack pointer went below the end of the data.
    StackOverflow,
    /// Past the end of a C global (or static) variable, at an address
    /// computed from its own (known from DWARF).
    GlobalOverflow,
    GlobalUnderflow,
    /// Past the end of a variable of a stack frame, likewise.
    StackBufferOverflow,
    StackBufferUnderflow,
    /// A caller touched a variable of a stack frame that has returned.
    UseAfterReturn,
    /// An argument the model cannot take (a buffer capacity of 0, ...).
    BadArgument,
}

impl MemoryErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            MemoryErrorKind::HeapOverflow => "heap_overflow",
            MemoryErrorKind::HeapUnderflow => "heap_underflow",
            MemoryErrorKind::BufferOverflow => "buffer_overflow",
            MemoryErrorKind::BufferUnderflow => "buffer_underflow",
            MemoryErrorKind::UseAfterFree => "use_after_free",
            MemoryErrorKind::DoubleFree => "double_free",
            MemoryErrorKind::InvalidFree => "invalid_free",
            MemoryErrorKind::WildAccess => "wild_access",
            MemoryErrorKind::NullDereference => "null_dereference",
            MemoryErrorKind::StackOverflow => "stack_overflow",
            MemoryErrorKind::GlobalOverflow => "global_overflow",
            MemoryErrorKind::GlobalUnderflow => "global_underflow",
            MemoryErrorKind::StackBufferOverflow => "stack_buffer_overflow",
            MemoryErrorKind::StackBufferUnderflow => "stack_buffer_underflow",
            MemoryErrorKind::UseAfterReturn => "use_after_return",
            MemoryErrorKind::BadArgument => "bad_argument",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    Read,
    Write,
    Free,
    Realloc,
    /// A change of the C stack pointer.
    Stack,
    /// A call of the symbolic-input API.
    Call,
}

impl Access {
    pub fn name(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::Free => "free",
            Access::Realloc => "realloc",
            Access::Stack => "stack",
            Access::Call => "call",
        }
    }
}

/// A memory object at the end of a path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjectReport {
    pub id: u32,
    /// `heap`, `input` for an input buffer of symbolic length, or `global`
    /// and `local` for the C variable of a global or stack overflow or a
    /// use after return (its `site` is then its function, none for a
    /// global, and declaration; `freed_at` where a local's function
    /// returned).
    pub kind: String,
    /// The input's or the variable's name.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub name: Option<String>,
    pub base: u64,
    /// The size on this path's test input.
    pub size: u64,
    /// The size's term (readable) when it is symbolic.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub symbolic_size: Option<String>,
    /// The least and greatest size the path allows, when it is symbolic
    /// (given for the object of a memory error).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub size_range: Option<[u64; 2]>,
    /// Bytes reserved: the size, or the capacity of a symbolic size.
    pub capacity: u64,
    pub site: Location,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub freed_at: Option<Location>,
    /// The pieces it was split into on this path (`--split`), when an
    /// access at a symbolic offset forked over them.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pieces: Option<u64>,
    /// Its base symbol under relocatable bases (`--bases symbolic`):
    /// pointers to it are terms over this symbol, and `base` is the hidden
    /// address the symbol had on this path.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub base_symbol: Option<String>,
    /// Where a decision first depended on its hidden address (under
    /// `--bases symbolic`): an order between blocks, a hash of the address.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pinned_at: Option<Location>,
    /// The segment it was moved into (`--resolve segment`): `base` is its
    /// place there.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub segment: Option<SegmentReport>,
}

/// Heap blocks a symbolic pointer could point into, moved next to each
/// other (`--resolve segment`) so that an access through it reads one
/// array.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentReport {
    /// Its number among the path's segments, in the order they were made.
    pub id: u32,
    pub base: u64,
    /// Bytes from its first member's base to its last member's end.
    pub capacity: u64,
    /// The access that made it.
    pub made_at: Location,
    /// Ids of its members, by base.
    pub members: Vec<u32>,
}

impl ObjectReport {
    /// `the heap block of 8 bytes allocated at f+0x1a (x.c:5)`.
    pub fn describe(&self) -> String {
        let size = match (&self.symbolic_size, self.size_range) {
            (Some(_), Some([lo, hi])) if lo != hi => format!("{lo} to {hi} bytes"),
            _ if self.size == 1 => "1 byte".to_string(),
            _ => format!("{} bytes", self.size),
        };
        let declared = self.site.source.as_ref().map_or(String::new(), |s| {
            format!(", declared at {}:{}", s.file, s.line)
        });
        let name = self.name.as_deref().unwrap_or_default();
        match self.kind.as_str() {
            "global" => return format!("the global {name} of {size}{declared}"),
            "local" => {
                let function = &self.site.function;
                let returned = self.freed_at.as_ref().map_or(String::new(), |l| {
                    format!(", gone since {function} returned at {}", l.text())
                });
                return format!(
                    "the local {name} of {size} in {function}'s frame{declared}{returned}"
                );
            }
            _ => {}
        }
        let what = match &self.name {
            Some(name) => format!("the input buffer {name}"),
            None => "the heap block".to_string(),
        };
        let freed = self
            .freed_at
            .as_ref()
            .map_or(String::new(), |l| format!(", freed at {}", l.text()));
        format!("{what} of {size} allocated at {}{freed}", self.site.text())
    }
}

impl ObjectReport {
    /// A C variable's (`global`, `local`): not an allocation of the run.
    pub fn is_variable(&self) -> bool {
        matches!(self.kind.as_str(), "global" | "local")
    }

    /// Where it comes from: `f+0x1a (x.c:5)` where it was allocated, or
    /// `declared at x.c:2` (`in f, ...` for a local) for a C variable.
    pub fn origin_text(&self) -> String {
        if !self.is_variable() {
            return self.site.text();
        }
        let declared = self
            .site
            .source
            .as_ref()
            .map_or("declared".to_string(), |s| {
                format!("declared at {}:{}", s.file, s.line)
            });
        match self.kind.as_str() {
            "local" => format!("in {}, {declared}", self.site.function),
            _ => declared,
        }
    }

    /// `8`, or `n + 1 = 5 (1 to 8)` for a symbolic size.
    pub fn size_text(&self) -> String {
        match (&self.symbolic_size, self.size_range) {
            (Some(term), Some([lo, hi])) => format!("{term} = {} ({lo} to {hi})", self.size),
            (Some(term), None) => format!("{term} = {}", self.size),
            (None, _) => self.size.to_string(),
        }
    }

    /// `live`, `leaked` (on `path`), `freed at f+0x20 (x.c:9)` or, for a
    /// local, `returned at ...`; then, for a block moved into a segment,
    /// `, in segment 0`, and for a block whose hidden address a decision
    /// depended on, `, pinned at f+0x14 (x.c:7)`.
    pub fn state_text(&self, path: &PathReport) -> String {
        let state = match &self.freed_at {
            Some(at) if self.kind == "local" => format!("returned at {}", at.text()),
            Some(at) => format!("freed at {}", at.text()),
            None if path.leaks.contains(&self.id) => "leaked".into(),
            None => "live".into(),
        };
        let state = match &self.segment {
            Some(s) => format!("{state}, in segment {}", s.id),
            None => state,
        };
        match &self.pinned_at {
            Some(at) => format!("{state}, pinned at {}", at.text()),
            None => state,
        }
    }
}

impl SegmentReport {
    /// `segment 0: blocks #0, #1 and #2 moved next to each other at
    /// 0x10850, 152 bytes, made at f+0x13c (x.c:21)`.
    pub fn describe(&self) -> String {
        let names: Vec<String> = self.members.iter().map(|m| format!("#{m}")).collect();
        let blocks = match names.split_last() {
            Some((last, [])) => format!("block {last}"),
            Some((last, rest)) => format!("blocks {} and {last}", rest.join(", ")),
            None => "no block".into(),
        };
        format!(
            "segment {}: {blocks} moved next to each other at 0x{:x}, {} bytes, made at {}",
            self.id,
            self.base,
            self.capacity,
            self.made_at.text()
        )
    }
}

/// The segments `objects` were moved into, each once, by number.
pub fn segments_of(objects: &[ObjectReport]) -> Vec<&SegmentReport> {
    let mut segments: Vec<&SegmentReport> =
        objects.iter().filter_map(|o| o.segment.as_ref()).collect();
    segments.sort_by_key(|s| s.id);
    segments.dedup_by_key(|s| s.id);
    segments
}

impl MemoryError {
    /// `write of 1 byte at offset 8`, `free at offset 4`.
    pub fn access_at_offset(&self) -> String {
        let offset = self.offset.unwrap_or(0);
        match self.access {
            Access::Read | Access::Write => format!(
                "{} of {} byte{} at offset {offset}",
                self.access.name(),
                self.width,
                if self.width == 1 { "" } else { "s" }
            ),
            other => format!("{} at offset {offset}", other.name()),
        }
    }

    /// `write of 1 byte at offset 8 of an 8-byte heap block allocated at ...`.
    pub fn describe(&self, objects: &[ObjectReport]) -> String {
        if let Some(detail) = &self.detail {
            return detail.clone();
        }
        let object = self
            .object
            .and_then(|id| objects.iter().find(|o| o.id == id));
        let access = match self.access {
            Access::Read | Access::Write => {
                let bytes = if self.width == 1 { "byte" } else { "bytes" };
                format!("{} of {} {bytes}", self.access.name(), self.width)
            }
            Access::Stack => format!("stack pointer set to 0x{:x}", self.address),
            other => format!("{} of 0x{:x}", other.name(), self.address),
        };
        match (object, self.offset) {
            (Some(o), Some(offset)) => {
                format!("{access} at offset {offset} of {}", o.describe())
            }
            (Some(o), None) => format!("{access}: {}", o.describe()),
            _ if matches!(self.access, Access::Read | Access::Write) => {
                format!("{access} at 0x{:x}", self.address)
            }
            _ => access,
        }
    }
}

impl PathReport {
    /// How the path ends, without where: `returned`, `trap div_by_zero`,
    /// `heap_overflow`, `panic`.
    pub fn ending(&self) -> String {
        match (self.status, self.trap, &self.memory_error) {
            (Status::Returned, _, _) if self.exit_code.is_some() => "exited".into(),
            (Status::Returned, _, _) => "returned".into(),
            (Status::Trapped, Some(trap), _) => format!("trap {}", trap.name()),
            (Status::Trapped, None, _) => "trap".into(),
            (Status::AssertFailed, _, _) => "assertion failed".into(),
            (Status::MemoryError, _, Some(e)) => e.kind.name().into(),
            (Status::MemoryError, _, None) => "memory error".into(),
            (Status::Panicked, _, _) => "panic".into(),
            (Status::Limit, _, _) if self.call_depth_limit.is_some() => "call-depth limit".into(),
            (Status::Limit, _, _) if self.not_provided.is_some() => "import not provided".into(),
            (Status::Limit, _, _) => "depth limit".into(),
        }
    }

    /// `66720, 67665 (block 2 + 1)`: the results, a pointer with where it
    /// points.
    pub fn results_text(&self) -> String {
        let items: Vec<String> = (self.returns.iter().enumerate())
            .map(|(i, n)| match self.points_into.get(i).copied().flatten() {
                Some(p) => format!("{n} (block {} + {})", p.object, p.offset),
                None => n.to_string(),
            })
            .collect();
        items.join(", ")
    }

    /// Where result `i` points: as the run said (`points_into`), or for
    /// a run that did not (pointers as numbers), into the heap block of
    /// the path's objects that holds its number, if one does.
    pub fn place_of(&self, i: usize) -> Option<PointsInto> {
        if let Some(place) = self.points_into.get(i) {
            return *place;
        }
        let address = self.returns.get(i)?.address()?;
        let block = (self.objects.iter())
            .find(|o| o.kind == "heap" && (o.base..=o.base + o.capacity).contains(&address))?;
        Some(PointsInto {
            object: block.id,
            offset: address - block.base,
        })
    }

    /// Whether `other` returned the same: each result that either run says
    /// is a pointer, a pointer to the same place of the same block (which
    /// a run that moves blocks and one that does not find at other
    /// addresses); each other result, the same number.
    pub fn same_results(&self, other: &PathReport) -> bool {
        let said = |p: &PathReport, i: usize| p.points_into.get(i).copied().flatten();
        self.returns.len() == other.returns.len()
            && (self.returns.iter().zip(&other.returns).enumerate()).all(|(i, (a, b))| {
                if said(self, i).is_some() || said(other, i).is_some() {
                    self.place_of(i).is_some() && self.place_of(i) == other.place_of(i)
                } else {
                    a.same(b)
                }
            })
    }

    /// A trap, a failed assertion, a memory error or a panic.
    pub fn is_bug(&self) -> bool {
        matches!(
            self.status,
            Status::Trapped | Status::AssertFailed | Status::MemoryError | Status::Panicked
        )
    }

    /// How a path ended, and where.
    pub fn outcome(&self) -> String {
        let p = self;
        let at = format!("at {}", p.location.text());
        match (p.status, p.trap, p.exit_code) {
            (Status::Returned, _, Some(code)) => format!("exited with code {code}"),
            (Status::Returned, _, None) => format!("returned [{}]", self.results_text()),
            (Status::Trapped, Some(trap), _) => format!("trapped ({}) {at}", trap.name()),
            (Status::Trapped, None, _) => format!("trapped {at}"),
            (Status::AssertFailed, _, _) => format!("assertion failed {at}"),
            (Status::MemoryError, _, _) => match &p.memory_error {
                Some(e) => format!("{} ({}) {at}", e.kind.name(), e.describe(&p.objects)),
                None => format!("memory error {at}"),
            },
            (Status::Panicked, _, _) => match &p.panic {
                Some(panic) => format!("panicked {} ({at})", panic.describe()),
                None => format!("panicked {at}"),
            },
            (Status::Limit, _, _) => match (p.call_depth_limit, &p.not_provided) {
                (Some(frames), _) => format!(
                    "stopped at the engine's call-depth limit ({frames} frames, --max-call-depth) {at}"
                ),
                (None, Some(import)) => {
                    format!("stopped: calls {import}, an import that is not provided, {at}")
                }
                (None, None) => format!("stopped at the depth limit {at}"),
            },
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Number {
    Int(i64),
    Float(f64),
    /// A `funcref`: null, or the function's index. The field is required
    /// (`null` for null), so that an `extern_ref` is not read as one.
    FuncRef {
        #[serde(deserialize_with = "Option::deserialize")]
        func_ref: Option<u32>,
    },
    /// An `externref`: null, or the host's value.
    ExternRef {
        #[serde(deserialize_with = "Option::deserialize")]
        extern_ref: Option<u32>,
    },
}

impl Number {
    /// The address an integer result of 32 bits (signed or not) stands
    /// for, when it is one.
    pub fn address(&self) -> Option<u64> {
        match *self {
            Number::Int(n) if (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&n) => {
                Some(u64::from(n as u32))
            }
            _ => None,
        }
    }

    /// Whether `other` is the same number: equal, or both a NaN.
    pub fn same(&self, other: &Number) -> bool {
        match (self, other) {
            (Number::Float(a), Number::Float(b)) if a.is_nan() && b.is_nan() => true,
            _ => self == other,
        }
    }

    /// Values as a reader expects them: `1, -2, 0.5`.
    pub fn list(values: &[Number]) -> String {
        let items: Vec<String> = values.iter().map(ToString::to_string).collect();
        items.join(", ")
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(i) => write!(f, "{i}"),
            Number::Float(x) => write!(f, "{x}"),
            Number::FuncRef { func_ref: None } => f.write_str("ref.null func"),
            Number::FuncRef { func_ref: Some(i) } => write!(f, "ref.func {i}"),
            Number::ExternRef { extern_ref: None } => f.write_str("ref.null extern"),
            Number::ExternRef {
                extern_ref: Some(i),
            } => write!(f, "ref.extern {i}"),
        }
    }
}

/// A concrete input that reproduces a path. Missing fields read as empty, so a
/// hand-written test can be as short as `{"args": [5]}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TestInput {
    /// The entry's parameters, in order, signed.
    pub args: Vec<i64>,
    /// Each symbolic input of the symbolic-input API and WASI, by its unique name.
    pub named: Vec<NamedInput>,
}

impl TestInput {
    pub fn get(&self, name: &str) -> Option<&InputValue> {
        self.named.iter().find(|n| n.name == name).map(|n| &n.value)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedInput {
    pub name: String,
    pub value: InputValue,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum InputValue {
    Int(i64),
    Bytes(Vec<u8>),
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    pub function: String,
    pub func_index: u32,
    /// Byte offset of the instruction in the module.
    pub offset: u32,
    /// The source line, when the module carries DWARF line tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceLine>,
}

impl Location {
    /// `f+0x1a`, and ` (f.c:7)` when the source line is known.
    pub fn text(&self) -> String {
        let source = self
            .source
            .as_ref()
            .map_or_else(String::new, |s| format!(" ({}:{})", s.file, s.line));
        format!("{}+0x{:x}{source}", self.function, self.offset)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLine {
    pub file: String,
    pub line: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TreeNode {
    pub id: usize,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// The condition added on the edge from the parent: an index into
    /// the report's `formulas`.
    pub condition: Option<u32>,
    /// Which alternative of the parent's fork this node is (its index
    /// among the fork's alternatives); the sides from the root name a node
    /// in every run of the same options. Left out when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub side: u32,
    /// Its state went to another job of a parallel run; a merged report
    /// has none left unless that job's report was missing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub handed_over: bool,
    /// Where this node forked, for inner nodes.
    pub fork: Option<Location>,
    /// What made it fork there.
    #[serde(default, skip_serializing_if = "ForkKind::is_branch")]
    pub fork_kind: ForkKind,
    /// The path that ended here, for leaves.
    pub path: Option<usize>,
    /// The path was dropped here (an infeasible `assume`).
    pub dropped: bool,
    /// States waiting to run at or below this node.
    #[serde(default)]
    pub pending: u32,
    /// The memory objects when this node forked, under the objects model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<NodeMemory>,
    /// Bytes the state held of its own (what it shares with other states
    /// not counted: memory it did not write since it was forked) when it
    /// forked here, or ended here at a leaf.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_bytes: Option<u64>,
    /// For a node where states merged (a child of the node where their
    /// loop was first watched, under the disjunction of their conditions):
    /// the leaves they came from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<usize>,
    /// For a leaf whose state merged with others: the merged node.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged_into: Option<usize>,
    /// Below a node whose state merged incrementally with a later one:
    /// its states were dropped, and the merged state explored their cases
    /// again.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub superseded: bool,
}

/// The memory objects of a state when it forked: the first `objects` of
/// every path below (objects are numbered as they are made), `freed` those
/// of them freed by then (among the first [`MAX_OBJECTS`], which paths
/// list).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeMemory {
    pub objects: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub freed: Vec<u32>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Coverage {
    pub covered_instructions: u64,
    pub total_instructions: u64,
}

/// Which share of a run a shard explored, and the instructions it ran (so
/// that the shards' coverage joins exactly).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardReport {
    /// Shard `index` of `count`, counted from 0.
    pub index: u32,
    pub count: u32,
    /// The waiting states the first stretch made, shared out by their rank
    /// modulo `count`.
    pub frontier: usize,
    /// Per function, the ranges `[start, end)` of the instruction indices
    /// that ran.
    pub ran: Vec<Vec<[u32; 2]>>,
}

/// One merge of states that left a loop at one exit: the merged state's
/// formulas next to those of the states it replaced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MergeReport {
    /// The merged state's tree node (its `merged_from` are the leaves of
    /// the states it replaced) and the node where the loop was first
    /// forked in, below which every one of them is.
    pub node: usize,
    pub root: usize,
    /// The loop's header (its first instruction).
    pub loop_at: Location,
    /// The merge mode.
    pub mode: MergeMode,
    pub states: u64,
    /// The merged condition past the loop's prefix (a formula of the
    /// report's table): the mode's form of `disjunction`.
    pub condition: u32,
    /// The disjunction of what each state assumed inside the loop (its
    /// suffix), as the states had it.
    pub disjunction: u32,
    pub condition_size: FormulaSize,
    pub disjunction_size: FormulaSize,
    /// Values that differed between the states (locals, globals, operands
    /// and memory bytes), each now one term, and the size of those terms.
    pub values: u64,
    pub values_size: FormulaSize,
    /// Whether every case the loop started under merged here: the merged
    /// condition is `true` past the prefix.
    pub whole: bool,
    /// Whether the solver proved the merge right (`--validate-merge`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub validated: bool,
    /// The regular patterns in the branches the states took in the loop.
    #[serde(default)]
    pub patterns: RegularPatterns,
    /// Under PAT, where the states are a partition with a formula
    /// pattern: the name of the new symbol k they merged over (each
    /// state's k is its partition's), which `condition` bounds and
    /// quantifies over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<String>,
    /// Under PAT, a merge of two states inside the loop
    /// (`../shared/design/quantified_merging.md` §5): `root` is the node
    /// where their ways parted, and the merged state explores on.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub incremental: bool,
    /// Where in the loop an incremental merge happened: the start of a
    /// fork's side, or the loop's head.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point: Option<Location>,
}

impl MergeReport {
    /// Under PAT, where the states merged over a k: each state's k, the
    /// leaf it came from (of `merged_from`, the merged node's) and its
    /// index in `patterns.words`, by k.
    pub fn states_by_k(&self, merged_from: &[usize]) -> Vec<(u32, usize, usize)> {
        let Some(p) = self.k.as_ref().and(self.patterns.partitions.first()) else {
            return Vec::new();
        };
        let mut states: Vec<(u32, usize, usize)> = (p.members.iter())
            .filter_map(|&(w, k)| Some((k, *merged_from.get(w)?, w)))
            .collect();
        states.sort_unstable();
        states
    }

    /// The quantified queries of `queries` over this merge's k.
    pub fn queries<'a>(
        &'a self,
        queries: &'a [QuantifiedQuery],
    ) -> impl Iterator<Item = &'a QuantifiedQuery> + 'a {
        (queries.iter()).filter(move |q| self.k.as_ref().is_some_and(|k| q.bounds.contains(k)))
    }
}

/// The regular patterns of a merge's states
/// (`../shared/design/quantified_merging.md` §2): each state's word, a
/// letter per branch it took inside the loop (a branch whose other side
/// was infeasible too), conditions alike but for their constants sharing
/// a letter; and the partitions of the words by patterns
/// `prefix (unit)^k suffix`, each state with its k.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegularPatterns {
    /// A condition of each letter (a formula of the report's table).
    pub letters: Vec<u32>,
    /// Each state's word, in the order of the merged node's `merged_from`.
    pub words: Vec<Vec<u32>>,
    /// Why the states have no words, if they have none: two sides of one
    /// branch share a letter (a word would not name one path), or the
    /// words are too long.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub none_because: Option<String>,
    pub partitions: Vec<RegularPartition>,
    /// The states in no partition, by their index in `words`.
    pub alone: Vec<usize>,
    /// The tree's nodes whose edge from their parent is a branch of a
    /// word, with its letter (a branch with one side feasible has none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<(usize, u32)>,
}

/// A partition: the words `prefix (unit)^k suffix`, its states by their
/// index in the merge's words, each with its k.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegularPartition {
    pub prefix: Vec<u32>,
    pub unit: Vec<u32>,
    pub suffix: Vec<u32>,
    pub members: Vec<(usize, u32)>,
    #[serde(default)]
    pub synthesis: Synthesis,
}

/// What formula-pattern synthesis (`quantified_merging.md` §4) made of a
/// partition: its pattern, or why it has none.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Synthesis {
    /// Not looked for.
    #[default]
    NotTried,
    Pattern(FormulaPattern),
    /// Why not: which part (φ2, φ3) and what stood in the way.
    Fallback(String),
}

/// A partition's formula pattern: φ1 its prefix's conditions, φ2(x) an
/// iteration's at i = x, φ3(x) the suffix's at k = x, each a formula of
/// the report's table (`true` where the part is empty); each varying
/// constant's fit; and the states' differing values as terms of k.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormulaPattern {
    /// The name of x.
    pub variable: String,
    pub first: u32,
    pub repeated: u32,
    pub last: u32,
    /// The constants of φ2's instances (at i = 1, 2, …) and of φ3's (at
    /// each state's k), each fitted.
    pub repeated_holes: Vec<HoleFit>,
    pub last_holes: Vec<HoleFit>,
    pub values: Vec<ValuePattern>,
}

/// A constant that varies across instances: its width, its value at each
/// x, and the `a·x + b` (wrapping in the width) that gives them all.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HoleFit {
    pub width: u8,
    pub at: Vec<u32>,
    pub values: Vec<u64>,
    pub a: u64,
    pub b: u64,
}

/// A value that differs among a partition's states: where it is, and its
/// term of k (a formula of the report's table) or why none fits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValuePattern {
    pub place: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub term: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl HoleFit {
    /// The fit as a readable term of `x`: `x - 1`, `2·x + 3`.
    pub fn formula(&self, x: &str) -> String {
        let signed = |v: u64| crate::expr::to_signed(self.width, v);
        let ax = match signed(self.a) {
            1 => x.to_string(),
            -1 => format!("-{x}"),
            a => format!("{a}·{x}"),
        };
        match signed(self.b) {
            0 => ax,
            b if b < 0 => format!("{ax} - {}", b.unsigned_abs()),
            b => format!("{ax} + {b}"),
        }
    }

    /// `values (width) at x = at`: `0, 1, 2 (32 bits) at x = 1, 2, 3`.
    pub fn instances_text(&self, x: &str) -> String {
        let list = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(", ");
        let values = list(&mut self.values.iter().map(|v| v.to_string()));
        let at = list(&mut self.at.iter().map(|v| v.to_string()));
        format!("{values} ({} bits) at {x} = {at}", self.width)
    }
}

impl RegularPatterns {
    /// Letter `l`'s name: A to Z, then L26 and on.
    pub fn letter(l: u32) -> String {
        match u8::try_from(l).ok().filter(|&l| l < 26) {
            Some(l) => char::from(b'A' + l).to_string(),
            None => format!("L{l}"),
        }
    }

    /// A letter's condition as its shape, its constants (numbers and
    /// characters) written `_`: `s[_] == _` for `s[0] == 'a'`.
    pub fn shape(readable: &str) -> String {
        let chars: Vec<char> = readable.chars().collect();
        let in_name = |c: char| c.is_alphanumeric() || matches!(c, '_' | '!' | '.' | '$');
        let mut shape = String::with_capacity(readable.len());
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let after_name = i > 0 && in_name(chars[i - 1]);
            if c.is_ascii_digit() && !after_name {
                while i < chars.len() && chars[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                shape.push('_');
            } else if c == '\'' {
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                shape.push('_');
            } else {
                shape.push(c);
                i += 1;
            }
        }
        shape
    }

    /// A word as its letters' names.
    pub fn word(letters: &[u32]) -> String {
        letters.iter().map(|&l| Self::letter(l)).collect()
    }

    /// The words in no partition, the first ten, and how many more.
    pub fn alone_text(&self) -> String {
        const SHOWN: usize = 10;
        let shown: Vec<String> = (self.alone.iter().take(SHOWN))
            .map(|&w| Self::word(&self.words[w]))
            .collect();
        match self.alone.len().saturating_sub(SHOWN) {
            0 => shown.join(", "),
            more => format!("{} and {more} more", shown.join(", ")),
        }
    }
}

impl RegularPartition {
    /// `prefix (unit)^k suffix` in letters' names, an empty part left out.
    pub fn pattern_text(&self) -> String {
        let unit = format!("({})^k", RegularPatterns::word(&self.unit));
        let parts = [
            RegularPatterns::word(&self.prefix),
            unit,
            RegularPatterns::word(&self.suffix),
        ];
        let parts: Vec<String> = parts.into_iter().filter(|p| !p.is_empty()).collect();
        parts.join(" ")
    }

    /// Its states' k, sorted, runs written `a to b`: `0 to 2, 5`.
    pub fn ks_text(&self) -> String {
        let mut ks: Vec<u32> = self.members.iter().map(|&(_, k)| k).collect();
        ks.sort_unstable();
        let mut runs: Vec<(u32, u32)> = Vec::new();
        for k in ks {
            match runs.last_mut() {
                Some((_, last)) if *last + 1 == k => *last = k,
                _ => runs.push((k, k)),
            }
        }
        let runs: Vec<String> = (runs.into_iter())
            .map(|(a, b)| match a == b {
                true => a.to_string(),
                false => format!("{a} to {b}"),
            })
            .collect();
        runs.join(", ")
    }
}

/// How large a formula (or a set of terms) is: its DAG (shared subterms
/// once), its disjunctions and `ite`s, and for a condition the CNF the SAT
/// back end would be given (`None` past the size the run measures).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormulaSize {
    pub nodes: u64,
    pub ors: u64,
    pub ites: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cnf_variables: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cnf_clauses: Option<u64>,
}

/// What state merging did over a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergeStats {
    /// Loops watched: merging contexts opened where a state forked inside
    /// a loop with a side that leaves it.
    pub contexts: u64,
    /// States that waited at a loop's exit for the loop's other states.
    pub waited: u64,
    /// States of a context whose path ended inside its loop.
    pub ended_inside: u64,
    /// Merges, the states they merged, and groups of states at one exit
    /// that could not be merged and went on as they were.
    pub merges: u64,
    pub merged_states: u64,
    pub unmerged_groups: u64,
    /// Under `validate`, merges the solver proved equal to the states they
    /// replaced, and merges it proved wrong (engine errors: their states
    /// went on unmerged).
    #[serde(default)]
    pub validated: u64,
    #[serde(default)]
    pub violations: u64,
    /// PAT's merges over a k: of partitions with a formula pattern.
    #[serde(default)]
    pub over_k: u64,
    /// PAT's incremental merges, of two states inside a loop.
    #[serde(default)]
    pub incremental: u64,
}

impl MergeStats {
    /// Adds what `other` counted (another run's, or another call's).
    pub fn add(&mut self, other: &MergeStats) {
        self.contexts += other.contexts;
        self.waited += other.waited;
        self.ended_inside += other.ended_inside;
        self.merges += other.merges;
        self.merged_states += other.merged_states;
        self.unmerged_groups += other.unmerged_groups;
        self.validated += other.validated;
        self.violations += other.violations;
        self.over_k += other.over_k;
        self.incremental += other.incremental;
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub instructions: u64,
    pub forks: u64,
    pub paths: u64,
    pub dropped_paths: u64,
    /// States still waiting when a limit stopped the run.
    pub pending_states: u64,
    pub queries: u64,
    pub query_cache_hits: u64,
    pub cex_cache_hits: u64,
    pub sat_calls: u64,
    pub solver_unknown: u64,
    /// Each query once, by how it was answered: the parts add up to
    /// `queries`.
    #[serde(default)]
    pub answered: QueryAnswers,
    pub terms: u64,
    /// Peak heap in use, where the program meters it; else the peak of
    /// the estimate of what states and terms hold.
    pub peak_memory_bytes: u64,
    /// The most and the mean bytes a state held of its own where it forked
    /// or ended (the tree's `state_bytes`).
    #[serde(default)]
    pub max_state_bytes: u64,
    #[serde(default)]
    pub mean_state_bytes: u64,
    /// SAT (CNF) variables the bit-blaster made over the run, in every
    /// instance it used: what bit-blasting the queries cost.
    #[serde(default)]
    pub sat_variables: u64,
    /// SAT clauses the bit-blaster added over the run (learnt ones not
    /// counted), likewise.
    #[serde(default)]
    pub sat_clauses: u64,
    /// The most bytes the array of one read or write at a symbolic address
    /// held: what splitting objects into pieces makes smaller.
    #[serde(default)]
    pub largest_array_bytes: u64,
    /// Accesses at symbolic offsets into a split object or region that
    /// were narrowed to its pieces (`--split`).
    #[serde(default)]
    pub split_accesses: u64,
    /// Segments made of heap blocks a symbolic pointer could point into
    /// (`--resolve segment`), and the most bytes one spanned.
    #[serde(default)]
    pub segments: u64,
    #[serde(default)]
    pub largest_segment_bytes: u64,
    /// Accesses that context-based resolution placed with one query: the
    /// blocks of the contexts the access met before, and no other.
    #[serde(default)]
    pub context_resolutions: u64,
    /// Each layer of the solver chain, outermost first: the queries (or
    /// groups) that reached it and those it answered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<LayerReport>,
    /// What the address-aware cache did (`--aa-cache`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address_aware: Option<AaStats>,
    /// What state merging did, in a run that merges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merging: Option<MergeStats>,
    /// Queries with foralls over symbolic bounds, by the stage of the
    /// procedure that answered them, in a run that asked any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quantified: Option<QuantifiedStages>,
    /// Wall-clock times; the only fields that differ between identical runs.
    pub timing: Timing,
}

/// One layer of the solver chain in a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LayerReport {
    pub name: String,
    /// Queries or groups that reached it (for SAT, its calls).
    pub queries: u64,
    /// Those it answered (for independence, constraints earlier answers
    /// covered).
    pub answered: u64,
}

/// Whether `n` is 0, for fields left out of the JSON when they are.
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// `1 path`, `2 paths`: a count with its noun, as the command line and
/// the page write them.
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `312 B`, `1.2 KiB`, `3.4 MiB`: a size as the command line and the
/// page write it.
pub fn bytes_text(n: u64) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..0x10_0000 => format!("{:.1} KiB", n as f64 / 1024.0),
        _ => format!("{:.1} MiB", n as f64 / f64::from(1 << 20)),
    }
}

impl Stats {
    /// `address-aware cache: 4 answers held (520 B); 2 queries trusted
    /// with a model only (the guard), 0 left to the solver for a block of
    /// symbolic size`, when it was on.
    pub fn address_aware_text(&self) -> Option<String> {
        let aa = self.address_aware.as_ref()?;
        let mut text = format!(
            "address-aware cache: {} held ({}); {} trusted with a model only (the guard), {} left to the solver for a block of symbolic size",
            counted(aa.entries, "answer", "answers"),
            bytes_text(aa.bytes),
            counted(aa.guarded, "query", "queries"),
            aa.symbolic_sizes
        );
        if aa.disagreements > 0 {
            text.push_str(&format!(
                "; {} contradicted by the solver",
                counted(aa.disagreements, "answer", "answers")
            ));
        }
        Some(text)
    }

    /// The layers as a table, one line each: `address-aware cache   12
    /// reached   5 answered   0.3 ms`, then what the address-aware cache
    /// holds.
    pub fn layers_text(&self) -> String {
        let width = self.layers.iter().map(|l| l.name.len()).max().unwrap_or(0);
        let mut text = String::new();
        for (k, l) in self.layers.iter().enumerate() {
            let ms = self.timing.layers_ms.get(k).copied().unwrap_or(0.0);
            text.push_str(&format!(
                "  {:<width$}  {:>8} reached  {:>8} answered  {ms:>9.1} ms\n",
                l.name, l.queries, l.answered
            ));
        }
        if let Some(aa) = self.address_aware_text() {
            text.push_str(&format!("  {aa}\n"));
        }
        text
    }

    /// `memory per state: 1.2 KiB on average, 4.0 KiB at most`, what
    /// states held of their own where they forked or ended, when any did.
    pub fn state_bytes_text(&self) -> Option<String> {
        (self.max_state_bytes > 0).then(|| {
            format!(
                "memory per state: {} on average, {} at most (what states share not counted)",
                bytes_text(self.mean_state_bytes),
                bytes_text(self.max_state_bytes)
            )
        })
    }

    /// `arrays: 256 B at most in one symbolic access; 12 accesses split
    /// into pieces; 1 segment of blocks, 528 B at most`: what reads and
    /// writes at symbolic addresses selected from, when any was made.
    pub fn arrays_text(&self) -> Option<String> {
        (self.largest_array_bytes > 0).then(|| {
            let split = match self.split_accesses {
                0 => String::new(),
                n => format!(
                    "; {} into pieces",
                    counted(n, "access split", "accesses split")
                ),
            };
            let segments = match self.segments {
                0 => String::new(),
                n => format!(
                    "; {} of blocks, {} at most",
                    counted(n, "segment", "segments"),
                    bytes_text(self.largest_segment_bytes)
                ),
            };
            let by_context = match self.context_resolutions {
                0 => String::new(),
                n => format!(
                    ", {} placed by allocation context",
                    counted(n, "access", "accesses")
                ),
            };
            format!(
                "arrays: {} at most in one symbolic access{split}{segments}{by_context}",
                bytes_text(self.largest_array_bytes)
            )
        })
    }

    /// `7 queries: 3 simplified away, 4 by SAT (4 SAT calls)`: the queries
    /// by how they were answered (the parts add up), and the SAT calls
    /// made (one per independent group that reached the solver).
    pub fn queries_text(&self) -> String {
        let a = &self.answered;
        let parts: Vec<String> = [
            (a.simplified, "simplified away"),
            (a.sliced, "covered by earlier answers"),
            (a.address_aware, "from the address-aware cache"),
            (a.query_cache, "from the query cache"),
            (a.cex_cache, "from the counterexample cache"),
            (a.sat, "by SAT"),
            (a.unknown, "unknown"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, how)| format!("{n} {how}"))
        .collect();
        let queries = counted(self.queries, "query", "queries");
        let calls = counted(self.sat_calls, "SAT call", "SAT calls");
        if parts.is_empty() {
            return queries;
        }
        format!("{queries}: {} ({calls})", parts.join(", "))
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub total_ms: f64,
    pub solver_ms: f64,
    /// Time in each layer of `stats.layers`, in its order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers_ms: Vec<f64>,
}

/// One step of a replay's trace: what a concrete run decided, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TraceEvent {
    /// A call of a function of the module (through `call_indirect` when
    /// `table_slot` is set); `depth` counts the caller's frames.
    Call {
        at: Location,
        callee: String,
        args: Vec<Number>,
        #[serde(skip_serializing_if = "Option::is_none", default)]
        table_slot: Option<u32>,
        depth: usize,
    },
    /// A call of an imported (host) function and what it returned.
    HostCall {
        at: Location,
        callee: String,
        args: Vec<Number>,
        results: Vec<Number>,
        depth: usize,
    },
    Return {
        at: Location,
        values: Vec<Number>,
        depth: usize,
    },
    /// A `br_if` or `if` and whether its branch was taken.
    Branch {
        at: Location,
        instruction: String,
        taken: bool,
        depth: usize,
    },
    /// A `br_table` and the index it jumped on.
    BrTable {
        at: Location,
        index: u32,
        depth: usize,
    },
}

impl TraceEvent {
    /// One trace event as a line, indented by call depth.
    pub fn line(&self) -> String {
        let (at, depth, what) = match self {
            TraceEvent::Call {
                at,
                callee,
                args,
                table_slot,
                depth,
            } => {
                let via = table_slot.map_or(String::new(), |k| format!(" via table[{k}]"));
                let what = format!("call {callee}({}){via}", Number::list(args));
                (at, depth, what)
            }
            TraceEvent::HostCall {
                at,
                callee,
                args,
                results,
                depth,
            } => {
                let what = format!(
                    "call {callee}({}) -> [{}]",
                    Number::list(args),
                    Number::list(results)
                );
                (at, depth, what)
            }
            TraceEvent::Return { at, values, depth } => {
                (at, depth, format!("return [{}]", Number::list(values)))
            }
            TraceEvent::Branch {
                at,
                instruction,
                taken,
                depth,
            } => {
                let side = match (instruction.as_str(), taken) {
                    ("if", true) => "then",
                    ("if", false) => "else",
                    (_, true) => "taken",
                    (_, false) => "not taken",
                };
                (at, depth, format!("{instruction}: {side}"))
            }
            TraceEvent::BrTable { at, index, depth } => {
                (at, depth, format!("br_table: index {index}"))
            }
        };
        let indent = "  ".repeat(depth.saturating_sub(1));
        format!("{indent}{}  {what}", at.text())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_letters_shape_writes_its_constants_as_blanks() {
        let shape = super::RegularPatterns::shape;
        assert_eq!(shape("s[0] == 'a'"), "s[_] == _");
        assert_eq!(
            shape("(s.len >=u 1 && s.len != 12)"),
            "(s.len >=u _ && s.len != _)"
        );
        // Digits in names stay; an escaped quote is one character.
        assert_eq!(shape("k!2 + x1 <u 0x1f"), "k!2 + x1 <u _");
        assert_eq!(shape("s[3] != '\\''"), "s[_] != _");
    }

    #[test]
    fn references_keep_their_type_through_json() {
        use super::Number;
        let values = [
            Number::Int(-3),
            Number::Float(0.5),
            Number::FuncRef { func_ref: None },
            Number::FuncRef { func_ref: Some(2) },
            Number::ExternRef { extern_ref: None },
            Number::ExternRef {
                extern_ref: Some(3),
            },
        ];
        let json = serde_json::to_string(&values).unwrap();
        assert_eq!(
            json,
            r#"[-3,0.5,{"func_ref":null},{"func_ref":2},{"extern_ref":null},{"extern_ref":3}]"#
        );
        let back: Vec<Number> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, values);
        assert_eq!(Number::list(&back[2..4]), "ref.null func, ref.func 2");
    }

    use super::Trap;

    #[test]
    fn trap_names_are_the_json_names() {
        let all = [
            Trap::Unreachable,
            Trap::DivByZero,
            Trap::IntOverflow,
            Trap::InvalidConversion,
            Trap::OutOfBounds,
            Trap::IndirectCall,
            Trap::StackExhausted,
        ];
        for trap in all {
            let json = serde_json::to_string(&trap).unwrap();
            assert_eq!(json, format!("\"{}\"", trap.name()));
        }
    }
}
