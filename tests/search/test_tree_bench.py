"""The tree's measures: the cutoffs a search reports and the bench's tree table (polychess bench)."""

from __future__ import annotations

from polychess import Board, Engine
from polychess.catalogue import kind_of
from polychess.protocol.bench import BENCH_POSITIONS, measure_tree, run_bench


def test_a_search_counts_its_cutoffs_and_those_of_its_first_moves():
    for variant, mode in [("standard", None), ("three-player", None), ("four-player", "teams"), ("four-player", "ffa")]:
        result = Engine(hash_mb=1).search(Board(variant, mode=mode), depth=4)
        assert 0 < result.first_move_cutoffs <= result.cutoffs
        assert result.first_move_cutoff_rate == result.first_move_cutoffs / result.cutoffs
    empty = Engine(hash_mb=1).search(Board("standard"), depth=1)  # the root alone: no cutoff
    assert empty.cutoffs == empty.first_move_cutoffs == 0 and empty.first_move_cutoff_rate == 0.0


def test_the_tree_table_counts_the_nodes_of_the_bench():
    kind = kind_of("four-player", "teams")
    tree = measure_tree(kind, seconds=0.01, depth=3)
    signature = int(list(run_bench(kind, 3))[-1].split()[0])  # "N nodes M nps"
    assert tree.nodes == signature  # fresh tables, one thread: the same searches
    assert len(tree.depths) == len(BENCH_POSITIONS["four-player-teams"]) and min(tree.depths) >= 1
    assert tree.depth == 3 and 0 < tree.first_move_cutoff_rate <= 1
