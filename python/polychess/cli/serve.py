"""``polychess serve``: the web app (:mod:`polychess.web`) on http://127.0.0.1:8000/."""

from __future__ import annotations

import argparse

from polychess.cli.common import UsageError

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "serve",
        help="play in the browser: serve the web app",
        description="Serve the web app, on which people play every variant against engine "
        "seats or each other, at one screen or each in their own browser through "
        "invitation links; open the printed address in a browser.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: every "
        "address, for players on your network)",
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0: any free port)")
    parser.add_argument(
        "--db",
        metavar="FILE",
        default=None,
        help="SQLite file that keeps the games, so that a restarted server serves them again "
        "(default: web-games.sqlite3 in the user's data directory)",
    )
    parser.add_argument("--no-db", action="store_true", help="keep the games in memory only")
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, got {args.port}")
    if args.no_db and args.db is not None:
        raise UsageError("give --db FILE or --no-db, not both")
    from polychess.web import serve  # imported here: the other commands need no web server
    from polychess.web.storage import StorageError, default_database

    try:
        serve(args.host, args.port, None if args.no_db else (args.db or default_database()))
    except StorageError as error:  # a database file it cannot use: checked before serving anything
        raise UsageError(str(error)) from None
    return 0
