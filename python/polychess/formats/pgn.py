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

from polychess.board import Board, Colour, Kind, Move, Piece
from polychess.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from polychess.formats.tags import PGN_RESULT, TagPairError, Token, read_tag_pair_text, wrap, write_tag_pair_text
from polychess.game import Game, Reason, Termination
from polychess.options import option

__all__ = ["PgnError", "read_pgn", "write_pgn", "san", "parse_san"]

_VARIANT = "standard"
_START = Board(_VARIANT).fen()
_ROSTER: tuple[tuple[str, str], ...] = (
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
)
# SAN's piece letters: none for a pawn.
_LETTERS: dict[Kind, str] = {kind: "" if kind == Kind.PAWN else kind.letter for kind in Kind}
_KINDS: dict[str, Kind] = {letter: kind for kind, letter in _LETTERS.items() if letter}
_ANNOTATION = re.compile(r"[!?]+$")
_GLYPHS = {"!", "?", "!!", "??", "!?", "?!", "e.p."}  # words of the movetext that annotate the move before
_CASTLE = re.compile(r"^[O0o]-[O0o](-[O0o])?$")
# A move in any algebraic form: SAN (also over-specified), long algebraic (Ng1-f3) or coordinates (g1f3).
_LOOSE = re.compile(
    r"^(?P<piece>[KQRBN])?(?P<file>[a-h])?(?P<rank>[1-8])?(?P<capture>[-x:])?(?P<to>[a-h][1-8])"
    r"(?:=?(?P<promotion>[QRBNqrbn]))?$"
)
# Terminations that the moves themselves bring about; a Termination tag naming one is checked.
_EVENTS = (Termination.RESIGNATION, Termination.TIME_FORFEIT, Termination.AGREEMENT)
_AUTOMATIC: dict[str, Termination] = {t.value: t for t in Termination if t not in _EVENTS}
# The comments that write the steps that are no moves (None: a draw agreed).
_EVENT_COMMENTS = {
    Reason.RESIGNATION: "{side} resigns.",
    Reason.TIME_FORFEIT: "{side} forfeits on time.",
    None: "Draw agreed.",
}


class PgnError(TagPairError):
    """A PGN record that cannot be read; the message names the line and the problem."""


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
    others = {
        m.from_cell for m in legal if m.to_cell == target and m.from_cell != origin and pieces[m.from_cell] == piece
    }
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
        head["TimeControl"] = "+".join(
            option(name).to_text(getattr(game.options, name)) for name in ("time_control", "increment")
        )
    head.update((name, value) for name, value in own.items() if name != "Result")
    outcome = game.outcome()
    if outcome is not None and "Termination" not in head:
        head["Termination"] = outcome.termination.value
    return write_tag_pair_text(head, wrap(_movetext(game) + [result]))


def _movetext(game: Game) -> list[str]:
    """The SAN moves (with their move numbers) and comments for the events, replayed from the start
    position: the units that lines are wrapped between."""
    board = Board(_VARIANT, game.start_position)
    tokens: list[str] = []
    after_comment = True  # a Black move opening the movetext or following a comment takes "N..."
    for step in game.steps:
        move = step.move
        if move is None:  # a resignation, a time forfeit or a draw agreed
            side = "" if step.player is None else step.player.value.capitalize()
            tokens.append("{" + _EVENT_COMMENTS[step.reason].format(side=side) + "}")
            after_comment = True
            continue
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


# -- reading --------------------------------------------------------------------------------------


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
        raise IllegalMoveError(
            f"illegal move {word!r} ({turn} to move: a pawn reaching the last rank promotes, e.g. {text}=Q)"
        )
    raise IllegalMoveError(f"illegal move {word!r} ({turn} to move)")


def _resolve(board: Board, word: Token) -> Move:
    """The legal move a movetext word stands for (:func:`parse_san`), or a PgnError at its line."""
    try:
        return parse_san(board, word.text)
    except ValueError as error:
        raise PgnError(word.line, str(error)) from None


def _new_game(tags: Mapping[str, str], lines: Mapping[str, int]) -> Game:
    variant = tags.get("Variant", "Standard")
    if variant.strip().lower() not in ("standard", "chess", "from position", "normal", ""):
        raise PgnError(lines["Variant"], f"Variant {variant!r} is not standard chess (read_pgn reads standard chess)")
    setup = tags.get("SetUp")
    if setup not in (None, "0", "1"):
        raise PgnError(lines["SetUp"], f"SetUp {setup!r} is neither 0 nor 1")
    if setup == "1" and "FEN" not in tags:
        raise PgnError(lines["SetUp"], 'SetUp "1" without a FEN tag')
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
    read = read_tag_pair_text(text, PgnError)
    tags, lines, result = read.tags, read.tag_lines, read.result
    tokens = [token for token in read.tokens if token.kind != "comment" and token.text not in _GLYPHS]
    if not tags and not tokens and result is None:
        raise PgnError(1, "no PGN game in the text")
    stated: str | None = None
    stated_line = 1
    if "Result" in tags:
        stated, stated_line = tags["Result"].strip(), lines["Result"]
        if not PGN_RESULT.fullmatch(stated):
            raise PgnError(stated_line, f"Result {tags['Result']!r} is not 1-0, 0-1, 1/2-1/2 or *")
    game = _new_game(tags, lines)
    for token in tokens:
        if token.kind == "number":
            continue
        outcome = game.outcome()
        if outcome is not None:
            raise PgnError(
                token.line,
                f"the game is over ({outcome.termination.value}, {game.result()}) but the "
                f"movetext goes on with {token.text!r}",
            )
        game.push(_resolve(game.board, token))
    if result is not None:
        if stated is not None and stated != result.text:
            raise PgnError(result.line, f"the movetext ends with {result.text} but the Result tag says {stated}")
        stated, stated_line = result.text, result.line
    _finish(game, stated, stated_line, tags, lines, read.last_line)
    return game


def _finish(
    game: Game, stated: str | None, line: int, tags: Mapping[str, str], lines: Mapping[str, int], last: int
) -> None:
    """Checks the stated result against the game's end, or applies the event it stands for."""
    termination_tag = tags.get("Termination", "").strip().lower()
    outcome = game.outcome()
    if outcome is not None:
        if stated not in (None, "*") and stated != game.result():
            raise PgnError(
                line, f"the Result is {stated} but the game ended by {outcome.termination.value} with {game.result()}"
            )
        expected = _AUTOMATIC.get(termination_tag)
        if expected is not None and expected is not outcome.termination:
            raise PgnError(
                lines["Termination"],
                f"Termination {tags['Termination']!r} but the game ended by {outcome.termination.value}",
            )
        return
    if termination_tag in _AUTOMATIC:
        raise PgnError(
            lines["Termination"], f"Termination {tags['Termination']!r} but the moves do not end the game (line {last})"
        )
    if stated in ("1-0", "0-1"):
        loser = Colour.BLACK if stated == "1-0" else Colour.WHITE
        if termination_tag == Termination.TIME_FORFEIT.value:
            game.time_forfeit(loser)
        else:
            game.resign(loser)
    elif stated == "1/2-1/2":
        game.agree_draw()
