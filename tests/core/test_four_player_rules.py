"""Rule tests of four-player chess (docs/rules.md §2, chess.com rules) through the public API.

Every test builds a small position by hand (or plays a few moves from the start), states what
docs/rules.md implies for it (which moves exist and which do not, where the pieces stand after a
move, who is to move, who controls what) and checks that against ``polychess.Board``.  Nothing
here is taken from the engine's own tables: the board geometry is recomputed below from
rules §2.1 (14x14 minus the four 3x3 corners).

Board: files a-n, ranks 1-14 seen from Red; ranks 1-3 and 12-14 have only the files d-k.
Turn order Red, Blue, Yellow, Green; teams Red+Yellow against Blue+Green.  Pawns move up
(Red), right (Blue), down (Yellow), left (Green).

Position strings (docs/position-strings.md, "Four-player chess"): eight fields, ranks 14 down
to 1, each rank listing its existing squares from a to n, pieces as colour letter + kind
letter (``rK``, ``bP``, ``gD`` = free-for-all one-point queen).
"""

from __future__ import annotations

import random

import pytest

from perft_data import perft_cases
from polychess import Board, Colour, IllegalMoveError, InvalidPositionError, Piece, PieceType, Status
from positions import cross_position as position

# --------------------------------------------------------------------------- geometry (rules §2.1)

FILES = "abcdefghijklmn"
RED, BLUE, YELLOW, GREEN = Colour.RED, Colour.BLUE, Colour.YELLOW, Colour.GREEN
ORDER = "rbyg"
COLOUR = {"r": RED, "b": BLUE, "y": YELLOW, "g": GREEN}
KIND = {t.letter: t for t in PieceType}


def files_of_rank(rank: int) -> str:
    """The files of a rank's existing squares, in position-string order."""
    return FILES[3:11] if rank <= 3 or rank >= 12 else FILES


def square(f: int, r: int) -> str | None:
    """Name of the square at file index f (0 = a) and rank r (1..14), None if there is none."""
    if not (0 <= f < 14 and 1 <= r <= 14):
        return None
    name = f"{FILES[f]}{r}"
    return name if FILES[f] in files_of_rank(r) else None


def coords(name: str) -> tuple[int, int]:
    return FILES.index(name[0]), int(name[1:])


SQUARES = [f"{f}{r}" for r in range(1, 15) for f in files_of_rank(r)]
CORNERS = [f"{f}{r}" for f in "abc" + "lmn" for r in (1, 2, 3, 12, 13, 14)]

ROOK_DIRS = ((0, 1), (0, -1), (1, 0), (-1, 0))
BISHOP_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def ray(name: str, df: int, dr: int, occupied: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """Squares a slider reaches from `name` in one direction: it stops at the edge, at a
    missing corner square and after the first occupied square."""
    f, r = coords(name)
    out = []
    while True:
        f, r = f + df, r + dr
        s = square(f, r)
        if s is None:
            return out
        out.append(s)
        if s in occupied:
            return out


def slider_targets(name: str, dirs, occupied=frozenset()) -> set[str]:
    return {s for d in dirs for s in ray(name, *d, occupied)}


def knight_targets(name: str) -> set[str]:
    f, r = coords(name)
    return {s for df, dr in KNIGHT_JUMPS if (s := square(f + df, r + dr))}


def king_targets(name: str) -> set[str]:
    f, r = coords(name)
    return {s for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df or dr) and (s := square(f + df, r + dr))}


# --------------------------------------------------------------------------- positions


def board(pieces: dict[str, str], mode: str = "teams", setup: str = "modern", **kw) -> Board:
    return Board("four-player", fen=position(pieces, **kw), mode=mode, setup=setup)


def moves(b: Board) -> set[str]:
    return {str(m) for m in b.legal_moves}


def moves_from(b: Board, frm: str) -> set[str]:
    return {str(m) for m in b.legal_moves if m.from_cell == frm}


def fields(b: Board) -> list[str]:
    return b.fen().split(" ")


def piece(text: str) -> Piece:
    return Piece(COLOUR[text[0]], KIND[text[1]])


def play(b: Board, *texts: str) -> None:
    """Plays moves that docs/rules.md says are legal (a clearer failure than push's exception)."""
    for text in texts:
        assert text in b.legal_moves, (text, b.fen(), sorted(moves(b)))
        b.push(text)


HOME_KINGS = {"h1": "rK", "a7": "bK", "g14": "yK", "n8": "gK"}  # modern setup


# --------------------------------------------------------------------------- board geometry


def test_board_has_160_squares_without_the_corners():
    assert len(SQUARES) == 160
    lay = Board("four-player").layout
    assert lay.cell_count == 160
    assert sorted(lay.names) == sorted(SQUARES)
    assert len(CORNERS) == 36
    for name in CORNERS:
        assert name not in lay.names
    for name in ("d1", "k1", "a4", "n4", "a11", "n11", "d14", "k14", "c4", "d3"):
        assert name in lay.names
    b = Board("four-player")
    with pytest.raises(ValueError):
        b.piece_at("a1")
    with pytest.raises(ValueError):
        b.piece_at("n14")


def test_layout_tables_follow_the_cross():
    """Rays, king and knight targets of every square, recomputed from rules §2.1: sliders stop
    at the edge and at missing corners, knights jump over them."""
    lay = Board("four-player").layout
    names = lay.names
    for cell, name in enumerate(names):
        assert {names[c] for c in lay.knight_targets(cell)} == knight_targets(name), name
        assert {names[c] for c in lay.king_targets(cell)} == king_targets(name), name
        rook = {tuple(names[c] for c in r) for r in lay.rook_rays(cell) if r}
        assert rook == {tuple(ray(name, *d)) for d in ROOK_DIRS if ray(name, *d)}, name
        bishop = {tuple(names[c] for c in r) for r in lay.bishop_rays(cell) if r}
        assert bishop == {tuple(ray(name, *d)) for d in BISHOP_DIRS if ray(name, *d)}, name


def test_geometry_checks_by_hand():
    # the hand-written facts the computed tables above rest on
    assert ray("d3", -1, 1) == ["c4", "b5", "a6"]  # a diagonal passes beside the corner c3
    assert ray("d3", -1, -1) == []  # c2 does not exist
    assert ray("d2", -1, 0) == []  # c2
    assert ray("a4", 0, -1) == []  # a3
    assert ray("c4", 1, 1) == ["d5", "e6", "f7", "g8", "h9", "i10", "j11", "k12"]  # l13 missing
    assert knight_targets("d4") == {"b5", "c6", "e6", "f5", "f3", "e2"}
    assert knight_targets("c4") == {"a5", "b6", "d6", "e5", "e3", "d2"}
    assert knight_targets("d3") == {"b4", "c5", "e5", "f4", "f2", "e1"}
    assert knight_targets("e2") == {"d4", "f4", "g3", "g1"}
    assert knight_targets("a4") == {"b6", "c5"}
    assert king_targets("d4") == {"c4", "c5", "d5", "e5", "e4", "e3", "d3"}


# Kings out of the way of the pieces tested below.
FAR_KINGS = {"j1": "rK", "a11": "bK", "k14": "yK", "n5": "gK"}


def test_bishop_on_d3_passes_beside_the_corner():
    b = board({**FAR_KINGS, "d3": "rB"})
    assert moves_from(b, "d3") == {
        "d3" + s for s in ("c4", "b5", "a6", "e4", "f5", "g6", "h7", "i8", "j9", "k10", "l11", "e2", "f1")
    }


def test_rook_stops_at_missing_corners():
    b = board({**FAR_KINGS, "d2": "rR"})
    expected = {"e2", "f2", "g2", "h2", "i2", "j2", "k2", "d1"} | {f"d{r}" for r in range(3, 15)}
    assert moves_from(b, "d2") == {"d2" + s for s in expected}
    # Blue's rook at a4: nothing below (a3 missing), up to a10 (own king on a11), the whole rank
    b = board({**FAR_KINGS, "a4": "bR"}, turn="b")
    expected = {f"a{r}" for r in range(5, 11)} | {f"{f}4" for f in "bcdefghijklmn"}
    assert moves_from(b, "a4") == {"a4" + s for s in expected}


