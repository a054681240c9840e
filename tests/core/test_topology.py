"""The three-player layout built by the C++ core from the step function (docs/rules.md §1.2),
checked against the facts docs/rules.md states and, relation by relation, against the independent
pure-Python reference in tests/reference."""

import itertools

import pytest

from polychess import Layout
from reference import three_player as ref

LAYOUT = Layout("three-player")
NAMES = LAYOUT.names
COLOURS = "wrb"


def names(cells):
    return [NAMES[c] for c in cells]


def cell(name):
    return LAYOUT.index(name)


def pairs(relation):
    return {frozenset((NAMES[a], NAMES[b])) for a in range(96) for b in relation(a)}


def rook_reach(c):
    return {x for ray in LAYOUT.rook_rays(c) for x in ray}


def bishop_reach(c):
    return {x for ray in LAYOUT.bishop_rays(c) for x in ray}


def test_cells():
    assert LAYOUT.cell_count == 96
    assert sorted(NAMES) == sorted(ref.CELLS)
    files = "ABCDEFGHKLMN"
    assert all(n[0] in files and 1 <= int(n[1:]) <= 12 for n in NAMES)


def test_crossing_pairs():
    crossings = {
        frozenset(p)
        for p in pairs(lambda c: [t for t in LAYOUT.king_targets(c)])
        if len(p) == 2 and {int(n[1:]) for n in p} in ({4, 9}, {4, 5}, {5, 9})
    }
    orth_crossings = {p for p in crossings if p in pairs(lambda c: [r[0] for r in LAYOUT.rook_rays(c)])}
    expected = {frozenset((f + "4", f + "9")) for f in "ABCD"}
    expected |= {frozenset((f + "4", f + "5")) for f in "EFGH"}
    expected |= {frozenset((f + "5", f + "9")) for f in "KLMN"}
    assert orth_crossings == expected
    assert len(expected) == 12 and len(set().union(*expected)) == 24


def test_neighbour_pair_counts():
    assert len(pairs(lambda c: [r[0] for r in LAYOUT.rook_rays(c)])) == 168
    assert len(pairs(LAYOUT.king_targets)) == 318
    assert len(pairs(LAYOUT.knight_targets)) == 264


def test_worked_examples():
    assert {tuple(names(r)) for r in LAYOUT.bishop_rays(cell("D4"))} == {
        ("C3", "B2", "A1"),
        ("E3", "F2", "G1"),
        ("C9", "B10", "A11"),
        ("E5", "F6", "G7", "H8"),
        ("K9", "L10", "M11", "N12"),
    }
    assert len(bishop_reach(cell("D4"))) == 17
    c3 = {tuple(names(r)) for r in LAYOUT.bishop_rays(cell("C3"))}
    assert c3 == {
        ("B2", "A1"),
        ("D2", "E1"),
        ("B4", "A9"),
        ("D4", "E5", "F6", "G7", "H8"),
        ("D4", "K9", "L10", "M11", "N12"),
    }
    assert {tuple(names(r)) for r in LAYOUT.rook_rays(cell("D4"))} == {
        ("D3", "D2", "D1"),
        ("D9", "D10", "D11", "D12"),
        ("C4", "B4", "A4"),
        ("E4", "F4", "G4", "H4"),
    }
    assert len(rook_reach(cell("D4")) | bishop_reach(cell("D4"))) == 31
    assert set(names(LAYOUT.king_targets(cell("E4")))) == {"D3", "E3", "F3", "D4", "F4", "E5", "F5", "D9", "K5"}
    assert set(names(LAYOUT.knight_targets(cell("D4")))) == {
        "B3",
        "B9",
        "C2",
        "C10",
        "E2",
        "E6",
        "F3",
        "F5",
        "K10",
        "L9",
    }


def test_long_diagonals_through_the_centre():
    lines = {tuple(names(cells)) for diagonal, cells in LAYOUT.lines() if diagonal and len(cells) == 8}
    lines |= {line[::-1] for line in lines}
    for expected in [
        "A1 B2 C3 D4 E5 F6 G7 H8",
        "A1 B2 C3 D4 K9 L10 M11 N12",
        "N12 M11 L10 K9 E5 F6 G7 H8",
        "H1 G2 F3 E4 D9 C10 B11 A12",
        "H1 G2 F3 E4 K5 L6 M7 N8",
        "A12 B11 C10 D9 K5 L6 M7 N8",
    ]:
        assert tuple(expected.split()) in lines


def test_king_target_counts():
    counts = [len(LAYOUT.king_targets(c)) for c in range(96)]
    assert sorted(set(counts)) == [3, 5, 8, 9]
    assert counts.count(3) == 6 and counts.count(9) == 6
    assert max(len(LAYOUT.knight_targets(c)) for c in range(96)) == 10


def test_rosette():
    ring = ["D4", "E4", "E5", "K5", "K9", "D9"]
    assert all(len(LAYOUT.king_targets(cell(n))) == 9 for n in ring)
    for a, b in [("D4", "K5"), ("E4", "K9"), ("E5", "D9")]:
        assert cell(b) not in LAYOUT.king_targets(cell(a))
        assert cell(b) not in rook_reach(cell(a)) | bishop_reach(cell(a))
    for trio in (["D4", "E5", "K9"], ["E4", "K5", "D9"]):
        for a, b in itertools.permutations(trio, 2):
            assert cell(b) in bishop_reach(cell(a))
    assert [LAYOUT.is_dark(cell(n)) for n in ring] == [True, False, True, False, True, False]


