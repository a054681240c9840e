"""SVG pictures of boards: the hexagon in its true geometry, the four-player cross, the 8×8 board.

>>> import polychess, polychess.svg
>>> picture = polychess.svg.board(polychess.Board("three-player"), size=400)
>>> picture.startswith("<svg")
True

Every cell is a ``<polygon class="cell light|dark" data-cell="A1">``; every piece a
``<g class="piece <colour> <kind>" data-cell="A1">`` (kinds ``pawn knight bishop rook queen king
one-point-queen``, plus ``dead``, ``frozen`` or ``controlled`` with ``data-controller``);
overlays carry the classes ``lastmove``, ``check``, ``dot`` and ``arrow``. Only the cells take
pointer events, so a click anywhere on a cell reaches the cell's ``data-cell``.

Geometry of the hexagon (docs/rules.md §1.1): a regular hexagon whose sides alternate between back ranks
and side files, cut by the segments from its centre to the midpoints of its sides into six
quadrilaterals (kites). Each kite is one 4×4 block of a sector; its cells come from bilinear
interpolation between the kite's corners, so their sides are straight and every cell shares whole
edges with its neighbours, across blocks and sectors too. A player's sector is the two kites on
his side; the other two sectors are rotations of White's by 120° and 240°.

All coordinates (:func:`cell_polygons`, :func:`cell_centres`) are in the picture's viewBox
units, which do not depend on ``size``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from polychess._core import Move, Status
from polychess.catalogue import VARIANTS, kind_of
from polychess.pieces import Colour, PieceType

if TYPE_CHECKING:  # boards and games are passed in; both draw themselves here
    from polychess.board import Board
    from polychess.game import Game

__all__ = ["board", "cell_centres", "cell_polygons", "legal_targets"]

Point = tuple[float, float]
Polygon = tuple[Point, ...]
Arrow = tuple[str, str] | tuple[str, str, str | Colour]

# ---------------------------------------------------------------------------------------------
# Geometry in model coordinates: the board's centre at the origin, y up, the first colour's side
# at the bottom.


class _Edge(NamedTuple):
    """A cell side on the rim of the board, with the coordinate written beside it."""

    text: str
    middle: Point
    normal: Point  # unit vector pointing away from the cell


class _Model(NamedTuple):
    polygons: dict[str, Polygon]
    edges: tuple[_Edge, ...]
    label_every_edge: bool  # the hexagon is labelled all round: each side is someone's rim


_HEX_RADIUS = 200.0
_HEX_FILES = ("ABCDEFGH", "NMLKDCBA", "HGFEKLMN")  # sector 0 White, 1 Red, 2 Black; c = 0..7


def _hex_name(sector: int, row: int, column: int) -> str:
    """The chess3.ru name of cell (s, r, c) of rules §1.1."""
    rank = (row + 1, 12 - row, 8 - row)[sector]
    return f"{_HEX_FILES[sector][column]}{rank}"


def _polar(radius: float, degrees: float) -> Point:
    angle = math.radians(degrees)
    return (radius * math.cos(angle), radius * math.sin(angle))


def _rotate(point: Point, degrees: float) -> Point:
    # Exact for multiples of 90°, so that rotated square boards keep exact coordinates.
    cos, sin = round(math.cos(math.radians(degrees)), 12), round(math.sin(math.radians(degrees)), 12)
    x, y = point
    return (x * cos - y * sin, x * sin + y * cos)


def _bilinear(quad: tuple[Point, Point, Point, Point], u: float, v: float) -> Point:
    """The point at (u, v) of the quadrilateral with corners (0,0), (1,0), (0,1), (1,1)."""
    (x00, y00), (x10, y10), (x01, y01), (x11, y11) = quad
    a, b, c, d = (1 - u) * (1 - v), u * (1 - v), (1 - u) * v, u * v
    return (a * x00 + b * x10 + c * x01 + d * x11, a * y00 + b * y10 + c * y01 + d * y11)


def _outward(a: Point, b: Point, centre: Point) -> Point:
    """The unit normal of segment ab that points away from ``centre``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    nx, ny = dy / length, -dx / length
    mx, my = (a[0] + b[0]) / 2 - centre[0], (a[1] + b[1]) / 2 - centre[1]
    return (nx, ny) if nx * mx + ny * my > 0 else (-nx, -ny)


