"""Exceptions raised for bad input. Every one is a ValueError."""

from polychess._core import IllegalMoveError, InvalidMoveError, InvalidPositionError
from polychess.options import OptionError

__all__ = ["InvalidPositionError", "InvalidMoveError", "IllegalMoveError", "OptionError"]