def test_queen_near_a_corner():
    b = board({**FAR_KINGS, "c4": "rQ"})
    expected = (
        {"b5", "a6", "d3", "e2", "f1", "b4", "a4"}
        | {f"{f}4" for f in "defghijklmn"}
        | {f"c{r}" for r in range(5, 12)}
        | {"d5", "e6", "f7", "g8", "h9", "i10", "j11", "k12"}
    )
    assert moves_from(b, "c4") == {"c4" + s for s in expected}
    assert "c4c3" not in b.legal_moves and "c4b3" not in b.legal_moves


@pytest.mark.parametrize(
    "sq,targets",
    [
        ("d4", {"b5", "c6", "e6", "f5", "f3", "e2"}),
        ("c4", {"a5", "b6", "d6", "e5", "e3", "d2"}),
        ("d3", {"b4", "c5", "e5", "f4", "f2", "e1"}),
        ("e2", {"d4", "f4", "g3", "g1"}),
        ("a4", {"b6", "c5"}),
        ("d1", {"e3", "f2"}),
    ],
)
def test_knights_next_to_the_corners(sq, targets):
    b = board({**FAR_KINGS, sq: "rN"})
    assert moves_from(b, sq) == {sq + t for t in targets}


def test_pin_and_check_along_a_diagonal_beside_the_corner():
    kings = {"a11": "bK", "g14": "yK", "n8": "gK"}
    # Blue's bishop a6 pins Red's rook c4 against the king d3 (a6 b5 c4 d3 e2 f1)
    b = board({**kings, "d3": "rK", "c4": "rR", "a6": "bB"})
    assert not b.is_check()
    assert moves_from(b, "c4") == set()
    # without the rook the king is in check; c4 and e2 (behind the king) stay attacked
    b = board({**kings, "d3": "rK", "a6": "bB"})
    assert b.is_check() and b.checkers() == ["a6"]
    assert moves_from(b, "d3") == {"d3d4", "d3e4", "d3e3", "d3d2"}


def test_position_strings_need_the_right_number_of_squares_per_rank():
    good = position(FAR_KINGS)
    Board("four-player", fen=good)
    rows = good.split(" ")[0].split("/")

    def with_row(i: int, text: str) -> str:
        r = list(rows)
        r[i] = text
        return " ".join(["/".join(r)] + good.split(" ")[1:])

    for i, text in [
        (0, "14"),  # rank 14 has 8 squares
        (0, "9"),
        (0, "8yK"),  # a ninth square on rank 14
        (13, "14"),  # rank 1
        (13, "7"),
        (6, "8"),  # rank 8 has 14 squares
        (6, "15"),
        (6, "13gK1"),
    ]:  # 15 squares
        with pytest.raises(InvalidPositionError):
            Board("four-player", fen=with_row(i, text))
    with pytest.raises(InvalidPositionError):  # 13 ranks
        Board("four-player", fen=" ".join(["/".join(rows[1:])] + good.split(" ")[1:]))


# --------------------------------------------------------------------------- start, perft


MODERN_START = (
    "yRyNyByKyQyByNyR/yPyPyPyPyPyPyPyP/8/bRbP10gPgR/bNbP10gPgN/bBbP10gPgB/bQbP10gPgK/"
    "bKbP10gPgQ/bBbP10gPgB/bNbP10gPgN/bRbP10gPgR/8/rPrPrPrPrPrPrPrP/rRrNrBrQrKrBrNrR "
    "r rKQbKQyKQgKQ - 0 1 rbyg aaaa"
)


@pytest.mark.parametrize("mode", ["teams", "ffa"])
def test_start_position_setups(mode):
    b = Board("four-player", mode=mode)
    assert b.fen() == MODERN_START  # docs/position-strings.md's example
    p = b.pieces()
    assert len(p) == 64
    assert p["h1"] == piece("rK") and p["g1"] == piece("rQ")
    assert p["a7"] == piece("bK") and p["a8"] == piece("bQ")
    assert p["g14"] == piece("yK") and p["h14"] == piece("yQ")
    assert p["n8"] == piece("gK") and p["n7"] == piece("gQ")
    c = Board("four-player", mode=mode, setup="classic").pieces()
    assert c["a8"] == piece("bK") and c["a7"] == piece("bQ")
    assert c["n7"] == piece("gK") and c["n8"] == piece("gQ")
    assert c["h1"] == piece("rK") and c["g14"] == piece("yK")
    for pieces in (p, c):
        assert {s for s, x in pieces.items() if x.piece_type == PieceType.PAWN} == (
            {f"{f}2" for f in "defghijk"}
            | {f"{f}13" for f in "defghijk"}
            | {f"b{r}" for r in range(4, 12)}
            | {f"m{r}" for r in range(4, 12)}
        )
        assert {pieces[s] for s in ("d1", "k1")} == {piece("rR")}
        assert {pieces[s] for s in ("a4", "a11")} == {piece("bR")}
        assert {pieces[s] for s in ("d14", "k14")} == {piece("yR")}
        assert {pieces[s] for s in ("n4", "n11")} == {piece("gR")}
    assert b.turn == RED
    assert moves(b) == (
        {f"{f}2{f}3" for f in "defghijk"} | {f"{f}2{f}4" for f in "defghijk"} | {"e1d3", "e1f3", "j1i3", "j1k3"}
    )


def test_transposed_moves_give_the_same_position_and_key():
    a, b = Board("four-player"), Board("four-player")
    play(a, "h2h3", "b9c9", "i13i12", "m10l10", "j2j3", "b10c10", "j13j12", "m9l9")
    play(b, "j2j3", "b10c10", "j13j12", "m9l9", "h2h3", "b9c9", "i13i12", "m10l10")
    assert a.fen() == b.fen() and a.zobrist_key == b.zobrist_key
    assert a.zobrist_key == a._core.compute_key()


def test_start_turn_order():
    b = Board("four-player")
    for colour, move in [(RED, "h2h3"), (BLUE, "b7c7"), (YELLOW, "i13i12"), (GREEN, "m8l8")]:
        assert b.turn == colour
        b.push(move)
    assert b.turn == RED and b.fullmove_number == 2


PERFT = perft_cases("four_player_perft.txt")
PERFT_SLOW = perft_cases("four_player_perft_slow.txt")


def perft_board(ident: str, position: str) -> Board:
    """The board of a perft data line: its id is mode-setup, its position that start position."""
    mode, setup = ident.split("-")
    b = Board("four-player", fen=position, mode=mode, setup=setup)
    assert position == b.fen() == Board("four-player", mode=mode, setup=setup).fen()
    return b


@pytest.mark.parametrize("ident,position,depth,nodes", PERFT, ids=[f"{c[0]}-d{c[2]}" for c in PERFT])
def test_perft(ident, position, depth, nodes):
    """The counts of tests/data/four_player_perft.txt (sources named there), every mode and
    setup; up to depth 4 also without bulk counting at the leaves, and as divide's sum."""
    b = perft_board(ident, position)
    assert b.perft(depth) == nodes
    if depth <= 4:
        assert b._core.perft_full(depth) == nodes
        assert sum(b.divide(depth).values()) == nodes


@pytest.mark.slow
@pytest.mark.parametrize("ident,position,depth,nodes", PERFT_SLOW, ids=[f"{c[0]}-d{c[2]}" for c in PERFT_SLOW])
def test_perft_deep(ident, position, depth, nodes):
    assert perft_board(ident, position).perft(depth) == nodes