def _middle(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _centroid(polygon: Polygon) -> Point:
    # The vertex mean: for a bilinear cell it is the cell's parametric centre, inside the cell.
    return (sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon))


def _hexagon() -> _Model:
    """White's sector is the bottom side of a flat-bottomed hexagon: back rank A1..H1 from the
    lower-left corner to the lower-right one, file A up the lower-left side, file H up the
    lower-right side. Red's and Black's sectors are that turned clockwise by 120° and 240°,
    which follows the clockwise turn order."""
    origin = (0.0, 0.0)
    apothem = _HEX_RADIUS * math.sqrt(3) / 2
    # Corners of White's two kites in the order (u, v) = (0,0), (1,0), (0,1), (1,1), where u
    # runs along the back rank (left to right) and v toward the centre.
    blocks = (
        (_polar(_HEX_RADIUS, 240), _polar(apothem, 270), _polar(apothem, 210), origin),
        (_polar(apothem, 270), _polar(_HEX_RADIUS, 300), origin, _polar(apothem, 330)),
    )
    polygons: dict[str, Polygon] = {}
    edges: list[_Edge] = []
    for sector in range(3):
        turn = -120.0 * sector
        for row in range(4):
            for column in range(8):
                quad = blocks[column // 4]
                u, v = (column % 4) / 4, row / 4
                corners = [
                    _rotate(_bilinear(quad, uu, vv), turn)
                    for uu, vv in ((u, v), (u + 0.25, v), (u + 0.25, v + 0.25), (u, v + 0.25))
                ]
                name = _hex_name(sector, row, column)
                polygons[name] = tuple(corners)
                rim = []
                if row == 0:
                    rim.append((corners[0], corners[1], name[0]))  # back rank: the file letter
                if column == 0:
                    rim.append((corners[0], corners[3], name[1:]))  # side files: the rank
                if column == 7:
                    rim.append((corners[1], corners[2], name[1:]))
                for a, b, text in rim:
                    edges.append(_Edge(text, _middle(a, b), _outward(a, b, origin)))
    return _Model(polygons, tuple(edges), True)


def _squares(names: Sequence[str], side: float) -> _Model:
    """Square boards: file letters a, b, ... left to right, ranks 1, 2, ... bottom to top,
    seen from the first colour; cells that do not exist (the cross's corners) are left out."""
    cells = {name: (ord(name[0]) - ord("a"), int(name[1:]) - 1) for name in names}
    span = max(max(f, r) for f, r in cells.values()) + 1
    taken = set(cells.values())
    offset = span * side / 2
    polygons: dict[str, Polygon] = {}
    edges: list[_Edge] = []
    for name, (f, r) in cells.items():
        x0, y0 = f * side - offset, r * side - offset
        x1, y1 = x0 + side, y0 + side
        polygons[name] = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        file_text, rank_text = name[0], name[1:]
        for (df, dr), a, b, text in (
            ((0, -1), (x0, y0), (x1, y0), file_text),
            ((0, 1), (x0, y1), (x1, y1), file_text),
            ((-1, 0), (x0, y0), (x0, y1), rank_text),
            ((1, 0), (x1, y0), (x1, y1), rank_text),
        ):
            if (f + df, r + dr) not in taken:
                edges.append(_Edge(text, _middle(a, b), (float(df), float(dr))))
    return _Model(polygons, tuple(edges), False)


@cache
def _model(variant: str) -> _Model:
    kind = kind_of(variant)
    if kind.board == "hexagon":
        model = _hexagon()
    else:
        model = _squares(kind.layout.names, 30.0 if kind.board == "cross" else 50.0)
    _check_topology(variant, model)
    return model


def _check_topology(variant: str, model: _Model) -> None:
    """Refuses a drawing that is not the engine's board: it must have exactly the engine's
    cells, and cells the engine calls orthogonal neighbours (first steps of rook rays) must
    share a side. Runs once per variant; tests/formats/test_svg.py checks the converse too."""
    layout = kind_of(variant).layout
    names = layout.names
    if sorted(model.polygons) != sorted(names):
        raise AssertionError(f"the {variant} drawing does not have the engine's cell names")
    for cell, name in enumerate(names):
        for ray in layout.rook_rays(cell):
            if ray and not _share_side(model.polygons[name], model.polygons[names[ray[0]]]):
                raise AssertionError(f"{name} and {names[ray[0]]} are neighbours but the drawing does not join them")


def _share_side(p: Polygon, q: Polygon) -> bool:
    return sum(1 for a in p if any(math.dist(a, b) < 1e-6 for b in q)) >= 2


# ---------------------------------------------------------------------------------------------
# The drawing: the model turned so that the chosen colour sits at the bottom, in SVG coordinates.

_FONT = 12.0
_LABEL_GAP = 11.0  # from a rim edge to the middle of its label
_MARGIN = 24.0  # room for the labels
_PAD = 3.0  # without labels


@dataclass(frozen=True)
class _Drawing:
    polygons: dict[str, Polygon]
    centres: dict[str, Point]
    radii: dict[str, float]  # radius of the largest circle about the centre inside the cell
    labels: tuple[tuple[str, Point], ...]
    width: float
    height: float
    unit: float  # a typical cell's inner diameter, for line widths


def _inner_radius(polygon: Polygon, centre: Point) -> float:
    """Distance from ``centre`` to the nearest side of the (convex) polygon."""
    best = math.inf
    for a, b in zip(polygon, polygon[1:] + polygon[:1], strict=True):  # each side, the last one closing it
        dx, dy = b[0] - a[0], b[1] - a[1]
        best = min(best, abs(dx * (centre[1] - a[1]) - dy * (centre[0] - a[0])) / math.hypot(dx, dy))
    return best


@lru_cache(maxsize=64)
def _drawing(variant: str, bottom: int, coordinates: bool) -> _Drawing:
    model = _model(variant)
    turn = 360.0 * bottom / len(kind_of(variant).colours)
    turned = {name: tuple(_rotate(p, turn) for p in poly) for name, poly in model.polygons.items()}
    xs = [p[0] for poly in turned.values() for p in poly]
    ys = [p[1] for poly in turned.values() for p in poly]
    labels: list[tuple[str, Point]] = []
    if coordinates:
        for edge in model.edges:
            nx, ny = _rotate(edge.normal, turn)
            mx, my = _rotate(edge.middle, turn)
            if model.label_every_edge:
                labels.append((edge.text, (mx + nx * _LABEL_GAP, my + ny * _LABEL_GAP)))
            # Square boards, like chess diagrams, name each line once, in one row below the
            # board and one column left of it (so the cross's notches hold no labels).
            elif ny < -0.5:
                labels.append((edge.text, (mx, min(ys) - _LABEL_GAP)))
            elif nx < -0.5:
                labels.append((edge.text, (min(xs) - _LABEL_GAP, my)))
    margin = _MARGIN if coordinates else _PAD
    left, top = min(xs) - margin, max(ys) + margin

    def screen(p: Point) -> Point:  # y grows downward in SVG
        return (p[0] - left, top - p[1])

    polygons = {name: tuple(screen(p) for p in poly) for name, poly in turned.items()}
    centres = {name: _centroid(poly) for name, poly in polygons.items()}
    radii = {name: _inner_radius(polygons[name], centres[name]) for name in polygons}
    unit = 2 * sorted(radii.values())[len(radii) // 2]
    return _Drawing(
        polygons,
        centres,
        radii,
        tuple((text, screen(p)) for text, p in labels),
        max(xs) + margin - left,
        top - (min(ys) - margin),
        unit,
    )


# ---------------------------------------------------------------------------------------------
# Pieces: one symbol per kind on a 100×100 canvas. A <use> sets fill (body), stroke (outline)
# and color (inner details), so one definition serves every colour.

_BASE = '<rect x="22" y="78" width="56" height="11" rx="4"/>'
_QUEEN = (
    '<path d="M26 78 L14 32 L33 54 L36 22 L45 50 L50 16 L55 50 L64 22 L67 54 L86 32 L74 78 Z"/>'
    '<circle cx="14" cy="30" r="5.5"/><circle cx="36" cy="20" r="5.5"/><circle cx="50" cy="14" r="5.5"/>'
    '<circle cx="64" cy="20" r="5.5"/><circle cx="86" cy="30" r="5.5"/>'
    + _BASE
    + '<path d="M28 70 H72" fill="none" stroke="currentColor"/>'
)
_SYMBOLS: dict[PieceType, str] = {
    PieceType.PAWN: (
        '<path d="M38 48 H62 L58 54 C60 63 66 70 70 78 H30 C34 70 40 63 42 54 Z"/>'
        '<circle cx="50" cy="33" r="13"/>' + _BASE
    ),
    PieceType.KNIGHT: (
        '<path d="M30 78 C30 66 40 60 46 52 L40 54 C34 60 28 60 24 58 C18 56 17 50 21 46 L34 30 '
        'C38 24 44 20 52 20 L56 10 L62 20 C74 26 80 42 80 78 Z"/>'
        '<circle cx="44" cy="33" r="3.5" fill="currentColor" stroke="none"/>'
        '<path d="M64 30 C70 40 72 56 72 72" fill="none" stroke="currentColor"/>' + _BASE
    ),
    PieceType.BISHOP: (
        '<path d="M40 78 L43 68 H57 L60 78 Z"/>'
        '<path d="M50 20 C38 28 30 40 34 54 C36 61 40 66 43 68 H57 C60 66 64 61 66 54 '
        'C70 40 62 28 50 20 Z"/>'
        '<circle cx="50" cy="14" r="6"/>'
        '<path d="M56 32 L46 46 M43 60 H57" fill="none" stroke="currentColor"/>' + _BASE
    ),
    PieceType.ROOK: (
        '<path d="M30 78 L34 42 H28 V16 H38 V24 H45 V16 H55 V24 H62 V16 H72 V42 H66 L70 78 Z"/>'
        '<path d="M34 42 H66 M32 70 H68" fill="none" stroke="currentColor"/>' + _BASE
    ),
    PieceType.QUEEN: _QUEEN,
    PieceType.KING: (
        '<path d="M46 4 H54 V12 H62 V20 H54 V30 H46 V20 H38 V12 H46 Z"/>'
        '<path d="M50 34 C42 26 16 26 16 46 C16 58 26 66 28 78 H72 C74 66 84 58 84 46 '
        'C84 26 58 26 50 34 Z"/>'
        '<path d="M50 34 V68 M28 70 H72" fill="none" stroke="currentColor"/>' + _BASE
    ),
    # Free-for-all's one-point queen: a queen with a "1" badge (rules §2.2).
    PieceType.ONE_POINT_QUEEN: (
        _QUEEN + '<circle cx="76" cy="74" r="16" fill="#ffffff" stroke="#1a1a1a"/>'
        '<path d="M70 68 L78 62 V86 M71 86 H85" fill="none" stroke="#1a1a1a"/>'
    ),
}

_SNOWFLAKE = (
    '<circle r="1" fill="#ffffff" stroke="#2a7fc0" stroke-width=".12"/>'
    '<path d="M0 -.7 V.7 M-.61 -.35 L.61 .35 M-.61 .35 L.61 -.35" fill="none" stroke="#2a7fc0" '
    'stroke-width=".16" stroke-linecap="round"/>'
)

# fill, outline, details
_PALETTE: dict[Colour, tuple[str, str, str]] = {
    Colour.WHITE: ("#fafafa", "#1a1a1a", "#1a1a1a"),
    Colour.BLACK: ("#2b2b2b", "#000000", "#e6e6e6"),
    Colour.RED: ("#d3392c", "#3a0c07", "#ffe3df"),
    Colour.BLUE: ("#3a6fd0", "#0c1d3d", "#e2ebff"),
    Colour.YELLOW: ("#e9b81f", "#3d2d00", "#3d2d00"),
    Colour.GREEN: ("#3b984c", "#0b2911", "#e0f5e3"),
}
_PIECE_SCALE = 0.94  # of the cell's inner diameter
_DEAD = ("#a3a3a3", "#555555", "#555555")
_LIGHT, _DARK = "#efd9b4", "#b58863"
_BACKGROUND, _LABEL = "#2f2d2a", "#e6e1d7"
_LASTMOVE = "#f3e04f"
_ARROW = "#15781b"
_DOT = "#1d6b2a"
_CSS_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\([0-9., %]{5,40}\)")

# ---------------------------------------------------------------------------------------------
# Public functions

BoardLike: TypeAlias = "Board | Game"


def board(
    board: BoardLike,
    *,
    size: float = 480,
    orientation: Colour | str | None = None,
    lastmove: Move | str | None = None,
    check: str | bool | None = None,
    dots: Iterable[str] | None = None,
    arrows: Iterable[Arrow] = (),
    coordinates: bool = True,
) -> str:
    """An SVG picture of the position of a :class:`~polychess.Board` (or a Game's board).

    - ``size``: width in pixels (the height follows the board's proportions).
    - ``orientation``: the colour (or its name) whose side is drawn at the bottom; None means
      the variant's first colour. Coordinates and pieces stay upright.
    - ``lastmove``: a Move (or move text) whose two cells are highlighted.
    - ``check``: the cell to mark with a red glow; None (or True) marks the king of the player
      to move if he is in check, False marks nothing.
    - ``dots``: cells marked as move targets (a dot, or a ring round an occupied cell), e.g.
      ``legal_targets(board, "E2")``.
    - ``arrows``: ``(from_cell, to_cell)`` or ``(from_cell, to_cell, colour)``; the colour is a
      piece colour (``"red"``, ``Colour.BLUE`` take that army's colour) or a CSS colour.
    - ``coordinates``: file letters and rank numbers along the rim.

    Raises ``ValueError`` for an unknown orientation colour, a cell name that the variant does
    not have, a bad arrow or colour, a size that is not positive, or a move of another variant
    (:class:`~polychess.InvalidMoveError` for unreadable move text); ``TypeError`` for a value
    of the wrong type (a cell that is not a string, an arrow that is not a tuple).
    """
    position = _position(board)
    if isinstance(size, bool) or not isinstance(size, int | float) or not 0 < size < math.inf:
        raise ValueError(f"size must be a positive number of pixels, got {size!r}")
    drawing = _drawing(position.variant, _bottom(position, orientation), bool(coordinates))
    # Validate every option before drawing anything.
    lastmove_cells = _lastmove_cells(position, lastmove)
    check_cell = _check_cell(position, check)
    dot_cells = [] if dots is None else _cells(position, dots, "dots")
    arrow_specs = [_arrow(position, arrow) for arrow in arrows]

    height = size * drawing.height / drawing.width
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'class="polychess-board {position.variant}" viewBox="0 0 {_n(drawing.width)} {_n(drawing.height)}" '
            f'width="{_n(size)}" height="{_n(height)}">'
        )
    ]
    parts += _defs(position, check_cell is not None)
    parts.append(
        f'<rect class="background" width="{_n(drawing.width)}" height="{_n(drawing.height)}" fill="{_BACKGROUND}"/>'
    )
    parts += _cells_layer(position, drawing)
    parts += _overlay(drawing, lastmove_cells, "lastmove", f'fill="{_LASTMOVE}" fill-opacity=".55"')
    if check_cell is not None:
        c = drawing.centres[check_cell]
        parts.append(
            f'<circle class="check" data-cell="{check_cell}" cx="{_n(c[0])}" cy="{_n(c[1])}" '
            f'r="{_n(drawing.radii[check_cell] * 1.25)}" fill="url(#check-glow)" pointer-events="none"/>'
        )
    parts += _labels_layer(drawing)
    parts += _pieces_layer(position, drawing)
    parts += _dots_layer(position, drawing, dot_cells)
    parts += _arrows_layer(drawing, arrow_specs)
    parts.append("</svg>")
    return "\n".join(parts)


