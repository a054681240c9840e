"""Search signatures, like Stockfish's ``bench``: fixed-depth searches whose node counts and
best moves are written down in tests/data/search_signature.txt, so that any change to the
tree the search walks (move ordering, pruning, reductions, extensions, the evaluation, the
table) shows up here, in every variant and algorithm.

Each search is deterministic: one thread, a fixed table size and a fresh engine (an empty
table) per position, a depth limit and no time or node limit.

When a change to the search is intended, regenerate the file and say so in the commit:

    python tests/search/test_search_signature.py --update

It searches every line again and writes the new depth, node count and best move in place,
keeping the ids, options, positions and comments, and prints what changed.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from polychess import Board, Engine, SearchResult

DATA_FILE = Path(__file__).parents[1] / "data" / "search_signature.txt"
HASH_MB = 16
THREADS = 1
UPDATE_COMMAND = "python tests/search/test_search_signature.py --update"


@dataclass(frozen=True)
class Signature:
    """One line of the data file: id | variant mode algorithm | position | depth nodes best."""

    ident: str
    variant: str
    mode: str | None  # four-player "teams" or "ffa"; None elsewhere
    algorithm: str | None  # None: the engine's default for the game
    position: str
    depth: int
    nodes: int
    best_move: str


def read_signatures(path: Path = DATA_FILE) -> list[Signature]:
    signatures = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        ident, options, position, expected = (part.strip() for part in line.split("|"))
        variant, mode, algorithm = options.split()
        depth, nodes, best_move = expected.split()
        signatures.append(
            Signature(
                ident,
                variant,
                None if mode == "-" else mode,
                None if algorithm == "-" else algorithm,
                position,
                int(depth),
                int(nodes),
                best_move,
            )
        )
    return signatures


def search(signature: Signature, depth: int | None = None) -> SearchResult:
    """The line's search in a fresh engine: one thread, a table of HASH_MB, a depth limit."""
    board = Board(signature.variant, signature.position, mode=signature.mode)
    engine = Engine(algorithm=signature.algorithm, hash_mb=HASH_MB, threads=THREADS)
    return engine.search(board, depth=depth or signature.depth)


SIGNATURES = read_signatures()


def test_every_variant_and_algorithm_has_a_signature():
    covered = {(s.variant, s.mode, s.algorithm) for s in SIGNATURES}
    assert {
        ("standard", None, None),
        ("three-player", None, None),
        ("four-player", "teams", None),
        ("four-player", "ffa", None),
    } <= covered
    for variant, mode in (("three-player", None), ("four-player", "ffa")):
        for algorithm in ("brs", "paranoid", "maxn"):
            assert (variant, mode, algorithm) in covered, (variant, mode, algorithm)
    assert len({s.ident for s in SIGNATURES}) == len(SIGNATURES)


@pytest.mark.parametrize("signature", SIGNATURES, ids=[s.ident for s in SIGNATURES])
def test_search_signature(signature):
    result = search(signature)
    assert result.depth == signature.depth
    got = (result.nodes, str(result.best_move))
    expected = (signature.nodes, signature.best_move)
    assert got == expected, (
        f"the search's signature changed for {signature.ident} at depth {signature.depth}: "
        f"expected {expected[0]} nodes and best move {expected[1]}, got {got[0]} nodes and {got[1]}. "
        f"If the change to the search is intended, run `{UPDATE_COMMAND}` and say so in the commit."
    )


@pytest.mark.parametrize("signature", SIGNATURES, ids=[s.ident for s in SIGNATURES])
def test_a_search_repeats_exactly(signature):
    """The same search twice gives the same tree (a failure above is then a real change, not
    noise); a shallower search than the signature's keeps this cheap."""
    depth = max(1, min(signature.depth - 1, 3))
    first, second = search(signature, depth), search(signature, depth)
    assert (first.nodes, first.best_move, first.score) == (second.nodes, second.best_move, second.score)


def update(path: Path = DATA_FILE) -> int:
    """Searches every line again and writes its depth, nodes and best move in place; returns
    how many lines changed."""
    by_id = {s.ident: s for s in read_signatures(path)}
    lines, changed = [], 0
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            signature = by_id[line.split("|")[0].strip()]
            result = search(signature)
            new = f"{signature.depth} {result.nodes} {result.best_move}"
            old = f"{signature.depth} {signature.nodes} {signature.best_move}"
            if new != old:
                changed += 1
                print(f"{signature.ident}: {old} -> {new}")
            line = line.rsplit("|", 1)[0].rstrip() + " | " + new
        lines.append(line)
    path.write_text("\n".join(lines) + "\n")
    return changed


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit(f"usage: {UPDATE_COMMAND}\n(the test itself runs under pytest)")
    count = update()
    print(f"{count} signature(s) changed in {DATA_FILE}" if count else "no signature changed")
