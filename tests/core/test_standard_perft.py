"""Standard chess through the same generator: the published perft counts, exactly."""

import pytest

from perft_data import perft_cases
from polychess import Board

FAST = perft_cases("standard_perft.txt")
SLOW = perft_cases("standard_perft_slow.txt")


@pytest.mark.parametrize("ident,fen,depth,nodes", FAST, ids=[f"{c[0]}-d{c[2]}" for c in FAST])
def test_perft(ident, fen, depth, nodes):
    assert Board("standard", fen).perft(depth) == nodes


@pytest.mark.slow
@pytest.mark.parametrize("ident,fen,depth,nodes", SLOW, ids=[f"{c[0]}-d{c[2]}" for c in SLOW])
def test_perft_deep(ident, fen, depth, nodes):
    assert Board("standard", fen).perft(depth) == nodes


def test_divide_sums_to_perft():
    board = Board("standard", FAST[0][1])
    counts = board.divide(3)
    assert len(counts) == 20
    assert counts["e2e4"] == 600
    assert sum(counts.values()) == 8902


def test_move_text_is_uci():
    board = Board("standard", "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    assert {str(m) for m in board.legal_moves if m.from_cell == "e7"} == {"e7e8q", "e7e8r", "e7e8b", "e7e8n"}
    board = Board("standard")
    board.push("e2e4")
    board.push("e7e5")
    board.push("g1f3")
    board.push("b8c6")
    board.push("f1c4")
    board.push("g8f6")
    assert "e1g1" in board.legal_moves
    board.push("e1g1")
    assert board.piece_at("f1").piece_type.name == "ROOK"
    assert board.fen() == "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"


def test_en_passant_square_in_fen():
    board = Board("standard")
    board.push("e2e4")
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    board.push("a7a6")
    assert board.fen().split()[3] == "-"


def test_checkmate_and_stalemate():
    mate = Board("standard")
    for move in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        mate.push(move)
    assert mate.is_check() and mate.is_checkmate() and not mate.is_stalemate()
    assert str(mate.mated_by()) == "black"
    stale = Board("standard", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stale.is_stalemate() and not stale.is_checkmate() and stale.mated_by() is None
