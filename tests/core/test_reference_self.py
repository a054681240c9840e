"""Self-tests of the pure-Python three-player reference (tests/reference/three_player.py).

Every fact stated in docs/rules.md §1.1-1.4 is checked here, plus a few hand positions for
castling, en passant, promotion, king capture and mate attribution.  This file must not import
polychess: it validates the reference on its own, so that the reference can then judge the
engine.
"""

from __future__ import annotations

import itertools

import pytest

from positions import placement, position
from reference import three_player as tp

# --------------------------------------------------------------------------- helpers

# rules §1.1 table, rebuilt here independently of the reference.
SECTOR_FILES = ("ABCDEFGH", "NMLKDCBA", "HGFEKLMN")


def local_name(s: int, r: int, c: int) -> str:
    rank = (r + 1, 12 - r, 8 - r)[s]
    return f"{SECTOR_FILES[s][c]}{rank}"


LOCAL = {local_name(s, r, c): (s, r, c) for s in range(3) for r in range(4) for c in range(8)}
ROSETTE = ["D4", "E4", "E5", "K5", "K9", "D9"]  # ring order
CORNERS = {"A1", "H1", "N12", "A12", "H8", "N8"}


def rotate(name: str) -> str:
    s, r, c = LOCAL[name]
    return local_name((s + 1) % 3, r, c)


def orthogonal(cell: str) -> set[str]:
    out = set()
    for d in "FBLR":
        res = tp.step(cell, d, False)
        if res is not None:
            out.add(res[0])
    return out


def walk(cell: str, dirs) -> str | None:
    flip = False
    for d in dirs:
        res = tp.step(cell, d, flip)
        if res is None:
            return None
        cell, flip = res
    return cell


def diagonal(cell: str) -> set[str]:
    out = set()
    for x in "FB":
        for y in "LR":
            for path in ((x, y), (y, x)):
                u = walk(cell, path)
                if u is not None:
                    out.add(u)
    return out


def pairs(relation) -> set[frozenset]:
    return {frozenset((a, b)) for a in tp.CELLS for b in relation(a)}


def bishop_targets(cell: str) -> set[str]:
    return {u for ray in tp.bishop_rays(cell) for u in ray}


def rook_targets(cell: str) -> set[str]:
    return {u for ray in tp.rook_rays(cell) for u in ray}


def fields(pos: str) -> list[str]:
    return pos.split(" ")


# --------------------------------------------------------------------------- 1.1 cells


def test_cells():
    assert len(tp.CELLS) == 96
    assert len(set(tp.CELLS)) == 96
    assert set(tp.CELLS) == set(LOCAL)
    assert all(c == c.upper() for c in tp.CELLS)
    # Only 96 of 144 (file, rank) pairs exist; the files of each rank group.
    for rank in range(1, 13):
        on_rank = {c[0] for c in tp.CELLS if int(c[1:]) == rank}
        expected = "ABCDEFGH" if rank <= 4 else "EFGHKLMN" if rank <= 8 else "ABCDKLMN"
        assert on_rank == set(expected)


def test_back_ranks():
    assert [local_name(0, 0, c) for c in range(8)] == "A1 B1 C1 D1 E1 F1 G1 H1".split()
    assert [local_name(1, 0, c) for c in range(8)] == "N12 M12 L12 K12 D12 C12 B12 A12".split()
    assert [local_name(2, 0, c) for c in range(8)] == "H8 G8 F8 E8 K8 L8 M8 N8".split()


def test_colouring():
    assert tp.is_dark("A1")
    for name, (_, r, c) in LOCAL.items():
        assert tp.is_dark(name) == ((r + c) % 2 == 0)
    assert sum(tp.is_dark(c) for c in tp.CELLS) == 48


# --------------------------------------------------------------------------- 1.2 step function


def test_step_basic():
    assert tp.step("E2", "F", False) == ("E3", False)
    assert tp.step("E2", "F", True) == ("E1", True)  # flip swaps F and B
    assert tp.step("E2", "L", False) == ("D2", False)
    assert tp.step("E2", "L", True) == ("F2", True)
    assert tp.step("A1", "B", False) is None
    assert tp.step("A1", "L", False) is None
    assert tp.step("H1", "R", False) is None
    assert tp.step("D4", "F", False) == ("D9", True)
    assert tp.step("E4", "F", False) == ("E5", True)
    assert tp.step("D9", "F", False) == ("D4", True)
    assert tp.step("K9", "F", False) == ("K5", True)
    assert tp.step("D9", "B", True) == ("D4", False)  # flipped B is F, crossing back


