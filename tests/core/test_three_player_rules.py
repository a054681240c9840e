"""Rule tests of the three-player engine (docs/rules.md §1) through the public API.

Every test builds a small position by hand, states the facts docs/rules.md implies for it (which
moves exist, which do not, where the pieces land, who is to move, who controls what), and
checks them against ``polychess.Board``.  The pure-Python reference in tests/reference is used
only as a second opinion on whole legal-move sets; the hand-derived assertions come first, so a
rule missing from the engine fails a test even if the reference had the same gap.

Local frames (rules §1.1): a cell is (s, r, c), s = sector (0 White, 1 Red, 2 Black), r = row
from the owner's back rank (0) to the centre (3), c = column from the owner's left (0..7).
"""

from __future__ import annotations

import re

import pytest

from polychess import Board, Colour, IllegalMoveError, InvalidPositionError, Piece, PieceType, Status
from positions import position
from reference import three_player as tp

# --------------------------------------------------------------------------- helpers

W, R, B = Colour.WHITE, Colour.RED, Colour.BLACK
COLOUR = {"w": W, "r": R, "b": B}
KIND = {t.letter: t for t in PieceType if t is not PieceType.ONE_POINT_QUEEN}
ORDER = "wrb"

# rules §1.1 table: file letter of local column c = 0..7 in each sector, rank of local row r.
SECTOR_FILES = ("ABCDEFGH", "NMLKDCBA", "HGFEKLMN")


def cell(s: int, r: int, c: int) -> str:
    """Name of local cell (s, r, c), straight from the rules §1.1 table."""
    rank = (r + 1, 12 - r, 8 - r)[s]
    return f"{SECTOR_FILES[s][c]}{rank}"


def board(pieces: dict[str, str], **kw) -> Board:
    return Board("three-player", fen=position(pieces, **kw))


def moves(b: Board) -> set[str]:
    return {str(m) for m in b.legal_moves}


_MOVE = re.compile(r"^([A-N]\d{1,2})([A-N]\d{1,2})([QRBN]?)$")


def split(move: str) -> tuple[str, str, str]:
    m = _MOVE.match(move)
    assert m, move
    return m.group(1), m.group(2), m.group(3)


def moves_from(b: Board, frm: str) -> set[str]:
    return {m for m in moves(b) if split(m)[0] == frm}


def moves_to(b: Board, to: str) -> set[str]:
    return {m for m in moves(b) if split(m)[1] == to}


def fields(b: Board) -> list[str]:
    return b.fen().split(" ")


def piece(text: str) -> Piece:
    return Piece(COLOUR[text[0]], KIND[text[1]])


def layout(b: Board) -> dict[str, str]:
    inv_c = {v: k for k, v in COLOUR.items()}
    inv_k = {v: k for k, v in KIND.items()}
    return {name: inv_c[p.colour] + inv_k[p.piece_type] for name, p in b.pieces().items()}


def agrees_with_reference(b: Board) -> None:
    """Second opinion: the whole legal-move set equals the reference's."""
    assert moves(b) == tp.legal_moves(b.fen())


HOME_KING = {"w": "E1", "r": "D12", "b": "K8"}
KING_OUT = {"w": "E1E2", "r": "D12D11", "b": "K8K7"}  # (0,4) -> (1,4)
KING_BACK = {"w": "E2E1", "r": "D11D12", "b": "K7K8"}


def others(x: str) -> tuple[str, str]:
    i = ORDER.index(x)
    return ORDER[(i + 1) % 3], ORDER[(i + 2) % 3]  # next, previous in turn order


# --------------------------------------------------------------------------- 1.3 start

WHITE_START = {f"{f}2{f}3" for f in "ABCDEFGH"} | {f"{f}2{f}4" for f in "ABCDEFGH"} | {"B1A3", "B1C3", "G1F3", "G1H3"}
RED_START = (
    {f"{f}11{f}10" for f in "ABCDKLMN"} | {f"{f}11{f}9" for f in "ABCDKLMN"} | {"M12N10", "M12L10", "B12C10", "B12A10"}
)
BLACK_START = {f"{f}7{f}6" for f in "EFGHKLMN"} | {f"{f}7{f}5" for f in "EFGHKLMN"} | {"G8H6", "G8F6", "M8L6", "M8N6"}


def test_start_position_twenty_moves_each():
    b = Board("three-player")
    assert b.fen() == tp.START
    assert b.turn == W
    assert moves(b) == WHITE_START and len(b.legal_moves) == 20
    b.push("E2E4")
    assert b.turn == R
    assert moves(b) == RED_START and len(b.legal_moves) == 20
    b.push("M12L10")
    assert b.turn == B
    assert moves(b) == BLACK_START and len(b.legal_moves) == 20
    b.push("G8F6")
    assert b.turn == W and b.fullmove_number == 2
    # White's E4 pawn now pushes across the centre into Black's sector, the king gets E2
    assert {"E4E5", "E1E2", "G1E2", "F1E2", "D1E2"} <= moves(b)
    agrees_with_reference(b)


@pytest.mark.parametrize("depth,nodes", [(1, 20), (2, 400), (3, 8000)])
def test_start_perft(depth, nodes):
    b = Board("three-player")
    assert b.perft(depth) == nodes
    div = b.divide(depth)
    assert set(div) == WHITE_START
    assert sum(div.values()) == nodes
    if depth >= 2:
        # every White first move leaves Red 20 replies (no interaction yet)
        assert all(v == 20 ** (depth - 1) for v in div.values())


# --------------------------------------------------------------------------- 1.5 castling

# rules §1.5 names: king (0,4); short: king -> (0,6), rook (0,7) -> (0,5); long: king -> (0,2),
# rook (0,0) -> (0,3).
CASTLE = {
    "w": dict(king="E1", short="E1G1", short_rook=("H1", "F1"), long="E1C1", long_rook=("A1", "D1")),
    "r": dict(king="D12", short="D12B12", short_rook=("A12", "C12"), long="D12L12", long_rook=("N12", "K12")),
    "b": dict(king="K8", short="K8M8", short_rook=("N8", "L8"), long="K8F8", long_rook=("H8", "E8")),
}


def test_castling_names_match_local_frame():
    for x, s in zip(ORDER, range(3), strict=True):
        t = CASTLE[x]
        assert t["king"] == cell(s, 0, 4)
        assert t["short"] == cell(s, 0, 4) + cell(s, 0, 6)
        assert t["long"] == cell(s, 0, 4) + cell(s, 0, 2)
        assert t["short_rook"] == (cell(s, 0, 7), cell(s, 0, 5))
        assert t["long_rook"] == (cell(s, 0, 0), cell(s, 0, 3))


def castle_pieces(x: str) -> dict[str, str]:
    """X's king and both rooks at home; the other two kings at their home cells."""
    t = CASTLE[x]
    pieces = {HOME_KING[y]: y + "K" for y in ORDER}
    pieces[t["short_rook"][0]] = x + "R"
    pieces[t["long_rook"][0]] = x + "R"
    return pieces


