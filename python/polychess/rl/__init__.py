"""Reinforcement learning on polychess's games (docs/rl.md); ``pip install 'polychess[rl]'``.

- :class:`ActionSpace`: the action codes of a game, seen from the mover's seat;
  :func:`observe`: a game's state as planes.
- :func:`env`: the PettingZoo AEC environment; :func:`parallel_env`: its parallel form.
- :func:`vector_env`: many games stepped in one call to the core, as numpy arrays.
- :func:`gym_env`: one seat against opponents, as a Gymnasium environment.
- :func:`openspiel_game`: the game as an OpenSpiel game (needs ``open_spiel``; importing
  :mod:`polychess.rl.openspiel` registers them all with OpenSpiel).

Every environment takes :class:`polychess.Game`'s options (``mode=``, ``setup=``,
``first_mate_wins=``, ...; no clock), ``observation_dtype`` ("float32" or "uint8") and
``max_plies`` (cut a game off after that many plies).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polychess.rl.actions import ActionSpace
from polychess.rl.observations import observation_shape, observe

if TYPE_CHECKING:
    from polychess.rl.gymnasium_env import GymEnv, Opponent
    from polychess.rl.pettingzoo_env import AECEnv, ParallelEnv
    from polychess.rl.vector import VectorEnv

__all__ = [
    "ActionSpace",
    "env",
    "gym_env",
    "observation_shape",
    "observe",
    "openspiel_game",
    "parallel_env",
    "vector_env",
]


def env(variant: str = "three-player", **options: Any) -> AECEnv:
    """The PettingZoo AEC environment of a game (needs pettingzoo)."""
    from polychess.rl.pettingzoo_env import AECEnv

    return AECEnv(variant, **options)


def parallel_env(variant: str = "three-player", **options: Any) -> ParallelEnv:
    """The PettingZoo parallel environment of a game (needs pettingzoo)."""
    from polychess.rl.pettingzoo_env import ParallelEnv

    return ParallelEnv(variant, **options)


def vector_env(variant: str = "three-player", num_envs: int = 8, **options: Any) -> VectorEnv:
    """``num_envs`` games stepped together by the core (needs numpy only)."""
    from polychess.rl.vector import VectorEnv

    return VectorEnv(variant, num_envs, **options)


def gym_env(
    variant: str = "three-player", seat: str | None = None, opponents: Opponent = "random", **options: Any
) -> GymEnv:
    """One seat (default: the first) against ``opponents`` as a Gymnasium environment (needs gymnasium)."""
    from polychess.rl.gymnasium_env import GymEnv

    return GymEnv(variant, seat=seat, opponents=opponents, **options)


def openspiel_game(variant: str = "three-player", **params: Any) -> Any:
    """The game as an OpenSpiel game (a ``pyspiel.Game``; needs open_spiel): ``mode=`` for
    four-player, and the parameters of :data:`polychess.rl.openspiel.GAMES`."""
    from polychess.rl import openspiel

    return openspiel.game(variant, **params)
