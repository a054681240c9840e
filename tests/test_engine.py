"""The search engine: forced mates in every variant, legality, limits, determinism, the
transposition table, stopping from another thread."""

import random
import threading
import time

import pytest

from polychess import Board, Colour, Engine, Game
from positions import cross_position, position

BACK_RANK_MATE = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"


def test_standard_mate_in_one():
    result = Engine(hash_mb=8).search(Board("standard", BACK_RANK_MATE), depth=3)
    assert str(result.best_move) == "a1a8" and result.mate_in == 1
    board = Board("standard", BACK_RANK_MATE)
    board.push(result.best_move)
    assert board.is_checkmate()


def test_standard_mate_in_two():
    # 1. Rd8+ Rxd8 2. Rxd8# (the doubled rooks' back-rank combination)
    fen = "2r3k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1"
    result = Engine(hash_mb=8).search(Board("standard", fen), depth=5)
    assert result.mate_in == 2
    assert str(result.best_move) == "d2d8"


def test_three_player_mate_in_one():
    # Red's king in his corner behind his own pawns; White's rook reaches Red's back rank.
    fen = position({"N12": "rK", "N11": "rP", "M11": "rP", "K10": "wR", "E1": "wK", "K8": "bK"})
    board = Board("three-player", fen)
    result = Engine(hash_mb=8).search(board, depth=3)
    assert str(result.best_move) == "K10K12" and result.mate_in == 1
    board.push(result.best_move)
    assert board.is_checkmate() and board.mated_by() is Colour.WHITE


def test_three_player_mate_needing_the_other_opponents_piece():
    # RULES seed recommendation §6.1: a mate where a piece of the third player covers the
    # king's flight cells. Black's rook on M7 guards M11 and M12 along the M file (which runs
    # M7 M6 M5 M9 M10 M11 M12 across the centre), so K10xN10 mates; without it, no mate.
    pieces = {"N12": "rK", "K10": "wR", "E1": "wK", "K8": "bK", "N10": "rP"}
    board = Board("three-player", position(dict(pieces, M7="bR")))
    result = Engine(hash_mb=8).search(board, depth=3)
    assert str(result.best_move) == "K10N10" and result.mate_in == 1
    board.push(result.best_move)
    assert board.is_checkmate() and board.mated_by() is Colour.WHITE
    assert Engine(hash_mb=8).search(Board("three-player", position(pieces)), depth=3).mate_in is None


def test_four_player_teams_mate():
    # Red mates Green on the n file; Blue (Green's partner) moves in between but cannot help.
    pieces = {"h1": "rK", "i5": "rR", "a7": "bK", "g14": "yK", "n8": "gK", "m7": "gP", "m8": "gP", "m9": "gP"}
    board = Board("four-player", cross_position(pieces))
    result = Engine(hash_mb=8).search(board, depth=4)
    assert str(result.best_move) == "i5n5" and result.mate_in == 1


def test_never_an_illegal_move_and_limits_respected():
    rng = random.Random(5)
    engine = Engine(hash_mb=4)
    for variant, kw in [("standard", {}), ("three-player", {}), ("four-player", {}), ("four-player", {"mode": "ffa"})]:
        board = Board(variant, **kw)
        for _ in range(12):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        result = engine.search(board, nodes=3000)
        assert result.best_move in board.legal_moves
        assert result.nodes < 3000 + 4096  # checked every 1024 nodes
        result = engine.search(board, depth=2)
        assert result.depth == 2 and result.best_move in board.legal_moves
        assert all(isinstance(m, type(result.best_move)) for m in result.pv)
    start = time.perf_counter()
    engine.search(Board("three-player"), time=0.2)
    assert time.perf_counter() - start < 2.0


def test_deterministic_at_fixed_depth():
    board = Board("three-player")
    board.push("E2E4")
    first = Engine(hash_mb=8).search(board, depth=4)
    second = Engine(hash_mb=8).search(board, depth=4)
    assert (first.best_move, first.score, first.nodes, first.pv) == (second.best_move, second.score, second.nodes, second.pv)


@pytest.mark.parametrize("fen", [BACK_RANK_MATE, "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1",
                                 "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"])
def test_table_on_and_off_agree(fen):
    with_table = Engine(hash_mb=8).search(Board("standard", fen), depth=3)
    without = Engine(hash_mb=0).search(Board("standard", fen), depth=3)
    assert with_table.score == without.score
    assert with_table.best_move == without.best_move


def test_info_per_iteration_and_stop_from_another_thread():
    engine = Engine(hash_mb=8)
    seen = []
    result = engine.search(Board("standard"), depth=4, info=seen.append)
    assert [r.depth for r in seen] == [1, 2, 3, 4] and seen[-1].best_move == result.best_move

    board = Board("three-player")
    timer = threading.Timer(0.3, engine.stop)
    start = time.perf_counter()
    timer.start()
    result = engine.search(board)  # no limit: runs until stopped
    assert time.perf_counter() - start < 5
    assert result.best_move in board.legal_moves and result.depth >= 1


def test_play_and_errors():
    game = Game("three-player")
    engine = Engine(hash_mb=4)
    move = engine.play(game, depth=2)
    assert game.history == [str(move)]
    with pytest.raises(ValueError, match="not available"):
        Engine(algorithm="maxn")
    with pytest.raises(ValueError, match="unknown algorithm"):
        Engine(algorithm="magic")
    with pytest.raises(ValueError):
        engine.search(game, depth=-1)
    with pytest.raises(TypeError):
        engine.search("E2E4")  # type: ignore[arg-type]
