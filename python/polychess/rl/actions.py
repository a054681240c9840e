"""Action codes: one number per move a board can hold, seen from the mover's seat.

A code stands for a from-to pair of cells (plus an under-promotion) in the first seat's view of
the board: a move of any other seat is first turned by the board's symmetry (the hexagon's
120-degree rotations, the cross's quarter turns, the mirror of standard chess's ranks), so a
policy learns one game whichever seat it plays. The numbering is built in the core from the
board's topology (cpp/learn/actions.h); docs/rl.md describes it.

>>> from polychess import Board
>>> from polychess.rl import ActionSpace
>>> space = ActionSpace("three-player")
>>> board = Board("three-player")
>>> code = space.encode(board, "E2E4")
>>> space.decode(board, code)
Move.from_text('E2E4', 'three-player')
>>> len(space.legal_actions(board))
20
"""

from __future__ import annotations

from typing import Any, SupportsIndex

from polychess import _core
from polychess.board import Board, Move
from polychess.rl.extras import needs_extra

__all__ = ["ActionSpace"]


class ActionSpace:
    """The action codes of one game: ``size`` codes, ``0`` to ``size - 1``.

    A code may be given as any whole number (an ``int`` or one of numpy's integers). Anything
    that is no code (a number out of range, a float, a bool) raises IllegalMoveError naming the
    range: the core checks every code before it narrows it, so no number wraps onto a code.
    """

    def __init__(self, variant: str, mode: str | None = None, setup: str | None = None) -> None:
        board = Board(variant, mode=mode, setup=setup)  # validates the names, as Board does
        self.variant, self.mode, self.setup = board.variant, board.mode, board.setup
        self._core = _core.ActionSpace(board.variant, board.mode or "", board.setup or "")
        self.size: int = self._core.size

    def __repr__(self) -> str:
        game = " ".join(filter(None, (self.variant, self.mode, self.setup)))
        return f"ActionSpace({game!r}, size={self.size})"

    # Immutable: a copy is the same space.
    def __copy__(self) -> ActionSpace:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> ActionSpace:
        return self

    def encode(self, board: Board, move: Move | str) -> int:
        """The code of a legal move of ``board`` (an IllegalMoveError if it is not legal)."""
        chosen = board.parse_move(move) if isinstance(move, str) else move
        return int(self._core.encode(self._board(board).core, chosen))

    def decode(self, board: Board, code: SupportsIndex) -> Move:
        """The legal move of ``board`` with this code (an IllegalMoveError if none has it)."""
        return self._core.decode(self._board(board).core, code)

    def is_legal(self, board: Board, code: SupportsIndex) -> bool:
        """Whether the code is a legal move of ``board`` (any whole number may be asked; anything
        else raises IllegalMoveError)."""
        return bool(self._core.is_legal(self._board(board).core, code))

    def legal_actions(self, board: Board) -> list[int]:
        """The codes of the board's legal moves, in increasing order."""
        return list(self._core.legal_actions(self._board(board).core))

    def mask(self, board: Board) -> Any:
        """A numpy int8 array of ``size`` items (the type Gymnasium's masks have): 1 at the
        codes of the legal moves (needs numpy, ``pip install 'polychess[rl]'``)."""
        with needs_extra("rl"):
            import numpy
        out = numpy.zeros(self.size, dtype=numpy.int8)
        self._core.write_mask(self._board(board).core, out)
        return out

    def action(self, code: SupportsIndex) -> str:
        """The code as the first seat's move text (the frame every code is read in)."""
        return str(self._core.action(code))

    def _board(self, board: Board) -> Board:
        if not isinstance(board, Board):
            raise TypeError(f"expected a polychess.Board, got {type(board).__name__}")
        if (board.variant, board.mode, board.setup) != (self.variant, self.mode, self.setup):
            raise ValueError(f"this action space is for {self!r}, not for a {board.variant} board")
        return board
