//! A light, readable rendering of SMT-LIB2 bit-vector terms for the node
//! details: `(bvslt arg0 #x00000000)` reads `arg0 <s 0`. Anything it does
//! not know is printed back in prefix form, so no term is lost. Scripts are
//! split into their declarations and assertions, to show a path condition
//! both ways.

enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

/// The term in infix form, or the term itself if it does not parse.
pub fn readable(term: &str) -> String {
    match parse(term) {
        Some(sexp) => show(&sexp, 0),
        None => term.to_string(),
    }
}

fn parse(text: &str) -> Option<Sexp> {
    let mut top = parse_all(text)?;
    (top.len() == 1).then(|| top.pop())?
}

/// The top-level expressions of `text`.
fn parse_all(text: &str) -> Option<Vec<Sexp>> {
    let mut stack: Vec<Vec<Sexp>> = vec![Vec::new()];
    let mut atom = String::new();
    // Inside `|...|`: a quoted symbol, spaces and parentheses included.
    let mut quoted = false;
    let flush = |atom: &mut String, stack: &mut Vec<Vec<Sexp>>| {
        if !atom.is_empty() {
            if let Some(top) = stack.last_mut() {
                top.push(Sexp::Atom(std::mem::take(atom)));
            }
        }
    };
    for c in text.chars() {
        match c {
            _ if quoted => {
                atom.push(c);
                quoted = c != '|';
            }
            '|' => {
                atom.push(c);
                quoted = true;
            }
            '(' => {
                flush(&mut atom, &mut stack);
                stack.push(Vec::new());
            }
            ')' => {
                flush(&mut atom, &mut stack);
                let list = stack.pop()?;
                stack.last_mut()?.push(Sexp::List(list));
            }
            c if c.is_whitespace() => flush(&mut atom, &mut stack),
            c => atom.push(c),
        }
    }
    flush(&mut atom, &mut stack);
    let top = stack.pop()?;
    (stack.is_empty() && !quoted).then_some(top)
}

/// The expression in SMT-LIB's own prefix form.
fn prefix(sexp: &Sexp) -> String {
    match sexp {
        Sexp::Atom(a) => a.clone(),
        Sexp::List(items) => {
            let parts: Vec<String> = items.iter().map(prefix).collect();
            format!("({})", parts.join(" "))
        }
    }
}

/// What a path condition's script declares and asserts, command by command.
#[derive(Debug, Default, PartialEq)]
pub struct Script {
    /// `(declare-fun ...)` and `(declare-const ...)` commands.
    pub declarations: Vec<String>,
    /// The asserted terms.
    pub assertions: Vec<String>,
}

impl Script {
    /// Splits a script; one that does not parse has nothing in it.
    pub fn parse(text: &str) -> Script {
        let mut script = Script::default();
        for command in parse_all(text).unwrap_or_default() {
            let Sexp::List(items) = &command else {
                continue;
            };
            match (items.first(), &items[1..]) {
                (Some(Sexp::Atom(c)), _) if c == "declare-fun" || c == "declare-const" => {
                    script.declarations.push(prefix(&command))
                }
                (Some(Sexp::Atom(c)), [term]) if c == "assert" => {
                    script.assertions.push(prefix(term))
                }
                _ => {}
            }
        }
        script
    }

    /// The conjunction of the assertions, readable; `true` when none.
    pub fn readable(&self) -> String {
        if self.assertions.is_empty() {
            return "true".into();
        }
        let parts: Vec<String> = self.assertions.iter().map(|a| readable(a)).collect();
        parts.join(" && ")
    }

    /// The script again, as the engine writes path conditions.
    pub fn to_smtlib(&self) -> String {
        let mut text = String::from("(set-logic QF_ABV)\n");
        for d in &self.declarations {
            text.push_str(d);
            text.push('\n');
        }
        for a in &self.assertions {
            text.push_str(&format!("(assert {a})\n"));
        }
        text.push_str("(check-sat)\n");
        text
    }
}

/// Binding strength of infix operators; a higher one binds tighter.
fn infix(op: &str) -> Option<(&'static str, u8)> {
    Some(match op {
        "or" => ("||", 1),
        "and" => ("&&", 2),
        "=" => ("==", 3),
        "distinct" => ("!=", 3),
        "bvslt" => ("<s", 4),
        "bvsle" => ("<=s", 4),
        "bvsgt" => (">s", 4),
        "bvsge" => (">=s", 4),
        "bvult" => ("<u", 4),
        "bvule" => ("<=u", 4),
        "bvugt" => (">u", 4),
        "bvuge" => (">=u", 4),
        "bvor" => ("|", 5),
        "bvxor" => ("^", 6),
        "bvand" => ("&", 7),
        "bvshl" => ("<<", 8),
        "bvlshr" => (">>u", 8),
        "bvashr" => (">>s", 8),
        "bvadd" => ("+", 9),
        "bvsub" => ("-", 9),
        "bvmul" => ("*", 10),
        "bvsdiv" => ("/s", 10),
        "bvudiv" => ("/u", 10),
        "bvsrem" => ("%s", 10),
        "bvurem" => ("%u", 10),
        "concat" => ("++", 11),
        _ => return None,
    })
}

