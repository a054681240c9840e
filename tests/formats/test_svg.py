"""SVG pictures (polychess.svg) checked against the engine: the drawn cells are exactly the
engine's cells, cells the engine calls orthogonal neighbours share an edge in the drawing (and no
others do), every piece is drawn inside its own cell, orientation puts the chosen side at the
bottom, every option shows up as its documented class, and bad input raises ValueError.

The SVG is read back with xml.etree; geometry (point in polygon, shared edges, areas) is redone
here from the output's own coordinates, independently of the module's helpers.
"""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET

import pytest

from polychess import Board, Colour, Game, InvalidMoveError, Move, PieceType, svg
from positions import cross_position, placement, position

NS = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
VARIANTS = {"three-player": 96, "four-player": 160, "standard": 64}
Point = tuple[float, float]


# --------------------------------------------------------------------------- reading the SVG


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def classes(element: ET.Element) -> list[str]:
    return element.get("class", "").split()


def having(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in classes(e)]


def points(element: ET.Element) -> list[Point]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in element.get("points", "").split())]


def cell_polygons(root: ET.Element) -> dict[str, list[Point]]:
    return {e.get("data-cell", ""): points(e) for e in having(root, "cell")}


def centroid(polygon: list[Point]) -> Point:
    return (sum(p[0] for p in polygon) / len(polygon), sum(p[1] for p in polygon) / len(polygon))


def inside(point: Point, polygon: list[Point]) -> bool:
    """Ray casting: does a horizontal ray from the point cross the polygon's sides an odd number of times?"""
    x, y = point
    odd = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            odd = not odd
    return odd


def distance_to_rim(point: Point, polygon: list[Point]) -> float:
    """Distance from a point inside a convex polygon to its nearest side."""
    return min(
        abs((b[0] - a[0]) * (point[1] - a[1]) - (b[1] - a[1]) * (point[0] - a[0])) / math.dist(a, b)
        for a, b in zip(polygon, polygon[1:] + polygon[:1], strict=True)
    )


def area(polygon: list[Point]) -> float:
    sides = zip(polygon, polygon[1:] + polygon[:1], strict=True)
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in sides)) / 2


def close(a: Point, b: Point, tolerance: float = 0.03) -> bool:
    return abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance


def shares_edge(p: list[Point], q: list[Point]) -> bool:
    sides_p = list(zip(p, p[1:] + p[:1], strict=True))
    sides_q = list(zip(q, q[1:] + q[:1], strict=True))
    return any((close(a, c) and close(b, d)) or (close(a, d) and close(b, c)) for a, b in sides_p for c, d in sides_q)


def shares_vertex(p: list[Point], q: list[Point]) -> bool:
    return any(close(a, b) for a in p for b in q)


def piece_centre(group: ET.Element) -> Point:
    use = group.find(f"{NS}use")
    assert use is not None
    x, y, w, h = (float(use.get(k, "nan")) for k in ("x", "y", "width", "height"))
    return (x + w / 2, y + h / 2)


def drawn_pieces(root: ET.Element) -> dict[str, tuple[str, str]]:
    out = {}
    for group in having(root, "piece"):
        cls = classes(group)
        out[group.get("data-cell", "")] = (cls[1], cls[2])
    return out


def kind_class(kind: PieceType) -> str:
    return kind.name.lower().replace("_", "-")


def played(variant: str, plies: int, seed: int) -> Board:
    board = Board(variant)
    rng = random.Random(seed)
    for _ in range(plies):
        moves = sorted(board.legal_moves, key=str)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def back_rank(variant: str, colour: Colour) -> set[str]:
    """The cells of a colour's pieces other than pawns in the start position."""
    return {c for c, p in Board(variant).pieces().items() if p.colour == colour and p.piece_type != PieceType.PAWN}


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize("variant", VARIANTS)
def test_well_formed_with_exactly_the_engines_cells(variant: str) -> None:
    board = Board(variant)
    root = parse(svg.board(board, size=500))
    assert len(root.get("viewBox", "").split()) == 4
    assert root.get("width") == "500"
    cells = having(root, "cell")
    assert len(cells) == VARIANTS[variant]
    layout = board.layout
    assert sorted(e.get("data-cell", "") for e in cells) == sorted(layout.names)
    for e in cells:
        shade = "dark" if layout.is_dark(layout.index(e.get("data-cell", ""))) else "light"
        assert e.get("class") == f"cell {shade}"
        assert len(points(e)) == 4


