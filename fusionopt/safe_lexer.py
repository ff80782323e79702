"""xDSL's MLIR lexer with two fixes and a fast path for plain string literals;
`LocatingParser` (fusionopt/locations.py) lexes with it."""

from __future__ import annotations

import re

from xdsl.utils.lexer import Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind, StringLiteral

# Characters a string literal holds only escaped, or not at all (xDSL's pattern below).
_NOT_PLAIN = ("\\", "\n", "\v", "\f")


class SafeLexer(MLIRLexer):
    """xDSL's lexer with a linear-time string-literal pattern (xDSL's `(?:[^"...]+|...)*"`
    backtracks exponentially on an unterminated string: a long line hangs the parser;
    possessive quantifiers accept exactly the same strings), and with escaped UTF-8 text
    lexed as a string literal."""

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')

    def _lex_string_literal(self, start_pos):
        """A literal whose escapes spell UTF-8 text is a string, as in MLIR (xDSL makes every
        escaped non-ASCII byte a bytes literal). The printer escapes each non-ASCII byte, so
        without this `"\\EF\\BB\\BF"` (U+FEFF) read back as a `BytesAttr`: a different attribute,
        and not a name at all as a dictionary key or a string property."""
        token = self._lex_plain_string_literal(start_pos)
        if token is not None:
            return token
        token = super()._lex_string_literal(start_pos)
        if token.kind == MLIRTokenKind.BYTES_LIT:
            try:
                token.span.bytes_contents.decode("utf-8")
            except UnicodeDecodeError:
                return token
            return Token(MLIRTokenKind.STRING_LIT, token.span)
        return token

    def _lex_plain_string_literal(self, start_pos):
        """A literal without escapes up to the next quote, found with `str.find` (the pattern
        costs ~5 ns a character: half a second on a model's tens of MB of hex weights);
        None when the literal has an escape, a newline or no end (the pattern decides)."""
        content = self.input.content
        end = content.find('"', start_pos + 1)
        if end < 0 or any(content.find(c, start_pos + 1, end) >= 0 for c in _NOT_PLAIN):
            return None
        self.pos = end + 1
        return Token(MLIRTokenKind.STRING_LIT, StringLiteral(start_pos, self.pos, self.input))