def cell_polygons(
    board_or_variant: BoardLike | str, *, orientation: Colour | str | None = None, coordinates: bool = True
) -> dict[str, Polygon]:
    """Every cell's corners, by cell name, in the viewBox units of :func:`board` called with the
    same ``orientation`` and ``coordinates`` (for hit-testing or animation in a web page)."""
    variant, bottom = _variant_and_bottom(board_or_variant, orientation)
    return dict(_drawing(variant, bottom, coordinates).polygons)


def cell_centres(
    board_or_variant: BoardLike | str, *, orientation: Colour | str | None = None, coordinates: bool = True
) -> dict[str, Point]:
    """Every cell's centre (where its piece is drawn), by cell name, in the viewBox units of
    :func:`board` called with the same ``orientation`` and ``coordinates``."""
    variant, bottom = _variant_and_bottom(board_or_variant, orientation)
    return dict(_drawing(variant, bottom, coordinates).centres)


def legal_targets(board: BoardLike, cell: str) -> list[str]:
    """The cells the piece on ``cell`` can move to (the ``dots`` of :func:`board`), in the
    engine's cell order. Raises ``ValueError`` for a cell the variant does not have."""
    position = _position(board)
    start = position._cell(cell)
    layout = position.layout
    targets = {m.to_index for m in position.legal_moves if m.from_index == start}
    return [layout.names[i] for i in sorted(targets)]


