"""How often one step of a game crosses into the compiled core: once. Game.push resolves the move
against the moves the core judged legal and plays it in one call, and the game reads what it
needs from the core's state when asked, instead of keeping copies in step."""

import sys

import pytest

from polychess import Game

GAMES = [
    {"variant": "three-player"},
    {"variant": "standard"},
    {"variant": "four-player"},
    {"variant": "four-player", "mode": "ffa"},
]


def core_calls(action):
    """The names of the functions of polychess._core that ``action()`` calls."""
    calls = []

    def profile(frame, event, function):
        # a function of the module, or a method of one of its classes (a plain CPython method,
        # as the game's hot reads are, names no module of its own)
        owner = type(getattr(function, "__self__", None))
        if event == "c_call" and "polychess._core" in (getattr(function, "__module__", None), owner.__module__):
            calls.append(function.__name__)

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    return calls


@pytest.mark.parametrize("options", GAMES, ids=lambda o: "-".join(o.values()))
def test_one_crossing_per_step(options):
    game = Game(**options)
    move = next(iter(game.legal_moves))
    assert core_calls(lambda: game.push(move)) == ["push"]
    text = str(next(iter(game.legal_moves)))
    assert core_calls(lambda: game.push(text)) == ["push"]  # move text too
    assert core_calls(lambda: [m for m in game.legal_moves]) == ["legal_moves"]
    # The core reads them once a step, and hands out the same tuple until the game moves on.
    assert game._state.legal_moves() is game._state.legal_moves()
    assert core_calls(game.is_over) == ["is_terminal"]
    assert core_calls(game.pop) == ["undo"]
