"""Players for strength measurements: baselines and fixed-budget engine configurations.

A *player* is any callable ``(game) -> Move`` that returns a legal move of the player to move
in a running :class:`polychess.Game` (it must not push the move; the match runner does).

* :class:`RandomPlayer` plays a uniformly random legal move.
* :class:`GreedyPlayer` plays the capture of the most valuable piece it can take (pawn 1,
  knight 3, bishop 3, rook 5, queen 9, king above everything), ties broken at random, and a
  random move when it has no capture. It looks one ply ahead and nothing more.
* :class:`EnginePlayer` searches with :class:`polychess.Engine` under a fixed node or depth
  budget and plays the best move found.

:func:`parse_player` turns a specification such as ``random``, ``greedy``,
``engine:nodes=2000`` or ``engine:depth=2,hash=16`` into a :class:`PlayerSpec`, whose
``make(rng)`` builds a fresh player for one seat of one game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from polychess import Board, Engine, Game, Kind, Move
from polychess.engine import ALGORITHMS

__all__ = [
    "PIECE_VALUES",
    "EnginePlayer",
    "GreedyPlayer",
    "Player",
    "PlayerSpec",
    "RandomPlayer",
    "capture_value",
    "parse_player",
]

Player = Callable[[Game], Move]

# The greedy player's piece values. A king capture (legal in three-player chess, docs/rules.md §1.6)
# beats every other capture.
PIECE_VALUES: dict[Kind, int] = {
    Kind.PAWN: 1,
    Kind.KNIGHT: 3,
    Kind.BISHOP: 3,
    Kind.ROOK: 5,
    Kind.QUEEN: 9,
    Kind.ONE_POINT_QUEEN: 9,  # four-player free-for-all's promoted queen moves as a queen
    Kind.KING: 1000,
}


class RandomPlayer:
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
        return PIECE_VALUES[target.kind]
    moving = board.piece_at(move.from_cell)
    if moving is None or moving.kind is not Kind.PAWN:
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
    return PIECE_VALUES[Kind.PAWN] if len(after.pieces()) < before else None


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


class EnginePlayer:
    """The engine's best move under a fixed budget; keeps its own transposition table, so one
    instance should play one seat of one game. Counts the nodes it searched."""

    def __init__(self, nodes: int | None = None, depth: int | None = None, time: float | None = None,
                 hash_mb: int = 16, algorithm: str | None = None, threads: int = 1) -> None:
        if nodes is None and depth is None and time is None:
            raise ValueError("an engine player needs a budget: nodes, depth or time")
        self.nodes = nodes
        self.depth = depth
        self.time = time
        self.engine = Engine(algorithm, hash_mb=hash_mb, threads=threads)
        self.nodes_searched = 0
        self.searches = 0

    def __call__(self, game: Game) -> Move:
        result = self.engine.search(game, depth=self.depth, nodes=self.nodes, time=self.time)
        self.nodes_searched += result.nodes
        self.searches += 1
        if result.best_move is None:
            raise ValueError("the engine found no move")
        return result.best_move


@dataclass(frozen=True)
class PlayerSpec:
    """A player configuration, e.g. ``engine:nodes=2000``: ``make`` builds a fresh player."""

    text: str
    kind: str  # "random", "greedy" or "engine"
    options: dict[str, float] = field(default_factory=dict)
    algorithm: str | None = None

    @property
    def deterministic(self) -> bool:
        """Whether the player's moves depend only on the position and its history (a time
        budget or helper threads make them depend on timing)."""
        return self.kind == "engine" and "time" not in self.options and self.options.get("threads", 1) == 1

    def make(self, rng: random.Random) -> Player:
        if self.kind == "random":
            return RandomPlayer(rng)
        if self.kind == "greedy":
            return GreedyPlayer(rng)
        nodes = self.options.get("nodes")
        depth = self.options.get("depth")
        time = self.options.get("time")
        return EnginePlayer(nodes=None if nodes is None else int(nodes), depth=None if depth is None else int(depth),
                            time=time, hash_mb=int(self.options.get("hash", 16)), algorithm=self.algorithm,
                            threads=int(self.options.get("threads", 1)))


_ENGINE_OPTIONS = {"nodes": int, "depth": int, "time": float, "hash": int, "threads": int}


def parse_player(text: str) -> PlayerSpec:
    """``random``, ``greedy`` or ``engine:KEY=VALUE[,KEY=VALUE...]`` with keys ``nodes``,
    ``depth``, ``time`` (seconds; not reproducible), ``hash`` (MB, default 16), ``threads``
    (default 1; more is not reproducible) and ``algo`` (``brs``, ``paranoid`` or ``maxn``; the
    engine's default if absent)."""
    name, _, rest = text.strip().partition(":")
    name = name.lower()
    if name in ("random", "greedy"):
        if rest:
            raise ValueError(f"{name} takes no options: {text!r}")
        return PlayerSpec(text, name)
    if name != "engine":
        raise ValueError(f"unknown player {text!r} (random, greedy or engine:nodes=N / engine:depth=N)")
    options: dict[str, float] = {}
    algorithm = None
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if eq and key == "algo":
            if value not in ALGORITHMS:
                raise ValueError(f"bad algorithm in {item!r} ({', '.join(ALGORITHMS)})")
            algorithm = value
            continue
        if not eq or key not in _ENGINE_OPTIONS:
            raise ValueError(f"bad engine option {item!r} in {text!r} (nodes=, depth=, time=, hash=, threads=, algo=)")
        try:
            number = _ENGINE_OPTIONS[key](value)
        except ValueError:
            raise ValueError(f"bad value in {item!r}") from None
        if key == "hash" and number < 0 or key != "hash" and number <= 0:
            raise ValueError(f"bad value in {item!r}")
        options[key] = number
    if not any(k in options for k in ("nodes", "depth", "time")):
        raise ValueError(f"an engine needs a budget, e.g. engine:nodes=2000 or engine:depth=2 (got {text!r})")
    return PlayerSpec(text, "engine", options, algorithm)
