"""A game's steps in its notation, followed as the game goes on (formats.notation.GameNotation,
the browser's move list), and the game followed step by step (Game.copy_at_start, Game.replay)."""

from __future__ import annotations

import random

import pytest

from polychess import Game
from polychess.formats.notation import GameNotation, move_to_text


def _written_afresh(game: Game) -> list[str]:
    """Each step's text, from a replay of the whole game."""
    replay, texts = game.copy_at_start(), []
    for step in game.steps:
        texts.append(step.token if step.move is None else move_to_text(replay.board, step.move))
        replay.replay(step)
    return texts


def test_standard_moves_are_san_and_follow_takebacks():
    game = Game("standard")
    notation = GameNotation()
    for move in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5"):
        game.push(move)
    assert notation.texts(game) == ["e4", "e5", "Nf3", "Nc6", "Bb5"]
    game.pop()
    game.push("f1c4")
    assert notation.texts(game) == ["e4", "e5", "Nf3", "Nc6", "Bc4"]
    game.push("g8f6")
    game.push("e1g1")
    assert notation.texts(game)[-2:] == ["Nf6", "O-O"]


@pytest.mark.parametrize("variant, mode", [("three-player", None), ("four-player", "teams"), ("four-player", "ffa")])
def test_every_step_as_a_replay_writes_it_through_events_and_takebacks(variant, mode):
    rng = random.Random(variant + str(mode))
    game = Game(variant, mode=mode) if mode else Game(variant)
    notation = GameNotation()
    for ply in range(120):
        if game.is_over():
            break
        if ply == 30:
            game.resign(game.turn)  # an event is a step too, written as its token
        else:
            game.push(rng.choice(list(game.legal_moves)))
        if ply % 9 == 8:
            game.pop()
        if ply % 4 == 0:
            assert notation.texts(game) == _written_afresh(game)
    assert notation.texts(game) == _written_afresh(game)
    assert any(text.startswith("resign(") for text in notation.texts(game))


def test_a_copy_at_the_start_replays_into_the_same_game():
    game = Game("three-player", time_control=60)
    rng = random.Random(3)
    for _ in range(12):
        game.push(rng.choice(list(game.legal_moves)))
    game.resign(game.turn)
    game.push(rng.choice(list(game.legal_moves)))
    start = game.copy_at_start()
    assert start.ply == 0 and len(start.history) == 0 and start.clock is None and game.ply > 0
    for step in game.steps:
        start.replay(step)
    assert start.history == game.history and start.board.fen() == game.board.fen()
    assert start.eliminations == game.eliminations
