"""The vector environment (docs/rl.md): ``num_envs`` games stepped in one call to the core,
which plays a move in every game and writes the observations, masks and rewards of all of
them into numpy arrays, without the GIL (cpp/learn/game_batch.h).

Every game is a copy of the same start; a game that ends, or reaches ``max_plies``, starts
again at once: its step reports the end (``terminated``/``truncated``, the final rewards) and
the observation is the new game's. The player to move differs from game to game: ``to_play``
says whose observation each row is, as a player index into :attr:`VectorEnv.players`.
"""

from __future__ import annotations

from typing import Any

from polychess.rl.extras import needs_extra

with needs_extra("rl"):
    import numpy

from polychess import _core
from polychess.rl.table import check_dtype, check_max_plies, start_game

__all__ = ["VectorEnv"]


class VectorEnv:
    """``num_envs`` copies of a game (``polychess.Game``'s options), stepped together.

    ``reset()`` returns ``(observation, info)`` and ``step(actions)`` returns ``(observation,
    rewards, terminations, truncations, info)``, all numpy arrays over the games:

    - ``observation["observation"]``: ``(num_envs, planes, rows, columns)``, float32 or uint8
      (``observation_dtype``), each from its player to move's seat;
    - ``observation["action_mask"]``: ``(num_envs, actions)`` int8, 1 at the legal codes;
    - ``rewards``: ``(num_envs, players)`` float32, a player's return at the step his place is
      fixed (so a game's rewards add up to its returns);
    - ``terminations``, ``truncations``: ``(num_envs,)`` bool: the game ended at this step
      (and has started again), or was cut off at ``max_plies``;
    - ``info["to_play"]``: ``(num_envs,)`` int32, the player each observation is for.

    With ``copy=False`` the same arrays are returned every time, overwritten by the next call.
    ``threads`` share the games of a step. :meth:`random_actions` draws a legal action in
    every game (seeded by ``seed`` and :meth:`reset`'s ``seed``).
    """

    def __init__(
        self,
        variant: str = "three-player",
        num_envs: int = 8,
        *,
        observation_dtype: str = "float32",
        max_plies: int | None = None,
        threads: int = 1,
        seed: int | None = None,
        copy: bool = True,
        **game_options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a whole number of at least 1, got {threads!r}")
        start = start_game(variant, game_options)
        self.start = start
        self.num_envs = num_envs
        self.observation_dtype = check_dtype(observation_dtype)
        self.copy = copy
        self.players: tuple[str, ...] = tuple(c.value for c in start.colours)
        self._batch = _core.GameBatch(start.state, num_envs, check_max_plies(max_plies), threads, _seed(seed))
        self.observation_shape: tuple[int, int, int] = tuple(self._batch.observation_shape)  # type: ignore[assignment]
        self.action_count: int = self._batch.action_count
        self._observations = numpy.zeros((num_envs, *self.observation_shape), dtype=observation_dtype)
        self._masks = numpy.zeros((num_envs, self.action_count), dtype=numpy.int8)
        self._to_play = numpy.zeros(num_envs, dtype=numpy.int32)
        self._rewards = numpy.zeros((num_envs, len(self.players)), dtype=numpy.float32)
        self._terminated = numpy.zeros(num_envs, dtype=bool)
        self._truncated = numpy.zeros(num_envs, dtype=bool)
        self._actions = numpy.zeros(num_envs, dtype=numpy.int32)
        self._batch.reset(self._observations, self._masks, self._to_play)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Every game back to the start."""
        if seed is not None:
            self._batch.reseed(_seed(seed))
        self._batch.reset(self._observations, self._masks, self._to_play)
        return self._observation(), {"to_play": self._out(self._to_play)}

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        """Plays ``actions[i]`` (an action code of the player to move: whole numbers of any integer
        type) in game i. A code that is no legal move raises IllegalMoveError (a ValueError)
        naming the game, before any game moves; so do numbers that are no codes, and floats."""
        codes = numpy.asarray(actions)
        if codes.shape != (self.num_envs,):
            raise ValueError(
                f"actions must be {self.num_envs} action codes (one per game), got an array of shape {codes.shape}"
            )
        # The core checks each code in its own type, so that no wide number wraps onto a code.
        self._batch.step(
            numpy.ascontiguousarray(codes),
            self._observations,
            self._masks,
            self._to_play,
            self._rewards,
            self._terminated,
            self._truncated,
        )
        return (
            self._observation(),
            self._out(self._rewards),
            self._out(self._terminated),
            self._out(self._truncated),
            {"to_play": self._out(self._to_play)},
        )

    def random_actions(self) -> Any:
        """A uniformly drawn legal action code per game (int32)."""
        self._batch.random_actions(self._actions)
        return self._out(self._actions)

    def board(self, index: int) -> Any:
        """Game ``index``'s position as a :class:`polychess.Board` (to show or inspect it)."""
        from polychess.board import Board

        start = self.start
        return Board(
            start.variant,
            self._batch.position_text(index),
            neutrality=start.rules.neutrality,
            mode=start.mode,
            setup=start.setup,
        )

    def close(self) -> None:
        pass

    def _observation(self) -> dict[str, Any]:
        return {"observation": self._out(self._observations), "action_mask": self._out(self._masks)}

    def _out(self, array: Any) -> Any:
        return array.copy() if self.copy else array


def _seed(seed: int | None) -> int:
    if seed is None:
        return int(numpy.random.SeedSequence().generate_state(1, numpy.uint64)[0])
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be a whole number from 0 to 2**64 - 1, got {seed!r}")
    return seed