@pytest.mark.parametrize("variant", VARIANTS)
def test_size_sets_the_width_and_keeps_the_proportions(variant: str) -> None:
    root = parse(svg.board(Board(variant), size=300))
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert root.get("width") == "300"
    assert float(root.get("height", "0")) == pytest.approx(300 * height / width, abs=0.01)
    assert parse(svg.board(Board(variant), size=300.0)).get("width") == "300"


@pytest.mark.parametrize("variant", VARIANTS)
def test_deterministic(variant: str) -> None:
    board = played(variant, 12, seed=1)
    last = board.peek()
    options = {"lastmove": last, "dots": [last.to_cell], "arrows": [(last.from_cell, last.to_cell)]}
    assert svg.board(board, **options) == svg.board(board.copy(), **options)  # type: ignore[arg-type]


def test_pieces_are_defined_once_and_reused() -> None:
    root = parse(svg.board(Board("three-player")))
    symbols = {e.get("id") for e in root.iter(f"{NS}symbol")}
    assert symbols == {f"piece-{kind_class(k)}" for k in PieceType if k != PieceType.ONE_POINT_QUEEN}
    pieces = having(root, "piece")
    uses = [group.find(f"{NS}use") for group in pieces]
    assert all(u is not None and u.get(XLINK) == f"#piece-{classes(g)[2]}" for u, g in zip(uses, pieces, strict=True))
    assert not any(e.tag == f"{NS}text" for g in pieces for e in g.iter())


# --------------------------------------------------------------------------- geometry against the topology


@pytest.mark.parametrize("variant", VARIANTS)
def test_orthogonal_neighbours_share_an_edge_and_no_other_cells_do(variant: str) -> None:
    layout = Board(variant).layout
    names = layout.names
    engine = {
        frozenset((names[c], names[ray[0]])) for c in range(layout.cell_count) for ray in layout.rook_rays(c) if ray
    }
    polygons = cell_polygons(parse(svg.board(Board(variant))))
    drawn = {frozenset((a, b)) for a in polygons for b in polygons if a < b and shares_edge(polygons[a], polygons[b])}
    assert drawn == engine
    if variant == "three-player":
        assert len(engine) == 168  # docs/rules.md §1.2


@pytest.mark.parametrize("variant", VARIANTS)
def test_cells_sharing_an_edge_differ_in_colour(variant: str) -> None:
    root = parse(svg.board(Board(variant)))
    shade = {e.get("data-cell"): classes(e)[1] for e in having(root, "cell")}
    polygons = cell_polygons(root)
    for a in polygons:
        for b in polygons:
            if a < b and shares_edge(polygons[a], polygons[b]):
                assert shade[a] != shade[b], (a, b)


def test_hexagon_king_neighbours_touch_and_only_opposite_rosette_cells_touch_without_being_neighbours() -> None:
    layout = Board("three-player").layout
    names = layout.names
    kings = {frozenset((names[c], names[t])) for c in range(layout.cell_count) for t in layout.king_targets(c)}
    polygons = cell_polygons(parse(svg.board(Board("three-player"))))
    touching = {
        frozenset((a, b)) for a in polygons for b in polygons if a < b and shares_vertex(polygons[a], polygons[b])
    }
    assert kings <= touching
    assert touching - kings == {frozenset(p) for p in (("D4", "K5"), ("E4", "K9"), ("E5", "D9"))}


