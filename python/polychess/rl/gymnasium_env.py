"""A Gymnasium single-agent environment (docs/rl.md): the agent plays one seat, and the other
seats are played by opponents (:func:`polychess.rl.gym_env`).

An opponent is ``"random"`` (a uniformly drawn legal move), a strength level 1 to 10 (a
:class:`polychess.Engine` at that level, searching ``opponent_nodes`` nodes a move at most),
an :class:`~polychess.Engine`, or a policy: a function from an observation (the dict the
agent gets, from the opponent's seat) to an action code. ``opponents`` is one of these for
every other seat, or a dict from seat (colour name) to one.

The episode ends when the agent's place is fixed (``terminated``, reward its return) or the
game is cut off at ``max_plies`` (``truncated``). An action that is no legal move resigns
(``info["illegal_action"]``), as Gymnasium's spaces draw any code; with
``illegal_action="raise"`` it raises IllegalMoveError instead and nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from polychess.rl.extras import needs_extra

with needs_extra("rl"):
    import gymnasium
    import numpy

from polychess.engine import Engine
from polychess.rl import spaces
from polychess.rl.table import RENDER_MODES, Table, check_render_mode, start_game
from polychess.strength import MAX_LEVEL

__all__ = ["GymEnv", "Opponent"]

Opponent = str | int | Engine | Callable[[dict[str, numpy.ndarray]], int]


class GymEnv(gymnasium.Env[Any, Any]):
    """One seat of a game against opponents, as a Gymnasium environment."""

    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        variant: str = "three-player",
        *,
        seat: str | None = None,
        opponents: Opponent | Mapping[str, Opponent] = "random",
        opponent_nodes: int = 2000,
        illegal_action: str = "resign",
        observation_dtype: str = "float32",
        max_plies: int | None = None,
        render_mode: str | None = None,
        **game_options: Any,
    ) -> None:
        self.render_mode = check_render_mode(render_mode)
        self.table = Table(start_game(variant, game_options), observation_dtype, max_plies, illegal_action)
        agents = self.table.agents
        self.seat = agents[0] if seat is None else str(getattr(seat, "value", seat))
        if self.seat not in agents:
            raise ValueError(f"no seat {seat!r} in this game (seats: {', '.join(agents)})")
        if isinstance(opponent_nodes, bool) or not isinstance(opponent_nodes, int) or opponent_nodes < 1:
            raise ValueError(f"opponent_nodes must be a whole number of at least 1, got {opponent_nodes!r}")
        self.opponent_nodes = opponent_nodes
        others = [a for a in agents if a != self.seat]
        if isinstance(opponents, Mapping):
            unknown = set(opponents) - set(others)
            missing = set(others) - set(opponents)
            if unknown or missing:
                raise ValueError(
                    f"opponents must name every other seat ({', '.join(others)})"
                    + (f"; {', '.join(sorted(unknown))} is not one" if unknown else "")
                    + (f"; {', '.join(sorted(missing))} is missing" if missing else "")
                )
            chosen = dict(opponents)
        else:
            chosen = {a: opponents for a in others}
        self._engines: list[Engine] = []
        self._level_engines: list[Engine] = []
        self.opponents = {a: self._opponent(a, o) for a, o in chosen.items()}
        self.observation_space = spaces.observation_space(self.table)
        self.action_space = spaces.action_space(self.table)

    @property
    def game(self) -> Any:
        """The :class:`polychess.Game` being played (read it, or copy it to look ahead; play through step())."""
        return self.table.game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, numpy.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        # A seeded episode replays exactly: the engines forget their tables, and the ones made
        # from a level draw their noise from the environment's generator.
        for engine in self._engines:
            engine.clear()
        for engine in self._level_engines:
            engine.seed = int(self.np_random.integers(2**63))
        self.table.reset()
        self._play_opponents()
        return self.table.observe(self.seat), self._info()

    def step(self, action: int) -> tuple[dict[str, numpy.ndarray], float, bool, bool, dict[str, Any]]:
        if self.table.is_done(self.seat):
            raise ValueError("the episode is over: reset the environment")
        rewards, illegal = self.table.act(action)
        reward = rewards.get(self.seat, 0.0) + self._play_opponents()
        done = self.table.is_done(self.seat)
        terminated = done and not self.table.truncated
        if self.render_mode == "human":
            self.render()
        return self.table.observe(self.seat), reward, terminated, self.table.truncated, self._info(illegal)

    def render(self) -> Any:
        return self.table.render(self.render_mode)

    def _play_opponents(self) -> float:
        """The opponents move until the agent is to move or done; his reward meanwhile."""
        reward = 0.0
        table = self.table
        while not table.is_done(self.seat) and table.to_move is not None and table.to_move != self.seat:
            reward += table.play(self.opponents[table.to_move](table.to_move)).get(self.seat, 0.0)
        return reward

    def _info(self, illegal_action: bool = False) -> dict[str, Any]:
        return {"to_move": self.table.to_move, "ply": self.table.game.ply, "illegal_action": illegal_action}

    def _opponent(self, seat: str, opponent: Any) -> Callable[[str], int]:
        """The opponent as a function from its seat to its action code."""
        table = self.table
        if opponent == "random":
            return lambda agent: int(self.np_random.choice(table.legal_actions()))
        if isinstance(opponent, int) and not isinstance(opponent, bool):
            if not 1 <= opponent <= MAX_LEVEL:
                raise ValueError(f"opponent level for {seat} must be 1 to {MAX_LEVEL}, got {opponent}")
            opponent = Engine(level=opponent, hash_mb=4)
            self._level_engines.append(opponent)
        if isinstance(opponent, Engine):
            engine = opponent
            self._engines.append(engine)

            def search(agent: str) -> int:
                move = engine.search(table.game, nodes=self.opponent_nodes).best_move
                assert move is not None, "the player to move has a legal move"
                return table.space.encode(table.game.live_board, move)

            return search
        if callable(opponent):
            return lambda agent: int(opponent(table.observe(agent)))
        raise ValueError(
            f"opponent for {seat} must be 'random', a level 1 to {MAX_LEVEL}, an Engine or a policy "
            f"(a function from an observation to an action code), got {opponent!r}"
        )
