"""Scores that do not depend on what an engine searched before: an Engine keeps its
transposition table from one search to the next, and a search for one player must read nothing
there that a search for another stored in his own terms (cpp/search/searcher.h). In every game
and algorithm, a reused engine and a fresh engine per search agree on the sign of every clear
score and on every mate; Morphy's Opera game and python-chess's analysis loop over
`polychess uci` keep their mates; a stop sent as a search starts is never lost."""

from __future__ import annotations

import random
import sys
import threading
import time

import pytest

from polychess import Board, Engine, Game, _core

# Morphy against the Duke of Brunswick and Count Isouard, Paris 1858, as python-chess would read it.
OPERA = (
    "e2e4 e7e5 g1f3 d7d6 d2d4 c8g4 d4e5 g4f3 d1f3 d6e5 f1c4 g8f6 f3b3 d8e7 b1c3 c7c6 c1g5 b7b5 "
    "c3b5 c6b5 c4b5 b8d7 e1c1 a8d8 d1d7 d8d7 h1d1 e7e6 b5d7 f6d7 b3b8 d7b8 d1d8"
).split()

# (variant, mode, algorithms): where two sides alternate every algorithm is the same minimax.
GAMES = [
    ("standard", None, ["brs"]),
    ("three-player", None, ["brs", "paranoid", "maxn"]),
    ("four-player", "teams", ["brs"]),
    ("four-player", "ffa", ["brs", "paranoid", "maxn"]),
]
CASES = [(variant, mode, algorithm) for variant, mode, algorithms in GAMES for algorithm in algorithms]
CLEAR = 300  # a score this far from even, or a mate, says who stands better


def _new_game(variant: str, mode: str | None) -> Game:
    return Game(variant, mode=mode) if mode else Game(variant)


def _engine_game(variant: str, mode: str | None, seed: int, plies: int) -> list[Game]:
    """The positions of a game between weak engines (a random move now and then), one per ply:
    each with another player to move than the one before, several with one side far ahead."""
    rng = random.Random(seed)
    game = _new_game(variant, mode)
    player = Engine(hash_mb=1)
    positions = []
    for _ in range(plies):
        if game.is_over():
            break
        positions.append(game.copy())
        moves = list(game.legal_moves)
        game.push(rng.choice(moves) if rng.random() < 0.3 else player.search(game, nodes=200).best_move)
    return positions


def _clear(result) -> bool:
    return result.mate_in is not None or abs(result.score) >= CLEAR


@pytest.mark.parametrize("variant, mode, algorithm", CASES)
def test_a_reused_engine_agrees_with_a_fresh_one(variant, mode, algorithm):
    # Each position searched by one engine through the whole game, as an analysis or a review
    # steps through it (and, as a review does, once more with the move played only), and by a
    # fresh engine: no clear score of the other sign, the same mates.
    checked = 0
    for seed in range(2):
        reused = Engine(algorithm, hash_mb=8)
        for position in _engine_game(variant, mode, seed, 40)[20:]:
            played = next(iter(position.legal_moves))
            for searchmoves in (None, [played]):
                again = reused.search(position, nodes=3000, searchmoves=searchmoves)
                fresh = Engine(algorithm, hash_mb=8).search(position, nodes=3000, searchmoves=searchmoves)
                where = (seed, position.board.fen(), searchmoves, again.score, fresh.score)
                if _clear(again) and _clear(fresh):
                    assert (again.score > 0) == (fresh.score > 0), where
                    checked += 1
                if abs(again.score) >= _core.MATE - 1000 or abs(fresh.score) >= _core.MATE - 1000:
                    assert again.mate_in == fresh.mate_in, where
    assert checked >= 4, "too few clear scores to compare"


def _opera_positions() -> list[Board]:
    board = Board("standard")
    positions = []
    for move in OPERA:
        positions.append(board.copy())
        board.push(move)
    return positions


