"""Instructions per search node, counted by valgrind (cachegrind), for every game: the steady
measure of the search's cost where wall-clock rates on a shared machine vary from run to run.

    python bench/search_instructions.py
    python bench/search_instructions.py --reference-python /path/to/old/venv/bin/python

Each game is searched from its start to a fixed depth with one thread; the instructions of
the same script searching to depth 1 (start-up, imports, table allocation) are taken off, and
the rest is divided by the nodes searched. With ``--reference-python`` the same is measured for
the polychess installed for another interpreter (run with ``-I``, so it cannot see this
checkout) and the ratio printed. Needs ``valgrind`` (``apt-get install valgrind``). This script
reports only.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys

GAMES = (("standard", "", 8), ("three-player", "", 5), ("four-player", "teams", 6), ("four-player", "ffa", 5))

_SEARCH = """
import sys
from polychess import Board, Engine
variant, mode, depth = sys.argv[1], sys.argv[2] or None, int(sys.argv[3])
board = Board(variant, mode=mode) if mode else Board(variant)
print("NODES", Engine(hash_mb=1).search(board, depth=depth).nodes)
"""


def instructions(python: str, variant: str, mode: str, depth: int) -> tuple[int, int]:
    """(instructions executed, nodes searched) of one search under cachegrind."""
    out = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            python,
            "-I",
            "-c",
            _SEARCH,
            variant,
            mode,
            str(depth),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    refs = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    nodes = re.search(r"NODES (\d+)", out.stdout)
    if not refs or not nodes:
        raise RuntimeError(f"cachegrind printed no count for {variant} {mode}: {out.stderr[-300:]}")
    return int(refs.group(1).replace(",", "")), int(nodes.group(1))


def per_node(python: str, variant: str, mode: str, depth: int) -> tuple[float, int]:
    total, nodes = instructions(python, variant, mode, depth)
    base, _ = instructions(python, variant, mode, 1)
    return (total - base) / nodes, nodes


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--reference-python", help="an interpreter with the reference polychess installed")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 1
    header = f"{'game':<20}{'depth':>6}{'nodes':>10}{'instructions/node':>19}"
    if args.reference_python:
        header += f"{'reference nodes':>16}{'reference':>11}{'ratio':>7}"
    print(header)
    for variant, mode, depth in GAMES:
        cost, nodes = per_node(sys.executable, variant, mode, depth)
        line = f"{(variant + ' ' + mode).strip():<20}{depth:>6}{nodes:>10,}{cost:>19,.0f}"
        if args.reference_python:
            reference, reference_nodes = per_node(args.reference_python, variant, mode, depth)
            line += f"{reference_nodes:>16,}{reference:>11,.0f}{cost / reference:>7.3f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
