"""Benchmarks of the search (pytest-benchmark): a fixed-depth search per variant and
algorithm, from the start position.

With ``--benchmark-disable`` (as CI runs it) each search runs once as an ordinary test, which
checks that the move is legal and that a fixed-depth search gives the same move and node
count twice; timings (and nodes/s, in ``extra_info``) come from a run without that flag.
``bench/search_speed.py`` prints nodes/s next to perft from the same positions.
"""

from __future__ import annotations

import pytest

import polychess
from polychess.engine import ALGORITHMS

# (id, variant, mode, depth, algorithm)
SEARCH_CASES = [
    ("standard-d6", "standard", None, 6, None),
    ("four-player-teams-d5", "four-player", "teams", 5, None),
    *[(f"three-player-{a}-d{d}", "three-player", None, d, a) for a, d in zip(ALGORITHMS, (4, 4, 3), strict=True)],
    *[(f"four-player-ffa-{a}-d{d}", "four-player", "ffa", d, a) for a, d in zip(ALGORITHMS, (4, 4, 3), strict=True)],
]


@pytest.mark.benchmark(group="search")
@pytest.mark.parametrize(
    "variant, mode, depth, algorithm", [case[1:] for case in SEARCH_CASES], ids=[case[0] for case in SEARCH_CASES]
)
def test_search(benchmark, variant, mode, depth, algorithm):
    board = polychess.Board(variant, mode=mode) if mode else polychess.Board(variant)

    def search() -> polychess.SearchResult:
        return polychess.Engine(algorithm, hash_mb=16).search(board, depth=depth)

    result = benchmark(search)
    again = search()
    assert result.best_move in board.legal_moves and result.depth == depth
    assert (again.best_move, again.nodes) == (result.best_move, result.nodes)
    benchmark.extra_info["nodes"] = result.nodes
    benchmark.extra_info["nodes_per_second"] = round(result.nps)
