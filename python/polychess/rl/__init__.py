"""Reinforcement learning on polychess's games (docs/rl.md).

So far: :class:`~polychess.rl.actions.ActionSpace`, the action codes of each game, seen from
the mover's seat. The environments (PettingZoo, Gymnasium, OpenSpiel) build on it.
"""

from polychess.rl.actions import ActionSpace

__all__ = ["ActionSpace"]
