"""OpenSpiel games (docs/rl.md): polychess's games registered as Python games of OpenSpiel, so
its algorithms (MCTS, CFR-style solvers, evaluation bots) run on them. Needs ``open_spiel``
(``pip install 'polychess[openspiel]'``).

:func:`register` (run when this module is imported) registers one game per variant and mode
(:data:`GAMES`); then ``pyspiel.load_game("polychess_three_player")`` makes one, with
parameters named as
:class:`polychess.Game`'s options (``pyspiel.load_game("polychess_four_player_teams",
{"setup": "classic"})``). Players are the seats in turn order (0 is the first seat), actions
are the action codes of :class:`polychess.rl.ActionSpace`, observations the planes of
:func:`polychess.rl.observe`, and the returns those of :meth:`polychess.Outcome.returns`, at
the end of the game.
"""

from __future__ import annotations

import copy
from typing import Any

from polychess.rl.extras import needs_extra

with needs_extra("openspiel"):
    import numpy
    import pyspiel

from polychess.catalogue import KINDS, GameKind, kind_of
from polychess.options import OptionError, options_of
from polychess.rl.table import Table, start_game

__all__ = ["GAMES", "game", "register"]

# A bound OpenSpiel asks for (buffers of some algorithms); the draw rules end games well before.
MAX_GAME_LENGTH = 20_000

# The options of Game that OpenSpiel's games take as parameters, where a game has them, and
# their defaults (move_limit 0: the game's own).
_PARAMETERS: dict[str, Any] = {"first_mate_wins": False, "neutrality": False, "setup": "modern", "move_limit": 0}


def _short_name(kind: GameKind) -> str:
    return "polychess_" + kind.family.replace("-", "_")


# short name -> (variant, its Game options fixed by the name, its parameters with their defaults):
# one a game of the catalogue, its setups a parameter
GAMES: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    _short_name(kind): (
        kind.variant,
        {"mode": kind.mode} if kind.mode else {},
        {name: value for name, value in _PARAMETERS.items() if name in options_of(kind)},
    )
    for kind in KINDS
}


class _PolychessGame(pyspiel.Game):  # type: ignore[misc]
    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        variant, fixed, defaults = GAMES[self.short_name]
        options = {**defaults, **(params or {})}
        options = {k: v for k, v in options.items() if not (k == "move_limit" and v == 0)}
        self.table = Table(start_game(variant, {**fixed, **options}))
        seats = len(self.table.agents)
        super().__init__(
            _game_type(self.short_name),
            pyspiel.GameInfo(
                num_distinct_actions=self.table.space.size,
                max_chance_outcomes=0,
                num_players=seats,
                min_utility=-1.0,
                max_utility=1.0,
                max_game_length=MAX_GAME_LENGTH,
            ),
            {**defaults, **(params or {})},
        )

    def new_initial_state(self) -> _PolychessState:
        return _PolychessState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return _Observer(self.table)


class _PolychessState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: _PolychessGame) -> None:
        super().__init__(game)
        self._seats = game.table.agents
        self._space = game.table.space
        self.game = game.table.start.copy()

    def current_player(self) -> int:
        if self.game.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self._seats.index(self.game.turn.value)

    def _legal_actions(self, player: int) -> list[int]:
        return self._space.legal_actions(self.game.live_board)

    def _apply_action(self, action: int) -> None:
        self.game.push(self._space.decode(self.game.live_board, action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == self.current_player():
            return str(self._space.decode(self.game.live_board, action))
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self.game.is_over()

    def returns(self) -> list[float]:
        outcome = self.game.outcome()
        if outcome is None:
            return [0.0] * len(self._seats)
        return list(outcome.returns())

    def __str__(self) -> str:
        return f"{self.game.board.fen()}"

    def __deepcopy__(self, memo: dict[int, Any]) -> _PolychessState:
        other = copy.copy(self)
        other.game = self.game.copy()
        return other


class _Observer:
    """The observer OpenSpiel asks a Python game for: the planes of a seat, as one tensor."""

    def __init__(self, table: Table) -> None:
        self._seats = table.agents
        self._colours = [c.value for c in table.start.colours]
        shape = table.observation_shape
        self.tensor = numpy.zeros(int(numpy.prod(shape)), numpy.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: _PolychessState, player: int) -> None:
        state.game.state.write_observation(self.dict["observation"], self._colours.index(self._seats[player]))

    def string_from(self, state: _PolychessState, player: int) -> str:
        return f"{self._seats[player]}: {state.game.board.fen()}"


def _game_type(short_name: str) -> pyspiel.GameType:
    variant, fixed, defaults = GAMES[short_name]
    seats = len(kind_of(variant, fixed.get("mode")).colours)
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"polychess {variant}" + "".join(f" {v}" for v in fixed.values()),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,  # players who share a place share its return
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=seats,
        min_num_players=seats,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )


_registered = False


def register() -> None:
    """Registers the games of :data:`GAMES` with OpenSpiel (once; later calls do nothing)."""
    global _registered
    if _registered:
        return
    for name in GAMES:
        game_class = type(f"PolychessGame_{name}", (_PolychessGame,), {"short_name": name})
        pyspiel.register_game(_game_type(name), game_class)
    _registered = True


def game(variant: str = "three-player", mode: str | None = None, **params: Any) -> pyspiel.Game:
    """The OpenSpiel game of a variant (four-player: ``mode="teams"``, the default, or
    ``"ffa"``), with the parameters of :data:`GAMES`."""
    try:
        name = _short_name(kind_of(variant, mode))
    except ValueError:  # no such game
        name = ""
    if name not in GAMES:
        raise OptionError(
            "variant",
            f"no OpenSpiel game for {variant!r}"
            + (f" in mode {mode!r}" if mode else "")
            + f" (the games: {', '.join(GAMES)})",
        )
    allowed = GAMES[name][2]
    for key in params:
        if key not in allowed:
            raise OptionError(
                key, f"{{{key}}} is not a parameter of {name} (its parameters: {', '.join(allowed) or 'none'})"
            )
    register()
    return pyspiel.load_game(name, params)


register()
