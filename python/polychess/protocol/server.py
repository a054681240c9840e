"""The engine side of UCI, for every game: what ``polychess uci`` runs (docs/protocol.md).

:class:`UciServer` reads one command line at a time and answers through a ``write``
function. The long commands (a search, ``bench``, ``go perft``) run on their own thread, so
that ``stop``, ``isready``, ``ponderhit`` and ``quit`` are answered meanwhile; a watchdog thread
ends a search when its time is up. Only ``go infinite`` and ``go ponder`` wait for ``stop``:
a ``go`` with no limit the server can keep gets a default one. The time comes from an
injectable ``time_source``, so that the time management can be tested with a clock the test
moves by hand.

Anything the server cannot carry out (an unknown command, a bad option value, a position that
cannot be read) is answered by one ``info string`` line saying what is wrong, of bounded
length; nothing on stdin ends the session but ``quit`` and the end of the input.
"""

from __future__ import annotations

import math
import re
import reprlib
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from polychess import __version__, _core
from polychess.board import Board, Colour, Move, StopFlag
from polychess.catalogue import kind_of
from polychess.engine import ALGORITHMS, MAX_MULTIPV, MAX_THREADS, Engine, SearchResult, max_hash_mb
from polychess.formats.fen4 import write_fen4
from polychess.game import Game, Termination
from polychess.nnue import InvalidNetworkError, Network
from polychess.protocol.bench import Bench
from polychess.protocol.games import GAME_KINDS, GameKind, PositionError, read_position
from polychess.protocol.timeman import IterationStop, TimeBudget, think_time
from polychess.strength import LEVELS, MAX_LEVEL, level_for_elo

__all__ = ["UciServer", "game_result", "serve"]

ENGINE_NAME = f"polychess {__version__}"
DEFAULT_HASH_MB = 64
DEFAULT_OVERHEAD_MS = 30
# What a go with no limit the server can keep (depth, nodes, mate, movetime, the mover's clock)
# searches for: only go infinite and go ponder wait for stop.
DEFAULT_MOVETIME_MS = 1000
_WATCH_INTERVAL = 0.002  # seconds between the watchdog's looks at the clock
# An info string quotes what it refuses; a word longer than this (no move or number is) is cut,
# and so is a line longer than the other: garbage on stdin is not echoed back in full.
_LONGEST_QUOTED_WORD = 40
_LONGEST_INFO = 500

_INTEGER_GO_PARAMETERS = ("depth", "nodes", "movetime", "movestogo", "mate", "perft")
# The least value of the integer parameters that have one (perft says its own range).
_LEAST_GO_VALUES = {"depth": 1, "nodes": 1, "mate": 1, "movetime": 0, "movestogo": 1}
# The parameters that end a search by themselves (else only the mover's clock does).
_SEARCH_LIMITS = frozenset(("depth", "nodes", "mate", "movetime"))


@dataclass
class GoCommand:
    """A ``go`` command as read: limits, clocks in seconds by colour letter, flags, and what
    was skipped (each ``'<words>': <why>``)."""

    limits: dict[str, int] = field(default_factory=dict)
    times: dict[str, float] = field(default_factory=dict)  # "w", "r", "b", ... -> seconds left
    increments: dict[str, float] = field(default_factory=dict)
    infinite: bool = False
    ponder: bool = False
    searchmoves: list[str] = field(default_factory=list)  # as written: read against the position later
    ignored: list[str] = field(default_factory=list)