# ---------------------------------------------------------------------------------------------
# Reading the options


def _position(board: object) -> Board:
    """The position drawn: a board's, or a game's as it stands (told apart by what they have, as
    this module lies below both)."""
    position = getattr(board, "live_board", board)  # a game's board; a board has no live_board
    if all(hasattr(position, name) for name in ("layout", "legal_moves", "pieces", "fen")):
        return position  # type: ignore[return-value]
    raise TypeError(f"expected a polychess Board or Game, got {type(board).__name__}")


def _colour_index(colours: tuple[Colour, ...], variant: str, colour: Colour | str | None) -> int:
    if colour is None:
        return 0
    try:
        return colours.index(Colour(str(colour).lower()))
    except ValueError:
        names = ", ".join(c.value for c in colours)
        raise ValueError(f"no colour {str(colour)!r} in {variant} (one of {names})") from None


def _bottom(position: Board, orientation: Colour | str | None) -> int:
    return _colour_index(position.colours, position.variant, orientation)


def _variant_and_bottom(board_or_variant: BoardLike | str, orientation: Colour | str | None) -> tuple[str, int]:
    if isinstance(board_or_variant, str):
        if board_or_variant not in VARIANTS:
            raise ValueError(f"unknown variant {board_or_variant!r} (one of {', '.join(VARIANTS)})")
        variant = board_or_variant
    else:
        variant = _position(board_or_variant).variant
    return variant, _colour_index(kind_of(variant).colours, variant, orientation)