def test_crossing_pairs():
    crossings = set()
    for name in tp.CELLS:
        res = tp.step(name, "F", False)
        if res is not None and res[1]:
            crossings.add(frozenset((name, res[0])))
            # the crossing goes back the same way
            assert tp.step(res[0], "F", False) == (name, True)
    expected = {
        frozenset(p)
        for p in [
            ("A4", "A9"),
            ("B4", "B9"),
            ("C4", "C9"),
            ("D4", "D9"),
            ("E4", "E5"),
            ("F4", "F5"),
            ("G4", "G5"),
            ("H4", "H5"),
            ("K5", "K9"),
            ("L5", "L9"),
            ("M5", "M9"),
            ("N5", "N9"),
        ]
    }
    assert crossings == expected
    assert len(crossings) == 12
    assert len(set().union(*crossings)) == 24


def test_files_read_through_the_centre():
    assert ["A1"] + tp.rook_rays("A1")[0] == "A1 A2 A3 A4 A9 A10 A11 A12".split()
    ray = [r for r in tp.rook_rays("E1") if "E2" in r][0]
    assert ray == "E2 E3 E4 E5 E6 E7 E8".split()
    ray = [r for r in tp.rook_rays("K12") if "K11" in r][0]
    assert ray == "K11 K10 K9 K5 K6 K7 K8".split()
    # ranks never leave their sector
    for name, (s, _, _) in LOCAL.items():
        for d in "LR":
            res = tp.step(name, d, False)
            if res is not None:
                assert LOCAL[res[0]][0] == s


def test_neighbour_pair_counts():
    assert len(pairs(orthogonal)) == 168
    assert len(pairs(tp.king_targets)) == 318
    assert len(pairs(tp.knight_targets)) == 264
    # the rook's first steps are exactly the orthogonal neighbours
    for c in tp.CELLS:
        assert {ray[0] for ray in tp.rook_rays(c)} == orthogonal(c)


def test_king_is_orthogonal_plus_diagonal():
    for c in tp.CELLS:
        assert tp.king_targets(c) == orthogonal(c) | diagonal(c)
        assert c not in tp.king_targets(c)
        assert {ray[0] for ray in tp.bishop_rays(c)} == diagonal(c)


def test_bishop_d4():
    rays = tp.bishop_rays("D4")
    expected = [
        ["C3", "B2", "A1"],
        ["E3", "F2", "G1"],
        ["C9", "B10", "A11"],
        ["E5", "F6", "G7", "H8"],
        ["K9", "L10", "M11", "N12"],
    ]
    assert len(rays) == 5
    assert sorted(rays) == sorted(expected)
    assert len(bishop_targets("D4")) == 17


def test_bishop_c3_forks():
    rays = tp.bishop_rays("C3")
    expected = [
        ["B2", "A1"],
        ["D2", "E1"],
        ["B4", "A9"],
        ["D4", "E5", "F6", "G7", "H8"],
        ["D4", "K9", "L10", "M11", "N12"],
    ]
    assert sorted(rays) == sorted(expected)


def test_rook_and_queen_d4():
    rays = tp.rook_rays("D4")
    expected = [["D3", "D2", "D1"], ["D9", "D10", "D11", "D12"], ["C4", "B4", "A4"], ["E4", "F4", "G4", "H4"]]
    assert sorted(rays) == sorted(expected)
    queen = rook_targets("D4") | bishop_targets("D4")
    assert len(queen) == 31


def test_king_e4():
    assert tp.king_targets("E4") == set("D3 E3 F3 D4 F4 E5 F5 D9 K5".split())
    assert "K9" not in tp.king_targets("E4")


def test_knight_d4():
    assert tp.knight_targets("D4") == set("B3 B9 C2 C10 E2 E6 F3 F5 K10 L9".split())


def test_knight_paths():
    # X,X,Y and X,Y,Y paths with X, Y on different axes; every intermediate cell on the board.
    for c in tp.CELLS:
        expected = set()
        for x, y in itertools.product("FBLR", repeat=2):
            if (x in "FB") != (y in "FB"):
                for path in ((x, x, y), (x, y, y)):
                    u = walk(c, path)
                    if u is not None:
                        expected.add(u)
        assert tp.knight_targets(c) == expected
    assert max(len(tp.knight_targets(c)) for c in tp.CELLS) == 10


