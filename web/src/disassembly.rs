//! The WAT text of a module with the byte offset of each line, so the page
//! can show a Wasm location (function and offset) as a highlighted line.

use serde::{Deserialize, Serialize};

/// Lines of the pane, and characters of a line: a large data segment
/// prints as one string of megabytes, which no one reads in a page.
const MAX_LINES: usize = 200_000;
const MAX_LINE_CHARS: usize = 1_000;
/// The longest text put in the editor: a larger module runs as its binary.
pub const MAX_EDITOR_TEXT: usize = 4_000_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// Byte offset in the binary module of what the line prints.
    pub offset: Option<u32>,
    pub text: String,
}

/// Prints a module (binary, or WAT text, which is assembled first) as WAT,
/// one entry per line; past [`MAX_LINES`] lines, or [`MAX_LINE_CHARS`]
/// characters in a line, the rest is counted instead.
pub fn disassemble(module: &[u8]) -> Result<Vec<Line>, String> {
    let text = print_with(module, true)?;
    let mut all = text.lines();
    let mut lines: Vec<Line> = all
        .by_ref()
        .take(MAX_LINES)
        .map(|line| {
            let mut line = split_offset(line);
            if let Some((cut, _)) = line.text.char_indices().nth(MAX_LINE_CHARS) {
                let rest = line.text[cut..].chars().count();
                line.text.truncate(cut);
                line.text.push_str(&format!("... ({rest} more characters)"));
            }
            line
        })
        .collect();
    let more = all.count();
    if more > 0 {
        lines.push(Line {
            offset: None,
            text: format!(";; ... {more} more lines"),
        });
    }
    Ok(lines)
}

/// A binary module as WAT text to edit, unless it is too long for that.
pub fn to_wat(module: &[u8]) -> Result<String, String> {
    let text = print_with(module, false)?;
    if text.len() > MAX_EDITOR_TEXT {
        return Err(format!(
            "its text is {:.1} MB, more than the editor takes ({} MB); it runs as the binary",
            text.len() as f64 / 1e6,
            MAX_EDITOR_TEXT / 1_000_000
        ));
    }
    Ok(text)
}

fn print_with(module: &[u8], offsets: bool) -> Result<String, String> {
    let binary = if module.starts_with(b"\0asm") {
        module.to_vec()
    } else {
        let text =
            std::str::from_utf8(module).map_err(|_| "the module is neither binary nor text")?;
        wat::parse_str(text).map_err(|e| e.to_string())?
    };
    let mut printed = wasmprinter::PrintFmtWrite(String::new());
    wasmprinter::Config::new()
        .print_offsets(offsets)
        .print(&binary, &mut printed)
        .map_err(|e| e.to_string())?;
    Ok(printed.0)
}

/// `(;@1a   ;)    i32.add` -> offset 0x1a and `    i32.add`.
fn split_offset(line: &str) -> Line {
    let parsed = line.strip_prefix("(;@").and_then(|rest| {
        let (hex, text) = rest.split_once(";)")?;
        let offset = u32::from_str_radix(hex.trim(), 16).ok()?;
        Some(Line {
            offset: Some(offset),
            text: text.to_string(),
        })
    });
    parsed.unwrap_or_else(|| Line {
        offset: None,
        text: line.to_string(),
    })
}

/// The line that prints the instruction at `offset`: the last line starting
/// at or before it.
pub fn line_of(lines: &[Line], offset: u32) -> Option<usize> {
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.offset.is_some_and(|o| o <= offset))
        .max_by_key(|(_, l)| l.offset)
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADD: &str = r#"(module (func (export "add") (param i32 i32) (result i32)
      (i32.add (local.get 0) (local.get 1))))"#;

    #[test]
    fn every_instruction_line_has_its_offset() {
        let lines = disassemble(ADD.as_bytes()).unwrap();
        let add = lines.iter().find(|l| l.text.trim() == "i32.add").unwrap();
        // The engine reports this instruction at the same offset.
        let module = symplay_wasm::load(ADD.as_bytes()).unwrap();
        let symplay_wasm::FuncBody::Defined(code) = &module.funcs[0].body else {
            panic!("a defined function");
        };
        let offsets: Vec<u32> = (0..code.instrs.len() as u32)
            .filter_map(|pc| code.offset_of(pc))
            .collect();
        assert!(
            offsets.contains(&add.offset.unwrap()),
            "{offsets:?} {add:?}"
        );
        assert_eq!(
            line_of(&lines, add.offset.unwrap()).map(|i| lines[i].text.trim()),
            Some("i32.add")
        );
    }

    #[test]
    fn binary_and_text_print_the_same() {
        let binary = wat::parse_str(ADD).unwrap();
        assert_eq!(
            disassemble(&binary).unwrap(),
            disassemble(ADD.as_bytes()).unwrap()
        );
    }

    #[test]
    fn printed_text_assembles_to_the_same_module() {
        let binary = wat::parse_str(ADD).unwrap();
        let text = to_wat(&binary).unwrap();
        assert!(!text.contains("(;@"), "{text}");
        assert_eq!(wat::parse_str(&text).unwrap(), binary);
    }

    #[test]
    fn long_lines_and_long_texts_are_cut_and_counted() {
        let data = "x".repeat(MAX_LINE_CHARS + 500);
        let wat = format!(r#"(module (memory 1) (data (i32.const 0) "{data}"))"#);
        let lines = disassemble(wat.as_bytes()).unwrap();
        let long = lines.iter().find(|l| l.text.contains("xxx")).unwrap();
        let whole = print_with(wat.as_bytes(), true).unwrap();
        let whole = split_offset(whole.lines().find(|l| l.contains("xxx")).unwrap());
        let rest = whole.text.chars().count() - MAX_LINE_CHARS;
        assert!(
            long.text
                .ends_with(&format!("xxx... ({rest} more characters)")),
            "{}",
            &long.text[long.text.len() - 40..]
        );
        assert!(long.text.chars().count() < MAX_LINE_CHARS + 40);
        // Each function prints on two lines.
        let functions: String = (0..MAX_LINES / 2 + 1)
            .map(|i| format!("(func $f{i})"))
            .collect();
        let lines = disassemble(format!("(module {functions})").as_bytes()).unwrap();
        assert_eq!(lines.len(), MAX_LINES + 1);
        assert!(
            lines[MAX_LINES].text.starts_with(";; ... "),
            "{:?}",
            lines.last()
        );
        let huge = format!(
            r#"(module (memory 100) (data (i32.const 0) "{}"))"#,
            "y".repeat(MAX_EDITOR_TEXT)
        );
        let error = to_wat(&wat::parse_str(huge).unwrap()).unwrap_err();
        assert!(
            error.starts_with("its text is 4.0 MB, more than the editor takes (4 MB)"),
            "{error}"
        );
    }

    #[test]
    fn bad_modules_are_errors() {
        assert!(disassemble(b"(module (func").is_err());
        assert!(disassemble(b"\0asm\x01\0\0\0\x01").is_err());
        assert!(disassemble(&[0xff, 0xfe]).is_err());
    }
}