def _cell_name(position: Board, cell: object, what: str) -> str:
    if not isinstance(cell, str):
        raise TypeError(f"{what}: expected a cell name, got {cell!r}")
    try:
        return position.layout.names[position.layout.index(cell)]
    except KeyError:
        raise ValueError(f"{what}: no cell named {cell!r} in {position.variant}") from None


def _cells(position: Board, cells: Iterable[str], what: str) -> list[str]:
    if isinstance(cells, str):  # a lone name would otherwise be read letter by letter
        cells = [cells]
    return [_cell_name(position, cell, what) for cell in cells]


def _lastmove_cells(position: Board, lastmove: Move | str | None) -> list[str]:
    if lastmove is None:
        return []
    if isinstance(lastmove, str):
        lastmove = Move.from_text(lastmove, position.variant, position.mode or "")
    if not isinstance(lastmove, Move):
        raise TypeError(f"lastmove: expected a Move or move text, got {lastmove!r}")
    if lastmove.variant != position.variant:
        raise ValueError(f"lastmove: {lastmove} is a move of {lastmove.variant}, not {position.variant}")
    return [lastmove.from_cell, lastmove.to_cell]


def _check_cell(position: Board, check: str | bool | None) -> str | None:
    if check is False:
        return None
    if check is None or check is True:
        return position.king(position.turn) if position.is_check() else None
    return _cell_name(position, check, "check")


