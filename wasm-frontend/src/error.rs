//! The one error type of the front end.

use std::fmt;

/// What went wrong, coarsely; the message says precisely.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// Not a well-formed binary (truncated, garbage, bad encoding).
    Malformed,
    /// WAT text that does not parse.
    InvalidText,
    /// C or Rust source, which must be compiled to a module first.
    SourceCode,
    /// Well-formed but fails validation.
    Invalid,
    /// Uses a Wasm feature outside the supported set.
    Unsupported,
    /// An import that is not allowed (wrong signature, unknown `symplay` name,
    /// or unknown where the caller requires known imports).
    Import,
    /// A requested export does not exist.
    Export,
}

/// A loading error: a message and, where known, the byte offset in the binary
/// (for WAT input, the offset in the binary compiled from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub kind: ErrorKind,
    pub message: String,
    pub offset: Option<u64>,
}

impl LoadError {
    pub fn new(kind: ErrorKind, message: impl Into<String>, offset: Option<u64>) -> Self {
        Self {
            kind,
            message: message.into(),
            offset,
        }
    }

    pub(crate) fn unsupported(feature: &str, offset: u64) -> Self {
        Self::new(
            ErrorKind::Unsupported,
            format!("unsupported feature: {feature}"),
            Some(offset),
        )
    }

    /// Maps a wasmparser error, naming the Wasm feature when the error is
    /// caused by one that is switched off. `kind` says whether it came from
    /// decoding (`Malformed`) or validation (`Invalid`).
    pub(crate) fn from_wasmparser(error: wasmparser::BinaryReaderError, kind: ErrorKind) -> Self {
        let offset = error.offset();
        match error
            .missing_wasm_feature()
            .and_then(crate::features::feature_name)
            .or_else(|| crate::features::feature_in_message(error.message()))
        {
            Some(feature) => Self::unsupported(feature, offset),
            None => {
                let what = match kind {
                    ErrorKind::Malformed => "malformed module",
                    _ => "invalid module",
                };
                Self::new(kind, format!("{what}: {}", error.message()), Some(offset))
            }
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(offset) = self.offset {
            write!(f, " at offset {offset:#x}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadError {}
