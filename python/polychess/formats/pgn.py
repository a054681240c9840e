"""PGN for standard chess: the Portable Game Notation of games played as ``Game("standard")``.

``write_pgn(game, tags)`` writes a game in PGN export format: the Seven Tag Roster (Event,
Site, Date, Round, White, Black, Result), ``SetUp``/``FEN`` when the game did not start from
the standard start position, ``Termination`` (the value of :class:`~polychess.Termination`)
once the game is over, then the moves in Standard Algebraic Notation (``san``), numbered and
wrapped at 80 columns, and the result token. Resignations, time forfeits and agreed draws are
events of the game, not moves: they show in the Result and Termination tags and in a closing
comment (``{White resigns.}``).

``read_pgn(text)`` replays one game -- as written here or by other programs (python-chess,
lichess, chess.com exports) -- into a :class:`~polychess.Game`. It reads the tags, skips
comments (``{...}`` and ``;`` to the end of the line), ``%`` escape lines, NAGs (``$1``),
suffix annotations (``!?``), recursive variations and move numbers, and resolves each move by
comparing it with the SAN of every legal move (so check marks may be missing, ``e.p.`` and
castling with zeros are accepted; over-specified and coordinate moves such as ``Ngf3`` or
``e2e4`` are read too). A result the moves do not bring about is applied as the event it
stands for: 1-0 or 0-1 as the loser's resignation (his time forfeit when the Termination tag
says ``time forfeit``), 1/2-1/2 as an agreed draw. Clocks are not read: the game is untimed.

Only standard chess is covered (no Chess960 or other variants; the three- and four-player
games have :mod:`polychess.formats.record` and :mod:`polychess.formats.pgn4`). The rules are
polychess's (docs/rules.md §3): a threefold repetition, the fifty-move rule and a dead
position end the game at once, so a record whose players played on past one cannot be read.

A record that cannot be read raises :class:`PgnError` (a ``ValueError``), whose message starts
with the line number: ``line 9: illegal move 'Nf6' (white to move)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from polychess.board import Board, Colour, Kind, Move, Piece
from polychess.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from polychess.game import Game, Termination
from polychess.options import option

__all__ = ["PgnError", "read_pgn", "write_pgn", "san", "parse_san"]

_VARIANT = "standard"
_START = Board(_VARIANT).fen()
_ROSTER: tuple[tuple[str, str], ...] = (("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
                                        ("White", "?"), ("Black", "?"))
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_LETTERS: dict[Kind, str] = {Kind.PAWN: "", Kind.KNIGHT: "N", Kind.BISHOP: "B", Kind.ROOK: "R", Kind.QUEEN: "Q",
                             Kind.KING: "K"}
_KINDS: dict[str, Kind] = {letter: kind for kind, letter in _LETTERS.items() if letter}
_EVENT = re.compile(r"^(?:(resign|timeout)\((white|black)\)|draw)$")
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
_TAG = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
_NUMBER = re.compile(r"^([0-9]+)(\.*)(.*)$")
_ANNOTATION = re.compile(r"[!?]+$")
_GLYPHS = {"!", "?", "!!", "??", "!?", "?!", "e.p.", "...", "\u2026"}
_CASTLE = re.compile(r"^[O0o]-[O0o](-[O0o])?$")
# A move in any algebraic form: SAN (also over-specified), long algebraic (Ng1-f3) or coordinates (g1f3).
_LOOSE = re.compile(r"^(?P<piece>[KQRBN])?(?P<file>[a-h])?(?P<rank>[1-8])?(?P<capture>[-x:])?(?P<to>[a-h][1-8])"
                    r"(?:=?(?P<promotion>[QRBNqrbn]))?$")
# Terminations that the moves themselves bring about; a Termination tag naming one is checked.
_EVENTS = (Termination.RESIGNATION, Termination.TIME_FORFEIT, Termination.AGREEMENT)
_AUTOMATIC: dict[str, Termination] = {t.value: t for t in Termination if t not in _EVENTS}
_EVENT_COMMENTS = {"resign": "{side} resigns.", "timeout": "{side} forfeits on time.", "draw": "Draw agreed."}


class PgnError(ValueError):
    """A PGN record that cannot be read; the message names the line and the problem."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


# -- Standard Algebraic Notation ------------------------------------------------------------------