/// `outer` is the binding strength of the context; lower-bound terms are
/// parenthesised.
fn show(sexp: &Sexp, outer: u8) -> String {
    let items = match sexp {
        Sexp::Atom(a) => return literal(a),
        Sexp::List(items) => items,
    };
    let args = items.get(1..).unwrap_or_default();
    let text = match items.first() {
        Some(Sexp::Atom(op)) => match (op.as_str(), args) {
            ("not", [Sexp::List(inner)])
                if matches!(inner.first(), Some(Sexp::Atom(o)) if o == "=") && inner.len() == 3 =>
            {
                let (a, b) = (show(&inner[1], 4), show(&inner[2], 4));
                return wrap(format!("{a} != {b}"), 3, outer);
            }
            ("not", [a]) => return format!("!{}", show(a, 12)),
            ("bvneg", [a]) => return format!("-{}", show(a, 12)),
            ("bvnot", [a]) => return format!("~{}", show(a, 12)),
            ("ite", [c, t, e]) => {
                return wrap(
                    format!("{} ? {} : {}", show(c, 1), show(t, 1), show(e, 1)),
                    0,
                    outer,
                )
            }
            (op, [_, _, ..]) if infix(op).is_some() => {
                let Some((symbol, strength)) = infix(op) else {
                    return String::new();
                };
                let parts: Vec<String> = args.iter().map(|a| show(a, strength + 1)).collect();
                return wrap(parts.join(&format!(" {symbol} ")), strength, outer);
            }
            _ => None,
        },
        // Indexed operators: `((_ extract 7 0) x)`, `((_ zero_extend 24) x)`.
        Some(Sexp::List(head)) => match (&head[..], args) {
            ([Sexp::Atom(u), Sexp::Atom(op), Sexp::Atom(hi), Sexp::Atom(lo)], [x])
                if u == "_" && op == "extract" =>
            {
                Some(format!("{}[{hi}:{lo}]", show(x, 12)))
            }
            ([Sexp::Atom(u), Sexp::Atom(op), Sexp::Atom(n)], [x]) if u == "_" => {
                match op.as_str() {
                    "zero_extend" => Some(format!("zext{n}({})", show(x, 0))),
                    "sign_extend" => Some(format!("sext{n}({})", show(x, 0))),
                    _ => None,
                }
            }
            _ => None,
        },
        None => None,
    };
    text.unwrap_or_else(|| {
        let parts: Vec<String> = items.iter().map(|i| show(i, 12)).collect();
        format!("({})", parts.join(" "))
    })
}

fn wrap(text: String, strength: u8, outer: u8) -> String {
    if strength < outer {
        format!("({text})")
    } else {
        text
    }
}

/// `#x0000002a` as `42` and `#xffffffff` as `-1`: inputs are mostly signed.
fn literal(atom: &str) -> String {
    let (digits, radix, bits) = if let Some(hex) = atom.strip_prefix("#x") {
        (hex, 16, hex.len() * 4)
    } else if let Some(bin) = atom.strip_prefix("#b") {
        (bin, 2, bin.len())
    } else {
        return atom.to_string();
    };
    match u128::from_str_radix(digits, radix) {
        Ok(v) if (1..=64).contains(&bits) => {
            if bits > 1 && v >> (bits - 1) == 1 {
                format!("{}", v as i128 - (1i128 << bits))
            } else {
                v.to_string()
            }
        }
        _ => atom.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::{readable, Script};

    #[test]
    fn terms_read_as_infix() {
        let cases = [
            ("(bvslt arg0 #x00000000)", "arg0 <s 0"),
            ("(not (= #x00000000 arg0))", "0 != arg0"),
            ("(= #xffffffff arg0)", "-1 == arg0"),
            (
                "(bvsle #x00000000 (bvadd arg0 #x00000001))",
                "0 <=s arg0 + 1",
            ),
            ("(bvmul (bvadd a b) c)", "(a + b) * c"),
            ("(and (bvult a b) (or p q))", "a <u b && (p || q)"),
            ("(= ((_ extract 7 0) x) #b1)", "x[7:0] == 1"),
            (
                "((_ zero_extend 24) (select mem #x00000010))",
                "zext24((select mem 16))",
            ),
            ("(not p)", "!p"),
            ("(ite c #x01 #x02)", "c ? 1 : 2"),
            ("arg0", "arg0"),
        ];
        for (term, text) in cases {
            assert_eq!(readable(term), text, "{term}");
        }
    }

    #[test]
    fn malformed_terms_come_back_unchanged() {
        for term in ["", "(", ")", "(a b", "a b", "((_ extract) x)", "()"] {
            let _ = readable(term);
        }
        assert_eq!(readable("(bvadd a"), "(bvadd a");
        assert_eq!(readable("a b"), "a b");
        assert_eq!(readable("(= |a (b| x"), "(= |a (b| x");
    }

    #[test]
    fn scripts_split_into_declarations_and_assertions() {
        let text = "(set-logic QF_ABV)\n(declare-fun arg0 () (_ BitVec 32))\n\
            (declare-fun |my buf[0]| () (_ BitVec 8))\n\
            (assert (not (= #x00000000 arg0)))\n(assert (bvslt arg0 #x00000000))\n\
            (assert (= |my buf[0]| #x41))\n(check-sat)\n";
        let script = Script::parse(text);
        assert_eq!(
            script.declarations,
            [
                "(declare-fun arg0 () (_ BitVec 32))",
                "(declare-fun |my buf[0]| () (_ BitVec 8))"
            ]
        );
        assert_eq!(script.assertions.len(), 3);
        assert_eq!(
            script.readable(),
            "0 != arg0 && arg0 <s 0 && |my buf[0]| == 65"
        );
        assert_eq!(script.to_smtlib(), text);
        assert_eq!(Script::parse("(assert").readable(), "true");
    }
}
