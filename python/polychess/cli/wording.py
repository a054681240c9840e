"""Wording shared by the commands' output."""

from __future__ import annotations

__all__ = ["plural"]


def plural(count: int, noun: str, plural_noun: str | None = None, *, grouped: bool = False) -> str:
    """``1 node``, ``2 nodes``, ``0 nodes``; ``plural_noun`` for irregular nouns
    (``plural(n, "ply", "plies")``); ``grouped`` writes thousands separators (``1,024 nodes``)."""
    number = f"{count:,}" if grouped else str(count)
    return f"{number} {noun if count == 1 else plural_noun or noun + 's'}"