def parse_go(words: Sequence[str]) -> GoCommand:
    """The parameters of ``go``. Clock values are milliseconds (``wtime``, ``rtime``,
    ``btime``, ``ytime``, ``gtime`` and their ``inc``); ``searchmoves`` takes every following
    word up to the next parameter; unknown or malformed words and values out of range are
    listed in ``ignored`` and skipped."""
    go = GoCommand()
    i = 0
    while i < len(words):
        word = words[i].lower()
        value = words[i + 1] if i + 1 < len(words) else None
        if word in ("infinite", "ponder"):
            setattr(go, word, True)
            i += 1
        elif word == "searchmoves":  # every following word up to the next parameter
            j = i + 1
            while j < len(words) and words[j].lower() not in _ALL_GO_WORDS:
                j += 1
            go.searchmoves.extend(words[i + 1 : j])
            i = j
        elif word in _INTEGER_GO_PARAMETERS or _clock_word(word):
            number = _integer(value)
            least = _LEAST_GO_VALUES.get(word)
            if number is None or least is not None and number < least:
                taken = number is not None or value is not None and value.lower() not in _ALL_GO_WORDS
                given = f"{word} {value}" if taken else word
                go.ignored.append(f"{given!r}: expected a whole number" + ("" if least is None else f" from {least}"))
                i += 2 if taken else 1
                continue
            if word in _INTEGER_GO_PARAMETERS:
                go.limits[word] = number
            elif word.endswith("time"):
                go.times[word[0]] = max(0, number) / 1000.0
            else:
                go.increments[word[0]] = max(0, number) / 1000.0
            i += 2
        else:
            go.ignored.append(f"{word!r}: not a parameter of go")
            i += 1
    return go


def _clock_word(word: str) -> bool:
    return len(word) in (4, 5) and word[0] in "wrbyg" and word[1:] in ("time", "inc")


_ALL_GO_WORDS = frozenset(
    (
        "infinite",
        "ponder",
        "searchmoves",
        *_INTEGER_GO_PARAMETERS,
        *(f"{c}{s}" for c in "wrbyg" for s in ("time", "inc")),
    )
)


def _integer(text: str | None) -> int | None:
    """The whole number written in ASCII digits (an optional sign first), or None: Python's
    int() also reads other scripts' digits (``٥``) and underscores, which no GUI sends."""
    if text is None or not re.fullmatch(r"[+-]?[0-9]+", text):
        return None
    return int(text)


def mover_clock(kind: GameKind, mover: Colour, go: GoCommand) -> tuple[float, float] | None:
    """The mover's (seconds left, increment) from the ``go`` clocks, or None if none is given
    for him. Every colour's clock is named by its initial (``wtime`` ``btime`` in standard
    chess; ``wtime`` ``rtime`` ``btime`` in three-player; ``rtime`` ``btime`` ``ytime``
    ``gtime`` in four-player). Four-player chess also takes the older per-team form
    ``wtime``/``btime`` (Red and Yellow, Blue and Green) when no other colour's clock is given."""
    letter = mover.value[0]
    if kind.board == "cross" and "w" in go.times and not {"r", "y", "g"} & go.times.keys():
        letter = "w" if mover in (Colour.RED, Colour.YELLOW) else "b"
    if letter not in go.times:
        return None
    return go.times[letter], go.increments.get(letter, 0.0)


def game_result(game: Game) -> str:
    """The game's result as ``gameresult`` prints it: ``ongoing``; standard ``white_win``,
    ``black_win`` or ``draw``; teams ``ry_win``, ``bg_win`` or ``draw``; three-player
    ``places white=1 red=2 black=3``; free-for-all ``ranking red=1 ... points red=42 ...``."""
    outcome = game.outcome()
    if outcome is None:
        return "ongoing"
    places = outcome.places
    sides = game.board.kind.sides
    if game.rules.first_out_decides and len(sides) == 2:  # one side wins: a colour, or partners by initials
        winners = outcome.winners
        if len(winners) == len(places):
            return "draw"
        side = next(s for s in sides if winners[0] in s)
        return (side[0].value if len(side) == 1 else "".join(c.value[0] for c in side)) + "_win"
    text = " ".join(f"{c.value}={places[c]}" for c in game.seats)
    if game.rules.ranking == "points":
        return f"ranking {text} points " + " ".join(f"{c.value}={n}" for c, n in game.points.items())
    return f"places {text}"


