"""How a game ends, as Python values: who left it and why (:class:`Elimination`), why it ended
(:class:`Termination`) and every player's place (:class:`Outcome`), read from the core's game
state, which applies the rules (``cpp/core/game_state.h``).

Both a :class:`~polychess.Game` and a lone :class:`~polychess.Board` (judging its position as a
game starting from it) read their outcome here.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING

from polychess import _core
from polychess.catalogue import kind_of
from polychess.pieces import Colour

if TYPE_CHECKING:  # a board is passed in; the board module reads its outcome here
    from polychess.board import Board, Move

__all__ = [
    "Elimination",
    "Outcome",
    "Reason",
    "Termination",
    "eliminations_by_move",
    "eliminations_of",
    "read_outcome",
    "result_token",
]


class Reason(enum.Enum):
    """Why a player left the game."""

    CHECKMATE = "checkmate"
    KING_CAPTURE = "king capture"
    STALEMATE = "stalemate"  # frozen, not out (rules §1.9)
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time forfeit"
    # The game started from a position already decided by the players out in it (a position
    # from the end of a game: a teams side with a player out, or one player left to move).
    DECIDED = "decided"


class Termination(enum.Enum):
    """Why the game ended."""

    CHECKMATE = "checkmate"
    KING_CAPTURE = "king capture"
    STALEMATE = "stalemate"
    POINTS_LEAD = "points lead"  # four-player FFA: two left and one 21 points ahead
    MOVE_LIMIT = "move limit"
    AGREEMENT = "agreement"
    THREEFOLD_REPETITION = "threefold repetition"
    FIFTY_MOVES = "fifty moves"
    INSUFFICIENT_MATERIAL = "insufficient material"
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time forfeit"
    # The game started from a position already decided by the players out in it (a position
    # from the end of a game: a teams side with a player out, or one player left to move).
    DECIDED = "decided"


@dataclass(frozen=True)
class Elimination:
    """A player leaving the game (out, or frozen by stalemate)."""

    player: Colour
    reason: Reason
    by: Colour | None  # the mater or king capturer; None for the rest
    ply: int  # number of moves played when it happened


@dataclass(frozen=True)
class Outcome:
    """The end of a game: why, every player's place (1 = first; tied players share a place)
    and who left the game how and when."""

    termination: Termination
    places: dict[Colour, int]
    eliminations: tuple[Elimination, ...]
    points: dict[Colour, int] | None = None  # four-player free-for-all

    @property
    def winners(self) -> tuple[Colour, ...]:
        return tuple(p for p, place in self.places.items() if place == 1)

    def returns(self) -> tuple[float, ...]:
        """Per player in seat order: +1 for a sole first place, -1 for a sole last place and
        in between linearly by place (a uniform score for learning agents)."""
        return tuple(_core.place_return(place, len(self.places)) for place in self.places.values())


def eliminations_by_move(board: Board, move: Move) -> tuple[Elimination, ...]:
    """Who leaves the game by a legal move of the board, as the rules of the board's game
    (:mod:`polychess.rules`) judge the move played from this position: whom it mates, whose
    king it captures, whom it stalemates (each at ply 1)."""
    state = _core.GameState(board._core.copy(), judge_start=False)
    state.push(move)
    return tuple(eliminations_of(state, board.colours))


def eliminations_of(state: _core.GameState, colours: tuple[Colour, ...], first: int = 0) -> list[Elimination]:
    """The game state's eliminations from the ``first`` on, as Python values."""
    return [
        Elimination(colours[player], Reason(reason), None if by is None else colours[by], ply)
        for player, reason, by, ply in state.eliminations(first)
    ]


def result_token(variant: str, outcome: Outcome | None) -> str:
    """An outcome as records write it: PGN's ``1-0``, ``0-1`` and ``1/2-1/2`` in the game PGN
    records (standard chess), each seat's place in seat order (``2-3-1``) in the other games,
    ``*`` for none yet."""
    if outcome is None:
        return "*"
    if kind_of(variant).record_format.name == "pgn":
        first, second = outcome.places.values()
        return "1/2-1/2" if first == second else ("1-0" if first < second else "0-1")
    return "-".join(str(place) for place in outcome.places.values())


def read_outcome(state: _core.GameState, colours: tuple[Colour, ...], ranked_by_points: bool) -> Outcome | None:
    """The outcome the core's game state holds (None while the game runs): the places of the
    seats that had a player at the start, the eliminations, and the points where they rank."""
    termination = state.termination
    if termination is None:
        return None
    places = state.places
    seat_places: dict[Colour, int] = {}
    for index, colour in enumerate(colours):
        if state.seats >> index & 1:
            place = places[index]
            assert place is not None, "every seat has a place once the game is over"
            seat_places[colour] = place
    points = {c: state.points[colours.index(c)] for c in seat_places} if ranked_by_points else None
    return Outcome(Termination(termination), seat_places, tuple(eliminations_of(state, colours)), points or None)
