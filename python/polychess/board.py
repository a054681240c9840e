"""Boards of every variant: position, legal moves, push/pop, check and mate, perft.

A :class:`Board` is a position plus its history. Moves are :class:`Move` values
(``str(move)`` is the move text of docs/rules.md §4, e.g. ``"E2E4"``); every method that takes a
move also takes its text.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import NamedTuple

from polychess import _core
from polychess._core import Move, Status

__all__ = ["Board", "Move", "Colour", "Kind", "Piece", "Status", "LegalMoves", "VARIANTS"]

VARIANTS: tuple[str, ...] = tuple(_core.variant_names())


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


_COLOURS_OF_VARIANT: dict[str, tuple[Colour, ...]] = {
    "three-player": (Colour.WHITE, Colour.RED, Colour.BLACK),
    "standard": (Colour.WHITE, Colour.BLACK),
    "four-player": (Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN),
}


class Kind(enum.IntEnum):
    """A kind of piece (values as in the core)."""

    PAWN = 1
    KNIGHT = 2
    BISHOP = 3
    ROOK = 4
    QUEEN = 5
    KING = 6
    ONE_POINT_QUEEN = 7  # four-player free-for-all's promoted queen (moves as a queen)


class Piece(NamedTuple):
    colour: Colour
    kind: Kind


class LegalMoves:
    """A live view of the legal moves of a board: ``len``, ``in``, iteration, ``bool``."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return iter(self._board._core.legal_moves())

    def __len__(self) -> int:
        return self._board._core.count_legal_moves()

    def __bool__(self) -> bool:
        return self._board._core.count_legal_moves() > 0

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                self._board._core.parse_move(move)
            except ValueError:
                return False
            return True
        return isinstance(move, Move) and self._board._core.is_legal(move)

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(map(str, self))})>"


