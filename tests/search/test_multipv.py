"""Several best lines (``Engine.search(multipv=N)``) and a restricted root (``searchmoves``), in
every game and algorithm."""

from __future__ import annotations

import pytest

from polychess import Board, Engine, IllegalMoveError

GAMES = [
    ("standard", None, None),
    ("three-player", None, "brs"),
    ("three-player", None, "paranoid"),
    ("three-player", None, "maxn"),
    ("four-player", "teams", None),
    ("four-player", "ffa", "paranoid"),
    ("four-player", "ffa", "brs"),
    ("four-player", "ffa", "maxn"),
]


def _playable(board: Board, line) -> bool:
    """Whether the line's moves can be played one after the other from the board."""
    board = board.copy()
    for move in line:
        if move not in board.legal_moves:
            return False
        board.push(move)
    return True


@pytest.mark.parametrize("variant, mode, algorithm", GAMES)
def test_each_game_gives_distinct_lines_best_first(variant, mode, algorithm):
    board = Board(variant, mode=mode)
    result = Engine(algorithm, hash_mb=8).search(board, depth=3, multipv=3)
    lines = result.lines
    assert len(lines) == 3
    assert len({line.move for line in lines}) == 3
    assert all(line.move in board.legal_moves for line in lines)
    assert [line.score for line in lines] == sorted((line.score for line in lines), reverse=True)
    best = lines[0]
    assert (best.move, best.score, best.pv, best.scores) == (result.best_move, result.score, result.pv, result.scores)
    for line in lines:
        assert set(line.scores) == set(board.colours)
        assert not line.pv or line.pv[0] == line.move
        assert _playable(board, line.pv)


def test_one_line_by_default_and_the_same_search_as_before():
    board = Board("standard")
    single = Engine(hash_mb=8).search(board, depth=5)
    assert len(single.lines) == 1 and single.lines[0].move == single.best_move
    again = Engine(hash_mb=8).search(board, depth=5, multipv=1)
    assert (again.best_move, again.score, again.nodes) == (single.best_move, single.score, single.nodes)


def test_the_mate_comes_first_and_the_other_lines_are_not_mates():
    board = Board("standard", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    result = Engine(hash_mb=8).search(board, depth=4, multipv=3)
    assert str(result.lines[0].move) == "a1a8" and result.lines[0].mate_in == 1
    assert all(line.mate_in is None or line.mate_in > 1 for line in result.lines[1:])


def test_a_second_line_is_the_best_of_the_rest():
    # Two ways to take the queen for nothing: the second line is the other capture, far above
    # every quiet move.
    board = Board("standard", "4k3/8/8/3q4/8/2N1N3/8/4K3 w - - 0 1")
    result = Engine(hash_mb=8).search(board, depth=4, multipv=3)
    assert {str(line.move) for line in result.lines[:2]} == {"c3d5", "e3d5"}
    assert result.lines[1].score > result.lines[2].score + 500


def test_no_more_lines_than_moves():
    board = Board("standard", "7k/8/8/8/8/8/8/K7 w - - 0 1")  # a king in the corner: three moves
    result = Engine(hash_mb=8).search(board, depth=2, multipv=10)
    assert sorted(str(line.move) for line in result.lines) == sorted(str(m) for m in board.legal_moves)


@pytest.mark.parametrize("variant, mode, algorithm", GAMES)
def test_searchmoves_restricts_the_root(variant, mode, algorithm):
    board = Board(variant, mode=mode)
    allowed = list(board.legal_moves)[-2:]
    result = Engine(algorithm, hash_mb=8).search(board, depth=2, searchmoves=allowed, multipv=5)
    assert result.best_move in allowed
    assert sorted(map(str, (line.move for line in result.lines))) == sorted(map(str, allowed))


def test_searchmoves_as_text_and_with_a_winning_move_left_out():
    board = Board("standard", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    result = Engine(hash_mb=8).search(board, depth=3, searchmoves=["a1a2", "g1f1"])
    assert str(result.best_move) in ("a1a2", "g1f1") and result.mate_in is None


def test_searchmoves_as_one_text_is_one_move_not_its_letters():
    board = Board("standard")
    result = Engine(hash_mb=8).search(board, depth=2, searchmoves="e2e4")
    assert str(result.best_move) == "e2e4" and [str(line.move) for line in result.lines] == ["e2e4"]
    move = next(m for m in board.legal_moves if str(m) == "g1f3")
    assert Engine(hash_mb=8).search(board, depth=2, searchmoves=move).best_move == move


def test_bad_analysis_options_are_refused_by_name():
    board = Board("standard")
    engine = Engine(hash_mb=8)
    with pytest.raises(ValueError, match="multipv"):
        engine.search(board, depth=1, multipv=0)
    with pytest.raises(ValueError, match="multipv"):
        engine.search(board, depth=1, multipv=True)
    with pytest.raises(IllegalMoveError):
        engine.search(board, depth=1, searchmoves=["e2e5"])
    with pytest.raises(ValueError, match="searchmoves is empty"):
        engine.search(board, depth=1, searchmoves=[])


def test_every_iteration_reports_its_lines():
    seen = []
    Engine(hash_mb=8).search(Board("standard"), depth=4, multipv=2, info=seen.append)
    assert [r.depth for r in seen] == [1, 2, 3, 4]
    assert all(len(r.lines) == 2 and r.lines[0].move != r.lines[1].move for r in seen)
