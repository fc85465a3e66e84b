//! Groups tokens into S-expressions, one top-level command at a time.
//!
//! The S-expressions of a command live in a flat arena: building, reading and
//! dropping them never recurses, however deeply the input nests.
//!
//! [`Reader`], [`SExprs`] and [`SExprId`] are public (re-exported by the
//! `smtlib` module) so that the tests read z3's answers with the same reader
//! as our own scripts, rather than with a second parser of their own.

use super::error::{Error, Pos};
use super::lexer::{Lexer, Token, TokenKind};
use std::ops::Range;

/// Index of an S-expression in its [`SExprs`] arena.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SExprId(u32);

#[derive(Clone, Debug)]
enum Shape {
    Atom(TokenKind),
    /// The list's elements are `SExprs::elements[range]`.
    List(Range<usize>),
}

#[derive(Clone, Debug)]
struct Node {
    shape: Shape,
    pos: Pos,
    span: Range<usize>,
}

/// The S-expressions of one command (or one top-level S-expression), over
/// the text they came from.
pub struct SExprs<'a> {
    text: &'a str,
    nodes: Vec<Node>,
    elements: Vec<SExprId>,
}

/// Longest piece of source text quoted in a message.
const SNIPPET_CHARS: usize = 60;

impl<'a> SExprs<'a> {
    pub fn pos(&self, id: SExprId) -> Pos {
        self.nodes[id.0 as usize].pos
    }

    /// The source text of `id`, exactly as written.
    pub fn text(&self, id: SExprId) -> &'a str {
        &self.text[self.nodes[id.0 as usize].span.clone()]
    }

    /// The source text of `id` for an error message, shortened when long.
    pub fn snippet(&self, id: SExprId) -> String {
        let text = self.text(id);
        match text.char_indices().nth(SNIPPET_CHARS) {
            Some((cut, _)) => format!("{}...", &text[..cut]),
            None => text.to_string(),
        }
    }

    pub fn atom(&self, id: SExprId) -> Option<&TokenKind> {
        match &self.nodes[id.0 as usize].shape {
            Shape::Atom(kind) => Some(kind),
            Shape::List(_) => None,
        }
    }

    /// The token of an atom; `None` for a list.
    /// The elements of a list; `None` for an atom.
    pub fn list(&self, id: SExprId) -> Option<&[SExprId]> {
        match &self.nodes[id.0 as usize].shape {
            Shape::Atom(_) => None,
            Shape::List(range) => Some(&self.elements[range.clone()]),
        }
    }

    pub fn symbol(&self, id: SExprId) -> Option<&str> {
        match self.atom(id) {
            Some(TokenKind::Symbol(s)) => Some(s),
            _ => None,
        }
    }

    pub fn keyword(&self, id: SExprId) -> Option<&str> {
        match self.atom(id) {
            Some(TokenKind::Keyword(k)) => Some(k),
            _ => None,
        }
    }

    /// A numeral that fits in a `u64`.
    pub fn numeral(&self, id: SExprId) -> Option<u64> {
        match self.atom(id) {
            Some(TokenKind::Numeral(digits)) => digits.parse().ok(),
            _ => None,
        }
    }

    /// The symbol at `id`, or an error saying `what` was expected.
    pub fn expect_symbol(&self, id: SExprId, what: &str) -> Result<&str, Error> {
        self.symbol(id).ok_or_else(|| {
            Error::at(
                self.pos(id),
                format!("expected {what}, got '{}'", self.snippet(id)),
            )
        })
    }

    /// The list at `id`, or an error saying `what` was expected.
    pub fn expect_list(&self, id: SExprId, what: &str) -> Result<&[SExprId], Error> {
        self.list(id).ok_or_else(|| {
            Error::at(
                self.pos(id),
                format!("expected {what}, got '{}'", self.snippet(id)),
            )
        })
    }

    fn push(&mut self, shape: Shape, pos: Pos, span: Range<usize>) -> SExprId {
        let id = SExprId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 S-expressions"));
        self.nodes.push(Node { shape, pos, span });
        id
    }
}

/// Reads the commands of a script, or any top-level S-expressions, one by
/// one.
pub struct Reader<'a> {
    text: &'a str,
    lexer: Lexer<'a>,
}

/// A list opened but not yet closed.
struct OpenList {
    pos: Pos,
    start: usize,
    /// Where the list's elements begin on the pending stack.
    first_element: usize,
}

