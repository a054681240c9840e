"""``polychess bench``: perft and search speed per variant, from the start position.

Each variant gets ``--time`` seconds: half for perft, which goes one depth deeper while the
next depth is expected to fit in the time left (the last depth's time times the growth of
the node count), and half for one engine search. The table shows the deepest perft and the
search; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from polychess.board import VARIANTS, Board
from polychess.cli.common import positive_float, positive_int
from polychess.cli.wording import plural
from polychess.engine import Engine

__all__ = ["Measurement", "add_parser", "measure_perft", "measure_search"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "bench",
        help="perft and search speed per variant",
        description="Measure perft and search speed (nodes per second) per variant.",
    )
    parser.add_argument(
        "--variant", choices=VARIANTS, action="append", help="measure this variant (repeatable; default: all)"
    )
    parser.add_argument(
        "--time",
        type=positive_float,
        default=3.0,
        metavar="SECONDS",
        help="time per variant, half perft and half search (default 3)",
    )
    parser.add_argument(
        "--hash", type=positive_int, default=64, metavar="MB", help="the engine's transposition table (default 64)"
    )
    parser.set_defaults(run=run)


@dataclass(frozen=True)
class Measurement:
    depth: int
    nodes: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def measure_perft(board: Board, budget: float) -> Measurement:
    """The deepest perft that fits in the budget (at least depth 1)."""
    spent, depth, previous = 0.0, 1, 0
    while True:
        start = time.perf_counter()
        nodes = board.perft(depth)
        seconds = time.perf_counter() - start
        spent += seconds
        print(
            f"  perft depth {depth}: {plural(nodes, 'node', grouped=True)} in {seconds:.3f} s",
            file=sys.stderr,
            flush=True,
        )
        growth = nodes / previous if previous else max(nodes, 1)
        if spent + seconds * growth > budget:
            return Measurement(depth, nodes, seconds)
        depth, previous = depth + 1, nodes


def measure_search(board: Board, budget: float, hash_mb: int) -> Measurement:
    engine = Engine(hash_mb=hash_mb)
    result = engine.search(board, time=budget)
    print(
        f"  search: depth {result.depth}, {plural(result.nodes, 'node', grouped=True)} in {result.seconds:.3f} s",
        file=sys.stderr,
        flush=True,
    )
    return Measurement(result.depth, result.nodes, result.seconds)


def run(args: argparse.Namespace) -> int:
    variants = args.variant or list(VARIANTS)
    rows = []
    for variant in variants:
        print(f"{variant}:", file=sys.stderr, flush=True)
        board = Board(variant)
        perft = measure_perft(board, args.time / 2)
        search = measure_search(board, args.time / 2, args.hash)
        rows.append((variant, perft, search))
    print(
        f"{'variant':<14}{'perft depth':>12}{'perft nodes':>14}{'perft nodes/s':>16}"
        f"{'search depth':>14}{'search nodes':>14}{'search nodes/s':>16}"
    )
    for variant, perft, search in rows:
        print(
            f"{variant:<14}{perft.depth:>12}{perft.nodes:>14,}{perft.rate:>16,.0f}"
            f"{search.depth:>14}{search.nodes:>14,}{search.rate:>16,.0f}"
        )
    return 0
