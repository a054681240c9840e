"""Perft and search speed of each instruction-set level the core is built for, side by side in
one run (issue 28: the portable build within 5% of the native one).

    python bench/levels.py                         # every level of this install that the CPU runs
    python bench/levels.py --native build/native   # and a -DPOLYCHESS_NATIVE=ON build's module
    python bench/levels.py --quick                 # smaller counts

Each level runs in its own process (``POLYCHESS_LEVEL``), the levels taking turns round after
round, and the best round of each is kept, so that a busy moment of the machine costs every
level alike. Rows: perft 6 from the start of three-player, four-player teams and standard chess
(bulk counting at the last ply), and the search's nodes/s from each game's start at a node
budget. The ratio column divides by the reference: the native build if given, else the best
level. The script reports; it does not assert.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "python"

CHILD = """
import json, sys, time
from polychess import Board, Engine, _core
perft_depth, search_nodes = int(sys.argv[1]), int(sys.argv[2])
games = [("three-player", None), ("four-player", "teams"), ("standard", None), ("four-player", "ffa")]
rows = {}
for variant, mode in games[:3]:
    board = Board(variant, mode=mode)
    start = time.perf_counter()
    nodes = board.perft(perft_depth)
    rows[f"perft {perft_depth} {variant}{' ' + mode if mode else ''}"] = nodes / (time.perf_counter() - start)
for variant, mode in games:
    result = Engine(hash_mb=16).search(Board(variant, mode=mode), nodes=search_nodes)
    rows[f"search {variant}{' ' + mode if mode else ''}"] = result.nodes / result.seconds
print(json.dumps({"level": _core.LEVEL, "rows": rows}))
"""


def run_level(level: str, path: str, perft_depth: int, search_nodes: int) -> dict[str, float]:
    env = {**os.environ, "POLYCHESS_LEVEL": level, "PYTHONPATH": path}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(perft_depth), str(search_nodes)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=1200,
    )
    report = json.loads(out.stdout)
    assert report["level"] == level, report
    return report["rows"]


def native_stage(build: Path, folder: Path) -> str:
    """A copy of the package whose core is the native build's module."""
    modules = list(build.glob("_core_native*"))
    if not modules:
        sys.exit(f"{build}: no _core_native module (configure with -DPOLYCHESS_NATIVE=ON)")
    stage = folder / "polychess"
    shutil.copytree(PACKAGE / "polychess", stage, ignore=shutil.ignore_patterns("_core_*", "__pycache__"))
    shutil.copy(modules[0], stage)
    return str(folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--native", type=Path, help="a folder holding a native build's _core_native module")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, the best kept (default 3)")
    parser.add_argument("--quick", action="store_true", help="perft 5 and 100,000-node searches")
    args = parser.parse_args()
    perft_depth, search_nodes = (5, 100_000) if args.quick else (6, 1_000_000)

    sys.path.insert(0, str(PACKAGE))
    from polychess import _core, _cpu

    folder = Path(_core.__file__).parent
    built = {p.name.split(".")[0].removeprefix("_core_") for p in folder.glob("_core_*") if p.suffix != ".py"}
    levels = [(level, str(PACKAGE)) for level in ("native", *_cpu.levels(), "generic") if level in built]
    with tempfile.TemporaryDirectory() as tmp:
        if args.native:
            levels.insert(0, ("native", native_stage(args.native, Path(tmp))))
        best: dict[str, dict[str, float]] = {}
        for round_ in range(args.rounds):
            for level, path in levels:
                rows = run_level(level, path, perft_depth, search_nodes)
                kept = best.setdefault(level, rows)
                for name, rate in rows.items():
                    kept[name] = max(kept[name], rate)
            print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)
    reference = levels[0][0]
    names = list(best[reference])
    print(f"| row | {' | '.join(level for level, _ in levels)} |")
    print(f"| --- |{' --- |' * len(levels)}")
    for name in names:
        cells = [
            f"{best[level][name] / 1e6:.1f} M ({best[level][name] / best[reference][name]:.2f})" for level, _ in levels
        ]
        print(f"| {name} | {' | '.join(cells)} |")
    print(f"\nnodes/s, best of {args.rounds} rounds; in brackets the ratio to {reference}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
