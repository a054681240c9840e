"""The ``bench`` command: fixed-depth searches of fixed positions, single-threaded, each with
a fresh table, so that the total node count is a signature of the search (it changes when
and only when the search does) and nodes/s a measure of its speed. Tools in the style of
OpenBench read the last two lines.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

from polychess.catalogue import GameKind, kind_of
from polychess.engine import Engine

__all__ = ["BENCH_DEPTHS", "BENCH_POSITIONS", "Bench", "TreeMeasurement", "measure_tree", "run_bench"]

# The start and positions of engine games, 15 to 45 plies in (inputs, not results).
BENCH_POSITIONS: dict[str, tuple[str | None, ...]] = {
    "standard": (
        None,
        "r2qkb1r/1pp2pp1/2n1pn2/p2p1b1p/P2P1B1P/2NBPN2/1PP2PP1/R2QK2R b KQkq - 1 8",
        "r6r/2Bk1pp1/2p1pq2/p2p3p/Pb1P3P/2N1P1Q1/1PPK1Pb1/R6R w - - 0 16",
        "r7/3k4/2p1p3/p2pBp1p/P2Pb2P/4P3/2PK1P2/R7 b - - 0 23",
        "4k3/R7/4p3/p2p3p/P2PbBr1/4P3/2PK1P2/8 w - - 3 31",
    ),
    "three-player": (
        None,
        "rR2rKrQrB1rR/rPrPrP1rPrPrP1/2rN2rN2/3rP1rB1rP/bQbB1bRbK2bR/bPbPbP2bPbPbP/1bN2bPbN2/1bB1bP4/3wP1wB1wP/"
        "2wN2wN2/wPwPwP1wPwPwP1/wR2wQwKwB1wR w wKQrKQbKQ N10,H6 0 6 wrb aaa",
        "rR2rKrQ2rR/2rP2rPrP1/1rPrNrBrPrN2/3rP1rB1rP/bQ2bR1bK1bR/1bPbB2bPbP1/bPbNbP1bPbN2/1bB1bP3bP/rP2wP1wB1wP/"
        "wP1wN1wPwNwP1/1wPwP1wQwPwB1/wR3wK2wR w wKQrKQ - 0 11 wrb aaa",
        "2rRrKrQ3/1wQrP2rP2/2rNrBrBrNrR1/3rPbN3/bQ1bR2bK2/1bP2bNbP2/bPbB6/1bB1wRbP1rPbR/rPwP1wP1wB2/wP1wN1wP1wP1/"
        "2wPwN2wB1/2wK1wR3 w - - 0 21 wrb aaa",
    ),
    "four-player-teams": (
        None,
        "yR2yKyQyB1yR/yPyPyP1yPyPyPyP/2yN2yN2/bRbP4yP5gPgR/1bP8gP3/1bPbN8gNgPgB/bQ2bP8rBgK/bKbP10yBgQ/"
        "bBbPbN8gNgPgB/1bP10gP1/bRbP3bBrP5gPgR/2rN2rN2/rPrPrP1rPrPrPrP/rR2rQrKrB1rR g rKQbKQyKQgKQ - 0 4 rbyg aaaa",
        "yR1yByKyQ2yR/yPyPyPyPyNyP1yP/8/bRbP10gPgR/bNyN9gP1gN/1bP10gP1/3bP8gPgK/bK2yB8gPgQ/1bP10gPgB/"
        "bNbP10gPgN/bRbP4gR7/2rN2rP2/rPrPrP4rP/rR1rBrQrKrB1rR r rKQbKQyKQgK - 0 7 rbyg aaaa",
        "yR2yKyQ2yR/yPyByPyPyNyP1yP/8/bR1bP9gP1/11gPgR1/2bNyN7gPgP1/3bP9gK/bK11gPgQ/3bP8gP1/bN12gN/"
        "yBbP2rP9/2rN2rP2/rP1rP4rP/rR1rB1rK2rR r rKQbQyK - 1 13 rbyg aaaa",
    ),
    "four-player-ffa": (
        None,
        "yR2yKyQyByNyR/yPyPyPyNyPyPyPyP/8/bRbP4yP4gNgPgR/bNbP10gP1/bBbP10gP1/1bP3rBbQ3gP1gBgK/bK2bP4yB3gPgQ/"
        "bBbP10gPgB/bNbP10gPgN/bRbP5rP4gPgR/5rQ2/rPrPrPrP1rPrPrP/rRrNrB1rK1rNrR g rKQbKQyKQgKQ - 11 4 rbyg aaaa",
        "yR2yKyQyByNyR/yP2yNyP1yPyP/5yP2/bRbP2yPyPyP3gP2gR/1bP7gN2gP1/bBbPbN9gP1/1bP3bQ4gP1gBgK/bKbN6rQ3gPgQ/"
        "bBbP9gNgPgB/1bP8gP3/bR1bP4rP4gPgR/rN7/rPrPrPrP1rPrPrP/rR1rB1rK1rNrR y rKQbKQyKQgKQ l5 0 8 rbyg aaaa",
        "yR2yKyQyByNyR/4yP1yPyP/5yP2/bRbP2yPyNyP3gP2gR/1bP1yP1yP3gN2gP1/bBbPbN9gP1/3bP6gP1gBgK/bKbN6rQ3gP1/"
        "bBbP2rN6gNgP1/1bP3bQ4gPgQ2/bR1bP4rPrP1rP1gPgR/8/rPrP1rP4/rR1rB1rK1rNgB b rQbKQyKQgKQ k3 0 12 rbyg aaaa",
    ),
}
# Depths that take a second or two in all on a laptop core.
BENCH_DEPTHS = {"standard": 9, "three-player": 4, "four-player-teams": 8, "four-player-ffa": 5}


class Bench:
    """A bench run that another thread may :meth:`stop`: the running search ends, the rest are
    skipped."""

    def __init__(self, kind: GameKind, depth: int | None = None, hash_mb: int = 16) -> None:
        self.kind, self.depth, self.hash_mb = kind, depth, hash_mb
        self._stopped = threading.Event()
        self._engine: Engine | None = None  # the engine of the running search

    def lines(self) -> Iterator[str]:
        """Searches every bench position of the kind's game to the depth (its default if
        None); yields one line per position, then the totals as Stockfish prints them and as
        one ``N nodes M nps`` line; ``info string bench stopped`` instead if stopped."""
        family = self.kind.name.removesuffix("-classic")
        positions = BENCH_POSITIONS[family]
        depth = self.depth or BENCH_DEPTHS[family]
        bench_kind = kind_of(self.kind.variant, self.kind.mode)  # the bench positions are of the first setup
        nodes, seconds = 0, 0.0
        for number, position in enumerate(positions, 1):
            game = bench_kind.new_game(position)
            self._engine = engine = Engine(hash_mb=self.hash_mb)
            start = time.perf_counter()
            result = engine.search(game, depth=depth)
            seconds += time.perf_counter() - start
            nodes += result.nodes
            if self._stopped.is_set():  # this search was cut short: its count is no signature
                yield "info string bench stopped"
                return
            yield f"info string bench position {number}/{len(positions)}: depth {result.depth} nodes {result.nodes}"
        nps = int(nodes / seconds) if seconds > 0 else 0
        yield "==========================="
        yield f"Total time (ms) : {int(seconds * 1000)}"
        yield f"Nodes searched  : {nodes}"
        yield f"Nodes/second    : {nps}"
        yield f"{nodes} nodes {nps} nps"

    def stop(self) -> None:
        """Ends the running search (a stop that comes just before it starts is lost: the
        caller sends it again until :meth:`lines` has ended) and skips the rest."""
        self._stopped.set()
        engine = self._engine
        if engine is not None:
            engine.stop()


def run_bench(kind: GameKind, depth: int | None = None, hash_mb: int = 16) -> Iterator[str]:
    """The lines of :meth:`Bench.lines`."""
    return Bench(kind, depth, hash_mb).lines()


@dataclass(frozen=True)
class TreeMeasurement:
    """How narrow the search's tree is on a game's bench positions: the depth each search
    reached in a fixed time, the nodes all took to a fixed depth, and the share of the cutoffs
    that the first move searched gave (over the fixed-depth searches)."""

    depths: tuple[int, ...]
    depth: int
    nodes: int
    cutoffs: int
    first_move_cutoffs: int

    @property
    def median_depth(self) -> float:
        return statistics.median(self.depths)

    @property
    def first_move_cutoff_rate(self) -> float:
        return self.first_move_cutoffs / self.cutoffs if self.cutoffs else 0.0


def measure_tree(kind: GameKind, seconds: float, depth: int | None = None, hash_mb: int = 16) -> TreeMeasurement:
    """Searches each bench position of the kind's game for ``seconds``, then to ``depth`` (the
    bench's depth if None), each search single-threaded with a fresh table."""
    family = kind.name.removesuffix("-classic")
    depth = depth or BENCH_DEPTHS[family]
    games = [kind_of(kind.variant, kind.mode).new_game(position) for position in BENCH_POSITIONS[family]]
    depths = tuple(Engine(hash_mb=hash_mb).search(game, time=seconds).depth for game in games)
    fixed = [Engine(hash_mb=hash_mb).search(game, depth=depth) for game in games]
    return TreeMeasurement(
        depths,
        depth,
        sum(r.nodes for r in fixed),
        sum(r.cutoffs for r in fixed),
        sum(r.first_move_cutoffs for r in fixed),
    )
