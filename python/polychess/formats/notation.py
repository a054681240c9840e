"""A game's steps in its notation, followed as the game goes on (:class:`GameNotation`); the
notation of one move is :mod:`polychess.notation`'s (``move_to_text`` and ``text_to_move``,
re-exported here)."""

from __future__ import annotations

from polychess.game import Game, Step
from polychess.notation import move_to_text, text_to_move

__all__ = ["GameNotation", "move_to_text", "text_to_move"]


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