def castle_board(x: str, pieces: dict[str, str] | None = None, **kw) -> Board:
    kw.setdefault("castling", x + "KQ")
    return board(castle_pieces(x) if pieces is None else pieces, turn=x, **kw)


@pytest.mark.parametrize("x", ORDER)
def test_castling_both_sides(x):
    t = CASTLE[x]
    b = castle_board(x)
    assert {t["short"], t["long"]} <= moves(b)
    agrees_with_reference(b)
    start = b.fen()
    # short
    b.push(t["short"])
    king_to = split(t["short"])[1]
    rook_from, rook_to = t["short_rook"]
    assert b.piece_at(king_to) == Piece(COLOUR[x], PieceType.KING)
    assert b.piece_at(rook_to) == Piece(COLOUR[x], PieceType.ROOK)
    assert b.piece_at(t["king"]) is None and b.piece_at(rook_from) is None
    assert b.piece_at(t["long_rook"][0]) == Piece(COLOUR[x], PieceType.ROOK)  # other rook untouched
    assert fields(b)[2] == "-"
    assert b.king(COLOUR[x]) == king_to
    b.pop()
    assert b.fen() == start
    # long
    b.push(t["long"])
    king_to = split(t["long"])[1]
    rook_from, rook_to = t["long_rook"]
    assert b.piece_at(king_to) == Piece(COLOUR[x], PieceType.KING)
    assert b.piece_at(rook_to) == Piece(COLOUR[x], PieceType.ROOK)
    assert b.piece_at(t["king"]) is None and b.piece_at(rook_from) is None
    assert b.piece_at(t["short_rook"][0]) == Piece(COLOUR[x], PieceType.ROOK)
    assert fields(b)[2] == "-"
    b.pop()
    assert b.fen() == start
    # without the rights there is no castling
    b = castle_board(x, castling="-")
    assert not {t["short"], t["long"]} & moves(b)
    # one right only
    b = castle_board(x, castling=x + "K")
    assert t["short"] in moves(b) and t["long"] not in moves(b)
    b = castle_board(x, castling=x + "Q")
    assert t["long"] in moves(b) and t["short"] not in moves(b)


@pytest.mark.parametrize("x", ORDER)
def test_castling_blocked_path(x):
    s = ORDER.index(x)
    t = CASTLE[x]
    # own bishop on (0,5): short blocked; own knight on (0,1): long blocked (the king does not
    # cross (0,1), but the rook does); own queen on (0,3): long blocked.
    for blocker, kind, short_ok, long_ok in [
        ((0, 5), "B", False, True),
        ((0, 6), "N", False, True),
        ((0, 1), "N", True, False),
        ((0, 2), "B", True, False),
        ((0, 3), "Q", True, False),
    ]:
        pieces = castle_pieces(x)
        pieces[cell(s, *blocker)] = x + kind
        b = castle_board(x, pieces)
        got = moves(b)
        assert (t["short"] in got) == short_ok, (blocker, kind)
        assert (t["long"] in got) == long_ok, (blocker, kind)
        agrees_with_reference(b)
    # an enemy piece on the path blocks as well
    pieces = castle_pieces(x)
    pieces[cell(s, 0, 1)] = others(x)[0] + "B"
    b = castle_board(x, pieces)
    assert t["long"] not in moves(b) and t["short"] in moves(b)


# Enemy knights in X's sector, in local coordinates.  A knight on (1,2) attacks the king's home
# (0,4) (and (0,0), none of the castling cells); (2,2) attacks (0,3) (the long-side cell the king
# passes) but not (0,2); (2,1) attacks (0,2) (the long landing cell) but not (0,3); (2,6) attacks
# (0,5) (short passing) but not (0,6); (2,7) attacks (0,6) (short landing) but not (0,5).
KNIGHT_CHECK = (1, 2)
KNIGHT_PASS_LONG, KNIGHT_LAND_LONG = (2, 2), (2, 1)
KNIGHT_PASS_SHORT, KNIGHT_LAND_SHORT = (2, 6), (2, 7)


@pytest.mark.parametrize("enemy_index", [0, 1])
@pytest.mark.parametrize("x", ORDER)
def test_castling_conditions_attacks(x, enemy_index):
    s = ORDER.index(x)
    t = CASTLE[x]
    y = others(x)[enemy_index]
    cases = [
        (KNIGHT_CHECK, False, False),  # king in check: neither side
        (KNIGHT_PASS_LONG, True, False),  # passes over an attacked cell
        (KNIGHT_LAND_LONG, True, False),  # lands on an attacked cell
        (KNIGHT_PASS_SHORT, False, True),
        (KNIGHT_LAND_SHORT, False, True),
    ]
    for where, short_ok, long_ok in cases:
        pieces = castle_pieces(x)
        pieces[cell(s, *where)] = y + "N"
        b = castle_board(x, pieces)
        assert b.is_check() == (where == KNIGHT_CHECK), where
        got = moves(b)
        assert (t["short"] in got) == short_ok, where
        assert (t["long"] in got) == long_ok, where
        agrees_with_reference(b)
    # the checked cells, spelled out for White against Red: knight C2 checks E1, C3 hits D1,
    # B3 hits C1, G3 hits F1, H3 hits G1
    if x == "w":
        assert [
            cell(0, *k)
            for k in (KNIGHT_CHECK, KNIGHT_PASS_LONG, KNIGHT_LAND_LONG, KNIGHT_PASS_SHORT, KNIGHT_LAND_SHORT)
        ] == ["C2", "C3", "B3", "G3", "H3"]


@pytest.mark.parametrize("x", ORDER)
def test_castling_attacks_by_frozen_or_inert_pieces_do_not_count(x):
    s = ORDER.index(x)
    t = CASTLE[x]
    y = others(x)[0]
    yi = ORDER.index(y)
    pieces = castle_pieces(x)
    pieces[cell(s, *KNIGHT_PASS_SHORT)] = y + "N"
    pieces[cell(s, *KNIGHT_LAND_LONG)] = y + "N"
    # active: both sides forbidden
    b = castle_board(x, pieces)
    assert not {t["short"], t["long"]} & moves(b)
    # frozen owner: both allowed
    statuses = "".join("f" if i == yi else "a" for i in range(3))
    b = castle_board(x, pieces, statuses=statuses)
    assert b.status(COLOUR[y]) == Status.FROZEN
    assert {t["short"], t["long"]} <= moves(b)
    agrees_with_reference(b)
    # inert pieces (owner out, nobody controls them; his king is gone): both allowed
    inert = dict(pieces)
    del inert[HOME_KING[y]]
    controllers = "".join("-" if i == yi else ORDER[i] for i in range(3))
    statuses = "".join("x" if i == yi else "a" for i in range(3))
    b = castle_board(x, inert, controllers=controllers, statuses=statuses)
    assert b.controller(COLOUR[y]) is None
    assert {t["short"], t["long"]} <= moves(b)
    agrees_with_reference(b)