def _san_body(pieces: Mapping[str, Piece], move: Move, legal: Sequence[Move]) -> str:
    """The SAN of a legal move without the check mark. ``pieces`` are the board's pieces by cell
    and ``legal`` its legal moves (for the disambiguation, which only counts legal moves)."""
    origin, target = move.from_cell, move.to_cell
    piece = pieces[origin]
    if piece.kind is Kind.KING and abs(ord(origin[0]) - ord(target[0])) == 2:
        return "O-O" if target[0] > origin[0] else "O-O-O"
    capture = target in pieces or (piece.kind is Kind.PAWN and origin[0] != target[0])  # or en passant
    if piece.kind is Kind.PAWN:
        text = (origin[0] + "x" if capture else "") + target
        return text + ("=" + move.promotion.upper() if move.promotion else "")
    others = {m.from_cell for m in legal
              if m.to_cell == target and m.from_cell != origin and pieces[m.from_cell] == piece}
    text = _LETTERS[piece.kind]
    if others:
        # PGN §8.2.3.4: the file if it tells the pieces apart, else the rank, else both.
        if all(cell[0] != origin[0] for cell in others):
            text += origin[0]
        elif all(cell[1:] != origin[1:] for cell in others):
            text += origin[1:]
        else:
            text += origin
    return text + ("x" if capture else "") + target


def _mark(after: Board) -> str:
    """The check mark of the move that led to ``after``: '#' for mate, '+' for check."""
    if not after.is_check():
        return ""
    return "+" if after.legal_moves else "#"


def san(board: Board, move: Move) -> str:
    """The move in Standard Algebraic Notation on a standard-chess board: ``Nf3``, ``exd6``,
    ``Rad1``, ``N5xe4``, ``Qh4xe1``, ``e8=Q+``, ``O-O-O``, ``Qxf7#``. The board is not changed.
    Raises ``ValueError`` for another variant and :class:`~polychess.IllegalMoveError` for a
    move that is not legal on the board."""
    if board.variant != _VARIANT:
        raise ValueError(f"SAN is for standard chess, not {board.variant}")
    legal = list(board.legal_moves)
    if move not in legal:
        raise IllegalMoveError(f"illegal move {str(move)!r} ({board.turn.value} to move)")
    text = _san_body(board.pieces(), move, legal)
    after = board.copy()
    after.push(move)
    return text + _mark(after)


# -- writing --------------------------------------------------------------------------------------

def _tag_line(name: str, value: str) -> str:
    if not _TAG_NAME.fullmatch(name):
        raise ValueError(f"bad tag name {name!r} (letters, digits and '_' only)")
    if any(c in value for c in "\n\r"):
        raise ValueError(f"the value of tag {name} has a line break")
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def write_pgn(game: Game, tags: Mapping[str, str] | None = None) -> str:
    """The PGN of a standard-chess game.

    The Seven Tag Roster comes first (``?`` and ``????.??.??`` where ``tags`` gives no value),
    then the other ``tags`` in their order, then what the game itself says: ``TimeControl``
    (a timed game, unless ``tags`` has one), ``SetUp`` and ``FEN`` (a game that did not start
    from the standard position, or ``tags`` has a FEN) and ``Termination`` (a finished game,
    unless ``tags`` has one). ``Result``, ``SetUp`` and ``FEN`` come from the game; ``tags``
    giving other values for them raises ``ValueError``, as do a bad tag name and a value with a
    line break.
    """
    if game.variant != _VARIANT:
        raise ValueError(f"PGN is written for standard chess, not {game.variant} (see polychess.formats.record)")
    given = dict(tags or {})
    result = game.result()
    own: dict[str, str] = {"Result": result}
    if game.start_position != _START or "FEN" in given:
        own.update(SetUp="1", FEN=game.start_position)
    elif "SetUp" in given:
        own["SetUp"] = "0"
    for name, value in own.items():
        if name in given and given[name] != value:
            raise ValueError(f"tag {name} {given[name]!r} contradicts the game ({value!r})")
    head = {name: given.get(name, default) for name, default in _ROSTER}
    head["Result"] = result
    head.update((name, value) for name, value in given.items() if name not in head and name not in own)
    if game.options.time_control is not None and "TimeControl" not in head:
        head["TimeControl"] = "+".join(option(name).to_text(getattr(game.options, name))
                                       for name in ("time_control", "increment"))
    head.update((name, value) for name, value in own.items() if name != "Result")
    outcome = game.outcome()
    if outcome is not None and "Termination" not in head:
        head["Termination"] = outcome.termination.value
    lines = [_tag_line(name, str(value)) for name, value in head.items()]
    lines.append("")
    lines.extend(_wrap(_movetext(game) + [result]))
    return "\n".join(lines) + "\n"


