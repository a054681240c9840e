"""What a second thread buys: the time to a fixed depth on each game's bench positions with one
thread and with two, and the same for Stockfish in standard chess, measured in the same run.

    python bench/threads.py                    # every game, the bench depth + 1
    python bench/threads.py --game four-player-teams --depth 10 --threads 2

Each search starts from a fresh table (the same size for every thread count), one position
after another; the time is summed over the positions and the speed-up printed is
one thread's time over N threads'. Lazy SMP is not deterministic: run it twice, on a machine
with a free core per thread. Targets (issue 26): at least Stockfish's gain in every game.
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
from polychess.protocol.bench import BENCH_DEPTHS, BENCH_POSITIONS

GAMES = {kind.name: kind for kind in KINDS if kind.name in BENCH_POSITIONS}


def our_time(game_name: str, depth: int, threads: int, hash_mb: int) -> float:
    total = 0.0
    for position in BENCH_POSITIONS[game_name]:
        game = GAMES[game_name].new_game(position)
        engine = Engine(hash_mb=hash_mb, threads=threads)
        start = time.perf_counter()
        engine.search(game, depth=depth)
        total += time.perf_counter() - start
    return total


def stockfish_time(path: str, depth: int, threads: int, hash_mb: int) -> float:
    engine = UciEngine(path)
    total = 0.0
    try:
        engine.send(f"setoption name Threads value {threads}")
        engine.send(f"setoption name Hash value {hash_mb}")
        for position in BENCH_POSITIONS["standard"]:
            engine.send("ucinewgame")
            engine.send(f"position fen {position}" if position else "position startpos")
            engine.ready()
            start = time.perf_counter()
            engine.send(f"go depth {depth}")
            engine.until(lambda line: line.startswith("bestmove"))
            total += time.perf_counter() - start
    finally:
        engine.close()
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="measure this game (repeatable)")
    parser.add_argument("--depth", type=int, help="the depth of every search (default: each game's bench depth + 1)")
    parser.add_argument("--threads", type=int, default=2, help="the thread count compared with one (default 2)")
    parser.add_argument("--hash", type=int, default=64, help="table size in MB (default 64)")
    parser.add_argument("--stockfish-depth", type=int, default=16, help="Stockfish's depth (default 16)")
    args = parser.parse_args()
    print(f"{'engine / game':<28} {'depth':>5} {'1 thread s':>10} {f'{args.threads} threads s':>11} {'speed-up':>8}")
    for name in args.game or list(GAMES):
        depth = args.depth or BENCH_DEPTHS[name] + 1
        one = our_time(name, depth, 1, args.hash)
        many = our_time(name, depth, args.threads, args.hash)
        print(f"{'polychess ' + name:<28} {depth:>5} {one:>10.2f} {many:>11.2f} {one / many:>7.2f}x")
    stockfish = find_stockfish()
    if stockfish:
        one = stockfish_time(stockfish, args.stockfish_depth, 1, args.hash)
        many = stockfish_time(stockfish, args.stockfish_depth, args.threads, args.hash)
        print(f"{'Stockfish standard':<28} {args.stockfish_depth:>5} {one:>10.2f} {many:>11.2f} {one / many:>7.2f}x")
    else:
        print("Stockfish not found: no reference (bench/compare.py installs it)")


if __name__ == "__main__":
    main()
