"""Other engines, driven from Python: any program that speaks UCI or its three- and
four-player extensions (docs/protocol.md), started as a subprocess.

>>> with UciEngine(["polychess", "uci"]) as engine:           # doctest: +SKIP
...     reply = engine.best_move(polychess.Game("standard"), time=0.1)
...     reply.move, reply.info[-1].score

Every wait has a deadline in wall time, however fast the engine prints: an engine that dies
or closes its output raises :class:`EngineTerminatedError`, one that does not answer in time
:class:`EngineTimeoutError` (and is killed, since its state is no longer known), a reply that
cannot be read or names an illegal move :class:`EngineProtocolError`; all are
:class:`EngineError`. What is kept of the engine's output is bounded too (lines waiting to be
read, their length, the lines of a reply). The caller never hangs: :meth:`UciEngine.close` ends
the engine's whole process group, so also an engine started through a wrapper.

Real engines speak dialects (:data:`DIALECTS`). Moves may come as ``h2-h3`` or
``e10-e11=Q``, scores as ``score 61`` without ``cp``, a position the engine cannot read only as
an ``info string`` (caught by the ``isready`` sent after every position), and no ``bestmove``
at all when the first iteration did not finish (then the first move of the last ``info ... pv``
is played, or the engine is asked for a ``go depth 1`` move). The ``titan`` dialect
is that of obryanlouis/4pchess's ``cli``: it honours only ``movetime`` and ``depth``, so clocks
are turned into a ``movetime`` by :func:`~polychess.protocol.timeman.think_time`.
"""

from __future__ import annotations

import collections
import math
import os
import queue
import re
import select
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Literal

from polychess.board import Colour, Move
from polychess.catalogue import GameKind, kind_of
from polychess.errors import IllegalMoveError, InvalidMoveError
from polychess.game import Game
from polychess.protocol.games import position_arguments
from polychess.protocol.timeman import think_time

__all__ = [
    "DIALECTS",
    "BestMove",
    "Dialect",
    "EngineError",
    "EngineProtocolError",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Info",
    "UciEngine",
    "parse_info",
]


class EngineError(RuntimeError):
    """An engine that cannot be used: it died, hangs or answered what cannot be used."""


class EngineTerminatedError(EngineError):
    """The engine's process ended."""


class EngineTimeoutError(EngineError):
    """The engine did not answer in time."""


class EngineProtocolError(EngineError):
    """The engine answered something that cannot be read, or an illegal move, or refused a
    command."""


@dataclass(frozen=True)
class Dialect:
    """How an engine wants to be spoken to.

    ``clocks``: ``"colours"`` sends every colour's clock by its initial (``wtime btime`` in
    standard chess, ``wtime rtime btime`` in three-player, ``rtime btime ytime gtime`` in
    four-player), ``"partners"`` the older four-player form, one clock a pair of partners
    (``wtime`` for Red and Yellow, ``btime`` for Blue and Green), ``"movetime"`` turns the clocks into a time per move.
    ``nodes``: whether ``go nodes`` is honoured. ``least_movetime``: the shortest ``movetime``
    worth sending (an engine that prints nothing before its first iteration ends needs more).
    ``fen4``: four-player positions as FEN4 (else polychess's position string).
    """

    name: str
    clocks: Literal["colours", "partners", "movetime"] = "colours"
    nodes: bool = True
    least_movetime: float = 0.0
    fen4: bool = True


DIALECTS: dict[str, Dialect] = {
    "uci": Dialect("uci"),
    "4pc-teams-clocks": Dialect("4pc-teams-clocks", clocks="partners"),
    "titan": Dialect("titan", clocks="movetime", nodes=False, least_movetime=0.1),
}
# Engines whose ``id name`` starts so speak the dialect named (for ``dialect="auto"``).
_KNOWN_ENGINES = {"4pChess": "titan"}
# Words of ``info string`` that mean the engine refused the position or a move.
_REFUSAL = re.compile(r"invalid|illegal|unknown command|error|cannot|can't", re.IGNORECASE)


@dataclass(frozen=True)
class Info:
    """One ``info`` line as read; missing fields are None. ``score`` is in centipawns for the
    side to move, ``mate`` in moves (negative: being mated)."""

    depth: int | None = None
    seldepth: int | None = None
    score: int | None = None
    mate: int | None = None
    nodes: int | None = None
    nps: int | None = None
    time: float | None = None  # seconds
    pv: tuple[str, ...] = ()
    string: str | None = None
    line: str = ""


