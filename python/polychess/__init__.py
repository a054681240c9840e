"""polychess: chess for more than two players, with a fast C++ core.

>>> import polychess
>>> board = polychess.Board("three-player")
>>> len(board.legal_moves)
20
>>> board.push("E2E4")
Move.from_text('E2E4', 'three-player')
>>> board.turn
<Colour.RED: 'red'>
>>> board.perft(3)
12020
>>> board.pop()
Move.from_text('E2E4', 'three-player')
>>> board.perft(3)
8000
"""

from polychess import evaluation  # noqa: F401  (first: it gives the core each game's weights before any position is made)
from polychess._core import Layout
from polychess.board import VARIANTS, Board, Colour, LegalMoves, Move, Piece, PieceType, Status
from polychess.clock import Clock
from polychess.deprecation import renamed_names
from polychess.engine import Engine, SearchLine, SearchResult
from polychess.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidPositionError, OptionError
from polychess.game import Elimination, Game, GameOverError, Outcome, Reason, Termination, TimeForfeitError
from polychess.rules import Rules
from polychess.simulate import Playout, playouts

__version__ = "0.1.0"

__all__ = [
    "AmbiguousMoveError",
    "Board",
    "Clock",
    "Colour",
    "Elimination",
    "Engine",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "PieceType",
    "Layout",
    "LegalMoves",
    "Move",
    "OptionError",
    "Outcome",
    "Piece",
    "Playout",
    "Reason",
    "Rules",
    "SearchLine",
    "SearchResult",
    "Status",
    "Termination",
    "TimeForfeitError",
    "VARIANTS",
    "__version__",
    "playouts",
]

__getattr__ = renamed_names(__name__, {"Kind": ("PieceType", lambda: PieceType)})
