"""Reinforcement learning on polychess's games (docs/rl.md).

So far: :class:`~polychess.rl.actions.ActionSpace`, the action codes of each game, and
:func:`~polychess.rl.observations.observe`, the state as planes, both seen from the mover's
seat. The environments (PettingZoo, Gymnasium, OpenSpiel) will build on them.
"""

from polychess.rl.actions import ActionSpace
from polychess.rl.observations import observation_shape, observe

__all__ = ["ActionSpace", "observation_shape", "observe"]
