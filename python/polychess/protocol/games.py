"""What a protocol session plays, and its positions and moves as the protocols write them.

Every game is chosen by one name, as ``polychess uci --variant`` and the ``UCI_Variant``
option take it (:data:`GAME_KINDS`). A position is ``startpos`` or ``fen <text>``, then
``moves ...``: standard chess takes FEN, four-player chess chess.com's FEN4 or polychess's own
position string, three-player chess polychess's position string (docs/position-strings.md).
Moves are written as polychess writes them (docs/rules.md §4.2: ``e2e4``, ``E2E4``, ``h2h3``,
``e10e11q``) and read in the other spellings engines use (``h2-h3``, ``e10-e11=Q``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from polychess.board import Board, Colour
from polychess.catalogue import KINDS, GameKind, kind_of
from polychess.deprecation import warn_renamed
from polychess.errors import InvalidPositionError
from polychess.formats.fen4 import Fen4Error, read_fen4, write_fen4
from polychess.game import Game

__all__ = [
    "GAME_KINDS",
    "GameKind",
    "Position",
    "PositionError",
    "game_kind",
    "parse_position",
    "position_arguments",
    "read_position",
]


class PositionError(ValueError):
    """A ``position`` command that names no position of the game played."""


GAME_KINDS: dict[str, GameKind] = {k.name: k for k in KINDS}


def game_kind(variant: str, mode: str | None = None, setup: str | None = None) -> GameKind:
    """Deprecated: :func:`polychess.catalogue.kind_of`, which takes the same names."""
    warn_renamed("polychess.protocol.games.game_kind", "polychess.catalogue.kind_of")
    return kind_of(variant, mode, setup)


@dataclass(frozen=True)
class Position:
    """A ``position`` command's arguments, read: the start as a polychess position string
    (None: the game's start position), the points it gives, and the moves after it."""

    start: str | None
    points: dict[Colour, int] | None
    moves: tuple[str, ...]

    def game(self, kind: GameKind, **options: Any) -> Game:
        """The game of this kind and ``options`` after the moves, each played by the rules;
        :class:`PositionError` names the move that cannot be played."""
        try:
            game = Game.from_kind(kind, self.start, self.points, **options)
        except InvalidPositionError as error:
            raise PositionError(f"bad position: {error}") from None
        except ValueError as error:
            raise PositionError(str(error)) from None
        for number, text in enumerate(self.moves, 1):
            outcome = game.outcome()
            if outcome is not None:
                raise PositionError(f"move {number} {text!r}: the game is over ({outcome.termination.value})")
            try:
                game.push(text)
            except ValueError as error:
                raise PositionError(f"move {number} {text!r}: {error}") from None
        return game


def parse_position(kind: GameKind, arguments: Sequence[str]) -> Position:
    """``startpos`` or ``fen <text>`` (FEN, FEN4 or a polychess position string), then
    optionally ``moves m1 m2 ...``; a bare position string is read as ``fen`` (as opening files
    hold them). Raises :class:`PositionError` naming what cannot be read."""
    words = list(arguments)
    moves_at = words.index("moves") if "moves" in words else len(words)
    head, moves = words[:moves_at], tuple(words[moves_at + 1 :])
    if head == ["startpos"]:
        return Position(None, None, moves)
    if head[:1] == ["fen"]:
        head = head[1:]
    if not head:
        raise PositionError("expected 'startpos' or 'fen <position>', then optionally 'moves ...'")
    text = " ".join(head)
    if kind.record_format.name == "pgn4" and text[:2].upper() in ("R-", "B-", "Y-", "G-"):  # a FEN4
        try:
            fen4 = read_fen4(text, mode=kind.mode or "teams", setup=kind.setup)
        except Fen4Error as error:
            raise PositionError(f"bad FEN4: {error}") from None
        points = {c: n for c, n in fen4.points.items() if n} if kind.rules.ranking == "points" else None
        return Position(fen4.board.fen(), points or None, moves)
    return Position(text, None, moves)


def read_position(kind: GameKind, arguments: Sequence[str]) -> Game:
    """The game of a ``position`` command's arguments (:func:`parse_position`), every move
    played by the game's rules. Raises :class:`PositionError` naming the part that cannot be
    read or played."""
    return parse_position(kind, arguments).game(kind)


def position_arguments(game: Game, fen4: bool = True) -> str:
    """The arguments of the ``position`` command that gives an engine this game: ``startpos``
    or the start position, then the moves. Four-player starts are written as FEN4 unless
    ``fen4`` is False. A game with events that are not moves (a resignation, a time forfeit)
    is sent as its current position, which holds them."""
    moves = [str(step) for step in game.history]
    if any("(" in step for step in moves):  # an event: the moves alone cannot give it
        return f"fen {_position_text(game, game.board, game.points, fen4)}"
    start = game.start_fen
    standard_start = Board(game.variant, mode=game.mode, setup=game.setup, neutrality=game.neutrality).fen()
    if start == standard_start and not game.start_points:
        head = "startpos"
    else:
        board = Board(game.variant, start, mode=game.mode, setup=game.setup, neutrality=game.neutrality)
        head = f"fen {_position_text(game, board, game.start_points, fen4)}"
    return head + (" moves " + " ".join(moves) if moves else "")


def _position_text(game: Game, board: Board, points: dict[Colour, int], fen4: bool) -> str:
    if game.kind.record_format.name == "pgn4" and fen4:
        return write_fen4(board, points)
    return board.fen()
