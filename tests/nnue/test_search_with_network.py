"""The search with a network (Engine(evaluation=network)): it scores positions by the network's
values, reports them, and refuses a network of another game."""

from __future__ import annotations

import pytest

import polychess.nnue
from polychess import Board, Engine, Game
from polychess.evaluation import GAMES
from polychess.nnue import InvalidNetworkError, random_network, shipped_games, shipped_network


def start_of(game: str) -> Board:
    variant, mode, _ = GAMES[game]
    return Board(variant, mode=mode or None)


@pytest.mark.parametrize(
    ("variant", "mode", "game", "sides"),
    [("standard", None, "standard", ((0,), (1,))), ("four-player", "teams", "four-player-teams", ((0, 2), (1, 3)))],
)
def test_a_one_ply_search_scores_each_move_by_the_network(variant, mode, game, sides) -> None:
    # From the start nothing can be captured in one move, so a one-ply search scores each move
    # by the network's values after it: the mover's side's minus the other side's.
    network = random_network(game, hidden=32, seed=3)
    board = Board(variant, mode=mode)
    expected = []
    for move in board.legal_moves:
        after = board.copy()
        after.push(move)
        values = network.evaluate(after)
        expected.append(sum(values[p] for p in sides[0]) - sum(values[p] for p in sides[1]))
    result = Engine(evaluation=network, hash_mb=1).search(board, depth=1)
    assert result.score == max(expected)
    classic = Engine(hash_mb=1).search(board, depth=1)
    assert classic.score != result.score


def test_the_reported_values_are_the_network_s_at_the_end_of_the_line() -> None:
    network = random_network("three-player", hidden=32, seed=4)
    game = Game()
    # (paranoid search: its lines skip no turn, so the line replays on a board)
    result = Engine("paranoid", evaluation=network).search(game, depth=3)
    end = game.board.copy()
    for move in result.pv:
        end.push(move)
    assert list(result.scores.values()) == network.evaluate(end)


def test_a_network_of_another_game_or_an_unknown_evaluation_is_refused() -> None:
    engine = Engine(evaluation=random_network("standard", hidden=16))
    with pytest.raises(InvalidNetworkError, match="not for three-player"):
        engine.search(Game(), depth=1)
    assert engine.search(Board("standard"), depth=2).best_move is not None
    with pytest.raises(ValueError, match="unknown evaluation 'nnue'"):
        Engine(evaluation="nnue")  # type: ignore[arg-type]


def test_every_thread_of_a_parallel_search_evaluates_with_the_network() -> None:
    network = random_network("four-player-teams", hidden=16, seed=6)
    board = Board("four-player", mode="teams")
    result = Engine(threads=2, evaluation=network).search(board, depth=4)
    assert result.best_move in board.legal_moves
    end = board.copy()
    for move in result.pv:
        end.push(move)
    assert list(result.scores.values()) == network.evaluate(end)


@pytest.mark.parametrize("game", shipped_games())
def test_the_shipped_networks_load_and_search_their_games(game: str) -> None:
    network = shipped_network(game)
    assert network is not None and network.game == game
    # small enough to ship (the "a few MB")
    assert len(network.to_bytes()) < 4_000_000
    board = start_of(game)
    by_name = Engine(evaluation="network", hash_mb=1).search(board, depth=2)
    by_network = Engine(evaluation=network, hash_mb=1).search(board, depth=2)
    assert by_name.score == by_network.score and by_name.scores == by_network.scores


def test_every_game_ships_a_network() -> None:
    assert shipped_games() == sorted(GAMES)


def test_without_a_shipped_network_a_game_is_searched_with_the_classic_evaluation(
    tmp_path, monkeypatch, request
) -> None:
    monkeypatch.setattr(polychess.nnue, "_SHIPPED", tmp_path)  # a package that ships none
    shipped_network.cache_clear()
    request.addfinalizer(shipped_network.cache_clear)  # forget the Nones it is about to remember
    assert shipped_games() == []
    for game in GAMES:
        assert shipped_network(game) is None
        board = start_of(game)
        # a game without one is searched with the classic evaluation
        assert (
            Engine(evaluation="network", hash_mb=1).search(board, depth=2).scores
            == Engine(hash_mb=1).search(board, depth=2).scores
        )
    with pytest.raises(InvalidNetworkError, match="no game 'chess'"):
        shipped_network("chess")
