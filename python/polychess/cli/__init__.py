"""The ``polychess`` command line (also ``python -m polychess``).

Subcommands, one module each: ``perft`` and ``moves`` (perft.py), ``play`` (play.py; boards
are drawn by polychess/text_board.py, as ``str(board)`` is), ``selfplay`` (selfplay.py),
``bench`` (bench.py), ``show`` (show.py), ``serve`` (serve.py, the web app), ``uci``
(uci.py, the engine protocol), ``match`` and ``openings`` (match.py, the arena), ``tune``
(tune.py) and ``train`` (train.py, the networks' data). Every usage
mistake -- a bad flag, position, variant or file -- ends with a one-line message on stderr and
exit status 2, never a traceback. A closed stdout (``polychess show | head``) ends a command
quietly with status 1.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Sequence

from polychess import __version__
from polychess.cli import bench, match, perft, play, review, selfplay, serve, show, train, tune, uci
from polychess.cli.common import UsageError
from polychess.errors import InvalidPositionError

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="polychess",
        description="Chess for more than two players.",
        epilog="Run 'polychess COMMAND --help' for the options of a command. The game is three-player chess "
        "unless --variant says otherwise, in every command but 'uci', which speaks to chess GUIs and so "
        "starts in standard chess.",
    )
    parser.add_argument("--version", action="version", version=f"polychess {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    perft.add_parsers(sub)
    play.add_parser(sub)
    selfplay.add_parser(sub)
    bench.add_parser(sub)
    show.add_parser(sub)
    review.add_parser(sub)
    serve.add_parser(sub)
    uci.add_parser(sub)
    match.add_parsers(sub)
    tune.add_parser(sub)
    train.add_parser(sub)
    _name_alike(parser)
    return parser


# One spelling of each option's value across the commands' --help.
METAVARS = {
    "--games": "N",
    "--jobs": "N",
    "--threads": "N",
    "--seed": "N",
    "--nodes": "N",
    "--depth": "PLIES",
    "--max-plies": "PLIES",
    "--opening-plies": "PLIES",
    "--time": "SECONDS",
    "--hash": "MB",
}


def _name_alike(parser: argparse.ArgumentParser) -> None:
    """Gives every command's options of METAVARS their one name, through the subcommands."""
    for action in parser._actions:
        for flag in action.option_strings:
            if flag in METAVARS:
                action.metavar = METAVARS[flag]
        if isinstance(action, argparse._SubParsersAction):
            for subparser in action.choices.values():
                _name_alike(subparser)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit status (2 for usage errors)."""
    _terminate_as_interrupt()
    try:
        status = _run(argv)
        # Output waiting in the buffer is written here, so that a reader that has gone away
        # shows up as the error below rather than as a message at interpreter exit.
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        return _stdout_closed()


def _terminate_as_interrupt() -> None:
    """SIGTERM ends a command as Ctrl-C does (KeyboardInterrupt): its searches are stopped and
    joined, its files closed whole, and it exits by itself rather than killed mid-write."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, _raise_interrupt)


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _stdout_closed() -> int:
    """The reader of stdout stopped reading (``polychess show | head``): not a mistake to
    report. As Python's documentation advises (signal module, "Note on SIGPIPE"), stdout is
    pointed at devnull, so that the final flush at exit does not fail again, and the exit
    status is 1."""
    try:
        stdout = sys.stdout.fileno()
    except (OSError, ValueError):  # stdout is no file (a test's capture): nothing is flushed at exit
        return 1
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, stdout)
    os.close(devnull)
    return 1


def _run(argv: Sequence[str] | None) -> int:
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
    except BrokenPipeError:
        raise  # the reader of stdout went away: main() handles that
    except OSError as error:
        print(
            f"polychess: {error.strerror or error}{': ' + str(error.filename) if error.filename else ''}",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
