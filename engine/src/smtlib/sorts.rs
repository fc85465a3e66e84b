//! Reads sorts: `Bool`, `(_ BitVec w)` for w in 1..=64, and
//! `(Array (_ BitVec 32) (_ BitVec 8))`, the only array sort the engine has.

use super::error::Error;
use super::lexer::TokenKind;
use super::sexpr::{SExprId, SExprs};
use crate::expr::{Sort, ARRAY_INDEX_WIDTH, ARRAY_VALUE_WIDTH, MAX_WIDTH};

pub fn parse_sort(sx: &SExprs, id: SExprId) -> Result<Sort, Error> {
    let unknown = || Error::at(sx.pos(id), format!("unknown sort '{}'", sx.snippet(id)));
    if let Some(name) = sx.symbol(id) {
        return if name == "Bool" {
            Ok(Sort::Bool)
        } else {
            Err(unknown())
        };
    }
    if let Some(width) = bit_vector_width(sx, id)? {
        return match u8::try_from(width) {
            Ok(w) if (1..=MAX_WIDTH).contains(&w) => Ok(Sort::Bv(w)),
            _ => Err(Error::at(
                sx.pos(id),
                format!("bit-vector width {width} is not supported: widths are 1 to {MAX_WIDTH}"),
            )),
        };
    }
    match sx.list(id) {
        Some(&[head, index, value]) if sx.symbol(head) == Some("Array") => {
            let index = bit_vector_width(sx, index)?;
            let value = bit_vector_width(sx, value)?;
            if index == Some(ARRAY_INDEX_WIDTH.into()) && value == Some(ARRAY_VALUE_WIDTH.into()) {
                Ok(Sort::Array)
            } else {
                Err(Error::at(
                    sx.pos(id),
                    format!(
                        "array sort '{}' is not supported: arrays must be \
                         (Array (_ BitVec {ARRAY_INDEX_WIDTH}) (_ BitVec {ARRAY_VALUE_WIDTH}))",
                        sx.snippet(id)
                    ),
                ))
            }
        }
        _ => Err(unknown()),
    }
}

/// The width of `(_ BitVec w)`, or `None` when `id` has another shape.
/// Widths too large for a `u64` read as `u64::MAX`, which is rejected anyway.
fn bit_vector_width(sx: &SExprs, id: SExprId) -> Result<Option<u64>, Error> {
    let Some(&[underscore, name, width]) = sx.list(id) else {
        return Ok(None);
    };
    if sx.symbol(underscore) != Some("_") || sx.symbol(name) != Some("BitVec") {
        return Ok(None);
    }
    match sx.atom(width) {
        Some(TokenKind::Numeral(digits)) => Ok(Some(digits.parse().unwrap_or(u64::MAX))),
        _ => Err(Error::at(
            sx.pos(width),
            format!("bad sort '{}': the width must be a numeral", sx.snippet(id)),
        )),
    }
}