def test_depth_two_is_395_because_of_a_cross_player_pin_and_a_blocked_double_step():
    b = Board("four-player")
    div = b.divide(2)
    # f2-f3 / f2-f4 open Red's queen g1 onto the diagonal f2-e3-d4-c5-b6-a7: Blue's b6 pawn is
    # pinned against Blue's king (modern setup: king a7) and loses b6c6, b6d6.
    assert div["f2f3"] == div["f2f4"] == 18
    # d2-d4 stands on d4, the target of Blue's b4-d4 double step.
    assert div["d2d4"] == 19
    assert all(v == 20 for k, v in div.items() if k not in ("f2f3", "f2f4", "d2d4"))
    b.push("f2f3")
    assert "b6c6" not in b.legal_moves and "b6d6" not in b.legal_moves
    b.pop()
    b.push("d2d4")
    assert "b4c4" in b.legal_moves and "b4d4" not in b.legal_moves
    # classic: Blue's king is on a8, so there is no pin; only the blocked double step remains
    c = Board("four-player", setup="classic").divide(2)
    assert c["f2f3"] == c["f2f4"] == 20 and c["d2d4"] == 19


@pytest.mark.parametrize(
    "mode,setup", [("teams", "modern"), ("teams", "classic"), ("ffa", "modern"), ("ffa", "classic")]
)
def test_start_position_string_round_trips(mode, setup):
    b = Board("four-player", mode=mode, setup=setup)
    again = Board("four-player", fen=b.fen(), mode=mode, setup=setup)
    assert again.fen() == b.fen()
    assert again.zobrist_key == b.zobrist_key


def test_pawns_may_stand_on_other_colours_promotion_lines():
    """A pawn only cannot stand on its own colour's promotion line (it would have promoted).
    Red's start pawns d2 and k2 stand on Green's and Blue's teams promotion files; in FFA a Red
    pawn on e7 (Yellow's FFA promotion rank) is one step from promoting on e8."""
    b = board({**HOME_KINGS, "d2": "rP", "k2": "rP", "b4": "bP", "e10": "yP"})
    assert {"d2d3", "d2d4", "k2k3", "k2k4"} <= moves(b)
    b = board({**HOME_KINGS, "e7": "rP", "g5": "bP", "h9": "gP"}, mode="ffa")
    assert moves_from(b, "e7") == {"e7e8q"}


# --------------------------------------------------------------------------- castling (rules §2.2)

# colour -> side -> (king from, king to, rook from, rook to)
CASTLING = {
    "modern": {
        "r": {"K": ("h1", "j1", "k1", "i1"), "Q": ("h1", "f1", "d1", "g1")},
        "b": {"K": ("a7", "a5", "a4", "a6"), "Q": ("a7", "a9", "a11", "a8")},
        "y": {"K": ("g14", "e14", "d14", "f14"), "Q": ("g14", "i14", "k14", "h14")},
        "g": {"K": ("n8", "n10", "n11", "n9"), "Q": ("n8", "n6", "n4", "n7")},
    },
    "classic": {
        "r": {"K": ("h1", "j1", "k1", "i1"), "Q": ("h1", "f1", "d1", "g1")},
        "b": {"K": ("a8", "a10", "a11", "a9"), "Q": ("a8", "a6", "a4", "a7")},
        "y": {"K": ("g14", "e14", "d14", "f14"), "Q": ("g14", "i14", "k14", "h14")},
        "g": {"K": ("n7", "n5", "n4", "n6"), "Q": ("n7", "n9", "n11", "n8")},
    },
}
ALL_RIGHTS = "rKQbKQyKQgKQ"


def castle_pieces(setup: str = "modern") -> dict[str, str]:
    """Every colour's king and both rooks on their home squares, nothing else."""
    pieces = {}
    for x, sides in CASTLING[setup].items():
        for kf, _, rf, _ in sides.values():
            pieces[kf] = x + "K"
            pieces[rf] = x + "R"
    return pieces


def castle_board(
    extra: dict[str, str] | None = None,
    turn: str = "r",
    mode: str = "teams",
    setup: str = "modern",
    castling: str = ALL_RIGHTS,
) -> Board:
    pieces = castle_pieces(setup)
    pieces.update(extra or {})
    return board(pieces, mode=mode, setup=setup, turn=turn, castling=castling)


def rights_of(b: Board) -> str:
    return fields(b)[2]


CASTLE_CASES = [
    (setup, x, side)
    for setup in ("modern", "classic")
    for x in ORDER
    for side in "KQ"
    if setup == "modern" or x in "bg"
]


@pytest.mark.parametrize("mode", ["teams", "ffa"])
@pytest.mark.parametrize("setup,x,side", CASTLE_CASES)
def test_castling(setup, x, side, mode):
    kf, kt, rf, rt = CASTLING[setup][x][side]
    b = castle_board(turn=x, mode=mode, setup=setup)
    both = {s: CASTLING[setup][x][s][0] + CASTLING[setup][x][s][1] for s in "KQ"}
    assert set(both.values()) <= moves_from(b, kf)
    start = b.fen()
    b.push(kf + kt)
    assert b.piece_at(kt) == Piece(COLOUR[x], PieceType.KING)
    assert b.piece_at(rt) == Piece(COLOUR[x], PieceType.ROOK)
    assert b.piece_at(kf) is None and b.piece_at(rf) is None
    other_rook = CASTLING[setup][x]["Q" if side == "K" else "K"][2]
    assert b.piece_at(other_rook) == Piece(COLOUR[x], PieceType.ROOK)
    assert b.king(COLOUR[x]) == kt
    # the castler's rights are gone, everyone else's are kept
    assert rights_of(b) == ALL_RIGHTS.replace(x + "KQ", "")
    assert b.turn == COLOUR[ORDER[(ORDER.index(x) + 1) % 4]]
    b.pop()
    assert b.fen() == start


def test_castling_rights_written_as_king_side_then_queen_side():
    b = castle_board(castling="rQbKyKQgQ")
    assert rights_of(b) == "rQbKyKQgQ"
    assert "h1f1" in b.legal_moves and "h1j1" not in b.legal_moves


def test_castling_blocked():
    b = castle_board({"e1": "rN"})  # between rook d1 and king h1 (not on the king's path)
    assert "h1j1" in b.legal_moves and "h1f1" not in b.legal_moves
    b = castle_board({"i1": "rB"})
    assert "h1j1" not in b.legal_moves and "h1f1" in b.legal_moves
    b = castle_board({"j1": "bN"})  # an enemy piece on the king's target square
    assert "h1j1" not in b.legal_moves and "h1f1" in b.legal_moves
    b = castle_board({"a10": "bN"}, turn="b")  # Blue queen-side: a8, a9, a10 between
    assert "a7a9" not in b.legal_moves and "a7a5" in b.legal_moves
    b = castle_board({"n5": "gB"}, turn="g")  # Green queen-side: n7, n6, n5 between
    assert "n8n6" not in b.legal_moves and "n8n10" in b.legal_moves
    b = castle_board({"j14": "yN"}, turn="y")  # Yellow queen-side: h14, i14, j14 between
    assert "g14i14" not in b.legal_moves and "g14e14" in b.legal_moves


@pytest.mark.parametrize("mode", ["teams", "ffa"])
def test_no_castling_out_of_check(mode):
    # Blue's knight f2 attacks h1 (and d1, d3, e4, g4, h3), none of the other path squares
    b = castle_board({"f2": "bN"}, mode=mode)
    assert b.is_check() and b.checkers() == ["f2"]
    assert "h1j1" not in b.legal_moves and "h1f1" not in b.legal_moves
    assert "h1i2" in b.legal_moves


