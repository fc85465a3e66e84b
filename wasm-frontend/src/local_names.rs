//! The names of functions' locals (their parameters first), which the
//! engine gives an entry's parameters as its inputs' names: from the `name`
//! section's local names, else from DWARF's formal parameters. Only names
//! that can be symbols are kept: C-like identifiers that SMT-LIB does not
//! reserve.

use std::collections::HashMap;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalNames(HashMap<(u32, u32), String>);

impl LocalNames {
    /// Names local `local` of function `func` `name`, unless it has a name
    /// already (the first source wins) or `name` cannot be a symbol.
    pub(crate) fn add(&mut self, func: u32, local: u32, name: &str) {
        if is_symbol(name) {
            self.0
                .entry((func, local))
                .or_insert_with(|| name.to_string());
        }
    }

    pub fn get(&self, func: u32, local: u32) -> Option<&str> {
        self.0.get(&(func, local)).map(String::as_str)
    }
}

/// Words a symbol cannot be: SMT-LIB's reserved words, and the functions
/// of the theories the engine's formulas use, which a constant of the same
/// name would shadow.
const RESERVED: &[&str] = &[
    "_",
    "as",
    "let",
    "exists",
    "forall",
    "match",
    "par",
    "NUMERAL",
    "DECIMAL",
    "STRING",
    "BINARY",
    "HEXADECIMAL",
    "true",
    "false",
    "not",
    "and",
    "or",
    "xor",
    "ite",
    "distinct",
    "select",
    "store",
    "concat",
    "extract",
    "repeat",
    "zero_extend",
    "sign_extend",
    "rotate_left",
    "rotate_right",
    "bvnot",
    "bvand",
    "bvor",
    "bvneg",
    "bvadd",
    "bvmul",
    "bvudiv",
    "bvurem",
    "bvshl",
    "bvlshr",
    "bvult",
    "bvnand",
    "bvnor",
    "bvxor",
    "bvxnor",
    "bvcomp",
    "bvsub",
    "bvsdiv",
    "bvsrem",
    "bvsmod",
    "bvashr",
    "bvule",
    "bvugt",
    "bvuge",
    "bvslt",
    "bvsle",
    "bvsgt",
    "bvsge",
];

/// A C-like identifier (letters, digits and `_`, not starting with a
/// digit) that is not reserved.
fn is_symbol(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !RESERVED.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_identifiers_that_can_be_symbols_are_names() {
        for name in ["x", "n", "_", "_len", "buf2", "Key", "bv", "bvec"] {
            assert_eq!(is_symbol(name), name != "_", "{name}");
        }
        for name in [
            "", "0x", "9", "my-var", "a.b", "x#2", "é", "true", "let", "ite", "select", "store",
            "bvadd", "bvslt", "concat",
        ] {
            assert!(!is_symbol(name), "{name}");
        }
    }

    #[test]
    fn the_first_name_given_stays() {
        let mut names = LocalNames::default();
        names.add(3, 0, "from-section");
        names.add(3, 0, "x");
        names.add(3, 0, "y");
        assert_eq!(names.get(3, 0), Some("x"));
        assert_eq!(names.get(3, 1), None);
    }
}
