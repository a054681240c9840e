"""Whole games from one call: random or greedy playouts in C++, without the GIL.

>>> import polychess
>>> games = polychess.playouts("three-player", games=4, seed=1)
>>> len(games), all(g.termination is not None for g in games)
(4, True)

Every rule of the game applies (the core's resolver, the same that runs :class:`~polychess.Game`),
so a playout ends as a game played through ``Game`` with the same moves would. Game ``i`` of a call
is fixed by ``(seed, i)``: the same seed gives the same games on any number of threads.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import Any

from polychess import _core
from polychess.board import Colour
from polychess.engine import whole_number
from polychess.game import Game, Termination
from polychess.options import CLOCK_OPTIONS

__all__ = ["POLICIES", "Playout", "playouts"]

POLICIES = ("random", "greedy")  # greedy: the capture of the most valuable piece, else a random move
_MAX_GAMES = 100_000_000
_MAX_THREADS = 256
# What a playout has no use for: a clock, and a next game to rotate the first player for.
_REFUSED = (*CLOCK_OPTIONS, "time_source", "rotate_first_player")


@dataclass(frozen=True)
class Playout:
    """One game played out: how it ended (None: stopped at ``max_plies``), its length in plies,
    every seat's place and points (points only where the game counts them), the per-seat
    returns of :meth:`polychess.Outcome.returns` (zeros for an unfinished game) and, if asked
    for, its moves."""

    termination: Termination | None
    plies: int
    places: dict[Colour, int] | None
    points: dict[Colour, int] | None
    returns: tuple[float, ...]
    moves: tuple[str, ...] | None = None


def playouts(
    variant: str = "three-player",
    games: int = 1,
    seed: int = 0,
    policy: str = "random",
    *,
    max_plies: int | None = None,
    record_moves: bool = False,
    threads: int = 1,
    **options: Any,
) -> list[Playout]:
    """Plays ``games`` whole games of the variant from its start (or ``start``) with the
    options of :class:`~polychess.Game` (``mode``, ``setup``, ``first_mate_wins``, ``players``,
    ``neutrality``, ``move_limit``, ``first_player``, ``start``; clocks do not apply).

    ``policy`` is ``"random"`` (a legal move drawn uniformly) or ``"greedy"`` (the capture of
    the most valuable piece, ties drawn at random, else a random move). ``max_plies`` stops a
    game early; ``record_moves`` keeps every game's moves; ``threads`` shares the games out.
    Bad arguments raise ``ValueError`` naming them.
    """
    for name in _REFUSED:
        if name in options:
            raise ValueError(f"playouts take no {name} option (playouts have no clocks)")
    count = whole_number("games", games, 0, _MAX_GAMES)
    seed_value = whole_number("seed", seed, 0, 2**64 - 1)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {reprlib.repr(policy)} (one of {', '.join(POLICIES)})")
    limit = 0 if max_plies is None else whole_number("max_plies", max_plies, 1, 2**32 - 1)
    workers = whole_number("threads", threads, 1, _MAX_THREADS)
    game = Game(variant, **options)
    colours = game.colours
    seats = [colours.index(p) for p in game.seats]
    counts_points = game.rules.ranking == "points"
    results = _core.playouts(game.live_board.core, count, seed_value, policy, limit, bool(record_moves), workers)
    out = []
    for termination, plies, places, points, returns, moves in results:
        out.append(
            Playout(
                termination=None if termination is None else Termination(termination),
                plies=plies,
                places=None if termination is None else {colours[p]: int(places[p] or 0) for p in seats},
                points={colours[p]: points[p] for p in seats} if counts_points else None,
                returns=tuple(returns[p] for p in seats),
                moves=None if moves is None else tuple(moves),
            )
        )
    return out