def test_castling_through_or_onto_attacked_squares():
    b = castle_board({"i7": "bR"})  # attacks i1, which the king crosses king-side
    assert "h1j1" not in b.legal_moves and "h1f1" in b.legal_moves
    b = castle_board({"j6": "bR"})  # attacks j1, where the king lands
    assert "h1j1" not in b.legal_moves and "h1f1" in b.legal_moves
    b = castle_board({"e2": "gN"})  # attacks g1, crossed queen-side
    assert "h1f1" not in b.legal_moves and "h1j1" in b.legal_moves
    b = castle_board({"e3": "gN"})  # attacks f1, the queen-side landing square
    assert "h1f1" not in b.legal_moves and "h1j1" in b.legal_moves
    b = castle_board({"d3": "gN"})  # attacks e1: only the rook passes there
    assert "h1f1" in b.legal_moves and "h1j1" in b.legal_moves
    b = castle_board({"k7": "bR"})  # attacks the rook on k1: allowed
    assert "h1j1" in b.legal_moves
    # a side colour: Green's king n8 crosses n9 king-side, n7 queen-side
    b = castle_board({"f9": "rR"}, turn="g")  # rank 9 up to n9
    assert "n8n10" not in b.legal_moves and "n8n6" in b.legal_moves
    b = castle_board({"j6": "yR"}, turn="g")  # rank 6: n6 is the queen-side landing square
    assert "n8n6" not in b.legal_moves and "n8n10" in b.legal_moves
    # Blue (modern) queen-side a7 -> a9 crosses a8
    b = castle_board({"f8": "yR"}, turn="b")
    assert "a7a9" not in b.legal_moves and "a7a5" in b.legal_moves


def test_castling_and_pawn_attacks():
    """Pawns attack only their two forward diagonals, whatever their direction."""
    b = castle_board({"h2": "bP"})  # Blue's pawn attacks i1 and i3
    assert not b.is_check()
    assert "h1j1" not in b.legal_moves and "h1f1" in b.legal_moves
    b = castle_board({"j2": "bP"})  # attacks k1 and k3, not i1 or j1 behind it
    assert "h1j1" in b.legal_moves
    b = castle_board({"k2": "gP"})  # Green's pawn attacks j1 and j3
    assert "h1j1" not in b.legal_moves and "h1f1" in b.legal_moves
    b = castle_board({"g2": "gP"})  # attacks f1 and f3
    assert "h1f1" not in b.legal_moves and "h1j1" in b.legal_moves
    b = castle_board({"m5": "rP"}, turn="g")  # Red's pawn attacks l6 and n6
    assert "n8n6" not in b.legal_moves and "n8n10" in b.legal_moves
    b = castle_board({"e13": "bP"}, turn="y")  # attacks f14 and f12
    assert "g14e14" not in b.legal_moves and "g14i14" in b.legal_moves
    b = castle_board({"b5": "rP"}, turn="b")  # attacks a6 and c6
    assert "a7a5" not in b.legal_moves and "a7a9" in b.legal_moves
    b = castle_board({"b10": "yP"}, turn="b")  # Yellow's pawn attacks a9 and c9
    assert "a7a9" not in b.legal_moves and "a7a5" in b.legal_moves


def test_attack_by_a_partner_does_not_stop_castling_in_teams():
    # Yellow's knight h3 attacks g1 and i1 (both castling paths) and f2, f4, g5, i5, j4, j2
    teams = castle_board({"h3": "yN"})
    assert not teams.is_check()
    assert {"h1j1", "h1f1"} <= moves(teams)
    ffa = castle_board({"h3": "yN"}, mode="ffa")
    assert "h1j1" not in ffa.legal_moves and "h1f1" not in ffa.legal_moves
    # Blue's partner Green: a rook on rank 6 attacks a6 (Blue's king-side path)
    teams = castle_board({"g6": "gR"}, turn="b")
    assert "a7a5" in teams.legal_moves
    ffa = castle_board({"g6": "gR"}, turn="b", mode="ffa")
    assert "a7a5" not in ffa.legal_moves and "a7a9" in ffa.legal_moves


def test_castling_right_lost_after_king_moves():
    b = castle_board()
    play(b, "h1h2")
    assert rights_of(b) == "bKQyKQgKQ"
    # the others move a rook each: Blue's a4 and Yellow's d14 are king-side rooks, Green's n4
    # the queen-side one
    play(b, "a4b4", "d14d13", "n4m4", "h2h1")
    assert rights_of(b) == "bQyQgK"
    play(b, "b4a4", "d13d14", "m4n4")
    assert b.turn == RED
    assert "h1j1" not in b.legal_moves and "h1f1" not in b.legal_moves
    assert rights_of(b) == "bQyQgK"


def test_castling_right_lost_after_rook_moves():
    b = castle_board()
    play(b, "k1k2", "a7b7", "g14g13", "n8m8", "k2k1", "b7a7", "g13g14", "m8n8")
    assert rights_of(b) == "rQ"
    assert "h1j1" not in b.legal_moves and "h1f1" in b.legal_moves
    b = castle_board(turn="g")
    play(b, "n11m11", "h1h2", "a7a8", "g14g13", "m11n11")
    assert rights_of(b) == "gQ"
    b.push("h2h1")
    b.push("a8a7")
    b.push("g13g14")
    assert b.turn == GREEN
    assert "n8n10" not in b.legal_moves and "n8n6" in b.legal_moves


def test_castling_right_lost_when_the_rook_is_captured_at_home():
    b = castle_board({"k7": "bR"}, turn="b")
    play(b, "k7k1")
    assert rights_of(b) == "rQbKQyKQgKQ"


# --------------------------------------------------------------------------- pawns

PAWN_CASES = {
    # colour: (pieces, {pawn: its moves})
    "r": (
        {"e2": "rP", "g5": "rP", "b9": "rP", "h6": "bN", "f4": "bN"},
        {"e2": {"e3", "e4"}, "g5": {"g6", "h6"}, "b9": {"b10"}},
    ),
    "b": (
        {"b5": "bP", "f9": "bP", "e2": "bP", "g10": "rN", "e10": "rN"},
        {"b5": {"c5", "d5"}, "f9": {"g9", "g10"}, "e2": {"f2"}},
    ),
    "y": (
        {"i13": "yP", "e6": "yP", "m10": "yP", "d5": "gN", "f7": "gN"},
        {"i13": {"i12", "i11"}, "e6": {"e5", "d5"}, "m10": {"m9"}},
    ),
    "g": (
        {"m10": "gP", "h8": "gP", "g13": "gP", "g9": "yN", "i9": "yN"},
        {"m10": {"l10", "k10"}, "h8": {"g8", "g9"}, "g13": {"f13"}},
    ),
}


@pytest.mark.parametrize("x", ORDER)
def test_pawn_directions_and_double_steps(x):
    """Red up, Blue right, Yellow down, Green left; a double step only from the colour's own
    start rank/file (not from another colour's); captures diagonally forward only."""
    pieces, expected = PAWN_CASES[x]
    b = board({**HOME_KINGS, **pieces}, turn=x)
    for sq, targets in expected.items():
        assert moves_from(b, sq) == {sq + t for t in targets}, sq


def test_blocked_pawn_pushes():
    b = board({**HOME_KINGS, "e2": "rP", "e4": "bN", "f2": "rP", "f3": "yN"})
    assert moves_from(b, "e2") == {"e2e3"}
    assert moves_from(b, "f2") == set()
    b = board({**HOME_KINGS, "b6": "bP", "d6": "rN", "b9": "bP", "c9": "gN"}, turn="b")
    assert moves_from(b, "b6") == {"b6c6"}
    assert moves_from(b, "b9") == set()


# --------------------------------------------------------------------------- en passant

# colour: pieces, double step, skipped, landing, taker 1 (moves right after), quiet moves of the
# three others in turn order, taker 2 (the last to move before the double-stepper again).
EP_CASES = {
    "r": {
        "pieces": {"i1": "rK", "a7": "bK", "g14": "yK", "n8": "gK", "f2": "rP", "e2": "bP", "g2": "gP"},
        "step": "f2f4",
        "skipped": "f3",
        "landing": "f4",
        "first": "e2f3",
        "quiet": ["a7a8", "g14g13", "n8n9"],
        "second": "g2f3",
    },
    "b": {
        "pieces": {"h1": "rK", "a5": "bK", "g14": "yK", "n8": "gK", "b7": "bP", "b8": "yP", "b6": "rP"},
        "step": "b7d7",
        "skipped": "c7",
        "landing": "d7",
        "first": "b8c7",
        "quiet": ["g14g13", "n8n9", "h1h2"],
        "second": "b6c7",
    },
    "y": {
        "pieces": {"h1": "rK", "a7": "bK", "e14": "yK", "n8": "gK", "g13": "yP", "h13": "gP", "f13": "bP"},
        "step": "g13g11",
        "skipped": "g12",
        "landing": "g11",
        "first": "h13g12",
        "quiet": ["n8n9", "h1h2", "a7a8"],
        "second": "f13g12",
    },
    "g": {
        "pieces": {"h1": "rK", "a7": "bK", "g14": "yK", "n8": "gK", "m7": "gP", "m6": "rP", "m8": "yP"},
        "step": "m7k7",
        "skipped": "l7",
        "landing": "k7",
        "first": "m6l7",
        "quiet": ["h1h2", "a7a8", "g14g13"],
        "second": "m8l7",
    },
}