@pytest.mark.parametrize("x", ORDER)
def test_castling_lost_after_king_move(x):
    t = CASTLE[x]
    nxt, prv = others(x)
    b = castle_board(x)
    b.push(KING_OUT[x])
    assert fields(b)[2] == "-"
    b.push(KING_OUT[nxt])
    b.push(KING_OUT[prv])
    b.push(KING_BACK[x])
    b.push(KING_BACK[nxt])
    b.push(KING_BACK[prv])
    assert b.turn == COLOUR[x]
    assert layout(b) == castle_pieces(x)  # same placement as at the start ...
    assert fields(b)[2] == "-"  # ... but the rights are gone for good
    assert not {t["short"], t["long"]} & moves(b)
    agrees_with_reference(b)


@pytest.mark.parametrize("side", ["short", "long"])
@pytest.mark.parametrize("x", ORDER)
def test_castling_lost_after_rook_move(x, side):
    s = ORDER.index(x)
    t = CASTLE[x]
    nxt, prv = others(x)
    col = 7 if side == "short" else 0
    home, away = cell(s, 0, col), cell(s, 1, col)
    b = castle_board(x)
    b.push(home + away)
    kept = x + ("Q" if side == "short" else "K")
    assert fields(b)[2] == kept
    b.push(KING_OUT[nxt])
    b.push(KING_OUT[prv])
    b.push(away + home)
    b.push(KING_BACK[nxt])
    b.push(KING_BACK[prv])
    assert layout(b) == castle_pieces(x)
    assert fields(b)[2] == kept
    got = moves(b)
    other = "long" if side == "short" else "short"
    assert t[side] not in got
    assert t[other] in got
    agrees_with_reference(b)


@pytest.mark.parametrize("side", ["short", "long"])
@pytest.mark.parametrize("x", ORDER)
def test_castling_lost_after_rook_captured_on_home_cell(x, side):
    """The player before X captures X's rook on its home cell with a knight; X recaptures with
    another rook that lands on the same home cell: the right stays lost."""
    s = ORDER.index(x)
    t = CASTLE[x]
    nxt, prv = others(x)
    col, knight_from = (7, (2, 6)) if side == "short" else (0, (2, 1))
    home = cell(s, 0, col)
    pieces = castle_pieces(x)
    pieces[cell(s, *knight_from)] = prv + "N"
    pieces[cell(s, 3, col)] = x + "R"
    b = board(pieces, turn=prv, castling=x + "KQ")
    capture = cell(s, *knight_from) + home
    assert capture in moves(b)
    b.push(capture)
    kept = x + ("Q" if side == "short" else "K")
    assert fields(b)[2] == kept
    assert b.turn == COLOUR[x]
    recapture = cell(s, 3, col) + home
    assert recapture in moves(b)
    b.push(recapture)
    assert b.piece_at(home) == Piece(COLOUR[x], PieceType.ROOK)
    assert fields(b)[2] == kept
    b.push(KING_OUT[nxt])
    b.push(KING_OUT[prv])
    assert b.turn == COLOUR[x]
    got = moves(b)
    other = "long" if side == "short" else "short"
    assert t[side] not in got
    assert t[other] in got
    agrees_with_reference(b)


@pytest.mark.parametrize("frozen_index", [0, 1])
@pytest.mark.parametrize("x", ORDER)
def test_castling_not_next_to_frozen_king(x, frozen_index):
    """A frozen king on (1,7) touches the short landing cell (0,6); on (1,1) it touches the long
    landing cell (0,2).  Neither touches the king's home or the other side's cells."""
    s = ORDER.index(x)
    t = CASTLE[x]
    y = others(x)[frozen_index]
    yi = ORDER.index(y)
    statuses = "".join("f" if i == yi else "a" for i in range(3))
    for where, short_ok, long_ok in [((1, 7), False, True), ((1, 1), True, False)]:
        pieces = castle_pieces(x)
        del pieces[HOME_KING[y]]
        pieces[cell(s, *where)] = y + "K"
        b = castle_board(x, pieces, statuses=statuses)
        assert not b.is_check()
        got = moves(b)
        assert (t["short"] in got) == short_ok, where
        assert (t["long"] in got) == long_ok, where
        agrees_with_reference(b)
    if x == "w":
        assert [cell(0, 1, 7), cell(0, 1, 1)] == ["H2", "B2"]


# --------------------------------------------------------------------------- 1.4 en passant

# (double-stepper, from, to, skipped cell, next player's pawn, the player after him's pawn)
# White E2-E4 skips E3: Red's pawn on F4 (moving toward White's rank 1) and Black's pawn on D4
# both capture diagonally onto E3.  Red D11-D9 skips D10: Black's pawn on K9 and White's on C9
# (both moving toward Red's rank 12) attack D10.  Black K7-K5 skips K6: White's pawn on L5 and
# Red's on E5 (moving toward Black's rank 8) attack K6.
EP_CASES = [
    ("w", "E2", "E4", "E3", "F4", "D4"),
    ("r", "D11", "D9", "D10", "K9", "C9"),
    ("b", "K7", "K5", "K6", "L5", "E5"),
]
EP_KINGS = {"A1": "wK", "N12": "rK", "H8": "bK"}
EP_QUIET = {"w": "A1A2", "r": "N12N11", "b": "H8H7"}


def ep_board(x, frm, taker1_cell, taker2_cell):
    t1, t2 = others(x)
    pieces = dict(EP_KINGS)
    pieces[frm] = x + "P"
    pieces[taker1_cell] = t1 + "P"
    pieces[taker2_cell] = t2 + "P"
    return board(pieces, turn=x)


@pytest.mark.parametrize("x,frm,to,skipped,c1,c2", EP_CASES)
def test_en_passant_by_next_player(x, frm, to, skipped, c1, c2):
    t1, _ = others(x)
    b = ep_board(x, frm, c1, c2)
    assert frm + to in moves(b)
    b.push(frm + to)
    assert fields(b)[3] == skipped
    assert b.turn == COLOUR[t1]
    assert c1 + skipped in moves(b)
    agrees_with_reference(b)
    b.push(c1 + skipped)
    assert b.piece_at(skipped) == Piece(COLOUR[t1], PieceType.PAWN)
    assert b.piece_at(to) is None  # the double-stepped pawn is removed
    assert b.piece_at(c1) is None
    assert b.halfmove_clock == 0
    assert fields(b)[3] == "-"
    assert Piece(COLOUR[x], PieceType.PAWN) not in b.pieces().values()


