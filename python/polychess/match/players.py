"""The players of a match: baselines, our engine with settings, and external engines.

A player is called with a running :class:`polychess.Game` and returns a legal move of the
player to move (it does not push it; the runner does). It may read the game's clock.

* :class:`RandomPlayer`: a uniformly random legal move.
* :class:`GreedyPlayer`: the capture of the most valuable piece (pawn 1, knight 3, bishop 3,
  rook 5, queen 9, king above all), ties broken at random, else a random move.
* :class:`EnginePlayer`: :class:`polychess.Engine` with a node, depth or time budget per move,
  or on the game's clock (:func:`polychess.protocol.timeman.think_time`).
* :class:`UciPlayer`: an engine program, through :class:`polychess.protocol.client.UciEngine`.

:func:`parse_player` reads a specification (``random``, ``greedy``,
``engine:nodes=2000,algo=brs``, ``uci:/path/to/engine,time=0.2,dialect=titan``) into a
:class:`PlayerSpec`, whose ``make(rng)`` builds a fresh player for one seat of one game.
"""

from __future__ import annotations

import random
import shlex
from dataclasses import dataclass, field

from polychess.board import Board, Move, PieceType
from polychess.engine import ALGORITHMS, Engine, SearchResult
from polychess.game import Game
from polychess.protocol.client import DIALECTS, UciEngine
from polychess.protocol.timeman import IterationStop, think_time
from polychess.strength import level_for_elo, level_of

__all__ = [
    "PIECE_VALUES",
    "EnginePlayer",
    "GreedyPlayer",
    "Player",
    "PlayerSpec",
    "RandomPlayer",
    "UciPlayer",
    "capture_value",
    "parse_player",
]

# The greedy player's piece values. A king capture (legal in three-player chess, docs/rules.md §1.6)
# beats every other capture.
PIECE_VALUES: dict[PieceType, int] = {
    PieceType.PAWN: 1,
    PieceType.KNIGHT: 3,
    PieceType.BISHOP: 3,
    PieceType.ROOK: 5,
    PieceType.QUEEN: 9,
    PieceType.ONE_POINT_QUEEN: 9,  # four-player free-for-all's promoted queen moves as a queen
    PieceType.KING: 1000,
}


class Player:
    """A seat's player: called for every move of its seat; ``close`` frees what it holds."""

    nodes_searched = 0
    # The depth of the search behind the last move, where the player searches and says so.
    last_depth: int | None = None

    def __call__(self, game: Game) -> Move:
        raise NotImplementedError

    def close(self) -> None:
        """Frees the player's resources (an engine's process); called once the game is over."""


