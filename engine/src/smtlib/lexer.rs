//! Splits SMT-LIB2 text into tokens, each with its position and byte span.
//!
//! Only [`TokenKind`] is public (re-exported by the `smtlib` module): it is
//! what an atom of a public [`SExprs`](super::SExprs) is.

use super::error::{Error, Pos};

/// What a token is; an atom of an S-expression is one of the kinds other
/// than the parentheses.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TokenKind {
    LParen,
    RParen,
    /// A simple symbol, or a `|quoted|` one without its bars: both name the
    /// same thing.
    Symbol(String),
    /// A keyword with its leading colon, such as `:named`.
    Keyword(String),
    /// Decimal digits.
    Numeral(String),
    /// `digits.digits`, kept only to be rejected with a clear message.
    Decimal(String),
    /// The digits of a `#x` literal.
    Hex(String),
    /// The digits of a `#b` literal.
    Binary(String),
    /// A string literal with its `""` escapes resolved.
    Str(String),
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Token {
    pub kind: TokenKind,
    pub pos: Pos,
    /// Byte offsets of the token's text.
    pub start: usize,
    pub end: usize,
}

pub struct Lexer<'a> {
    text: &'a str,
    offset: usize,
    pos: Pos,
}

/// Characters of simple symbols and keywords besides letters and digits.
const SYMBOL_PUNCTUATION: &str = "~!@$%^&*_-+=<>.?/";

fn is_symbol_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || SYMBOL_PUNCTUATION.contains(c)
}

/// Characters that end a literal, symbol or keyword.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || "()|\";".contains(c)
}

