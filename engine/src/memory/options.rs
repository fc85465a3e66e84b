//! How a run models the heap: whether the allocator is replaced by memory
//! objects, how symbolic allocation sizes are handled, and which checks
//! report.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// `Display` and `FromStr` of an option whose values are `$ty::ALL`,
/// each spelt `name()`: an unknown spelling is an error naming `$what`,
/// the spelling and the known ones.
macro_rules! named_option {
    ($ty:ident, $what:literal) => {
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $ty {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, String> {
                $ty::ALL.into_iter().find(|m| m.name() == s).ok_or_else(|| {
                    let known: Vec<&str> = $ty::ALL.iter().map(|m| m.name()).collect();
                    format!("unknown {} `{s}` (known: {})", $what, known.join(", "))
                })
            }
        }
    };
}

/// How an allocation of symbolic size is made (`symbolic_size.md` §1.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SizeMode {
    /// The size is pinned to its largest feasible value up to the capacity.
    Base,
    /// The state forks at the allocation, once per feasible size.
    ForkEager,
    /// The object keeps its symbolic size; bounds checks and branches fork
    /// on it when they must.
    #[default]
    ForkLazy,
}

impl SizeMode {
    pub const ALL: [SizeMode; 3] = [SizeMode::Base, SizeMode::ForkEager, SizeMode::ForkLazy];

    pub fn name(self) -> &'static str {
        match self {
            SizeMode::Base => "base",
            SizeMode::ForkEager => "fork-eager",
            SizeMode::ForkLazy => "fork-lazy",
        }
    }
}

named_option!(SizeMode, "size mode");

/// Which bytes the array of a symbolic access holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Contents {
    /// All of linear memory: a symbolic read selects over every byte
    /// written anywhere, and a symbolic write may have hit any byte. The
    /// baseline the per-object contents are measured against.
    Whole,
    /// The bytes the access can reach: the object it resolved into,
    /// narrowed by the values its address can take.
    #[default]
    PerObject,
}

impl Contents {
    pub const ALL: [Contents; 2] = [Contents::Whole, Contents::PerObject];

    pub fn name(self) -> &'static str {
        match self {
            Contents::Whole => "whole",
            Contents::PerObject => "per-object",
        }
    }
}

named_option!(Contents, "contents");

/// What a pointer to a heap object is (`relocatable_and_caching.md` §1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BaseMode {
    /// The object's address, a number.
    #[default]
    Concrete,
    /// A term over the object's base symbol, whose hidden address the
    /// memory model keeps apart from the path condition, so that an object
    /// can move without a term changing. Decisions, addresses and queries
    /// see the hidden address.
    Symbolic,
}

impl BaseMode {
    pub const ALL: [BaseMode; 2] = [BaseMode::Concrete, BaseMode::Symbolic];

    pub fn name(self) -> &'static str {
        match self {
            BaseMode::Concrete => "concrete",
            BaseMode::Symbolic => "symbolic",
        }
    }

    fn is_concrete(&self) -> bool {
        *self == BaseMode::Concrete
    }
}

named_option!(BaseMode, "bases");

/// The heap model of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct HeapOptions {
    /// Replace the allocator (imported, or found by name in the module) with
    /// memory objects and check every access against them; `false` runs the
    /// module's own allocator on the flat memory.
    pub objects: bool,
    pub size_mode: SizeMode,
    /// Bytes reserved for an allocation of symbolic size, the most it may
    /// have (raised in steps when no smaller size is feasible).
    pub capacity: u32,
    /// Every allocation may fail: the state forks, one side getting NULL.
    pub malloc_may_fail: bool,
    /// Report heap objects still allocated when the entry returns.
    pub leaks: bool,
    /// Where sizes past the capacity are feasible, one more path takes
    /// the largest of them (up to 1 MiB), so that a bug that needs a large
    /// block is found; `false` leaves them out, as the seed's model does.
    pub past_capacity: bool,
    /// Which bytes a symbolic access's array holds.
    pub contents: Contents,
    /// Objects and regions larger than a threshold are split into pieces
    /// for accesses at symbolic offsets (`relocatable_and_caching.md` §3);
    /// `None` keeps every object whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<Split>,
    /// What a pointer to a heap object is.
    #[serde(skip_serializing_if = "BaseMode::is_concrete")]
    pub bases: BaseMode,
    /// How a symbolic pointer that may point into several heap blocks is
    /// resolved: `None` forks per block; segments move the blocks next to
    /// each other and resolve it once (`relocatable_and_caching.md` §2.2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segments: Option<Segments>,
    /// Address-aware query caching (`relocatable_and_caching.md` §4): a
    /// branch's query is also known by its form over base symbols, so
    /// that queries differing only by where blocks lie share an answer.
    #[serde(skip_serializing_if = "AaCacheMode::is_off")]
    pub aa_cache: AaCacheMode,
}

