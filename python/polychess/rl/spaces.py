"""The Gymnasium spaces of the environments: an observation is a dict of the planes and the
legal-action mask (as PettingZoo's board games have it), an action is one code."""

from __future__ import annotations

from typing import Any

from polychess.rl.extras import needs_extra

with needs_extra("rl"):
    import gymnasium
    import numpy

from polychess.rl.table import Table

__all__ = ["action_space", "observation_space"]


def observation_space(table: Table) -> gymnasium.spaces.Dict:
    shape = table.observation_shape
    planes: gymnasium.spaces.Box[Any]
    if table.observation_dtype == "uint8":
        planes = gymnasium.spaces.Box(0, 255, shape, dtype=numpy.uint8)
    else:
        high = numpy.ones(shape, dtype=numpy.float32)
        if table.game.rules.ranking == "points":
            high[-len(table.game.colours) :] = numpy.inf  # points over 100: not capped (docs/rl.md)
        planes = gymnasium.spaces.Box(numpy.zeros(shape, dtype=numpy.float32), high, dtype=numpy.float32)
    mask = gymnasium.spaces.Box(0, 1, (table.space.size,), dtype=numpy.int8)
    return gymnasium.spaces.Dict({"observation": planes, "action_mask": mask})


def action_space(table: Table) -> gymnasium.spaces.Discrete:
    return gymnasium.spaces.Discrete(table.space.size)