def test_six_long_diagonals_through_the_centre():
    lines = set()
    for c in tp.CELLS:
        for ray in tp.bishop_rays(c):
            assert len(ray) <= 7
            if len(ray) == 7:
                lines.add(tuple(sorted([c] + ray)))
    expected = [
        "A1 B2 C3 D4 E5 F6 G7 H8",
        "A1 B2 C3 D4 K9 L10 M11 N12",
        "N12 M11 L10 K9 E5 F6 G7 H8",
        "H1 G2 F3 E4 D9 C10 B11 A12",
        "H1 G2 F3 E4 K5 L6 M7 N8",
        "A12 B11 C10 D9 K5 L6 M7 N8",
    ]
    assert lines == {tuple(sorted(e.split())) for e in expected}
    # and the order along each line, walked from one end
    for e in expected:
        cells = e.split()
        assert cells[1:] in tp.bishop_rays(cells[0])
        assert cells[-2::-1] in tp.bishop_rays(cells[-1])


def test_king_target_counts():
    rosette = set(ROSETTE)
    for name, (_, r, c) in LOCAL.items():
        n = len(tp.king_targets(name))
        if name in CORNERS:
            assert n == 3, name
        elif r == 0 or c in (0, 7):
            assert n == 5, name
        elif name in rosette:
            assert n == 9, name
        else:
            assert n == 8, name
    assert CORNERS == {local_name(s, 0, c) for s in range(3) for c in (0, 7)}


def test_rosette():
    assert ROSETTE == [local_name(s, 3, c) for s, c in [(0, 3), (0, 4), (2, 3), (2, 4), (1, 3), (1, 4)]]
    # colours alternate round the ring, each neighbour in the ring is adjacent
    for a, b in zip(ROSETTE, ROSETTE[1:] + ROSETTE[:1], strict=True):
        assert tp.is_dark(a) != tp.is_dark(b)
        assert b in orthogonal(a)
    dark = ["D4", "E5", "K9"]
    light = ["E4", "K5", "D9"]
    assert all(tp.is_dark(c) for c in dark) and not any(tp.is_dark(c) for c in light)
    for group in (dark, light):
        for a, b in itertools.permutations(group, 2):
            assert b in diagonal(a)
    for a, b in [("D4", "K5"), ("E4", "K9"), ("E5", "D9")]:
        for x, y in ((a, b), (b, a)):
            assert y not in tp.king_targets(x)
            assert y not in rook_targets(x)
            assert y not in bishop_targets(x)


def test_colour_invariants():
    for c in tp.CELLS:
        for u in diagonal(c) | bishop_targets(c):
            assert tp.is_dark(u) == tp.is_dark(c)
        for u in orthogonal(c) | tp.knight_targets(c):
            assert tp.is_dark(u) != tp.is_dark(c)


@pytest.mark.parametrize(
    "relation", [orthogonal, diagonal, tp.king_targets, tp.knight_targets, bishop_targets, rook_targets]
)
def test_relations_symmetric(relation):
    for a in tp.CELLS:
        for b in relation(a):
            assert a in relation(b), (a, b)


@pytest.mark.parametrize(
    "relation", [orthogonal, diagonal, tp.king_targets, tp.knight_targets, bishop_targets, rook_targets]
)
def test_rotation_symmetry(relation):
    for a in tp.CELLS:
        assert {rotate(b) for b in relation(a)} == relation(rotate(a))


def test_rotation_symmetry_of_rays_and_steps():
    for a in tp.CELLS:
        for d in "FBLR":
            for flip in (False, True):
                res = tp.step(a, d, flip)
                rot = tp.step(rotate(a), d, flip)
                assert (res is None and rot is None) or (rotate(res[0]), res[1]) == rot
        assert sorted([rotate(u) for u in ray] for ray in tp.bishop_rays(a)) == sorted(tp.bishop_rays(rotate(a)))
        assert sorted([rotate(u) for u in ray] for ray in tp.rook_rays(a)) == sorted(tp.rook_rays(rotate(a)))


# --------------------------------------------------------------------------- 1.4 pawns


