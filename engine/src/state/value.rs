//! Operands of the interpreter: concrete bits, or a symbolic bit-vector term.
//!
//! Concrete values stay plain integers so concrete-heavy code runs fast and the
//! term store does not fill with constants; a term is built only when a
//! concrete value meets a symbolic one.

use crate::expr::{mask, Node, TermId, TermStore};
use crate::report::Number;
use symplay_wasm::ValType;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    /// Raw bits of an i32/i64/f32/f64 (floats are always concrete).
    Con { width: u8, bits: u64 },
    /// A bit-vector term of width 32 or 64 (an i32 or i64).
    Sym(TermId),
}

impl Val {
    pub fn i32(bits: u32) -> Val {
        Val::Con {
            width: 32,
            bits: u64::from(bits),
        }
    }

    pub fn i64(bits: u64) -> Val {
        Val::Con { width: 64, bits }
    }

    pub fn con(width: u8, bits: u64) -> Val {
        Val::Con {
            width,
            bits: bits & mask(width),
        }
    }

    /// The zero of a value type: a local's initial value (null for a
    /// reference).
    pub fn zero(t: ValType) -> Val {
        match t {
            ValType::I32 | ValType::F32 => Val::i32(0),
            ValType::I64 | ValType::F64 | ValType::FuncRef | ValType::ExternRef => Val::i64(0),
        }
    }

    /// A reference: `None` is null, else a store function id (`funcref`) or
    /// a host value (`externref`). It is 0 for null and the id plus one
    /// otherwise, 64 bits wide, so that null is the zero of its type.
    pub fn reference(r: Option<u32>) -> Val {
        Val::i64(r.map_or(0, |id| u64::from(id) + 1))
    }

    /// The reference a value holds. References are never symbolic (a
    /// `select` of references forks), so a symbolic value reads as null.
    pub fn as_reference(self) -> Option<u32> {
        let bits = self.concrete()?;
        bits.checked_sub(1).map(|id| id as u32)
    }

    pub fn bool(b: bool) -> Val {
        Val::i32(u32::from(b))
    }

    pub fn concrete(self) -> Option<u64> {
        match self {
            Val::Con { bits, .. } => Some(bits),
            Val::Sym(_) => None,
        }
    }

    /// The value as a term of its width.
    pub fn term(self, store: &mut TermStore) -> TermId {
        match self {
            Val::Con { width, bits } => store.bv_const(width, bits),
            Val::Sym(t) => t,
        }
    }

    /// A term back to a value: constants become concrete again.
    pub fn from_term(store: &TermStore, t: TermId) -> Val {
        match *store.node(t) {
            Node::BvConst { width, value } => Val::Con { width, bits: value },
            _ => Val::Sym(t),
        }
    }
}

/// A concrete value of type `ty` as the report shows it: integers signed,
/// floats from their bits, references by what they point to.
pub(crate) fn number(ty: ValType, bits: u64) -> Number {
    match ty {
        ValType::I32 => Number::Int(i64::from(bits as u32 as i32)),
        ValType::I64 => Number::Int(bits as i64),
        ValType::F32 => Number::Float(f64::from(f32::from_bits(bits as u32))),
        ValType::F64 => Number::Float(f64::from_bits(bits)),
        ValType::FuncRef => Number::FuncRef {
            func_ref: Val::i64(bits).as_reference(),
        },
        ValType::ExternRef => Number::ExternRef {
            extern_ref: Val::i64(bits).as_reference(),
        },
    }
}