def test_colour_invariants():
    assert LAYOUT.is_dark(cell("A1"))
    for c in range(96):
        assert all(LAYOUT.is_dark(x) == LAYOUT.is_dark(c) for x in bishop_reach(c))
        assert all(LAYOUT.is_dark(r[0]) != LAYOUT.is_dark(c) for r in LAYOUT.rook_rays(c))
        assert all(LAYOUT.is_dark(x) != LAYOUT.is_dark(c) for x in LAYOUT.knight_targets(c))


@pytest.mark.parametrize("relation", ["king_targets", "knight_targets", "rook", "bishop"])
def test_relations_are_symmetric(relation):
    get = {"rook": rook_reach, "bishop": bishop_reach}.get(relation, getattr(LAYOUT, relation, None))
    for a in range(96):
        for b in get(a):
            assert a in get(b), (NAMES[a], NAMES[b])


def rotate(name):
    """The 120° rotation (s, r, c) -> (s + 1, r, c), by cell name."""
    for s, files in enumerate(["ABCDEFGH", "NMLKDCBA", "HGFEKLMN"]):
        rank = int(name[1:])
        r = [rank - 1, 12 - rank, 8 - rank][s]
        if name[0] in files and 0 <= r <= 3:
            ns = (s + 1) % 3
            new_rank = [r + 1, 12 - r, 8 - r][ns]
            return ["ABCDEFGH", "NMLKDCBA", "HGFEKLMN"][ns][files.index(name[0])] + str(new_rank)
    raise ValueError(name)


def test_rotation_symmetry_of_every_table():
    rot = {c: cell(rotate(NAMES[c])) for c in range(96)}
    assert sorted(rot.values()) == list(range(96))
    for c in range(96):
        r = rot[c]
        assert {rot[x] for x in LAYOUT.king_targets(c)} == set(LAYOUT.king_targets(r))
        assert {rot[x] for x in LAYOUT.knight_targets(c)} == set(LAYOUT.knight_targets(r))
        for rays in (LAYOUT.rook_rays, LAYOUT.bishop_rays):
            assert {tuple(rot[x] for x in ray) for ray in rays(c)} == {tuple(ray) for ray in rays(r)}
        assert LAYOUT.is_dark(c) == LAYOUT.is_dark(r)
        for colour in range(3):
            nxt = (colour + 1) % 3
            push = LAYOUT.pawn_push(colour, c)
            assert (None if push is None else rot[push]) == LAYOUT.pawn_push(nxt, r)
            assert {rot[x] for x in LAYOUT.pawn_captures(colour, c)} == set(LAYOUT.pawn_captures(nxt, r))
    for colour in range(3):
        assert {rot[x] for x in LAYOUT.promotion_cells(colour)} == set(LAYOUT.promotion_cells((colour + 1) % 3))


def test_every_relation_matches_the_reference():
    for c in range(96):
        n = NAMES[c]
        assert set(names(LAYOUT.king_targets(c))) == ref.king_targets(n), n
        assert set(names(LAYOUT.knight_targets(c))) == ref.knight_targets(n), n
        assert sorted(names(r) for r in LAYOUT.rook_rays(c)) == sorted(ref.rook_rays(n)), n
        assert sorted(names(r) for r in LAYOUT.bishop_rays(c)) == sorted(ref.bishop_rays(n)), n
        assert LAYOUT.is_dark(c) == ref.is_dark(n)
        for i, colour in enumerate(COLOURS):
            if c in LAYOUT.promotion_cells(i):
                continue
            push = LAYOUT.pawn_push(i, c)
            assert (None if push is None else NAMES[push]) == ref.pawn_push(colour, n), (colour, n)
            double = LAYOUT.pawn_double_step(i, c)
            assert (None if double is None else NAMES[double]) == ref.pawn_double_step(colour, n), (colour, n)
            assert set(names(LAYOUT.pawn_captures(i, c))) == ref.pawn_captures(colour, n), (colour, n)
    for i, colour in enumerate(COLOURS):
        assert set(names(LAYOUT.promotion_cells(i))) == ref.promotion_cells(colour)


def test_rosette_pawn_captures():
    expected = {
        ("w", "D4"): {"C9", "E5", "K9"},
        ("w", "E4"): {"F5", "D9", "K5"},
        ("r", "D9"): {"C4", "E4", "K5"},
        ("r", "K9"): {"L5", "D4", "E5"},
        ("b", "E5"): {"F4", "D4", "K9"},
        ("b", "K5"): {"L9", "D9", "E4"},
    }
    for (colour, at), cells in expected.items():
        assert set(names(LAYOUT.pawn_captures(COLOURS.index(colour), cell(at)))) == cells


def test_castling_cells():
    expected = {
        0: [("E1", "G1", "H1", "F1"), ("E1", "C1", "A1", "D1")],
        1: [("D12", "B12", "A12", "C12"), ("D12", "L12", "N12", "K12")],
        2: [("K8", "M8", "N8", "L8"), ("K8", "F8", "H8", "E8")],
    }
    for colour, sides in expected.items():
        for side, cells in enumerate(sides):
            assert tuple(names(LAYOUT.castling(colour, side))) == cells


def test_standard_layout():
    square = Layout("standard")
    assert square.cell_count == 64 and square.names[0] == "a1" and square.names[63] == "h8"
    assert len(pairs_of(square, square.king_targets)) == 210
    assert len(pairs_of(square, square.knight_targets)) == 168


def pairs_of(layout, relation):
    return {frozenset((a, b)) for a in range(layout.cell_count) for b in relation(a)}


def test_bad_cells_are_rejected():
    with pytest.raises(KeyError):
        LAYOUT.index("I5")
    with pytest.raises(IndexError):
        LAYOUT.king_targets(96)
    with pytest.raises(ValueError):
        Layout("hexagonal")