def _movetext(game: Game) -> list[str]:
    """The SAN moves (with their move numbers) and comments for the events, replayed from the start
    position: the units that lines are wrapped between."""
    board = Board(_VARIANT, game.start_position)
    tokens: list[str] = []
    after_comment = True  # a Black move opening the movetext or following a comment takes "N..."
    for token in game.history:
        event = _EVENT.match(token)
        if event:
            what = event.group(1) or "draw"
            side = (event.group(2) or "").capitalize()
            tokens.append("{" + _EVENT_COMMENTS[what].format(side=side) + "}")
            after_comment = True
            continue
        move = board.parse_move(token)
        number = ""  # kept on the line of its move
        if board.turn is Colour.WHITE:
            number = f"{board.fullmove_number}. "
        elif after_comment:
            number = f"{board.fullmove_number}... "
        legal = list(board.legal_moves)
        text = _san_body(board.pieces(), move, legal)
        board.push(move)
        tokens.append(number + text + _mark(board))
        after_comment = False
    return tokens


def _wrap(tokens: list[str], width: int = 80) -> list[str]:
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return lines


# -- reading --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Token:
    line: int
    kind: str  # "move", "number" or "result"
    text: str


def _tokenize(text: str) -> tuple[dict[str, str], dict[str, int], list[_Token]]:
    """The tags (with their lines) and the movetext tokens that matter: moves, move numbers and
    the result. Comments, '%' escape lines, NAGs, annotation glyphs and variations are dropped."""
    text = text.removeprefix("\ufeff")
    source = "\n".join("" if line.startswith("%") else line for line in text.splitlines())
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    tokens: list[_Token] = []
    pos, line, n = 0, 1, len(source)

    def skip_space() -> None:
        nonlocal pos, line
        while pos < n and source[pos].isspace():
            line += source[pos] == "\n"
            pos += 1

    def skip_comment() -> None:  # at '{'
        nonlocal pos, line
        end = source.find("}", pos)
        if end < 0:
            raise PgnError(line, "comment '{' is never closed")
        line += source.count("\n", pos, end)
        pos = end + 1

    def skip_line() -> None:  # at ';'
        nonlocal pos
        end = source.find("\n", pos)
        pos = n if end < 0 else end

    skip_space()
    while pos < n and source[pos] == "[":
        match = _TAG.match(source, pos)
        if not match:
            end = source.find("\n", pos)
            raise PgnError(line, f"malformed tag {source[pos:end if end >= 0 else n]!r} (expected [Name \"value\"])")
        name = match.group(1)
        if name in tags:
            raise PgnError(line, f"tag {name} given twice")
        tags[name], tag_lines[name] = re.sub(r"\\(.)", r"\1", match.group(2)), line
        pos = match.end()
        while pos < n and source[pos] in " \t":
            pos += 1
        if pos < n and source[pos] == ";":
            skip_line()
        if pos < n and source[pos] not in "\n[":
            end = source.find("\n", pos)
            raise PgnError(line, f"unexpected {source[pos:end if end >= 0 else n]!r} after tag {name}")
        skip_space()

    while pos < n:
        char = source[pos]
        if char.isspace():
            skip_space()
        elif char == "{":
            skip_comment()
        elif char == ";":
            skip_line()
        elif char == "(":
            start, depth = line, 0
            while True:
                if pos >= n:
                    raise PgnError(start, "variation '(' is never closed")
                c = source[pos]
                if c == "{":
                    skip_comment()
                    continue
                if c == ";":
                    skip_line()
                    continue
                depth += (c == "(") - (c == ")")
                line += c == "\n"
                pos += 1
                if depth == 0:
                    break
        elif char in ")}]":
            opening = {")": "(", "}": "{", "]": "["}[char]
            raise PgnError(line, f"'{char}' without '{opening}'")
        elif char == "[":
            what = "the tags of another game (read_pgn reads one game)" if tokens and tokens[-1].kind == "result" \
                else "a tag inside the movetext"
            raise PgnError(line, what)
        elif char == "$":
            match = re.compile(r"\$[0-9]+").match(source, pos)
            if not match:
                raise PgnError(line, "'$' without a number (a NAG is written $1, $2, ...)")
            pos = match.end()
        else:
            end = pos
            while end < n and not source[end].isspace() and source[end] not in "{}()[];$":
                end += 1
            _words(source[pos:end], line, tokens)
            pos = end
    return tags, tag_lines, tokens


