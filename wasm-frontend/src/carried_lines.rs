//! Source lines carried from a module to an edited copy of it. WAT text
//! assembled again lays the code out anew, so the original's line tables
//! do not fit the copy's offsets; but a function whose code is unchanged
//! has the same instructions in the same order, and instruction k of the
//! copy is on the line of instruction k of the original.

use std::collections::HashMap;

use crate::ir::{Code, Instr};
use crate::module::{FuncBody, FuncIdx, Module};
use crate::names;
use crate::source_lines::SourceLines;

/// What [`carry_source_lines`] did, by function name in the original's
/// order. A function without lines in the original is in neither list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinesCarried {
    /// Unchanged: their lines are the original's.
    pub kept: Vec<String>,
    /// Changed, renamed or gone: they had lines and have none now.
    pub lost: Vec<String>,
}

/// Gives `edited` (a module assembled again from `original`'s text, and
/// edited) the original's source lines for every defined function whose
/// code is unchanged. Functions are matched by name; a name two functions
/// share matches nothing.
pub fn carry_source_lines(edited: &mut Module, original: &Module) -> LinesCarried {
    let mut carried = LinesCarried::default();
    let Some(lines) = &original.source_lines else {
        return carried;
    };
    let in_original = by_name(original);
    let in_edited = by_name(edited);
    // A function of the edited module as the original numbers it.
    let as_original = |func: FuncIdx| {
        let name = edited.funcs.get(func as usize)?.name.as_str();
        let unique = in_edited.get(name) == Some(&Some(func));
        in_original.get(name).copied().flatten().filter(|_| unique)
    };
    let mut rows = Vec::new();
    for (func, index) in original.funcs.iter().zip(0..) {
        let FuncBody::Defined(code) = &func.body else {
            continue;
        };
        let line_of = |k: usize| lines.line_at(code.offsets[k]);
        if !(0..code.offsets.len()).any(|k| line_of(k).is_some()) {
            continue;
        }
        let name = func.name.as_str();
        let unique = in_original.get(name) == Some(&Some(index));
        let counterpart = in_edited
            .get(name)
            .copied()
            .flatten()
            .filter(|_| unique)
            .filter(|&e| edited.func_type(e) == original.func_type(index))
            .and_then(|e| match &edited.funcs[e as usize].body {
                FuncBody::Defined(mine) => Some(mine),
                FuncBody::Import(_) => None,
            })
            .filter(|mine| same_code(mine, code, edited, original, &as_original));
        let Some(mine) = counterpart else {
            carried.lost.push(func.name.clone());
            continue;
        };
        rows.extend((0..code.offsets.len()).map(|k| (mine.offsets[k], line_of(k))));
        // Where the function ends its lines end: the code after it is
        // another function's.
        if let Some(&last) = mine.offsets.last() {
            rows.push((last + 1, None));
        }
        carried.kept.push(func.name.clone());
    }
    edited.source_lines = SourceLines::from_rows(rows);
    carried
}

/// Every function (imported or defined) by its name.
fn by_name(module: &Module) -> HashMap<&str, Option<FuncIdx>> {
    names::unique(module.funcs.iter().map(|f| f.name.as_str()).zip(0..))
}

/// Whether `mine` (of `edited`) is `theirs` (of `original`) but for where
/// it lies: the same locals, branch tables and instructions. A callee is
/// the same function if it has the same name (`as_original`), and a type
/// the same signature, so a function or import added before others does
/// not change their callers. Globals, tables, memories and segments are
/// compared by index: one added before others changes the functions that
/// use those.
fn same_code(
    mine: &Code,
    theirs: &Code,
    edited: &Module,
    original: &Module,
    as_original: &impl Fn(FuncIdx) -> Option<FuncIdx>,
) -> bool {
    let same = |a: &Instr, b: &Instr| match (a, b) {
        (Instr::Call { func: f }, Instr::Call { func: g })
        | (Instr::RefFunc(f), Instr::RefFunc(g)) => as_original(*f) == Some(*g),
        (
            Instr::CallIndirect {
                type_index: s,
                table: t,
            },
            Instr::CallIndirect {
                type_index: u,
                table: v,
            },
        ) => t == v && edited.types.get(*s as usize) == original.types.get(*u as usize),
        _ => a == b,
    };
    mine.locals == theirs.locals
        && mine.br_tables == theirs.br_tables
        && mine.instrs.len() == theirs.instrs.len()
        && mine
            .instrs
            .iter()
            .zip(&theirs.instrs)
            .all(|(a, b)| same(a, b))
}
