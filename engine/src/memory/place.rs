//! Where an access lands, in terms every memory model shares: a pointer
//! as the program computed it, the object and offset it resolves to, and
//! the cases of a symbolic pointer.

use crate::expr::{TermId, TermStore};

/// An address as the program computed it: concrete, or a 32-bit term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pointer {
    Con(u64),
    Sym(TermId),
}

/// An object of a model, by number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectId(pub u32);

/// A concrete place: an object and the offset of a byte in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    pub object: ObjectId,
    pub offset: u64,
}

impl Spot {
    /// The spot `k` bytes further into the same object.
    pub fn plus(self, k: u64) -> Spot {
        Spot {
            offset: self.offset + k,
            ..self
        }
    }
}

/// One piece of a split object or region (`relocatable_and_caching.md`
/// §3): an access whose first byte lies in `first..=last` reads and writes
/// the piece's own array, indexed from `first`, over the bytes up to
/// `reach` (an access that straddles into the next piece reads its first
/// bytes too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub first: u64,
    pub last: u64,
    pub reach: u64,
}

/// Where an access lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Concrete(Spot),
    /// In `object`, at `pointer + plus` (the memory argument's offset)
    /// from the start of linear memory, without wrap-around; in one of
    /// its pieces when it is split.
    Symbolic {
        object: ObjectId,
        pointer: TermId,
        plus: u32,
        piece: Option<Piece>,
    },
}

impl Place {
    /// The object it lies in.
    pub fn object(self) -> ObjectId {
        match self {
            Place::Concrete(spot) => spot.object,
            Place::Symbolic { object, .. } => object,
        }
    }

    /// The place `k` bytes further on: the byte `k` of an access of
    /// several bytes resolved here as one.
    pub fn plus(self, k: u32) -> Place {
        match self {
            Place::Concrete(spot) => Place::Concrete(spot.plus(u64::from(k))),
            Place::Symbolic {
                object,
                pointer,
                plus,
                piece,
            } => Place::Symbolic {
                object,
                pointer,
                plus: plus + k,
                piece,
            },
        }
    }
}

/// Why an access may not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Outside linear memory: Wasm traps.
    OutOfBounds,
    /// Inside linear memory, where no live object is: `kind` relative to
    /// `object` (none for an address no object is near).
    Object {
        kind: FaultKind,
        object: Option<ObjectId>,
    },
    /// Inside linear memory but in no object, at a symbolic address: which
    /// fault it is depends on its value on the path.
    Unclassified,
    /// Outside the C variable the address was computed from.
    Variable,
}

/// What an access outside every live object did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// At or past the end of an object.
    Overflow,
    /// Before the start of an object.
    Underflow,
    /// Into a freed object.
    UseAfterFree,
    /// Where no object is near.
    Wild,
    /// In the low page a null pointer points into.
    Null,
}

/// One way a symbolic access may go: where `condition` holds, it lands in
/// the target place or faults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    pub condition: TermId,
    pub target: Result<Place, Fault>,
}

/// What resolving an access found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The access lands there, or faults, on every path.
    Certain(Result<Place, Fault>),
    /// Pairwise disjoint cases that cover every value of the pointer.
    Cases(Vec<Case>),
}

impl Resolution {
    /// Its cases: a certain place or fault is the one case, always true.
    pub fn into_cases(self, store: &mut TermStore) -> Vec<Case> {
        match self {
            Resolution::Certain(target) => vec![Case {
                condition: store.tru(),
                target,
            }],
            Resolution::Cases(cases) => cases,
        }
    }
}
