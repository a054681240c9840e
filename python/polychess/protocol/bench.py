"""The ``bench`` command: fixed-depth searches of fixed positions, single-threaded, each with
a fresh table, so that the total node count is a signature of the search (it changes when
and only when the search does) and nodes/s a measure of its speed. Tools in the style of
OpenBench read the last two lines.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources

from polychess.catalogue import GameKind, kind_of
from polychess.engine import Engine
from polychess.game import Game

__all__ = ["BENCH_DEPTHS", "BENCH_POSITIONS", "Bench", "TreeMeasurement", "measure_tree", "run_bench"]

# Each game's bench, by its name: the start (None) and positions of engine games 15 to 45 plies
# in (inputs, not results), and a depth that takes a second or two in all on a laptop core.
_BENCH = json.loads(resources.files("polychess").joinpath("data/bench.json").read_text())["games"]
BENCH_POSITIONS: dict[str, tuple[str | None, ...]] = {name: tuple(b["positions"]) for name, b in _BENCH.items()}
BENCH_DEPTHS: dict[str, int] = {name: b["depth"] for name, b in _BENCH.items()}


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
            game = Game.from_kind(bench_kind, position)
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
    games = [Game.from_kind(kind_of(kind.variant, kind.mode), position) for position in BENCH_POSITIONS[family]]
    depths = tuple(Engine(hash_mb=hash_mb).search(game, time=seconds).depth for game in games)
    fixed = [Engine(hash_mb=hash_mb).search(game, depth=depth) for game in games]
    return TreeMeasurement(
        depths,
        depth,
        sum(r.nodes for r in fixed),
        sum(r.cutoffs for r in fixed),
        sum(r.first_move_cutoffs for r in fixed),
    )
