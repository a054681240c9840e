"""Each game's move notation, as its records write moves: Standard Algebraic Notation in standard
chess (:mod:`~polychess.notation.san`), chess.com's long algebraic notation in four-player chess
(:mod:`~polychess.notation.long_algebraic`), and the move text of docs/rules.md §4 in three-player
chess (game records). ``Board.san``, ``Board.parse_san`` and ``Board.push_san`` read and write
through here; the record formats (:mod:`polychess.formats`) write whole games with them.

This package lies below the board: it is handed boards and never makes one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from polychess._core import Move
from polychess.notation.long_algebraic import long_algebraic, parse_long_algebraic
from polychess.notation.san import parse_san, san

if TYPE_CHECKING:
    from polychess.board import Board

__all__ = ["move_to_text", "text_to_move"]


def _move_text(board: Board, move: Move) -> str:
    return str(move)


def _parse_move_text(board: Board, text: str) -> Move:
    return board.parse_move(text)


# Each record format's notation of one move: writing it, reading it back (the game records of
# docs/game-records.md write the move text itself).
_NOTATIONS: dict[str, tuple[Callable[[Board, Move], str], Callable[[Board, str], Move]]] = {
    "pgn": (san, parse_san),
    "pgn4": (long_algebraic, parse_long_algebraic),
    "record": (_move_text, _parse_move_text),
}


def move_to_text(board: Board, move: Move) -> str:
    """A legal move of the board in the notation of its game's records."""
    return _NOTATIONS[board.kind.record_format.name][0](board, move)


def text_to_move(board: Board, text: str) -> Move:
    """The legal move of the board that ``text``, in its game's notation, stands for."""
    return _NOTATIONS[board.kind.record_format.name][1](board, text)