def _words(word: str, line: int, tokens: list[_Token]) -> None:
    """Splits one word of the movetext ('12.', '12...Nf6', 'e4!?', '1-0') into tokens."""
    while word:
        if word in _RESULTS:
            tokens.append(_Token(line, "result", word))
            return
        number = _NUMBER.match(word)
        if number and (number.group(2) or not number.group(3)):
            tokens.append(_Token(line, "number", number.group(1)))
            word = number.group(3)
        elif word.startswith(".") or word.startswith("\u2026"):
            word = word.lstrip(".\u2026")
        elif word in _GLYPHS:
            return
        else:
            tokens.append(_Token(line, "move", word))
            return


def _plain(word: str) -> str:
    """The move of a movetext word without annotations, check marks and 'e.p.'; castling with 'O'."""
    text = word
    while True:
        stripped = _ANNOTATION.sub("", text).rstrip("+#")
        stripped = stripped.removesuffix("e.p.")
        if stripped == text:
            break
        text = stripped
    if _CASTLE.match(text):
        text = "O-O-O" if text.count("-") == 2 else "O-O"
    return text


def parse_san(board: Board, word: str) -> Move:
    """The legal move of a standard-chess board that a move written in SAN stands for: the one
    whose SAN it is, else the only one that fits a looser reading of it (over-specified SAN,
    long algebraic, coordinates); annotations, check marks and ``e.p.`` are skipped.

    Raises :class:`~polychess.InvalidMoveError` for text that is no move,
    :class:`~polychess.AmbiguousMoveError` for one that fits several legal moves and
    :class:`~polychess.IllegalMoveError` for one that fits none.
    """
    if board.variant != _VARIANT:
        raise ValueError(f"SAN is for standard chess, not {board.variant}")
    text = _plain(word)
    legal = list(board.legal_moves)
    pieces = board.pieces()
    by_san = {_san_body(pieces, move, legal): move for move in legal}
    if text in by_san:
        return by_san[text]
    turn = board.turn.value
    if text in ("O-O", "O-O-O"):
        raise IllegalMoveError(f"illegal move {word!r} ({turn} to move: that castling is not allowed here)")
    loose = _LOOSE.match(text)
    if not loose:
        raise InvalidMoveError(f"unknown move text {word!r} (expected SAN such as e4, Nf3, exd5, O-O, e8=Q)")
    letter, file, rank, to = loose.group("piece"), loose.group("file"), loose.group("rank"), loose.group("to")
    promotion = (loose.group("promotion") or "").upper()
    kind = _KINDS[letter] if letter else (None if file and rank else Kind.PAWN)  # None: coordinates, any piece
    marked_capture = loose.group("capture") in ("x", ":")

    def fits(move: Move, promoting: bool = True) -> bool:
        origin, piece = move.from_cell, pieces[move.from_cell]
        if move.to_cell != to or (kind is not None and piece.kind is not kind):
            return False
        if (file and origin[0] != file) or (rank and origin[1:] != rank):
            return False
        if piece.kind is Kind.PAWN and not file and origin[0] != to[0]:
            return False  # a pawn's capture names its file
        capture = to in pieces or (piece.kind is Kind.PAWN and origin[0] != to[0])
        if marked_capture and not capture:
            return False
        return not promoting or (move.promotion or "").upper() == promotion

    found = [move for move in legal if fits(move)]
    if len(found) == 1:
        return found[0]
    if found:
        names = ", ".join(sorted(_san_body(pieces, move, legal) for move in found))
        raise AmbiguousMoveError(f"ambiguous SAN {word!r} ({turn} to move: {names})")
    if not promotion and any(fits(move, promoting=False) for move in legal):
        raise IllegalMoveError(f"illegal move {word!r} ({turn} to move: a pawn reaching the last rank promotes, "
                               f"e.g. {text}=Q)")
    raise IllegalMoveError(f"illegal move {word!r} ({turn} to move)")