def test_hexagon_is_six_four_by_four_blocks_of_quadrilaterals_round_the_centre() -> None:
    polygons = cell_polygons(parse(svg.board(Board("three-player"), coordinates=False)))
    rosette = ("D4", "E4", "E5", "K5", "K9", "D9")
    # The six rosette cells meet at one point, the centre of the board.
    common = [p for p in polygons["D4"] if all(any(close(p, q) for q in polygons[c]) for c in rosette)]
    assert len(common) == 1
    centre = common[0]
    radius = max(math.dist(centre, p) for poly in polygons.values() for p in poly)
    # The cells tile a regular hexagon exactly (no gaps, no overlaps) ...
    assert sum(area(p) for p in polygons.values()) == pytest.approx(3 * math.sqrt(3) / 2 * radius**2, rel=1e-3)
    corners = {
        (round(p[0]), round(p[1])) for poly in polygons.values() for p in poly if math.dist(centre, p) > radius - 0.05
    }
    assert len(corners) == 6
    # ... with a flat bottom (White's back rank) and corners 60° apart ...
    angles = sorted(round(math.degrees(math.atan2(centre[1] - y, x - centre[0]))) % 360 for x, y in corners)
    assert angles == [0, 60, 120, 180, 240, 300]
    # ... and every cell is a convex quadrilateral, so "inside the cell" means what it says.
    for name, poly in polygons.items():
        turns = [
            (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
            for a, b, c in zip(poly, poly[1:] + poly[:1], poly[2:] + poly[:2], strict=True)
        ]
        assert all(t > 0 for t in turns) or all(t < 0 for t in turns), name
    # Each block (a half sector, 4×4 cells) is a quadrilateral of its own: the centre, two
    # side midpoints and one hexagon corner; its 16 cells fill it.
    for files, ranks in (
        ("ABCD", "1234"),
        ("EFGH", "1234"),
        ("NMLK", ("12", "11", "10", "9")),
        ("DCBA", ("12", "11", "10", "9")),
        ("HGFE", "8765"),
        ("KLMN", "8765"),
    ):
        block = [polygons[f"{f}{r}"] for f in files for r in ranks]
        hull = {(round(p[0], 1), round(p[1], 1)) for poly in block for p in poly}
        assert sum(area(p) for p in block) == pytest.approx(3 * math.sqrt(3) / 2 * radius**2 / 6, rel=1e-3)
        assert any(close(centre, p, 0.15) for p in hull)


def test_hexagon_white_back_rank_lies_along_the_bottom_side() -> None:
    root = parse(svg.board(Board("three-player")))
    centres = {name: centroid(poly) for name, poly in cell_polygons(root).items()}
    bottom = sorted(centres, key=lambda n: -centres[n][1])[:8]
    assert sorted(bottom) == sorted(f"{f}1" for f in "ABCDEFGH")
    polygons = cell_polygons(root)
    floor = max(p[1] for poly in polygons.values() for p in poly)
    for f in "ABCDEFGH":  # each has one side on the level bottom side of the hexagon
        assert sum(abs(y - floor) < 0.02 for _, y in polygons[f"{f}1"]) == 2
    xs = [centres[f"{f}1"][0] for f in "ABCDEFGH"]
    assert xs == sorted(xs)  # A on the left, H on the right


# --------------------------------------------------------------------------- pieces


POSITIONS = [(v, plies, seed) for v in VARIANTS for plies, seed in ((0, 0), (15, 1), (40, 2))]


@pytest.mark.parametrize(("variant", "plies", "seed"), POSITIONS)
@pytest.mark.parametrize("turned", [False, True])
def test_every_piece_is_drawn_inside_its_own_cell(variant: str, plies: int, seed: int, turned: bool) -> None:
    board = played(variant, plies, seed)
    orientation = board.colours[-1] if turned else None
    root = parse(svg.board(board, orientation=orientation))
    expected = {cell: (p.colour.value, kind_class(p.piece_type)) for cell, p in board.pieces().items()}
    assert drawn_pieces(root) == expected
    polygons = cell_polygons(root)
    for group in having(root, "piece"):
        cell = group.get("data-cell", "")
        centre = piece_centre(group)
        assert inside(centre, polygons[cell]), cell
        assert not any(inside(centre, poly) for name, poly in polygons.items() if name != cell)
        use = group.find(f"{NS}use")
        assert use is not None
        # The piece's square box, shrunk to a circle, stays within the cell: pieces do not overlap.
        assert distance_to_rim(centre, polygons[cell]) >= 0.45 * float(use.get("width", "nan"))


def test_one_point_queen_is_drawn_differently_from_the_queen() -> None:
    board = Board(
        "four-player",
        cross_position({"h1": "rK", "e7": "rD", "f7": "rQ", "a7": "bK", "g14": "yK", "n8": "gK"}),
        mode="ffa",
    )
    root = parse(svg.board(board))
    assert drawn_pieces(root)["e7"] == ("red", "one-point-queen")
    assert drawn_pieces(root)["f7"] == ("red", "queen")
    symbols = {e.get("id"): ET.tostring(e) for e in root.iter(f"{NS}symbol")}
    assert symbols["piece-one-point-queen"] != symbols["piece-queen"].replace(b"piece-queen", b"piece-one-point-queen")


def colour_of(group: ET.Element) -> str:
    use = group.find(f"{NS}use")
    assert use is not None
    return use.get("fill", "")


def test_three_player_resigned_army_is_dead_and_grey() -> None:
    pieces = placement(Board("three-player").fen())
    del pieces["E1"]
    board = Board("three-player", position(pieces, turn="r", castling="rKQbKQ", controllers="-rb", statuses="xaa"))
    root = parse(svg.board(board))
    white = [g for g in having(root, "piece") if "white" in classes(g)]
    assert len(white) == 15 and all("dead" in classes(g) for g in white)
    red = [g for g in having(root, "piece") if "red" in classes(g)]
    assert not any("dead" in classes(g) for g in red)
    assert {colour_of(g) for g in white}.isdisjoint(
        {colour_of(g) for g in red} | {colour_of(g) for g in having(root, "piece") if "black" in classes(g)}
    )


def test_three_player_mated_army_keeps_its_colour_with_a_ring_of_the_maters() -> None:
    start = parse(svg.board(Board("three-player")))
    fill = {c: colour_of(next(g for g in having(start, "piece") if c in classes(g))) for c in ("red", "black")}
    pieces = placement(Board("three-player").fen())
    del pieces["D12"]
    board = Board("three-player", position(pieces, turn="b", castling="wKQbKQ", controllers="wbb", statuses="axa"))
    root = parse(svg.board(board))
    red = [g for g in having(root, "piece") if "red" in classes(g)]
    assert len(red) == 15
    for group in red:
        assert "controlled" in classes(group) and group.get("data-controller") == "black"
        assert colour_of(group) == fill["red"]
        assert fill["black"] in [c.get("stroke") for c in group.iter(f"{NS}circle")]
    others = [g for g in having(root, "piece") if "red" not in classes(g)]
    assert not any(
        "controlled" in classes(g) or g.get("data-controller") or g.find(f"{NS}circle") is not None for g in others
    )


def test_three_player_frozen_player_is_marked() -> None:
    board = Board(
        "three-player", position(placement(Board("three-player").fen()), turn="w", castling="wKQrKQbKQ", statuses="aaf")
    )
    root = parse(svg.board(board))
    for group in having(root, "piece"):
        frozen = "frozen" in classes(group)
        assert frozen == ("black" in classes(group))
        assert (group.find(f"{NS}use[@opacity]") is not None) == frozen
        markers = [u for u in group.iter(f"{NS}use") if u.get(XLINK) == "#frozen-marker"]
        assert len(markers) == (1 if frozen else 0)


def test_four_player_dead_pieces_are_grey() -> None:
    board = Board(
        "four-player",
        cross_position(
            {"h1": "rK", "a7": "bK", "a8": "bQ", "b7": "bP", "g14": "yK", "n8": "gK"},
            controllers="r-yg",
            statuses="axaa",
        ),
        mode="ffa",
    )
    root = parse(svg.board(board))
    groups = {g.get("data-cell"): g for g in having(root, "piece")}
    for cell in ("a7", "a8", "b7"):
        assert "dead" in classes(groups[cell]) and "blue" in classes(groups[cell])
    for cell in ("h1", "g14", "n8"):
        assert "dead" not in classes(groups[cell])
    live = Board("four-player", cross_position({"h1": "rK", "a7": "bK", "g14": "yK", "n8": "gK"}), mode="ffa")
    live_fill = colour_of(next(g for g in having(parse(svg.board(live)), "piece") if "blue" in classes(g)))
    assert colour_of(groups["a7"]) != live_fill


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize("variant", VARIANTS)
def test_orientation_puts_the_chosen_side_at_the_bottom_and_keeps_text_upright(variant: str) -> None:
    for colour in Board(variant).colours:
        for orientation in (colour, colour.value, colour.value.upper()):
            text = svg.board(Board(variant), orientation=orientation)
            root = parse(text)
            centres = {name: centroid(poly) for name, poly in cell_polygons(root).items()}
            lowest = sorted(centres, key=lambda n: -centres[n][1])[:8]
            assert set(lowest) == back_rank(variant, colour), (variant, colour)
            assert "rotate" not in text and "matrix" not in text  # nothing is drawn turned
            helper = svg.cell_centres(variant, orientation=orientation)
            assert helper.keys() == centres.keys()
            assert all(close(centres[n], helper[n], 0.01) for n in centres)
    default = svg.board(Board(variant))
    assert default == svg.board(Board(variant), orientation=Board(variant).colours[0])


@pytest.mark.parametrize("variant", VARIANTS)
def test_helpers_match_the_picture(variant: str) -> None:
    board = played(variant, 6, seed=3)
    for coordinates in (True, False):
        root = parse(svg.board(board, orientation=board.colours[1], coordinates=coordinates))
        polygons = svg.cell_polygons(board, orientation=board.colours[1], coordinates=coordinates)
        drawn = cell_polygons(root)
        assert drawn.keys() == polygons.keys()
        for name in drawn:
            assert all(close(a, b, 0.006) for a, b in zip(drawn[name], polygons[name], strict=True))


def labels(root: ET.Element) -> list[tuple[str, Point]]:
    return [(e.text or "", (float(e.get("x", "nan")), float(e.get("y", "nan")))) for e in having(root, "coord")]


@pytest.mark.parametrize("colour", ["white", "red", "black"])
def test_hexagon_coordinates_name_the_rim_cells_beside_them(colour: str) -> None:
    root = parse(svg.board(Board("three-player"), orientation=colour))
    found = labels(root)
    assert len(found) == 48  # 8 on each of the six sides
    assert sorted(t for t, _ in found if t.isalpha()) == sorted("ABCDEFGHKLMN" * 2)
    assert sorted(int(t) for t, _ in found if t.isdigit()) == sorted(list(range(1, 13)) * 2)
    centres = {name: centroid(poly) for name, poly in cell_polygons(root).items()}
    for text, point in found:
        nearest = min(centres, key=lambda n: math.dist(centres[n], point))
        assert text in (nearest[0], nearest[1:]), (text, nearest)


@pytest.mark.parametrize("variant", ["four-player", "standard"])
def test_square_coordinates_name_each_file_and_rank_once(variant: str) -> None:
    for colour in Board(variant).colours:
        root = parse(svg.board(Board(variant), orientation=colour))
        centres = {name: centroid(poly) for name, poly in cell_polygons(root).items()}
        side = math.dist(*cell_polygons(root)[Board(variant).layout.names[0]][:2])
        found = labels(root)
        span = 14 if variant == "four-player" else 8
        assert len(found) == 2 * span
        assert sorted(t for t, _ in found if t.isalpha()) == sorted("abcdefghijklmn"[:span])
        corners = [p for poly in cell_polygons(root).values() for p in poly]
        bottom = max(y for _, y in corners)
        left = min(x for x, _ in corners)
        for text, (x, y) in found:
            if y > bottom:  # a label below the board names the column above it
                column = [n for n, c in centres.items() if abs(c[0] - x) < side / 2]
            else:  # one left of it names the row to its right
                assert x < left
                column = [n for n, c in centres.items() if abs(c[1] - y) < side / 2]
            assert column and all(text in (n[0], n[1:]) for n in column), (colour, text, column)


@pytest.mark.parametrize("variant", VARIANTS)
def test_coordinates_off(variant: str) -> None:
    with_labels = parse(svg.board(Board(variant)))
    without = parse(svg.board(Board(variant), coordinates=False))
    assert labels(with_labels) and not labels(without)
    assert not any(e.tag == f"{NS}text" for e in without.iter())
    assert float(without.get("viewBox", "").split()[2]) < float(with_labels.get("viewBox", "").split()[2])


def test_cell_names_are_read_like_the_engine_reads_them() -> None:
    root = parse(svg.board(Board("three-player"), dots=["e3"], arrows=[("e2", "e4")], check="d1"))
    assert [e.get("data-cell") for e in having(root, "dot")] == ["E3"]
    assert [(e.get("data-from"), e.get("data-to")) for e in having(root, "arrow")] == [("E2", "E4")]
    assert [e.get("data-cell") for e in having(root, "check")] == ["D1"]


def test_lastmove_highlights_both_cells() -> None:
    board = Board("three-player")
    move = board.push("E2E4")
    for lastmove in (move, "E2E4", Move.from_text("e2-e4", "three-player")):
        root = parse(svg.board(board, lastmove=lastmove))
        assert sorted(e.get("data-cell", "") for e in having(root, "lastmove")) == ["E2", "E4"]
    assert not having(parse(svg.board(board)), "lastmove")


def in_check() -> Board:
    board = Board("three-player", position({"E1": "wK", "D12": "rK", "K8": "bK", "E6": "rR"}, turn="w"))
    assert board.is_check()
    return board


def test_check_marks_the_king_of_the_player_to_move_by_default() -> None:
    checks = having(parse(svg.board(in_check())), "check")
    assert [e.get("data-cell") for e in checks] == ["E1"]
    assert not having(parse(svg.board(in_check(), check=False)), "check")
    assert not having(parse(svg.board(Board("three-player"))), "check")
    assert [e.get("data-cell") for e in having(parse(svg.board(Board("three-player"), check="D12")), "check")] == [
        "D12"
    ]


def test_check_glow_is_red() -> None:
    root = parse(svg.board(in_check()))
    glow = having(root, "check")[0].get("fill", "")
    gradient = root.find(f".//{NS}radialGradient[@id='{glow[5:-1]}']")
    assert gradient is not None
    assert all(stop.get("stop-color", "").startswith(("#ff0000", "#e70000", "#9e0000")) for stop in gradient)


@pytest.mark.parametrize("variant", VARIANTS)
def test_dots_on_the_legal_targets(variant: str) -> None:
    board = played(variant, 10, seed=4)
    mover = next(iter(board.legal_moves)).from_cell
    targets = svg.legal_targets(board, mover)
    assert sorted(targets) == sorted({m.to_cell for m in board.legal_moves if m.from_cell == mover})
    root = parse(svg.board(board, dots=targets))
    dots = having(root, "dot")
    assert sorted(e.get("data-cell", "") for e in dots) == sorted(targets)
    for dot in dots:
        assert ("capture" in classes(dot)) == (board.piece_at(dot.get("data-cell", "")) is not None)
    polygons = cell_polygons(root)
    for dot in dots:
        assert inside((float(dot.get("cx", "nan")), float(dot.get("cy", "nan"))), polygons[dot.get("data-cell", "")])


def test_dots_ring_a_capture() -> None:
    board = Board("standard", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    root = parse(svg.board(board, dots=svg.legal_targets(board, "e4")))
    assert {e.get("data-cell"): "capture" in classes(e) for e in having(root, "dot")} == {"e5": False, "d5": True}


def test_arrows() -> None:
    board = Board("three-player")
    root = parse(
        svg.board(
            board, arrows=[("E2", "E4"), ("G1", "F3", "red"), ("B1", "C3", "#00ff00"), ("A1", "A1", Colour.BLACK)]
        )
    )
    arrows = having(root, "arrow")
    assert [(a.get("data-from"), a.get("data-to")) for a in arrows] == [
        ("E2", "E4"),
        ("G1", "F3"),
        ("B1", "C3"),
        ("A1", "A1"),
    ]
    paint = [{e.get("stroke") or e.get("fill") for e in a.iter() if e.get("stroke") or e.get("fill")} for a in arrows]
    red_army = colour_of(next(g for g in having(root, "piece") if "red" in classes(g)))
    assert paint[1] == {red_army} and paint[2] == {"#00ff00"} and len(paint[0]) == 1
    # Each arrow runs from its start cell's centre toward its end cell.
    polygons = cell_polygons(root)
    line = arrows[0].find(f"{NS}line")
    assert line is not None
    assert inside((float(line.get("x1", "nan")), float(line.get("y1", "nan"))), polygons["E2"])
    head = arrows[0].find(f"{NS}polygon")
    assert head is not None and inside(points(head)[0], polygons["E4"])


def test_clickable_cells_are_on_top_of_nothing_that_takes_pointer_events() -> None:
    board = Board("three-player")
    board.push("E2E4")
    root = parse(svg.board(board, lastmove=board.peek(), dots=["E5"], arrows=[("D2", "D4")]))
    for layer in ("pieces", "dots", "arrows", "coordinates"):
        group = having(root, layer)
        assert group and group[0].get("pointer-events") == "none"
    assert all(e.get("pointer-events") == "none" for e in having(root, "lastmove"))


# --------------------------------------------------------------------------- Jupyter and games


def test_board_repr_svg_is_the_picture_with_the_last_move() -> None:
    board = Board("three-player")
    assert board._repr_svg_() == svg.board(board)
    board.push("E2E4")
    assert board._repr_svg_() == svg.board(board, lastmove=board.peek())
    assert having(parse(board._repr_svg_()), "lastmove")


def test_game_repr_svg_and_games_as_input() -> None:
    game = Game("four-player")
    assert game._repr_svg_() == svg.board(game.board)
    game.push("h2h3")
    picture = game._repr_svg_()
    assert sorted(e.get("data-cell", "") for e in having(parse(picture), "lastmove")) == ["h2", "h3"]
    assert svg.board(game) == svg.board(game.board)
    assert svg.cell_centres(game) == svg.cell_centres("four-player")


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"orientation": "purple"}, "no colour 'purple' in three-player"),
        ({"orientation": "blue"}, "no colour 'blue' in three-player"),
        ({"orientation": Colour.GREEN}, "no colour 'green'"),
        ({"dots": ["E2", "Z9"]}, "dots: no cell named 'Z9'"),
        ({"dots": ["E13"]}, "dots: no cell named 'E13'"),
        ({"arrows": [("E2", "E44")]}, "arrows: no cell named 'E44'"),
        ({"arrows": [("I1", "E4")]}, "arrows: no cell named 'I1'"),
        ({"arrows": [("E2",)]}, "arrows: expected"),
        ({"arrows": [("E2", "E4", "no colour!")]}, "not a colour"),
        ({"arrows": [("E2", "E4", '"/><script>')]}, "not a colour"),
        ({"check": "J3"}, "check: no cell named 'J3'"),
        ({"lastmove": Move.from_text("e2e4", "standard")}, "a move of standard, not three-player"),
        ({"size": 0}, "size must be a positive"),
        ({"size": "480"}, "size must be a positive"),
    ],
)
def test_bad_options_raise_value_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        svg.board(Board("three-player"), **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"dots": [12]}, "dots: expected a cell name"),
        ({"arrows": ["E2E4"]}, "arrows: expected"),
        ({"arrows": [None]}, "arrows: expected"),
        ({"lastmove": 17}, "lastmove: expected a Move"),
    ],
)
def test_options_of_the_wrong_type_raise_type_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        svg.board(Board("three-player"), **options)  # type: ignore[arg-type]


def test_unreadable_lastmove_text_raises_invalid_move_error() -> None:
    with pytest.raises(InvalidMoveError):
        svg.board(Board("three-player"), lastmove="Z9Z8")


def test_bad_board_and_variant() -> None:
    with pytest.raises(TypeError):
        svg.board("three-player")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown variant 'hexagon'"):
        svg.cell_centres("hexagon")
    with pytest.raises(ValueError, match="no colour 'white' in four-player"):
        svg.cell_polygons("four-player", orientation="white")
    with pytest.raises(ValueError):
        svg.legal_targets(Board("standard"), "z9")
