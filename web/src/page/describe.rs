//! How a path reads on the page: its input and its outcome, in words.

use symplay_engine::report::{param_name, InputValue, PathReport, Status};

/// `1 path`, `3 paths`: a count with its noun, `one` or `many` as English
/// wants it.
pub fn count(n: usize, one: &str, many: &str) -> String {
    symplay_engine::report::counted(n as u64, one, many)
}

/// `x = 5, guess = "s3cr3t!\0", packet = 01 ff 2d`: the parameters by
/// their names among `params` (the report's), then the named inputs.
pub fn inputs(p: &PathReport, params: &[String]) -> String {
    let mut parts: Vec<String> = p
        .inputs
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| format!("{} = {a}", param_name(params, i)))
        .collect();
    parts.extend(p.inputs.named.iter().map(|n| match &n.value {
        InputValue::Int(v) => format!("{} = {v}", n.name),
        InputValue::Bytes(b) => format!("{} = {}", n.name, bytes(b)),
    }));
    parts.join(", ")
}

/// Bytes as a C string literal when most of them are characters (or `\0`,
/// `\n`, `\t`), the others as octal escapes (`\377`, which no following
/// digit extends); else in hexadecimal.
pub fn bytes(b: &[u8]) -> String {
    let readable = |c: &u8| matches!(c, 0x20..=0x7e | 0 | b'\n' | b'\t');
    if 2 * b.iter().filter(|c| readable(c)).count() < b.len() {
        return b
            .iter()
            .map(|c| format!("{c:02x}"))
            .collect::<Vec<_>>()
            .join(" ");
    }
    let mut text = String::from("\"");
    for (i, &c) in b.iter().enumerate() {
        let octal_digit_next = b.get(i + 1).is_some_and(|n| (b'0'..=b'7').contains(n));
        match c {
            b'"' => text.push_str("\\\""),
            b'\\' => text.push_str("\\\\"),
            0 if !octal_digit_next => text.push_str("\\0"),
            b'\n' => text.push_str("\\n"),
            b'\t' => text.push_str("\\t"),
            0x20..=0x7e => text.push(c as char),
            _ => text.push_str(&format!("\\{c:03o}")),
        }
    }
    text.push('"');
    text
}

/// `returned [1]`, `exited with code 7`, `trap: div_by_zero`, ...
pub fn outcome(p: &PathReport) -> String {
    match (p.status, p.trap) {
        (Status::Returned, _) => match p.exit_code {
            Some(code) => format!("exited with code {code}"),
            None => format!("returned [{}]", p.results_text()),
        },
        (Status::Trapped, Some(trap)) => format!("trap: {}", trap.name()),
        (Status::Trapped, None) => "trap".into(),
        (Status::AssertFailed, _) => "assertion failed".into(),
        (Status::MemoryError, _) => match &p.memory_error {
            Some(e) => format!("memory: {}", e.kind.name()),
            None => "memory error".into(),
        },
        (Status::Panicked, _) => match &p.panic {
            Some(panic) => format!("panicked: {}", panic.describe()),
            None => "panicked".into(),
        },
        (Status::Limit, _) => match (&p.not_provided, p.call_depth_limit) {
            (Some(import), _) => format!("import not provided: {import}"),
            (None, Some(frames)) => format!("call-depth limit ({frames} frames)"),
            (None, None) => "depth limit".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{bytes, count, outcome};
    use symplay_engine::report::PathReport;

    #[test]
    fn a_path_that_called_exit_reads_as_its_code() {
        let path = |exit: &str| -> PathReport {
            serde_json::from_str(&format!(
                r#"{{"id":0,"status":"returned","returns":[],"inputs":{{}},{exit}
                "location":{{"function":"f","func_index":0,"offset":1}},
                "condition":[],"node":0,"notes":[],"stdout":"","stderr":""}}"#
            ))
            .unwrap()
        };
        assert_eq!(outcome(&path(r#""exit_code":7,"#)), "exited with code 7");
        assert_eq!(outcome(&path("")), "returned []");
    }

    #[test]
    fn counts_are_singular_for_one_only() {
        assert_eq!(count(1, "path", "paths"), "1 path");
        assert_eq!(count(0, "path", "paths"), "0 paths");
        assert_eq!(count(2, "query", "queries"), "2 queries");
    }

    #[test]
    fn bytes_read_as_a_string_when_they_are_characters_else_as_hex() {
        assert_eq!(bytes(b"s3cr3t!\0"), r#""s3cr3t!\0""#);
        assert_eq!(bytes(&[0, 0, 0]), r#""\0\0\0""#);
        assert_eq!(bytes(b"a\"b\\\n\xff"), r#""a\"b\\\n\377""#);
        // A NUL before a digit, a byte before a hex digit: C reads them right.
        assert_eq!(bytes(b"\x001"), r#""\0001""#);
        assert_eq!(bytes(b"ab\xffa"), r#""ab\377a""#);
        assert_eq!(bytes(&[0xff, 0x80, b'a']), "ff 80 61");
        assert_eq!(bytes(&[]), r#""""#);
    }
}