@pytest.mark.parametrize("limit", [{"depth": 6}, {"nodes": 20_000}])
def test_the_opera_game_searched_move_by_move_keeps_its_mates(limit):
    engine = Engine(hash_mb=16)
    results = [engine.search(board, **limit) for board in _opera_positions()[24:]]  # from 13.Rxd7 on
    for board, result in zip(_opera_positions()[24:], results, strict=True):
        fresh = Engine(hash_mb=16).search(board, **limit)
        if _clear(result) and _clear(fresh):
            assert (result.score > 0) == (fresh.score > 0), board.fen()
    # White to move after 15...Nxd7 mates in two, Black after 16.Qb8+ is mated after one move
    # of his own, and White mates at once after 16...Nxb8 (UCI's counting: the mover's own moves).
    assert [r.mate_in for r in results[-3:]] == [2, -1, 1]
    assert [r.score for r in results[-3:]] == [_core.MATE - 3, -(_core.MATE - 2), _core.MATE - 1]
    assert results[-3].outlook.text == "#2" and results[-2].outlook.text == "#-1"
    # White stands far better from 13.Rxd7 on; Black, to move, far worse.
    for board, result in zip(_opera_positions()[24:], results, strict=True):
        assert (result.score > 0) == (board.turn.value == "white"), board.fen()


def test_a_search_restricted_at_its_root_leaves_no_score_for_the_whole_position():
    # The last of several lines (or a searchmoves search) is worse than the position: a later
    # search that reaches the position must not take it for the position's score. A table a
    # search left behind may change a later search's score (that is what it is for), so each
    # restricted search is compared with the same engine's history without the restriction.
    after = _opera_positions()[30]  # after 15...Nxd7: 16.Qb8+ mates in two
    parent = _opera_positions()[29]  # Black to play 15...Nxd7 (or 15...Qxd7)
    worse = next(m for m in after.legal_moves if str(m) != "b3b8")

    def parent_score(*searches: dict[str, object]) -> int:
        engine = Engine(hash_mb=16)
        for options in searches:
            engine.search(after, depth=5, **options)
        return engine.search(parent, depth=5).score

    # searchmoves: as if nothing had been searched before; several lines: as one line.
    assert parent_score({"searchmoves": [worse]}) == parent_score()
    assert parent_score({"searchmoves": [worse]}, {"multipv": 3}) == parent_score({"multipv": 3}) == parent_score({})


def test_uci_sequence_through_python_chess_keeps_the_mover_side():
    chess = pytest.importorskip("chess")
    engine_module = pytest.importorskip("chess.engine")
    engine = engine_module.SimpleEngine.popen_uci([sys.executable, "-m", "polychess", "uci"], timeout=30)
    try:
        board = chess.Board()
        scores = []
        for move in OPERA:
            if board.ply() >= 26:  # from 14.Rd1 on, one analysis a ply, as a GUI's analysis loop
                info = engine.analyse(board, engine_module.Limit(nodes=20_000))
                scores.append((board.ply(), info["score"].white()))
            board.push_uci(move)
        for ply, score in scores:  # White stands better all along, from either side's search
            assert score > engine_module.Cp(0 if ply == 26 else 300), (ply, score)  # 14.Rd1: few nodes see it
        assert scores[-3][1] == engine_module.Mate(2)  # after 15...Nxd7
        assert scores[-2][1] == engine_module.Mate(1)  # after 16.Qb8+: Black moves once, then mate
        info = engine.analyse(chess.Board(_opera_positions()[28].fen()), engine_module.Limit(nodes=20_000))
        assert info["pv"][0] == chess.Move.from_uci("b5d7")  # 15.Bxd7+, not the reused table's b3c3
    finally:
        engine.quit()


def test_a_stop_sent_as_a_search_starts_is_never_lost():
    engine = Engine(hash_mb=1)
    board = Board("three-player")
    for trial in range(60):
        thread = threading.Thread(target=engine.search, args=(board,))  # no limit: runs until stopped
        thread.start()
        while not engine.searching:
            time.sleep(0)
        if trial % 3:
            time.sleep(random.random() * 0.002)
        engine.stop()
        thread.join(10)
        assert not thread.is_alive(), f"trial {trial}: the stop was lost"
    # A stop with no search running is dropped: the next search runs to its limit.
    engine.stop()
    assert engine.search(board, depth=3).depth == 3


def test_the_core_keeps_a_stop_until_its_search_ends():
    # The core lowers its flag when a search ends, not when one begins: a stop sent just before
    # a search begins ends it at once (polychess.Engine sends no stop while none runs).
    core = _core.Engine(1)
    core.stop()
    started = time.perf_counter()
    report = core.search(_core.GameState(Board("standard").core.copy(), judge_start=False))
    assert time.perf_counter() - started < 5 and report["nodes"] <= 2048  # (it looks at the flag every 1,024 nodes)
    assert core.search(_core.GameState(Board("standard").core.copy(), judge_start=False), depth=3)["depth"] == 3
