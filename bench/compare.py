#!/usr/bin/env python3
"""Compare polychess with Stockfish and Athena (perft) and python-chess (legal-move iteration).

    PYTHONPATH=python python bench/compare.py                        # full run (perft 6)
    PYTHONPATH=python python bench/compare.py --athena /path/athena  # and four-player against Athena
    PYTHONPATH=python python bench/compare.py --quick                # smoke run (smaller depths)

Everything is measured in one run on this machine, so the ratios compare like with like.
The script reports; it does not assert: the exit code is 0 whatever the figures (a wrong
node or move count is shown as WRONG COUNT in the table, not raised). It exits non-zero
only if polychess itself cannot be imported.

Stockfish and python-chess are *not* dependencies of polychess. If they are missing this
script installs them itself (``apt-get install -y stockfish``, ``pip install chess``) and
skips the rows that need them if that fails. Athena (arianahejazyan/Athena, a four-player
engine with its own perft) is taken as a path, built by whoever runs the script.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import platform
import queue
import shutil
import subprocess
import sys
import threading
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass, field

try:
    import polychess
except ImportError as exc:  # pragma: no cover - the one hard requirement
    sys.exit(f"cannot import polychess ({exc}); run with PYTHONPATH=python from the repository root")

STANDARD_FENS = {
    "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "position 3": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "position 4": "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "position 5": "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
}

# Known perft counts from the start positions (four-player teams 6: Athena's own test data).
STANDARD_PERFT = {1: 20, 2: 400, 3: 8_902, 4: 197_281, 5: 4_865_609, 6: 119_060_324, 7: 3_195_901_860}
THREE_PLAYER_PERFT = {4: 178_080, 5: 3_960_896}
FOUR_PLAYER_PERFT = {4: 152_050, 5: 3_452_310, 6: 77_430_383}  # teams, modern start (docs/rules.md §2.5)

# The chess.com teams start in Athena's position notation (its tests/data/perft.txt).
ATHENA_START = (
    "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/"
    "x,x,x,8,x,x,x/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/"
    "bN,bP,10,gP,gN/bR,bP,10,gP,gR/x,x,x,8,x,x,x/x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/x,x,x,rR,rN,rB,rQ,rK,rB,rN,rR,x,x,x"
)

TARGET_PERFT_STANDARD = 1.0  # polychess standard nodes/s >= Stockfish's (issue 28)
TARGET_PERFT_FOUR_PLAYER = 1.2  # polychess four-player teams nodes/s >= 1.2x Athena's
TARGET_PERFT_THREE_PLAYER = 1.0  # polychess three-player nodes/s >= its own four-player rate
TARGET_ITERATION = 10.0  # iterating legal_moves >= 10x as fast as python-chess

STOCKFISH_TIMEOUT = 600.0  # seconds allowed for one Stockfish command


def say(message: str) -> None:
    print(f"[compare] {message}", flush=True)


# -- Stockfish -------------------------------------------------------------------------------


def find_stockfish() -> str | None:
    found = shutil.which("stockfish")
    if found:
        return found
    if os.access("/usr/games/stockfish", os.X_OK):
        return "/usr/games/stockfish"
    return None


def run_installer(what: str, command: list[str], timeout: float, env: dict[str, str] | None = None) -> bool:
    """Runs an install command quietly; says why it failed (the last lines of its output)."""
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        say(f"{what} failed: {exc}")
        return False
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        say(f"{what} failed (exit {done.returncode}): " + " | ".join(tail))
    return done.returncode == 0


def install_stockfish() -> str | None:
    """Installs the Debian package ``stockfish``; returns the binary or None."""
    if shutil.which("apt-get") is None:
        say("Stockfish is not installed and apt-get is not available: cannot install it.")
        return None
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        say("Stockfish is not installed and we are not root: cannot apt-get install it.")
        return None
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")

    def apt(*args: str) -> bool:
        say("running: apt-get " + " ".join(args))
        return run_installer(f"apt-get {args[0]}", ["apt-get", *args], 900, env)

    say("Stockfish not found; installing the Debian package 'stockfish' (this script only).")
    if not apt("install", "-y", "stockfish"):
        if apt("update") and apt("install", "-y", "stockfish"):
            pass
    binary = find_stockfish()
    if binary:
        say(f"installed Stockfish: {binary}")
    return binary


class Engine:
    """A persistent UCI engine process; lines are read by a thread so reads can time out."""

    def __init__(self, path: str, name: str = "Stockfish") -> None:
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.name = name
        self.send("uci")
        for line in self.until(lambda s: s == "uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name ") :]
        self.ready()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def until(self, last: Callable[[str], bool], timeout: float = STOCKFISH_TIMEOUT) -> list[str]:
        """The lines read up to and including the first for which ``last`` is true."""
        deadline = time.monotonic() + timeout
        out: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise RuntimeError(f"engine did not answer within {timeout:.0f} s") from None
            if line is None:
                raise RuntimeError("engine exited unexpectedly")
            out.append(line)
            if last(line):
                return out

    def ready(self) -> None:
        self.send("isready")
        self.until(lambda s: s == "readyok")

    def perft(
        self, depth: int, position: str = "position startpos", command: str = "go perft", total: str = "Nodes searched"
    ) -> tuple[int, float]:
        """(nodes, seconds) of ``command depth`` from ``position``; the clock runs from
        sending the command to reading the line that starts with ``total``."""
        self.send(position)
        self.ready()
        start = time.perf_counter()
        self.send(f"{command} {depth}")
        lines = self.until(lambda s: s.startswith(total))
        seconds = time.perf_counter() - start
        nodes = int(lines[-1].split(":", 1)[1])
        return nodes, seconds

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
            self.proc.wait()


# -- python-chess ----------------------------------------------------------------------------


def import_python_chess():  # -> module | None
    try:
        return importlib.import_module("chess")
    except ImportError:
        pass
    say("python-chess not importable; running: pip install chess (this script only).")
    if not run_installer("pip install chess", [sys.executable, "-m", "pip", "install", "--quiet", "chess"], 600):
        return None
    importlib.invalidate_caches()
    try:
        module = importlib.import_module("chess")
    except ImportError as exc:
        say(f"python-chess installed but still not importable: {exc}")
        return None
    say(f"installed python-chess {getattr(module, '__version__', '?')}")
    return module


# -- measuring -------------------------------------------------------------------------------


def best_of(runs: int, measure: Callable[[], tuple[int, float]]) -> tuple[int, float]:
    """The fastest of ``runs`` (nodes, seconds) measurements; all node counts must agree."""
    results = [measure() for _ in range(runs)]
    counts = {nodes for nodes, _ in results}
    if len(counts) != 1:
        raise RuntimeError(f"node counts differ between runs: {sorted(counts)}")
    return min(results, key=lambda r: r[1])


def our_perft(variant: str, depth: int) -> tuple[int, float]:
    board = polychess.Board(variant)  # four-player: teams
    start = time.perf_counter()
    nodes = board.perft(depth)
    return nodes, time.perf_counter() - start


def iteration_time(board: object, repeat: int, min_time: float) -> float:
    """Seconds per full iteration of ``board.legal_moves``, timeit-style: the loop count is
    chosen so one timing lasts at least ``min_time``, and the best of ``repeat`` is kept."""
    timer = timeit.Timer("for m in board.legal_moves: pass", globals={"board": board})
    number = 1
    while True:
        if timer.timeit(number) >= min_time:
            break
        number *= 2
    return min(timer.repeat(repeat=repeat, number=number)) / number


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)

    def add(self, *cells: object) -> None:
        self.rows.append([str(c) for c in cells])

    def print(self, title: str) -> None:
        widths = [max(len(h), *(len(r[i]) for r in self.rows)) for i, h in enumerate(self.headers)]
        right = [i != 0 for i in range(len(self.headers))]

        def line(cells: list[str]) -> str:
            padded = (c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right, strict=True))
            return "  ".join(padded).rstrip()

        print()
        print(title)
        print(line(self.headers))
        print("  ".join("-" * w for w in widths))
        for row in self.rows:
            print(line(row))


def verdict(value: float | None, target: float) -> str:
    if value is None:
        return "SKIPPED"
    return "PASS" if value >= target else "BELOW"


def fmt_nps(nps: float) -> str:
    return f"{nps / 1e6:,.1f} M"


# -- main ------------------------------------------------------------------------------------


def engine_perft(path: str, name: str, depth: int, runs: int, **commands: str) -> tuple[int, float, str] | None:
    """(nodes, seconds, engine name) of an external engine's best perft run, or None (said why)."""
    try:
        engine = Engine(path, name)
        try:
            say(f"{engine.name} ({path}): perft {depth} from the start, best of {runs}")
            nodes, seconds = best_of(runs, lambda: engine.perft(depth, **commands))
        finally:
            engine.close()
    except (OSError, RuntimeError, ValueError) as exc:
        say(f"{name} measurement failed ({exc}): its rows are skipped.")
        return None
    return nodes, seconds, engine.name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller depths, fewer repetitions (smoke run)")
    parser.add_argument("--athena", metavar="PATH", help="an Athena binary: the four-player perft reference")
    args = parser.parse_args(argv)

    depth = 5 if args.quick else 6
    runs = 3
    repeat, min_time = (3, 0.02) if args.quick else (7, 0.2)

    print("polychess benchmark comparison" + (" (--quick)" if args.quick else ""))
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), cpu)
    except OSError:
        pass
    print(
        f"machine: {cpu}, {os.cpu_count()} CPUs; Python {platform.python_version()}; polychess {polychess.__version__}"
    )

    # Perft: each game against its reference, measured in this run ---------------------------
    perft = Table(["Perft", "Nodes", "Seconds", "Nodes/s", "Ratio", "Target", "Result"])

    def reference_row(label: str, measured: tuple[int, float, str] | None, expected: int) -> float | None:
        if measured is None:
            perft.add(label, "-", "-", "-", "-", "reference", "SKIPPED")
            return None
        nodes, seconds, name = measured
        ok = nodes == expected
        perft.add(
            f"{name}, {label}",
            f"{nodes:,}" + ("" if ok else " (WRONG)"),
            f"{seconds:.3f}",
            fmt_nps(nodes / seconds),
            "1.00",
            "reference",
            "-",
        )
        return nodes / seconds

    def our_row(variant: str, expected: int | None, reference: float | None, target: float, against: str) -> float:
        say(f"polychess {variant} start: perft {depth}, best of {runs}")
        nodes, seconds = best_of(runs, functools.partial(our_perft, variant, depth))
        nps = nodes / seconds
        ratio = nps / reference if reference else None
        ok = expected is None or nodes == expected
        perft.add(
            f"polychess {variant}, perft {depth}",
            f"{nodes:,}" + ("" if ok else f" (expected {expected:,})"),
            f"{seconds:.3f}",
            fmt_nps(nps),
            "n/a" if ratio is None else f"{ratio:.2f}",
            f">= {target:.2f}x {against}",
            verdict(ratio, target) if ok else "WRONG COUNT",
        )
        return nps

    binary = find_stockfish() or install_stockfish()
    if binary is None:
        say("Stockfish is unavailable: the standard ratio is skipped.")
    stockfish = engine_perft(binary, "Stockfish", depth, runs) if binary else None
    sf_nps = reference_row(f"standard, go perft {depth}", stockfish, STANDARD_PERFT[depth])
    our_row("standard", STANDARD_PERFT[depth], sf_nps, TARGET_PERFT_STANDARD, "Stockfish")

    athena = None
    if args.athena:
        athena = engine_perft(
            args.athena, "Athena", depth, runs, position=f"position fen {ATHENA_START}", command="perft", total="Nodes:"
        )
    else:
        say("no --athena PATH: the four-player ratio is skipped.")
    athena_nps = reference_row(f"four-player teams, perft {depth}", athena, FOUR_PLAYER_PERFT[depth])
    four_nps = our_row("four-player", FOUR_PLAYER_PERFT[depth], athena_nps, TARGET_PERFT_FOUR_PLAYER, "Athena")
    our_row("three-player", THREE_PLAYER_PERFT.get(depth), four_nps, TARGET_PERFT_THREE_PLAYER, "our four-player")

    # legal-move iteration --------------------------------------------------------------
    chess = import_python_chess()
    if chess is None:
        say("python-chess is unavailable: the iteration speed-ups are skipped.")
    say(f"iterating legal_moves: best of {repeat}, each timing >= {min_time} s")
    iteration = Table(["legal_moves iteration", "Moves", "polychess", "python-chess", "Speed-up", "Target", "Result"])
    for name, fen in STANDARD_FENS.items():
        board = polychess.Board("standard", fen=fen)
        ours = iteration_time(board, repeat, min_time)
        moves = len(list(board.legal_moves))
        theirs = speedup = None
        note = ""
        if chess is not None:
            other = chess.Board(fen)
            if other.legal_moves.count() != moves:
                note = f" (python-chess: {other.legal_moves.count()})"
            theirs = iteration_time(other, repeat, min_time)
            speedup = theirs / ours
        iteration.add(
            f"standard {name}",
            f"{moves}{note}",
            f"{ours * 1e6:.2f} us",
            "n/a" if theirs is None else f"{theirs * 1e6:.2f} us",
            "n/a" if speedup is None else f"{speedup:.1f}x",
            f">= {TARGET_ITERATION:.0f}x",
            "WRONG COUNT" if note else verdict(speedup, TARGET_ITERATION),
        )
    board = polychess.Board("three-player")
    ours = iteration_time(board, repeat, min_time)
    iteration.add("three-player start", len(list(board.legal_moves)), f"{ours * 1e6:.2f} us", "-", "-", "info", "-")

    perft.print(f"Perft (single thread, bulk counting at the last ply; best of {runs})")
    iteration.print(f"Time per position to iterate board.legal_moves fully (best of {repeat})")
    print()
    print("Targets (issue 28): standard perft >= 1.0x Stockfish; four-player teams perft >= 1.2x Athena; three-player")
    print("perft >= our four-player rate; legal_moves iteration >= 10x python-chess. This script reports only.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