_INFO_INTEGERS = (
    "depth",
    "seldepth",
    "multipv",
    "nodes",
    "nps",
    "hashfull",
    "tbhits",
    "time",
    "currmovenumber",
    "cpuload",
)
_INFO_KEYS = frozenset((*_INFO_INTEGERS, "score", "pv", "string", "currmove", "refutation", "currline", "wdl"))


def parse_info(line: str) -> Info:
    """Reads an ``info`` line, in any order of its fields, ``score cp N``, ``score mate N``
    or ``score N``; unknown or unreadable fields are skipped."""
    words = line.split()[1:]
    fields: dict[str, int] = {}
    score = mate = None
    pv: list[str] = []
    i = 0
    while i < len(words):
        key = words[i]
        if key == "string":
            return Info(string=" ".join(words[i + 1 :]), line=line)
        if key == "score":
            kind = words[i + 1] if i + 1 < len(words) else ""
            if kind in ("cp", "mate"):
                value = _number(words[i + 2]) if i + 2 < len(words) else None
                score, mate = (value, mate) if kind == "cp" else (score, value)
                i += 3
            else:
                score = _number(kind)
                i += 2 if score is not None else 1
            while i < len(words) and words[i] in ("lowerbound", "upperbound"):
                i += 1
            continue
        if key == "pv":
            j = i + 1
            while j < len(words) and words[j] not in _INFO_KEYS:
                j += 1
            pv = words[i + 1 : j]
            i = j
            continue
        if key in _INFO_INTEGERS and i + 1 < len(words):
            value = _number(words[i + 1])
            if value is not None:
                fields[key] = value
            i += 2
            continue
        i += 1
    milliseconds = fields.get("time")
    return Info(
        depth=fields.get("depth"),
        seldepth=fields.get("seldepth"),
        score=score,
        mate=mate,
        nodes=fields.get("nodes"),
        nps=fields.get("nps"),
        time=None if milliseconds is None else milliseconds / 1000.0,
        pv=tuple(pv),
        line=line,
    )


