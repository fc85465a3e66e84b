//! Values of a script: arguments, expected results (with the NaN patterns),
//! how they print, and the trap messages of the spec mapped to the engine's
//! trap classes.

use symplay_engine::exec::store::{Outcome, Value};
use symplay_engine::report::Trap;
use wast::core::{AbstractHeapType, HeapType, NanPattern, WastArgCore, WastRetCore};
use wast::{WastArg, WastRet};

/// An expected result.
#[derive(Clone, Debug)]
pub enum Expected {
    Exact(Value),
    F32CanonicalNan,
    F32ArithmeticNan,
    F64CanonicalNan,
    F64ArithmeticNan,
    /// Any non-null `funcref` (the script cannot name a store function).
    SomeFuncRef,
    /// Any null reference.
    AnyNull,
    /// Any of these.
    Either(Vec<Expected>),
}

pub fn arg(a: &WastArg<'_>) -> Result<Value, String> {
    match a {
        WastArg::Core(WastArgCore::I32(v)) => Ok(Value::I32(*v as u32)),
        WastArg::Core(WastArgCore::I64(v)) => Ok(Value::I64(*v as u64)),
        WastArg::Core(WastArgCore::F32(f)) => Ok(Value::F32(f.bits)),
        WastArg::Core(WastArgCore::F64(f)) => Ok(Value::F64(f.bits)),
        WastArg::Core(WastArgCore::RefExtern(v)) => Ok(Value::ExternRef(Some(*v))),
        WastArg::Core(WastArgCore::RefNull(ty)) => {
            null_of(ty).ok_or_else(|| format!("unsupported argument {a:?}"))
        }
        other => Err(format!("unsupported argument {other:?}")),
    }
}

pub fn expected(r: &WastRet<'_>) -> Result<Expected, String> {
    match r {
        WastRet::Core(core) => expected_core(core),
        other => Err(format!("unsupported result {other:?}")),
    }
}

fn expected_core(r: &WastRetCore<'_>) -> Result<Expected, String> {
    Ok(match r {
        WastRetCore::I32(v) => Expected::Exact(Value::I32(*v as u32)),
        WastRetCore::I64(v) => Expected::Exact(Value::I64(*v as u64)),
        WastRetCore::F32(NanPattern::Value(f)) => Expected::Exact(Value::F32(f.bits)),
        WastRetCore::F32(NanPattern::CanonicalNan) => Expected::F32CanonicalNan,
        WastRetCore::F32(NanPattern::ArithmeticNan) => Expected::F32ArithmeticNan,
        WastRetCore::F64(NanPattern::Value(f)) => Expected::Exact(Value::F64(f.bits)),
        WastRetCore::F64(NanPattern::CanonicalNan) => Expected::F64CanonicalNan,
        WastRetCore::F64(NanPattern::ArithmeticNan) => Expected::F64ArithmeticNan,
        WastRetCore::RefExtern(Some(v)) => Expected::Exact(Value::ExternRef(Some(*v))),
        WastRetCore::RefFunc(_) => Expected::SomeFuncRef,
        WastRetCore::RefNull(None) => Expected::AnyNull,
        WastRetCore::RefNull(Some(ty)) => match null_of(ty) {
            Some(null) => Expected::Exact(null),
            None => return Err(format!("unsupported result {r:?}")),
        },
        WastRetCore::Either(alternatives) => Expected::Either(
            alternatives
                .iter()
                .map(expected_core)
                .collect::<Result<_, _>>()?,
        ),
        other => return Err(format!("unsupported result {other:?}")),
    })
}

/// The null reference of a heap type (`func`, `extern`, or their bottom
/// types `nofunc` and `noextern`).
fn null_of(ty: &HeapType<'_>) -> Option<Value> {
    match ty {
        HeapType::Abstract {
            shared: false,
            ty: AbstractHeapType::Func | AbstractHeapType::NoFunc,
        } => Some(Value::FuncRef(None)),
        HeapType::Abstract {
            shared: false,
            ty: AbstractHeapType::Extern | AbstractHeapType::NoExtern,
        } => Some(Value::ExternRef(None)),
        _ => None,
    }
}

const F32_QUIET: u32 = 0x7fc0_0000;
const F64_QUIET: u64 = 0x7ff8_0000_0000_0000;

impl Expected {
    /// Floats compare by their bits; a canonical NaN has only the quiet bit
    /// of the payload set, an arithmetic NaN at least that bit, either sign.
    pub fn matches(&self, v: Value) -> bool {
        match (self, v) {
            (Expected::Exact(e), v) => *e == v,
            (Expected::F32CanonicalNan, Value::F32(b)) => b & 0x7fff_ffff == F32_QUIET,
            (Expected::F32ArithmeticNan, Value::F32(b)) => b & F32_QUIET == F32_QUIET,
            (Expected::F64CanonicalNan, Value::F64(b)) => b & !(1 << 63) == F64_QUIET,
            (Expected::F64ArithmeticNan, Value::F64(b)) => b & F64_QUIET == F64_QUIET,
            (Expected::SomeFuncRef, Value::FuncRef(r)) => r.is_some(),
            (Expected::AnyNull, Value::FuncRef(r) | Value::ExternRef(r)) => r.is_none(),
            (Expected::Either(alternatives), v) => alternatives.iter().any(|e| e.matches(v)),
            _ => false,
        }
    }
}

