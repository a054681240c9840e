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

from collections.abc import Mapping

from polychess.board import Board, Colour, Move
from polychess.formats.tags import PGN_RESULT, TagPairError, Token, read_tag_pair_text, wrap, write_tag_pair_text
from polychess.game import Game, Reason, Termination
from polychess.notation.san import check_mark, parse_san, san, san_body
from polychess.options import option

__all__ = ["PgnError", "read_pgn", "write_pgn", "san", "parse_san"]

_VARIANT = "standard"
# What PGN's Variant tag calls standard chess besides its name (python-chess, lichess, chess.com).
_VARIANT_NAMES = ("chess", "from position", "normal", "")
_START = Board(_VARIANT).fen()
_ROSTER: tuple[tuple[str, str], ...] = (
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
)
_GLYPHS = {"!", "?", "!!", "??", "!?", "?!", "e.p."}  # words of the movetext that annotate the move before
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
    if game.start_fen != _START or "FEN" in given:
        own.update(SetUp="1", FEN=game.start_fen)
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
    board = Board(_VARIANT, game.start_fen)
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
        text = san_body(board.pieces(), move, legal)
        board.push(move)
        tokens.append(number + text + check_mark(board))
        after_comment = False
    return tokens


# -- reading --------------------------------------------------------------------------------------


def _resolve(board: Board, word: Token) -> Move:
    """The legal move a movetext word stands for (:func:`parse_san`), or a PgnError at its line."""
    try:
        return parse_san(board, word.text)
    except ValueError as error:
        raise PgnError(word.line, str(error)) from None


def _new_game(tags: Mapping[str, str], lines: Mapping[str, int]) -> Game:
    variant = tags.get("Variant", "Standard")
    if variant.strip().lower() not in (_VARIANT_NAMES + (_VARIANT,)):
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
