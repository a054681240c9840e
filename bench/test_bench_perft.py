"""Benchmarks of the C++ move generator as seen from Python (pytest-benchmark).

Run with ``PYTHONPATH=python python -m pytest bench`` (timings) or add
``--benchmark-disable`` to run each benchmark once as an ordinary test, as CI does.

Every benchmark checks the count it computed against the known value, so a broken move
generator fails the run instead of being timed. Sizes are small on purpose: with
``--benchmark-disable`` the whole file runs in well under a second.
"""

from __future__ import annotations

import pytest

import polychess

START = None  # the variant's start position
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"


def make_board(variant: str, fen: str | None) -> polychess.Board:
    return polychess.Board(variant) if fen is None else polychess.Board(variant, fen=fen)


# (id, variant, fen, depth, expected leaf count)
PERFT_CASES = [
    ("standard-start-d4", "standard", START, 4, 197_281),
    ("standard-kiwipete-d3", "standard", KIWIPETE, 3, 97_862),
    ("three-player-start-d4", "three-player", START, 4, 178_080),
    ("four-player-start-d4", "four-player", START, 4, 152_050),
]

# (id, variant, fen, number of legal moves = perft 1)
LEGAL_MOVE_CASES = [
    ("standard-start", "standard", START, 20),
    ("standard-kiwipete", "standard", KIWIPETE, 48),
    ("standard-position-3", "standard", POSITION_3, 14),
    ("standard-position-4", "standard", POSITION_4, 6),
    ("standard-position-5", "standard", POSITION_5, 44),
    ("three-player-start", "three-player", START, 20),
]


@pytest.mark.benchmark(group="perft")
@pytest.mark.parametrize(
    ("variant", "fen", "depth", "expected"), [pytest.param(*case[1:], id=case[0]) for case in PERFT_CASES]
)
def test_perft(benchmark, variant: str, fen: str | None, depth: int, expected: int) -> None:
    board = make_board(variant, fen)
    nodes = benchmark(board.perft, depth)
    assert nodes == expected
    # perft must leave the board as it was (it works on a copy)
    assert board.fen() == make_board(variant, fen).fen()


@pytest.mark.benchmark(group="legal_moves")
@pytest.mark.parametrize(
    ("variant", "fen", "expected"), [pytest.param(*case[1:], id=case[0]) for case in LEGAL_MOVE_CASES]
)
def test_legal_moves_iteration(benchmark, variant: str, fen: str | None, expected: int) -> None:
    board = make_board(variant, fen)
    moves = benchmark(lambda: list(board.legal_moves))
    assert len(moves) == expected
    assert len(set(map(str, moves))) == expected  # no duplicates
    assert board.perft(1) == expected
