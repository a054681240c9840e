"""Exceptions raised for bad input. Every one is a ValueError."""

from polychess._core import IllegalMoveError, InvalidMoveError, InvalidPositionError
from polychess.options import OptionError

__all__ = ["InvalidPositionError", "InvalidMoveError", "AmbiguousMoveError", "IllegalMoveError", "OptionError"]


class AmbiguousMoveError(InvalidMoveError):
    """Move text that fits more than one legal move (SAN that leaves out too much of the
    origin); the message lists the moves it could mean."""
