//! C (or other) source lines of Wasm code, from the DWARF line tables that
//! `clang -g` puts in custom sections (`.debug_line` with `.debug_info`,
//! `.debug_str`, ...). DWARF addresses count from the start of the code
//! section's contents; these rows are by byte offset in the module, as the
//! engine's locations are. A module without them, or with tables that do
//! not parse, simply has no source lines.

use crate::dwarf;
use std::collections::HashMap;

/// A line of a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceLine {
    pub file: String,
    pub line: u32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceLines {
    files: Vec<String>,
    /// From each module offset on: a line (file index, line), or none (the
    /// end of a sequence, or code of no line); sorted by offset.
    rows: Vec<(u32, Option<(u32, u32)>)>,
}

impl SourceLines {
    /// Reads the line tables among `sections` (custom sections by name);
    /// `code_start` is the module offset of the code section's contents.
    pub(crate) fn read(sections: &HashMap<String, &[u8]>, code_start: u32) -> Option<SourceLines> {
        sections.get(".debug_line")?;
        let dwarf = dwarf::load(sections)?;
        let mut rows = Vec::new();
        for (_, unit) in dwarf::units(&dwarf) {
            let Some(program) = unit.line_program.clone() else {
                continue;
            };
            let mut program_rows = program.rows();
            while let Ok(Some((header, row))) = program_rows.next_row() {
                let Some(offset) = u32::try_from(row.address())
                    .ok()
                    .and_then(|a| a.checked_add(code_start))
                else {
                    continue;
                };
                let line = row.line().and_then(|l| u32::try_from(l.get()).ok());
                let file = row
                    .file(header)
                    .and_then(|f| dwarf.attr_string(&unit, f.path_name()).ok())
                    .map(|name| name.to_string_lossy().into_owned());
                let value = match (row.end_sequence(), line, file) {
                    (false, Some(line), Some(file)) => Some(SourceLine { file, line }),
                    _ => None,
                };
                rows.push((offset, value));
            }
        }
        SourceLines::from_rows(rows)
    }

    /// Lines from rows, each a module offset and the line of the code from
    /// there on (none: the end of a function, or code of no line); at one
    /// offset, the row given last wins. `None` without rows.
    pub(crate) fn from_rows(
        rows: impl IntoIterator<Item = (u32, Option<SourceLine>)>,
    ) -> Option<SourceLines> {
        let mut lines = SourceLines::default();
        let mut file_index: HashMap<String, u32> = HashMap::new();
        for (offset, line) in rows {
            let value = line.map(|SourceLine { file, line }| {
                let next = lines.files.len() as u32;
                let index = *file_index.entry(file.clone()).or_insert(next);
                if index == next {
                    lines.files.push(file);
                }
                (index, line)
            });
            lines.rows.push((offset, value));
        }
        // Stable: at one offset, the row given last wins.
        lines.rows.sort_by_key(|&(offset, _)| offset);
        (!lines.rows.is_empty()).then_some(lines)
    }

    /// The source line of the instruction at module offset `offset`.
    pub fn line_at(&self, offset: u32) -> Option<SourceLine> {
        let after = self.rows.partition_point(|&(o, _)| o <= offset);
        let (_, value) = self.rows.get(after.checked_sub(1)?)?;
        let (file, line) = (*value)?;
        Some(SourceLine {
            file: self.files.get(file as usize)?.clone(),
            line,
        })
    }
}
