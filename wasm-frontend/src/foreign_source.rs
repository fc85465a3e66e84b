//! Text that is a program in another language (C or Rust source, a common
//! thing to paste or upload by mistake): it must be compiled to a module
//! first, and the error says how, instead of a WAT parse error about its
//! first character.

/// A language whose source is recognised, with how to compile it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Language {
    C,
    Rust,
}

impl Language {
    pub(crate) fn advice(self) -> &'static str {
        match self {
            Language::C => {
                "this is C source, not a WebAssembly module: compile it to .wasm first \
                 (clang --target=wasm32 -O1 -nostdlib -Wl,--no-entry -Wl,--export-all f.c -o f.wasm) \
                 and load the .wasm"
            }
            Language::Rust => {
                "this is Rust source, not a WebAssembly module: compile it to .wasm first \
                 (rustc --target wasm32-unknown-unknown --crate-type cdylib -O f.rs) \
                 and load the .wasm"
            }
        }
    }
}

/// The language of `text` when its first line of code (after blank lines
/// and `//` or `/* */` comments, which WAT does not have) is unmistakably
/// C or Rust. WAT starts with `(`, so it is never taken for either.
pub(crate) fn recognise(text: &str) -> Option<Language> {
    let line = first_code_line(text)?;
    const RUST: &[&str] = &[
        "fn ",
        "pub ",
        "use ",
        "mod ",
        "impl ",
        "#[",
        "#![",
        "extern crate ",
        "let ",
    ];
    const C: &[&str] = &[
        "#include",
        "#define",
        "#if",
        "#pragma",
        "int ",
        "void ",
        "char ",
        "unsigned ",
        "signed ",
        "long ",
        "short ",
        "float ",
        "double ",
        "static ",
        "struct ",
        "typedef ",
        "const ",
        "extern ",
        "enum ",
        "bool ",
        "size_t ",
        "uint",
        "int8_t",
        "int16_t",
        "int32_t",
        "int64_t",
    ];
    if RUST.iter().any(|p| line.starts_with(p)) {
        Some(Language::Rust)
    } else if C.iter().any(|p| line.starts_with(p)) {
        Some(Language::C)
    } else {
        None
    }
}

fn first_code_line(text: &str) -> Option<&str> {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, next)| next);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, next)| next);
        } else if rest.is_empty() {
            return None;
        } else {
            return rest.lines().next();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_and_rust_sources_are_recognised() {
        let cases = [
            (
                "#include \"symplay.h\"\nint f(int x) { return x; }",
                Some(Language::C),
            ),
            (
                "/* A loop.\n * (with a bound) */\n\nint sum_to(int n) {",
                Some(Language::C),
            ),
            (
                "// divide\nunsigned divide(unsigned a, unsigned b)",
                Some(Language::C),
            ),
            (
                "#[no_mangle]\npub extern \"C\" fn f() {}",
                Some(Language::Rust),
            ),
            (
                "//! crate docs\nuse std::io;\nfn main() {}",
                Some(Language::Rust),
            ),
            ("(module (func))", None),
            (";; a comment\n(module)", None),
            ("this is not a module", None),
            ("/* unterminated", None),
            ("", None),
        ];
        for (text, language) in cases {
            assert_eq!(recognise(text), language, "{text}");
        }
    }
}