def ep_board(x: str) -> Board:
    case = EP_CASES[x]
    b = board(case["pieces"], turn=x)
    play(b, case["step"])
    return b


@pytest.mark.parametrize("x", ORDER)
def test_en_passant_by_the_next_player(x):
    case = EP_CASES[x]
    b = ep_board(x)
    assert b.piece_at(case["landing"]) == Piece(COLOUR[x], PieceType.PAWN)
    assert fields(b)[3] == case["skipped"]
    taker = case["first"]
    origin = taker[: -len(case["skipped"])]
    taker_colour = b.piece_at(origin).colour
    assert taker_colour == b.turn
    play(b, taker)
    assert b.piece_at(case["landing"]) is None  # the double-stepper is gone
    assert b.piece_at(case["skipped"]) == Piece(taker_colour, PieceType.PAWN)
    assert b.piece_at(origin) is None
    assert fields(b)[3] == "-"


@pytest.mark.parametrize("x", ORDER)
def test_en_passant_by_the_other_neighbour_and_not_later(x):
    case = EP_CASES[x]
    b = ep_board(x)
    q1, q2, q3 = case["quiet"]
    play(b, q1, q2)  # the first taker passes, the double-stepper's partner moves
    assert fields(b)[3] == case["skipped"]
    after = b.copy()
    play(b, case["second"])
    assert b.piece_at(case["landing"]) is None
    assert b.piece_at(case["skipped"]).piece_type == PieceType.PAWN
    # nobody took: once the turn is back with the double-stepper the right is gone
    play(after, q3)
    assert after.turn == COLOUR[x]
    assert fields(after)[3] == "-"
    assert after.piece_at(case["landing"]) == Piece(COLOUR[x], PieceType.PAWN)


def test_en_passant_expires_for_both_takers():
    b = ep_board("r")
    play(b, "a7a8", "g14g13", "n8n9")
    assert b.turn == RED and fields(b)[3] == "-"
    play(b, "i1j1")
    assert b.turn == BLUE
    # Blue's e2 pawn now only steps right to f2 (f2 is empty since the double step)
    assert moves_from(b, "e2") == {"e2f2"}
    play(b, "a8a7", "g13g14")
    assert moves_from(b, "g2") == {"g2f2"}


def test_en_passant_right_ends_when_the_skipped_square_is_occupied():
    pieces = {**EP_CASES["r"]["pieces"], "g5": "yN"}
    b = board(pieces)
    play(b, "f2f4", "a7a8", "g5f3")  # Yellow's knight lands on the skipped square
    assert fields(b)[3] == "-"
    play(b, "g2f3")  # an ordinary capture of the knight
    assert b.piece_at("f3") == piece("gP")
    assert b.piece_at("f4") == piece("rP")


# Both modes: each double step taken by one of the two neighbours.  The geometry also fits FFA,
# where pawns promote on the 8th line (Red's pawns live on ranks 2-7, Blue's on files b-g, ...).
EP_PAIRS = {
    "r": {**HOME_KINGS, "e2": "rP", "j2": "rP", "d2": "bP", "k2": "gP"},
    "b": {**HOME_KINGS, "b5": "bP", "b10": "bP", "b4": "rP", "b11": "yP"},
    "y": {**HOME_KINGS, "f13": "yP", "j13": "yP", "e13": "bP", "k13": "gP"},
    "g": {**HOME_KINGS, "m6": "gP", "m10": "gP", "m5": "rP", "m11": "yP"},
}
QUIET = {"r": "h1h2", "b": "a7a8", "y": "g14g13", "g": "n8n9"}
EP_PAIR_CASES = [
    # double-stepper, double step, skipped, landing, the capture, who passes in between
    ("r", "e2e4", "e3", "e4", "d2e3", ""),
    ("r", "j2j4", "j3", "j4", "k2j3", "by"),
    ("b", "b10d10", "c10", "d10", "b11c10", ""),
    ("b", "b5d5", "c5", "d5", "b4c5", "yg"),
    ("y", "j13j11", "j12", "j11", "k13j12", ""),
    ("y", "f13f11", "f12", "f11", "e13f12", "gr"),
    ("g", "m6k6", "l6", "k6", "m5l6", ""),
    ("g", "m10k10", "l10", "k10", "m11l10", "rb"),
]


@pytest.mark.parametrize("mode", ["teams", "ffa"])
@pytest.mark.parametrize("x,step,skipped,landing,capture,passing", EP_PAIR_CASES)
def test_en_passant_each_neighbour(x, step, skipped, landing, capture, passing, mode):
    b = board(EP_PAIRS[x], mode=mode, turn=x)
    play(b, step)
    assert fields(b)[3] == skipped
    for y in passing:
        play(b, QUIET[y])
    assert fields(b)[3] == skipped
    origin = capture[: -len(skipped)]
    taker = b.piece_at(origin)
    assert taker.piece_type == PieceType.PAWN and taker.colour == b.turn != COLOUR[x]
    play(b, capture)
    assert b.piece_at(landing) is None
    assert b.piece_at(skipped) == taker
    assert b.piece_at(origin) is None
    assert fields(b)[3] == "-"


@pytest.mark.parametrize("mode", ["teams", "ffa"])
@pytest.mark.parametrize("rook", [None, "rR", "gR"])
def test_en_passant_that_exposes_the_king(rook, mode):
    """Red e2-e4 lands beside Blue's d4 pawn on Blue's king rank (a4).  Taking en passant
    empties d4 and e4: illegal if an enemy rook waits on l4; a partner's rook (teams) does not
    count."""
    pieces = {"h1": "rK", "a4": "bK", "g14": "yK", "n8": "gK", "e2": "rP", "d4": "bP"}
    if rook:
        pieces["l4"] = rook
    b = board(pieces, mode=mode)
    play(b, "e2e4")
    legal = rook is None or (rook == "gR" and mode == "teams")
    assert ("d4e3" in b.legal_moves) == legal
    assert moves_from(b, "d4") == ({"d4e3"} if legal else set())


def test_two_en_passant_rights_at_once():
    """One slot per colour: after Red's and Blue's double steps Yellow may take Blue's pawn,
    and Green then still Red's."""
    pieces = {"i1": "rK", "a5": "bK", "g14": "yK", "n8": "gK", "f2": "rP", "g2": "gP", "b7": "bP", "b8": "yP"}
    b = board(pieces)
    play(b, "f2f4", "b7d7")
    assert fields(b)[3] == "f3,c7"
    assert not any(m.to_cell == "f3" for m in b.legal_moves)  # Red is Yellow's partner
    play(b, "b8c7")
    assert b.piece_at("d7") is None and fields(b)[3] == "f3"
    play(b, "g2f3")
    assert b.piece_at("f4") is None and b.piece_at("f3") == piece("gP")
    assert fields(b)[3] == "-"


def test_en_passant_answers_a_check_by_the_double_stepped_pawn():
    # Red's e4 pawn, just arrived, attacks d5 and f5: Blue's king d5 is in check
    b = board({"h1": "rK", "d5": "bK", "g14": "yK", "n8": "gK", "e2": "rP", "d4": "bP"})
    play(b, "e2e4")
    assert b.is_check() and b.checkers() == ["e4"]
    assert "d4e3" in b.legal_moves and "d5e4" in b.legal_moves
    play(b, "d4e3")
    assert b.piece_at("e4") is None and b.piece_at("e3") == piece("bP")