/// Does `outcome` return exactly the `expected` values?
pub fn returns_expected(outcome: &Outcome, expected: &[Expected]) -> Result<(), String> {
    let fail = |got: String| Err(format!("expected {}, got {got}", show_expected(expected)));
    match outcome {
        Outcome::Returned(values)
            if values.len() == expected.len()
                && values.iter().zip(expected).all(|(&v, e)| e.matches(v)) =>
        {
            Ok(())
        }
        Outcome::Returned(values) => fail(show_values(values)),
        Outcome::Trapped(trap) => fail(format!("trap {}", trap.name())),
    }
}

/// Does `outcome` trap with the class of the spec's `message`?
pub fn traps_expected(outcome: &Outcome, message: &str) -> Result<(), String> {
    let expected = trap_of_message(message)?;
    match outcome {
        Outcome::Trapped(trap) if *trap == expected => Ok(()),
        Outcome::Trapped(trap) => Err(format!(
            "expected trap {} (\"{message}\"), got trap {}",
            expected.name(),
            trap.name()
        )),
        Outcome::Returned(values) => Err(format!(
            "expected trap {} (\"{message}\"), got {}",
            expected.name(),
            show_values(values)
        )),
    }
}

/// The engine's trap class for a trap message of the spec scripts (which may
/// carry details after the message, as in `uninitialized element 7`).
pub fn trap_of_message(message: &str) -> Result<Trap, String> {
    const MESSAGES: &[(&str, Trap)] = &[
        ("unreachable", Trap::Unreachable),
        ("integer divide by zero", Trap::DivByZero),
        ("integer overflow", Trap::IntOverflow),
        ("invalid conversion to integer", Trap::InvalidConversion),
        ("out of bounds memory access", Trap::OutOfBounds),
        // The engine reports table bounds (segments, table.get/set/fill/
        // init/copy) as
        // out of bounds, and every failed indirect call as indirect_call.
        ("out of bounds table access", Trap::OutOfBounds),
        ("undefined element", Trap::IndirectCall),
        ("uninitialized element", Trap::IndirectCall),
        ("indirect call type mismatch", Trap::IndirectCall),
        ("call stack exhausted", Trap::StackExhausted),
    ];
    MESSAGES
        .iter()
        .find(|(m, _)| message.starts_with(m))
        .map(|&(_, trap)| trap)
        .ok_or_else(|| format!("unknown trap message \"{message}\""))
}

pub fn show_values(values: &[Value]) -> String {
    if values.is_empty() {
        return "no values".into();
    }
    values
        .iter()
        .map(|&v| show(v))
        .collect::<Vec<_>>()
        .join(" ")
}

fn show_expected(expected: &[Expected]) -> String {
    if expected.is_empty() {
        return "no values".into();
    }
    expected
        .iter()
        .map(show_one_expected)
        .collect::<Vec<_>>()
        .join(" ")
}

fn show_one_expected(e: &Expected) -> String {
    match e {
        Expected::Exact(v) => show(*v),
        Expected::F32CanonicalNan => "(f32.const nan:canonical)".into(),
        Expected::F32ArithmeticNan => "(f32.const nan:arithmetic)".into(),
        Expected::F64CanonicalNan => "(f64.const nan:canonical)".into(),
        Expected::F64ArithmeticNan => "(f64.const nan:arithmetic)".into(),
        Expected::SomeFuncRef => "(ref.func)".into(),
        Expected::AnyNull => "(ref.null)".into(),
        Expected::Either(alternatives) => format!(
            "(either {})",
            alternatives
                .iter()
                .map(show_one_expected)
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

/// As written in a script; NaNs with their payload.
fn show(v: Value) -> String {
    match v {
        Value::I32(b) => format!("(i32.const {})", b as i32),
        Value::I64(b) => format!("(i64.const {})", b as i64),
        Value::F32(b) => {
            let f = f32::from_bits(b);
            let text = if f.is_nan() {
                let sign = if b >> 31 == 1 { "-" } else { "" };
                format!("{sign}nan:{:#x}", b & 0x7f_ffff)
            } else {
                format!("{f:?}")
            };
            format!("(f32.const {text})")
        }
        Value::F64(b) => {
            let f = f64::from_bits(b);
            let text = if f.is_nan() {
                let sign = if b >> 63 == 1 { "-" } else { "" };
                format!("{sign}nan:{:#x}", b & 0xf_ffff_ffff_ffff)
            } else {
                format!("{f:?}")
            };
            format!("(f64.const {text})")
        }
        Value::FuncRef(None) => "(ref.null func)".into(),
        Value::FuncRef(Some(f)) => format!("(ref.func {f})"),
        Value::ExternRef(None) => "(ref.null extern)".into(),
        Value::ExternRef(Some(v)) => format!("(ref.extern {v})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_patterns_follow_the_spec() {
        assert!(Expected::F32CanonicalNan.matches(Value::F32(0xffc0_0000)));
        assert!(!Expected::F32CanonicalNan.matches(Value::F32(0x7fc0_0001)));
        assert!(Expected::F32ArithmeticNan.matches(Value::F32(0x7fc0_0001)));
        assert!(!Expected::F32ArithmeticNan.matches(Value::F32(0x7fa0_0000)));
        assert!(Expected::F64CanonicalNan.matches(Value::F64(0xfff8_0000_0000_0000)));
        assert!(!Expected::F64ArithmeticNan.matches(Value::F64(0x7ff4_0000_0000_0000)));
        assert!(!Expected::F32CanonicalNan.matches(Value::F64(0x7ff8_0000_0000_0000)));
    }

    #[test]
    fn trap_messages_with_details_map_to_classes() {
        assert_eq!(
            trap_of_message("uninitialized element 7"),
            Ok(Trap::IndirectCall)
        );
        assert_eq!(
            trap_of_message("unreachable executed"),
            Ok(Trap::Unreachable)
        );
        assert!(trap_of_message("out of fuel").is_err());
    }
}