def completed_text(game: Game) -> str:
    """The words after ``info string Game completed.``, as 4pc_arena reads them in teams."""
    result = game_result(game)
    named = {
        "ry_win": "RY won.",
        "bg_win": "BG won.",
        "white_win": "White won.",
        "black_win": "Black won.",
        "draw": "Draw.",
    }
    outcome = game.outcome()
    assert outcome is not None
    return f"{named.get(result, result)} ({outcome.termination.value})"


class _Job:
    """The work of one command that runs on its own thread (a search, a bench, a perft), so
    that the command loop answers ``isready``, ``stop`` and ``quit`` meanwhile."""

    what = ""  # what it is, as messages name it ("search", "bench", "perft")

    def __init__(self) -> None:
        self.thread = threading.Thread(target=self.run, name=f"polychess {self.what}", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def run(self) -> None:
        raise NotImplementedError

    def interrupt(self) -> None:
        """Asks the work to end soon."""
        raise NotImplementedError

    @property
    def busy(self) -> bool:
        """Whether it is still working (options cannot be changed meanwhile)."""
        return self.thread.is_alive()

    def stop(self) -> None:
        """Ends the work and waits for it. An interrupt that comes just as the work starts may
        come before the core clears its stop flag: it is sent again until the work has ended."""
        while True:
            self.interrupt()
            self.thread.join(0.05)
            if not self.thread.is_alive():
                break


class _Search(_Job):
    """One running ``go``: its thread, its watchdog and what may end it."""

    what = "search"

    def __init__(
        self, server: UciServer, game: Game, go: GoCommand, searchmoves: list[Move] | None, *, drawn: bool = False
    ) -> None:
        super().__init__()
        self.server = server
        self.game = game
        self.go = go
        self.searchmoves = searchmoves
        # A game drawn by a rule while moves are left (bare kings, repetition, fifty moves): its
        # board is searched for the move to play, and its score is the draw's, printed before.
        self.drawn = drawn
        self.started = server.time_source()
        self.pondering = go.ponder
        self.hold = go.infinite or go.ponder  # bestmove waits for stop (or ponderhit)
        self.released = threading.Event()
        self.done = threading.Event()
        self.budget = None if go.infinite else server.budget(game, go)
        self.iteration_stop = IterationStop(self.budget) if self.budget is not None else None
        self.watchdog = threading.Thread(target=self.watch, name="polychess watchdog", daemon=True)

    def start(self) -> None:
        super().start()
        self.watchdog.start()

    def run(self) -> None:
        server, limits = self.server, self.go.limits
        depth = limits.get("depth")
        if "mate" in limits:  # a mate in N moves is found within N moves of every player
            depth = limits["mate"] * len(self.game.active_players())
        nodes = limits.get("nodes")
        try:
            result: SearchResult | None = server.engine.search(
                self.game.board if self.drawn else self.game,
                depth=_at_most(depth, int(_core.MAX_DEPTH)),
                nodes=_at_most(nodes, int(_core.MAX_NODES)),
                info=self.report,
                multipv=server.multipv,
                searchmoves=self.searchmoves,
            )
        except Exception as error:  # noqa: BLE001 - a GUI waits for bestmove whatever happened: it gets one
            server.info(f"search failed: {type(error).__name__}: {error}")
            result = None
        finally:
            self.done.set()  # also if writing failed (stdout closed): the watchdog and stop() then end
        if self.hold:
            self.released.wait()
        elif "movetime" in limits:  # "search exactly x mseconds": a mate found early is no reason to answer early
            self.released.wait(max(0.0, self.started + limits["movetime"] / 1000.0 - server.time_source()))
        if result is None:  # the first legal move rather than a forfeit
            first = next(iter(self.game.board.legal_moves), None)
            server.write(f"bestmove {first}" if first is not None else "bestmove (none)")
            return
        server.write(_bestmove(self.game, result))

    def report(self, result: SearchResult) -> None:
        if not self.drawn:
            for line in info_lines(result, multipv=self.server.multipv > 1, wdl=self.server.show_wdl):
                self.server.write(line)
        if self.iteration_stop is not None and not self.pondering:
            if self.iteration_stop(self.server.time_source() - self.started, result.best_move, result.score):
                self.server.engine.stop()

    def watch(self) -> None:
        while not self.done.wait(_WATCH_INTERVAL):
            if (
                self.budget is not None
                and not self.pondering
                and self.server.time_source() - self.started >= self.budget.hard
            ):
                self.server.engine.stop()
                return

    def ponderhit(self) -> None:
        """The expected move was played: the search goes on, now on the clock (started anew)."""
        self.started = self.server.time_source()
        self.pondering = False
        self.hold = False
        self.released.set()

    @property
    def busy(self) -> bool:
        return not self.done.is_set()  # a search that waits for stop to print its bestmove is done

    def interrupt(self) -> None:
        self.released.set()
        self.server.engine.stop()

    def stop(self) -> None:
        super().stop()
        if self.watchdog.ident is not None:  # (an interrupt may come between the search's start and its own)
            self.watchdog.join()


class _Bench(_Job):
    """``bench``: its searches, one after the other; ``stop`` ends the running one and skips
    the rest."""

    what = "bench"

    def __init__(self, server: UciServer, depth: int | None) -> None:
        super().__init__()
        self.server = server
        self.bench = Bench(server.kind, depth)

    def run(self) -> None:
        for line in self.bench.lines():
            self.server.write(line)

    def interrupt(self) -> None:
        self.bench.stop()


class _Perft(_Job):
    """``go perft``: the count below every legal move, or none if stopped first."""

    what = "perft"

    def __init__(self, server: UciServer, board: Board, depth: int) -> None:
        super().__init__()
        self.server = server
        self.board = board
        self.depth = depth
        self.stopped = StopFlag()

    def run(self) -> None:
        counts = self.board.divide(self.depth, stop=self.stopped)
        if self.stopped.is_set():  # the counts are partial
            self.server.info("perft stopped")
            return
        for move, count in counts.items():
            self.server.write(f"{move}: {count}")
        self.server.write("")
        self.server.write(f"Nodes searched: {sum(counts.values())}")

    def interrupt(self) -> None:
        self.stopped.set()


def _at_most(value: int | None, most: int) -> int | None:
    """A limit (None: none) as the engine takes it: at most ``most``."""
    return None if value is None else min(value, most)


_DRAWS_BY_RULE = frozenset(
    (
        Termination.THREEFOLD_REPETITION,
        Termination.FIFTY_MOVES,
        Termination.INSUFFICIENT_MATERIAL,
        Termination.AGREEMENT,
    )
)


def _drawn_by_rule(game: Game) -> bool:
    """Whether the game ended in a draw that a rule declared (not a mate or a stalemate)."""
    outcome = game.outcome()
    return outcome is not None and outcome.termination in _DRAWS_BY_RULE


def _lost(game: Game) -> bool:
    """Whether the ended game placed the player to move last, below someone."""
    outcome = game.outcome()
    if outcome is None:
        return False
    places = outcome.places
    mover = places.get(game.turn)
    return mover is not None and mover == max(places.values()) and mover > min(places.values())


def _bestmove(game: Game, result: SearchResult) -> str:
    if result.best_move is None:
        return "bestmove (none)"
    line = f"bestmove {result.best_move}"
    if len(game.kind.colours) == 2 and len(result.pv) > 1:  # the reply to ponder on is the opponent's
        line += f" ponder {result.pv[1]}"
    return line


def info_lines(result: SearchResult, *, multipv: bool = False, wdl: bool = False) -> list[str]:
    """The ``info`` lines of one finished iteration: its best line, or with ``multipv`` each of
    its lines, numbered (``multipv 1`` the best). Scores are for the side to move; with ``wdl``
    each says, in thousandths, its chances of winning, drawing and losing (polychess.outlook)."""
    lines = result.lines if multipv else result.lines[:1]
    milliseconds = int(result.seconds * 1000)
    out = []
    for number, line in enumerate(lines, 1):
        if abs(line.score) >= _core.MATE - 1000 and line.mate_in is not None:
            score = f"mate {line.mate_in}"
        else:
            score = f"cp {line.score}"
        parts = [f"info depth {result.depth} seldepth {result.seldepth}"]
        if multipv:
            parts.append(f"multipv {number}")
        parts.append(f"score {score}")
        if wdl and line.outlook is not None:
            parts.append("wdl {} {} {}".format(*line.outlook.permille()))
        parts.append(f"nodes {result.nodes} nps {int(result.nps)} time {milliseconds}")
        if line.pv:
            parts.append("pv " + " ".join(str(m) for m in line.pv))
        out.append(" ".join(parts))
    return out


@dataclass(frozen=True)
class _Option:
    """A UCI option as ``uci`` lists it."""

    name: str
    declaration: str  # "type spin default 64 min 0 max 1024", ...


class UciServer:
    """A UCI session for one game kind (``GAME_KINDS``), answering through ``write``."""

    def __init__(
        self, kind: GameKind, write: Callable[[str], None], *, time_source: Callable[[], float] = time.monotonic
    ) -> None:
        self.kind = kind
        self._write = write
        self._write_lock = threading.Lock()
        self._line = ""  # the command line being carried out, as written
        self.time_source = time_source
        self.hash_mb = DEFAULT_HASH_MB
        self.multipv = 1
        self.show_wdl = False
        self.overhead = DEFAULT_OVERHEAD_MS / 1000.0
        self.engine = Engine(hash_mb=self.hash_mb)
        # EvalFile's (docs/nnue.md): a network file's, "network" (the package's own for each game) or "classic"
        self.evaluation: Network | str = "classic"
        # Strength, as Stockfish offers it: a skill level, or an Elo when UCI_LimitStrength is on.
        self.skill_level = MAX_LEVEL
        self.limit_strength = False
        self.uci_elo = _ELO_RANGE[1] if _ELO_RANGE else 0
        self.game: Game | None = Game.from_kind(kind)
        self.position_error = ""
        self.job: _Job | None = None  # the running search, bench or perft
        self._commands: dict[str, Callable[[list[str]], bool | None]] = {
            "uci": self.uci,
            "isready": self.isready,
            "ucinewgame": self.ucinewgame,
            "setoption": self.setoption,
            "position": self.position,
            "go": self.go_command,
            "stop": self.stop,
            "ponderhit": self.ponderhit,
            "quit": self.quit,
            "bench": self.bench,
            "d": self.show,
            "legalmoves": self.legal_moves,
            "gameresult": self.result,
            "debug": lambda words: None,
            "register": lambda words: None,
        }

    # -- output -----------------------------------------------------------------------------

    def write(self, line: str) -> None:
        with self._write_lock:
            self._write(line)

    def info(self, text: str) -> None:
        self.write(f"info string {_cut(text)}")

    # -- the loop ---------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Carries out one command line; False once the session is over (``quit``)."""
        words = line.split()
        if not words:
            return True
        self._line = line
        command = self._commands.get(words[0].lower())
        if command is None:
            self.info(f"unknown command: {line.strip()!r}")
            return True
        try:
            return command(words[1:]) is not False
        except Exception as error:  # noqa: BLE001 - no input may end the session; the reason is said
            self.info(f"error in {words[0]!r}: {type(error).__name__}: {error}")
            return True

    def finish(self) -> None:
        """Ends a running search, bench or perft (the end of the input is a ``quit``)."""
        if self.job is not None:
            self.job.stop()
            self.job = None

    def _start(self, job: _Job) -> None:
        self.finish()
        self.job = job
        job.start()

    # -- commands ---------------------------------------------------------------------------

    def uci(self, words: list[str]) -> None:
        self.write(f"id name {ENGINE_NAME}")
        self.write("id author the polychess developers")
        for option in self.options():
            self.write(f"option name {option.name} {option.declaration}")
        self.write("uciok")

    def options(self) -> list[_Option]:
        variants = " ".join(f"var {kind.uci_variant}" for kind in GAME_KINDS.values())
        algorithms = " ".join(f"var {name}" for name in ("auto", *ALGORITHMS))
        return [
            _Option("Hash", f"type spin default {DEFAULT_HASH_MB} min 0 max {max_hash_mb()}"),
            _Option("Threads", f"type spin default 1 min 1 max {MAX_THREADS}"),
            _Option("MultiPV", f"type spin default 1 min 1 max {MAX_MULTIPV}"),
            _Option("Algorithm", f"type combo default {self.engine.algorithm or 'auto'} {algorithms}"),
            _Option("UCI_Variant", f"type combo default {self.kind.uci_variant} {variants}"),
            _Option("Move Overhead", f"type spin default {DEFAULT_OVERHEAD_MS} min 0 max 5000"),
            _Option("Ponder", "type check default false"),
            _Option("UCI_ShowWDL", "type check default false"),
            _Option("Clear Hash", "type button"),
            _Option("EvalFile", "type string default <classic>"),
            _Option("Skill Level", f"type spin default {MAX_LEVEL} min 1 max {MAX_LEVEL}"),
            *(
                [
                    _Option("UCI_LimitStrength", "type check default false"),
                    _Option("UCI_Elo", f"type spin default {self.uci_elo} min {_ELO_RANGE[0]} max {_ELO_RANGE[1]}"),
                ]
                if _ELO_RANGE
                else []
            ),
        ]

    def isready(self, words: list[str]) -> None:
        self.write("readyok")

    def ucinewgame(self, words: list[str]) -> None:
        self.finish()
        self.engine.clear()
        self.game, self.position_error = Game.from_kind(self.kind), ""

    def setoption(self, words: list[str]) -> None:
        lowered = [w.lower() for w in words]
        if not lowered or lowered[0] != "name":
            self.info("setoption: expected 'setoption name <name> [value <value>]'")
            return
        value_at = lowered.index("value") if "value" in lowered else len(words)
        name = " ".join(lowered[1:value_at])
        # The value as written, inner spaces kept (a file path may hold two in a row).
        written = re.search(r"\svalue\s(.*)$", self._line, re.IGNORECASE | re.DOTALL)
        value = written.group(1).strip() if written and value_at < len(words) else ""
        if self.job is not None and self.job.busy:
            self.info(f"setoption {name}: not while {self.job.what} runs (send stop first)")
            return
        self.finish()
        try:
            self._set(name, value)
        except ValueError as error:
            self.info(f"setoption {name}: {error}")

    def _set(self, name: str, value: str) -> None:
        if name == "hash":
            self.hash_mb = _whole(value, 0, max_hash_mb())
            self.engine = Engine(
                self.engine.algorithm,
                hash_mb=self.hash_mb,
                threads=self.engine.threads,
                level=self.engine.level,
                evaluation=self.engine.evaluation,
            )
        elif name == "threads":
            self.engine.threads = _whole(value, 1, MAX_THREADS)
        elif name == "multipv":
            self.multipv = _whole(value, 1, MAX_MULTIPV)
        elif name == "algorithm":
            if value.lower() not in ("auto", *ALGORITHMS):
                raise ValueError(f"unknown algorithm {value!r} (auto, {', '.join(ALGORITHMS)})")
            self.engine.algorithm = None if value.lower() == "auto" else value.lower()
        elif name == "uci_variant":
            try:
                kind = kind_of(value)
            except ValueError:
                known = ", ".join(k.uci_variant for k in GAME_KINDS.values())
                raise ValueError(f"unknown variant {reprlib.repr(value)} (one of {known})") from None
            self.kind = kind
            self.game, self.position_error = Game.from_kind(kind), ""
        elif name == "move overhead":
            self.overhead = _whole(value, 0, 5000) / 1000.0
        elif name == "ponder":
            _check(value)
        elif name == "uci_showwdl":
            self.show_wdl = _check(value)
        elif name == "clear hash":
            self.engine.clear()
        elif name == "evalfile":
            # a network file (docs/nnue.md), the package's own networks, or the classic evaluation
            if value.strip() in ("", "<classic>", "<empty>", "classic"):
                self.evaluation = "classic"
            elif value.strip() in ("<shipped>", "shipped"):
                self.evaluation = "network"
            else:
                try:
                    self.evaluation = Network.load(value.strip())
                except (OSError, InvalidNetworkError) as error:
                    raise ValueError(str(error)) from None
        elif name == "skill level":
            self.skill_level = _whole(value, 1, MAX_LEVEL)
            self._apply_strength()
        elif name == "uci_limitstrength" and _ELO_RANGE:
            self.limit_strength = _check(value)
            self._apply_strength()
        elif name == "uci_elo" and _ELO_RANGE:
            self.uci_elo = _whole(value, *_ELO_RANGE)
            self._apply_strength()
        else:
            raise ValueError(f"no such option (the options are {', '.join(o.name for o in self.options())})")

    def _apply_strength(self) -> None:
        self.engine.level = level_for_elo(self.uci_elo).number if self.limit_strength else self.skill_level

    def position(self, words: list[str]) -> None:
        try:
            self.game, self.position_error = read_position(self.kind, words), ""
        except PositionError as error:
            self.game, self.position_error = None, str(error)
            self.info(f"invalid position: {error}")

    def go_command(self, words: list[str]) -> None:
        self.finish()
        go = parse_go(words)
        for ignored in go.ignored:
            self.info(f"go: ignored {ignored}")
        game = self.game
        if game is None:
            self.info(f"no position to search ({self.position_error})")
            self.write("bestmove (none)")
            return
        if "perft" in go.limits:
            self.perft(game, go.limits["perft"])
            return
        evaluation = self.evaluation
        if isinstance(evaluation, Network) and evaluation.game != self.kind.family:
            self.info(
                f"EvalFile is a {evaluation.game} network: {self.kind.family} is searched with the classic evaluation"
            )
            evaluation = "classic"
        self.engine.evaluation = evaluation
        drawn = False
        if game.is_over():
            self.info(f"Game completed. {completed_text(game)}")
            drawn = _drawn_by_rule(game) and bool(game.board.legal_moves)
            if not drawn:  # decided: nothing to play for; a mover who lost hears so, as a mated one does
                if _lost(game):
                    self.write("info depth 0 score mate 0")
                self.write("bestmove (none)")
                return
            # As Stockfish does where a rule has drawn the game: a legal move, and the draw's score.
            self.write("info depth 0 score cp 0" + (" wdl 0 1000 0" if self.show_wdl else ""))
        searchmoves = self.root_moves(game, go)
        if not go.infinite and not self.bounded(game, go):
            self.info(
                f"go: no limit that ends the search (depth, nodes, mate, movetime or the mover's clock); "
                f"searching for {DEFAULT_MOVETIME_MS} ms" + (" after ponderhit" if go.ponder else "")
            )
            go.limits["movetime"] = DEFAULT_MOVETIME_MS
        self._start(_Search(self, game, go, searchmoves, drawn=drawn))

    def root_moves(self, game: Game, go: GoCommand) -> list[Move] | None:
        """The legal moves among ``go searchmoves`` (None: every move); the others are
        reported and left out, and with none legal every move is searched."""
        if not go.searchmoves:
            return None
        moves = []
        for text in go.searchmoves:
            try:
                moves.append(game.board.parse_move(text))
            except ValueError:
                self.info(f"go: ignored searchmoves {_cut(text)!r}: not a legal move here")
        if not moves:
            self.info("go: no legal move among searchmoves; every move is searched")
        return moves or None

    def bounded(self, game: Game, go: GoCommand) -> bool:
        """Whether this ``go`` ends by itself: by a depth, node, mate or time limit, or on the
        mover's clock."""
        return bool(_SEARCH_LIMITS & go.limits.keys()) or mover_clock(self.kind, game.turn, go) is not None

    def budget(self, game: Game, go: GoCommand) -> TimeBudget | None:
        """How long this ``go`` may think: ``movetime`` exactly, else from the mover's clock."""
        if "movetime" in go.limits:
            seconds = max(0.001, go.limits["movetime"] / 1000.0)
            return TimeBudget(soft=math.inf, hard=seconds)  # all of it: no iteration stops it early
        clock = mover_clock(self.kind, game.turn, go)
        if clock is None:
            return None
        return think_time(clock[0], clock[1], go.limits.get("movestogo"), self.overhead)

    def stop(self, words: list[str]) -> None:
        self.finish()

    def ponderhit(self, words: list[str]) -> None:
        if isinstance(self.job, _Search):
            self.job.ponderhit()

    def quit(self, words: list[str]) -> bool:
        self.finish()
        return False

    def bench(self, words: list[str]) -> None:
        depth = _integer(words[0]) if words else None
        if words and (depth is None or not 1 <= depth <= 30):
            self.info(f"bench: expected a depth from 1 to 30, got {words[0]!r}")
            return
        self._start(_Bench(self, depth))

    def perft(self, game: Game, depth: int) -> None:
        if not 1 <= depth <= 10:
            self.info(f"perft: expected a depth from 1 to 10, got {depth}")
            return
        self._start(_Perft(self, game.board, depth))  # game.board is a copy: the count plays moves on it

    def show(self, words: list[str]) -> None:
        game = self.game
        if game is None:
            self.info(f"no position ({self.position_error})")
            return
        for line in str(game.board).splitlines():
            self.write(line)
        board = game.board
        fen = write_fen4(board, game.points) if game.kind.record_format.name == "pgn4" else board.fen()
        self.write(f"Fen: {fen}")
        self.write(f"Key: {board.zobrist_key:016X}")
        self.write(f"Turn: {game.turn.value}" if not game.is_over() else f"Result: {game_result(game)}")

    def legal_moves(self, words: list[str]) -> None:
        if self.game is None:
            self.info(f"no position ({self.position_error})")
            return
        self.write(" ".join(["legalmoves", *(str(m) for m in self.game.legal_moves)]))

    def result(self, words: list[str]) -> None:
        if self.game is None:
            self.write("gameresult invalid")
            return
        self.write(f"gameresult {game_result(self.game)}")


def _check(text: str) -> bool:
    if text.lower() not in ("true", "false"):
        raise ValueError(f"expected true or false, got {text!r}")
    return text.lower() == "true"


# The Elo range UCI_Elo offers: the levels' measured labels (none measured: no such option).
_MEASURED_ELO = [level.elo for level in LEVELS if level.elo is not None]
_ELO_RANGE = (min(_MEASURED_ELO), max(_MEASURED_ELO)) if _MEASURED_ELO else None


def _whole(text: str, least: int, most: int) -> int:
    number = _integer(text.strip())
    if number is None or not least <= number <= most:
        raise ValueError(f"expected a whole number from {least} to {most}, got {text!r}")
    return number


def _cut(text: str) -> str:
    """``text`` with every over-long word, and the whole if still over-long, cut."""
    words = [
        word if len(word) <= _LONGEST_QUOTED_WORD else word[:_LONGEST_QUOTED_WORD] + "..." for word in text.split(" ")
    ]
    text = " ".join(words)
    return text if len(text) <= _LONGEST_INFO else text[:_LONGEST_INFO] + "..."


def serve(kind: GameKind, stdin: TextIO, stdout: TextIO) -> int:
    """Runs a session on ``stdin`` and ``stdout`` until ``quit`` or the end of the input."""

    def write(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    server = UciServer(kind, write)
    try:
        for line in stdin:
            if not server.handle(line):
                break
    finally:
        server.finish()
    return 0
