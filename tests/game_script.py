"""Scripted games for the game-layer tests (tests/game/test_three_player_game.py,
tests/game/test_four_player_game.py).

A test builds a ``Game`` from a small hand-written position (``game_from``), plays moves and
events through a ``Script`` and states what docs/rules.md implies after each step; ``Script.unwind``
then takes the whole game back with ``Game.pop`` and checks that every earlier state
(``snapshot``) comes back exactly.  Imported by name like tests/positions.py (pytest puts
tests/, the folder above the test packages, on ``sys.path``).
"""

from __future__ import annotations

import pytest

from polychess import Elimination, Game, TimeForfeitError
from positions import cross_position, position

POSITION_FIELDS = ("turn", "castling", "ep", "halfmove", "fullmove", "controllers", "statuses")


def game_from(pieces: dict[str, str], variant: str = "three-player", **kw) -> Game:
    """A game of `variant` from {cell: 'wK', ...}; the position-string fields among `kw`
    (turn, castling, ...) go to the position, the rest to ``Game``."""
    position_kw = {k: kw.pop(k) for k in POSITION_FIELDS if k in kw}
    build = cross_position if variant == "four-player" else position
    return Game(variant, start=build(pieces, **position_kw), **kw)


def moves(game: Game) -> set[str]:
    return {str(m) for m in game.legal_moves}


def moves_from(game: Game, cell: str) -> set[str]:
    return {str(m) for m in game.legal_moves if m.from_cell == cell}


def elim(player, reason, by, ply) -> Elimination:
    return Elimination(player, reason, by, ply)


class FakeTime:
    """A time source the test moves by hand (list based, so lambdas can share it)."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = [start]

    def __call__(self) -> float:
        return self.now[0]

    def set(self, value: float) -> None:
        self.now[0] = value


def snapshot(game: Game) -> dict:
    """Everything pop() has to restore."""
    board = game.board
    return dict(
        fen=board.fen(),
        points=game.points,
        outcome=game.outcome(),
        over=game.is_over(),
        eliminations=game.eliminations,
        history=game.history,
        ply=game.ply,
        turn=game.turn,
        statuses={p: game.status(p) for p in game.colours},
        controllers={p: board.controller(p) for p in game.colours},
        active=game.active_players(),
        legal=sorted(str(m) for m in game.legal_moves),
        clock=None if game.clock is None else dict(game.clock.remaining),
    )


class Script:
    """Plays moves and events on a game, remembering the state after each step so that
    ``unwind`` can check that ``pop`` restores every one of them exactly."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.states = [snapshot(game)]

    def push(self, *moves_played: str) -> None:
        """Plays moves that docs/rules.md says are legal (a clearer failure than push's exception)."""
        for move in moves_played:
            assert move in moves(self.game), (move, self.game.board.fen(), sorted(moves(self.game)))
            self.game.push(move)
            self.states.append(snapshot(self.game))

    def event(self, name: str, *args) -> None:
        getattr(self.game, name)(*args)
        self.states.append(snapshot(self.game))

    def forfeit_by_push(self, move: str) -> None:
        """The mover's time has run out: pushing `move` puts him out on time instead."""
        with pytest.raises(TimeForfeitError):
            self.game.push(move)
        self.states.append(snapshot(self.game))

    def unwind(self) -> None:
        game = self.game
        assert snapshot(game) == self.states[-1]
        while len(self.states) > 1:
            last = self.states.pop()
            token = game.history[-1]
            move = game.pop()
            assert token == last["history"][-1]
            event = token == "draw" or "(" in token  # resign(red), timeout(red)
            assert (move is None) == event and (event or str(move) == token)
            assert snapshot(game) == self.states[-1], f"after popping {token}"
        with pytest.raises(IndexError):
            game.pop()
