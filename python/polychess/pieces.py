"""The colours and kinds of pieces: the words every other module speaks (no dependencies)."""

from __future__ import annotations

import enum
from typing import NamedTuple

__all__ = ["Colour", "Kind", "Piece"]


class Colour(str, enum.Enum):
    """A colour of pieces, which is also the name of the seat that starts with it."""

    WHITE = "white"
    RED = "red"
    BLACK = "black"
    BLUE = "blue"
    YELLOW = "yellow"
    GREEN = "green"

    def __str__(self) -> str:
        return self.value


class Kind(enum.IntEnum):
    """A kind of piece (values as in the core)."""

    PAWN = 1
    KNIGHT = 2
    BISHOP = 3
    ROOK = 4
    QUEEN = 5
    KING = 6
    ONE_POINT_QUEEN = 7  # four-player free-for-all's promoted queen (moves as a queen)

    @property
    def letter(self) -> str:
        """The kind's letter as boards and position strings write it: P, N, B, R, Q, K, and D
        for the one-point queen (FEN4's letter; the core's ``kind_letter``)."""
        return "PNBRQKD"[self - 1]


class Piece(NamedTuple):
    colour: Colour
    kind: Kind