def test_en_passant_field_of_position_strings():
    pieces = {"i1": "rK", "a7": "bK", "g14": "yK", "n8": "gK", "f4": "rP", "e2": "bP", "g2": "gP"}
    b = board(pieces, turn="b", ep="f3")
    assert "e2f3" in b.legal_moves and fields(b)[3] == "f3"
    b = board(pieces, turn="g", ep="f3")
    assert "g2f3" in b.legal_moves
    with pytest.raises(InvalidPositionError):  # expired: Red is to move again
        board(pieces, turn="r", ep="f3")
    with pytest.raises(InvalidPositionError):  # no double step skips f5
        board(pieces, turn="b", ep="f5")
    with pytest.raises(InvalidPositionError):  # the pawn that skipped f3 is not on f4
        board({**pieces, "f4": "bN"}, turn="b", ep="f3")
    b = board(pieces, turn="b")
    assert "e2f3" not in b.legal_moves


def _script(b: Board, rounds: list[tuple[str, ...]]) -> None:
    for r in rounds:
        play(b, *r)


def test_en_passant_onto_the_promotion_rank_promotes_ffa():
    """FFA: Blue's b8 pawn double-steps to d8 over c8; Red's d7 pawn takes it en passant on c8,
    Red's FFA promotion rank, and becomes a one-point queen."""
    b = Board("four-player", mode="ffa")
    _script(
        b,
        [
            ("d2d4", "a10c9", "e14d12", "n5l6"),
            ("d4d5", "c9a10", "d12e14", "l6n5"),
            ("d5d6", "a10c9", "e14d12", "n5l6"),
            ("d6d7", "b8d8", "d12e14", "l6n5"),
        ],
    )
    assert fields(b)[3] == "c8"
    assert b.turn == RED
    assert moves_from(b, "d7") == {"d7c8q"}  # the en-passant capture, promoting; d8 is blocked
    play(b, "d7c8q")
    assert b.piece_at("c8") == Piece(RED, PieceType.ONE_POINT_QUEEN)
    assert b.piece_at("d8") is None and b.piece_at("d7") is None
    assert "rD" in b.fen()


def test_en_passant_onto_the_promotion_rank_promotes_teams():
    """Teams: Blue's b11 pawn double-steps to d11 over c11; Red's d10 pawn takes it en passant
    on c11, Red's teams promotion rank, choosing among queen, rook, bishop, knight."""
    b = Board("four-player")
    blue = ["a10c9", "c9a10"] * 3
    yellow = ["j14i12", "i12j14"] * 4
    green = ["n10l9", "l9n10"] * 4
    red = ["d2d4", "d4d5", "d5d6", "d6d7", "d7d8", "d8d9"]
    for i, r in enumerate(red):
        play(b, r, blue[i], yellow[i], green[i])
    play(b, "d9d10", "b11d11", yellow[6], green[6])
    assert fields(b)[3] == "c11"
    assert {m for m in moves_from(b, "d10")} == {"d10c11q", "d10c11r", "d10c11b", "d10c11n"}
    play(b, "d10c11n")
    assert b.piece_at("c11") == piece("rN")
    assert b.piece_at("d11") is None


# --------------------------------------------------------------------------- promotion

TEAMS_PROMOTION = {
    # colour: (pieces, promoting pawn, push target, capture target, {pawn: plain move}, chosen)
    "r": ({"e10": "rP", "f11": "bN", "f9": "rP", "e7": "rP"}, "e10", "e11", "f11", {"f9": "f9f10", "e7": "e7e8"}, "n"),
    "b": ({"j6": "bP", "k7": "rN", "i8": "bP", "e5": "bP"}, "j6", "k6", "k7", {"i8": "i8j8", "e5": "e5f5"}, "r"),
    "y": ({"e5": "yP", "f4": "gN", "h6": "yP", "j9": "yP"}, "e5", "e4", "f4", {"h6": "h6h5", "j9": "j9j8"}, "b"),
    "g": ({"e9": "gP", "d10": "yN", "f7": "gP", "i10": "gP"}, "e9", "d9", "d10", {"f7": "f7e7", "i10": "i10h10"}, "q"),
}


@pytest.mark.parametrize("x", ORDER)
def test_promotion_teams(x):
    """Teams: on the 11th rank from the own side (Red 11, Blue k, Yellow 4, Green d) to a queen,
    rook, bishop or knight; the FFA lines (8th rank) are ordinary squares."""
    pieces, pawn, push, capture, plain, chosen = TEAMS_PROMOTION[x]
    b = board({**HOME_KINGS, **pieces}, turn=x)
    assert moves_from(b, pawn) == {pawn + t + k for t in (push, capture) for k in "qrbn"}
    assert pawn + push not in b.legal_moves
    assert pawn + push + "d" not in b.legal_moves
    before = b.fen()
    with pytest.raises(IllegalMoveError):  # a promotion needs its letter
        b.push(pawn + push)
    assert b.fen() == before
    for sq, text in plain.items():
        assert moves_from(b, sq) == {text}
    play(b, pawn + push + chosen)
    assert b.piece_at(push) == Piece(COLOUR[x], KIND[chosen.upper()])
    assert b.piece_at(pawn) is None
    b.pop()
    play(b, pawn + capture + "q")
    assert b.piece_at(capture) == Piece(COLOUR[x], PieceType.QUEEN)


def test_promotion_ffa_one_point_queen():
    """FFA: on the 8th rank from the own side (Red 8, Blue h, Yellow 7, Green g), only to the
    one-point queen.  The pawns start two steps short (e6, f6, j9, i5) and step up first."""
    b = board(
        {"e1": "rK", "a10": "bK", "i14": "yK", "n9": "gK", "e6": "rP", "f6": "bP", "j9": "yP", "i5": "gP"}, mode="ffa"
    )
    play(b, "e6e7", "f6g6", "j9j8", "i5h5")
    assert b.piece_at("e7") == piece("rP") and b.piece_at("h5") == piece("gP")
    assert moves_from(b, "e7") == {"e7e8q"}
    for text in ("e7e8", "e7e8r", "e7e8b", "e7e8n"):
        assert text not in b.legal_moves
    with pytest.raises(ValueError):
        b.push("e7e8r")
    play(b, "e7e8q")
    assert b.piece_at("e8") == Piece(RED, PieceType.ONE_POINT_QUEEN)
    # Blue: g6 -> h6, or capture Green's h5 pawn, landing on file h as well
    assert moves_from(b, "g6") == {"g6h6q", "g6h5q"}
    play(b, "g6h6q")
    assert b.piece_at("h6") == Piece(BLUE, PieceType.ONE_POINT_QUEEN)
    assert moves_from(b, "j8") == {"j8j7q"}
    play(b, "j8j7q")
    assert b.piece_at("j7") == Piece(YELLOW, PieceType.ONE_POINT_QUEEN)
    assert moves_from(b, "h5") == {"h5g5q"}
    play(b, "h5g5q")
    assert b.piece_at("g5") == Piece(GREEN, PieceType.ONE_POINT_QUEEN)
    # the one-point queen attacks like a queen
    assert b.attackers("a4", RED) == ["e8"]  # diagonal d7 c6 b5 a4
    assert b.attackers("e14", RED) == ["e8"]  # file
    assert b.attackers("a8", RED) == ["e8"]  # rank
    assert b.attackers("k14", RED) == ["e8"]  # diagonal f9 ... k14
    assert b.attackers("n6", BLUE) == ["h6"]
    assert fields(b)[0].count("D") == 4


def test_inherited_pawns_keep_their_colours_direction_and_promotion():
    """Teams: Blue controls Yellow's army after taking Yellow's king; Yellow's pawns still move
    down, double-step from rank 13 and promote on rank 4."""
    pieces = {"h1": "rK", "a7": "bK", "n8": "gK", "e5": "yP", "f13": "yP"}
    b = board(pieces, turn="b", controllers="rbbg", statuses="aaxa")
    assert moves_from(b, "e5") == {"e5e4" + k for k in "qrbn"}
    assert moves_from(b, "f13") == {"f13f12", "f13f11"}
    play(b, "e5e4q")
    assert b.piece_at("e4") == piece("yQ")
    assert b.turn == GREEN


