"""The ``polychess`` command line (also ``python -m polychess``).

Subcommands, one module each: ``perft`` and ``moves`` (perft.py), ``play`` (play.py, drawing
in text_board.py), ``selfplay`` (selfplay.py), ``bench`` (bench.py), ``show`` (show.py),
``serve`` (serve.py, the web app). Every usage mistake -- a bad flag, position, variant or
file -- ends with a one-line message on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from polychess.cli import bench, perft, play, selfplay, serve, show
from polychess.cli.common import UsageError
from polychess.errors import InvalidPositionError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="polychess", description="Chess for more than two players.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    perft.add_parsers(sub)
    play.add_parser(sub)
    selfplay.add_parser(sub)
    bench.add_parser(sub)
    show.add_parser(sub)
    serve.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status (2 for usage errors)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse has printed its message (or the help)
        return exit_.code if isinstance(exit_.code, int) else 2
    try:
        return int(args.run(args))
    except InvalidPositionError as error:
        print(f"polychess: bad position string: {error}", file=sys.stderr)
        return 2
    except (UsageError, ValueError) as error:
        print(f"polychess: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"polychess: {error.strerror or error}"
              f"{': ' + str(error.filename) if error.filename else ''}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