@pytest.mark.parametrize("x,frm,to,skipped,c1,c2", EP_CASES)
def test_en_passant_by_player_after_next(x, frm, to, skipped, c1, c2):
    t1, t2 = others(x)
    b = ep_board(x, frm, c1, c2)
    b.push(frm + to)
    b.push(EP_QUIET[t1])  # the next player declines
    assert fields(b)[3] == skipped
    assert b.turn == COLOUR[t2]
    assert c2 + skipped in moves(b)
    agrees_with_reference(b)
    b.push(c2 + skipped)
    assert b.piece_at(skipped) == Piece(COLOUR[t2], PieceType.PAWN)
    assert b.piece_at(to) is None
    assert b.piece_at(c1) == Piece(COLOUR[t1], PieceType.PAWN)
    assert b.turn == COLOUR[x]


@pytest.mark.parametrize("x,frm,to,skipped,c1,c2", EP_CASES)
def test_en_passant_expires_when_turn_returns(x, frm, to, skipped, c1, c2):
    t1, t2 = others(x)
    b = ep_board(x, frm, c1, c2)
    b.push(frm + to)
    b.push(EP_QUIET[t1])
    b.push(EP_QUIET[t2])
    # the turn is back with the double-stepper's controller: the slot is cleared
    assert b.turn == COLOUR[x]
    assert fields(b)[3] == "-"
    b.push(EP_QUIET[x])
    assert b.turn == COLOUR[t1]
    assert c1 + skipped not in moves(b)
    assert b.piece_at(to) == Piece(COLOUR[x], PieceType.PAWN)
    agrees_with_reference(b)
    b.push(split(EP_QUIET[t1])[1] + split(EP_QUIET[t1])[0])
    assert c2 + skipped not in moves(b)


def test_en_passant_not_available_once_skipped_cell_is_occupied():
    # White E2-E4; Red puts a rook on E3; Black's D4 pawn may capture the rook on E3, but that
    # is an ordinary capture: White's pawn on E4 stays.
    pieces = {"A1": "wK", "N12": "rK", "N8": "bK", "E2": "wP", "H3": "rR", "D4": "bP"}
    b = board(pieces)
    b.push("E2E4")
    assert fields(b)[3] == "E3"
    b.push("H3E3")
    assert fields(b)[3] == "-"
    assert "D4E3" in moves(b)
    agrees_with_reference(b)
    b.push("D4E3")
    assert b.piece_at("E3") == Piece(B, PieceType.PAWN)
    assert b.piece_at("E4") == Piece(W, PieceType.PAWN)
    assert Piece(R, PieceType.ROOK) not in b.pieces().values()


def test_en_passant_right_of_inherited_pawn():
    # Black controls White's pieces (White was mated by Black).  Black double-steps White's pawn
    # A2-A4 (White's row 1, so the double step is still allowed); Red's pawn on B4 (moving toward
    # White's rank 1) captures onto A3 en passant.  The right lapses when the turn returns to Black.
    pieces = {"A2": "wP", "B4": "rP", "N12": "rK", "H8": "bK"}
    b = board(pieces, turn="b", controllers="brb", statuses="xaa")
    assert {"A2A3", "A2A4"} <= moves(b)
    b.push("A2A4")
    assert fields(b)[3] == "A3"
    assert b.turn == R
    assert "B4A3" in moves(b)
    agrees_with_reference(b)
    taken = b.copy()
    taken.push("B4A3")
    assert taken.piece_at("A4") is None and taken.piece_at("A3") == Piece(R, PieceType.PAWN)
    b.push("N12N11")
    assert b.turn == B
    assert fields(b)[3] == "-"


# --------------------------------------------------------------------------- 1.4 promotion

# (colour, pawn cell, push cell on a foreign back rank, diagonal capture cell, victim there)
PROMO_CASES = [
    ("w", "B11", "B12", "C12", "bN"),  # White on Red's rank 12
    ("w", "G7", "G8", "F8", "rN"),  # White on Black's rank 8
    ("r", "B2", "B1", "C1", "bN"),  # Red on White's rank 1
    ("r", "L7", "L8", "M8", "wN"),  # Red on Black's rank 8
    ("b", "C2", "C1", "D1", "rN"),  # Black on White's rank 1
    ("b", "L11", "L12", "M12", "wN"),  # Black on Red's rank 12
]
PROMO_KINGS = {"H1": "wK", "N12": "rK", "N8": "bK"}


@pytest.mark.parametrize("x,frm,push,cap,victim", PROMO_CASES)
def test_promotion_on_foreign_back_ranks(x, frm, push, cap, victim):
    pieces = dict(PROMO_KINGS)
    pieces[frm] = x + "P"
    pieces[cap] = victim
    b = board(pieces, turn=x)
    expected = {frm + push + k for k in "QRBN"} | {frm + cap + k for k in "QRBN"}
    assert moves_from(b, frm) == expected
    assert frm + push not in b.legal_moves and frm + cap not in b.legal_moves
    agrees_with_reference(b)
    for k in "QRBN":
        after = b.copy()
        after.push(frm + push + k)
        assert after.piece_at(push) == Piece(COLOUR[x], KIND[k])
        assert after.piece_at(frm) is None
        assert after.piece_at(cap) == piece(victim)
        assert after.halfmove_clock == 0
        after = b.copy()
        after.push(frm + cap + k)
        assert after.piece_at(cap) == Piece(COLOUR[x], KIND[k])
        assert after.piece_at(frm) is None and after.piece_at(push) is None
    with pytest.raises(IllegalMoveError):
        b.push(frm + push)


@pytest.mark.parametrize("x,frm,push,cap,victim", PROMO_CASES)
def test_pawn_on_foreign_back_rank_is_invalid(x, frm, push, cap, victim):
    pieces = dict(PROMO_KINGS)
    Board("three-player", fen=position(dict(pieces, **{frm: x + "P"}), turn=x))  # valid
    for where in (push, cap):
        with pytest.raises(InvalidPositionError):
            Board("three-player", fen=position(dict(pieces, **{where: x + "P"}), turn=x))


# --------------------------------------------------------------------------- 1.4 direction


def test_pawn_direction_white():
    pieces = {
        "A1": "wK",
        "N12": "rK",
        "H8": "bK",
        "C10": "wP",  # Red's sector, row 2: toward rank 12
        "D9": "wP",  # crossed into Red's sector: toward rank 12, not back to D4
        "E5": "wP",  # Black's sector: toward rank 8
        "H4": "wP",  # own row 3: crosses to H5
        "D4": "wP",  # own rosette cell: would cross to D9, which its own pawn occupies
        "G2": "wP",  # own row 1: single and double step
        "K11": "wP",
    }  # Red's row 1: no double step, promotes on K12
    b = board(pieces)
    assert moves_from(b, "C10") == {"C10C11"}
    assert moves_from(b, "D9") == {"D9D10"}
    assert moves_from(b, "E5") == {"E5E6"}
    assert moves_from(b, "H4") == {"H4H5"}
    assert moves_from(b, "D4") == set()
    assert moves_from(b, "G2") == {"G2G3", "G2G4"}
    assert moves_from(b, "K11") == {"K11K12" + k for k in "QRBN"}
    agrees_with_reference(b)
    b2 = board({k: v for k, v in pieces.items() if k != "D9"})
    assert moves_from(b2, "D4") == {"D4D9"}


