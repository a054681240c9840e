"""Each board's move notation, as its game records write moves: Standard Algebraic Notation in
standard chess (PGN, :mod:`polychess.formats.pgn`), chess.com's long algebraic notation in
four-player chess (PGN4, :mod:`polychess.formats.pgn4`), and the move text of docs/rules.md §4
in three-player chess (game records, :mod:`polychess.formats.record`). ``Board.san``,
``Board.parse_san`` and ``Board.push_san`` read and write through here.
"""

from __future__ import annotations

from polychess.board import Board, Move
from polychess.formats import pgn, pgn4

__all__ = ["move_to_text", "text_to_move"]


def move_to_text(board: Board, move: Move) -> str:
    """A legal move of the board in the notation of its variant's records."""
    if board.variant == "standard":
        return pgn.san(board, move)
    if board.variant == "four-player":
        return pgn4.long_algebraic(board, move)
    return str(move)


def text_to_move(board: Board, text: str) -> Move:
    """The legal move of the board that ``text``, in its variant's notation, stands for."""
    if board.variant == "standard":
        return pgn.parse_san(board, text)
    if board.variant == "four-player":
        return pgn4.parse_long_algebraic(board, text)
    return board.parse_move(text)