def _number(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


@dataclass(frozen=True)
class BestMove:
    """An engine's answer to ``go``: the move (None if it has none, e.g. the game is over),
    as it wrote it, the ``info`` it printed on the way, and how long it took."""

    move: Move | None
    text: str
    info: tuple[Info, ...] = ()
    seconds: float = 0.0
    ponder: str | None = None
    fallback: str | None = None  # no bestmove came: "pv" (its last pv's first move) or "go depth 1"
    completed: str | None = None  # "info string Game completed. ..." when the engine says the game is over

    @property
    def last(self) -> Info | None:
        """The last ``info`` with a score or a principal variation."""
        for info in reversed(self.info):
            if info.score is not None or info.mate is not None or info.pv:
                return info
        return None


_EOF = object()  # queued after the engine's last line
# The engine's lines waiting to be read, at most: an engine that prints faster than it is read
# (a flood of info lines) then waits on its pipe instead of filling memory.
_QUEUED_LINES = 1000
# The longest line read, in bytes (no protocol line comes near); the rest of a longer one is
# skipped.
_LONGEST_LINE = 1 << 16
# The most lines a reply keeps (the last ones): the info of a search, the lines before uciok.
_KEPT_LINES = 1000
# How often a reader waiting for room in the queue, or a caller waiting for a line, looks
# whether the engine has been closed meanwhile.
_POLL_SECONDS = 0.1
# How long close() waits for the engine to end after quit before it kills it.
_QUIT_SECONDS = 2.0


class UciEngine:
    """An engine in a subprocess. ``command`` is a list of arguments or a command line;
    ``variant``/``mode``/``setup`` say which game it plays (for ``UCI_Variant`` and the clocks;
    a game of another kind is refused); ``dialect`` is a name of :data:`DIALECTS`, a
    :class:`Dialect`, or ``"auto"`` (known by its ``id name``, else ``uci``); ``options`` are
    set after the handshake; ``timeout`` is how long any answer may take beyond the time the
    engine was given to think."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        variant: str = "standard",
        mode: str | None = None,
        setup: str | None = None,
        dialect: str | Dialect = "auto",
        options: Mapping[str, object] | None = None,
        timeout: float = 10.0,
        cwd: str | None = None,
    ) -> None:
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ValueError("no engine command given")
        self.kind: GameKind = kind_of(variant, mode, setup)  # an unknown game is refused before the engine starts
        self.variant, self.mode, self.timeout = variant, mode, timeout
        try:
            # In a session of its own, so that close() can end its whole process group: also the
            # engine behind a wrapper that does not exec it, and helpers that hold its output.
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,
            )
        except OSError as error:
            raise EngineTerminatedError(f"cannot start engine {self.argv[0]!r}: {error.strerror or error}") from None
        assert self._process.stdout is not None and self._process.stderr is not None
        self._lines: queue.Queue[object] = queue.Queue(_QUEUED_LINES)
        self._closed = threading.Event()
        self._output_ended = False  # its output ended (it died, or closed its stdout)
        self._killed = False  # close() had to kill it
        self._send_lock = threading.Lock()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._reader = threading.Thread(
            target=self._read_output, args=(self._process.stdout,), daemon=True, name=f"engine {self.argv[0]} stdout"
        )
        self._reader.start()
        threading.Thread(
            target=self._read_errors, args=(self._process.stderr,), daemon=True, name=f"engine {self.argv[0]} stderr"
        ).start()
        self.name = ""
        self.author = ""
        self.options: dict[str, str] = {}  # option name -> its declaration ("type spin default 16 ...")
        self._last_infos: collections.deque[Info] = collections.deque()
        try:
            self._handshake()
            self.dialect = self._dialect(dialect)
            chosen = dict(options or {})
            if "UCI_Variant" in self.options and "UCI_Variant" not in chosen:
                chosen["UCI_Variant"] = self.kind.uci_variant
            self.configure(chosen)
        except BaseException:
            self.close()
            raise

    # -- the process ------------------------------------------------------------------------

    def _read_output(self, stream: IO[bytes]) -> None:
        """Queues every line of the engine's output, then ``_EOF``; gives up once the engine
        is closed (a full queue that nobody reads any more must not hold this thread)."""
        with stream:
            for line in _lines_of(stream):
                if not self._queue(line):
                    return
            self._queue(_EOF)

    def _queue(self, item: object) -> bool:
        """Puts ``item`` in the queue, waiting for room; False if the engine is closed first."""
        while not self._closed.is_set():
            try:
                self._lines.put(item, timeout=_POLL_SECONDS)
                return True
            except queue.Full:
                pass
        return False

    def _read_errors(self, stream: IO[bytes]) -> None:
        """Keeps the last lines of the engine's stderr, for the message when it ends."""
        with stream:
            for line in _lines_of(stream):
                self._stderr.append(line)

    def send(self, line: str) -> None:
        """Writes one command line; an engine that does not read it within ``timeout`` seconds
        (its input pipe full) is an :class:`EngineTerminatedError`, not a wait forever."""
        stdin = self._process.stdin
        if stdin is None or self._closed.is_set() or self._process.poll() is not None:
            raise self._terminated()
        try:
            with self._send_lock:  # stop() may come from another thread
                written = _write_within(stdin, (line + "\n").encode(), time.monotonic() + self.timeout)
        except (OSError, ValueError):
            raise self._terminated() from None
        if not written:
            raise EngineTerminatedError(
                f"engine {self._label} does not read its input: a command waited {self.timeout:g} s to be written"
            )

    @property
    def _label(self) -> str:
        return repr(self.name or self.argv[0])

    def _terminated(self) -> EngineTerminatedError:
        if self._output_ended and self._killed:
            what = "closed its output but kept running; it has been killed"
        else:
            what = f"ended (exit status {self._process.poll()})"
        errors = " | ".join(self._stderr)[-1000:]
        said = f"; it said on stderr: {errors}" if errors else ""
        return EngineTerminatedError(f"engine {self._label} {what}{said}")

    def read_line(self, deadline: float) -> str:
        """The next line the engine writes, waiting until ``deadline`` (time.monotonic;
        ``math.inf``: no limit). The deadline holds however fast the engine prints: lines
        still queued then are not read."""
        while True:
            if self._closed.is_set():
                raise self._terminated()
            remaining = deadline - _now()
            if remaining <= 0:
                raise EngineTimeoutError(f"engine {self._label} did not answer in time")
            try:
                line = self._lines.get(timeout=min(remaining, _POLL_SECONDS))
            except queue.Empty:
                continue
            if line is _EOF:
                self._output_ended = True
                self.close()  # it can answer nothing more: one that still runs is ended
                continue
            assert isinstance(line, str)
            return line

    def read_until(self, prefix: str, seconds: float) -> list[str]:
        """Lines up to and including the first that starts with ``prefix`` (at most the last
        ``_KEPT_LINES``)."""
        deadline = _now() + seconds
        lines: collections.deque[str] = collections.deque(maxlen=_KEPT_LINES)
        read = 0
        while True:
            try:
                line = self.read_line(deadline)
            except EngineTimeoutError:
                others = f" (it sent {read} other line{'' if read == 1 else 's'})" if read else ""
                raise EngineTimeoutError(
                    f"engine {self._label} sent no {prefix!r} within {seconds:g} s{others}"
                ) from None
            read += 1
            lines.append(line)
            if line.split()[:1] == [prefix]:
                return list(lines)

    def close(self) -> None:
        """Sends ``quit`` and waits a moment, then ends the engine's process group: the engine
        if it is still there, and whatever it started (the engine behind a wrapper, a helper
        that holds its output). The engine's output is left to the threads that read it, which
        end when nobody holds it any more: waiting for them could wait forever."""
        if self._closed.is_set():
            return
        self._closed.set()
        process, stdin = self._process, self._process.stdin
        if process.poll() is None:
            try:
                if stdin is not None:
                    _write_within(stdin, b"quit\n", time.monotonic() + _QUIT_SECONDS)
            except (OSError, ValueError):
                pass
            try:
                process.wait(timeout=_QUIT_SECONDS)
            except subprocess.TimeoutExpired:
                self._killed = True
        _kill_process_group(process)
        try:
            process.wait(timeout=5.0)  # killed: it ends at once
        except subprocess.TimeoutExpired:
            pass
        try:
            if stdin is not None:
                stdin.close()
        except (OSError, ValueError):
            pass

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the protocol -----------------------------------------------------------------------

    def _handshake(self) -> None:
        self.send("uci")
        for line in self.read_until("uciok", self.timeout):
            words = line.split()
            if words[:2] == ["id", "name"]:
                self.name = line.split("name", 1)[1].strip()
            elif words[:2] == ["id", "author"]:
                self.author = line.split("author", 1)[1].strip()
            elif words[:2] == ["option", "name"] and "type" in words:
                name, _, declaration = line.split("name", 1)[1].partition(" type ")
                self.options[name.strip()] = "type " + declaration.strip()

    def _dialect(self, dialect: str | Dialect) -> Dialect:
        if isinstance(dialect, Dialect):
            return dialect
        if dialect == "auto":
            known = next((d for prefix, d in _KNOWN_ENGINES.items() if self.name.startswith(prefix)), "uci")
            return DIALECTS[known]
        if dialect not in DIALECTS:
            raise ValueError(f"unknown dialect {dialect!r} (auto, {', '.join(DIALECTS)})")
        return DIALECTS[dialect]

    def configure(self, options: Mapping[str, object]) -> None:
        """Sets options (``setoption name N value V``), then waits for ``readyok``; an option
        the engine refuses in an ``info string`` raises :class:`EngineProtocolError`."""
        for name, value in options.items():
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            self.send(f"setoption name {name} value {text}")
        if options:
            self._ready("setoption " + ", ".join(options))

    def ping(self) -> None:
        """``isready``: waits for ``readyok``."""
        self._ready("isready")

    def _ready(self, what: str) -> list[str]:
        """Sends ``isready`` and returns the ``info string`` lines before ``readyok``; one
        that reads as a refusal raises."""
        self.send("isready")
        said = [
            line.split("string", 1)[1].strip()
            for line in self.read_until("readyok", self.timeout)
            if line.split()[:2] == ["info", "string"]
        ]
        refused = [text for text in said if _REFUSAL.search(text)]
        if refused:
            raise EngineProtocolError(f"engine {self._label} refused {what}: {refused[0]}")
        return said

    def new_game(self) -> None:
        """``ucinewgame``, then ``isready``."""
        self.send("ucinewgame")
        self._ready("ucinewgame")

    def set_position(self, game: Game) -> None:
        """Sends the game's position (start and moves); an engine that refuses it raises."""
        self._check_game(game)
        arguments = position_arguments(game, fen4=self.dialect.fen4)
        self.send(f"position {arguments}")
        self._ready(f"the position {arguments[:120]!r}")

    def go_command(
        self,
        game: Game,
        *,
        time: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        clocks: Mapping[Colour, float] | None = None,
        increments: Mapping[Colour, float] | None = None,
        moves_to_go: int | None = None,
        infinite: bool = False,
    ) -> tuple[str, float]:
        """The ``go`` command for these limits, and how long the engine may think (infinite:
        until :meth:`stop`)."""
        if infinite:
            return "go infinite", math.inf
        words = ["go"]
        expected = 0.0
        if self.dialect.clocks == "movetime" and clocks is not None and time is None:
            own = clocks.get(game.turn)
            if own is None:
                raise ValueError(f"no clock given for {game.turn.value}")
            increment = (increments or {}).get(game.turn, 0.0)
            time = think_time(own, increment, moves_to_go).soft
            clocks = None
        if time is not None:
            time = max(time, self.dialect.least_movetime)
            words += ["movetime", str(max(1, round(time * 1000)))]
            expected = time
        if clocks is not None:
            words += self._clock_words(game, clocks, increments or {})
            if moves_to_go is not None:
                words += ["movestogo", str(moves_to_go)]
            expected = max(expected, clocks.get(game.turn, 0.0))
        if depth is not None:
            words += ["depth", str(depth)]
        if nodes is not None:
            if not self.dialect.nodes:
                raise ValueError(f"the {self.dialect.name} dialect cannot limit nodes (it ignores 'go nodes')")
            words += ["nodes", str(nodes)]
        if len(words) == 1:
            raise ValueError("a search needs a limit: time, depth, nodes or clocks")
        return " ".join(words), expected

    def _clock_words(self, game: Game, clocks: Mapping[Colour, float], increments: Mapping[Colour, float]) -> list[str]:
        def ms(seconds: float) -> str:
            return str(max(0, round(seconds * 1000)))

        words: list[str] = []
        if self.dialect.clocks == "partners" and game.kind.board == "cross":  # wtime and btime: the cross's pairs
            teams = {"w": (Colour.RED, Colour.YELLOW), "b": (Colour.BLUE, Colour.GREEN)}
            for letter, team in teams.items():
                seat = game.turn if game.turn in team else min(team, key=lambda c: clocks.get(c, 0.0))
                words += [f"{letter}time", ms(clocks.get(seat, 0.0)), f"{letter}inc", ms(increments.get(seat, 0.0))]
            return words
        for colour in game.colours:
            if colour in clocks:
                words += [f"{colour.value[0]}time", ms(clocks[colour])]
        for colour in game.colours:
            if colour in clocks:
                words += [f"{colour.value[0]}inc", ms(increments.get(colour, 0.0))]
        return words

    def best_move(
        self,
        game: Game,
        *,
        time: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        clocks: Mapping[Colour, float] | None = None,
        increments: Mapping[Colour, float] | None = None,
        moves_to_go: int | None = None,
        infinite: bool = False,
        info: Callable[[Info], None] | None = None,
    ) -> BestMove:
        """Sends the position and ``go`` with these limits (``time``: seconds for this move;
        ``clocks``/``increments``: seconds by colour) and waits for the move, a legal move of
        the game. ``info`` is called with every ``info`` line as it comes. ``infinite``
        searches until :meth:`stop` (from ``info`` or another thread).

        An engine that has not answered when its time is up (plus a grace: the time again,
        at least a second; ``timeout`` for depth and node limits) is sent ``stop``. If no
        ``bestmove`` comes even then, its last principal variation gives the move; with none,
        an engine that still answers ``isready`` is asked for a ``go depth 1`` move, and one
        that does not is killed (:class:`EngineTimeoutError`)."""
        self._check_game(game)
        if game.is_over():
            raise ValueError("the game is over")
        command, expected = self.go_command(
            game,
            time=time,
            depth=depth,
            nodes=nodes,
            clocks=clocks,
            increments=increments,
            moves_to_go=moves_to_go,
            infinite=infinite,
        )
        self.set_position(game)
        started = _now()
        grace = max(1.0, expected) if expected > 0 else self.timeout
        reply = self._search(game, command, started + expected + grace, info, started)
        if reply is not None:
            return reply
        # No bestmove: an engine whose first iteration did not finish (titan) prints none.
        infos = self._last_infos
        for parsed in reversed(infos):
            if parsed.pv:
                return BestMove(
                    self._move(game, parsed.pv[0]), parsed.pv[0], tuple(infos), _now() - started, fallback="pv"
                )
        try:
            self.ping()
        except EngineTimeoutError:
            self.close()
            raise EngineTimeoutError(
                f"engine {self._label} gave no move, even after 'stop', and no longer answers; it has been stopped"
            ) from None
        retry = self._search(game, "go depth 1", _now() + self.timeout, info, started)
        if retry is None:
            self.close()
            raise EngineTimeoutError(f"engine {self._label} gave no move, even for 'go depth 1'; it has been stopped")
        return BestMove(
            retry.move, retry.text, tuple(infos) + retry.info, retry.seconds, retry.ponder, fallback="go depth 1"
        )

    def _check_game(self, game: Game) -> None:
        """A ValueError if the game is not of the kind the engine was started for."""
        kind = kind_of(game.variant, game.mode, game.setup)
        if kind != self.kind:
            raise ValueError(f"engine {self._label} plays {self.kind.name}, not {kind.name}")

    def stop(self) -> None:
        """Asks a running :meth:`best_move` (in another thread, or from its ``info``) to end:
        the engine then sends its ``bestmove``."""
        self.send("stop")

    def _search(
        self, game: Game, command: str, deadline: float, info: Callable[[Info], None] | None, started: float
    ) -> BestMove | None:
        """Sends ``command`` and reads up to its ``bestmove``; None if none came by the
        deadline, nor soon after ``stop``."""
        self.send(command)
        infos: collections.deque[Info] = collections.deque(maxlen=_KEPT_LINES)
        self._last_infos = infos
        stopped = False
        while True:
            try:
                line = self.read_line(deadline)
            except EngineTimeoutError:
                if stopped:
                    return None
                stopped = True  # told to stop, then given a last moment to answer
                self.send("stop")
                deadline = _now() + min(self.timeout, 2.0)
                continue
            words = line.split()
            if words[:1] == ["info"]:
                parsed = parse_info(line)
                infos.append(parsed)
                if info is not None:
                    info(parsed)
                if parsed.string is not None and parsed.string.startswith("Game completed"):
                    return BestMove(None, "", tuple(infos), _now() - started, completed=parsed.string)
            elif words[:1] == ["bestmove"]:
                text = words[1] if len(words) > 1 else "(none)"
                ponder = words[3] if len(words) > 3 and words[2] == "ponder" else None
                move = None if text in ("(none)", "0000", "none") else self._move(game, text)
                return BestMove(move, text, tuple(infos), _now() - started, ponder)

    def _move(self, game: Game, text: str) -> Move:
        try:
            return game.board.parse_move(text)
        except (IllegalMoveError, InvalidMoveError) as error:
            raise EngineProtocolError(f"engine {self._label} played {text!r}: {error}") from None


def _now() -> float:
    return time.monotonic()


def _lines_of(stream: IO[bytes]) -> Iterator[str]:
    """The lines of ``stream``, decoded (bytes that are not UTF-8 replaced), each cut at
    ``_LONGEST_LINE`` bytes; ends at the end of the stream or when it cannot be read."""
    try:
        while line := stream.readline(_LONGEST_LINE):
            rest = line
            while not rest.endswith(b"\n") and rest:  # an over-long line: the rest is skipped
                rest = stream.readline(_LONGEST_LINE)
            yield line.decode("utf-8", "replace").rstrip("\r\n")
    except (OSError, ValueError):
        return


def _write_within(stream: IO[bytes], data: bytes, deadline: float) -> bool:
    """Writes ``data`` to a pipe by ``deadline`` (time.monotonic); False if the reader left it
    full that long. The pipe is written without blocking where the system can wait on it
    (POSIX); elsewhere a write blocks as it always did."""
    if os.name != "posix":
        stream.write(data)
        stream.flush()
        return True
    stream.flush()
    fd = stream.fileno()
    os.set_blocking(fd, False)
    view = memoryview(data)
    while view:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        if not select.select([], [fd], [], min(remaining, _POLL_SECONDS))[1]:
            continue
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:  # room for less than a pipe's atomic write: wait for more
            continue
    return True


def _kill_process_group(process: subprocess.Popen[bytes]) -> None:
    """Kills the process and every process of its group (it leads one: ``start_new_session``)."""
    if hasattr(os, "killpg"):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass  # nobody is left in it
    elif process.poll() is None:
        process.kill()
