"""A polychess web server on a free loopback port, in a thread, for the web tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from polychess.web import make_server
from polychess.web.server import WebServer
from polychess.web.storage import GameStorage
from polychess.web.store import MAX_GAMES


@contextmanager
def running_server(
    database: str | None = None, capacity: int = MAX_GAMES, storage: GameStorage | None = None
) -> Iterator[WebServer]:
    """A server keeping its games in the SQLite file ``database``, or in ``storage``, or in
    memory only; at most ``capacity`` games in memory."""
    web = (
        WebServer(("127.0.0.1", 0), capacity, storage)
        if storage is not None
        else make_server("127.0.0.1", 0, capacity, database=database)
    )
    thread = threading.Thread(target=web.serve_forever, daemon=True)
    thread.start()
    try:
        yield web
    finally:
        web.shutdown()
        web.server_close()
        thread.join(5)
