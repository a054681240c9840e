"""``polychess selfplay``: the engine against itself, N games, with a summary per seat.

Every seat has its own engine with the same budget. With a node or depth budget the engine
is deterministic, so each game starts with a few random moves (``--opening-plies``, seeded by
``--seed``) to make the games differ. A game that reaches ``--max-plies`` is stopped and
counted as unfinished (its record ends in ``*``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from polychess.board import Colour
from polychess.cli.common import (
    EngineSpec,
    add_budget_options,
    add_game_options,
    budget_from_args,
    game_from_args,
    positive_int,
)
from polychess.cli.status_line import StatusLine
from polychess.cli.wording import plural
from polychess.engine import Engine
from polychess.formats import write_record
from polychess.game import Game, Outcome

__all__ = ["Summary", "add_parser", "play_game"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "selfplay",
        help="engine against engine, N games, with a summary",
        description="Play the engine against itself, N games, and sum up the results per "
        "seat. Every seat has its own engine with the same budget. Each game "
        "starts with a few random moves (--opening-plies, seeded by --seed), "
        "as a node or depth budget would otherwise play the same game every "
        "time. A game that reaches --max-plies is stopped and counted as "
        "unfinished.",
    )
    parser.add_argument("--games", type=positive_int, default=2, metavar="N", help="how many games (default 2)")
    add_game_options(parser, clock=False)
    add_budget_options(parser)
    parser.add_argument("--out", metavar="DIR", help="write one game record per game into DIR")
    parser.add_argument(
        "--max-plies",
        type=positive_int,
        default=1000,
        metavar="PLIES",
        help="stop a game after this many moves (default 1000)",
    )
    parser.add_argument(
        "--opening-plies", type=int, default=2, metavar="N", help="random moves at the start of each game (default 2)"
    )
    parser.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the random openings (default 1)")
    parser.set_defaults(run=run)


@dataclass
class Summary:
    """Results per seat over the finished games."""

    seats: tuple[Colour, ...]
    sides: tuple[tuple[Colour, ...], ...] = ()  # partners together (teams); empty: each seat alone
    finished: int = 0
    unfinished: int = 0
    places: dict[Colour, Counter[int]] = field(default_factory=dict)
    scores: dict[Colour, float] = field(default_factory=dict)
    points: dict[Colour, int] = field(default_factory=dict)
    terminations: Counter[str] = field(default_factory=Counter)

    def add(self, outcome: Outcome | None) -> None:
        if outcome is None:
            self.unfinished += 1
            return
        self.finished += 1
        self.terminations[outcome.termination.value] += 1
        for seat in self.seats:
            self.places.setdefault(seat, Counter())[outcome.places[seat]] += 1
            self.scores[seat] = self.scores.get(seat, 0.0) + self._score(seat, outcome.places)
            if outcome.points is not None:
                self.points[seat] = self.points.get(seat, 0) + outcome.points[seat]

    def _score(self, seat: Colour, places: dict[Colour, int]) -> float:
        """+1 ahead of every opponent, -1 behind every one, 0 level (a partner is no opponent:
        a teams win is +1 for both partners, not +1 and -0.33 for the losers)."""
        own = next((side for side in self.sides if seat in side), (seat,))
        opponents = [other for other in self.seats if other not in own]
        if not opponents:
            return 0.0
        return sum((places[o] > places[seat]) - (places[o] < places[seat]) for o in opponents) / len(opponents)

    def table(self) -> str:
        n = len(self.seats)
        header = f"{'seat':<8}" + "".join(f"{_ordinal(p):>6}" for p in range(1, n + 1))
        header += f"{'avg place':>11}{'score':>8}"
        if self.points:
            header += f"{'points':>8}"
        lines = [header]
        for seat in self.seats:
            counts = self.places.get(seat, Counter())
            games = max(1, self.finished)
            average = sum(place * k for place, k in counts.items()) / games
            line = f"{seat.value:<8}" + "".join(f"{counts[p]:>6}" for p in range(1, n + 1))
            line += f"{average:>11.2f}{self.scores.get(seat, 0.0) / games:>+8.2f}"
            if self.points:
                line += f"{self.points.get(seat, 0) / games:>8.1f}"
            lines.append(line)
        ends = ", ".join(f"{name} {count}" for name, count in self.terminations.most_common())
        lines.append(f"finished {self.finished}, unfinished {self.unfinished}" + (f"; {ends}" if ends else ""))
        lines.append("(score: +1 ahead of every opponent ... -1 behind every one, averaged; places of finished games)")
        return "\n".join(lines)


def _ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


class _Progress:
    """A plain-text progress bar on stderr: redrawn in place on a terminal (also during a
    game, with its ply), one line per finished game otherwise, so that logs stay readable."""

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.line = StatusLine(stream)
        self.live = self.line.live
        self._last = 0.0

    def _bar(self, done: int) -> str:
        width = 24
        filled = width * done // self.total
        bar = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{plural(self.total, 'game')}"
        return bar + self.line.timing(done, self.total)

    def ply(self, done: int, ply: int) -> None:
        now = time.monotonic()
        if self.live and now - self._last > 0.1:
            self._last = now
            self.line.show(f"{self._bar(done)}; game {done + 1} at ply {ply}")

    def game(self, done: int) -> None:
        if self.live:
            self.line.show(self._bar(done))
        else:
            self.stream.write(self._bar(done) + "\n")
            self.stream.flush()

    def clear(self) -> None:
        """Wipes the bar so that a line printed to stdout does not land behind it."""
        self.line.clear()


def play_game(
    game: Game,
    engines: dict[Colour, Engine],
    spec: EngineSpec,
    rng: random.Random,
    opening_plies: int,
    max_plies: int,
    progress: _Progress | None = None,
    done: int = 0,
) -> Game:
    """Plays one game: random opening moves, then the engines, until the end or the cap."""
    for _ in range(opening_plies):
        if game.is_over() or game.ply >= max_plies:
            break
        game.push(rng.choice(sorted(game.legal_moves, key=str)))
    while not game.is_over() and game.ply < max_plies:
        result = spec.search(engines[game.turn], game)
        game.push(result.best_move if result.best_move is not None else next(iter(game.legal_moves)))
        if progress is not None:
            progress.ply(done, game.ply)
    return game


def run(args: argparse.Namespace) -> int:
    spec = budget_from_args(args)
    first = game_from_args(args)  # checks the options before anything runs
    out = Path(args.out) if args.out else None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    engines = {seat: spec.make() for seat in first.seats}
    summary = Summary(first.seats, first.board.kind.sides)
    progress = _Progress(args.games, sys.stderr)
    width = len(str(args.games))
    print(f"{plural(args.games, 'game')} of {first.variant}, {spec.describe()} in every seat")
    for index in range(1, args.games + 1):
        game = first if index == 1 else game_from_args(args)
        for engine in engines.values():
            engine.clear()  # every game from scratch: no knowledge carried over
        rng = random.Random(f"{args.seed}:{index}")
        play_game(game, engines, spec, rng, max(0, args.opening_plies), args.max_plies, progress, index - 1)
        outcome = game.outcome()
        summary.add(outcome)
        result = "-".join(str(outcome.places[s]) for s in game.seats) if outcome else "*"
        how = outcome.termination.value if outcome else f"stopped at {plural(args.max_plies, 'ply', 'plies')}"
        line = f"game {index:>{width}}: {result} ({how}, {plural(game.ply, 'ply', 'plies')})"
        if out is not None:
            path = out / f"game-{index:0{max(3, width)}d}.txt"
            tags = {"Event": "polychess selfplay", "Round": str(index)}
            tags.update({s.value.capitalize(): f"polychess {spec.describe()}" for s in game.seats})
            path.write_text(write_record(game, tags), encoding="utf-8")
            line += f" -> {path}"
        progress.clear()
        print(line, flush=True)
        progress.game(index)
    progress.clear()
    print(summary.table())
    return 0
