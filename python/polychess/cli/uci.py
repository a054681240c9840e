"""``polychess uci``: the engine as a UCI engine, for GUIs, arenas and tuning tools
(docs/protocol.md). ``polychess uci bench`` prints the bench signature and exits."""

from __future__ import annotations

import argparse
import io
import sys

from polychess.catalogue import kind_of
from polychess.cli.common import UsageError
from polychess.protocol.bench import run_bench
from polychess.protocol.server import serve

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "uci",
        help="speak UCI (and its three- and four-player extensions) on stdin/stdout",
        description="Run the engine as a UCI engine: standard chess by default, so that a GUI "
        "can start 'polychess uci' as is; three- and four-player chess speak the "
        "extensions of docs/protocol.md.",
    )
    parser.add_argument(
        "--variant",
        default="standard",
        metavar="GAME",
        help="standard (the default), three-player or four-player (with --mode and --setup), or "
        "a name of the UCI_Variant option; that option also changes it in a session",
    )
    parser.add_argument("--mode", choices=("teams", "ffa"), help="four-player mode (default teams)")
    parser.add_argument("--setup", choices=("modern", "classic"), help="four-player setup (default modern)")
    parser.add_argument("bench", nargs="?", choices=("bench",), help="print the bench node count and speed, and exit")
    parser.add_argument("depth", nargs="?", type=int, help="bench depth (default: per variant)")
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    try:
        kind = kind_of(args.variant, args.mode, args.setup)
    except ValueError as error:
        raise UsageError(f"--variant: {error}") from None
    if args.bench:
        if args.depth is not None and not 1 <= args.depth <= 30:
            raise UsageError(f"bench depth must be from 1 to 30, got {args.depth}")
        for line in run_bench(kind, args.depth):
            print(line, flush=True)
        return 0
    # Bytes that are not UTF-8 are garbage like any other: read, replaced, answered.
    stdin = (
        io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
        if hasattr(sys.stdin, "buffer")
        else sys.stdin
    )
    return serve(kind, stdin, sys.stdout)
