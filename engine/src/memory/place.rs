//! Where an access lands, in terms every memory model shares: a pointer
//! as the program computed it, the object and offset it resolves to, and
//! the cases of a symbolic pointer.

use crate::expr::TermId;

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

/// Where an access lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Concrete(Spot),
    /// In `object`, at `pointer + plus` (the memory argument's offset)
    /// from the start of linear memory, without wrap-around.
    Symbolic {
        object: ObjectId,
        pointer: TermId,
        plus: u32,
    },
}

/// One way a symbolic access may go: where `condition` holds, it lands in
/// `target`, or out of bounds (`None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Case {
    pub condition: TermId,
    pub target: Option<Place>,
}

/// What resolving an access found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// The access lands there on every path (`None`: out of bounds).
    Certain(Option<Place>),
    /// Pairwise disjoint cases that cover every value of the pointer.
    Cases(Vec<Case>),
}
