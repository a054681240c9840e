"""Exceptions raised for bad input. Every one is a ValueError."""

from polychess._core import IllegalMoveError, InvalidMoveError, InvalidPositionError

__all__ = ["InvalidPositionError", "InvalidMoveError", "IllegalMoveError"]