impl<'a> Lexer<'a> {
    pub fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            offset: 0,
            pos: Pos { line: 1, col: 1 },
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.offset..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.offset += c.len_utf8();
        if c == '\n' {
            self.pos.line += 1;
            self.pos.col = 1;
        } else {
            self.pos.col += 1;
        }
        Some(c)
    }

    /// Consumes characters up to the next delimiter and returns them.
    fn take_word(&mut self) -> &'a str {
        let start = self.offset;
        while self.peek().is_some_and(|c| !is_delimiter(c)) {
            self.bump();
        }
        &self.text[start..self.offset]
    }

    fn skip_blanks_and_comments(&mut self) {
        while let Some(c) = self.peek() {
            if c == ';' {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else if c.is_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    /// The next token, or `None` at the end of the text.
    pub fn next_token(&mut self) -> Result<Option<Token>, Error> {
        self.skip_blanks_and_comments();
        let (start, pos) = (self.offset, self.pos);
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let kind = match c {
            '(' => {
                self.bump();
                TokenKind::LParen
            }
            ')' => {
                self.bump();
                TokenKind::RParen
            }
            '|' => TokenKind::Symbol(self.quoted_symbol(pos)?),
            '"' => TokenKind::Str(self.string_literal(pos)?),
            '#' => self.bit_vector_literal(pos)?,
            ':' => {
                let word = self.take_word();
                if word.len() < 2 || !word[1..].chars().all(is_symbol_char) {
                    return Err(Error::at(pos, format!("bad keyword '{word}'")));
                }
                TokenKind::Keyword(word.to_string())
            }
            '0'..='9' => {
                let word = self.take_word();
                match word.split_once('.') {
                    None if word.chars().all(|c| c.is_ascii_digit()) => {
                        TokenKind::Numeral(word.to_string())
                    }
                    Some((whole, frac))
                        if !frac.is_empty()
                            && whole
                                .chars()
                                .chain(frac.chars())
                                .all(|c| c.is_ascii_digit()) =>
                    {
                        TokenKind::Decimal(word.to_string())
                    }
                    _ => return Err(Error::at(pos, format!("bad numeral '{word}'"))),
                }
            }
            c if is_symbol_char(c) => {
                let word = self.take_word();
                if let Some(bad) = word.chars().find(|&c| !is_symbol_char(c)) {
                    return Err(Error::at(
                        pos,
                        format!("unexpected character {bad:?} in symbol '{word}'"),
                    ));
                }
                TokenKind::Symbol(word.to_string())
            }
            c => return Err(Error::at(pos, format!("unexpected character {c:?}"))),
        };
        Ok(Some(Token {
            kind,
            pos,
            start,
            end: self.offset,
        }))
    }

    fn quoted_symbol(&mut self, pos: Pos) -> Result<String, Error> {
        self.bump();
        let start = self.offset;
        loop {
            match self.bump() {
                Some('|') => return Ok(self.text[start..self.offset - 1].to_string()),
                Some(_) => {}
                None => {
                    return Err(Error::incomplete(
                        pos,
                        "unterminated quoted symbol: '|' opened here is never closed",
                    ))
                }
            }
        }
    }

    fn string_literal(&mut self, pos: Pos) -> Result<String, Error> {
        self.bump();
        let mut content = String::new();
        loop {
            match self.bump() {
                // `""` inside a string stands for one `"`.
                Some('"') if self.peek() == Some('"') => {
                    self.bump();
                    content.push('"');
                }
                Some('"') => return Ok(content),
                Some(c) => content.push(c),
                None => {
                    return Err(Error::incomplete(
                        pos,
                        "unterminated string literal: '\"' opened here is never closed",
                    ))
                }
            }
        }
    }

    fn bit_vector_literal(&mut self, pos: Pos) -> Result<TokenKind, Error> {
        let word = self.take_word();
        let bad = || Error::at(pos, format!("bad literal '{word}'"));
        if let Some(digits) = word.strip_prefix("#x") {
            if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
                return Err(bad());
            }
            Ok(TokenKind::Hex(digits.to_string()))
        } else if let Some(digits) = word.strip_prefix("#b") {
            if digits.is_empty() || !digits.chars().all(|c| c == '0' || c == '1') {
                return Err(bad());
            }
            Ok(TokenKind::Binary(digits.to_string()))
        } else {
            Err(bad())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Result<Vec<TokenKind>, Error> {
        let mut lexer = Lexer::new(text);
        let mut out = Vec::new();
        while let Some(t) = lexer.next_token()? {
            out.push(t.kind);
        }
        Ok(out)
    }

    fn sym(s: &str) -> TokenKind {
        TokenKind::Symbol(s.to_string())
    }

    #[test]
    fn every_token_kind() {
        use TokenKind::*;
        let got =
            kinds("(bvadd x #x0F #b101 12 1.5 :named |a b| \"say \"\"hi\"\"\") ; done").unwrap();
        assert_eq!(
            got,
            vec![
                LParen,
                sym("bvadd"),
                sym("x"),
                Hex("0F".into()),
                Binary("101".into()),
                Numeral("12".into()),
                Decimal("1.5".into()),
                Keyword(":named".into()),
                sym("a b"),
                Str("say \"hi\"".into()),
                RParen,
            ]
        );
    }

    #[test]
    fn positions_count_lines_and_characters() {
        let mut lexer = Lexer::new("; comment\n  (|ü\nx| y)");
        let open = lexer.next_token().unwrap().unwrap();
        assert_eq!(open.pos, Pos { line: 2, col: 3 });
        let quoted = lexer.next_token().unwrap().unwrap();
        assert_eq!(quoted.kind, sym("ü\nx"));
        let y = lexer.next_token().unwrap().unwrap();
        assert_eq!(y.pos, Pos { line: 3, col: 4 });
        assert_eq!(&"; comment\n  (|ü\nx| y)"[y.start..y.end], "y");
    }

    #[test]
    fn malformed_tokens_are_errors_with_positions() {
        let err = |text: &str| kinds(text).unwrap_err().to_string();
        assert_eq!(err("(x #xZZ)"), "1:4: bad literal '#xZZ'");
        assert_eq!(err("#b"), "1:1: bad literal '#b'");
        assert_eq!(err("#o17"), "1:1: bad literal '#o17'");
        assert_eq!(err("\n 5x"), "2:2: bad numeral '5x'");
        assert_eq!(
            err(" |abc"),
            "1:2: unterminated quoted symbol: '|' opened here is never closed"
        );
        assert!(err("\"abc").starts_with("1:1: unterminated string literal"));
        assert_eq!(
            err("a\\b"),
            "1:1: unexpected character '\\\\' in symbol 'a\\b'"
        );
        assert_eq!(err("\u{1}"), "1:1: unexpected character '\\u{1}'");
        assert_eq!(err(": x"), "1:1: bad keyword ':'");
    }

    #[test]
    fn only_unterminated_tokens_are_incomplete() {
        let incomplete = |text: &str| kinds(text).unwrap_err().is_incomplete();
        assert!(incomplete("|a (b"));
        assert!(incomplete("(error \"x (\n"));
        assert!(!incomplete("#xZZ"));
        assert!(!incomplete("a\\b"));
    }
}
