//! Floating-point instructions, executed on concrete bits (the engine keeps
//! floats concrete; symbolic operands are concretised before they get here).

use crate::report::Trap;
use symplay_wasm::ir::{BinaryOp, UnaryOp};

/// Result of a float instruction: the width and bits of the value, or a trap.
pub type FloatResult = Result<(u8, u64), Trap>;

fn f32v(bits: u64) -> f32 {
    f32::from_bits(bits as u32)
}

fn f64v(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// A float result. A NaN gets its quiet bit: Wasm requires an arithmetic
/// NaN, and Rust's software rounding functions (and `min`/`max` here) pass
/// a signalling NaN operand through unchanged. Quieting keeps a canonical
/// NaN canonical.
fn r32(x: f32) -> (u8, u64) {
    let bits = x.to_bits();
    let bits = if x.is_nan() { bits | 0x0040_0000 } else { bits };
    (32, u64::from(bits))
}

fn r64(x: f64) -> (u8, u64) {
    let bits = x.to_bits();
    let bits = if x.is_nan() {
        bits | 0x0008_0000_0000_0000
    } else {
        bits
    };
    (64, bits)
}

fn i32r(x: u32) -> (u8, u64) {
    (32, u64::from(x))
}

fn i64r(x: u64) -> (u8, u64) {
    (64, x)
}

/// Wasm `trunc`: traps on NaN (invalid conversion) and on values outside
/// `(lo - 1, hi)` after truncation toward zero, infinities included (integer
/// overflow, as the spec's tests classify it); bounds exact in f64 for every
/// source.
fn trunc_checked(x: f64, lo: f64, hi_exclusive: f64) -> Result<f64, Trap> {
    if x.is_nan() {
        return Err(Trap::InvalidConversion);
    }
    let t = x.trunc();
    if t < lo || t >= hi_exclusive {
        return Err(Trap::IntOverflow);
    }
    Ok(t)
}

const I32_LO: f64 = -2147483648.0;
const I32_END: f64 = 2147483648.0;
const U32_END: f64 = 4294967296.0;
const I64_LO: f64 = -9223372036854775808.0;
const I64_END: f64 = 9223372036854775808.0;
const U64_END: f64 = 18446744073709551616.0;

/// A float-related unary instruction on concrete operand bits; `None` for the
/// integer-only instructions, which the interpreter handles symbolically.
pub fn unary(op: UnaryOp, a: u64) -> Option<FloatResult> {
    use UnaryOp::*;
    let (x32, x64) = (f32v(a), f64v(a));
    let r = match op {
        F32Abs => Ok((32, a & 0x7fff_ffff)),
        F32Neg => Ok((32, (a ^ 0x8000_0000) & 0xffff_ffff)),
        F32Ceil => Ok(r32(x32.ceil())),
        F32Floor => Ok(r32(x32.floor())),
        F32Trunc => Ok(r32(x32.trunc())),
        F32Nearest => Ok(r32(x32.round_ties_even())),
        F32Sqrt => Ok(r32(x32.sqrt())),
        F64Abs => Ok((64, a & 0x7fff_ffff_ffff_ffff)),
        F64Neg => Ok((64, a ^ 0x8000_0000_0000_0000)),
        F64Ceil => Ok(r64(x64.ceil())),
        F64Floor => Ok(r64(x64.floor())),
        F64Trunc => Ok(r64(x64.trunc())),
        F64Nearest => Ok(r64(x64.round_ties_even())),
        F64Sqrt => Ok(r64(x64.sqrt())),
        I32TruncF32S => {
            trunc_checked(f64::from(x32), I32_LO, I32_END).map(|t| i32r(t as i32 as u32))
        }
        I32TruncF32U => trunc_checked(f64::from(x32), 0.0, U32_END).map(|t| i32r(t as u32)),
        I32TruncF64S => trunc_checked(x64, I32_LO, I32_END).map(|t| i32r(t as i32 as u32)),
        I32TruncF64U => trunc_checked(x64, 0.0, U32_END).map(|t| i32r(t as u32)),
        I64TruncF32S => {
            trunc_checked(f64::from(x32), I64_LO, I64_END).map(|t| i64r(t as i64 as u64))
        }
        I64TruncF32U => trunc_checked(f64::from(x32), 0.0, U64_END).map(|t| i64r(t as u64)),
        I64TruncF64S => trunc_checked(x64, I64_LO, I64_END).map(|t| i64r(t as i64 as u64)),
        I64TruncF64U => trunc_checked(x64, 0.0, U64_END).map(|t| i64r(t as u64)),
        // Rust's `as` saturates and maps NaN to 0, exactly as trunc_sat.
        I32TruncSatF32S => Ok(i32r(x32 as i32 as u32)),
        I32TruncSatF32U => Ok(i32r(x32 as u32)),
        I32TruncSatF64S => Ok(i32r(x64 as i32 as u32)),
        I32TruncSatF64U => Ok(i32r(x64 as u32)),
        I64TruncSatF32S => Ok(i64r(x32 as i64 as u64)),
        I64TruncSatF32U => Ok(i64r(x32 as u64)),
        I64TruncSatF64S => Ok(i64r(x64 as i64 as u64)),
        I64TruncSatF64U => Ok(i64r(x64 as u64)),
        F32ConvertI32S => Ok(r32(a as u32 as i32 as f32)),
        F32ConvertI32U => Ok(r32(a as u32 as f32)),
        F32ConvertI64S => Ok(r32(a as i64 as f32)),
        F32ConvertI64U => Ok(r32(a as f32)),
        F32DemoteF64 => Ok(r32(x64 as f32)),
        F64ConvertI32S => Ok(r64(f64::from(a as u32 as i32))),
        F64ConvertI32U => Ok(r64(f64::from(a as u32))),
        F64ConvertI64S => Ok(r64(a as i64 as f64)),
        F64ConvertI64U => Ok(r64(a as f64)),
        F64PromoteF32 => Ok(r64(f64::from(x32))),
        I32ReinterpretF32 | F32ReinterpretI32 => Ok((32, a & 0xffff_ffff)),
        I64ReinterpretF64 | F64ReinterpretI64 => Ok((64, a)),
        _ => return None,
    };
    Some(r)
}

/// Wasm `min`/`max`: NaN wins, and -0 is below +0.
fn min_max<F: Copy + PartialOrd>(
    a: F,
    b: F,
    is_nan: fn(F) -> bool,
    neg: fn(F) -> bool,
    max: bool,
) -> F {
    if is_nan(a) {
        return a;
    }
    if is_nan(b) {
        return b;
    }
    if a == b {
        // Equal values differ only in the sign of zero.
        return if neg(a) != max { a } else { b };
    }
    if (a < b) != max {
        a
    } else {
        b
    }
}

/// A float binary instruction on concrete bits; `None` for integer ones.
pub fn binary(op: BinaryOp, a: u64, b: u64) -> Option<(u8, u64)> {
    use BinaryOp::*;
    let (a32, b32, a64, b64) = (f32v(a), f32v(b), f64v(a), f64v(b));
    let cmp = |c: bool| i32r(u32::from(c));
    let r = match op {
        F32Eq => cmp(a32 == b32),
        F32Ne => cmp(a32 != b32),
        F32Lt => cmp(a32 < b32),
        F32Gt => cmp(a32 > b32),
        F32Le => cmp(a32 <= b32),
        F32Ge => cmp(a32 >= b32),
        F64Eq => cmp(a64 == b64),
        F64Ne => cmp(a64 != b64),
        F64Lt => cmp(a64 < b64),
        F64Gt => cmp(a64 > b64),
        F64Le => cmp(a64 <= b64),
        F64Ge => cmp(a64 >= b64),
        F32Add => r32(a32 + b32),
        F32Sub => r32(a32 - b32),
        F32Mul => r32(a32 * b32),
        F32Div => r32(a32 / b32),
        F32Min => r32(min_max(a32, b32, f32::is_nan, f32::is_sign_negative, false)),
        F32Max => r32(min_max(a32, b32, f32::is_nan, f32::is_sign_negative, true)),
        F32Copysign => (32, (a & 0x7fff_ffff) | (b & 0x8000_0000)),
        F64Add => r64(a64 + b64),
        F64Sub => r64(a64 - b64),
        F64Mul => r64(a64 * b64),
        F64Div => r64(a64 / b64),
        F64Min => r64(min_max(a64, b64, f64::is_nan, f64::is_sign_negative, false)),
        F64Max => r64(min_max(a64, b64, f64::is_nan, f64::is_sign_negative, true)),
        F64Copysign => (64, (a & !(1 << 63)) | (b & (1 << 63))),
        _ => return None,
    };
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunc_traps_on_nan_and_overflows_out_of_range() {
        let nan = u64::from(f32::NAN.to_bits());
        assert_eq!(
            unary(UnaryOp::I32TruncF32S, nan),
            Some(Err(Trap::InvalidConversion))
        );
        let big = 3e9f64.to_bits();
        assert_eq!(
            unary(UnaryOp::I32TruncF64S, big),
            Some(Err(Trap::IntOverflow))
        );
        let inf = u64::from(f32::NEG_INFINITY.to_bits());
        assert_eq!(
            unary(UnaryOp::I64TruncF32U, inf),
            Some(Err(Trap::IntOverflow))
        );
        assert_eq!(
            unary(UnaryOp::I32TruncF64U, big),
            Some(Ok((32, 3_000_000_000)))
        );
        let minus_half = (-0.5f64).to_bits();
        assert_eq!(unary(UnaryOp::I32TruncF64U, minus_half), Some(Ok((32, 0))));
        assert_eq!(
            unary(UnaryOp::I32TruncSatF64S, big),
            Some(Ok((32, i32::MAX as u64)))
        );
    }

    #[test]
    fn nan_results_are_quiet() {
        let signalling = u64::from(0x7fa0_0000u32);
        for op in [UnaryOp::F32Floor, UnaryOp::F32Ceil, UnaryOp::F32Nearest] {
            assert_eq!(unary(op, signalling), Some(Ok((32, 0x7fe0_0000))));
        }
        let one = u64::from(1f32.to_bits());
        assert_eq!(
            binary(BinaryOp::F32Min, one, signalling),
            Some((32, 0x7fe0_0000))
        );
        let canonical = 0xfff8_0000_0000_0000;
        assert_eq!(
            binary(BinaryOp::F64Max, canonical, 0),
            Some((64, canonical))
        );
    }

    #[test]
    fn min_and_max_order_signed_zeros() {
        let (pz, nz) = (0f64.to_bits(), (-0f64).to_bits());
        assert_eq!(binary(BinaryOp::F64Min, pz, nz), Some((64, nz)));
        assert_eq!(binary(BinaryOp::F64Max, nz, pz), Some((64, pz)));
    }
}
