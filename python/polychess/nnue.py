"""Efficiently updatable networks: the learned evaluation (``docs/nnue.md``).

A network reads, for each player's perspective, one feature per piece: the piece's controller
counted in seats from the perspective (or nobody, for a dead army), its kind, and its cell as
the perspective's seat sees the board. The sizes follow from the board. With king buckets
(:data:`KING_BUCKETS`), each perspective reads its features through one of several sets of
weights, chosen by where his own king stands (near its start, near either castled cell,
elsewhere). The core evaluates a network with one accumulator per perspective, updated from the
last position it evaluated.

>>> from polychess import Board
>>> board = Board("standard")
>>> network = random_network("standard", hidden=32, seed=1)
>>> evaluator = network.evaluator(board)
>>> move = board.push_san("e4")
>>> evaluator.evaluate(board) == network.evaluate(board)
True
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from polychess import _core
from polychess._core import InvalidNetworkError
from polychess.evaluation import GAMES
from polychess.files import open_regular

if TYPE_CHECKING:
    from polychess.board import Board

__all__ = [
    "KERNELS",
    "KING_BUCKETS",
    "InvalidNetworkError",
    "Network",
    "Evaluator",
    "features",
    "input_count",
    "random_network",
    "shipped_network",
    "shipped_games",
]

#: The vector kernels this build evaluates networks with: "avx512bw", "avx2", "neon" or "portable"
#: (chosen by the compiler's target; a source install targets its own CPU).
KERNELS: str = _core.network_kernels

#: The king buckets of a bucketed network: the king near its start, near its king-side or
#: queen-side castled cell (within two king steps, from the seat's castling cells), elsewhere.
KING_BUCKETS: int = _core.king_buckets

_SHIPPED = Path(__file__).resolve().parent / "data" / "networks"


def _game_of(game: str) -> tuple[str, str, str]:
    if game not in GAMES:
        raise InvalidNetworkError(f"no game {game!r}: networks are per game, one of {', '.join(GAMES)}")
    variant, mode, setups = GAMES[game]
    return variant, mode, setups[0]


def input_count(game: str, king_buckets: int = 1) -> int:
    """The number of features of one perspective of the game's networks, with ``king_buckets``
    king buckets (1 or :data:`KING_BUCKETS`)."""
    variant, mode, _ = _game_of(game)
    return _core.network_inputs(variant, mode, king_buckets)


class Network:
    """A quantized network of one game: read from its file, or quantized from float weights."""

    __slots__ = ("_core",)

    def __init__(self, core: _core.Network) -> None:
        self._core = core

    @classmethod
    def from_bytes(cls, data: bytes) -> Network:
        """The network a file's bytes hold; :class:`InvalidNetworkError` says what is wrong with them."""
        return cls(_core.Network.from_bytes(data))

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Network:
        """The network in the file at ``path``: its header is read and checked first, and a file
        of another size than the header says, or not a regular file, is refused unread
        (:class:`InvalidNetworkError`)."""
        with open_regular(path, "a network file", InvalidNetworkError) as (file, size):
            head = file.read(min(size, _core.NETWORK_HEADER_BYTES))
            try:
                expected = _core.Network.file_size(head)
            except InvalidNetworkError as error:
                raise InvalidNetworkError(f"{os.fspath(path)}: {error}") from None
            if size != expected:
                raise InvalidNetworkError(
                    f"{os.fspath(path)}: {size:,} bytes, where its header says a network of {expected:,}"
                )
            return cls.from_bytes(head + file.read(expected - len(head)))

    @classmethod
    def from_floats(
        cls,
        game: str,
        hidden: int,
        ft_bias: Sequence[float],
        ft_weight: Sequence[float],
        out_weight: Sequence[float],
        out_bias: Sequence[float],
        *,
        scale: int = 400,
        on_classic: bool = False,
        king_buckets: int = 1,
    ) -> Network:
        """Quantizes a float network: flat arrays (lists, numpy arrays) of the feature
        transformer's biases (``hidden``) and weights (``inputs x hidden``, feature-major, where
        ``inputs`` is :func:`input_count` with ``king_buckets``), the output layer's weights
        (``players`` turn buckets x ``players x hidden``) and biases (``players``); a player's
        value is ``scale`` times the output, in centipawns, added to the classic evaluation's
        where ``on_classic``."""
        variant, mode, setup = _game_of(game)
        return cls(
            _core.Network.quantize(
                variant, mode, setup, hidden, ft_bias, ft_weight, out_weight, out_bias, scale, on_classic, king_buckets
            )
        )

    def to_bytes(self) -> bytes:
        return self._core.to_bytes()

    def save(self, path: str | os.PathLike[str]) -> None:
        with open(path, "wb") as f:
            f.write(self.to_bytes())

    @property
    def game(self) -> str:
        return self._core.game

    @property
    def hidden(self) -> int:
        return self._core.hidden

    @property
    def inputs(self) -> int:
        return self._core.inputs

    @property
    def players(self) -> int:
        return self._core.players

    @property
    def king_buckets(self) -> int:
        """1, or :data:`KING_BUCKETS` for a network whose weights depend on where each
        perspective's king stands."""
        return self._core.king_buckets

    @property
    def scale(self) -> int:
        return self._core.scale

    @property
    def on_classic(self) -> bool:
        """Whether the network's values are added to the classic evaluation's (it learned a
        correction of it) rather than being the whole evaluation."""
        return self._core.on_classic

    @property
    def hash(self) -> int:
        """The FNV-1a hash of the weights, as the file's header holds it."""
        return self._core.hash

    def evaluator(self, board: Board) -> Evaluator:
        """An evaluator of the board's game (:class:`InvalidNetworkError` for another game)."""
        return Evaluator(self, board)

    def evaluate(self, board: Board) -> list[int]:
        """Every player's value of the board, in centipawns (a fresh evaluator's)."""
        return self.evaluator(board).evaluate(board)

    def __repr__(self) -> str:
        base = " on classic" if self.on_classic else ""
        buckets = f" {self.king_buckets} king buckets" if self.king_buckets > 1 else ""
        return f"<Network {self.game} {self.inputs}x{self.hidden}{buckets}{base} hash={self.hash:016x}>"