def test_one_point_queen_moves_like_a_queen():
    kings = {"e1": "rK", "a10": "bK", "i14": "yK", "n9": "gK"}
    d = board({**kings, "h7": "rD"}, mode="ffa")
    q = board({**kings, "h7": "rQ"}, mode="ffa")
    assert d.piece_at("h7") == Piece(RED, PieceType.ONE_POINT_QUEEN)
    expected = {"h7" + s for s in slider_targets("h7", ROOK_DIRS + BISHOP_DIRS)}
    assert moves_from(d, "h7") == expected == moves_from(q, "h7")
    assert Board("four-player", fen=d.fen(), mode="ffa").fen() == d.fen()


def test_one_point_queen_gives_check():
    b = board({"h1": "rK", "a7": "bK", "e12": "yK", "n8": "gK", "e5": "rD"}, mode="ffa", turn="y")
    assert b.is_check() and b.checkers() == ["e5"]
    assert "e12e11" not in b.legal_moves and "e12d11" in b.legal_moves


# --------------------------------------------------------------------------- partners (teams)

PARTNER_KINGS = {"h1": "rK", "a7": "bK", "g14": "yK", "n8": "gK"}


def test_partners_pieces_cannot_be_captured_in_teams():
    pieces = {**PARTNER_KINGS, "e5": "rR", "e9": "yN", "e3": "bN", "e6": "rP", "f7": "yB", "d7": "gB"}
    teams = board(pieces)
    assert moves_from(teams, "e5") >= {"e5e4", "e5e3"}
    assert "e5e3" in teams.legal_moves  # Blue's knight: an opponent
    assert "e5e2" not in teams.legal_moves
    assert moves_from(teams, "e6") == {"e6e7", "e6d7"}  # not e6f7: Yellow's bishop
    ffa = board(pieces, mode="ffa")
    assert "e6f7" in ffa.legal_moves


def test_rook_stops_before_a_partner():
    pieces = {**PARTNER_KINGS, "e5": "rR", "e9": "yN"}
    teams = board(pieces)
    assert {m for m in moves_from(teams, "e5") if m[2] == "e"} == {"e5e6", "e5e7", "e5e8"} | {
        f"e5e{r}" for r in range(1, 5)
    }
    ffa = board(pieces, mode="ffa")
    assert "e5e9" in ffa.legal_moves and "e5e10" not in ffa.legal_moves


def test_partner_gives_no_check_in_teams():
    pieces = {**PARTNER_KINGS, "h9": "yR"}
    teams = board(pieces)
    assert not teams.is_check() and teams.checkers() == []
    assert "h1h2" in teams.legal_moves  # a square only the partner attacks
    ffa = board(pieces, mode="ffa")
    assert ffa.is_check() and ffa.checkers() == ["h9"]
    assert "h1h2" not in ffa.legal_moves and "h1g1" in ffa.legal_moves


def test_partner_does_not_pin_in_teams():
    pieces = {**PARTNER_KINGS, "h9": "yR", "h4": "rN"}
    teams = board(pieces)
    assert "h4g6" in teams.legal_moves
    ffa = board(pieces, mode="ffa")
    assert moves_from(ffa, "h4") == set()


def test_blue_and_green_are_partners_too():
    pieces = {**PARTNER_KINGS, "c7": "gQ", "f7": "bR"}
    teams = board(pieces, turn="b")
    assert not teams.is_check()  # Green's queen on Blue's rank
    assert "f7c7" not in teams.legal_moves and "f7d7" in teams.legal_moves
    assert "a7b7" in teams.legal_moves
    ffa = board(pieces, mode="ffa", turn="b")
    assert ffa.is_check() and ffa.checkers() == ["c7"]
    assert "f7c7" in ffa.legal_moves


# --------------------------------------------------------------------------- king capture

KC_PIECES = {
    "e1": "rK",
    "a7": "bK",
    "h10": "yK",
    "n8": "gK",
    "h8": "rN",
    "h5": "bR",
    "f12": "yP",
    "f2": "rR",
    "k12": "gR",
}


@pytest.mark.parametrize("mode", ["teams", "ffa"])
def test_king_left_attacked_is_captured(mode):
    """Red moves his knight away from h8 and so opens Blue's rook h5 onto Yellow's king h10;
    Blue moves before Yellow and takes the king: Yellow is out."""
    b = board(KC_PIECES, mode=mode)
    assert b.attackers("h10", BLUE) == []
    play(b, "h8g6")
    assert b.attackers("h10", BLUE) == ["h5"]
    assert b.turn == BLUE
    assert "h5h10" in b.legal_moves
    start = b.fen()
    play(b, "h5h10")
    assert b.piece_at("h10") == piece("bR")
    assert b.king(YELLOW) is None
    assert b.status(YELLOW) == Status.OUT
    assert [b.status(c) for c in (RED, BLUE, GREEN)] == [Status.ACTIVE] * 3
    assert b.turn == GREEN  # Yellow no longer has turns
    assert b.piece_at("f12") == piece("yP")  # the rest of Yellow's army stays on the board
    if mode == "teams":
        # the victim's colours pass to the capturer
        assert b.controller(YELLOW) == BLUE
        assert fields(b)[6:] == ["rbbg", "aaxa"]
        # Yellow's pawn is now Blue's: Green, Blue's partner, may not take it
        assert "k12f12" not in b.legal_moves and "k12g12" in b.legal_moves
        play(b, "n8n9")
        assert "f2f12" in b.legal_moves  # Yellow's pawn is now an opponent's piece for Red
        play(b, "e1e2")
        assert "f12f11" in b.legal_moves and "f12f13" not in b.legal_moves  # still moves down
        play(b, "f12f11")
        assert b.piece_at("f11") == piece("yP")
    else:
        # rules §2.4: a player who is out (king captured) leaves his pieces dead
        assert b.controller(YELLOW) is None
        assert fields(b)[6:] == ["rb-g", "aaxa"]
        assert "k12f12" in b.legal_moves
        play(b, "n8n9")
        assert "f2f12" in b.legal_moves
        play(b, "e1e2")
        assert "f12f11" not in b.legal_moves
    while len(b.move_stack) > 1:
        b.pop()
    assert b.fen() == start


@pytest.mark.parametrize("mode", ["teams", "ffa"])
def test_king_capture_answers_a_check_by_the_victim(mode):
    """Red's knight leaves h8 and opens two lines: Blue's rook onto Yellow's king and Yellow's
    bishop e11 onto Blue's king j6.  Blue is in check, yet may take Yellow's king: after that
    the victim's pieces no longer count."""
    pieces = {"e1": "rK", "j6": "bK", "h10": "yK", "n8": "gK", "h8": "rN", "h5": "bR", "e11": "yB"}
    b = board(pieces, mode=mode)
    assert not b.is_check()
    play(b, "h8f7")
    assert b.is_check() and b.checkers() == ["e11"]
    assert "h5h10" in b.legal_moves  # king capture
    assert "h5h8" in b.legal_moves  # blocks the bishop
    assert "h5h4" not in b.legal_moves  # leaves the check
    play(b, "h5h10")
    assert b.status(YELLOW) == Status.OUT
    assert b.controller(YELLOW) == (BLUE if mode == "teams" else None)


def test_king_capture_illegal_if_it_exposes_the_capturer():
    # Blue's rook h5 is pinned on rank 5 by Red's rook l5 against Blue's king c5
    pieces = {"e1": "rK", "c5": "bK", "h10": "yK", "n8": "gK", "h8": "rN", "h5": "bR", "l5": "rR"}
    b = board(pieces)
    play(b, "h8f7")
    assert not b.is_check()
    assert "h5h10" not in b.legal_moves
    assert {"h5i5", "h5l5", "h5d5"} <= moves_from(b, "h5")
    assert all(m[-1] == "5" for m in moves_from(b, "h5"))


