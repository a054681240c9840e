"""``polychess bench``: perft and search speed per variant, from the start position, and the
width of the search's tree per game, on the bench positions.

Each variant gets ``--time`` seconds: half for perft, which goes one depth deeper while the
next depth is expected to fit in the time left (the last depth's time times the growth of
the node count), and half for one engine search. The first table shows the deepest perft and
the search. The second shows, per game, the median depth a search of each bench position
reaches in ``--tree-time`` seconds, the nodes the searches of all of them take to
``--tree-depth`` (the bench's depth of the game by default) and the share of the cutoffs that
the first move searched gave: a change that widens the tree shows there even where it makes
the search faster. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from polychess.board import VARIANTS, Board
from polychess.catalogue import KINDS
from polychess.cli.common import positive_float, positive_int
from polychess.cli.wording import plural
from polychess.engine import Engine
from polychess.protocol.bench import BENCH_POSITIONS, measure_tree

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
    parser.add_argument(
        "--tree-time",
        type=positive_float,
        default=0.5,
        metavar="SECONDS",
        help="time of each bench position's search for the depth it reaches (default 0.5)",
    )
    parser.add_argument(
        "--tree-depth",
        type=positive_int,
        metavar="PLIES",
        help="depth of the bench positions' searches that count nodes (default: the bench's depth of each game)",
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
    print()
    in_time = f"depth in {args.tree_time:g} s"
    print(f"{'game':<20}{'positions':>10}{in_time:>16}{'depth':>7}{'nodes':>14}{'first-move cutoffs':>20}")
    for kind in KINDS:
        if kind.name not in BENCH_POSITIONS or kind.variant not in variants:
            continue
        print(f"{kind.name}: the bench positions", file=sys.stderr, flush=True)
        tree = measure_tree(kind, args.tree_time, args.tree_depth, args.hash)
        print(
            f"{kind.name:<20}{len(tree.depths):>10}{tree.median_depth:>16g}{tree.depth:>7}{tree.nodes:>14,}"
            f"{tree.first_move_cutoff_rate:>20.1%}"
        )
    return 0