def test_pawn_rosette_captures():
    table = {
        ("w", "D4"): "C9 E5 K9",
        ("w", "E4"): "F5 D9 K5",
        ("r", "D9"): "C4 E4 K5",
        ("r", "K9"): "L5 D4 E5",
        ("b", "E5"): "F4 D4 K9",
        ("b", "K5"): "L9 D9 E4",
    }
    for (colour, cell), targets in table.items():
        assert tp.pawn_captures(colour, cell) == set(targets.split())


def test_pawn_directions():
    assert tp.pawn_push("w", "E2") == "E3"
    assert tp.pawn_push("w", "D4") == "D9"
    assert tp.pawn_push("w", "E4") == "E5"
    assert tp.pawn_push("w", "D9") == "D10"  # in Red's sector: toward Red's back rank
    assert tp.pawn_push("w", "E5") == "E6"  # in Black's sector: toward Black's back rank
    assert tp.pawn_push("w", "D12") is None
    assert tp.pawn_push("r", "D11") == "D10"
    assert tp.pawn_push("r", "D9") == "D4"
    assert tp.pawn_push("r", "D4") == "D3"
    assert tp.pawn_push("b", "K7") == "K6"
    assert tp.pawn_push("b", "K5") == "K9"
    assert tp.pawn_push("b", "K9") == "K10"
    assert tp.pawn_captures("w", "E2") == {"D3", "F3"}
    assert tp.pawn_captures("w", "A2") == {"B3"}
    assert tp.pawn_captures("r", "E4") == {"D3", "F3"}
    assert tp.pawn_captures("w", "A4") == {"B9"}
    assert tp.pawn_captures("w", "B10") == {"A11", "C11"}
    # a pawn is the same in every sector up to rotation
    for cell in tp.CELLS:
        for i, colour in enumerate("wrb"):
            nxt = "wrb"[(i + 1) % 3]
            push = tp.pawn_push(colour, cell)
            assert tp.pawn_push(nxt, rotate(cell)) == (None if push is None else rotate(push))
            assert tp.pawn_captures(nxt, rotate(cell)) == {rotate(u) for u in tp.pawn_captures(colour, cell)}
            ds = tp.pawn_double_step(colour, cell)
            assert tp.pawn_double_step(nxt, rotate(cell)) == (None if ds is None else rotate(ds))


def test_pawn_double_step():
    assert tp.pawn_double_step("w", "E2") == "E4"
    assert tp.pawn_double_step("w", "A2") == "A4"
    assert tp.pawn_double_step("r", "D11") == "D9"
    assert tp.pawn_double_step("b", "K7") == "K5"
    assert tp.pawn_double_step("w", "E3") is None
    assert tp.pawn_double_step("w", "D11") is None  # only from its own colour's row 1
    assert tp.pawn_double_step("r", "E2") is None
    for colour, s in zip("wrb", range(3), strict=True):
        starts = {c for c in tp.CELLS if tp.pawn_double_step(colour, c) is not None}
        assert starts == {local_name(s, 1, c) for c in range(8)}


def test_promotion_cells():
    assert tp.promotion_cells("w") == {local_name(s, 0, c) for s in (1, 2) for c in range(8)}
    assert tp.promotion_cells("r") == {local_name(s, 0, c) for s in (0, 2) for c in range(8)}
    assert tp.promotion_cells("b") == {local_name(s, 0, c) for s in (0, 1) for c in range(8)}
    assert "A12" in tp.promotion_cells("w") and "A1" not in tp.promotion_cells("w")


# --------------------------------------------------------------------------- 1.3 start


def test_start_position():
    pos = placement(tp.START)
    table = {
        "w": ("A1 B1 C1 D1 E1 F1 G1 H1", "A2 B2 C2 D2 E2 F2 G2 H2"),
        "r": ("N12 M12 L12 K12 D12 C12 B12 A12", "N11 M11 L11 K11 D11 C11 B11 A11"),
        "b": ("H8 G8 F8 E8 K8 L8 M8 N8", "H7 G7 F7 E7 K7 L7 M7 N7"),
    }
    expected = {}
    for colour, (back, pawns) in table.items():
        for cell, kind in zip(back.split(), "RNBQKBNR", strict=True):
            expected[cell] = colour + kind
        for cell in pawns.split():
            expected[cell] = colour + "P"
    assert pos == expected
    assert fields(tp.START)[1:] == ["w", "wKQrKQbKQ", "-", "0", "1", "wrb", "aaa"]
    assert tp.START == (
        "rRrNrBrKrQrBrNrR/rPrPrPrPrPrPrPrP/8/8/bQbBbNbRbKbBbNbR/bPbPbPbPbPbPbPbP/"
        "8/8/8/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR w wKQrKQbKQ - 0 1 wrb aaa"
    )
    # each king on the file of an opponent's queen
    assert (pos["E1"], pos["E8"]) == ("wK", "bQ")
    assert (pos["D12"], pos["D1"]) == ("rK", "wQ")
    assert (pos["K8"], pos["K12"]) == ("bK", "rQ")