def test_pawn_direction_red_and_black():
    red = board(
        {
            "A1": "wK",
            "N12": "rK",
            "H8": "bK",
            "D3": "rP",  # White's sector: toward rank 1
            "E6": "rP",  # Black's sector: toward rank 8
            "K11": "rP",  # own row 1: double step toward the centre
            "D9": "rP",  # own rosette cell: crosses to D4
            "A10": "rP",
        },
        turn="r",
    )
    assert moves_from(red, "D3") == {"D3D2"}
    assert moves_from(red, "E6") == {"E6E7"}
    assert moves_from(red, "K11") == {"K11K10", "K11K9"}
    assert moves_from(red, "D9") == {"D9D4"}
    assert moves_from(red, "A10") == {"A10A9"}
    agrees_with_reference(red)
    black = board(
        {
            "A1": "wK",
            "N12": "rK",
            "H8": "bK",
            "C10": "bP",  # Red's sector: toward rank 12
            "D3": "bP",  # White's sector: toward rank 1
            "L7": "bP",  # own row 1: double step
            "K5": "bP",  # own rosette cell: crosses to K9
            "E5": "bP",
        },
        turn="b",
    )  # own rosette cell: crosses to E4
    assert moves_from(black, "C10") == {"C10C11"}
    assert moves_from(black, "D3") == {"D3D2"}
    assert moves_from(black, "L7") == {"L7L6", "L7L5"}
    assert moves_from(black, "K5") == {"K5K9"}
    assert moves_from(black, "E5") == {"E5E4"}
    agrees_with_reference(black)


# rules §1.4: the six three-way captures from a pawn's own rosette cells, with the push.
ROSETTE_CASES = [
    ("w", "D4", {"C9": "rP", "E5": "bP", "K9": "rP"}, "D9"),
    ("w", "E4", {"F5": "bP", "D9": "rP", "K5": "bP"}, "E5"),
    ("r", "D9", {"C4": "wP", "E4": "wP", "K5": "bP"}, "D4"),
    ("r", "K9", {"L5": "bP", "D4": "wP", "E5": "bP"}, "K5"),
    ("b", "E5", {"F4": "wP", "D4": "wP", "K9": "rP"}, "E4"),
    ("b", "K5", {"L9": "rP", "D9": "rP", "E4": "wP"}, "K9"),
]


@pytest.mark.parametrize("x,frm,victims,push", ROSETTE_CASES)
def test_rosette_pawn_three_captures(x, frm, victims, push):
    kings = {"A1": "wK", "N12": "rK", "H8": "bK"}
    b = board(dict(kings, **{frm: x + "P"}, **victims), turn=x)
    assert moves_from(b, frm) == {frm + push} | {frm + v for v in victims}
    agrees_with_reference(b)
    for v in victims:
        after = b.copy()
        after.push(frm + v)
        assert after.piece_at(v) == Piece(COLOUR[x], PieceType.PAWN)
        assert after.piece_at(frm) is None
    # empty targets: no capture, just the push
    b = board(dict(kings, **{frm: x + "P"}), turn=x)
    assert moves_from(b, frm) == {frm + push}
    # own pieces on the targets: not captured, and the push is still there
    own = {v: x + "N" for v in victims}
    b = board(dict(kings, **{frm: x + "P"}, **own), turn=x)
    assert moves_from(b, frm) == {frm + push}


# --------------------------------------------------------------------------- 1.6 king capture


def king_capture_board() -> Board:
    # Red's knight on E3 stands between Black's rook on E6 and White's king on E1 (the E-file
    # runs E1 E2 E3 E4 | E5 E6 E7 E8 through the centre).  Red to move.
    pieces = {"E1": "wK", "H1": "wR", "A2": "wP", "E3": "rN", "D12": "rK", "E6": "bR", "K8": "bK"}
    return board(pieces, turn="r", castling="wK")


def test_king_capture_after_discovered_attack():
    b = king_capture_board()
    blocked = Board("three-player", fen=b.fen().replace(" r wK ", " b wK "))
    assert "E6E1" not in moves(blocked) and "E6E3" in moves(blocked)  # the knight blocks
    b.push("E3C4")  # Red's knight steps away: Black's rook sees E1
    assert b.turn == B
    assert not b.is_check()  # Black's own king is safe; White's is exposed
    assert "E6E1" in moves(b)
    agrees_with_reference(b)
    before = b.fen()
    b.push("E6E1")
    # White is out, his king is gone, his other pieces are Black's now (keeping their colour)
    assert b.piece_at("E1") == Piece(B, PieceType.ROOK)
    assert b.status(W) == Status.OUT
    assert b.status(R) == Status.ACTIVE and b.status(B) == Status.ACTIVE
    assert b.king(W) is None
    assert b.controller(W) == B
    assert b.controller(R) == R and b.controller(B) == B
    assert b.piece_at("H1") == Piece(W, PieceType.ROOK)
    assert b.piece_at("A2") == Piece(W, PieceType.PAWN)
    f = fields(b)
    assert f[1] == "r"  # Black -> (White skipped) -> Red
    assert f[2] == "-"  # White's castling right lapsed with the transfer
    assert f[5] == "2"  # the turn went round to an earlier seat
    assert f[6:] == ["brb", "xaa"]
    assert b.halfmove_clock == 0
    # the turn order skips White from now on; Black moves White's pieces
    b.push("D12C12")
    assert b.turn == B
    got = moves(b)
    assert {"A2A3", "A2A4", "H1H2", "H1F1", "H1G1"} <= got
    assert "H1E1" not in got  # never captures his own (Black) rook
    assert "E1H1" not in got and "E1G1" in got
    agrees_with_reference(b)
    b.push("H1H2")
    assert b.turn == R
    # pop takes everything back exactly
    assert str(b.pop()) == "H1H2"
    assert str(b.pop()) == "D12C12"
    assert str(b.pop()) == "E6E1"
    assert b.fen() == before
    assert b.status(W) == Status.ACTIVE
    assert b.controller(W) == W
    assert b.king(W) == "E1"
    assert b.turn == B


def test_king_capture_pop_returns_the_move():
    b = king_capture_board()
    b.push("E3C4")
    before = b.fen()
    b.push("E6E1")
    assert str(b.pop()) == "E6E1"
    assert b.fen() == before
    assert [str(m) for m in b.move_stack] == ["E3C4"]
    b.pop()
    assert b.fen() == king_capture_board().fen()


