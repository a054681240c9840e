"""The text of the tag-pair formats, as far as they agree: PGN (:mod:`polychess.formats.pgn`),
chess.com's PGN4 (:mod:`polychess.formats.pgn4`) and polychess's game records
(:mod:`polychess.formats.record`) are all tag pairs (``[Name "value"]``), an empty line and the
movetext.

:func:`read_tag_pair_text` splits such a text into its tags and the tokens of its movetext,
each with its line, and :func:`write_tag_pair_text` writes one. What the formats share is done
here: tag names of letters, digits and '_'; values with the escapes ``\\"`` and ``\\\\`` and no
line break; ``{...}`` comments (which do not nest), ``;`` comments to the end of the line and
``%`` escape lines; NAGs (``$1``); move numbers (``12.``, ``12...``) and the periods between
moves (PGN4's ``..``); the result, which ends the movetext; and the errors: a malformed or
repeated tag, a comment or variation never closed, a bracket that closes nothing, a tag in
the movetext. What a word of the movetext means -- a move, a PGN annotation glyph, a PGN4 slot
token, a record's event -- is the format's own concern, as are its result words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = ["PGN_RESULT", "TagPairError", "TagPairText", "Token", "read_tag_pair_text", "wrap", "write_tag_pair_text"]

PGN_RESULT = re.compile(r"1-0|0-1|1/2-1/2|\*")
_TAG_NAME = r"[A-Za-z0-9_]+"
# The pieces of a text, one per match and in order. A word takes every character that starts
# no other piece, so the pieces cover the whole text.
_PIECE = rf"""
    (?P<space>\s+)
  | (?P<comment>\{{[^}}]*\}}?)  # never closed when the brace is missing
  | (?P<semicolon>;.*)
  | (?P<nag>\$[0-9]*)
  | (?P<tag>\[[ \t]*(?P<name>{_TAG_NAME})[ \t]+"(?P<value>(?:[^"\\\n]|\\.)*)"[ \t]*\])
  | (?P<bracket>\[)  # a '[' that starts no tag
"""
_PIECES = {
    True: re.compile(_PIECE + r"| (?P<open>\() | (?P<close>[)}\]]) | (?P<word>[^\s{}()\[\];$]+)", re.VERBOSE),
    # A format without variations writes words with parentheses in them: mate(red,white).
    False: re.compile(_PIECE + r"| (?P<close>[}\]]) | (?P<word>[^\s{}\[\];$]+)", re.VERBOSE),
}
_OPENING = {")": "(", "}": "{", "]": "["}
_NUMBER = re.compile(r"([0-9]+)([.\u2026]*)(.*)")


class TagPairError(ValueError):
    """A text of a tag-pair format that cannot be read; the message starts with the line:
    ``line 9: illegal move 'Nf6' (white to move)``. Each format raises a subclass of its own."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


@dataclass(frozen=True)
class Token:
    """A token of the movetext and its line: a word (a move, an event, a glyph...), a move
    number (its digits), the text of a comment, or the result."""

    line: int
    kind: Literal["word", "number", "comment", "result"]
    text: str


@dataclass(frozen=True)
class TagPairText:
    """A text split: the tags and their lines, the tokens of the movetext's main line in order,
    and the result that ends it (None when it has none)."""

    tags: dict[str, str]
    tag_lines: dict[str, int]
    tokens: list[Token]
    result: Token | None

    @property
    def last_line(self) -> int:
        """The line of the last word, move number or result; without one, of the last tag."""
        if self.result is not None:
            return self.result.line
        lines = [token.line for token in self.tokens if token.kind != "comment"]
        return lines[-1] if lines else max(self.tag_lines.values(), default=1)


def read_tag_pair_text(
    text: str, error: type[TagPairError], *, results: re.Pattern[str] = PGN_RESULT, variations: bool = True
) -> TagPairText:
    """The tags and the movetext tokens of a text in a tag-pair format. ``results`` matches the
    format's result words. With ``variations``, ``(...)`` is a variation, skipped with all it
    holds; without, parentheses are part of words. Comments in a variation or after the result
    are dropped too. Raises ``error`` naming the line and the problem."""
    source = "\n".join("" if line.startswith("%") else line for line in text.removeprefix("\ufeff").splitlines())
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    tokens: list[Token] = []
    result: Token | None = None
    open_variations: list[int] = []  # the lines of the '(' not closed yet
    in_tags, line = True, 1
    tag_on_this_line: str | None = None  # a tag may be followed on its line by tags and a ';' comment only
    for piece in _PIECES[variations].finditer(source):
        kind, piece_text = piece.lastgroup, piece.group()
        if kind == "space":
            if "\n" in piece_text:
                tag_on_this_line = None
        elif kind == "semicolon":
            pass  # a comment to the end of the line, among the tags too
        elif in_tags and kind == "tag":
            name = piece.group("name")
            if name in tags:
                raise error(line, f"tag {name} given twice")
            tags[name], tag_lines[name] = re.sub(r"\\(.)", r"\1", piece.group("value")), line
            tag_on_this_line = name
        elif in_tags and kind == "bracket":
            raise error(line, f'malformed tag {_rest_of_line(source, piece.start())!r} (expected [Name "value"])')
        elif tag_on_this_line is not None and kind == "close":
            raise error(line, f"'{piece_text}' without '{_OPENING[piece_text]}'")
        elif tag_on_this_line is not None:
            raise error(line, f"unexpected {_rest_of_line(source, piece.start())!r} after tag {tag_on_this_line}")
        else:  # the movetext
            in_tags = False
            if kind in ("tag", "bracket"):
                raise error(
                    line,
                    "the tags of another game (read one game at a time)"
                    if kind == "tag"
                    else "a tag inside the movetext",
                )
            if kind == "close":
                if piece_text != ")" or not open_variations:
                    raise error(line, f"'{piece_text}' without '{_OPENING[piece_text]}'")
                open_variations.pop()
            elif kind == "open":
                open_variations.append(line)
            elif kind == "comment" and not piece_text.endswith("}"):
                raise error(line, "comment '{' is never closed")
            elif kind == "nag" and piece_text == "$":
                raise error(line, "'$' without a number (a NAG is written $1, $2, ...)")
            elif open_variations or kind == "nag":
                pass
            elif kind == "comment":
                if result is None:
                    tokens.append(Token(line, "comment", piece_text[1:-1].strip()))
            else:
                for token in _split_word(piece_text, line, results):
                    if result is not None:
                        raise error(result.line, f"result {result.text} before the end of the movetext")
                    if token.kind == "result":
                        result = token
                    else:
                        tokens.append(token)
        line += piece_text.count("\n")
    if open_variations:
        raise error(open_variations[0], "variation '(' is never closed")
    return TagPairText(tags, tag_lines, tokens, result)


def _rest_of_line(source: str, start: int) -> str:
    end = source.find("\n", start)
    return source[start : end if end >= 0 else len(source)]


def _split_word(word: str, line: int, results: re.Pattern[str]) -> Iterator[Token]:
    """The tokens of one word of the movetext: '12.' and '12' are move numbers, '12...Nf6' a
    move number and a word; periods before a word ('..', '...') are dropped."""
    while word:
        if results.fullmatch(word):
            yield Token(line, "result", word)
            return
        number = _NUMBER.fullmatch(word)
        if number and (number.group(2) or not number.group(3)):
            yield Token(line, "number", number.group(1))
            word = number.group(3)
        elif word[0] in ".\u2026":
            word = word.lstrip(".\u2026")
        else:
            yield Token(line, "word", word)
            return


def write_tag_pair_text(tags: Mapping[str, str], movetext: Iterable[str]) -> str:
    """The text of a record: a ``[Name "value"]`` line per tag, an empty line and the lines of
    the movetext. Raises ``ValueError`` for a tag name of other characters than letters, digits
    and '_', and for a value with a line break, which no reader could take back."""
    lines = []
    for name, value in tags.items():
        if not re.fullmatch(_TAG_NAME, name):
            raise ValueError(f"bad tag name {name!r} (letters, digits and '_' only)")
        text = str(value)  # callers without type checks give numbers too: [Round 3]
        if "".join(text.splitlines()) != text:  # a line break as the reader splits lines
            raise ValueError(f"the value of tag {name} has a line break")
        escaped = text.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{name} "{escaped}"]')
    return "\n".join([*lines, "", *movetext]) + "\n"


def wrap(words: Iterable[str], width: int = 80) -> list[str]:
    """The words joined by spaces into lines of at most ``width`` characters (a longer word gets
    a line of its own), as PGN's export format wraps the movetext."""
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines
