"""The search engine: iterative-deepening alpha-beta in C++, for every variant.

>>> import polychess
>>> engine = polychess.Engine(hash_mb=16)
>>> result = engine.search(polychess.Board("standard", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), depth=3)
>>> str(result.best_move), result.mate_in
('a1a8', 1)
"""

from __future__ import annotations

import atexit
import math
import numbers
import os
import random
import reprlib
import threading
import time as _time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from polychess import _core
from polychess.board import Board, Colour, Move
from polychess.game import Game
from polychess.nnue import Network, shipped_network
from polychess.outlook import Outlook, model_for
from polychess.strength import MAX_LEVEL, Level, level_for_elo, level_of

__all__ = [
    "Engine",
    "SearchResult",
    "SearchLine",
    "ALGORITHMS",
    "default_algorithm",
    "max_hash_mb",
    "stop_all_searches",
]

# The algorithms for the multi-player games (three-player, four-player free-for-all):
# "brs" (best-reply search: the opponents' turns collapse into the one reply worst for the
# root player), "paranoid" (every opponent minimises the root player's score) and "maxn"
# (every player maximises his own score). Where two sides alternate (standard, four-player
# teams) every choice is the same alpha-beta minimax.
ALGORITHMS = ("brs", "paranoid", "maxn")


def default_algorithm(board: Board) -> str:
    """The algorithm an engine created without one uses for this board's game: the game's own,
    decided by the core (the strongest in our matches at equal time, bench/README.md:
    best-reply search in three-player chess, paranoid search in free-for-all)."""
    return board.kind.default_algorithm


def _mate_in(score: int, round_plies: int, mate_moves: int) -> int | None:
    """The moves of the side to move until a found end of the game (negative: until he loses),
    counting his own moves as UCI's ``score mate`` does, where ``score`` is ``MATE`` less the plies
    to that end and a round of the search's turns takes ``round_plies``; else his moves until the
    mate of an opponent his principal line ends in (``mate_moves``), or None."""
    if abs(score) >= _core.MATE - 1000:
        plies, rounds = _core.MATE - abs(score), max(1, round_plies)
        # Winning, his last move is the one that ends it; losing, he has moved in every round before.
        return plies // rounds + 1 if score > 0 else -math.ceil(plies / rounds)
    return mate_moves if mate_moves >= 0 else None


def _round_plies(board: Board, algorithm: str) -> int:
    """The plies from one move of the player to move to his next in the search's tree: best-reply
    search lets one opponent answer for all (two plies), the other searches play every player in."""
    if algorithm == "brs" and len(board.kind.sides) > 2:
        return 2
    return sum(board.status(colour) == _core.Status.ACTIVE for colour in board.colours) or 1


@dataclass(frozen=True)
class SearchLine:
    """One of the best lines of a search (``Engine.search(multipv=N)``): its first ``move``,
    ``score`` for the side of the player to move, the line ``pv``, and ``scores``, every
    player's evaluation at its end, as in :class:`SearchResult`."""

    move: Move
    score: int
    scores: dict[Colour, int]
    pv: list[Move]
    mate_moves: int = -1
    outlook: Outlook | None = None
    round_plies: int = 2  # as in SearchResult

    @property
    def mate_in(self) -> int | None:
        """As :attr:`SearchResult.mate_in`, for this line."""
        return _mate_in(self.score, self.round_plies, self.mate_moves)


@dataclass(frozen=True)
class SearchResult:
    """What a search found.

    ``score`` is for the side of the player to move, in centipawns; a won game scores
    ``MATE - plies`` (see ``mate_in``). ``scores`` holds the evaluation of every player's
    pieces at the end of the principal variation ``pv``. A best-reply search's line lets one
    opponent answer for all, skipping the others' turns; ``pv`` stops before the first skip,
    so it can always be played on the board.
    """

    best_move: Move | None
    score: int
    scores: dict[Colour, int]
    depth: int
    nodes: int
    seconds: float
    pv: list[Move]
    mate_moves: int = -1  # the root player's moves in a principal line ending in his mate
    seldepth: int = 0  # the deepest ply the last iteration reached, quiescence included
    # The alpha-beta search's cutoffs (quiescence not counted) and those the first move gave.
    cutoffs: int = 0
    first_move_cutoffs: int = 0
    # The best lines of the last completed iteration, best first (``multipv`` of them, fewer
    # where fewer moves may be played); the first is the one above.
    lines: list[SearchLine] = field(default_factory=list)
    # What ``score`` means for the side to move: pawns of the game, the chances of winning,
    # drawing and losing, the expected place (polychess.outlook). None where nothing was searched.
    outlook: Outlook | None = None
    # The plies of the search's tree from one move of the player to move to his next (2 where two
    # players alternate or best-reply search answers for the opponents): what counts mate_in's moves.
    round_plies: int = 2

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def first_move_cutoff_rate(self) -> float:
        """The share of the cutoffs that the first move searched gave: how well the moves are
        ordered (two-sided engines reach 0.9); 0 with no cutoff."""
        return self.first_move_cutoffs / self.cutoffs if self.cutoffs else 0.0

    @property
    def mate_in(self) -> int | None:
        """Moves of the root player until the mate he delivers (negative: until he is mated
        or the game is lost), counting his own moves; None if no mate was found. In the
        multi-player games a mate eliminates one opponent and the game goes on, so this also
        counts a principal variation that ends in the root player's mate of an opponent."""
        return _mate_in(self.score, self.round_plies, self.mate_moves)