def test_king_capture_legality_judged_after_transfer():
    # Black is in check from White's queen on K6 (K-file: K6 K7 K8).  Capturing White's king
    # makes the queen Black's, so it is legal; any other non-answer to the check is not.
    pieces = {"E1": "wK", "K6": "wQ", "E6": "bR", "D12": "rK", "K8": "bK"}
    b = board(pieces, turn="b")
    assert b.is_check()
    assert b.checkers() == ["K6"]
    got = moves(b)
    assert "E6E1" in got
    assert "E6E5" not in got and "E6E2" not in got
    assert "E6K6" in got  # capturing the checker (rank 6: E6 | K6 are adjacent)
    agrees_with_reference(b)
    b.push("E6E1")
    assert b.controller(W) == B
    assert b.piece_at("K6") == Piece(W, PieceType.QUEEN)
    assert fields(b)[6:] == ["brb", "xaa"]


# --------------------------------------------------------------------------- 1.7 mate attribution

# Victim Black, king in the corner H8 (neighbours G8, G7, H7).  White's rook B3-H3 checks along
# the H-file (H3 H4 | H5 H6 H7 H8) and covers H7; Red's rook on G1 covers the G-file up to G8.
# Red's bishop E1-C3 adds a second check along the long diagonal C3 D4 | E5 F6 G7 H8.
# The same picture rotated by one and by two sectors (rules §1.1: the sectors are rotations)
# gives the victims White and Red.
MATE_CASES = [
    # first mover, second mover, victim, pieces, first move (check), second move (check),
    # second player's quiet move, checking cells
    dict(
        first="w",
        second="r",
        victim="b",
        pieces={"A3": "wK", "B3": "wR", "G1": "rR", "E1": "rB", "D12": "rK", "H8": "bK"},
        check1="B3H3",
        check2="E1C3",
        quiet2="D12C12",
        cells=("H3", "C3"),
    ),
    dict(
        first="r",
        second="b",
        victim="w",
        pieces={"N10": "rK", "M10": "rR", "B12": "bR", "D12": "bB", "K8": "bK", "A1": "wK"},
        check1="M10A10",
        check2="D12L10",
        quiet2="K8L8",
        cells=("A10", "L10"),
    ),
    dict(
        first="b",
        second="w",
        victim="r",
        pieces={"H6": "bK", "G6": "bR", "M8": "wR", "K8": "wB", "E1": "wK", "N12": "rK"},
        check1="G6N6",
        check2="K8F6",
        quiet2="E1F1",
        cells=("N6", "F6"),
    ),
]


@pytest.mark.parametrize("case", MATE_CASES, ids=lambda c: "victim-" + c["victim"])
def test_mate_by_one_attacker(case):
    b = board(case["pieces"], turn=case["first"])
    b.push(case["check1"])
    b.push(case["quiet2"])  # the second player moves without checking
    assert b.turn == COLOUR[case["victim"]]
    assert b.is_check()
    assert b.checkers() == [case["cells"][0]]
    assert len(b.legal_moves) == 0
    assert b.is_checkmate() and not b.is_stalemate()
    assert b.mated_by() == COLOUR[case["first"]]  # the only attacker, though not the last mover
    assert tp.mater(b.fen()) == case["first"]


@pytest.mark.parametrize("case", MATE_CASES, ids=lambda c: "victim-" + c["victim"])
def test_mate_by_double_check_credits_most_recent_mover(case):
    b = board(case["pieces"], turn=case["first"])
    b.push(case["check1"])
    assert b.turn == COLOUR[case["second"]]
    b.push(case["check2"])
    assert b.turn == COLOUR[case["victim"]]
    assert sorted(b.checkers()) == sorted(case["cells"])
    assert b.is_checkmate()
    assert b.mated_by() == COLOUR[case["second"]]
    assert tp.mater(b.fen()) == case["second"]


def test_mate_credit_goes_to_last_mover_even_if_his_move_gave_no_check():
    # White's knight E5-G6 checks H8 itself and uncovers Red's bishop on C3 (diagonal
    # C3 D4 | E5 F6 G7 H8): a double check delivered entirely by White's move.  Red then moves
    # quietly.  Black's flight cells: G8 (Red's knight H6), G7 and H7 (Red's rook along rank 7:
    # N7 M7 L7 K7 | E7 F7 G7 H7).  Both White and Red attack the king; Red moved most recently.
    pieces = {"A3": "wK", "E5": "wN", "C3": "rB", "N7": "rR", "H6": "rN", "D12": "rK", "H8": "bK"}
    b = board(pieces)
    assert not b.is_check()
    assert "E5G6" in moves(b)
    b.push("E5G6")
    b.push("D12C12")
    assert b.turn == B
    assert sorted(b.checkers()) == ["C3", "G6"]
    assert b.is_checkmate()
    assert b.mated_by() == R
    assert tp.mater(b.fen()) == "r"
    # the knight to F3 (no check from there): a discovered mate by Red alone
    b = board(pieces)
    b.push("E5F3")
    b.push("D12C12")
    assert b.checkers() == ["C3"]
    assert b.is_checkmate()
    assert b.mated_by() == R


def test_not_mate_when_the_king_escapes():
    b = board({"A3": "wK", "H1": "wR", "D12": "rK", "H8": "bK"}, turn="b")
    assert b.is_check() and b.checkers() == ["H1"]
    assert moves(b) == {"H8G8", "H8G7"}
    assert not b.is_checkmate()
    assert b.mated_by() is None


# --------------------------------------------------------------------------- 1.9 frozen, 1.10 inert


def test_frozen_pieces_give_no_check_block_and_can_be_captured():
    # Black is frozen.  His rook on E6 lines up with White's king on E1 (E-file through the
    # centre), his pawn on D2 (moving toward White's rank 1) touches C1 and E1: neither checks.
    pieces = {"E1": "wK", "N6": "wR", "D12": "rK", "E6": "bR", "D2": "bP", "G3": "bK"}
    b = board(pieces, statuses="aaf")
    assert b.status(B) == Status.FROZEN
    assert not b.is_check()
    assert b.checkers() == []
    got = moves(b)
    assert "E1D2" in got  # captures the frozen pawn
    assert "E1E2" in got  # onto the frozen rook's file
    assert "N6E6" in got  # captures the frozen rook (rank 6: N6 M6 L6 K6 | E6)
    assert "N6F6" not in got  # the frozen rook blocks
    assert "E1F2" not in got  # F2 touches the frozen king on G3
    agrees_with_reference(b)
    # the same position with Black active: White is in check twice
    active = board(pieces)
    assert sorted(active.checkers()) == ["D2", "E6"]
    # turns skip the frozen player
    b.push("N6E6")
    assert b.turn == R
    b.push("D12C12")
    assert b.turn == W and b.fullmove_number == 2


