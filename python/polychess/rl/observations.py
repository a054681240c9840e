"""Observations: a game's state as planes over the board's grid, seen from the player to move
(docs/rl.md lists the planes). Written by the core in one call (cpp/learn/observation.h); needs
numpy (``pip install 'polychess[rl]'``).

>>> from polychess import Game
>>> from polychess.rl import observe
>>> observe(Game("three-player")).shape
(46, 12, 8)
"""

from __future__ import annotations

from typing import Any

from polychess.board import Colour
from polychess.game import Game
from polychess.rl.extras import needs_extra

__all__ = ["observation_shape", "observe"]


def observation_shape(game: Game) -> tuple[int, int, int]:
    """(planes, rows, columns) of the game's observations."""
    planes, rows, cols = game.state.observation_shape
    return planes, rows, cols


def observe(game: Game, out: Any = None, *, player: Colour | str | None = None, dtype: str = "float32") -> Any:
    """The observation of ``player`` (default: the player to move), an array of
    ``observation_shape(game)``: float32, or uint8 with ``dtype="uint8"`` (docs/rl.md). Written
    into ``out`` when it is given (a C-contiguous float32 or uint8 array of that size)."""
    if not isinstance(game, Game):
        raise TypeError(f"expected a polychess.Game, got {type(game).__name__}")
    viewer = -1
    if player is not None:
        colour = Colour(player)
        if colour not in game.colours:
            raise ValueError(f"{colour.value} does not play {game.variant}")
        viewer = game.colours.index(colour)
    if out is None:
        with needs_extra("rl"):
            import numpy

        if dtype not in ("float32", "uint8"):
            raise ValueError(f"dtype must be 'float32' or 'uint8', got {dtype!r}")
        out = numpy.empty(observation_shape(game), dtype=dtype)
    game.state.write_observation(out, viewer)
    return out
