"""``polychess serve``: the web app (:mod:`polychess.web`) on http://127.0.0.1:8000/."""

from __future__ import annotations

import argparse

from polychess.cli.common import UsageError

__all__ = ["add_parser"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("serve", help="play in the browser: serve the web app",
                            description="Serve the web app, on which people play every variant against engine "
                                        "seats or each other; open the printed address in a browser.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this computer only)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0: any free port)")
    parser.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, got {args.port}")
    from polychess.web import serve  # imported here: the other commands need no web server

    serve(args.host, args.port)
    return 0