class RandomPlayer(Player):
    """A uniformly random legal move."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, game: Game) -> Move:
        moves = list(game.legal_moves)
        if not moves:
            raise ValueError("no legal move")
        return self.rng.choice(moves)


def _en_passant_cells(board: Board) -> set[str]:
    """The en-passant cells of the position (field 4 of every variant's position string),
    upper-cased."""
    fields = board.fen().split(" ")
    if len(fields) < 4 or fields[3] == "-":
        return set()
    return {cell.upper() for cell in fields[3].split(",") if cell}


def capture_value(board: Board, move: Move, en_passant: set[str] | None = None) -> int | None:
    """The value of the piece ``move`` captures on ``board`` (the position before the move),
    or None if it captures nothing. En passant counts as the capture of a pawn."""
    target = board.piece_at(move.to_cell)
    mover = board.turn
    if target is not None:
        if board.controller(target.colour) == mover:
            return None  # own piece on the target cell: castling written as king takes rook
        return PIECE_VALUES[target.piece_type]
    moving = board.piece_at(move.from_cell)
    if moving is None or moving.piece_type is not PieceType.PAWN:
        return None
    if en_passant is None:
        en_passant = _en_passant_cells(board)
    if move.to_cell.upper() not in en_passant:
        return None
    # A pawn onto an en-passant cell: make sure it really takes something (on the four-player
    # cross another army's pawn can step onto that cell without capturing).
    after = board.copy()
    before = len(board.pieces())
    after.push(move)
    return PIECE_VALUES[PieceType.PAWN] if len(after.pieces()) < before else None


class GreedyPlayer(RandomPlayer):
    """The capture of the most valuable piece (ties broken at random), else a random move."""

    def __call__(self, game: Game) -> Move:
        moves = list(game.legal_moves)
        if not moves:
            raise ValueError("no legal move")
        board = game.board
        en_passant = _en_passant_cells(board)
        best: list[Move] = []
        best_value = 0
        for move in moves:
            value = capture_value(board, move, en_passant)
            if value is None:
                continue
            if value > best_value:
                best, best_value = [move], value
            elif value == best_value:
                best.append(move)
        return self.rng.choice(best if best else moves)


class EnginePlayer(Player):
    """Our engine's best move under a budget per move (nodes, depth, time), or on the game's
    clock when the game has one and no time per move is set; keeps its own transposition
    table, so one instance should play one seat of one game. Counts the nodes it searched.
    ``level``/``elo``/``seed`` weaken it (:mod:`polychess.strength`)."""

    def __init__(
        self,
        nodes: int | None = None,
        depth: int | None = None,
        time: float | None = None,
        hash_mb: int = 16,
        algorithm: str | None = None,
        threads: int = 1,
        *,
        level: int | None = None,
        elo: float | None = None,
        seed: int | None = None,
    ) -> None:
        self.nodes = nodes
        self.depth = depth
        self.time = time
        self.engine = Engine(algorithm, hash_mb=hash_mb, threads=threads, level=level, elo=elo, seed=seed)
        self.nodes_searched = 0
        self.searches = 0

    def __call__(self, game: Game) -> Move:
        seconds, iteration_stop = self.time, None
        if seconds is None and game.clock is not None:
            budget = think_time(max(0.0, game.clock.remaining_now(game.turn)), game.clock.increment)
            seconds, iteration_stop = budget.hard, IterationStop(budget)
        if seconds is None and self.nodes is None and self.depth is None:
            raise ValueError("an engine player needs a budget (nodes, depth or time) or a clock")

        def stop_after_iteration(result: SearchResult) -> None:
            if iteration_stop is not None and iteration_stop(result.seconds, result.best_move, result.score):
                self.engine.stop()

        result = self.engine.search(game, depth=self.depth, nodes=self.nodes, time=seconds, info=stop_after_iteration)
        self.nodes_searched += result.nodes
        self.last_depth = result.depth
        self.searches += 1
        if result.best_move is None:
            raise ValueError("the engine found no move")
        return result.best_move


class UciPlayer(Player):
    """An engine program; started at its first move, so that a player can be made where it
    will not play (and sent to another process). Counts the nodes the engine reports."""

    def __init__(
        self,
        command: str,
        *,
        time: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        dialect: str = "auto",
        options: dict[str, str] | None = None,
    ) -> None:
        self.command, self.time, self.depth, self.nodes = command, time, depth, nodes
        self.dialect, self.options = dialect, dict(options or {})
        self._engine: UciEngine | None = None
        self.nodes_searched = 0

    def __call__(self, game: Game) -> Move:
        if self._engine is None:
            self._engine = UciEngine(
                self.command,
                variant=game.variant,
                mode=game.mode,
                setup=game.setup,
                dialect=self.dialect,
                options=self.options,
            )
            self._engine.new_game()
        clocks = increments = None
        if self.time is None and game.clock is not None:
            clock = game.clock
            clocks = {
                c: clock.remaining_now(c) if c == game.turn else clock.remaining[c] for c in game.active_players()
            }
            increments = {c: clock.increment for c in clocks}
        if clocks is None and self.time is None and self.depth is None and self.nodes is None:
            raise ValueError("an engine player needs a budget (nodes, depth or time) or a clock")
        reply = self._engine.best_move(
            game, time=self.time, depth=self.depth, nodes=self.nodes, clocks=clocks, increments=increments
        )
        last = reply.last
        if last is not None and last.nodes is not None:
            self.nodes_searched += last.nodes
        self.last_depth = None if last is None else last.depth
        if reply.move is None:
            raise ValueError(f"the engine gave no move ({reply.completed or reply.text})")
        return reply.move

    def close(self) -> None:
        if self._engine is not None:
            self._engine.close()
            self._engine = None


@dataclass(frozen=True)
class PlayerSpec:
    """A player configuration, e.g. ``engine:nodes=2000``: ``make`` builds a fresh player."""

    text: str
    kind: str  # "random", "greedy", "engine" or "uci"
    options: dict[str, float] = field(default_factory=dict)
    algorithm: str | None = None
    command: str = ""  # uci: the engine's command line
    dialect: str = "auto"
    engine_options: dict[str, str] = field(default_factory=dict)  # uci: setoption name/value

    @property
    def deterministic(self) -> bool:
        """Whether the player's moves depend only on the position and its history (a time
        budget, a clock or helper threads make them depend on timing)."""
        return self.kind == "engine" and "time" not in self.options and self.options.get("threads", 1) == 1

    def make(self, rng: random.Random) -> Player:
        if self.kind == "random":
            return RandomPlayer(rng)
        if self.kind == "greedy":
            return GreedyPlayer(rng)
        nodes = self.options.get("nodes")
        depth = self.options.get("depth")
        time = self.options.get("time")
        whole = {"nodes": None if nodes is None else int(nodes), "depth": None if depth is None else int(depth)}
        if self.kind == "uci":
            return UciPlayer(self.command, time=time, dialect=self.dialect, options=self.engine_options, **whole)
        level = self.options.get("level")
        return EnginePlayer(
            time=time,
            hash_mb=int(self.options.get("hash", 16)),
            algorithm=self.algorithm,
            threads=int(self.options.get("threads", 1)),
            level=None if level is None else int(level),
            elo=self.options.get("elo"),
            seed=rng.getrandbits(64),
            **whole,
        )


_ENGINE_OPTIONS = {"nodes": int, "depth": int, "time": float, "hash": int, "threads": int, "level": int, "elo": float}
_UCI_OPTIONS = {"nodes": int, "depth": int, "time": float}


def parse_player(text: str) -> PlayerSpec:
    """A player from its specification:

    - ``random`` or ``greedy``;
    - ``engine[:KEY=VALUE,...]`` with ``nodes``, ``depth``, ``time`` (seconds per move; without
      any, the game's clock), ``hash`` (MB, default 16), ``threads`` (default 1), ``algo``
      (``brs``, ``paranoid`` or ``maxn``; the engine's default if absent) and ``level`` or
      ``elo`` (a strength level, :mod:`polychess.strength`);
    - ``uci:COMMAND[,KEY=VALUE,...]``: an engine program (COMMAND may hold arguments, not
      commas) with ``nodes``, ``depth``, ``time``, ``dialect`` (``auto``, ``uci``, ``titan``...)
      and ``option.NAME=VALUE`` for its UCI options.

    Time budgets and clocks make a match depend on timing: not reproducible game for game."""
    name, _, rest = text.strip().partition(":")
    name = name.lower()
    if name in ("random", "greedy"):
        if rest:
            raise ValueError(f"{name} takes no options: {text!r}")
        return PlayerSpec(text, name)
    if name == "uci":
        return _parse_uci(text, rest)
    if name != "engine":
        raise ValueError(f"unknown player {text!r} (random, greedy, engine:KEY=VALUE,... or uci:COMMAND)")
    options: dict[str, float] = {}
    algorithm = None
    for key, value, item in _settings(rest):
        if key == "algo":
            if value not in ALGORITHMS:
                raise ValueError(f"bad algorithm in {item!r} ({', '.join(ALGORITHMS)})")
            algorithm = value
            continue
        if key not in _ENGINE_OPTIONS:
            raise ValueError(
                f"bad engine option {item!r} in {text!r} (nodes=, depth=, time=, hash=, threads=, algo=, level=, elo=)"
            )
        options[key] = _number(key, value, item, _ENGINE_OPTIONS[key])
    if "level" in options and "elo" in options:
        raise ValueError(f"give an engine a level or an elo, not both: {text!r}")
    if "level" in options:
        level_of(int(options["level"]))
    if "elo" in options:
        level_for_elo(options["elo"])
    return PlayerSpec(text, "engine", options, algorithm)


def _parse_uci(text: str, rest: str) -> PlayerSpec:
    command, *settings = rest.split(",")
    if not command.strip() or not shlex.split(command):
        raise ValueError(f"uci: needs the engine's command, e.g. uci:/path/to/engine (got {text!r})")
    options: dict[str, float] = {}
    engine_options: dict[str, str] = {}
    dialect = "auto"
    for key, value, item in _settings(",".join(settings), lower=False):
        if key.lower().startswith("option."):
            engine_options[key[len("option.") :]] = value
        elif key.lower() == "dialect":
            if value not in ("auto", *DIALECTS):
                raise ValueError(f"bad dialect in {item!r} (auto, {', '.join(DIALECTS)})")
            dialect = value
        elif key.lower() in _UCI_OPTIONS:
            options[key.lower()] = _number(key.lower(), value, item, _UCI_OPTIONS[key.lower()])
        else:
            raise ValueError(f"bad uci setting {item!r} in {text!r} (nodes=, depth=, time=, dialect=, option.NAME=)")
    return PlayerSpec(text, "uci", options, command=command.strip(), dialect=dialect, engine_options=engine_options)


def _settings(text: str, lower: bool = True) -> list[tuple[str, str, str]]:
    found = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bad setting {item!r} (expected KEY=VALUE)")
        found.append((key.strip().lower() if lower else key.strip(), value.strip(), item))
    return found


def _number(key: str, value: str, item: str, kind: type[int] | type[float]) -> float:
    try:
        number = kind(value)
    except ValueError:
        raise ValueError(f"bad value in {item!r}") from None
    if key == "hash" and number < 0 or key != "hash" and number <= 0:
        raise ValueError(f"bad value in {item!r}")
    return number