def test_position_round_trip():
    assert tp._write(tp._parse(tp.START)) == tp.START
    pos = tp.START
    for move in ["E2E4", "D11D9", "K7K5", "E4E5", "D9D4"]:
        pos = tp.apply(pos, move)
        assert tp._write(tp._parse(pos)) == pos


def test_start_moves():
    moves = tp.legal_moves(tp.START)
    assert len(moves) == 20
    expected = {f"{f}2{f}3" for f in "ABCDEFGH"} | {f"{f}2{f}4" for f in "ABCDEFGH"}
    expected |= {"B1A3", "B1C3", "G1F3", "G1H3"}
    assert moves == expected
    assert not tp.is_check(tp.START)
    assert tp.mater(tp.START) is None


def test_turn_order():
    pos = tp.apply(tp.START, "E2E4")
    assert fields(pos)[1:] == ["r", "wKQrKQbKQ", "E3", "0", "1", "wrb", "aaa"]
    assert len(tp.legal_moves(pos)) == 20
    pos = tp.apply(pos, "M12L10")
    assert fields(pos)[1:] == ["b", "wKQrKQbKQ", "E3", "1", "1", "wrb", "aaa"]
    pos = tp.apply(pos, "G8F6")
    assert fields(pos)[1:] == ["w", "wKQrKQbKQ", "-", "2", "2", "wrb", "aaa"]
    pos = tp.apply(pos, "G1F3")
    assert fields(pos)[1:] == ["r", "wKQrKQbKQ", "-", "3", "2", "wrb", "aaa"]


def perft(pos: str, depth: int) -> int:
    if depth == 0:
        return 1
    moves = tp.legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(tp.apply(pos, m), depth - 1) for m in moves)


@pytest.mark.parametrize("depth,nodes", [(1, 20), (2, 400), (3, 8000)])
def test_perft_start(depth, nodes):
    assert perft(tp.START, depth) == nodes


# --------------------------------------------------------------------------- hand positions


def test_castling_red_both_sides():
    pieces = {"E1": "wK", "K8": "bK", "D12": "rK", "A12": "rR", "N12": "rR"}
    pos = position(pieces, turn="r", castling="rKQ")
    moves = tp.legal_moves(pos)
    assert {"D12B12", "D12L12"} <= moves
    short = tp.apply(pos, "D12B12")
    assert placement(short) == {"E1": "wK", "K8": "bK", "B12": "rK", "C12": "rR", "N12": "rR"}
    assert fields(short)[1:] == ["b", "-", "-", "1", "1", "wrb", "aaa"]
    long = tp.apply(pos, "D12L12")
    assert placement(long) == {"E1": "wK", "K8": "bK", "L12": "rK", "K12": "rR", "A12": "rR"}
    assert fields(long)[2] == "-"
    # moving a rook loses only that side
    assert fields(tp.apply(pos, "A12A9"))[2] == "rQ"
    assert fields(tp.apply(pos, "N12N9"))[2] == "rK"
    # without the right, no castling
    assert not {"D12B12", "D12L12"} & tp.legal_moves(position(pieces, turn="r", castling="-"))
    # a white rook on the C-file attacks C12 (the cell the king passes on the short side)
    attacked = dict(pieces, C3="wR")
    moves = tp.legal_moves(position(attacked, turn="r", castling="rKQ"))
    assert "D12B12" not in moves and "D12L12" in moves
    # the same rook attacked by a frozen (or inert) player's rook: no attack
    assert "D12B12" in tp.legal_moves(position(attacked, turn="r", castling="rKQ", statuses="faa"))
    # in check: no castling
    check = dict(pieces, D3="wR")
    moves = tp.legal_moves(position(check, turn="r", castling="rKQ"))
    assert not {"D12B12", "D12L12"} & moves
    # a blocked side
    blocked = dict(pieces, M12="bN")
    moves = tp.legal_moves(position(blocked, turn="r", castling="rKQ"))
    assert "D12B12" in moves and "D12L12" not in moves
    # landing next to a frozen king is forbidden
    frozen = {"E1": "wK", "A11": "bK", "D12": "rK", "A12": "rR", "N12": "rR"}
    moves = tp.legal_moves(position(frozen, turn="r", castling="rKQ", statuses="aaf"))
    assert "D12B12" not in moves and "D12L12" in moves