class Engine:
    """A searcher with its own transposition table.

    ``hash_mb`` sets the table size (0 turns it off; at most :func:`max_hash_mb`, half of
    the machine's memory). ``algorithm`` is one of
    :data:`ALGORITHMS`; ``None`` picks the default for each game searched
    (:func:`default_algorithm`). One search runs at a time per engine;
    :meth:`stop` ends it from another thread. The GIL is released while searching.

    ``evaluation`` is ``"classic"`` (the linear evaluation of :mod:`polychess.evaluation`),
    ``"network"`` (the trained network the package ships for each game searched,
    :func:`polychess.nnue.shipped_network`, and the classic evaluation for a game it ships none
    for), or a :class:`polychess.nnue.Network` (a file's: ``Network.load(path)``), which then
    evaluates every position of its game that the engine searches (another game's is refused).

    ``level`` (1 to :data:`polychess.strength.MAX_LEVEL`, the full engine and the default) or
    ``elo`` (the level whose Elo, measured against Stockfish in standard chess, is nearest)
    weakens it: see :mod:`polychess.strength`. ``seed`` fixes a weakened engine's noise
    (by default every engine draws its own).
    """

    def __init__(
        self,
        algorithm: str | None = None,
        hash_mb: int = 64,
        threads: int = 1,
        *,
        level: int | None = None,
        elo: float | None = None,
        seed: int | None = None,
        evaluation: str | Network = "classic",
    ) -> None:
        if algorithm is not None and algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r} (available: {', '.join(ALGORITHMS)})")
        if level is not None and elo is not None:
            raise ValueError("give a level or an elo, not both")
        self.algorithm = algorithm
        self.hash_mb = whole_number("hash_mb", hash_mb, 0, max_hash_mb(), why_most=" (half of this machine's memory)")
        self.threads = whole_number("threads", threads, 1, MAX_THREADS)
        self.strength = level_for_elo(elo) if elo is not None else level_of(MAX_LEVEL if level is None else level)
        self.seed = random.getrandbits(64) if seed is None else whole_number("seed", seed, 0, 2**64 - 1)
        if not (evaluation in ("classic", "network") or isinstance(evaluation, Network)):
            raise ValueError(f"unknown evaluation {evaluation!r}: 'classic', 'network' or a polychess.nnue.Network")
        self.evaluation = evaluation
        self._engine = _core.Engine(self.hash_mb)
        # A search runs from the first line of search() to its return; stop() in that span ends
        # it, even before the core has begun (the core keeps the flag until its search ends),
        # and a stop() outside it is dropped, never left for the next search.
        self._searching = False
        self._search_lock = threading.Lock()
        self._idle = threading.Condition(self._search_lock)
        _ENGINES.add(self)

    @property
    def level(self) -> int:
        """The strength level (:mod:`polychess.strength`); setting it takes effect from the next search."""
        return self.strength.number

    @level.setter
    def level(self, number: int) -> None:
        self.strength = level_of(number)

    def search(
        self,
        position: Board | Game,
        depth: int | None = None,
        nodes: int | None = None,
        time: float | None = None,
        info: Callable[[SearchResult], None] | None = None,
        *,
        multipv: int = 1,
        searchmoves: Iterable[Move | str] | None = None,
    ) -> SearchResult:
        """Searches the position (or a game's current position) for the player to move.

        Stops at ``depth`` plies, after about ``nodes`` nodes or ``time`` seconds, whichever
        comes first, or when :meth:`stop` is called; with no limit it runs until stopped.
        ``info`` is called with the result of every completed iteration.

        ``multipv`` asks for that many best lines, each with a different first move
        (``SearchResult.lines``; each line after the first is searched without the first moves
        of the lines before it, so N lines take about N times as long). ``searchmoves`` (legal
        moves, or their text) restricts the choice at the root to those moves.

        The best move is always one of the legal moves of what was passed in, or None when
        there is none. A board is searched from its position as it stands, by its game's
        declared rules (:mod:`polychess.rules`) from the first move on.
        """
        with self._search_lock:
            if self._searching:
                raise ValueError("this engine is already searching (one search at a time; stop() ends it)")
            self._searching = True
        try:
            return self._search(position, depth, nodes, time, info, multipv, searchmoves)
        finally:
            with self._search_lock:
                self._searching = False
                self._engine.allow()  # a stop that came as the search ended
                self._idle.notify_all()

    @property
    def searching(self) -> bool:
        """Whether a search is running (from another thread): :meth:`stop` now ends it."""
        return self._searching

    def _search(
        self,
        position: Board | Game,
        depth: int | None,
        nodes: int | None,
        time: float | None,
        info: Callable[[SearchResult], None] | None,
        multipv: int,
        searchmoves: Iterable[Move | str] | None,
    ) -> SearchResult:
        board = _board_of(position)
        depth, nodes, time = _search_limits(depth, nodes, time)
        multipv = whole_number("multipv", multipv, 1, MAX_MULTIPV)
        root_moves = None
        if isinstance(searchmoves, str | Move):  # one move, not its letters
            searchmoves = [searchmoves]
        if searchmoves is not None:
            root_moves = [board._legal(move) for move in searchmoves]  # IllegalMoveError names a bad one
            if not root_moves:
                raise ValueError("searchmoves is empty: give at least one legal move, or None for every move")
        nodes = _capped(nodes, self.strength)
        algorithm = self.algorithm or default_algorithm(board)
        round_plies = _round_plies(board, algorithm)
        callback = None
        if info is not None:
            callback = lambda report: info(_result(board, report, round_plies))  # noqa: E731
        if isinstance(position, Game):
            state = position.state
        elif not board.legal_moves:  # nothing to search: the rules would already have moved the turn on
            return SearchResult(
                None, 0, dict(zip(board.colours, _core.evaluate(board.core), strict=True)), 0, 0, 0.0, []
            )
        else:
            # A bare board is searched by its game's declared rules (polychess.rules) from the
            # position as it stands: the root's moves are the board's own legal moves, even where
            # the game would first have judged the position (a player already mated, a drawn
            # material balance).
            state = _core.GameState(board.core.copy(), judge_start=False)
        network = self._network_for(board)
        report = self._engine.search(
            state,
            depth,
            nodes,
            time,
            callback,
            algorithm,
            self.threads,
            self.strength.noise,
            self.seed,
            network,
            multipv,
            root_moves,
        )
        return _result(board, report, round_plies)

    def _network_for(self, board: Board) -> _core.Network | None:
        if isinstance(self.evaluation, Network):
            return self.evaluation._core
        if self.evaluation == "network":
            shipped = shipped_network(board.kind.family)
            return shipped._core if shipped is not None else None
        return None

    def play(self, game: Game, depth: int | None = None, nodes: int | None = None, time: float | None = None) -> Move:
        """Searches the game's position and plays the best move."""
        result = self.search(game, depth=depth, nodes=nodes, time=time)
        if result.best_move is None:
            raise ValueError("no legal move to play")
        return game.push(result.best_move)

    def stop(self) -> None:
        """Stops the running search, which then returns its best result so far: any time after
        :meth:`search` was called, even as it starts. With no search running it does nothing."""
        with self._search_lock:
            if self._searching:
                self._engine.stop()

    def clear(self) -> None:
        """Forgets everything in the transposition table."""
        self._engine.clear()

    def wait(self, timeout: float | None = None) -> bool:
        """Waits until no search runs (at most ``timeout`` seconds); whether none does."""
        with self._search_lock:
            return self._idle.wait_for(lambda: not self._searching, timeout)


