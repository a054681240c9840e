"""Search speed per variant, from the start and from a middle-game position, next to the
engine's own perft speed measured in the same run.

    python bench/search_speed.py              # 3 s per search, every variant
    python bench/search_speed.py --time 1 --algorithm brs
    python bench/search_speed.py --reference-python /path/to/old/venv/bin/python

With ``--reference-python`` every search is also run, on the same position, by the polychess
installed for another interpreter (e.g. the 0.1.0 release in its own venv), and the ratio of the
two node rates is printed (issue 12: search nodes/s not lower than before).

The middle-game position of each variant is reached by the engine playing itself at depth 2
for 12 moves per player from the start (deterministic); where that game ends sooner, its last
position before the end. Perft runs from the same position: ``perft`` counts the last ply in
bulk (the generator's speed), ``perft_full`` makes and takes back every leaf move (what a
search pays per node, without evaluation or ordering).

For scale, the same ratios for Stockfish (the Debian package, installed by ``compare.py``'s
helper if missing; ``--no-stockfish`` skips it): its single-threaded search from the start
against its own bulk-counting ``go perft``.

Targets (issue 5): three-player search >= 1,000,000 nodes/s single-threaded, and search
nodes/s >= 30% of perft nodes/s. This script reports only.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))

from compare import Engine as UciEngine
from compare import find_stockfish, install_stockfish
from polychess import Board, Engine, Game
from polychess.engine import ALGORITHMS

VARIANTS = (("standard", None), ("three-player", None), ("four-player", "teams"), ("four-player", "ffa"))
MIDDLE_GAME_MOVES = 12  # per player
TARGET_THREE_PLAYER_NPS = 1_000_000
TARGET_SEARCH_TO_PERFT = 0.30


def middle_game(variant: str, mode: str | None) -> Board:
    game = Game(variant, mode=mode) if mode else Game(variant)
    engine = Engine(hash_mb=16)
    for _ in range(MIDDLE_GAME_MOVES * len(game.colours)):
        before = game.board.copy()
        engine.play(game, depth=2)
        if game.is_over():
            return before  # the last position with a move to search
    return game.board.copy()


def perft_rate(board: Board, full: bool, budget: float) -> tuple[int, float]:
    """Nodes/s of the deepest perft that fits in about ``budget`` seconds, and its depth."""
    depth, rate = 1, 0.0
    while True:
        start = time.perf_counter()
        nodes = board._core.perft_full(depth) if full else board.perft(depth)
        seconds = max(time.perf_counter() - start, 1e-9)
        rate = nodes / seconds
        if seconds * 20 > budget or depth >= 8:
            return depth, rate
        depth += 1


_REFERENCE_SEARCH = """
import json, sys
from polychess import Board, Engine
variant, mode, fen, algorithm, seconds = json.loads(sys.argv[1])
board = Board(variant, fen, mode=mode) if mode else Board(variant, fen)
result = Engine(algorithm, hash_mb=64).search(board, time=seconds)
print(json.dumps([result.nps, result.depth]))
"""


def reference_rate(
    python: str, variant: str, mode: str | None, board: Board, algorithm: str | None, seconds: float
) -> tuple[float, int]:
    """Nodes/s and depth of the same search by the polychess of another interpreter."""
    arguments = json.dumps([variant, mode, board.fen(), algorithm, seconds])
    # -I: the reference interpreter must not see this checkout's polychess (or its editable install).
    out = subprocess.run([python, "-I", "-c", _REFERENCE_SEARCH, arguments], capture_output=True, text=True, check=True)
    nps, depth = json.loads(out.stdout)
    return float(nps), int(depth)


def stockfish_rates(seconds: float) -> tuple[str, float, float] | None:
    """(name, search nodes/s, perft nodes/s) of Stockfish from the start, one thread."""
    binary = find_stockfish() or install_stockfish()
    if binary is None:
        return None
    engine = UciEngine(binary)
    try:
        engine.send("setoption name Threads value 1")
        nodes, perft_seconds = engine.perft(6)
        engine.send("ucinewgame")
        engine.send("position startpos")
        engine.ready()
        engine.send(f"go movetime {int(seconds * 1000)}")
        lines = engine.until(lambda s: s.startswith("bestmove"), timeout=seconds + 30)
        nps = [int(s.split(" nps ")[1].split()[0]) for s in lines if " nps " in s]
        return (engine.name, float(nps[-1]), nodes / perft_seconds) if nps else None
    except (OSError, RuntimeError, ValueError) as exc:
        print(f"Stockfish measurement failed ({exc}); its row is skipped.", file=sys.stderr)
        return None
    finally:
        engine.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=3.0, help="seconds per search (default 3)")
    parser.add_argument("--algorithm", choices=ALGORITHMS, help="multi-player algorithm (default: the engine's)")
    parser.add_argument("--no-stockfish", action="store_true", help="skip the Stockfish reference row")
    parser.add_argument("--reference-python", help="an interpreter with the reference polychess installed")
    args = parser.parse_args(argv)

    header = (
        f"{'variant':<20}{'position':<9}{'search nodes/s':>15}{'depth':>6}{'perft nodes/s':>15}"
        f"{'ratio':>7}{'perft_full n/s':>16}{'ratio':>7}"
    )
    rows = []
    for variant, mode in VARIANTS:
        name = f"{variant} {mode}" if mode else variant
        for label, board in (
            ("start", Board(variant, mode=mode) if mode else Board(variant)),
            ("middle", middle_game(variant, mode)),
        ):
            print(f"{name}, {label}: searching {args.time} s", file=sys.stderr, flush=True)
            result = Engine(args.algorithm, hash_mb=64).search(board, time=args.time)
            _, bulk = perft_rate(board, False, args.time)
            _, full = perft_rate(board, True, args.time)
            reference = None
            if args.reference_python:
                reference = reference_rate(args.reference_python, variant, mode, board, args.algorithm, args.time)
            rows.append((name, label, result.nps, result.depth, bulk, full, reference))
    stockfish = None if args.no_stockfish else stockfish_rates(args.time)
    if args.reference_python:
        header += f"{'reference n/s':>15}{'depth':>6}{'ratio':>7}"
    print(header)
    for name, label, nps, depth, bulk, full, reference in rows:
        line = (
            f"{name:<20}{label:<9}{nps:>15,.0f}{depth:>6}{bulk:>15,.0f}{nps / bulk:>7.2f}{full:>16,.0f}"
            f"{nps / full:>7.2f}"
        )
        if reference:
            line += f"{reference[0]:>15,.0f}{reference[1]:>6}{nps / reference[0]:>7.2f}"
        print(line)
    if stockfish:
        name, nps, bulk = stockfish
        print(f"{name[:19]:<20}{'start':<9}{nps:>15,.0f}{'':>6}{bulk:>15,.0f}{nps / bulk:>7.3f}{'-':>16}{'-':>7}")
    three = [nps for name, _, nps, *_ in rows if name == "three-player"]
    print(
        f"\nthree-player search: {min(three):,.0f} nodes/s at least (target >= {TARGET_THREE_PLAYER_NPS:,});"
        f" search/perft target >= {TARGET_SEARCH_TO_PERFT:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