def test_frozen_king_cannot_be_captured_nor_approached():
    # Frozen Black king on G3; White attacks it with a rook (G1, G-file), a knight (E2) and a
    # pawn (H2); White's king on E3 sits two files away.
    pieces = {"E3": "wK", "G1": "wR", "E2": "wN", "H2": "wP", "A1": "wR", "A2": "bP", "G3": "bK", "H5": "rK"}
    b = board(pieces, statuses="aaf")
    assert not b.is_check()
    got = moves(b)
    assert not moves_to(b, "G3")  # nobody captures the frozen king
    assert "G1G2" in got and "G1G3" not in got and "G1G4" not in got  # it blocks the rook
    assert "H2H3" in got  # other pieces may stand next to it
    assert "A1A2" in got  # a frozen pawn can be captured
    # White's king: F2, F3, F4 touch G3
    assert moves_from(b, "E3") == {"E3D2", "E3D3", "E3D4", "E3E4"}
    agrees_with_reference(b)
    # Red's king on H5 may not step to H4 or G4 (both touch G3), but to H6, G6, G5
    b = board(pieces, turn="r", statuses="aaf")
    assert moves_from(b, "H5") == {"H5H6", "H5G6", "H5G5"}
    agrees_with_reference(b)
    # without the frozen king those cells are free
    free = {k: v for k, v in pieces.items() if k != "G3"}
    free["N8"] = "bK"
    assert {"E3F2", "E3F3", "E3F4"} <= moves(board(free))


def test_frozen_player_whose_turn_it_would_be_is_skipped():
    pieces = {"E1": "wK", "D12": "rK", "K8": "bK"}
    b = board(pieces, turn="w", statuses="afa")
    b.push("E1E2")
    assert b.turn == B
    b.push("K8K7")
    assert b.turn == W and b.fullmove_number == 2


def test_inert_pieces_attack_nothing_and_can_be_captured():
    # Red resigned: no king, his pieces belong to nobody (controller '-').
    pieces = {"E1": "wK", "N6": "wR", "E6": "rR", "D2": "rP", "F3": "rN", "K8": "bK"}
    b = board(pieces, controllers="w-b", statuses="axa")
    assert b.controller(R) is None and b.status(R) == Status.OUT and b.king(R) is None
    assert not b.is_check()
    got = moves(b)
    assert "E1D2" in got  # captures the inert pawn (which would check)
    assert "E1E2" in got  # onto the inert rook's file
    assert "N6E6" in got and "N6F6" not in got  # captures / is blocked by the inert rook
    assert "E1F1" in got and "E1D1" in got  # cells the inert knight F3 would attack
    agrees_with_reference(b)
    b.push("N6E6")
    assert b.turn == B  # Red is out
    b.push("K8K7")
    assert b.turn == W
    # the inert pieces never move: Black cannot move them either
    b = board(pieces, turn="b", controllers="w-b", statuses="axa")
    assert moves_from(b, "F3") == set() and moves_from(b, "E6") == set()
    assert "K8L8" in moves(b)


# --------------------------------------------------------------------------- 1.8 two colours


def two_colour_pieces() -> dict[str, str]:
    # White mated Red earlier: White controls White and Red; Red's king is gone.
    return {
        "E1": "wK",
        "A1": "wR",
        "B2": "wP",
        "A3": "rB",
        "E3": "rN",
        "M12": "rN",
        "L11": "rP",
        "N10": "rR",
        "E6": "bR",
        "K8": "bK",
    }


def test_player_with_two_colours_moves_both():
    b = board(two_colour_pieces(), controllers="wwb", statuses="axa")
    assert b.controller(R) == W and b.status(R) == Status.OUT
    assert b.king(W) == "E1" and b.king(R) is None
    got = moves(b)
    # Red's pieces move for White; Red's pawn keeps Red's direction and double step
    assert {"L11L10", "L11L9"} <= got and "L11L12" not in got
    assert {"M12L10", "M12K11"} <= got and "M12N10" not in got  # N10 is his own rook
    assert {"N10M10", "N10K10"} <= got
    # his pieces never capture each other
    assert "A1A2" in got and "A1A3" not in got  # Red's bishop on A3
    assert "A3B4" in got and "A3B2" not in got  # White's pawn on B2
    # Red's knight on E3 shields White's king from Black's rook: pinned
    assert moves_from(b, "E3") == set()
    agrees_with_reference(b)
    # a check given by a Red piece counts as White's
    b.push("N10K10")  # K-file: K10 K9 | K5 K6 K7 K8
    assert b.turn == B
    assert b.is_check()
    assert b.checkers() == ["K10"]
    agrees_with_reference(b)


def test_pieces_of_two_colour_player_are_enemies_to_the_third():
    b = board(two_colour_pieces(), controllers="wwb", statuses="axa")
    b.push("A1A2")
    assert b.turn == B
    got = moves(b)
    assert "E6E3" in got  # Black captures Red's knight (controlled by White)
    assert "E6E2" not in got
    agrees_with_reference(b)
    b.push("E6E3")
    assert b.turn == W
    assert b.is_check() and b.checkers() == ["E3"]


def test_two_colour_player_keeps_only_his_own_king_safe():
    # White controls Black's pieces too (Black's king is gone, White's is the only king he has).
    # Black's queen on E2 shields White's king from Red's rook on E8 (E-file E1..E4 | E5..E8):
    # it may only move along the file (up to capturing the rook).  Black's knight on L8, attacked
    # by Red's rook along rank 8 (E8 | K8 L8), moves freely: nothing else needs protecting.
    pieces = {"E1": "wK", "E2": "bQ", "A1": "wR", "D12": "rK", "E8": "rR", "L8": "bN"}
    b = board(pieces, controllers="wrw", statuses="aax")
    assert moves_from(b, "E2") == {"E2E3", "E2E4", "E2E5", "E2E6", "E2E7", "E2E8"}
    assert moves_from(b, "L8") == {"L8E7", "L8K6", "L8M6", "L8N7"}
    assert {"E1D1", "E1F1", "E1D2", "E1F2"} <= moves(b)
    agrees_with_reference(b)
    # Red, to move, may take the knight; the queen stays pinned for White afterwards
    b.push("A1A2")
    assert b.turn == R
    assert "E8L8" in moves(b)


# --------------------------------------------------------------------------- pins across the centre


def test_diagonal_pin_through_the_rosette():
    # Long diagonal A1 B2 C3 D4 | E5 F6 G7 H8.  White's king A1, White's bishop C3, Black's
    # bishop F6: the White bishop is pinned.  From C3 the diagonal forks at D4 into E5 and K9
    # (rules §1.2): D4 and E5 keep the pin line closed, K9 (and beyond) opens it.
    pieces = {"A1": "wK", "C3": "wB", "F6": "bB", "A12": "rK", "H6": "bK"}
    b = board(pieces)
    assert moves_from(b, "C3") == {"C3B2", "C3D4", "C3E5", "C3F6"}
    agrees_with_reference(b)
    # without the pinner the bishop has its full fork
    free = board({"A1": "wK", "C3": "wB", "A12": "rK", "H6": "bK"})
    assert {
        "C3K9",
        "C3L10",
        "C3M11",
        "C3N12",
        "C3E5",
        "C3F6",
        "C3G7",
        "C3H8",
        "C3D2",
        "C3E1",
        "C3B4",
        "C3A9",
        "C3B2",
        "C3D4",
    } == moves_from(free, "C3")
    # the pinner is Black's; the pin holds for White whoever else is on the board
    assert b.checkers() == []