class Board:
    """A position of one variant together with the moves that led to it.

    ``Board("three-player")`` is the start position; ``Board(variant, fen=text)`` reads a
    position string (FEN for standard chess, docs/position-strings.md for three-player chess)
    and raises :class:`~polychess.InvalidPositionError` if it is malformed. An unknown variant
    raises ``ValueError``. ``neutrality=True`` turns on the three-player "rule of neutrality"
    (rules §1.11), which restricts captures and adds a field to the position string.
    Four-player chess takes ``mode="teams"`` (default) or ``"ffa"`` and ``setup="modern"``
    (default) or ``"classic"`` (rules §2).
    """

    __slots__ = ("_core", "_colours", "_layout")

    def __init__(self, variant: str = "three-player", fen: str | None = None, *, neutrality: bool = False,
                 mode: str | None = None, setup: str | None = None) -> None:
        self._core = _core.Board(variant, fen, neutrality=neutrality, mode=mode or "", setup=setup or "")
        self._colours = _COLOURS_OF_VARIANT[variant]
        self._layout = _layout(variant, self._core.mode or None, self._core.setup or None)

    # -- identity -------------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return self._core.variant

    @property
    def neutrality(self) -> bool:
        return self._core.neutrality

    @property
    def mode(self) -> str | None:
        """Four-player chess: "teams" or "ffa"."""
        return self._core.mode or None

    @property
    def setup(self) -> str | None:
        """Four-player chess: "modern" or "classic"."""
        return self._core.setup or None

    @property
    def colours(self) -> tuple[Colour, ...]:
        """The colours (and seats) in turn order."""
        return self._colours

    def fen(self) -> str:
        """The position string; ``Board(variant, fen=board.fen())`` reproduces the position."""
        return self._core.fen()

    def copy(self) -> Board:
        """An independent copy, history included."""
        other = Board.__new__(Board)
        other._core = self._core.copy()
        other._colours = self._colours
        other._layout = self._layout
        return other

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, object]) -> Board:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.variant == other.variant and self.fen() == other.fen()

    def __hash__(self) -> int:
        return hash((self.variant, self.fen()))

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self._options().items())
        return f"Board({self.variant!r}, fen={self.fen()!r}{options})"

    def __str__(self) -> str:
        """The board as plain text (as ``print(board)`` shows it, like python-chess); the
        position string is ``fen()``. The three-player hexagon is drawn as ``polychess show``
        draws it."""
        from polychess import text_board  # text_board imports this module

        return text_board.render(self)

    def _repr_svg_(self) -> str:
        """The picture Jupyter shows: the position with the last move highlighted."""
        from polychess import svg  # svg imports this module

        stack = self._core.move_stack()
        return svg.board(self, lastmove=stack[-1] if stack else None)

    def _options(self) -> dict[str, object]:
        options: dict[str, object] = {}
        if self.neutrality:
            options["neutrality"] = True
        if self.mode is not None:
            options.update(mode=self.mode, setup=self.setup)
        return options

    def __reduce__(self) -> tuple[object, ...]:
        moves = [str(m) for m in self.move_stack]
        return (_rebuild, (self.variant, self._start_fen(), moves, self.fen(), self._options()))

    def _start_fen(self) -> str:
        board = self.copy()
        while board._core.history_length():
            board._core.undo()
        return board.fen()

    # -- moves ----------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def parse_move(self, text: str) -> Move:
        """The legal move written as ``text``.

        Raises :class:`~polychess.InvalidMoveError` if the text cannot be read and
        :class:`~polychess.IllegalMoveError` if it names no legal move.
        """
        return self._core.parse_move(text)

    def push(self, move: Move | str) -> Move:
        """Plays a legal move (or its text) and returns it. An illegal move raises
        :class:`~polychess.IllegalMoveError` and leaves the board unchanged."""
        if isinstance(move, str):
            return self._core.push_text(move)
        if not isinstance(move, Move):
            raise TypeError(f"expected a Move or move text, got {type(move).__name__}")
        self._core.push(move)
        return move

    def pop(self) -> Move:
        """Takes back the last move (and any events applied after it) and returns it."""
        return self._core.pop()

    def peek(self) -> Move:
        """The last move played."""
        stack = self._core.move_stack()
        if not stack:
            raise IndexError("peek at a board with no moves")
        return stack[-1]

    @property
    def move_stack(self) -> list[Move]:
        return self._core.move_stack()

    # -- state ----------------------------------------------------------------------------

    @property
    def turn(self) -> Colour:
        """The player to move, named by his colour."""
        return self._colours[self._core.turn]

    def piece_at(self, cell: str | int) -> Piece | None:
        found = self._core.piece_at(self._cell(cell))
        if found is None:
            return None
        return Piece(self._colours[found[0]], Kind(found[1]))

    def pieces(self) -> dict[str, Piece]:
        """Every piece by cell name."""
        core, colours = self._core, self._colours
        out: dict[str, Piece] = {}
        for cell, name in enumerate(self._layout.names):  # cells known valid: no per-cell checks
            found = core.piece_at(cell)
            if found is not None:
                out[name] = Piece(colours[found[0]], Kind(found[1]))
        return out

    def status(self, player: Colour | str) -> Status:
        return self._core.status(self._index(player))

    def controller(self, colour: Colour | str) -> Colour | None:
        """The player who controls the colour's pieces (None: nobody, inert pieces)."""
        player = self._core.controller(self._index(colour))
        return None if player is None else self._colours[player]

    def king(self, player: Colour | str) -> str | None:
        """The cell of the player's king."""
        cell = self._core.king_of(self._index(player))
        return None if cell is None else self.layout.names[cell]

    @property
    def halfmove_clock(self) -> int:
        return self._core.halfmove_clock

    @property
    def fullmove_number(self) -> int:
        return self._core.fullmove_number

    @property
    def zobrist_key(self) -> int:
        return self._core.key

    @property
    def layout(self) -> _core.Layout:
        return self._layout

    # -- check and mate -------------------------------------------------------------------

    def checkers(self) -> list[str]:
        """Cells of the enemy pieces that attack the king of the player to move."""
        names = self.layout.names
        return [names[c] for c in self._core.checkers()]

    def attackers(self, cell: str | int, player: Colour | str) -> list[str]:
        """Cells of the player's pieces that attack the cell (pawns by their capture cells)."""
        names = self.layout.names
        return [names[c] for c in self._core.attackers(self._cell(cell), self._index(player))]

    def is_check(self) -> bool:
        return bool(self._core.checkers())

    def is_checkmate(self) -> bool:
        return self.is_check() and not self.legal_moves

    def is_stalemate(self) -> bool:
        return not self.is_check() and not self.legal_moves

    def mated_by(self) -> Colour | None:
        """If the player to move is checkmated, the player credited with the mate
        (rules §1.7: among the attackers, the one who moved most recently)."""
        player = self._core.mated_by()
        return None if player is None else self._colours[player]

    # -- counting -------------------------------------------------------------------------

    def perft(self, depth: int) -> int:
        """Leaf count of the legal-move tree (computed in C++, without the GIL)."""
        return self._core.perft(depth)

    def divide(self, depth: int) -> dict[str, int]:
        """Perft below each legal move, by move text."""
        return self._core.divide(depth)

    # -- game-layer primitives (each recorded in the history; ``pop`` takes them back) ------

    def set_controller(self, colour: Colour | str, player: Colour | str | None) -> None:
        """Gives a colour's pieces to a player (None: to nobody); its castling and
        en-passant rights lapse."""
        self._core.set_controller(self._index(colour), None if player is None else self._index(player))

    def remove_king(self, colour: Colour | str) -> None:
        self._core.remove_king(self._index(colour))

    def set_status(self, player: Colour | str, status: Status) -> None:
        """Sets a player's status; FROZEN freezes a stalemated player (rules §1.9)."""
        self._core.set_status(self._index(player), status)

    def eliminate(self, player: Colour | str, by: Colour | str | None, *, keep_king: bool = False) -> None:
        """Puts a player out: removes his king and gives his pieces to ``by`` (a mate or king
        capture, rules §1.8) or to nobody (resignation, time forfeit: inert pieces)."""
        self._core.eliminate(self._index(player), None if by is None else self._index(by), keep_king)

    # -- helpers --------------------------------------------------------------------------

    def _index(self, colour: Colour | str) -> int:
        try:
            return self._colours.index(Colour(colour))
        except ValueError:
            names = ", ".join(c.value for c in self._colours)
            raise ValueError(f"no colour {colour!r} in {self.variant} (one of {names})") from None

    def _cell(self, cell: str | int) -> int:
        if isinstance(cell, int):
            if not 0 <= cell < self.layout.cell_count:
                raise ValueError(f"no cell {cell} in {self.variant}")
            return cell
        try:
            return self.layout.index(cell)
        except KeyError:
            raise ValueError(f"no cell named {cell!r} in {self.variant}") from None


_LAYOUTS: dict[tuple[str, str | None, str | None], _core.Layout] = {}


def _layout(variant: str, mode: str | None = None, setup: str | None = None) -> _core.Layout:
    key = (variant, mode, setup)
    if key not in _LAYOUTS:
        _LAYOUTS[key] = _core.Layout(variant, mode=mode or "", setup=setup or "")
    return _LAYOUTS[key]


def _rebuild(variant: str, start: str, moves: list[str], fen: str, options: dict[str, object]) -> Board:
    board = Board(variant, start, **options)  # type: ignore[arg-type]
    for move in moves:
        board.push(move)
    if board.fen() != fen:  # events (eliminations...) were applied: keep the position itself
        board = Board(variant, fen, **options)  # type: ignore[arg-type]
    return board

