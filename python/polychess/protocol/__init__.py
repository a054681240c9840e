"""Engine protocols: UCI for standard chess and its extensions for three- and four-player
chess (docs/protocol.md).

- :mod:`polychess.protocol.server`: the engine side, ``polychess uci``.
- :mod:`polychess.protocol.client`: other engines that speak these protocols, driven from Python.
- :mod:`polychess.protocol.games`: positions and moves as the protocols write them.
- :mod:`polychess.protocol.timeman`: how long to think, from the clocks.
"""

from polychess.protocol.games import GAME_KINDS, GameKind, PositionError, game_kind
from polychess.protocol.server import UciServer, serve

__all__ = ["GAME_KINDS", "GameKind", "PositionError", "UciServer", "game_kind", "serve"]