# Every engine alive, so that the process can stop their searches before it ends.
_ENGINES: weakref.WeakSet[Engine] = weakref.WeakSet()


def stop_all_searches(timeout: float = 30.0) -> None:
    """Stops every search running in this process and waits for each to return (at most
    ``timeout`` seconds in all). Run at exit: a search left running on another thread as the
    interpreter ends would come back into a Python that is gone (a crash at Ctrl-C)."""
    engines = list(_ENGINES)
    for engine in engines:
        engine.stop()
    deadline = _time.monotonic() + timeout
    for engine in engines:
        engine.wait(max(0.0, deadline - _time.monotonic()))


atexit.register(stop_all_searches)


MAX_THREADS = 256
MAX_MULTIPV = 500  # as Stockfish's MultiPV option


def max_hash_mb() -> int:
    """The largest transposition table this machine can give: half of its memory (the
    rest is the system's and the program's), and never more than the core's cap."""
    try:
        memory_mb = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1 << 20)
    except (ValueError, OSError, AttributeError):  # no sysconf: only the core's cap applies
        return int(_core.MAX_HASH_MB)
    return int(min(memory_mb // 2, _core.MAX_HASH_MB))


def whole_number(name: str, value: object, least: int, most: int, why_most: str = "") -> int:
    """The value as an int, or a ValueError naming the argument: a whole number (not a bool)
    between ``least`` and ``most``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be a whole number, got {reprlib.repr(value)}")
    number = int(value)
    if not least <= number <= most:
        raise ValueError(f"{name} must be between {least:,} and {most:,}{why_most}, got {reprlib.repr(number)}")
    return number


def _search_limits(depth: object, nodes: object, time: object) -> tuple[int, int, float]:
    """The limits of a search as the core takes them (0: no limit), or a ValueError that
    names the bad one. ``None`` means no limit; a given limit must be positive."""
    depth_plies = 0 if depth is None else whole_number("depth", depth, 1, int(_core.MAX_DEPTH))
    node_count = 0 if nodes is None else whole_number("nodes", nodes, 1, int(_core.MAX_NODES))
    seconds = 0.0
    if time is not None:
        if isinstance(time, bool) or not isinstance(time, numbers.Real):
            raise ValueError(f"time must be a number of seconds, got {reprlib.repr(time)}")
        try:
            seconds = float(time)
        except OverflowError:
            seconds = math.inf
        if not (math.isfinite(seconds) and 0 < seconds <= _core.MAX_SECONDS):
            raise ValueError(
                f"time must be a positive, finite number of seconds (at most {_core.MAX_SECONDS:g}), "
                f"got {reprlib.repr(time)}"
            )
    return depth_plies, node_count, seconds


def _capped(nodes: int, strength: Level) -> int:
    """The node limit (0: none) within the level's cap."""
    if strength.nodes is None:
        return nodes
    return strength.nodes if nodes == 0 else min(nodes, strength.nodes)


def _board_of(position: Board | Game) -> Board:
    if isinstance(position, Game):
        if position.is_over():
            raise ValueError("the game is over")
        return position.live_board
    if isinstance(position, Board):
        return position
    raise TypeError(f"expected a Board or a Game, got {type(position).__name__}")


def _result(board: Board, report: dict[str, object], round_plies: int) -> SearchResult:
    values = report["player_values"]
    assert isinstance(values, list)
    return SearchResult(
        best_move=report["best"],  # type: ignore[arg-type]
        score=int(report["score"]),  # type: ignore[call-overload]
        scores=dict(zip(board.colours, values, strict=True)),
        depth=int(report["depth"]),  # type: ignore[call-overload]
        nodes=int(report["nodes"]),  # type: ignore[call-overload]
        seconds=float(report["seconds"]),  # type: ignore[arg-type]
        pv=list(report["pv"]),  # type: ignore[call-overload]
        mate_moves=int(report["mate_moves"]),  # type: ignore[call-overload]
        seldepth=int(report["seldepth"]),  # type: ignore[call-overload]
        cutoffs=int(report["cutoffs"]),  # type: ignore[call-overload]
        first_move_cutoffs=int(report["first_move_cutoffs"]),  # type: ignore[call-overload]
        lines=[_line(board, line, round_plies) for line in report["lines"]],  # type: ignore[attr-defined]
        outlook=_outlook(board, int(report["score"]), round_plies),  # type: ignore[call-overload]
        round_plies=round_plies,
    )


def _line(board: Board, line: dict[str, object], round_plies: int) -> SearchLine:
    values = line["player_values"]
    assert isinstance(values, list)
    return SearchLine(
        move=line["move"],  # type: ignore[arg-type]
        score=int(line["score"]),  # type: ignore[call-overload]
        scores=dict(zip(board.colours, values, strict=True)),
        pv=list(line["pv"]),  # type: ignore[call-overload]
        mate_moves=int(line["mate_moves"]),  # type: ignore[call-overload]
        outlook=_outlook(board, int(line["score"]), round_plies),  # type: ignore[call-overload]
        round_plies=round_plies,
    )


def _outlook(board: Board, score: int, round_plies: int) -> Outlook:
    """The score's outlook, with the moves to the game's end where the score is a found one."""
    return model_for(board.kind).outlook(score, _mate_in(score, round_plies, -1))