class Evaluator:
    """The core's evaluation with a network: one accumulator per perspective, updated from the
    last board it evaluated by the cells that changed (refreshed when an army changes hands)."""

    __slots__ = ("_core", "network")

    def __init__(self, network: Network, board: Board) -> None:
        self.network = network
        self._core = _core.NetworkEvaluator(network._core, board.core)

    def evaluate(self, board: Board) -> list[int]:
        """Every player's value in centipawns, from his own perspective."""
        return self._core.evaluate(board.core)

    def evaluate_afresh(self, board: Board) -> list[int]:
        """The same, with the accumulators computed from scratch."""
        return self._core.evaluate_afresh(board.core)

    @property
    def refreshes(self) -> int:
        return self._core.refreshes

    @property
    def updates(self) -> int:
        return self._core.updates


def shipped_games() -> list[str]:
    """The games the package ships a trained network for (``docs/nnue.md`` says how each was
    trained and what it scores against the classic evaluation)."""
    return sorted(path.stem for path in _SHIPPED.glob("*.nnue"))


@functools.cache
def shipped_network(game: str) -> Network | None:
    """The trained network the package ships for the game (``standard``, ``three-player``,
    ``four-player-teams``, ``four-player-ffa``), or None where it ships none:
    ``Engine(evaluation="network")`` searches with it."""
    _game_of(game)
    path = _SHIPPED / f"{game}.nnue"
    return Network.load(path) if path.exists() else None


def features(board: Board, perspective: int, king_buckets: int = 1) -> list[int]:
    """The features the board's pieces activate for a player's perspective, sorted (read
    with ``king_buckets`` king buckets)."""
    return _core.network_features(board.core, perspective, king_buckets)


def random_network(
    game: str, *, hidden: int = 64, seed: int = 0, spread: float = 0.3, on_classic: bool = False, king_buckets: int = 1
) -> Network:
    """A network of random weights (uniform in +-spread, the output layer's scaled to its
    width): a start for training, and what tests check the arithmetic with; ``on_classic``, a
    correction of the classic evaluation."""
    rng = random.Random(seed)
    variant, mode, _ = _game_of(game)
    inputs = _core.network_inputs(variant, mode, king_buckets)
    players = len(next(v for v in _core.variants() if v[0] == variant)[4])
    out_spread = spread * 4 / (players * hidden) ** 0.5

    def uniform(n: int, s: float) -> list[float]:
        return [rng.uniform(-s, s) for _ in range(n)]

    return Network.from_floats(
        game,
        hidden,
        uniform(hidden, spread),
        uniform(inputs * hidden, spread / 4),
        uniform(players * players * hidden, out_spread),
        uniform(players, spread),
        on_classic=on_classic,
        king_buckets=king_buckets,
    )
