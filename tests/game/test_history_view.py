"""The game's history as Python reads it (Game.history, Game.steps): the core keeps the tokens'
list and Python its steps' objects, each read only where it grew, so they must always be the
core's own, through pushes, events, takebacks and copies; a History taken is a snapshot."""

from __future__ import annotations

import random

import pytest

from polychess import Game


def _from_the_core(game: Game) -> list[str]:
    return [step[0] for step in game.state.steps()]


@pytest.mark.parametrize("variant, mode", [("standard", None), ("three-player", None), ("four-player", "teams")])
def test_history_is_the_cores_through_pushes_pops_events_and_copies(variant, mode):
    rng = random.Random(variant)
    game = Game(variant, mode=mode) if mode else Game(variant)
    copies = []
    for ply in range(80):
        if game.is_over():
            break
        game.push(rng.choice(list(game.legal_moves)))
        assert game.history == _from_the_core(game) and len(game.steps) == len(game.history)
        if ply % 7 == 3:
            game.pop()
            assert game.history == _from_the_core(game)
            game.push(rng.choice(list(game.legal_moves)))
        if ply % 11 == 5:
            copies.append((game.copy(), list(game.history)))
    for copy, history in copies:  # a copy keeps its own
        assert copy.history == history == _from_the_core(copy)
    if not game.is_over():
        game.resign(game.turn)  # an event is a step too
        assert game.history == _from_the_core(game) and game.steps[-1].reason is not None
        game.pop()
        assert game.history == _from_the_core(game)
    history = game.history
    with pytest.raises(AttributeError):
        history.append("not a step")  # type: ignore[attr-defined]  # read-only


@pytest.mark.parametrize("variant", ["standard", "three-player"])
def test_a_history_taken_is_a_snapshot_of_its_moment(variant):
    rng = random.Random(7)
    game = Game(variant)
    snapshots = []
    for ply in range(60):
        if game.is_over():
            break
        snapshots.append((game.history, _from_the_core(game)))
        game.push(rng.choice(list(game.legal_moves)))
        if ply % 5 == 4:  # takebacks, and other moves played in their place
            game.pop()
            game.pop()
    for history, then in snapshots:
        assert history == then and list(history) == then and len(history) == len(then)
        assert then == history and tuple(then) == history  # compared either way round
        if then:
            assert history[-1] == then[-1] and history[0] == then[0] and history[1:] == then[1:]
        assert history + ["x"] == then + ["x"] and ["x"] + history == ["x"] + then
        assert repr(history) == repr(then)
    with pytest.raises(IndexError):
        snapshots[0][0][0]  # the start's history is empty
    with pytest.raises(TypeError):
        hash(game.history)  # equal to lists, which are unhashable


def test_history_follows_steps_taken_back_through_the_state():
    game = Game("standard")
    for move in ("e2e4", "e7e5", "g1f3"):
        game.push(move)
    assert game.history[-1] == "g1f3"
    game.state.undo()  # the core's own takeback, then another move of the same count
    game.state.push("b1c3")
    assert game.history == _from_the_core(game) and game.history[-1] == "b1c3"


def test_a_copys_steps_are_the_games_whichever_is_read_first():
    game = Game("standard")
    for move in ("e2e4", "e7e5", "g1f3", "b8c6"):
        game.push(move)
    assert len(game.steps) == 4
    copy = game.copy()  # its core counts its own changes from nothing
    assert [step.token for step in copy.steps] == game.history
    copy.pop()
    assert [step.token for step in copy.steps] == copy.history == game.history[:3]