def _resolve(board: Board, word: str, line: int) -> Move:
    """The legal move a movetext word stands for (:func:`parse_san`), or a PgnError at its line."""
    try:
        return parse_san(board, word)
    except ValueError as error:
        raise PgnError(line, str(error)) from None


def _new_game(tags: Mapping[str, str], lines: Mapping[str, int]) -> Game:
    variant = tags.get("Variant", "Standard")
    if variant.strip().lower() not in ("standard", "chess", "from position", "normal", ""):
        raise PgnError(lines["Variant"], f"Variant {variant!r} is not standard chess (read_pgn reads standard chess)")
    setup = tags.get("SetUp")
    if setup not in (None, "0", "1"):
        raise PgnError(lines["SetUp"], f"SetUp {setup!r} is neither 0 nor 1")
    if setup == "1" and "FEN" not in tags:
        raise PgnError(lines["SetUp"], "SetUp \"1\" without a FEN tag")
    start = tags["FEN"].strip() if "FEN" in tags and setup != "0" else None
    try:
        return Game(_VARIANT, start=start)
    except ValueError as error:  # the position, as the board judges it
        raise PgnError(lines.get("FEN", 1), f"FEN {start!r}: {error}") from None


def read_pgn(text: str) -> Game:
    """Replays the one game of a PGN text into a standard-chess :class:`~polychess.Game` (see
    the module's description). Raises :class:`PgnError` naming the line and the problem: a
    malformed tag, an unknown, illegal or ambiguous move, moves after the end of the game, a
    Result (tag or token) or Termination that contradicts how the moves end the game."""
    tags, lines, tokens = _tokenize(text)
    if not tags and not tokens:
        raise PgnError(1, "no PGN game in the text")
    stated: str | None = None
    stated_line = 1
    if "Result" in tags:
        stated, stated_line = tags["Result"].strip(), lines["Result"]
        if stated not in _RESULTS:
            raise PgnError(stated_line, f"Result {tags['Result']!r} is not 1-0, 0-1, 1/2-1/2 or *")
    game = _new_game(tags, lines)
    last = tokens[-1].line if tokens else max(lines.values(), default=1)
    for index, token in enumerate(tokens):
        if token.kind == "number":
            continue
        if token.kind == "result":
            if index != len(tokens) - 1:
                raise PgnError(token.line, f"result {token.text} before the end of the movetext")
            if stated is not None and stated != token.text:
                raise PgnError(token.line, f"the movetext ends with {token.text} but the Result tag says {stated}")
            stated, stated_line = token.text, token.line
            continue
        outcome = game.outcome()
        if outcome is not None:
            raise PgnError(token.line, f"the game is over ({outcome.termination.value}, {game.result()}) but the "
                                       f"movetext goes on with {token.text!r}")
        game.push(_resolve(game.board, token.text, token.line))
    _finish(game, stated, stated_line, tags, lines, last)
    return game


def _finish(game: Game, stated: str | None, line: int, tags: Mapping[str, str], lines: Mapping[str, int],
            last: int) -> None:
    """Checks the stated result against the game's end, or applies the event it stands for."""
    termination_tag = tags.get("Termination", "").strip().lower()
    outcome = game.outcome()
    if outcome is not None:
        if stated not in (None, "*") and stated != game.result():
            raise PgnError(line, f"the Result is {stated} but the game ended by {outcome.termination.value} "
                                 f"with {game.result()}")
        expected = _AUTOMATIC.get(termination_tag)
        if expected is not None and expected is not outcome.termination:
            raise PgnError(lines["Termination"], f"Termination {tags['Termination']!r} but the game ended by "
                                                 f"{outcome.termination.value}")
        return
    if termination_tag in _AUTOMATIC:
        raise PgnError(lines["Termination"], f"Termination {tags['Termination']!r} but the moves do not end "
                                             f"the game (line {last})")
    if stated in ("1-0", "0-1"):
        loser = Colour.BLACK if stated == "1-0" else Colour.WHITE
        if termination_tag == Termination.TIME_FORFEIT.value:
            game.time_forfeit(loser)
        else:
            game.resign(loser)
    elif stated == "1/2-1/2":
        game.agree_draw()
