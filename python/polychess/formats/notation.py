"""Each board's move notation, as its game records write moves: Standard Algebraic Notation in
standard chess (PGN, :mod:`polychess.formats.pgn`), chess.com's long algebraic notation in
four-player chess (PGN4, :mod:`polychess.formats.pgn4`), and the move text of docs/rules.md §4
in three-player chess (game records, :mod:`polychess.formats.record`). ``Board.san``,
``Board.parse_san`` and ``Board.push_san`` read and write through here.
"""

from __future__ import annotations

from collections.abc import Callable

from polychess.board import Board, Move
from polychess.formats import pgn, pgn4

__all__ = ["move_to_text", "text_to_move"]


# Each record format's notation of one move: writing it, reading it back (the game records of
# docs/game-records.md write the move text itself).
_NOTATIONS: dict[str, tuple[Callable[[Board, Move], str], Callable[[Board, str], Move]]] = {
    "pgn": (pgn.san, pgn.parse_san),
    "pgn4": (pgn4.long_algebraic, pgn4.parse_long_algebraic),
    "record": (lambda board, move: str(move), Board.parse_move),
}


def move_to_text(board: Board, move: Move) -> str:
    """A legal move of the board in the notation of its game's records."""
    return _NOTATIONS[board.kind.record_format.name][0](board, move)


def text_to_move(board: Board, text: str) -> Move:
    """The legal move of the board that ``text``, in its game's notation, stands for."""
    return _NOTATIONS[board.kind.record_format.name][1](board, text)