/// Whether the address-aware cache answers queries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AaCacheMode {
    #[default]
    Off,
    On,
    /// On, and every answer it gives is asked of the solver again: a
    /// disagreement is counted (what tests run).
    Check,
}

impl AaCacheMode {
    pub const ALL: [AaCacheMode; 3] = [AaCacheMode::Off, AaCacheMode::On, AaCacheMode::Check];

    pub fn name(self) -> &'static str {
        match self {
            AaCacheMode::Off => "off",
            AaCacheMode::On => "on",
            AaCacheMode::Check => "check",
        }
    }

    pub fn is_off(&self) -> bool {
        *self == AaCacheMode::Off
    }
}

named_option!(AaCacheMode, "address-aware cache mode");

/// Dynamic segments (`--resolve segment`): the blocks a symbolic pointer
/// may point into are merged into one segment, up to `cap` bytes; past
/// it, the access forks per block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Segments {
    pub cap: u32,
    /// Context-based resolution (`relocatable_and_caching.md` §2.3): an
    /// access first asks only the places of blocks allocated in a context
    /// that blocks it met before were allocated in (the allocation site
    /// and this many callers above it, allocator wrappers skipped) and,
    /// when the path allows one, once whether the pointer can land
    /// anywhere else; `None` asks each block the pointer may reach.
    #[serde(default = "default_context_depth")]
    pub context_depth: Option<u32>,
}

/// The thesis's best depth: its queries stopped falling past 4 (§6.2).
const CONTEXT_DEPTH: u32 = 4;

/// The most callers a context names.
pub const MAX_CONTEXT_DEPTH: u32 = 16;

fn default_context_depth() -> Option<u32> {
    Some(CONTEXT_DEPTH)
}

impl Default for Segments {
    /// A segment is one array once bit-blasted, a mux over its bytes: past
    /// a few KiB, forks over smaller arrays cost less.
    fn default() -> Self {
        Segments {
            cap: 2048,
            context_depth: default_context_depth(),
        }
    }
}

/// How a symbolic pointer into several heap blocks is resolved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Resolve {
    /// A fork per block.
    #[default]
    Fork,
    /// The blocks merged into one segment.
    Segment,
}

impl Resolve {
    pub const ALL: [Resolve; 2] = [Resolve::Fork, Resolve::Segment];

    pub fn name(self) -> &'static str {
        match self {
            Resolve::Fork => "fork",
            Resolve::Segment => "segment",
        }
    }
}

named_option!(Resolve, "resolution");

/// Intra-object splitting: an access at a symbolic offset into an object
/// or a region of more than `threshold` bytes forks over the `piece`-byte
/// pieces it can reach, each read as an array of its own bytes, so a
/// symbolic read bit-blasts to a mux over a piece, not over the object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Split {
    pub threshold: u32,
    pub piece: u32,
}

impl Default for Split {
    /// The thesis's evaluation: objects over 300 bytes, 128-byte pieces
    /// (the middle of its 64 to 256 bytes sweet spot).
    fn default() -> Self {
        Split {
            threshold: 300,
            piece: 128,
        }
    }
}

/// Bytes of symbolic-size capacity by default (the seed prototype's).
pub const DEFAULT_CAPACITY: u32 = 100;

/// The largest object, and so the largest capacity: what a 32-bit memory
/// can hold.
pub const MAX_OBJECT: u32 = 1 << 31;

impl Default for HeapOptions {
    fn default() -> Self {
        HeapOptions {
            objects: true,
            size_mode: SizeMode::default(),
            capacity: DEFAULT_CAPACITY,
            malloc_may_fail: false,
            leaks: true,
            past_capacity: true,
            contents: Contents::default(),
            split: None,
            bases: BaseMode::Concrete,
            segments: None,
            aa_cache: AaCacheMode::Off,
        }
    }
}
