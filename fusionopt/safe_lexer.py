"""xDSL's MLIR lexer with two fixes; `LocatingParser` (fusionopt/locations.py) lexes with it."""

from __future__ import annotations

import re

from xdsl.utils.lexer import Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind


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
        token = super()._lex_string_literal(start_pos)
        if token.kind == MLIRTokenKind.BYTES_LIT:
            try:
                token.span.bytes_contents.decode("utf-8")
            except UnicodeDecodeError:
                return token
            return Token(MLIRTokenKind.STRING_LIT, token.span)
        return token
