"""The colours and types of pieces: the words every other module speaks (no dependencies but
the deprecation of old names)."""

from __future__ import annotations

import enum
from typing import NamedTuple

from polychess.deprecation import renamed_names, warn_renamed

__all__ = ["Colour", "Piece", "PieceType"]


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


class PieceType(enum.IntEnum):
    """A type of piece (values as in the core), as python-chess's ``PieceType``. Before 0.2 it
    was ``Kind``, a word polychess now keeps for a game (``Board.kind``, ``GameKind``)."""

    PAWN = 1
    KNIGHT = 2
    BISHOP = 3
    ROOK = 4
    QUEEN = 5
    KING = 6
    ONE_POINT_QUEEN = 7  # four-player free-for-all's promoted queen (moves as a queen)

    @property
    def letter(self) -> str:
        """The type's letter as boards and position strings write it: P, N, B, R, Q, K, and D
        for the one-point queen (FEN4's letter; the core's ``kind_letter``)."""
        return "PNBRQKD"[self - 1]


class Piece(NamedTuple):
    """A piece: its colour and its type."""

    colour: Colour
    piece_type: PieceType

    @property
    def kind(self) -> PieceType:
        """Deprecated: :attr:`piece_type`."""
        warn_renamed("Piece.kind", "Piece.piece_type")
        return self.piece_type


__getattr__ = renamed_names(__name__, {"Kind": ("PieceType", lambda: PieceType)})
