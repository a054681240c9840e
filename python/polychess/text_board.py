"""Boards drawn as text for a terminal, with or without ANSI colour: ``str(board)`` (plain)
and the ``play`` and ``show`` commands.

Standard and four-player chess are square grids with file letters and rank numbers around
them. The three-player hexagon cannot be drawn as a grid without cutting it somewhere (six
4x4 blocks meet at the centre, each with a 60-degree corner there), so it is drawn as the real
board looks: every cell is placed at the centre of its quadrilateral on a hexagon and labelled
with its name, the piece on it above the name. Ranks then run as the flat chevrons they are
on the wooden board, and the player whose side is at the bottom reads it as a normal board.

Pieces are written as in position strings: the colour's letter, then the piece letter
(``wK`` is White's king, ``rQ`` Red's queen); colour only emphasises what the letters say,
so a board without colour loses nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from polychess._core import Move
from polychess.pieces import Colour, Piece

if TYPE_CHECKING:  # a board is passed in; the board module draws itself here
    from polychess.board import Board

__all__ = ["piece_text", "render"]

# ANSI styles: bold foreground per colour. Black pieces are drawn grey so that they stay
# visible on the dark background most terminals have.
_STYLES = {
    Colour.WHITE: "1;97",
    Colour.RED: "1;91",
    Colour.BLACK: "1;90",
    Colour.BLUE: "1;94",
    Colour.YELLOW: "1;93",
    Colour.GREEN: "1;92",
}
_DIM = "2"
_LAST_MOVE = "43"  # yellow background behind the cells of the last move
_CHECK = "41"  # red background behind a king in check


def piece_text(piece: Piece) -> str:
    """``wK``, ``rQ``, ``bN``...: the colour's letter and the piece's letter."""
    return piece.colour.value[0] + piece.piece_type.letter


class _Canvas:
    """A grid of characters, each with an optional ANSI style, grown as text is put on it."""

    def __init__(self) -> None:
        self._cells: dict[tuple[int, int], tuple[str, str]] = {}

    def put(self, row: int, col: int, text: str, style: str = "") -> None:
        for i, char in enumerate(text):
            self._cells[(row, col + i)] = (char, style)

    def bounds(self) -> tuple[int, int, int, int]:
        """Top row, bottom row, leftmost and rightmost column in use."""
        rows = [r for r, _ in self._cells]
        cols = [c for _, c in self._cells]
        return min(rows), max(rows), min(cols), max(cols)

    def text(self, color: bool) -> str:
        if not self._cells:
            return ""
        by_row: dict[int, dict[int, tuple[str, str]]] = {}
        for (row, col), cell in self._cells.items():
            by_row.setdefault(row, {})[col] = cell
        left = min(col for _, col in self._cells)
        lines = []
        for row in range(min(by_row), max(by_row) + 1):
            cells = by_row.get(row, {})
            line, current = "", ""
            for col in range(left, max(cells, default=left - 1) + 1):
                char, style = cells.get(col, (" ", ""))
                if color and style != current:
                    line += "\x1b[0m" + (f"\x1b[{style}m" if style else "")
                    current = style
                line += char
            if current:
                line += "\x1b[0m"
            lines.append(line if color else line.rstrip())
        return "\n".join(lines)


@dataclass(frozen=True)
class _Marks:
    """Cells to highlight: the last move's and the checked king's."""

    last: frozenset[str]
    check: str | None


def _marks(board: Board, lastmove: Move | None) -> _Marks:
    last = frozenset() if lastmove is None else frozenset({lastmove.from_cell, lastmove.to_cell})
    check = board.king(board.turn) if board.is_check() else None
    return _Marks(last, check)


def _piece_style(board: Board, piece: Piece) -> str:
    # Pieces nobody controls (resigned players', free-for-all's dead pieces) are dimmed.
    return _STYLES[piece.colour] if board.controller(piece.colour) is not None else _DIM


def _cell_style(name: str, marks: _Marks, base: str) -> str:
    if name == marks.check:
        return f"{base};{_CHECK}" if base else _CHECK
    if name in marks.last:
        return f"{base};{_LAST_MOVE}" if base else _LAST_MOVE
    return base


def render(
    board: Board,
    *,
    orientation: Colour | str | None = None,
    color: bool = False,
    lastmove: Move | None = None,
    compact: bool = False,
) -> str:
    """The board as text. ``orientation`` is the colour whose side is drawn at the bottom
    (default: the first colour); ``lastmove`` is highlighted when ``color`` is on.
    ``compact`` draws the three-player hexagon with one line per cell: the piece, or the cell
    name where the cell is empty."""
    side = board.colours[0] if orientation is None else Colour(orientation)
    if side not in board.colours:
        raise ValueError(f"no colour {side.value!r} in {board.variant}")
    marks = _marks(board, lastmove)
    if board.kind.board == "hexagon":
        canvas = _hexagon(board, side, marks, compact)
    else:
        canvas = _grid(board, side, marks)
    return canvas.text(color)


# -- the hexagon ---------------------------------------------------------------------------

# docs/rules.md §1.1: the file letter of local column c = 0..7 in each sector, and the rank of local
# row r (0 = the owner's back rank).
_SECTOR_FILES = ("ABCDEFGH", "NMLKDCBA", "HGFEKLMN")
_SECTOR_OF_COLOUR = {Colour.WHITE: 0, Colour.RED: 1, Colour.BLACK: 2}
# Where each sector's back rank lies, as the angle of its side's midpoint seen from the centre
# with White at the bottom (270 degrees); Red's sector follows clockwise at the upper left.
_SECTOR_ANGLE = (270.0, 150.0, 30.0)
# Characters (and lines) per unit of the hexagon's circumradius: the smallest scale at which
# no two cells overlap when each takes three characters and a space (found by trying).
_SCALE_X = 30.0
_SCALE_Y = 8.5


def _local(name: str) -> tuple[int, int, int]:
    """(sector, row, column) of a three-player cell name (rules §1.1)."""
    file, rank = name[0], int(name[1:])
    sector = 0 if rank <= 4 else 2 if rank <= 8 else 1
    row = {0: rank - 1, 1: 12 - rank, 2: 8 - rank}[sector]
    return sector, row, _SECTOR_FILES[sector].index(file)


def _polar(degrees: float, radius: float) -> tuple[float, float]:
    return radius * math.cos(math.radians(degrees)), radius * math.sin(math.radians(degrees))


def _cell_centre(sector: int, row: int, col: int, turn: float) -> tuple[float, float]:
    """The centre of a cell on a hexagon of circumradius 1 (centre at 0, y up).

    Each sector is two quadrilaterals (4x4 blocks) between the centre, two side midpoints and
    a corner; the cell's centre is interpolated bilinearly inside its block, as the lines are
    drawn on the real board. ``turn`` rotates the board so that the viewer's side is at the
    bottom.
    """
    base = _SECTOR_ANGLE[sector] + turn
    apothem = math.sqrt(3) / 2
    if col < 4:  # the block at the sector's left corner
        back_left, back_right = _polar(base - 30, 1.0), _polar(base, apothem)
        front_right, front_left = (0.0, 0.0), _polar(base - 60, apothem)
    else:
        back_left, back_right = _polar(base, apothem), _polar(base + 30, 1.0)
        front_right, front_left = _polar(base + 60, apothem), (0.0, 0.0)
    u, v = ((col % 4) + 0.5) / 4, (row + 0.5) / 4
    corners = (
        (back_left, (1 - u) * (1 - v)),
        (back_right, u * (1 - v)),
        (front_right, u * v),
        (front_left, (1 - u) * v),
    )
    return sum(p[0] * w for p, w in corners), sum(p[1] * w for p, w in corners)


def _hexagon(board: Board, side: Colour, marks: _Marks, compact: bool) -> _Canvas:
    canvas = _Canvas()
    turn = 270.0 - _SECTOR_ANGLE[_SECTOR_OF_COLOUR[side]]
    height = 1 if compact else 2  # text lines per cell
    for name in board.layout.names:
        x, y = _cell_centre(*_local(name), turn)
        row, col = round(-y * _SCALE_Y) * height, round(x * _SCALE_X) - 1
        piece = board.piece_at(name)
        if piece is not None:
            text, style = piece_text(piece), _piece_style(board, piece)
        else:
            text, style = (name, _DIM) if compact else (" .", _DIM)
        canvas.put(row, col, f"{text:<3}", _cell_style(name, marks, style))
        if not compact:
            canvas.put(row + 1, col, f"{name:<3}", _cell_style(name, marks, _DIM))
    _hexagon_labels(board, canvas, turn, height)
    return canvas


def _hexagon_labels(board: Board, canvas: _Canvas, turn: float, height: int) -> None:
    """Each player's name beside his back rank: below the picture for the bottom side, at the
    left or right edge, level with the side's middle, for the others."""
    top, bottom, left, right = canvas.bounds()
    for colour in board.colours:
        angle = (_SECTOR_ANGLE[_SECTOR_OF_COLOUR[colour]] + turn) % 360
        label = colour.value.capitalize()
        x, y = _polar(angle, math.sqrt(3) / 2)
        row = round(-y * _SCALE_Y) * height
        if abs(x) < 0.1:  # the bottom (or top) side
            canvas.put(bottom + 2 if y < 0 else top - 2, round(x * _SCALE_X) - len(label) // 2, label, _STYLES[colour])
        elif x < 0:
            canvas.put(row, left - len(label) - 3, label, _STYLES[colour])
        else:
            canvas.put(row, right + 4, label, _STYLES[colour])


# -- square grids: standard and four-player chess -------------------------------------------

_FILES = "abcdefghijklmn"


def _grid(board: Board, side: Colour, marks: _Marks) -> _Canvas:
    """A grid seen from ``side``: the square boards rotate in quarter turns (four-player) or
    half turns (standard) so that the viewer's pawns move up the screen."""
    size = len(board.layout.rows)
    quarter = _quarter_turns(board, side)
    names = set(board.layout.names)
    canvas = _Canvas()
    for y in range(size):
        for x in range(size):
            file, rank = _unrotate(x, y, size, quarter)
            name = f"{_FILES[file]}{rank + 1}"
            if name not in names:
                continue
            piece = board.piece_at(name)
            text, style = (piece_text(piece), _piece_style(board, piece)) if piece else (".", _DIM)
            canvas.put(y, 4 + 3 * x, f"{text:^3}" if piece is None else f"{text:<3}", _cell_style(name, marks, style))
    _grid_labels(canvas, size, quarter)
    return canvas


def _quarter_turns(board: Board, side: Colour) -> int:
    # Seats sit clockwise round the board: a quarter turn apart with four, a half turn with two.
    return board.colours.index(side) * 4 // len(board.colours)


def _unrotate(x: int, y: int, size: int, quarter: int) -> tuple[int, int]:
    """The (file, rank), 0-based, drawn at column x and row y (row 0 at the top) when the board
    is turned by ``quarter`` quarter turns so that the viewer's side is at the bottom."""
    top = size - 1
    if quarter == 0:  # Red / White at the bottom: files left to right, ranks upwards
        return x, top - y
    if quarter == 1:  # Blue (file a) at the bottom, facing towards higher files
        return top - y, top - x
    if quarter == 2:  # Yellow / Black at the bottom
        return top - x, y
    return y, x  # Green (file n) at the bottom


def _grid_labels(canvas: _Canvas, size: int, quarter: int) -> None:
    for i in range(size):
        # Along a row only one coordinate changes; the other names the row.
        file_a, rank_a = _unrotate(0, i, size, quarter)
        file_b, _ = _unrotate(1, i, size, quarter)
        row_label = str(rank_a + 1) if file_a != file_b else _FILES[file_a]
        canvas.put(i, 0, f"{row_label:>2}", _DIM)
        canvas.put(i, 4 + 3 * size + 1, row_label, _DIM)
        file_c, rank_c = _unrotate(i, 0, size, quarter)
        _, rank_d = _unrotate(i, 1, size, quarter)
        col_label = _FILES[file_c] if rank_c != rank_d else str(rank_c + 1)
        canvas.put(size, 4 + 3 * i, f"{col_label:^3}", _DIM)
        canvas.put(-1, 4 + 3 * i, f"{col_label:^3}", _DIM)
