"""Strength levels: weaker engines for people to play against, labelled in Elo.

A level below the top caps the nodes of every search and shifts every player's evaluation of
each position by a fixed pseudo-random amount of up to ``noise`` centipawns (the same offset in
every search of one engine, so that its plans hold together). Fewer nodes and more noise at
every step down make the levels weaker in every game, by construction; the top level is the
full engine.

The Elo labels are measured: ``bench/calibrate_levels.py`` plays every level against Stockfish
with ``UCI_LimitStrength`` in standard chess and writes the results into
``data/strength.json``, which this module reads. A level's label holds for standard chess; in
the other games the levels keep their order, but no engine exists to give them a scale.

>>> from polychess.strength import level_of, level_for_elo
>>> level_of(1).nodes < level_of(2).nodes
True
>>> level_for_elo(level_of(3).elo).number
3
"""

from __future__ import annotations

import itertools
import json
import numbers
import reprlib
from dataclasses import dataclass
from importlib import resources

__all__ = ["Level", "LEVELS", "MAX_LEVEL", "CALIBRATION", "level_of", "level_for_elo", "load_levels"]


@dataclass(frozen=True)
class Level:
    """One strength level: its search limits and its measured Elo."""

    number: int
    nodes: int | None  # the most nodes a search may take (None: no cap)
    noise: int  # the evaluation's offset bound, in centipawns
    elo: int | None = None  # measured in standard chess (see CALIBRATION); None: not measured
    games: int = 0  # the calibration games
    elo_interval: tuple[int | None, int | None] | None = None  # its 95% interval (None: open on that side)


def load_levels(text: str) -> tuple[str, tuple[Level, ...]]:
    """The calibration's description and the levels, from the JSON of ``data/strength.json``;
    a ValueError names what is wrong with it."""
    data = json.loads(text)
    levels: list[Level] = []
    for number, entry in enumerate(data["levels"], start=1):
        if entry["level"] != number:
            raise ValueError(f"strength levels: level {entry['level']} where {number} was expected")
        interval = entry.get("elo_interval")
        levels.append(
            Level(
                number,
                entry["nodes"],
                entry["noise"],
                entry.get("elo"),
                entry.get("games", 0),
                tuple(interval) if interval else None,
            )
        )
    for weaker, stronger in itertools.pairwise(levels):
        fewer_nodes = stronger.nodes is None or (weaker.nodes is not None and weaker.nodes < stronger.nodes)
        if not (fewer_nodes and weaker.noise > stronger.noise):
            raise ValueError(
                f"strength levels: level {weaker.number} must search fewer nodes with more noise "
                f"than level {stronger.number}"
            )
    if not levels or levels[-1].nodes is not None or levels[-1].noise != 0:
        raise ValueError("strength levels: the last level must be the full engine (no node cap, no noise)")
    return str(data["calibration"]), tuple(levels)


CALIBRATION, LEVELS = load_levels(resources.files("polychess").joinpath("data/strength.json").read_text())
MAX_LEVEL = len(LEVELS)


def level_of(number: object) -> Level:
    """Level ``number`` (1 to MAX_LEVEL), or a ValueError."""
    if isinstance(number, bool) or not isinstance(number, numbers.Integral) or not 1 <= int(number) <= MAX_LEVEL:
        raise ValueError(f"level must be a whole number from 1 to {MAX_LEVEL}, got {reprlib.repr(number)}")
    return LEVELS[int(number) - 1]


def level_for_elo(elo: object) -> Level:
    """The level whose measured Elo is nearest to ``elo``; a ValueError outside the measured
    range (an engine cannot promise a strength nobody measured)."""
    if isinstance(elo, bool) or not isinstance(elo, numbers.Real):
        raise ValueError(f"elo must be a number, got {reprlib.repr(elo)}")
    labels = {level.number: level.elo for level in LEVELS if level.elo is not None}
    if not labels:
        raise ValueError("elo: no level of this build has a measured Elo")
    lowest, highest = min(labels.values()), max(labels.values())
    if not lowest <= float(elo) <= highest:
        raise ValueError(f"elo must be between {lowest} and {highest} (the measured levels), got {reprlib.repr(elo)}")
    # The nearest label; of equal ones, the stronger level.
    number = min(labels, key=lambda n: (abs(labels[n] - float(elo)), -n))
    return LEVELS[number - 1]
