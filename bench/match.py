"""Matches between two player configurations, to measure the engine's strength.

    python bench/match.py --variant three-player --games 12 --a engine:nodes=2000 --b random

Players (see ``baselines.py``): ``random``, ``greedy`` (takes the most valuable piece it can),
``engine:nodes=N`` / ``engine:depth=N`` (optionally ``,hash=MB``; ``time=S`` works but is not
reproducible).

Every game starts from an opening of a few random plies (seeded); each opening is replayed
with every seat assignment of the variant, so both configurations play every colour equally
often:

* standard: AB, BA (seats white, black);
* three-player: AAB, ABA, BAA, BBA, BAB, ABB (seats white, red, black);
* four-player teams: ABAB, BABA (A on Red+Yellow, then on Blue+Green);
* four-player free-for-all: the six 2+2 splits AABB, ABAB, ABBA, BAAB, BABA, BBAA.

A game runs to its outcome or to the ply cap (``--max-plies``, counted from the start
position, opening included). Four-player games take the cap as the game's own move limit
(docs/rules.md §2.4: teams draw, free-for-all ranks by points); elsewhere a capped game counts as a
draw among the players still in (players already out keep their places, the last one out
placed best among them).

The score of a configuration in one game is its head-to-head share: over every pair of one
of its seats and one seat of the other configuration, 1 if its seat finished ahead, 1/2 if
they share a place, 0 if behind, averaged over the pairs. A and B's scores add up to 1 in
every game: 1 means every seat of A finished ahead of every seat of B. (The ``place``
column is the other reading, the mean over a configuration's seats of (n - place) / (n - 1):
1 for first, 0 for last; with two seats of one configuration in a three-player game it cannot
exceed 0.75, since the two seats cannot both be first.) The 95% confidence interval is the
normal approximation over games, mean ± 1.96 · s / √games. W/D/L counts games with a score
above, at and below 1/2.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import polychess
from baselines import EnginePlayer, PlayerSpec, parse_player
from polychess import Colour, Game, Move, Status, Termination

__all__ = [
    "VARIANTS",
    "GameResult",
    "MatchResult",
    "capped_places",
    "format_report",
    "head_to_head",
    "main",
    "make_openings",
    "place_scores",
    "play_game",
    "run_match",
    "seat_assignments",
]

# Command-line variant names: (Game variant, four-player mode).
VARIANTS: dict[str, tuple[str, str | None]] = {
    "three-player": ("three-player", None),
    "standard": ("standard", None),
    "four-player": ("four-player", "teams"),
    "four-player-teams": ("four-player", "teams"),
    "four-player-ffa": ("four-player", "ffa"),
}

PLY_CAP = "ply cap"


FFA_SPLITS = ("2+2", "1+3")


def seat_assignments(variant: str, mode: str | None = None, split: str = "2+2") -> list[str]:
    """Seat assignments of configurations A and B, one letter per seat in turn order
    (``Game(variant).seats``). Free-for-all splits the seats 2+2 (every arrangement) or
    1+3 (A alone on each seat in turn, against three B)."""
    if variant == "standard":
        return ["AB", "BA"]
    if variant == "three-player":
        return ["AAB", "ABA", "BAA", "BBA", "BAB", "ABB"]
    if variant == "four-player":
        if (mode or "teams") == "teams":
            return ["ABAB", "BABA"]  # seats red, blue, yellow, green: partners sit opposite
        if mode == "ffa":
            if split not in FFA_SPLITS:
                raise ValueError(f"unknown free-for-all split {split!r} ({', '.join(FFA_SPLITS)})")
            return ["".join(s) for s in sorted(set(itertools.permutations("AABB" if split == "2+2" else "ABBB")))]
    raise ValueError(f"no seat assignments for {variant} {mode or ''}".strip())


def head_to_head(places: Mapping[Colour, int], owners: Mapping[Colour, str]) -> dict[str, float]:
    """Each configuration's score in one game: over the pairs (own seat, other seat), 1 for
    a better place, 1/2 for the same, 0 for a worse one, averaged. ``owners`` maps seats to
    configuration names."""
    configs = sorted(set(owners.values()))
    scores: dict[str, float] = {}
    for config in configs:
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
    """Places when a game is stopped before its end: a draw among the players still in (frozen
    players included), who share first place; the players already out follow, the last one
    out best."""
    still_in = [p for p in game.seats if game.status(p) != Status.OUT]
    out_order: list[Colour] = []
    for e in game.eliminations:
        if game.status(e.player) == Status.OUT and e.player not in out_order:
            out_order.append(e.player)
    places = {p: 1 for p in still_in}
    for i, p in enumerate(reversed(out_order)):
        places[p] = len(still_in) + 1 + i
    return places


def _new_game(variant: str, mode: str | None, max_plies: int | None = None) -> Game:
    """A game of the variant; four-player chess has a move limit in its rules, which the
    ply cap becomes."""
    if variant == "four-player":
        return Game(variant, mode=mode, move_limit=max_plies)
    return Game(variant, mode=mode) if mode else Game(variant)


def make_openings(variant: str, mode: str | None, count: int, plies: int, seed: int) -> list[list[str]]:
    """``count`` openings of ``plies`` random moves each (as move text), none of which ends the
    game; the same seed gives the same openings."""
    rng = random.Random(f"openings/{variant}/{mode}/{seed}")
    openings: list[list[str]] = []
    while len(openings) < count:
        game = _new_game(variant, mode)
        moves: list[str] = []
        for _ in range(plies):
            if game.is_over():
                break
            move = rng.choice(list(game.legal_moves))
            game.push(move)
            moves.append(str(move))
        if not game.is_over():
            openings.append(moves)
    return openings


@dataclass
class GameResult:
    """One game of a match."""

    opening: int
    assignment: str
    termination: str  # an outcome's termination, or PLY_CAP
    plies: int
    places: dict[Colour, int]
    scores: dict[str, float]  # head-to-head, by configuration
    place_scores: dict[str, float]
    moves: dict[str, int]  # moves played by each configuration (opening excluded)
    seconds: dict[str, float]  # time spent choosing them
    nodes: dict[str, int]  # engine nodes searched
    illegal: list[str] = field(default_factory=list)  # "config colour ply: what" for each bad move
    record: list[str] = field(default_factory=list)  # the game's moves and events (Game.history)
    # (configuration out, configuration credited or "-", reason) for every player who left
    eliminations: list[tuple[str, str, str]] = field(default_factory=list)


def play_game(variant: str, mode: str | None, specs: Mapping[str, PlayerSpec], opening_index: int,
              opening: Sequence[str], assignment: str, max_plies: int, seed: int) -> GameResult:
    """Plays one game: the opening, then the players of ``assignment`` (one letter per seat)
    until the outcome or ``max_plies``. A player that returns an illegal move or raises
    resigns (and the incident is recorded)."""
    game = _new_game(variant, mode, max_plies)
    for text in opening:
        game.push(text)
    owners = dict(zip(game.seats, assignment, strict=True))
    players = {
        seat: specs[config].make(random.Random(f"{seed}/{opening_index}/{assignment}/{seat.value}"))
        for seat, config in owners.items()
    }
    moves = {c: 0 for c in specs}
    seconds = {c: 0.0 for c in specs}
    illegal: list[str] = []
    while not game.is_over() and game.ply < max_plies:
        seat = game.turn
        config = owners[seat]
        start = time.perf_counter()
        try:
            move: object = players[seat](game)
            problem = None if isinstance(move, Move) and move in game.legal_moves else f"illegal move {move}"
        except Exception as error:  # noqa: BLE001 - a crashing player forfeits, the match goes on
            problem = f"error {type(error).__name__}: {error}"
        seconds[config] += time.perf_counter() - start
        if problem is not None:
            illegal.append(f"{config} {seat.value} ply {game.ply}: {problem}")
            game.resign(seat)
            continue
        assert isinstance(move, Move)
        game.push(move)
        moves[config] += 1
    outcome = game.outcome()
    if outcome is None:
        termination, places = PLY_CAP, capped_places(game)
    else:
        termination, places = outcome.termination.value, dict(outcome.places)
    places = {p: places[p] for p in game.seats}
    nodes = {c: 0 for c in specs}
    for seat, player in players.items():
        if isinstance(player, EnginePlayer):
            nodes[owners[seat]] += player.nodes_searched
    eliminations = [(owners[e.player], "-" if e.by is None else owners[e.by], e.reason.value)
                    for e in game.eliminations]
    return GameResult(opening_index, assignment, termination, game.ply, places, head_to_head(places, owners),
                      place_scores(places, owners), moves, seconds, nodes, illegal, game.history, eliminations)


@dataclass
class MatchResult:
    variant: str
    mode: str | None
    specs: dict[str, PlayerSpec]
    seats: tuple[Colour, ...]
    assignments: list[str]
    openings: list[list[str]]
    opening_plies: int
    max_plies: int
    seed: int
    requested_games: int
    games: list[GameResult]
    wall_seconds: float
    build: str = ""

    @property
    def variant_name(self) -> str:
        return f"{self.variant} {self.mode}" if self.mode else self.variant


def run_match(variant: str, mode: str | None, a: PlayerSpec, b: PlayerSpec, games: int, *, seed: int = 1,
              max_plies: int = 300, opening_plies: int | None = None, jobs: int = 1,
              progress: bool = False, split: str = "2+2") -> MatchResult:
    """Plays ``games`` games (rounded up to a multiple of the number of seat assignments)."""
    if games < 1:
        raise ValueError("games must be at least 1")
    if max_plies < 1:
        raise ValueError("max_plies must be at least 1")
    assignments = seat_assignments(variant, mode, split)
    seats = _new_game(variant, mode).seats
    plies = 2 * len(seats) if opening_plies is None else opening_plies
    if plies < 0:
        raise ValueError("opening_plies must be at least 0")
    openings = make_openings(variant, mode, math.ceil(games / len(assignments)), plies, seed)
    specs = {"A": a, "B": b}
    tasks = [(variant, mode, specs, i, opening, assignment, max_plies, seed)
             for i, opening in enumerate(openings) for assignment in assignments]
    build = build_info()
    start = time.perf_counter()
    results: list[GameResult] = []
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_game, *task) for task in tasks]
            for future in futures:
                results.append(future.result())
                if progress:
                    _progress(results[-1], len(results), len(tasks))
    else:
        for task in tasks:
            results.append(play_game(*task))
            if progress:
                _progress(results[-1], len(results), len(tasks))
    return MatchResult(variant, mode, specs, seats, assignments, openings, plies, max_plies, seed, games, results,
                       time.perf_counter() - start, build)


def build_info() -> str:
    """Which polychess played: version, git commit of the tree (if any) and when the compiled
    core was built, since the engine's strength changes from build to build."""
    core = Path(polychess._core.__file__).resolve()
    built = datetime.fromtimestamp(core.stat().st_mtime, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = f"polychess {polychess.__version__}, core built {built}"
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                                timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return text
    return f"{text}, commit {commit}{' with uncommitted changes' if dirty else ''}"


def _progress(game: GameResult, done: int, total: int) -> None:
    places = " ".join(f"{c.value}={p}" for c, p in game.places.items())
    print(f"  game {done}/{total}: opening {game.opening} {game.assignment}: {game.termination} after "
          f"{game.plies} plies, {places}, A {game.scores['A']:.2f}", file=sys.stderr, flush=True)


def _interval(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0, 1.0
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def _counts(values: Iterator[float]) -> tuple[int, int, int]:
    wins = draws = losses = 0
    for v in values:
        if v > 0.5:
            wins += 1
        elif v < 0.5:
            losses += 1
        else:
            draws += 1
    return wins, draws, losses


def format_report(match: MatchResult) -> str:
    """The match as a table: per configuration games, score, 95% interval, place score,
    W/D/L, moves, thinking time; then terminations, capped games and incidents."""
    games = match.games
    n = len(games)
    seat_names = " ".join(c.value for c in match.seats)
    lines = [
        f"match: {match.variant_name}, A = {match.specs['A'].text}, B = {match.specs['B'].text}",
        (f"{n} games = {len(match.openings)} openings ({match.opening_plies} random plies, seed {match.seed}) "
         f"x {len(match.assignments)} seat assignments ({seat_names}: {' '.join(match.assignments)}); "
         f"ply cap {match.max_plies}"),
    ]
    if n != match.requested_games:
        lines.append(f"note: {match.requested_games} games requested, rounded up to {n} "
                     f"(a multiple of {len(match.assignments)} seat assignments)")
    lines.append("")
    width = max(len(s.text) for s in match.specs.values())
    header = (f"{'config':<{width + 3}}  games  score  95% CI          place  W/D/L       moves  time s  "
              f"ms/move  knodes")
    lines.append(header)
    for config, spec in match.specs.items():
        scores = [g.scores[config] for g in games]
        mean, low, high = _interval(scores)
        place = sum(g.place_scores[config] for g in games) / n
        wins, draws, losses = _counts(iter(scores))
        moves = sum(g.moves[config] for g in games)
        seconds = sum(g.seconds[config] for g in games)
        nodes = sum(g.nodes[config] for g in games)
        per_move = 1000.0 * seconds / moves if moves else 0.0
        wdl = f"{wins}/{draws}/{losses}"
        knodes = f"{nodes / 1000:.0f}" if spec.kind == "engine" else "-"
        lines.append(f"{config}  {spec.text:<{width}}  {n:5d}  {mean:5.3f}  [{low:5.3f}, {high:5.3f}]  {place:5.3f}  "
                     f"{wdl:<10}  {moves:5d}  {seconds:6.2f}  {per_move:7.2f}  {knodes:>6}")
    lines.append("")
    lines.append("score: head-to-head share per game (1 = every seat of the configuration ahead of every seat "
                 "of the other, 1/2 = level), mean over games;")
    lines.append("       95% CI = mean +- 1.96 s/sqrt(games); place = mean of (n - place)/(n - 1) over the "
                 "configuration's seats; W/D/L = games scored > = < 1/2")
    by_assignment = []
    for assignment in match.assignments:
        scores = [g.scores["A"] for g in games if g.assignment == assignment]
        by_assignment.append(f"{assignment} {sum(scores) / len(scores):.3f}")
    lines.append(f"A's score by seat assignment: {', '.join(by_assignment)}")
    terminations = Counter(g.termination for g in games)
    lines.append("terminations: " + ", ".join(f"{t} {c}" for t, c in terminations.most_common()))
    left = Counter(e for g in games for e in g.eliminations)
    lines.append("players out (config <- credited to, reason): "
                 + (", ".join(f"{out} <- {by} {reason} {c}" for (out, by, reason), c in left.most_common()) or "none"))
    plies = [g.plies for g in games]
    lines.append(f"game length: mean {sum(plies) / n:.0f} plies, min {min(plies)}, max {max(plies)}")
    capped = terminations.get(PLY_CAP, 0) + terminations.get(Termination.MOVE_LIMIT.value, 0)
    how = ("end at the move limit (teams draw, free-for-all ranks by points)" if match.variant == "four-player"
           else "count as a draw among the players still in")
    lines.append(f"ply cap: {capped} of {n} games reached {match.max_plies} plies and {how}")
    incidents = [f"opening {g.opening} {g.assignment}: {text}" for g in games for text in g.illegal]
    lines.append(f"illegal moves or player errors: {len(incidents)}")
    lines.extend(f"  {text}" for text in incidents)
    lines.append(f"wall time: {match.wall_seconds:.2f} s; {match.build}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Plays a match between two player configurations.")
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="three-player",
                        help="four-player means teams; or four-player-teams / four-player-ffa")
    parser.add_argument("--mode", choices=("teams", "ffa"), help="four-player mode (overrides the variant's)")
    parser.add_argument("--games", type=int, default=12,
                        help="number of games, rounded up to a multiple of the seat assignments (default 12)")
    parser.add_argument("--a", default="engine:nodes=2000", help="configuration A (default engine:nodes=2000)")
    parser.add_argument("--b", default="random", help="configuration B (default random)")
    parser.add_argument("--max-plies", type=int, default=300, help="ply cap, opening included (default 300)")
    parser.add_argument("--opening-plies", type=int, help="random plies per opening (default 2 per seat)")
    parser.add_argument("--seed", type=int, default=1, help="seed of openings and random players (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes (default 1)")
    parser.add_argument("--split", choices=FFA_SPLITS, default="2+2",
                        help="free-for-all seats: 2+2 (default) or 1+3 (A alone against three B)")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per game on stderr")
    args = parser.parse_args(argv)
    variant, mode = VARIANTS[args.variant]
    if args.mode is not None:
        if variant != "four-player":
            parser.error("--mode is for four-player chess")
        mode = args.mode
    try:
        a, b = parse_player(args.a), parse_player(args.b)
    except ValueError as error:
        parser.error(str(error))
    if args.games < 1 or args.max_plies < 1 or args.jobs < 1 or (args.opening_plies or 0) < 0:
        parser.error("--games, --max-plies and --jobs must be positive, --opening-plies not negative")
    match = run_match(variant, mode, a, b, args.games, seed=args.seed, max_plies=args.max_plies,
                      opening_plies=args.opening_plies, jobs=args.jobs, progress=args.verbose, split=args.split)
    print(format_report(match))
    return 1 if any(g.illegal for g in match.games) else 0


if __name__ == "__main__":
    sys.exit(main())
