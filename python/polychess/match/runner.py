"""A match between two player configurations, A and B: its games, played where the backend
says, streamed into an output file that a later run resumes from.

Every game is a task, one (opening, seat assignment) pair (:mod:`polychess.match.scoring`),
and depends on nothing but the match's settings and its own key: the same games and scores
come out whatever the backend, the number of workers or the order the games finish in (for
players whose moves do not depend on timing). A game runs to its outcome under the game's own
rules, or to the ply cap (``max_plies``, counted from the start position, opening included).
Four-player games take the cap as their move limit (docs/rules.md §2.4: teams draw,
free-for-all ranks by points); elsewhere a capped game is a draw among the players still in.
A player that returns an illegal move or fails resigns on the spot, and the incident is kept.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import polychess
from polychess.board import Colour
from polychess.formats.any_format import write_own
from polychess.game import Game, TimeForfeitError
from polychess.match.players import Player, PlayerSpec
from polychess.match.scoring import capped_places, head_to_head, place_scores, seat_assignments
from polychess.match.stats import Sprt
from polychess.options import option
from polychess.protocol.games import GameKind, Position

__all__ = [
    "PLY_CAP",
    "GameResult",
    "MatchConfig",
    "MatchResult",
    "Task",
    "opening_samples",
    "play_game",
    "record_text",
    "run_match",
]

PLY_CAP = "ply cap"
OUTPUT_FORMAT = "polychess-match/1"


@dataclass(frozen=True)
class Task:
    """One game of a match: an opening (by its index) with one seat assignment."""

    opening: int
    assignment: str

    @property
    def key(self) -> str:
        return f"{self.opening}:{self.assignment}"


@dataclass(frozen=True)
class MatchConfig:
    """Everything that decides a match's games."""

    kind: GameKind
    a: PlayerSpec
    b: PlayerSpec
    games: int
    openings: tuple[Position, ...]
    openings_from: str  # where they came from, for the report
    max_plies: int = 300
    time_control: float | None = None  # seconds per player, with ``increment`` per move
    increment: float = 0.0
    seed: int = 1
    split: str = "2+2"

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError("games must be at least 1")
        if self.max_plies < 1:
            raise ValueError("max_plies must be at least 1")
        if not self.openings:
            raise ValueError("a match needs at least one opening")
        for spec in (self.a, self.b):
            if (
                spec.kind in ("engine", "uci")
                and self.time_control is None
                and not {"nodes", "depth", "time"} & spec.options.keys()
            ):
                raise ValueError(f"{spec.text}: give it a budget (nodes=, depth=, time=) or the match a clock")

    @property
    def specs(self) -> dict[str, PlayerSpec]:
        return {"A": self.a, "B": self.b}

    @property
    def assignments(self) -> list[str]:
        return seat_assignments(self.kind, split=self.split)

    @property
    def openings_needed(self) -> int:
        return -(-self.games // len(self.assignments))

    def tasks(self) -> list[Task]:
        """Every game, opening by opening (so that each opening's games finish together), the
        openings used in turn and again from the first if there are fewer than needed."""
        return [Task(i, assignment) for i in range(self.openings_needed) for assignment in self.assignments]

    def opening(self, task: Task) -> Position:
        return self.openings[task.opening % len(self.openings)]

    def identity(self) -> dict[str, object]:
        """What must be the same for a run to resume another's output (not the number of games)."""
        played = "\n".join(f"{o.start} {o.points} {' '.join(o.moves)}" for o in self.openings)
        return {
            "game": self.kind.name,
            "a": self.a.text,
            "b": self.b.text,
            "openings": self.openings_from,
            "openings_crc": zlib.crc32(played.encode()),
            "max_plies": self.max_plies,
            "time_control": self.time_control,
            "increment": self.increment,
            "seed": self.seed,
            "split": self.split,
        }


@dataclass
class GameResult:
    """One game of a match, as stored in the output file (one JSON line)."""

    key: str
    opening: int
    assignment: str
    termination: str  # an outcome's termination, or PLY_CAP
    plies: int
    places: dict[str, int]  # by colour name
    scores: dict[str, float]  # head-to-head, by configuration
    place_scores: dict[str, float]
    moves: dict[str, int]  # moves played by each configuration (opening excluded)
    seconds: dict[str, float]  # time spent choosing them
    nodes: dict[str, int]  # engine nodes searched
    illegal: list[str] = field(default_factory=list)  # "config colour ply: what" for each bad move
    # (configuration out, configuration credited or "-", reason) for every player who left
    eliminations: list[tuple[str, str, str]] = field(default_factory=list)
    record: str = ""  # the game: PGN (standard), PGN4 (four-player) or polychess's record (three-player)
    # the depth each configuration's searches reached, move by move, where the player reports it
    depths: dict[str, list[int]] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> GameResult:
        data = json.loads(text)
        data["eliminations"] = [tuple(e) for e in data.get("eliminations", [])]
        return cls(**data)


def _new_game(config: MatchConfig, opening: Position) -> Game:
    options: dict[str, object] = {}
    if config.kind.variant in option("move_limit").variants:  # the game's own limit, where it has one
        options["move_limit"] = config.max_plies
    if config.time_control is not None:
        options.update(time_control=config.time_control, increment=config.increment)
    return opening.game(config.kind, **options)


def record_text(game: Game, names: Mapping[Colour, str], tags: Mapping[str, str] | None = None) -> str:
    """The game's record in its variant's format, the seats named."""
    all_tags = {c.value.capitalize(): names[c] for c in names}
    all_tags.update(tags or {})
    return write_own(game, all_tags)


def play_game(config: MatchConfig, task: Task) -> GameResult:
    """Plays one game of the match to its end (or the ply cap) and scores it."""
    game = _new_game(config, config.opening(task))
    owners = dict(zip(game.seats, task.assignment, strict=True))
    specs = config.specs
    players: dict[Colour, Player] = {
        seat: specs[letter].make(random.Random(f"{config.seed}/{task.opening}/{task.assignment}/{seat.value}"))
        for seat, letter in owners.items()
    }
    moves = {c: 0 for c in specs}
    seconds = {c: 0.0 for c in specs}
    depths: dict[str, list[int]] = {c: [] for c in specs}
    illegal: list[str] = []
    try:
        while not game.is_over() and game.ply < config.max_plies:
            seat = game.turn
            letter = owners[seat]
            start = time.perf_counter()
            move: object = None
            try:
                move = players[seat](game)
                problem = None if move in game.legal_moves else f"illegal move {move}"
            except Exception as error:  # noqa: BLE001 - a failing player forfeits, the match goes on
                problem = f"error {type(error).__name__}: {error}"
            seconds[letter] += time.perf_counter() - start
            if problem is not None:
                illegal.append(f"{letter} {seat.value} ply {game.ply}: {problem}")
                players[seat].close()
                game.resign(seat)
                continue
            try:
                game.push(move)  # type: ignore[arg-type]
            except TimeForfeitError:
                continue  # the clock ran out: the game has put him out and goes on
            moves[letter] += 1
            depth = players[seat].last_depth
            if depth is not None:
                depths[letter].append(depth)
    finally:
        for player in players.values():
            player.close()
    outcome = game.outcome()
    if outcome is None:
        termination, places = PLY_CAP, capped_places(game)
    else:
        termination, places = outcome.termination.value, dict(outcome.places)
    places = {p: places[p] for p in game.seats}
    nodes = {c: 0 for c in specs}
    for seat, player in players.items():
        nodes[owners[seat]] += player.nodes_searched
    eliminations = [
        (owners[e.player], "-" if e.by is None else owners[e.by], e.reason.value) for e in game.eliminations
    ]
    names = {seat: f"{letter}: {specs[letter].text}" for seat, letter in owners.items()}
    record = record_text(game, names, {"Event": f"polychess match, game {task.key}"})
    return GameResult(
        task.key,
        task.opening,
        task.assignment,
        termination,
        game.ply,
        {c.value: n for c, n in places.items()},
        head_to_head(places, owners),
        place_scores(places, owners),
        moves,
        seconds,
        nodes,
        illegal,
        eliminations,
        record,
        depths,
    )


@dataclass
class MatchResult:
    config: MatchConfig
    games: list[GameResult]
    wall_seconds: float
    build: str = ""
    sprt: Sprt | None = None
    resumed: int = 0  # games read back from the output file

    @property
    def decision(self) -> str | None:
        return None if self.sprt is None else self.sprt.decision(opening_samples(self.games, self.config))


def opening_samples(games: Iterable[GameResult], config: MatchConfig) -> list[float]:
    """A's mean score over the games of each opening whose games have all been played: the
    paired samples of the confidence interval and the SPRT (an opening's imbalance cancels
    out within its games)."""
    groups: dict[int, list[float]] = {}
    for g in games:
        groups.setdefault(g.opening, []).append(g.scores["A"])
    size = len(config.assignments)
    return [sum(scores) / size for _, scores in sorted(groups.items()) if len(scores) == size]


Backend = Callable[[MatchConfig, Sequence[Task]], Iterator[GameResult]]


def run_match(
    config: MatchConfig,
    backend: Backend,
    *,
    output: Path | None = None,
    resume: bool = False,
    sprt: Sprt | None = None,
    progress: Callable[[MatchResult, GameResult], None] | None = None,
) -> MatchResult:
    """Plays the match's games on ``backend`` (:mod:`polychess.match.backends`), each game
    appended to ``output`` as it finishes. With ``resume`` the games already in ``output`` (of
    a match with the same settings) are kept and not played again; a game that comes back
    twice (a retried task) counts once. With ``sprt`` the match stops once it is decided."""
    start = time.perf_counter()
    done: dict[str, GameResult] = {}
    if output is not None and resume and output.exists():
        done = _read_output(output, config)
    elif output is not None:
        output.write_text(json.dumps({"format": OUTPUT_FORMAT, "match": config.identity()}) + "\n", encoding="utf-8")
    match = MatchResult(config, list(done.values()), 0.0, build_info(), sprt, resumed=len(done))
    todo = [t for t in config.tasks() if t.key not in done]
    if todo and match.decision is None:
        results = backend(config, todo)
        try:
            for result in results:
                if result.key in done:
                    continue
                done[result.key] = result
                match.games.append(result)
                if output is not None:
                    with output.open("a", encoding="utf-8") as stream:
                        stream.write(result.to_json() + "\n")
                if progress is not None:
                    progress(match, result)
                if match.decision is not None:
                    break
        finally:
            close = getattr(results, "close", None)
            if close is not None:
                close()  # a backend stopped early cancels the games still running
    order = {t.key: i for i, t in enumerate(config.tasks())}
    match.games.sort(key=lambda g: order.get(g.key, len(order)))
    match.wall_seconds = time.perf_counter() - start
    return match


def _read_output(path: Path, config: MatchConfig) -> dict[str, GameResult]:
    """The games in a match's output file. A run killed while writing a game leaves a last line
    without its newline: that torn line is cut off the file (its game is played again), so that
    the games appended next start on a line of their own. The file is changed only once it is
    known to hold this match."""
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]  # every line that got its newline
    lines = complete.decode("utf-8", errors="replace").splitlines()
    try:
        header = json.loads(lines[0]) if lines else {}
    except json.JSONDecodeError:
        header = {}
    if not isinstance(header, dict) or header.get("format") != OUTPUT_FORMAT:
        raise ValueError(f"{path} is not the output of a polychess match")
    if header.get("match") != json.loads(json.dumps(config.identity())):
        raise ValueError(
            f"{path} holds a match with other settings ({header.get('match')}); "
            f"resume only the same match, or write another file"
        )
    done: dict[str, GameResult] = {}
    keys = {t.key for t in config.tasks()}
    for number, line in enumerate(lines[1:], 2):
        try:
            result = GameResult.from_json(line)
        except (json.JSONDecodeError, TypeError, KeyError, AttributeError):
            raise ValueError(f"{path}, line {number}: not a game of a polychess match") from None
        if result.key in keys:
            done.setdefault(result.key, result)
    if len(complete) < len(data):
        os.truncate(path, len(complete))
    return done


def build_info() -> str:
    """Which polychess played: version, git commit of the tree (if any) and when the compiled
    core was built, since the engine's strength changes from build to build."""
    core = Path(polychess._core.__file__).resolve()
    built = datetime.fromtimestamp(core.stat().st_mtime, timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    text = f"polychess {polychess.__version__}, core built {built}"
    root = Path(polychess.__file__).resolve().parent.parent.parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return text
    return f"{text}, commit {commit}{' with uncommitted changes' if dirty else ''}"
