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
from polychess.game import Game, Step

__all__ = ["GameNotation", "move_to_text", "text_to_move"]


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


class GameNotation:
    """A game's steps in its notation (a move's text as :func:`move_to_text` writes it, an
    event's token as it is), followed as the game goes on: each read writes only the steps that
    are new since the last, and starts again from the game's start where steps were taken back."""

    def __init__(self) -> None:
        self._steps: tuple[Step, ...] = ()  # the steps written so far
        self._texts: list[str] = []
        self._replay: Game | None = None  # the game after them

    def texts(self, game: Game) -> list[str]:
        """Each step of ``game`` in its notation."""
        steps = game.steps
        done = len(self._steps)
        if self._replay is None or steps[:done] != self._steps:
            self._replay, self._texts, done = game.copy_at_start(), [], 0
        replay = self._replay
        for step in steps[done:]:
            self._texts.append(step.token if step.move is None else move_to_text(replay.board, step.move))
            replay.replay(step)
        self._steps = steps
        return list(self._texts)