def test_a_partner_never_captures_the_king():
    pieces = {"e1": "rK", "a7": "bK", "h10": "yK", "n8": "gK", "h5": "rR"}
    teams = board(pieces)
    assert "h5h9" in teams.legal_moves and "h5h10" not in teams.legal_moves
    ffa = board(pieces, mode="ffa")
    play(ffa, "h5h10")
    assert ffa.status(YELLOW) == Status.OUT and ffa.controller(YELLOW) is None
    assert ffa.turn == BLUE


def test_captured_colour_loses_castling_rights():
    pieces = {**castle_pieces(), "g9": "bR", "g13": "rN"}
    b = board(pieces, castling=ALL_RIGHTS)
    play(b, "g13e12")  # opens g9's file onto Yellow's king g14
    play(b, "g9g14")
    assert b.status(YELLOW) == Status.OUT
    assert rights_of(b) == "rKQbKQgKQ"


# --------------------------------------------------------------------------- dead pieces (FFA)

DEAD = {"h1": "rK", "i5": "rN", "d8": "rR", "j3": "bK", "h8": "bR", "g14": "yK", "n10": "gK"}


def test_dead_pieces_in_ffa():
    b = board(DEAD, mode="ffa")
    # alive: Blue's rook checks Red's king, Blue's king guards i2
    assert b.is_check() and b.checkers() == ["h8"]
    assert b.attackers("h1", BLUE) == ["h8"]
    assert "h1h2" not in b.legal_moves and "h1i2" not in b.legal_moves
    assert "i5j3" in b.legal_moves  # a king left attacked: capturable, Blue's pieces then count no more
    b.eliminate(BLUE, by=None, keep_king=True)
    assert b.status(BLUE) == Status.OUT
    assert b.controller(BLUE) is None
    assert b.piece_at("j3") == piece("bK") and b.piece_at("h8") == piece("bR")
    assert fields(b)[6:] == ["r-yg", "axaa"]
    # dead pieces give no check and attack nothing
    assert not b.is_check() and b.checkers() == []
    assert b.attackers("h1", BLUE) == []
    assert {"h1h2", "h1i2"} <= moves(b)
    # they block sliders and can be captured
    assert "d8h8" in b.legal_moves and "d8i8" not in b.legal_moves
    assert "i5j3" in b.legal_moves  # the dead king is an ordinary dead piece
    assert Board("four-player", fen=b.fen(), mode="ffa").fen() == b.fen()
    # capturing the dead king eliminates nobody and transfers nothing
    play(b, "i5j3")
    assert b.piece_at("j3") == piece("rN")
    assert [b.status(c) for c in (RED, BLUE, YELLOW, GREEN)] == [
        Status.ACTIVE,
        Status.OUT,
        Status.ACTIVE,
        Status.ACTIVE,
    ]
    assert [b.controller(c) for c in (RED, BLUE, YELLOW, GREEN)] == [RED, None, YELLOW, GREEN]
    assert b.turn == YELLOW  # Blue is skipped
    # and they never move
    play(b, "g14g13", "n10n9")
    assert b.turn == RED
    play(b, "h1h2")
    assert b.turn == YELLOW
    assert not any(m.from_cell == "h8" for m in b.legal_moves)


def test_dead_pieces_do_not_stop_castling():
    b = castle_board({"i7": "bR"}, mode="ffa")  # Blue's rook attacks i1
    assert "h1j1" not in b.legal_moves
    b.eliminate(BLUE, by=None, keep_king=True)
    assert "h1j1" in b.legal_moves and "h1f1" in b.legal_moves
    b.push("h1j1")
    assert b.piece_at("j1") == piece("rK") and b.piece_at("i1") == piece("rR")
    assert b.turn == YELLOW


def test_dead_pieces_are_skipped_in_turn_order_and_never_move():
    b = board(DEAD, mode="ffa", turn="y")
    b.eliminate(BLUE, by=None, keep_king=True)
    play(b, "g14g13", "n10n11")
    assert b.turn == RED
    play(b, "d8d7")
    assert b.turn == YELLOW
    for _ in range(3):
        for m in b.legal_moves:
            assert m.from_cell not in ("h8", "j3")
        b.push(min(b.legal_moves, key=str))


# --------------------------------------------------------------------------- random playouts


def partner(c: Colour) -> Colour:
    order = [RED, BLUE, YELLOW, GREEN]
    return order[(order.index(c) + 2) % 4]


def random_game(seed: int, mode: str, plies: int):
    """Yields each position of a random game (the caller must not keep the board); a player
    without a move in FFA is put out with his pieces dead, in teams the game ends."""
    rng = random.Random(seed)
    setup = "classic" if seed % 3 == 2 else "modern"
    b = Board("four-player", mode=mode, setup=setup)
    for _ in range(plies):
        legal = sorted(b.legal_moves, key=str)
        if not legal:
            if mode == "teams":
                return
            b.eliminate(b.turn, by=None, keep_king=True)
            if sum(b.status(c) == Status.ACTIVE for c in b.colours) < 2:
                return
            continue
        yield b, legal
        captures = [m for m in legal if b.piece_at(m.to_cell) is not None]
        b.push(rng.choice(captures if captures and rng.random() < 0.5 else legal))


GAMES = [(seed, mode) for mode in ("teams", "ffa") for seed in range(8)]


def enemies(b: Board, player: Colour) -> list[Colour]:
    """The active players whose pieces may attack `player` (rules §0: not his partner in teams)."""
    return [
        q
        for q in b.colours
        if q != player and b.status(q) == Status.ACTIVE and not (b.mode == "teams" and q == partner(player))
    ]


def attacked(b: Board, player: Colour) -> bool:
    king = b.king(player)
    return king is not None and any(b.attackers(king, q) for q in enemies(b, player))


@pytest.mark.parametrize("seed,mode", GAMES)
def test_random_playout_invariants(seed, mode):
    """Every legal move of every position of a random game is played and taken back: the
    position string and key come back exactly, the incremental key equals a fresh one, the
    mover is never left attacked by an active enemy, nothing of his own or (teams) his
    partner's is captured, and a king capture puts the victim out."""
    plies = 0
    for b, legal in random_game(seed, mode, 500):
        me = b.turn
        fen, key = b.fen(), b.zobrist_key
        assert key == b._core.compute_key(), fen
        assert len(legal) == len(b.legal_moves)
        assert b.is_check() == attacked(b, me), fen
        statuses = [b.status(c) for c in b.colours]
        for m in legal:
            victim = b.piece_at(m.to_cell)
            owner = None if victim is None else b.controller(victim.colour)
            if victim is not None:
                assert owner != me, (fen, str(m))
                if mode == "teams":
                    assert owner is None or owner != partner(me), (fen, str(m))
            b.push(m)
            assert b.zobrist_key == b._core.compute_key(), (fen, str(m))
            if b.status(me) == Status.ACTIVE:
                assert not attacked(b, me), (fen, str(m))
            if victim is not None and victim.piece_type == PieceType.KING and owner is not None:
                assert b.status(owner) == Status.OUT, (fen, str(m))
                assert b.controller(victim.colour) == (me if mode == "teams" else None), (fen, str(m))
            elif victim is not None:
                assert [b.status(c) for c in b.colours] == statuses, (fen, str(m))
            b.pop()
            assert b.fen() == fen and b.zobrist_key == key, (fen, str(m))
        if plies % 25 == 0:
            assert b.perft(2) == b._core.perft_full(2), fen
        if plies % 100 == 50:
            assert b.perft(3) == b._core.perft_full(3), fen
        plies += 1
    assert plies >= 40


@pytest.mark.parametrize("seed,mode", GAMES[::2])
def test_random_playout_position_strings_round_trip(seed, mode):
    for b, legal in random_game(seed, mode, 300):
        fen = b.fen()
        again = Board("four-player", fen=fen, mode=mode, setup=b.setup)
        assert again.fen() == fen
        assert again.zobrist_key == b.zobrist_key
        assert sorted(map(str, again.legal_moves)) == sorted(map(str, legal))
