"""A polychess web server on a free loopback port, in a thread, for the web tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from polychess.web import make_server
from polychess.web.server import WebServer


@contextmanager
def running_server(database: str | None = None) -> Iterator[WebServer]:
    web = make_server("127.0.0.1", 0, database=database)
    thread = threading.Thread(target=web.serve_forever, daemon=True)
    thread.start()
    try:
        yield web
    finally:
        web.shutdown()
        web.server_close()
        thread.join(5)
