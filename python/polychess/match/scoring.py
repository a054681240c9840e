"""Who sits where, and what a finished game is worth to each configuration.

Each opening is replayed once with every seat assignment of the game, so both configurations
play every colour (every team) equally often from the same positions:

* standard: AB, BA (seats white, black);
* three-player: AAB, ABA, BAA, BBA, BAB, ABB (seats white, red, black);
* four-player teams: ABAB, BABA (A on Red+Yellow, then on Blue+Green);
* four-player free-for-all: the six 2+2 splits AABB ... BBAA, or with ``split="1+3"`` A alone
  on each seat in turn against three B.

The score of a configuration in one game is its head-to-head share: over every pair of one of
its seats and one seat of the other configuration, 1 if its seat finished ahead, 1/2 if they
share a place, 0 if behind, averaged over the pairs. A's and B's scores add up to 1 in every
game. (``place_scores`` is the other reading: the mean over a configuration's seats of
(n - place) / (n - 1), 1 for first and 0 for last.)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from polychess.board import Colour, Status
from polychess.catalogue import GameKind, kind_of
from polychess.game import Game

__all__ = ["FFA_SPLITS", "capped_places", "head_to_head", "place_scores", "seat_assignments"]

FFA_SPLITS = ("2+2", "1+3")


def seat_assignments(game: GameKind | str, mode: str | None = None, split: str = "2+2") -> list[str]:
    """Seat assignments of configurations A and B, one letter per seat in turn order
    (``Game(variant).seats``), for a game (its kind, or its variant and mode). Partners take
    the same letter; up to three sides every assignment with both letters (one B, then one A,
    moving from the last side to the first); four players alone, the ``split``."""
    kind = game if isinstance(game, GameKind) else kind_of(game, mode)
    sides = len(kind.sides)
    if sides <= 3:
        patterns = [_one_of(letter, other, sides, i) for letter, other in ("BA", "AB") for i in reversed(range(sides))]
    else:
        if split not in FFA_SPLITS:
            raise ValueError(f"unknown free-for-all split {split!r} ({', '.join(FFA_SPLITS)})")
        lone = "AABB" if split == "2+2" else "ABBB"
        patterns = ["".join(p) for p in sorted(set(itertools.permutations(lone)))]
    side_of = {seat: i for i, side in enumerate(kind.sides) for seat in side}
    seats = [side_of[colour] for colour in kind.colours]
    return list(dict.fromkeys("".join(pattern[side] for side in seats) for pattern in patterns))


def _one_of(letter: str, other: str, sides: int, at: int) -> str:
    """``other`` on every side but ``at``, which takes ``letter``."""
    return "".join(letter if i == at else other for i in range(sides))


def head_to_head(places: Mapping[Colour, int], owners: Mapping[Colour, str]) -> dict[str, float]:
    """Each configuration's score in one game (see the module's docstring). ``owners`` maps
    seats to configuration names."""
    scores: dict[str, float] = {}
    for config in sorted(set(owners.values())):
        total, pairs = 0.0, 0
        for mine, theirs in itertools.product(owners, owners):
            if owners[mine] != config or owners[theirs] == config:
                continue
            pairs += 1
            total += 1.0 if places[mine] < places[theirs] else 0.5 if places[mine] == places[theirs] else 0.0
        scores[config] = total / pairs if pairs else 0.5
    return scores


def place_scores(places: Mapping[Colour, int], owners: Mapping[Colour, str]) -> dict[str, float]:
    """Each configuration's mean over its seats of (n - place) / (n - 1)."""
    n = len(places)
    out: dict[str, float] = {}
    for config in sorted(set(owners.values())):
        seats = [s for s in owners if owners[s] == config]
        out[config] = sum((n - places[s]) / (n - 1) for s in seats) / len(seats)
    return out


def capped_places(game: Game) -> dict[Colour, int]:
    """Places when a game is stopped at the ply cap before its end: a draw among the players
    still in (frozen players included), who share first place; the players already out
    follow, the last one out best."""
    still_in = [p for p in game.seats if game.status(p) != Status.OUT]
    out_order: list[Colour] = []
    for e in game.eliminations:
        if game.status(e.player) == Status.OUT and e.player not in out_order:
            out_order.append(e.player)
    places = {p: 1 for p in still_in}
    for i, p in enumerate(reversed(out_order)):
        places[p] = len(still_in) + 1 + i
    return places