def test_castling_white_and_black():
    pieces = {"E1": "wK", "A1": "wR", "H1": "wR", "D12": "rK", "K8": "bK", "H8": "bR", "N8": "bR"}
    assert {"E1G1", "E1C1"} <= tp.legal_moves(position(pieces, castling="wKQbKQ"))
    after = tp.apply(position(pieces, castling="wKQbKQ"), "E1C1")
    assert placement(after)["C1"] == "wK" and placement(after)["D1"] == "wR"
    assert fields(after)[2] == "bKQ"
    black = position(pieces, turn="b", castling="wKQbKQ")
    assert {"K8M8", "K8F8"} <= tp.legal_moves(black)
    after = tp.apply(black, "K8M8")
    assert placement(after)["M8"] == "bK" and placement(after)["L8"] == "bR"
    assert fields(after)[1:4] == ["w", "wKQ", "-"]
    assert fields(after)[5] == "2"
    # capturing a rook on its home cell removes that right
    cap = position(dict(pieces, H4="bR"), turn="b", castling="wKQbKQ")
    assert fields(tp.apply(cap, "H4H1"))[2] == "wQbKQ"


def test_en_passant_by_both_other_players():
    pieces = {"A3": "wK", "E2": "wP", "F4": "rP", "D4": "bP", "D12": "rK", "K8": "bK"}
    pos = position(pieces)
    assert "E2E4" in tp.legal_moves(pos)
    pos = tp.apply(pos, "E2E4")
    assert fields(pos)[3] == "E3"
    # Red takes en passant
    assert "F4E3" in tp.legal_moves(pos)
    red = tp.apply(pos, "F4E3")
    assert placement(red) == {"A3": "wK", "E3": "rP", "D4": "bP", "D12": "rK", "K8": "bK"}
    assert fields(red)[1:] == ["b", "-", "-", "0", "1", "wrb", "aaa"]
    # Red declines, Black takes
    pos = tp.apply(pos, "D12C12")
    assert fields(pos)[3] == "E3"
    assert "D4E3" in tp.legal_moves(pos)
    black = tp.apply(pos, "D4E3")
    assert placement(black) == {"A3": "wK", "E3": "bP", "F4": "rP", "C12": "rK", "K8": "bK"}
    assert fields(black)[1:] == ["w", "-", "-", "0", "2", "wrb", "aaa"]
    # both decline: the right lapses as the turn comes back to White
    pos = tp.apply(pos, "K8L8")
    assert fields(pos)[3] == "-"
    pos = tp.apply(pos, "A3B3")
    assert fields(pos)[3] == "-"
    assert "F4E3" not in tp.legal_moves(pos)


def test_en_passant_slots_per_colour():
    # Red double-steps while White's slot is open: both listed, in colour order.
    pieces = {"A3": "wK", "E2": "wP", "D11": "rP", "D12": "rK", "K8": "bK", "C9": "bP"}
    pos = tp.apply(position(pieces), "E2E4")
    pos = tp.apply(pos, "D11D9")
    assert fields(pos)[3] == "E3,D10"
    # the Black pawn on C9 (Red's sector, moving toward Red's back rank) captures D10 en passant
    assert tp.pawn_captures("b", "C9") == {"B10", "D10"}
    assert "C9D10" in tp.legal_moves(pos)
    after = tp.apply(pos, "C9D10")
    assert "D9" not in placement(after)
    # the turn is White's again, so White's own right has lapsed
    assert fields(after)[3] == "-"


