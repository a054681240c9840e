"""What a second thread buys: the time to a fixed depth on each game's bench positions with one
thread and with two, and the same for Stockfish in standard chess, measured in the same run.

    python bench/threads.py                    # every game, the bench depth + 1
    python bench/threads.py --game four-player-teams --depth 10 --threads 2

Each search starts from a fresh table (the same size for every thread count). On each position
one thread and N threads take turns, so that a machine whose speed drifts (a shared virtual
machine's does, by tens of percent) slows both alike; the time is summed over the positions
and the passes, and the speed-up printed is one thread's time over N threads'. Lazy SMP is not
deterministic: run it on a machine with a free core per thread, and trust differences beyond
about 0.1 only. Targets (issue 26): at least Stockfish's gain in every game.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from compare import Engine as UciEngine
from compare import find_stockfish
from polychess import Engine
from polychess.catalogue import KINDS
from polychess.game import Game
from polychess.protocol.bench import BENCH_DEPTHS, BENCH_POSITIONS

GAMES = {kind.name: kind for kind in KINDS if kind.name in BENCH_POSITIONS}


def our_times(game_name: str, depth: int, thread_counts: list[int], hash_mb: int, repeat: int) -> list[float]:
    """The summed time to `depth` per thread count, the counts taking turns on each position."""
    totals = [0.0] * len(thread_counts)
    for position in BENCH_POSITIONS[game_name] * repeat:
        for index, threads in enumerate(thread_counts):
            game = Game.from_kind(GAMES[game_name], position)
            engine = Engine(hash_mb=hash_mb, threads=threads)
            start = time.perf_counter()
            engine.search(game, depth=depth)
            totals[index] += time.perf_counter() - start
    return totals


def stockfish_times(path: str, depth: int, thread_counts: list[int], hash_mb: int, repeat: int) -> list[float]:
    """The same for Stockfish: one process per thread count, taking turns on each position."""
    engines = [UciEngine(path) for _ in thread_counts]
    totals = [0.0] * len(thread_counts)
    try:
        for engine, threads in zip(engines, thread_counts, strict=True):
            engine.send(f"setoption name Threads value {threads}")
            engine.send(f"setoption name Hash value {hash_mb}")
        for position in BENCH_POSITIONS["standard"] * repeat:
            for index, engine in enumerate(engines):
                engine.send("ucinewgame")
                engine.send(f"position fen {position}" if position else "position startpos")
                engine.ready()
                start = time.perf_counter()
                engine.send(f"go depth {depth}")
                engine.until(lambda line: line.startswith("bestmove"))
                totals[index] += time.perf_counter() - start
    finally:
        for engine in engines:
            engine.close()
    return totals


def print_row(label: str, depth: int, totals: list[float]) -> None:
    one, many = totals
    print(f"{label:<28} {depth:>5} {one:>10.2f} {many:>11.2f} {one / many:>7.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="measure this game (repeatable)")
    parser.add_argument("--depth", type=int, help="the depth of every search (default: each game's bench depth + 1)")
    parser.add_argument("--threads", type=int, default=2, help="the thread count compared with one (default 2)")
    parser.add_argument("--hash", type=int, default=64, help="table size in MB (default 64)")
    parser.add_argument("--repeat", type=int, default=3, help="passes over the positions, summed (default 3)")
    parser.add_argument("--stockfish-depth", type=int, default=16, help="Stockfish's depth (default 16)")
    args = parser.parse_args()
    print(f"{'engine / game':<28} {'depth':>5} {'1 thread s':>10} {f'{args.threads} threads s':>11} {'speed-up':>8}")
    counts = [1, args.threads]
    for name in args.game or list(GAMES):
        depth = args.depth or BENCH_DEPTHS[name] + 1
        print_row("polychess " + name, depth, our_times(name, depth, counts, args.hash, args.repeat))
    stockfish = find_stockfish()
    if stockfish:
        totals = stockfish_times(stockfish, args.stockfish_depth, counts, args.hash, args.repeat)
        print_row("Stockfish standard", args.stockfish_depth, totals)
    else:
        print("Stockfish not found: no reference (bench/compare.py installs it)")


if __name__ == "__main__":
    main()
