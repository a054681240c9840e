"""Reads the perft data files in tests/data (id | position | depth nodes ...)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"


def perft_cases(filename: str) -> list[tuple[str, str, int, int]]:
    cases = []
    for line in (DATA / filename).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        ident, position, counts = (part.strip() for part in line.split("|"))
        numbers = [int(n) for n in counts.split()]
        for depth, nodes in zip(numbers[::2], numbers[1::2], strict=True):
            cases.append((ident, position, depth, nodes))
    return cases