class _ArrowSpec(NamedTuple):
    start: str
    end: str
    colour: str


def _arrow(position: Board, arrow: object) -> _ArrowSpec:
    if isinstance(arrow, str) or not isinstance(arrow, tuple | list):
        raise TypeError(f"arrows: expected (from_cell, to_cell) or (from_cell, to_cell, colour), got {arrow!r}")
    if len(arrow) not in (2, 3):
        raise ValueError(f"arrows: expected (from_cell, to_cell) or (from_cell, to_cell, colour), got {arrow!r}")
    start, end = _cell_name(position, arrow[0], "arrows"), _cell_name(position, arrow[1], "arrows")
    return _ArrowSpec(start, end, _ARROW if len(arrow) == 2 else _css_colour(arrow[2]))


def _css_colour(colour: object) -> str:
    try:
        return _PALETTE[Colour(str(colour).lower())][0]  # an army's colour
    except ValueError:
        pass
    if isinstance(colour, str) and _CSS_COLOUR.fullmatch(colour):
        return colour
    raise ValueError(f"arrows: {colour!r} is not a colour (a piece colour, #rgb, #rrggbb, a CSS name or rgb(...))")


# ---------------------------------------------------------------------------------------------
# Writing the layers


def _n(x: float) -> str:
    """A coordinate with two decimals at most, so that output is short and deterministic."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _points(polygon: Polygon) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in polygon)


def _defs(position: Board, check: bool) -> list[str]:
    kinds = sorted({piece.piece_type for piece in position.pieces().values()})
    out = ["<defs>"]
    for kind in kinds:
        out.append(
            f'<symbol id="piece-{_kind_class(kind)}" viewBox="0 0 100 100"><g stroke-width="3.5" '
            f'stroke-linejoin="round" stroke-linecap="round">{_SYMBOLS[kind]}</g></symbol>'
        )
    if any("frozen" in marks for marks, _ in _army_states(position).values()):
        out.append(f'<g id="frozen-marker">{_SNOWFLAKE}</g>')
    if check:
        out.append(
            '<radialGradient id="check-glow"><stop offset="0" stop-color="#ff0000" stop-opacity="1"/>'
            '<stop offset=".45" stop-color="#e70000" stop-opacity=".85"/>'
            '<stop offset="1" stop-color="#9e0000" stop-opacity="0"/></radialGradient>'
        )
    out.append("</defs>")
    return out


def _cells_layer(position: Board, drawing: _Drawing) -> list[str]:
    layout = position.layout
    # A hairline in the cell's own shade hides anti-aliasing seams; the hexagon's cells get a
    # darker line, as on printed boards, because its cells are not aligned in rows.
    hexagon = position.kind.board == "hexagon"
    out = ['<g class="cells">']
    for index, name in enumerate(layout.names):
        shade = "dark" if layout.is_dark(index) else "light"
        fill = _DARK if shade == "dark" else _LIGHT
        stroke = "#5c4330" if hexagon else fill
        out.append(
            f'<polygon class="cell {shade}" data-cell="{name}" points="{_points(drawing.polygons[name])}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{".6" if hexagon else ".5"}"/>'
        )
    out.append("</g>")
    return out


def _overlay(drawing: _Drawing, cells: Sequence[str], cls: str, paint: str) -> list[str]:
    return [
        f'<polygon class="{cls}" data-cell="{c}" points="{_points(drawing.polygons[c])}" {paint} '
        f'pointer-events="none"/>'
        for c in cells
    ]


def _labels_layer(drawing: _Drawing) -> list[str]:
    if not drawing.labels:
        return []
    out = [
        (
            f'<g class="coordinates" font-family="sans-serif" font-size="{_n(_FONT)}" text-anchor="middle" '
            f'fill="{_LABEL}" pointer-events="none">'
        )
    ]
    for text, (x, y) in drawing.labels:
        # Baseline shift by hand: dominant-baseline is not honoured by every renderer.
        out.append(f'<text class="coord" x="{_n(x)}" y="{_n(y + 0.36 * _FONT)}">{text}</text>')
    out.append("</g>")
    return out


def _kind_class(kind: PieceType) -> str:
    return kind.name.lower().replace("_", "-")


def _army_states(position: Board) -> dict[Colour, tuple[tuple[str, ...], Colour | None]]:
    """For each colour, its marks and the player who now controls it if that is someone else:
    "dead" (nobody controls it: resigned, out of time, out in free-for-all), "frozen" (its
    controller is stalemated, rules §1.9), "controlled" (a mated army played by the mater)."""
    states: dict[Colour, tuple[tuple[str, ...], Colour | None]] = {}
    for colour in position.colours:
        controller = position.controller(colour)
        if controller is None:
            states[colour] = (("dead",), None)
            continue
        marks = ("frozen",) if position.status(controller) == Status.FROZEN else ()
        if controller != colour:
            states[colour] = (marks + ("controlled",), controller)
        else:
            states[colour] = (marks, None)
    return states


def _pieces_layer(position: Board, drawing: _Drawing) -> list[str]:
    states = _army_states(position)
    pieces = position.pieces()
    out = ['<g class="pieces" pointer-events="none">']
    for name in position.layout.names:  # engine order, so the output is deterministic
        piece = pieces.get(name)
        if piece is None:
            continue
        marks, controller = states[piece.colour]
        classes = " ".join(("piece", piece.colour.value, _kind_class(piece.piece_type)) + marks)
        fill, outline, detail = _DEAD if "dead" in marks else _PALETTE[piece.colour]
        cx, cy = drawing.centres[name]
        box = drawing.radii[name] * 2 * _PIECE_SCALE
        extra = f' data-controller="{controller.value}"' if controller is not None else ""
        out.append(f'<g class="{classes}" data-cell="{name}"{extra}>')
        if controller is not None:  # a ring in the controller's colour, edged for contrast
            ring = box * 0.5
            out.append(
                f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(ring)}" fill="none" stroke="#111111" '
                f'stroke-width="{_n(box * 0.085)}"/>'
            )
            out.append(
                f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(ring)}" fill="none" '
                f'stroke="{_PALETTE[controller][0]}" stroke-width="{_n(box * 0.05)}"/>'
            )
        opacity = ' opacity=".55"' if "frozen" in marks else ""
        out.append(
            f'<use xlink:href="#piece-{_kind_class(piece.piece_type)}" x="{_n(cx - box / 2)}" '
            f'y="{_n(cy - box / 2)}" width="{_n(box)}" height="{_n(box)}" fill="{fill}" '
            f'stroke="{outline}" color="{detail}"{opacity}/>'
        )
        if "frozen" in marks:
            out.append(
                f'<use xlink:href="#frozen-marker" transform="translate({_n(cx + box * 0.38)} '
                f'{_n(cy - box * 0.38)}) scale({_n(box * 0.16)})"/>'
            )
        out.append("</g>")
    out.append("</g>")
    return out


def _dots_layer(position: Board, drawing: _Drawing, cells: Sequence[str]) -> list[str]:
    if not cells:
        return []
    out = [f'<g class="dots" fill="{_DOT}" pointer-events="none">']
    for name in cells:
        cx, cy = drawing.centres[name]
        radius = drawing.radii[name]
        if position.piece_at(name) is None:
            out.append(
                f'<circle class="dot" data-cell="{name}" cx="{_n(cx)}" cy="{_n(cy)}" '
                f'r="{_n(radius * 0.32)}" fill-opacity=".6"/>'
            )
        else:  # a ring, so that the piece to be taken stays visible
            out.append(
                f'<circle class="dot capture" data-cell="{name}" cx="{_n(cx)}" cy="{_n(cy)}" '
                f'r="{_n(radius * 0.9)}" fill="none" stroke="{_DOT}" stroke-opacity=".6" '
                f'stroke-width="{_n(radius * 0.18)}"/>'
            )
    out.append("</g>")
    return out


def _arrows_layer(drawing: _Drawing, arrows: Sequence[_ArrowSpec]) -> list[str]:
    if not arrows:
        return []
    width = drawing.unit * 0.2
    out = ['<g class="arrows" pointer-events="none" stroke-linecap="round">']
    for arrow in arrows:
        (x0, y0), (x1, y1) = drawing.centres[arrow.start], drawing.centres[arrow.end]
        data = f'class="arrow" data-from="{arrow.start}" data-to="{arrow.end}"'
        if arrow.start == arrow.end:  # an arrow to nowhere marks the cell, as on lichess
            out.append(
                f'<circle {data} cx="{_n(x0)}" cy="{_n(y0)}" r="{_n(drawing.radii[arrow.start] * 0.9)}" '
                f'fill="none" stroke="{arrow.colour}" stroke-width="{_n(width * 0.7)}" opacity=".8"/>'
            )
            continue
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        head = width * 2.2
        bx, by = x1 - ux * head, y1 - uy * head  # where the head begins
        left = (bx + uy * head * 0.6, by - ux * head * 0.6)
        right = (bx - uy * head * 0.6, by + ux * head * 0.6)
        out.append(
            f'<g {data} opacity=".8">'
            f'<line x1="{_n(x0)}" y1="{_n(y0)}" x2="{_n(bx)}" y2="{_n(by)}" stroke="{arrow.colour}" '
            f'stroke-width="{_n(width)}"/>'
            f'<polygon points="{_points(((x1, y1), left, right))}" fill="{arrow.colour}"/></g>'
        )
    out.append("</g>")
    return out