def test_promotion():
    pieces = {"F1": "wK", "B11": "wP", "A12": "rR", "N12": "rK", "K8": "bK"}
    pos = position(pieces, castling="-")
    moves = tp.legal_moves(pos)
    assert {m for m in moves if m.startswith("B11")} == {
        "B11B12Q",
        "B11B12R",
        "B11B12B",
        "B11B12N",
        "B11A12Q",
        "B11A12R",
        "B11A12B",
        "B11A12N",
    }
    after = tp.apply(pos, "B11B12N")
    assert placement(after)["B12"] == "wN" and "B11" not in placement(after)
    assert fields(after)[4] == "0"
    after = tp.apply(pos, "B11A12Q")
    assert placement(after)["A12"] == "wQ"
    # a Black pawn in White's sector promotes on White's back rank
    pos = position({"A3": "wK", "C2": "bP", "N12": "rK", "K8": "bK"}, turn="b")
    assert {"C2C1Q", "C2C1R", "C2C1B", "C2C1N"} <= tp.legal_moves(pos)
    assert "C2C1" not in tp.legal_moves(pos)


def test_king_capture_after_discovered_attack():
    # Red's knight on E3 shields White's king from Black's rook on E6.
    pieces = {"E1": "wK", "A2": "wP", "E3": "rN", "E6": "bR", "D12": "rK", "K8": "bK"}
    pos = position(pieces, turn="r", castling="wK")
    pos = tp.apply(pos, "E3G2")
    assert fields(pos)[1] == "b"
    moves = tp.legal_moves(pos)
    assert "E6E1" in moves
    after = tp.apply(pos, "E6E1")
    assert placement(after) == {"E1": "bR", "A2": "wP", "G2": "rN", "D12": "rK", "K8": "bK"}
    assert fields(after)[1:] == ["r", "-", "-", "0", "2", "brb", "xaa"]
    # the inherited pawn moves for Black now (two-step from White's row 1, as a White pawn)
    after = tp.apply(after, "D12C12")
    assert {"A2A3", "A2A4"} <= tp.legal_moves(after)
    after = tp.apply(after, "A2A4")
    assert fields(after)[1:4] == ["r", "-", "A3"]


def test_king_capture_judged_after_transfer():
    # Black is in check from White's queen, but may capture White's king: the queen becomes Black's.
    pieces = {"E1": "wK", "K6": "wQ", "E6": "bR", "D12": "rK", "K8": "bK"}
    pos = position(pieces, turn="b")
    assert tp.is_check(pos)
    moves = tp.legal_moves(pos)
    assert "E6E1" in moves
    assert "E6E5" not in moves  # does not answer the check
    after = tp.apply(pos, "E6E1")
    assert fields(after)[6:] == ["brb", "xaa"]
    assert placement(after)["K6"] == "wQ"


def test_mate_attribution():
    # Black's king in the corner H8: White's rook on the H-file, Red's rook on the G-file.
    pieces = {"A3": "wK", "H1": "wR", "G1": "rR", "D12": "rK", "H8": "bK"}
    pos = position(pieces, turn="b")
    assert tp.is_check(pos)
    assert tp.legal_moves(pos) == set()
    assert tp.mater(pos) == "w"
    # add Red's bishop on the long diagonal: double check, Red moved more recently
    pos = position(dict(pieces, E5="rB"), turn="b")
    assert tp.legal_moves(pos) == set()
    assert tp.mater(pos) == "r"
    # not mate if the king can escape
    pos = position({"A3": "wK", "H1": "wR", "D12": "rK", "H8": "bK"}, turn="b")
    assert tp.is_check(pos) and tp.legal_moves(pos) and tp.mater(pos) is None


def test_frozen_player():
    # Black is frozen: his rook attacks nothing, his king cannot be captured or approached.
    pieces = {"E1": "wK", "E6": "bR", "G3": "bK", "D12": "rK", "H2": "bP"}
    pos = position(pieces, statuses="aaf")
    assert not tp.is_check(pos)
    moves = tp.legal_moves(pos)
    assert not any(m.startswith("E1") and m[2:] in tp.king_targets("G3") for m in moves)
    assert "E1D1" in moves and "E1E2" in moves
    assert "E1F2" not in moves  # F2 is adjacent to the frozen king
    # frozen pieces other than the king may be captured; the frozen king may not
    pos = position(dict(pieces, H1="wR", G1="wR"), statuses="aaf")
    moves = tp.legal_moves(pos)
    assert "H1H2" in moves
    assert "G1G2" in moves and "G1G3" not in moves
    assert not any(m[2:] == "G3" for m in moves)
    # turn skips the frozen player
    after = tp.apply(position(pieces, turn="r", statuses="aaf"), "D12C12")
    assert fields(after)[1] == "w" and fields(after)[5] == "2"
