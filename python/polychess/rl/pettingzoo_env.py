"""PettingZoo environments (docs/rl.md): :class:`AECEnv`, the players taking turns, and
:class:`ParallelEnv`, every live agent sending an action each step of which the mover's is
played. Made by :func:`polychess.rl.env` and :func:`polychess.rl.parallel_env`.

An agent is a seat, named by its colour ("white", "red", ...). Its observation is a dict of
the planes from its seat and its legal-action mask (zeros unless it is to move). Players who
are frozen (three-player stalemate) or out without a place yet (free-for-all) are skipped
until their place is fixed. An agent's reward is its return, at the step its place is fixed;
then it is terminated. ``max_plies`` cuts a game off: every agent still in is truncated.

An action that is no legal move resigns its agent (``infos[agent]["illegal_action"]``), as the
Gymnasium environment's does: PettingZoo's tests and agents without masks send any code (the
parallel API has every live agent send one). ``illegal_action="raise"`` raises IllegalMoveError
instead, changing nothing.
"""

from __future__ import annotations

from typing import Any

from polychess.rl.extras import needs_extra

with needs_extra("rl"):
    import gymnasium
    import numpy
    import pettingzoo

from polychess.rl import spaces
from polychess.rl.table import RENDER_MODES, Table, check_render_mode, start_game

__all__ = ["AECEnv", "ParallelEnv"]


class _Environment:
    """What both environments share: the table, the agents, their spaces, rendering."""

    metadata: dict[str, Any]

    def _start(
        self,
        variant: str,
        observation_dtype: str,
        max_plies: int | None,
        illegal_action: str,
        render_mode: str | None,
        game_options: dict[str, Any],
    ) -> None:
        self.render_mode = check_render_mode(render_mode)
        self.table = Table(start_game(variant, game_options), observation_dtype, max_plies, illegal_action)
        self.possible_agents = list(self.table.agents)
        self._observation_spaces = {a: spaces.observation_space(self.table) for a in self.possible_agents}
        self._action_spaces = {a: spaces.action_space(self.table) for a in self.possible_agents}
        self.metadata = {**self.metadata, "name": f"polychess_{self.table.game.variant.replace('-', '_')}_v0"}

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self._action_spaces[agent]

    @property
    def game(self) -> Any:
        """The :class:`polychess.Game` being played (read it; play through step())."""
        return self.table.game

    def _seed_spaces(self, seed: int | None) -> None:
        # The game has no chance in it: a seed only seeds the action spaces' sampling.
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self._action_spaces[agent].seed(seed + i)

    def render(self) -> Any:
        return self.table.render(self.render_mode)

    def close(self) -> None:
        pass


class AECEnv(_Environment, pettingzoo.AECEnv):  # type: ignore[misc]
    """The game as a PettingZoo AEC environment: one agent steps at a time."""

    metadata = {"name": "polychess_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(
        self,
        variant: str = "three-player",
        *,
        observation_dtype: str = "float32",
        max_plies: int | None = None,
        illegal_action: str = "resign",
        render_mode: str | None = None,
        **game_options: Any,
    ) -> None:
        pettingzoo.AECEnv.__init__(self)
        self._start(variant, observation_dtype, max_plies, illegal_action, render_mode, game_options)
        self.reset()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._seed_spaces(seed)
        self.table.reset()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection: str = self.table.agents[0]
        self._select_mover()

    def observe(self, agent: str) -> dict[str, numpy.ndarray]:
        return self.table.observe(agent)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is the action of a terminated agent only")
        self._cumulative_rewards[agent] = 0.0
        rewards, illegal = self.table.act(action)  # with illegal_action="raise": raises, nothing changed
        if illegal:
            self.infos[agent] = {**self.infos[agent], "illegal_action": True}
        self._clear_rewards()
        for done, reward in rewards.items():
            self.rewards[done] = reward
            self.terminations[done] = True
        if self.table.truncated:
            for a in self.agents:
                self.truncations[a] = not self.terminations[a]
        self._select_mover()
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _select_mover(self) -> None:
        mover = self.table.to_move
        if mover is not None:  # once the game is over the dead agents step, last mover's first
            self.agent_selection = mover


class ParallelEnv(_Environment, pettingzoo.ParallelEnv):  # type: ignore[misc]
    """The game as a PettingZoo parallel environment: every live agent sends an action each
    step; the player to move's is played and the others' are ignored (their masks are zeros)."""

    metadata = {"name": "polychess_v0", "render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        variant: str = "three-player",
        *,
        observation_dtype: str = "float32",
        max_plies: int | None = None,
        illegal_action: str = "resign",
        render_mode: str | None = None,
        **game_options: Any,
    ) -> None:
        self._start(variant, observation_dtype, max_plies, illegal_action, render_mode, game_options)
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self._seed_spaces(seed)
        self.table.reset()
        self.agents = list(self.possible_agents)
        return {a: self.table.observe(a) for a in self.agents}, {a: self._info() for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        mover = self.table.to_move
        if mover is None:
            raise ValueError("the game is over: reset the environment")
        if mover not in actions:
            raise ValueError(f"no action for {mover}, the player to move")
        rewards, illegal = self.table.act(actions[mover])
        live = self.agents
        terminations = {a: a in rewards for a in live}
        truncations = {a: self.table.truncated and not terminations[a] for a in live}
        observations = {a: self.table.observe(a) for a in live}
        infos = {a: self._info() for a in live}
        if illegal:
            infos[mover]["illegal_action"] = True
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        if self.render_mode == "human":
            self.render()
        return observations, {a: rewards.get(a, 0.0) for a in live}, terminations, truncations, infos

    def _info(self) -> dict[str, Any]:
        return {"to_move": self.table.to_move}
