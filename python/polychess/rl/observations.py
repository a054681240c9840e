"""Observations: a game's state as planes over the board's grid, seen from the player to move
(docs/rl.md lists the planes). Written by the core in one call (cpp/observation.h); needs
numpy (``pip install 'polychess[rl]'``).

>>> from polychess import Game
>>> from polychess.rl import observe
>>> observe(Game("three-player")).shape
(46, 12, 8)
"""

from __future__ import annotations

from typing import Any

from polychess.game import Game

__all__ = ["observation_shape", "observe"]


def observation_shape(game: Game) -> tuple[int, int, int]:
    """(planes, rows, columns) of the game's observations."""
    planes, rows, cols = game._state.observation_shape
    return planes, rows, cols


def observe(game: Game, out: Any = None) -> Any:
    """The observation of the player to move, a float32 array of ``observation_shape(game)``;
    written into ``out`` when it is given (a C-contiguous float32 array of that size)."""
    if not isinstance(game, Game):
        raise TypeError(f"expected a polychess.Game, got {type(game).__name__}")
    if out is None:
        import numpy

        out = numpy.empty(observation_shape(game), dtype=numpy.float32)
    game._state.write_observation(out)
    return out