def test_file_pin_through_the_centre():
    # D-file: D1 D2 D3 D4 | D9 D10 D11 D12.  Red's rook on D11 pins White's rook on D3 to his
    # king on D1 across the White/Red crossing.
    pieces = {"D1": "wK", "D3": "wR", "D11": "rR", "D12": "rK", "K8": "bK"}
    b = board(pieces)
    assert moves_from(b, "D3") == {"D3D2", "D3D4", "D3D9", "D3D10", "D3D11"}
    agrees_with_reference(b)
    free = board({"D1": "wK", "D3": "wR", "D12": "rK", "K8": "bK"})
    assert {"D3C3", "D3A3", "D3H3", "D3E3"} <= moves(free)


def test_discovered_check_across_the_centre():
    # White's bishop on B2 looks along B2 C3 D4 | K9 L10 M11 N12 at Red's king; White's knight
    # on D4 blocks.  D4-F3 uncovers the check.
    pieces = {"E1": "wK", "B2": "wB", "D4": "wN", "N12": "rK", "L12": "rR", "K8": "bK"}
    b = board(pieces)
    assert not b.is_check()
    assert "D4F3" in moves(b)
    b.push("D4F3")
    assert b.turn == R
    assert b.is_check()
    assert b.checkers() == ["B2"]
    got = moves(b)
    assert "L12L10" in got  # interposes on the diagonal (L10)
    assert "L12L11" not in got  # does not
    assert "N12M11" not in got  # M11 is on the line
    assert {"N12M12", "N12N11"} <= got
    assert got == {"L12L10", "N12M12", "N12N11"}
    agrees_with_reference(b)
    # the same check also hits through the other branch of the fork: a Black king on H8 is
    # attacked from B2 via D4 | E5 F6 G7 once D4 is empty
    b2 = board({"E1": "wK", "B2": "wB", "D4": "wN", "A12": "rK", "H8": "bK"})
    b2.push("D4F3")
    b2.push("A12A11")
    assert b2.turn == B
    assert b2.checkers() == ["B2"]
    agrees_with_reference(b2)


# --------------------------------------------------------------------------- further edge cases


def test_en_passant_that_opens_a_rank_onto_own_king_is_illegal():
    # White's rank 4: A4 B4 C4 D4 E4 F4 G4 H4.  Black's rook on A4, Red's king on H4, Red's pawn
    # on F4.  After E2-E4, F4xE3 en passant would empty both E4 and F4: Black's rook then
    # attacks H4.  The capture is illegal.
    pieces = {"B1": "wK", "E2": "wP", "F4": "rP", "H4": "rK", "A4": "bR", "H8": "bK"}
    b = board(pieces)
    b.push("E2E4")
    assert fields(b)[3] == "E3"
    assert "F4E3" not in moves(b)
    assert "F4F3" in moves(b)
    agrees_with_reference(b)


def test_en_passant_when_the_next_player_is_frozen():
    # Red is frozen: after White's double step Black gets the only chance.
    pieces = {"A1": "wK", "E2": "wP", "F4": "rP", "D4": "bP", "N12": "rK", "H8": "bK"}
    b = board(pieces, statuses="afa")
    b.push("E2E4")
    assert b.turn == B
    assert fields(b)[3] == "E3"
    assert "D4E3" in moves(b)
    b.push("H8H7")
    assert b.turn == W and fields(b)[3] == "-"


def test_king_capture_still_needs_own_king_safe():
    # Black's rook on E6 could take White's exposed king on E1, but it is pinned by Red's rook
    # on N6 against Black's king on H6 (Black's rank 6: H6 G6 F6 E6 K6 L6 M6 N6).
    pieces = {"E1": "wK", "A2": "wP", "E6": "bR", "H6": "bK", "N6": "rR", "D12": "rK"}
    b = board(pieces, turn="b")
    got = moves(b)
    assert "E6E1" not in got
    assert {"E6K6", "E6N6"} <= got and "E6E5" not in got
    agrees_with_reference(b)
    # without the pin the king capture is there
    b = board({k: v for k, v in pieces.items() if k != "N6"}, turn="b")
    assert "E6E1" in moves(b)


def test_king_may_not_step_next_to_frozen_king_on_the_rosette():
    # Frozen Black king on E4.  Its neighbours (rules §1.2): D3 E3 F3 D4 F4 E5 F5 D9 K5 -- not
    # K9, the opposite rosette cell.  Red's king on L9 can reach both K9 and K5.
    pieces = {"A1": "wK", "E4": "bK", "L9": "rK"}
    b = board(pieces, turn="r", statuses="aaf")
    got = moves_from(b, "L9")
    assert "L9K9" in got
    assert "L9K5" not in got
    agrees_with_reference(b)
    free = board({"A1": "wK", "N8": "bK", "L9": "rK"}, turn="r")
    assert {"L9K9", "L9K5"} <= moves_from(free, "L9")


def test_en_passant_gone_once_the_pawn_is_captured():
    # White E2-E4; Red's knight on C3 captures the pawn on E4 (C3 -> E4 is the knight path
    # R R F).  Black's D4 pawn no longer has an en-passant capture.
    pieces = {"A1": "wK", "E2": "wP", "C3": "rN", "D4": "bP", "N12": "rK", "H8": "bK"}
    b = board(pieces)
    b.push("E2E4")
    assert "C3E4" in moves(b)
    b.push("C3E4")
    assert fields(b)[3] == "-"
    assert "D4E3" not in moves(b)
    assert "D4D3" in moves(b)
    agrees_with_reference(b)


def test_king_capture_of_a_two_colour_player_transfers_both_colours():
    # White controls White and Red; Black takes White's king: Black now controls all pieces.
    pieces = {"E1": "wK", "H1": "wR", "A3": "rB", "L11": "rP", "E6": "bR", "K8": "bK"}
    b = board(pieces, turn="b", controllers="wwb", statuses="axa")
    assert "E6E1" in moves(b)
    before = b.fen()
    b.push("E6E1")
    assert b.controller(W) == B and b.controller(R) == B
    assert b.status(W) == Status.OUT and b.status(R) == Status.OUT
    assert fields(b)[6:] == ["bbb", "xxa"]
    assert b.piece_at("A3") == Piece(R, PieceType.BISHOP) and b.piece_at("H1") == Piece(W, PieceType.ROOK)
    b.pop()
    assert b.fen() == before