impl<'a> Reader<'a> {
    /// A reader of `text` from its start.
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text,
            lexer: Lexer::new(text),
        }
    }

    /// The next command as a parenthesised S-expression, or `None` at the
    /// end of the text.
    pub fn next_command(&mut self) -> Result<Option<(SExprs<'a>, SExprId)>, Error> {
        let Some((sx, id)) = self.next_expr()? else {
            return Ok(None);
        };
        if sx.list(id).is_none() {
            return Err(Error::at(
                sx.pos(id),
                format!("expected a command in parentheses, got '{}'", sx.text(id)),
            ));
        }
        Ok(Some((sx, id)))
    }

    /// The next S-expression, atom or list, or `None` at the end of the text.
    /// When the text ends inside it, the error
    /// [is incomplete](Error::is_incomplete).
    pub fn next_expr(&mut self) -> Result<Option<(SExprs<'a>, SExprId)>, Error> {
        let mut sx = SExprs {
            text: self.text,
            nodes: Vec::new(),
            elements: Vec::new(),
        };
        let mut open: Vec<OpenList> = Vec::new();
        // Finished elements of the lists in `open`, innermost last.
        let mut pending: Vec<SExprId> = Vec::new();
        loop {
            let Some(Token {
                kind,
                pos,
                start,
                end,
            }) = self.lexer.next_token()?
            else {
                return match open.first() {
                    None => Ok(None),
                    Some(outermost) => Err(Error::incomplete(
                        outermost.pos,
                        "unbalanced parentheses: '(' opened here is never closed",
                    )),
                };
            };
            let finished = match kind {
                TokenKind::LParen => {
                    open.push(OpenList {
                        pos,
                        start,
                        first_element: pending.len(),
                    });
                    continue;
                }
                TokenKind::RParen => {
                    let Some(list) = open.pop() else {
                        return Err(Error::at(
                            pos,
                            "unbalanced parentheses: ')' has no matching '('",
                        ));
                    };
                    let first = sx.elements.len();
                    sx.elements.extend(pending.drain(list.first_element..));
                    sx.push(
                        Shape::List(first..sx.elements.len()),
                        list.pos,
                        list.start..end,
                    )
                }
                kind => sx.push(Shape::Atom(kind), pos, start..end),
            };
            if open.is_empty() {
                return Ok(Some((sx, finished)));
            }
            pending.push(finished);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str) -> Result<Vec<String>, Error> {
        let mut reader = Reader::new(text);
        let mut out = Vec::new();
        while let Some((sx, id)) = reader.next_command()? {
            out.push(sx.text(id).to_string());
        }
        Ok(out)
    }

    #[test]
    fn commands_are_read_one_at_a_time_with_their_text() {
        let got = read_all("(a (b c)) ; note\n(d)").unwrap();
        assert_eq!(got, vec!["(a (b c))", "(d)"]);
        let mut reader = Reader::new("(f (g x) \"s\")");
        let (sx, root) = reader.next_command().unwrap().unwrap();
        let items = sx.list(root).unwrap();
        assert_eq!(items.len(), 3);
        assert_eq!(sx.symbol(items[0]), Some("f"));
        assert_eq!(sx.text(items[1]), "(g x)");
        assert_eq!(sx.pos(items[1]), Pos { line: 1, col: 4 });
        assert_eq!(sx.atom(items[2]), Some(&TokenKind::Str("s".into())));
    }

    #[test]
    fn unbalanced_parentheses_in_both_directions() {
        assert_eq!(
            read_all("(a)\n(b (c)").unwrap_err().to_string(),
            "2:1: unbalanced parentheses: '(' opened here is never closed"
        );
        assert_eq!(
            read_all("(a))").unwrap_err().to_string(),
            "1:4: unbalanced parentheses: ')' has no matching '('"
        );
        assert_eq!(
            read_all("  x").unwrap_err().to_string(),
            "1:3: expected a command in parentheses, got 'x'"
        );
    }

    #[test]
    fn any_expression_reads_atoms_at_the_top_level() {
        let text = "sat\n((x #x2a)\n (|a (b| \"c)\"))";
        let mut reader = Reader::new(text);
        let (sx, sat) = reader.next_expr().unwrap().unwrap();
        assert_eq!(sx.symbol(sat), Some("sat"));
        assert_eq!(sx.pos(sat), Pos { line: 1, col: 1 });
        let (sx, pairs) = reader.next_expr().unwrap().unwrap();
        let pairs = sx.list(pairs).unwrap();
        assert_eq!(pairs.len(), 2);
        assert_eq!(sx.text(pairs[1]), "(|a (b| \"c)\")");
        assert_eq!(sx.symbol(sx.list(pairs[1]).unwrap()[0]), Some("a (b"));
        assert!(reader.next_expr().unwrap().is_none());
    }

    /// The first error reading every expression of `text`.
    fn first_error(text: &str) -> Error {
        let mut reader = Reader::new(text);
        loop {
            match reader.next_expr() {
                Ok(Some(_)) => {}
                Ok(None) => panic!("{text:?} reads without error"),
                Err(e) => return e,
            }
        }
    }

    #[test]
    fn text_ending_inside_an_expression_is_incomplete() {
        for text in ["((x #x2a)\n", "(error \"a (", "((|x ", "(a (b))\n(c"] {
            let error = first_error(text);
            assert!(error.is_incomplete(), "{text:?}: {error}");
        }
        for text in ["(a))", ")", "(#xZZ", "x )"] {
            let error = first_error(text);
            assert!(!error.is_incomplete(), "{text:?}: {error}");
        }
    }

    #[test]
    fn deep_nesting_needs_no_recursion() {
        let depth = 200_000;
        let text = format!("{}x{}", "(".repeat(depth), ")".repeat(depth));
        assert_eq!(read_all(&text).unwrap().len(), 1);
        let unclosed = "(".repeat(depth);
        assert!(read_all(&unclosed).is_err());
    }
}
